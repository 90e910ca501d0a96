-- workloads/train.lua: validates a training workload (DESIGN.md: method, micro_batch,
-- seq_len, grad_accum, grad_checkpointing, optimizer, precision, lora, ...) and
-- fills the normalized scenario's training fields.
local E = require "engine"
local fail, int_field, num_field, bool_field, enum_field, strict =
  E.fail, E.int_field, E.num_field, E.bool_field, E.enum_field, E.strict_field
local MAX_TOKENS, MAX_SEQS = 1 << 30, 1 << 24

local function note(n, fmt, ...) n.notes[#n.notes + 1] = fmt:format(...) end

local TRAIN_KEYS = { "kind", "method", "micro_batch", "seq_len", "grad_accum", "grad_checkpointing", "optimizer",
                     "precision", "lora", "attention", "optimizer_in_backward", "offload", "width", "height",
                     "frames", "precomputed_embeddings", "text_encoders", "max_sequence_length", "modules_to_save" }

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

local function normalize(w, n, cfg)
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


return { kinds = { "train" }, normalize = normalize }
