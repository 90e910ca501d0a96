-- scenario.lua: validates one scenario (DESIGN.md's fields) and normalizes it for the
-- C core: every field checked and typed, defaults filled in and each default recorded
-- as an assumption, the model resolved to an architecture description.
local E = require "engine"
local S = {}

local fail, int_field, num_field, bool_field, enum_field, strict =
  E.fail, E.int_field, E.num_field, E.bool_field, E.enum_field, E.strict_field

local MAX_TOKENS, MAX_SEQS, MAX_GPUS = 1 << 30, 1 << 24, 1 << 20

local SCENARIO_KEYS = { "name", "description", "model", "dtype", "quant", "runtime", "workload",
                        "parallel", "gpu", "headroom", "cuda_context" }
local TORCH_DTYPE = { float32 = "fp32", float16 = "fp16", bfloat16 = "bf16", float = "fp32", half = "fp16" }
local DEFAULT_GPU = "H100-SXM-80GB"

-- Precision policies. Autocast (transformers, pytorch) keeps fp32 weights and
-- gradients and runs matmuls in 16 bits; DeepSpeed and Megatron keep 16-bit weights
-- and gradients beside an fp32 master copy. Pure bf16/fp16 keep everything in 16 bits.
local PRECISIONS = {
  fp32 = { weights = "fp32", grads = "fp32", activations = "fp32" },
  ["bf16-mixed"] = { weights = "fp32", grads = "fp32", activations = "bf16", master16 = "bf16" },
  ["fp16-mixed"] = { weights = "fp32", grads = "fp32", activations = "fp16", master16 = "fp16" },
  bf16 = { weights = "bf16", grads = "bf16", activations = "bf16" },
  fp16 = { weights = "fp16", grads = "fp16", activations = "fp16" },
}
local MASTER_RUNTIMES = { deepspeed = true }

local function note(n, fmt, ...) n.notes[#n.notes + 1] = fmt:format(...) end

-- ---------------------------------------------------------------- model

local function find_arch(name, field)
  local archs = E.architectures()
  local a = archs[name]
  if not a and type(name) == "string" then a = archs[name:lower()] end
  if not a then
    local known = {}
    for k in pairs(archs) do known[#known + 1] = k end
    table.sort(known)
    fail(field, "unknown architecture %s (known: %s)", tostring(name), table.concat(known, ", "))
  end
  return a
end

local function arch_of_config(cfg, field)
  if type(cfg.model_type) == "string" then return find_arch(cfg.model_type, field .. ".model_type") end
  fail(field, "config has no 'model_type': name the architecture with model = { arch = ..., config = ... }")
end

local function preset(id)
  local presets = require "architectures.presets"
  local p = presets.models[id]
  if p then return id, p end
  local base = presets.aliases[id]
  if base then return base, presets.models[base] end
  local low = id:lower()
  for k, v in pairs(presets.models) do
    if k:lower() == low then return k, v end
  end
  for k, v in pairs(presets.aliases) do
    if k:lower() == low then return v, presets.models[v] end
  end
end

local function resolve_model(spec, n)
  if type(spec) == "table" then
    strict("model", spec, { "arch", "config", "id" })
    if type(spec.config) ~= "table" then fail("model.config", "expected config.json's fields as a table") end
    local a = spec.arch and find_arch(spec.arch, "model.arch") or arch_of_config(spec.config, "model.config")
    return spec.id or ("inline " .. a.name), a, spec.config
  end
  if type(spec) ~= "string" or spec == "" then fail("model", "expected a preset id, a path or { arch, config }") end
  local id, p = preset(spec)
  if p then return spec, find_arch(p.arch, "model"), p.config, id end
  local kind = host.path_kind(spec)
  if kind == "dir" and host.path_kind(spec .. "/config.json") == "file" then
    local cfg = host.read_json(spec .. "/config.json")
    return spec, arch_of_config(cfg, spec .. "/config.json"), cfg
  elseif kind == "file" and spec:match("%.json$") then
    local cfg = host.read_json(spec)
    return spec, arch_of_config(cfg, spec), cfg
  elseif kind == "file" then
    fail("model", "'%s': reading .gguf and .safetensors files is not supported yet; give its config.json", spec)
  end
  fail("model", "unknown model '%s': not a preset (see 'vramfit list models') and not a file", spec)
end

local function text_config(cfg)
  -- multimodal configs keep the language model's fields in text_config
  if type(cfg.text_config) == "table" and cfg.hidden_size == nil then return cfg.text_config end
  return cfg
end

local function model_part(raw, n)
  if raw.model == nil then fail("model", "missing (a preset id such as meta-llama/Llama-3.1-8B, a path, or { arch, config })") end
  local id, a, cfg, base = resolve_model(raw.model, n)
  if base and base ~= id then note(n, "model %s has the shapes of preset %s", id, base) end
  local ok, desc = pcall(a.build, cfg)
  if not ok then error(("model %s (architecture %s): %s"):format(id, a.name, tostring(desc)), 0) end
  if type(desc) ~= "table" then fail("model", "architecture '%s' returned %s, expected a description table", a.name, type(desc)) end
  desc.arch = desc.arch or a.name
  n.model = { id = id, arch = a.name, desc = desc }
  return text_config(cfg)
end

-- ---------------------------------------------------------------- fields

local function dtype_part(raw, cfg, n)
  if raw.dtype ~= nil then
    n.dtype = enum_field(raw.dtype, "dtype", { "fp32", "fp16", "bf16" })
  elseif type(cfg.torch_dtype) == "string" and TORCH_DTYPE[cfg.torch_dtype] then
    n.dtype = TORCH_DTYPE[cfg.torch_dtype]
    note(n, "dtype %s from config.json torch_dtype %s", n.dtype, cfg.torch_dtype)
  else
    n.dtype = "bf16"
    note(n, "dtype bf16 assumed (not in the scenario or the config)")
  end
  if raw.quant ~= nil then
    fail("quant", "quantized formats are not modelled yet (got %s)", tostring(raw.quant))
  end
end

local function knob_value(rt, k, v, spec)
  local field = "runtime." .. k
  if type(spec) == "table" then return enum_field(v, field, spec) end
  if spec == "int" then return int_field(v, field, 0, 1 << 40) end
  if spec == "number" then return num_field(v, field, 0, 1e15) end
  if spec == "bool" then return bool_field(v, field) end
  if spec == "bytes" then return host.parse_bytes(v, field) end
  if type(v) ~= "string" then fail(field, "expected a string, got %s", tostring(v)) end
  return v
end

local function runtime_part(raw, n)
  local r = raw.runtime
  if r == nil then
    r = { name = "transformers" }
    note(n, "runtime transformers assumed")
  elseif type(r) == "string" then
    r = { name = r }
  end
  if type(r) ~= "table" then fail("runtime", "expected a table with 'name'") end
  local rts = E.runtimes()
  local rt = rts[r.name]
  if not rt then
    local names = {}
    for _, def in pairs(rts) do names[def.name] = true end
    local list = {}
    for k in pairs(names) do list[#list + 1] = k end
    table.sort(list)
    fail("runtime.name", "unknown runtime %s (known: %s)", tostring(r.name), table.concat(list, ", "))
  end
  local allowed = { "name", "version" }
  for k in pairs(rt.knobs) do allowed[#allowed + 1] = k end
  strict("runtime", r, allowed)
  local knobs = {}
  for k, v in pairs(r) do
    if k ~= "name" and k ~= "version" then knobs[k] = knob_value(rt, k, v, rt.knobs[k]) end
  end
  if r.version ~= nil and type(r.version) ~= "string" then fail("runtime.version", "expected a string such as \"0.19.0\"") end
  n.runtime, n.runtime_version, n.knobs = rt.name, r.version, knobs
  return rt
end

local INFER_KEYS = { "kind", "context", "concurrency", "prompt_tokens", "output_tokens", "attention" }
local TRAIN_KEYS = { "kind", "method", "micro_batch", "seq_len", "grad_accum", "grad_checkpointing", "optimizer",
                     "precision", "lora", "attention", "optimizer_in_backward", "offload", "width", "height",
                     "frames", "precomputed_embeddings", "text_encoders", "max_sequence_length", "modules_to_save" }

local function inference_part(w, n, cfg)
  strict("workload", w, INFER_KEYS)
  if w.context == nil then
    local ctx = n.knobs.max_model_len or n.knobs.n_ctx
    if not ctx then fail("workload.context", "missing (tokens per sequence)") end
    w.context = ctx
    note(n, "context %d from the runtime's options", ctx)
  end
  n.context = int_field(w.context, "workload.context", 1, MAX_TOKENS)
  if w.concurrency == nil then note(n, "concurrency 1 assumed") end
  n.concurrency = int_field(w.concurrency or 1, "workload.concurrency", 1, MAX_SEQS)
  n.prompt_tokens = w.prompt_tokens and int_field(w.prompt_tokens, "workload.prompt_tokens", 1, n.context) or 0
  if w.output_tokens ~= nil then
    local out = int_field(w.output_tokens, "workload.output_tokens", 0, n.context)
    if n.prompt_tokens == 0 then n.prompt_tokens = math.max(1, n.context - out) end
  end
  n.attention = enum_field(w.attention or "sdpa", "workload.attention", { "sdpa", "flash", "eager" })
  if w.attention == nil then note(n, "attention sdpa assumed") end
  n.static_cache = n.knobs.cache == "static"
  n.precision = { name = n.dtype, weights = n.dtype, grads = n.dtype, activations = n.dtype, master = false }
  n.optimizer = { name = "none", states = 0, state_extra_bits = 0, step_temps = 0 }
end

local function optimizer_part(name, n)
  local opts = E.optimizers()
  local o = opts[name]
  if not o then
    local list = {}
    for _, def in pairs(opts) do list[#list + 1] = def.name end
    table.sort(list)
    local seen, uniq = {}, {}
    for _, v in ipairs(list) do if not seen[v] then seen[v] = true; uniq[#uniq + 1] = v end end
    fail("workload.optimizer", "unknown or not yet modelled optimizer %s (known: %s)", tostring(name), table.concat(uniq, ", "))
  end
  n.optimizer = { name = o.name, states = o.states, state_extra_bits = o.state_extra_bits, step_temps = o.step_temps }
end

local function train_part(w, n)
  strict("workload", w, TRAIN_KEYS)
  local method = w.method or "full"
  if method ~= "full" then fail("workload.method", "'%s' is not modelled yet (modelled: full)", tostring(method)) end
  if w.method == nil then note(n, "method full assumed") end
  n.micro_batch = int_field(w.micro_batch or 1, "workload.micro_batch", 1, MAX_SEQS)
  if w.seq_len == nil then fail("workload.seq_len", "missing (tokens per training sequence)") end
  n.seq_len = int_field(w.seq_len, "workload.seq_len", 1, MAX_TOKENS)
  n.grad_accum = int_field(w.grad_accum or 1, "workload.grad_accum", 1, 1 << 20)
  local gc = w.grad_checkpointing
  if gc == nil or gc == false then n.gc = "none"
  elseif gc == true then n.gc = "full"
  elseif gc == "selective" then n.gc = "selective"
  else fail("workload.grad_checkpointing", "expected true, false or \"selective\", got %s", tostring(gc)) end
  if w.optimizer == nil then note(n, "optimizer adamw assumed") end
  optimizer_part(w.optimizer or "adamw", n)
  local pname = w.precision
  if pname == nil then
    pname = n.dtype == "fp32" and "fp32" or (n.dtype .. "-mixed")
    note(n, "precision %s assumed", pname)
  end
  local p = PRECISIONS[pname]
  if not p then fail("workload.precision", "expected one of bf16, bf16-mixed, fp16, fp16-mixed, fp32, got %s", tostring(pname)) end
  local master = p.master16 ~= nil and MASTER_RUNTIMES[n.runtime] == true
  n.precision = { name = pname, weights = master and p.master16 or p.weights, grads = master and p.master16 or p.grads,
                  activations = p.activations, master = master }
  n.attention = enum_field(w.attention or "sdpa", "workload.attention", { "sdpa", "flash", "eager" })
  n.context, n.concurrency, n.prompt_tokens, n.static_cache = 0, 0, 0, false
end

local function workload_part(raw, n, rt, cfg)
  local w = raw.workload
  if type(w) ~= "table" then fail("workload", "missing (a table with kind = \"inference\" or \"train\")") end
  local kind = enum_field(w.kind, "workload.kind", { "inference", "train", "image", "video" })
  if kind == "image" or kind == "video" then fail("workload.kind", "'%s' workloads are not modelled yet", kind) end
  local ok = false
  for _, k in ipairs(rt.kinds) do ok = ok or k == kind end
  if not ok then fail("runtime.name", "runtime '%s' does not run %s workloads", rt.name, kind) end
  if not rt.modelled then fail("runtime.name", "runtime '%s' is not modelled yet (modelled: transformers, pytorch)", rt.name) end
  n.kind = kind
  if kind == "inference" then inference_part(w, n, cfg) else train_part(w, n) end
end

local STRATEGIES = { "none", "ddp", "fsdp", "zero1", "zero2", "zero3" }

local function parallel_part(raw, n)
  local p = raw.parallel or {}
  strict("parallel", p, { "tp", "pp", "dp", "strategy", "offload_optimizer", "offload_params", "sequence_parallel" })
  n.tp = int_field(p.tp or 1, "parallel.tp", 1, MAX_GPUS)
  n.pp = int_field(p.pp or 1, "parallel.pp", 1, MAX_GPUS)
  n.dp = int_field(p.dp or 1, "parallel.dp", 1, MAX_GPUS)
  if n.tp * n.pp * n.dp > MAX_GPUS then fail("parallel", "tp x pp x dp = %d GPUs is out of range (at most %d)", n.tp * n.pp * n.dp, MAX_GPUS) end
  local default = n.dp > 1 and "ddp" or "none"
  n.strategy = enum_field(p.strategy or default, "parallel.strategy", STRATEGIES)
  if p.offload_optimizer or p.offload_params then fail("parallel", "CPU offload is not modelled yet") end
  if p.sequence_parallel and p.sequence_parallel ~= 1 then fail("parallel.sequence_parallel", "not modelled yet") end
end

local function gpu_entry(g, field)
  if type(g) == "string" then return { name = g } end
  if type(g) ~= "table" then fail(field, "expected a GPU name or { name = ..., memory = ... }") end
  strict(field, g, { "name", "memory" })
  if type(g.name) ~= "string" then fail(field .. ".name", "expected a string") end
  if g.memory == nil then return { name = g.name } end
  local mem = host.parse_bytes(g.memory, field .. ".memory")
  if mem < 1 << 28 then fail(field .. ".memory", "%s is below 256 MiB; give a unit, e.g. \"80GB\" or \"79.19GiB\"", tostring(g.memory)) end
  return { name = g.name, memory = mem }
end

local function gpu_part(raw, n)
  local g = raw.gpu
  n.gpus = {}
  if g == nil then return end
  if type(g) == "table" and g[1] ~= nil then
    for i, x in ipairs(g) do n.gpus[i] = gpu_entry(x, ("gpu[%d]"):format(i)) end
  else
    n.gpus[1] = gpu_entry(g, "gpu")
  end
  if #n.gpus > 64 then fail("gpu", "at most 64 GPUs per scenario") end
end

-- prepare(raw): the normalized table the C core reads.
function S.prepare(raw)
  strict("scenario", raw, SCENARIO_KEYS)
  local n = { notes = {} }
  if raw.name ~= nil and type(raw.name) ~= "string" then fail("name", "expected a string") end
  n.name = raw.name or (type(raw.model) == "string" and raw.model) or "scenario"
  local cfg = model_part(raw, n)
  dtype_part(raw, cfg, n)
  local rt = runtime_part(raw, n)
  workload_part(raw, n, rt, cfg)
  parallel_part(raw, n)
  gpu_part(raw, n)
  n.headroom = num_field(raw.headroom or 0.05, "headroom", 0, 0.9)
  if raw.headroom == nil then note(n, "headroom 5%% of each GPU kept free") end
  n.cuda_context = raw.cuda_context and host.parse_bytes(raw.cuda_context, "cuda_context") or 0
  n.kv_dtype = n.dtype
  return n
end

return S
