-- scenario.lua: validates one scenario (DESIGN.md's fields) and normalizes it for the
-- C core: every field checked and typed, defaults filled in and each default recorded
-- as an assumption, the model resolved to an architecture description.
local E = require "engine"
local S = {}

local fail, int_field, num_field, bool_field, enum_field, strict, note =
  E.fail, E.int_field, E.num_field, E.bool_field, E.enum_field, E.strict_field, E.note

local MAX_GPUS = E.MAX_GPUS

local SCENARIO_KEYS = { "name", "description", "model", "dtype", "quant", "runtime", "workload",
                        "parallel", "gpu", "headroom", "cuda_context" }
local TORCH_DTYPE = { float32 = "fp32", float16 = "fp16", bfloat16 = "bf16", float = "fp32", half = "fp16" }

-- ---------------------------------------------------------------- model

local function find_arch(name, field)
  local a = E.architecture_named(name)
  if a then return a end
  local archs = E.architectures()
  a = archs[name]
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

-- preset(id) -> base id, preset: a preset or alias id, matched exactly, else ignoring case
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
S.preset = preset -- a draft model's id resolves alike (scripts/speculative.lua)

-- resolve_model(spec, n) -> { id, arch, config, base, tensors }: a preset, an inline
-- { arch, config }, a config.json or model directory, or a model file (.gguf,
-- .safetensors: scripts/model_files.lua), whose tensors replace the architecture's.
local function resolve_model(spec, n)
  if type(spec) == "table" then
    strict("model", spec, { "arch", "config", "id" })
    if type(spec.config) ~= "table" then fail("model.config", "expected config.json's fields as a table") end
    local a = spec.arch and find_arch(spec.arch, "model.arch") or arch_of_config(spec.config, "model.config")
    return { id = spec.id or ("inline " .. a.name), arch = a, config = spec.config }
  end
  if type(spec) ~= "string" or spec == "" then fail("model", "expected a preset id, a path or { arch, config }") end
  local id, p = preset(spec)
  if p then return { id = spec, arch = find_arch(p.arch, "model"), config = p.config, base = id, model_type = p.arch } end
  local kind = host.path_kind(spec)
  if kind == "file" and spec:match("%.json$") and not spec:match("%.index%.json$") then
    local cfg = host.read_json(spec)
    return { id = spec, arch = arch_of_config(cfg, spec), config = cfg }
  elseif kind == "file" or kind == "dir" then
    local m = require("model_files").resolve(spec, n)
    m.arch = type(m.arch) == "table" and m.arch or find_arch(m.arch, "model")
    return m
  end
  local shown = #spec > 200 and (spec:sub(1, 200) .. "...") or spec
  fail("model", "unknown model '%s': not a preset (see 'vramfit list models') and not a file", shown)
end

local function text_config(cfg)
  -- multimodal configs keep the language model's fields in text_config
  if type(cfg.text_config) == "table" and cfg.hidden_size == nil then return cfg.text_config end
  return cfg
end

local function model_part(raw, n)
  if raw.model == nil then fail("model", "missing (a preset id such as meta-llama/Llama-3.1-8B, a path, or { arch, config })") end
  local r = resolve_model(raw.model, n)
  local id, a, cfg, base = r.id, r.arch, r.config, r.base
  if base and base ~= id then note(n, "model %s has the shapes of preset %s", id, base) end
  local ok, desc = pcall(a.build, cfg)
  if not ok then error(("model %s (architecture %s): %s"):format(id, a.name, tostring(desc)), 0) end
  if type(desc) ~= "table" then fail("model", "architecture '%s' returned %s, expected a description table", a.name, type(desc)) end
  desc.arch = desc.arch or a.name
  -- the real file's tensors, exact bytes, with the architecture's roles
  if r.tensors then desc.tensors = require("model_files").with_arch_roles(r.tensors, desc.tensors) end
  if r.component then                               -- a diffusers model folder: one component's
    local keep, prefix = {}, nil
    for _, t in ipairs(desc.tensors or {}) do
      if t.component == r.component.name then prefix = prefix or t.name:match("^([^.]+%.)")
      else keep[#keep + 1] = t end
    end
    if not prefix then fail("model", "architecture '%s' has no %s component for %s", a.name, r.component.name, id) end
    for _, t in ipairs(r.component.tensors) do
      t.name, t.component = prefix .. t.name, r.component.name
      keep[#keep + 1] = t
    end
    require("model_files").with_arch_roles(r.component.tensors, desc.tensors, r.component.name)
    desc.tensors = keep
    note(n, "%s: the file's tensors replace the %s of %s", id, r.component.name, a.name)
  end
  if r.kv then desc.kv = r.kv end                  -- a file's exact KV layout (per-layer heads)
  -- config.json's model_type (a preset's arch is one; PEFT's default targets key on it)
  local mt = r.model_type or cfg.model_type or (type(raw.model) == "table" and raw.model.arch) or nil
  n.model = { id = id, arch = a.name, desc = desc, model_type = type(mt) == "string" and mt or nil }
  n.model_config = cfg -- for runtime hooks that read fields the description drops (MTP layers)
  -- a checkpoint that stores quantized weights (applied in S.prepare unless the scenario
  -- names a quant); a file's real tensors already hold their stored bytes
  if type(cfg.quantization_config) == "table" and not r.tensors then n.model.qconfig = cfg.quantization_config end
  return text_config(cfg)
end

-- ---------------------------------------------------------------- fields

local function dtype_part(raw, cfg, n, rt)
  -- a runtime that loads in its own dtype whatever the checkpoint stores (rt.dtypes: torchtune's
  -- recipes take cfg.dtype, bf16 in every shipped config) and refuses some (fp16 there)
  local own = rt.dtypes
  if raw.dtype ~= nil then
    n.dtype = enum_field(raw.dtype, "dtype", { "fp32", "fp16", "bf16" })
    if own and own.refused and own.refused[n.dtype] then
      fail("dtype", "%s is refused by %s: %s", n.dtype, rt.name, own.refused[n.dtype])
    end
  elseif own and own.default then
    n.dtype = own.default
    note(n, "dtype %s assumed (%s)", n.dtype, own.why)
  elseif type(cfg.torch_dtype) == "string" and TORCH_DTYPE[cfg.torch_dtype] then
    n.dtype = TORCH_DTYPE[cfg.torch_dtype]
    note(n, "dtype %s from config.json torch_dtype %s", n.dtype, cfg.torch_dtype)
  else
    n.dtype = "bf16"
    note(n, "dtype bf16 assumed (not in the scenario or the config)")
  end
end

local function knob_value(rt, k, v, spec)
  local field = "runtime." .. k
  if type(spec) == "table" then return enum_field(v, field, spec) end
  if spec == "int" then return int_field(v, field, 0, 1 << 40) end
  if spec == "number" then return num_field(v, field, 0, 1e15) end
  if spec == "bool" then return bool_field(v, field) end
  if spec == "bytes" then return host.parse_bytes(v, field) end
  -- a string or a list of strings (llama.cpp's -ot, given once or several times): the
  -- runtime's normalize validates the entries
  if spec == "strings" then
    if type(v) == "string" then return v end
    if type(v) ~= "table" or v[1] == nil then fail(field, "expected a string or a list of strings") end
    for i, s in pairs(v) do
      if math.type(i) ~= "integer" or i < 1 or i > #v or type(s) ~= "string" then
        fail(("%s[%s]"):format(field, tostring(i)), "expected a string")
      end
    end
    return v
  end
  -- a nested table (runtime.speculative): the runtime's normalize validates it
  if spec == "table" then
    if type(v) ~= "table" then fail(field, "expected a table, got %s", type(v)) end
    return v
  end
  if type(v) ~= "string" then fail(field, "expected a string, got %s", tostring(v)) end
  return v
end

local function runtime_part(raw, n)
  local r = raw.runtime
  if r == nil then
    -- an image or video pipeline runs on diffusers, a language model on transformers
    local kind = type(raw.workload) == "table" and raw.workload.kind
    r = { name = (kind == "image" or kind == "video") and "diffusers" or "transformers" }
    note(n, "runtime %s assumed", r.name)
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
  n.runtime_alias = r.name -- the name the scenario used ("ollama" for the llamacpp runtime)
  for k, v in pairs(knobs) do
    if type(v) ~= "table" then n.extra["runtime." .. k] = v end
  end
  return rt
end

local function workload_part(raw, n, rt, cfg)
  local w = raw.workload
  if w == nil then fail("workload", "missing (a table with kind = \"inference\" or \"train\")") end
  if type(w) ~= "table" then
    fail("workload", "expected a table such as { kind = \"inference\", context = 8192 }, got %s", type(w))
  end
  local kind = enum_field(w.kind, "workload.kind", { "inference", "train", "image", "video" })
  local ok = false
  for _, k in ipairs(rt.kinds) do ok = ok or k == kind end
  if not ok then fail("runtime.name", "runtime '%s' does not run %s workloads", rt.name, kind) end
  if not rt.modelled then
    local list = {}
    for _, def in pairs(E.runtimes()) do
      if def.modelled then list[def.name] = true end
    end
    local names = {}
    for k in pairs(list) do names[#names + 1] = k end
    table.sort(names)
    fail("runtime.name", "runtime '%s' is not modelled yet (modelled: %s)", rt.name, table.concat(names, ", "))
  end
  n.kind = kind
  require("workloads." .. kind).normalize(w, n, cfg, rt)
  if rt.normalize then rt.normalize(n, n.knobs) end
end

local STRATEGIES = { "none", "ddp", "fsdp", "zero1", "zero2", "zero3" }

-- Context parallelism (parallel.cp) and sequence parallelism with TP
-- (parallel.sequence_parallel = true) for training. Both split the sequence, so
-- seq_len must divide: torchtitan requires tokens divisible by tp (sequence parallel)
-- x 2 cp (context parallel's head-tail load balancing gives every rank two chunks;
-- torchtitan/distributed/parallel_dims.py seq_len_divisor, trainer.py). Ring attention
-- replaces SDPA's flash/efficient/cuDNN kernels (torch/distributed/tensor/experimental/
-- _attention.py), so eager attention cannot run under cp. src/train.c reads train.cp,
-- train.cp_rotate and train.sp.
-- Layers per pipeline stage as the runtime deals them (src/train.c pp_stage_layers) must
-- exist: Megatron's TransformerConfig and get_num_layers_to_build refuse a split that does
-- not divide, a zero-layer end stage, and decoder_first/last_pipeline_num_layers together
-- with account_for_embedding/loss_in_pipeline_split (megatron/core/transformer/
-- transformer_config.py); torchtitan's generate_llm_fqn_per_model_part refuses more stages
-- than layers + 2 (torchtitan/distributed/pipeline_parallel.py).
local MEG_SPLIT = { "decoder_first_pipeline_num_layers", "decoder_last_pipeline_num_layers",
                    "account_for_embedding_in_pipeline_split", "account_for_loss_in_pipeline_split" }

local function megatron_split(n, L)
  local k = n.knobs or {}
  local f, l = k.decoder_first_pipeline_num_layers, k.decoder_last_pipeline_num_layers
  local emb, loss = k.account_for_embedding_in_pipeline_split, k.account_for_loss_in_pipeline_split
  for _, name in ipairs(MEG_SPLIT) do
    if k[name] ~= nil and n.pp < 2 then
      fail("runtime." .. name, "splits the layers over pipeline stages: it needs parallel.pp > 1")
    end
  end
  for name, v in pairs { decoder_first_pipeline_num_layers = f, decoder_last_pipeline_num_layers = l } do
    if v ~= nil and v < 1 then fail("runtime." .. name, "expected a positive number of layers, got %d", v) end
  end
  if (f or l) and (emb or loss) then
    fail(emb and "runtime.account_for_embedding_in_pipeline_split" or "runtime.account_for_loss_in_pipeline_split",
         "cannot be combined with decoder_first/last_pipeline_num_layers (Megatron refuses both)")
  end
  if f or l then
    local rest, others = L - (f or 0) - (l or 0), n.pp - (f and 1 or 0) - (l and 1 or 0)
    local field = "runtime." .. (f and "decoder_first_pipeline_num_layers" or "decoder_last_pipeline_num_layers")
    if rest < 0 or (others == 0 and rest ~= 0) then
      fail(field, "%d layers on the end stages%s, but the model has %d", L - rest,
           others == 0 and " (the only stages at parallel.pp = 2)" or "", L)
    end
    if others > 0 and rest % others ~= 0 then
      fail(field, "the model's %d layers less the end stages' %d leave %d, which do not divide over the %d other " ..
           "pipeline stages", L, L - rest, rest, others)
    end
    return
  end
  local units = L + (emb and 1 or 0) + (loss and 1 or 0)
  if units % n.pp ~= 0 then
    fail("parallel.pp", "megatron builds num_layers / pp layers a stage: the model's %d layers%s do not divide " ..
         "over %d stages (runtime.decoder_first_pipeline_num_layers / decoder_last_pipeline_num_layers set uneven ends)",
         L, units ~= L and (" and " .. (units - L) .. " counted by account_for_*_in_pipeline_split") or "", n.pp)
  end
end

local function pp_split(n)
  local L = type(n.model.desc) == "table" and n.model.desc.layers
  if math.type(L) ~= "integer" or n.extra["train.pipeline"] then return end
  if n.runtime == "megatron" then return megatron_split(n, L) end
  if n.runtime == "pytorch" and n.pp > L + 2 then
    fail("parallel.pp", "torchtitan deals the model's %d layers, the embeddings and the head (%d) over at most " ..
         "that many pipeline stages, not %d", L, L + 2, n.pp)
  end
end

-- FSDP's sharding strategy (parallel.fsdp_sharding: torch.distributed.fsdp.ShardingStrategy,
-- accelerate's fsdp_sharding_strategy, lower-case or as spelled there), its shard group
-- (parallel.dp_shard: torchtitan's ParallelDims dp_shard, accelerate's dp_shard_size) and
-- fully_shard's reshard_after_forward (FSDP2: true, false or the post-forward mesh size).
-- FULL_SHARD / reshard_after_forward = true is the default and what "fsdp" always meant.
-- SHARD_GRAD_OP / false keeps every unit gathered from its forward to its backward; the
-- HYBRID strategies shard within groups of dp_shard ranks (x cp) and replicate over
-- dp / dp_shard of them (HSDP, a 2-D mesh); NO_SHARD keeps everything whole, like DDP,
-- and all-reduces the flat gradients in place. src/train.c shard_ranks and fsdp_fwd_kept
-- turn the extras below into bytes.
local FSDP_SHARDING = { "full_shard", "shard_grad_op", "hybrid_shard", "hybrid_shard_zero2", "no_shard" }
local FSDP_KEEP = { shard_grad_op = true, hybrid_shard_zero2 = true }
local FSDP_HYBRID = { hybrid_shard = true, hybrid_shard_zero2 = true }
local FSDP_NODE = 8 -- FSDP1's HYBRID_SHARD without process groups shards over torch.cuda.device_count() ranks

local function fsdp_sharding(p, n, cp)
  local s, ds, raf = p.fsdp_sharding, p.dp_shard, p.reshard_after_forward
  if s == nil and ds == nil and raf == nil then return end
  local given = s ~= nil and "parallel.fsdp_sharding" or ds ~= nil and "parallel.dp_shard" or "parallel.reshard_after_forward"
  if n.strategy ~= "fsdp" then fail(given, "applies to parallel.strategy \"fsdp\", not \"%s\"", n.strategy) end
  -- accelerate spells them FULL_SHARD ... HYBRID_SHARD_ZERO2, torch _HYBRID_SHARD_ZERO2
  if type(s) == "string" then s = s:lower():gsub("^_", "") end
  if s ~= nil then s = enum_field(s, "parallel.fsdp_sharding", FSDP_SHARDING) end
  if raf ~= nil and type(raf) ~= "boolean" and math.type(raf) ~= "integer" then
    fail("parallel.reshard_after_forward", "expected true, false or the post-forward mesh size (an integer), got %s", tostring(raf))
  end
  if raf ~= nil and s ~= nil and (s == "no_shard" or (raf == false) ~= (FSDP_KEEP[s] or false)) then
    fail("parallel.reshard_after_forward", "%s contradicts parallel.fsdp_sharding \"%s\" (false is shard_grad_op's, " ..
         "true or an integer full_shard's or hybrid_shard's)", tostring(raf), s)
  end
  if s == nil then s = ds ~= nil and ds ~= n.dp and "hybrid_shard" or "full_shard" end
  if raf == false then s = FSDP_HYBRID[s] and "hybrid_shard_zero2" or "shard_grad_op" end
  if ds ~= nil then
    ds = int_field(ds, "parallel.dp_shard", 1, MAX_GPUS)
    if not FSDP_HYBRID[s] and ds ~= n.dp then
      fail("parallel.dp_shard", "%s shards over all parallel.dp = %d ranks; a smaller shard group is hybrid_shard's or " ..
           "hybrid_shard_zero2's", s, n.dp)
    end
  elseif FSDP_HYBRID[s] then
    if n.dp % FSDP_NODE ~= 0 or n.dp == FSDP_NODE then
      fail("parallel.dp_shard", "%s needs the shard group's size: set dp_shard to a divisor of parallel.dp = %d", s, n.dp)
    end
    ds = FSDP_NODE
    note(n, ("FSDP %s: shard groups of %d ranks (one node of %d GPUs, FSDP1's default intra-node group) assumed"):format(s, ds, FSDP_NODE))
  end
  if ds ~= nil and n.dp % ds ~= 0 then
    fail("parallel.dp_shard", "%d does not divide parallel.dp = %d: HSDP replicates the model over dp / dp_shard groups", ds, n.dp)
  end
  if math.type(raf) == "integer" then
    local group = (ds or n.dp) * cp
    if n.extra["train.fsdp1"] then
      fail("parallel.reshard_after_forward", "an integer is fully_shard's (FSDP2) post-forward mesh; FullyShardedDataParallel " ..
           "(runtime.fsdp_version 1) takes true or false (parallel.fsdp_sharding)")
    end
    if n.tp > 1 then fail("parallel.reshard_after_forward", "fully_shard does not reshard to a smaller mesh with tensor parallelism (tp > 1)") end
    if raf <= 1 or raf >= group or group % raf ~= 0 then
      fail("parallel.reshard_after_forward", "expected a divisor of the shard group's %d ranks (dp_shard x cp) strictly " ..
           "between 1 and %d, got %d", group, group, raf)
    end
    n.extra["train.raf_mesh"] = raf
  end
  n.extra["train.fsdp_keep"] = FSDP_KEEP[s] or false
  n.extra["train.fsdp_no_shard"] = s == "no_shard"
  if FSDP_HYBRID[s] then n.extra["train.dp_shard"] = ds end
  n.fsdp_sharding = s
end

local function train_parallel(p, n)
  local cp = int_field(p.cp or 1, "parallel.cp", 1, MAX_GPUS)
  if n.tp * n.pp * n.dp * cp > MAX_GPUS then
    fail("parallel", "tp x pp x dp x cp = %d GPUs is out of range (at most %d)", n.tp * n.pp * n.dp * cp, MAX_GPUS)
  end
  -- true: PyTorch's SequenceParallel (DTensor, torchtitan), whose column-parallel Linears
  -- save the all-gathered input; "megatron": Megatron-LM's, which saves the local shard and
  -- all-gathers it again in backward (tensor_parallel/layers.py
  -- LinearWithGradAccumulationAndAsyncCommunication)
  local spv = p.sequence_parallel
  if spv ~= nil and type(spv) ~= "boolean" and spv ~= "megatron" then
    fail("parallel.sequence_parallel", "expected true, false or \"megatron\" for training, got %s", tostring(spv))
  end
  local sp = spv == true or spv == "megatron"
  if spv == "megatron" then n.extra["train.sp_local"] = true end
  if sp and n.tp < 2 then
    fail("parallel.sequence_parallel", "splits the activations tensor parallelism replicates over the tp ranks: it needs parallel.tp > 1")
  end
  if cp > 1 and n.extra["train.pipeline"] then
    fail("parallel.cp", "context parallelism is modelled for transformer language models, not diffusion pipelines")
  end
  if cp > 1 and n.attention == "eager" then
    fail("parallel.cp", "ring attention runs on SDPA's flash, efficient or cuDNN kernels: set workload.attention to \"sdpa\" or \"flash\", not \"eager\"")
  end
  local div = (sp and n.tp or 1) * (cp > 1 and 2 * cp or 1)
  if n.seq_len % div ~= 0 then
    local why = sp and cp > 1 and "tp x 2 x cp" or cp > 1 and "2 x cp" or "tp"
    fail("parallel.cp", "workload.seq_len %d is not divisible by %s = %d", n.seq_len, why, div)
  end
  if p.cp_rotate ~= nil and cp == 1 then fail("parallel.cp_rotate", "applies to context parallelism (parallel.cp > 1)") end
  local rotate = enum_field(p.cp_rotate or "allgather", "parallel.cp_rotate", { "allgather", "alltoall" })
  n.extra["train.cp"], n.extra["train.sp"] = cp, sp
  fsdp_sharding(p, n, cp)
  -- Megatron-Core's DDP keeps the whole gradient buffer on every rank and its distributed
  -- optimizer is ZeRO-1 (runtime.use_distributed_optimizer); Megatron-FSDP is not modelled
  if n.runtime == "megatron" and n.strategy ~= "none" and n.strategy ~= "ddp" and n.strategy ~= "zero1" then
    fail("parallel.strategy", "\"%s\" is not modelled for megatron (Megatron-FSDP is not): use \"ddp\", and " ..
         "runtime.use_distributed_optimizer = true for its ZeRO-1", n.strategy)
  end
  pp_split(n)
  if cp > 1 then
    n.extra["train.cp_rotate"] = rotate
    if p.cp_rotate == nil then note(n, "context parallel KV exchange by all-gather assumed (torchtitan's default rotate method)") end
  end
  if n.pp > 1 then
    -- src/train.c pp_stages: no schedule field; GPipe (every micro-batch in flight on every
    -- stage) and interleaved 1F1B (virtual stages) are not modelled
    local sched = n.runtime == "megatron" and "Megatron's forward_backward_pipelining_without_interleaving"
                  or "PyTorch's Schedule1F1B, torchtitan's default"
    note(n, "pipeline parallel: a 1F1B schedule of workload.grad_accum micro-batches per step assumed (" .. sched ..
            "); the heavier of the first and last stages is reported (with the " ..
            "pytorch runtime's receive buffers and pp > 2, also the second stage is compared)")
  end
end

local function parallel_part(raw, n)
  local p = raw.parallel or {}
  strict("parallel", p, { "tp", "pp", "dp", "cp", "cp_rotate", "strategy", "offload_optimizer", "offload_params",
                          "sequence_parallel", "fsdp_sharding", "dp_shard", "reshard_after_forward", "nvls" })
  n.tp = int_field(p.tp or 1, "parallel.tp", 1, MAX_GPUS)
  n.pp = int_field(p.pp or 1, "parallel.pp", 1, MAX_GPUS)
  n.dp = int_field(p.dp or 1, "parallel.dp", 1, MAX_GPUS)
  if n.tp * n.pp * n.dp > MAX_GPUS then fail("parallel", "tp x pp x dp = %d GPUs is out of range (at most %d)", n.tp * n.pp * n.dp, MAX_GPUS) end
  local default = n.dp > 1 and "ddp" or "none"
  n.strategy = enum_field(p.strategy or default, "parallel.strategy", STRATEGIES)
  if p.offload_optimizer ~= nil or p.offload_params ~= nil then
    if n.kind ~= "train" then fail("parallel", "offload_optimizer and offload_params apply to training") end
    n.extra["train.offload_optimizer"] = bool_field(p.offload_optimizer or false, "parallel.offload_optimizer")
    n.extra["train.offload_params"] = bool_field(p.offload_params or false, "parallel.offload_params")
  end
  -- NCCL's NVLink-SHARP multicast on an NVSwitch board (src/estimate.c est_nvls): true / false
  -- overrides the catalog's guess, for a host or container where multicast is off or missing
  -- (NCCL_NVLS_ENABLE=0, no fabric manager multicast: the Red Hat H200 logs of
  -- tests/test_holdout25_vllm.c print no NVLS buffers at tp 4 and 8 in 0.11.2-0.19.0).
  if p.nvls ~= nil then
    if n.kind == "train" then fail("parallel.nvls", "NCCL's NVLS buffers are modelled for inference workloads only") end
    -- only vLLM's and SGLang's estimates read it (est_tp_comm_gib, est_nvls)
    if n.runtime ~= "vllm" and n.runtime ~= "sglang" then
      fail("parallel.nvls", "NCCL's NVLS buffers are modelled for runtime vllm or sglang, not %s", tostring(n.runtime))
    end
    n.extra["parallel.nvls"] = bool_field(p.nvls, "parallel.nvls")
  end
  if n.kind == "train" then return train_parallel(p, n) end
  if p.cp ~= nil or p.cp_rotate ~= nil then fail("parallel.cp", "context parallelism is modelled for training workloads only") end
  for _, k in ipairs({ "fsdp_sharding", "dp_shard", "reshard_after_forward" }) do
    if p[k] ~= nil then fail("parallel." .. k, "FSDP's sharding strategies are modelled for training workloads only") end
  end
  if p.sequence_parallel and p.sequence_parallel ~= 1 then
    -- Ulysses/ring sequence parallel: modelled for generation (src/gen.c reads gen.sp)
    if n.kind ~= "image" and n.kind ~= "video" then fail("parallel.sequence_parallel", "modelled for image and video workloads only") end
    n.extra["gen.sp"] = int_field(p.sequence_parallel, "parallel.sequence_parallel", 1, MAX_GPUS)
  end
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

-- The catalog entry a GPU name resolves to, as src/catalog.c resolves it: the canonical
-- name (caseless), then the first alias (PCRE2, caseless) in file order; nil if none.
local function catalog_entry(name)
  local cat = E.catalog()
  for _, g in ipairs(cat) do
    if g.name:lower() == name:lower() then return g end
  end
  for _, g in ipairs(cat) do
    for _, a in ipairs(g.aliases or {}) do
      if host.match(a, name, true) then return g end
    end
  end
end

-- fp8 training needs fp8 tensor cores: torchao's Float8Linear and Transformer Engine
-- refuse GPUs below compute capability 8.9 (torchtitan components/quantization/
-- float8.py: "float8 is only supported on SM89 or later"); scripts/gpus.lua records it
-- per entry as fp8 = true/false. A GPU outside the catalog (a name with its own memory)
-- is not judged.
-- FSDP under bf16/fp16 mixed precision: src/train.c fsdp_mixed takes MixedPrecision's
-- 16-bit param_dtype (torchtitan's and accelerate's setting); say so.
local function fsdp_mixed_note(n)
  local p = n.precision
  if n.kind ~= "train" or n.strategy ~= "fsdp" or not p or n.extra["train.offload_params"] then return end
  if n.extra["train.fsdp_no_shard"] then return end -- NO_SHARD: src/train.c takes autocast's copies
  if (n.extra["train.dp_shard"] or n.dp) * (n.extra["train.cp"] or 1) > 1 and p.weights == "fp32" and p.activations ~= "fp32" then
    note(n, "FSDP MixedPrecision param_dtype %s assumed (torchtitan's and accelerate's): units gathered in %s, "
            .. "no autocast copies of the fp32 shards", p.activations, p.activations)
  end
end

-- FlashInfer is a CUDA library: vLLM's sampler takes it only under current_platform.is_cuda()
-- (src/rt_vllm.c vllm_config), so on a ROCm GPU a flashinfer_sampler the scenario gives or
-- vLLM 0.8-0.10 assumes is not used. The note is for the scenario's own GPU; fit's probes
-- decide per GPU in C.
local function rocm_sampler_note(n)
  if n.runtime ~= "vllm" or n.extra["runtime.flashinfer_sampler"] ~= true or not n.gpus[1] then return end
  local e = catalog_entry(n.gpus[1].name)
  if e and type(e.arch) == "string" and e.arch:find("^cdna") then
    note(n, "%s is a ROCm GPU: vLLM samples with the PyTorch sort there, flashinfer_sampler has no effect", e.name)
  end
end

local function fp8_part(n)
  local policy = n.extra["train.fp8"]
  if not policy then return end
  for i, g in ipairs(n.gpus) do
    local e = catalog_entry(g.name)
    if e and not e.fp8 then
      local field = #n.gpus > 1 and ("gpu[%d]"):format(i) or "gpu"
      fail(field, "%s has no fp8 tensor cores (compute capability %s; fp8 needs 8.9 or later): workload.precision %s cannot run on it",
           e.name, tostring(e.compute), n.precision.name)
    end
  end
end

-- prepare(raw): the normalized table the C core reads.
function S.prepare(raw)
  strict("scenario", raw, SCENARIO_KEYS)
  local n = { notes = {}, extra = {} }
  if raw.name ~= nil and type(raw.name) ~= "string" then fail("name", "expected a string") end
  n.name = raw.name or (type(raw.model) == "string" and raw.model) or "scenario"
  local cfg = model_part(raw, n)
  local rt = runtime_part(raw, n)
  dtype_part(raw, cfg, n, rt)
  -- a quantization format rewrites the tensors' stored bytes (scripts/quant.lua); a runtime
  -- may quantize an unquantized checkpoint at load (rt.quant: vLLM's --quantization fp8)
  local loadq = raw.quant == nil and not n.model.qconfig and rt.quant and rt.quant(n, n.knobs)
  -- modules the runtime's model class keeps unquantized for this format (rt.quant_keep)
  local function rt_keep(spec) return rt.quant_keep and rt.quant_keep(n, spec) or nil end
  if raw.quant ~= nil or loadq then
    require("quant").apply(raw.quant or loadq, n, rt_keep(raw.quant or loadq))
  elseif n.model.qconfig then
    -- vLLM and transformers load such a checkpoint in its stored format by default
    local Q = require "quant"
    local qc = n.model.qconfig
    local spec, why = Q.from_config(qc)
    if not spec then
      fail("model", "%s: config.json quantization_config (quant_method %s) is not modelled: %s; give quant explicitly (vramfit list quants)",
           n.model.id, tostring(qc.quant_method), why)
    end
    Q.apply(spec, n, rt_keep(spec))
    note(n, "quant %s from the checkpoint's quantization_config (quant_method %s); set quant to override",
         n.extra["quant.name"] or spec.name, tostring(qc.quant_method))
  end
  -- mxfp4's router = "f32" is how ollama's GGUF converter stores gpt-oss's routers
  -- (scripts/quant/mxfp4.lua); vLLM, SGLang and transformers load the checkpoint's bf16 routers
  local q = raw.quant
  if type(q) == "table" and q.router == "f32" and n.runtime ~= "llamacpp" then
    fail("quant.router", "\"f32\" is the GGUF (llama.cpp / ollama) storage of the routers, for runtime llamacpp, not %s",
         tostring(n.runtime))
  end
  workload_part(raw, n, rt, cfg)
  parallel_part(raw, n)
  if rt.parallel_check then rt.parallel_check(n, n.knobs) end
  fsdp_mixed_note(n)
  gpu_part(raw, n)
  fp8_part(n)
  rocm_sampler_note(n)
  n.headroom = num_field(raw.headroom or 0.05, "headroom", 0, 0.9)
  if raw.headroom == nil then note(n, "headroom 5%% of each GPU kept free") end
  n.cuda_context = raw.cuda_context and host.parse_bytes(raw.cuda_context, "cuda_context") or 0
  n.kv_dtype = n.kv_dtype or n.dtype -- a runtime's normalize may set the cache dtype
  return n
end

return S
