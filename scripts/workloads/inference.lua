-- workloads/inference.lua: validates an inference workload (DESIGN.md: context,
-- concurrency, prompt_tokens, output_tokens, attention; images, SGLang's Llama 3.2 Vision only) and fills the normalized
-- scenario's inference fields.
local E = require "engine"
local fail, int_field, enum_field, strict, note = E.fail, E.int_field, E.enum_field, E.strict_field, E.note
local MAX_TOKENS, MAX_SEQS = E.MAX_TOKENS, E.MAX_SEQS

local INFER_KEYS = { "kind", "context", "concurrency", "prompt_tokens", "output_tokens", "attention", "images" }

local function normalize(w, n, cfg, rt)
  strict("workload", w, INFER_KEYS)
  local desc = n.model and n.model.desc
  if desc and type(desc.pipeline) == "table" then
    fail("workload.kind", "'inference' serves a language model, and '%s' (architecture %s) is a diffusion pipeline: "
      .. "use kind = \"image\" or \"video\"", n.model.id, n.model.arch)
  end
  if w.context == nil then
    local ctx = n.knobs.max_model_len or n.knobs.n_ctx
    if not ctx then fail("workload.context", "missing (tokens per sequence)") end
    if ctx == 0 then -- llama.cpp's -c 0: the runtime sets it (runtimes/llamacpp.lua)
      ctx = n.model and n.model.desc and n.model.desc.max_position or 1
    else
      note(n, "context %d from the runtime's options", ctx)
    end
    w.context = ctx
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
  -- images per request: only SGLang's Llama 3.2 Vision pool is modelled (scripts/runtimes/sglang.lua
  -- adds the image tokens pad_input_ids prepends to each request)
  n.images = w.images ~= nil and int_field(w.images, "workload.images", 0, 64) or 0
  if n.images > 0 and not (rt and rt.name == "sglang") then
    fail("workload.images", "images per request are modelled on SGLang only (Llama 3.2 Vision), not on %s",
      rt and rt.name or "this runtime")
  end
  -- arch-mamba: an attention-free model (heads 0) runs no attention, so no backend is assumed
  local attn_free = n.model and n.model.desc and n.model.desc.heads == 0
  -- a serving runtime picks its own attention kernels (runtime own_attention): PyTorch's
  -- sdpa / flash / eager choice is not assumed there, and a given one changes nothing
  local own = rt and rt.own_attention
  if w.attention == nil and not attn_free and not own then note(n, "attention sdpa assumed") end
  if w.attention ~= nil and own then
    note(n, "workload.attention '%s' changes nothing on %s: %s", w.attention, rt.name, own)
  end
  if attn_free then
    note(n, "attention-free model: a constant recurrent state per sequence; the Mamba mixers' own prefill transients (in_proj output, chunked-scan states) are not modelled")
  end
  n.static_cache = n.knobs.cache == "static"
  n.precision = { name = n.dtype, weights = n.dtype, grads = n.dtype, activations = n.dtype, master = false }
  n.optimizer = { name = "none", states = 0, state_extra_bits = 0, step_temps = 0 }
end

return { kinds = { "inference" }, normalize = normalize }
