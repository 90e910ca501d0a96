-- vllm: paged KV cache sized from gpu_memory_utilization after a profile run
-- (src/rt_vllm.c). normalize fills the defaults that do not depend on the GPU and
-- records each as an assumption; the GPU-dependent ones (max_num_seqs,
-- max_num_batched_tokens: vllm/engine/arg_utils.py _set_default_args) are chosen in C.
local E = require "engine"

local LATEST = "0.19.0"
local FP8 = { fp8 = true, fp8_e4m3 = true, fp8_e5m2 = true, fp8_inc = true, fp8_ds_mla = true }

local note = E.note
local ROPE_FP32 = { gpt_oss = true }

local function version_code(v) return E.version_code(v, "vLLM", "0.19.0") end

local function default(n, knobs, key, value, why)
  if knobs[key] ~= nil then return knobs[key] end
  knobs[key] = value
  n.extra["runtime." .. key] = value
  note(n, "vLLM %s %s assumed (%s)", key, tostring(value), why)
  return value
end

-- The vision tower of an encoder-decoder model (mllama), read off its tensors, for the
-- V0 profile run (src/rt_vllm.c vision_bytes): fc1 of the local layers {I, h}, the
-- position embedding {patches, h}, the tile embedding {ratios, tiles x patches x h}, and
-- the projector, which takes the final state concatenated with the kept intermediate
-- states ({text hidden, h x (kept + 1)}: vision_output_dim). Tokens per image: each
-- tile's patches padded to a multiple of 8 (MllamaVisionModel.forward).
-- TODO(contract): a `vision` table in the description once docs/ARCHITECTURES.md and
-- tests/lua/test_architectures.lua admit the key.
local VISION = {
  fc1 = "^vision_model%.transformer%.layers%.[%d*]+%.mlp%.fc1%.weight$",
  pos = "^vision_model%.gated_positional_embedding%.embedding$",
  tile = "^vision_model%.gated_positional_embedding%.tile_embedding%.weight$",
  proj = "^multi_modal_projector%.weight$",
}

local function vision_shape(desc)
  local s = {}
  for _, t in ipairs(desc.tensors or {}) do
    for k, pat in pairs(VISION) do
      if s[k] == nil and type(t.name) == "string" and t.name:match(pat) then s[k] = t.shape end
    end
  end
  if not (s.fc1 and s.pos and s.tile and s.proj) then return nil end
  local I, h, patches = s.fc1[1], s.fc1[2], s.pos[1]
  local tiles = s.tile[2] // (patches * h)
  return { hidden = h, intermediate = I, tokens_per_image = tiles * (patches + (8 - patches % 8) % 8),
           kept_states = s.proj[2] // h - 1 }
end

local function normalize(n, knobs)
  local v = n.runtime_version
  local vis = vision_shape(n.model.desc)
  local encdec = vis ~= nil
  for k, x in pairs(vis or {}) do n.extra["vision." .. k] = x end
  if v == nil and encdec then
    -- the V1 engine never ran encoder-decoder models (mllama fell back to V0 from 0.8 and
    -- was removed with V0 in 0.10.2): the last release that ran V0 by default
    v = "0.7.3"
    note(n, "vLLM version %s assumed: %s runs on the V0 engine only (encoder-decoder)", v, n.model.desc.arch or "the model")
  elseif v == nil then
    v = LATEST
    note(n, "vLLM version %s assumed (the newest modelled; V1 engine)", LATEST)
  end
  local code = version_code(v)
  n.extra["vllm.version"] = code
  local util = default(n, knobs, "gpu_memory_utilization", 0.9, "vLLM's default")
  if util <= 0 or util > 1 then E.fail("runtime.gpu_memory_utilization", "expected a fraction in (0, 1], got %s", tostring(util)) end
  local mp = n.model.desc.max_position
  local mml = default(n, knobs, "max_model_len", n.context,
    mp and ("workload.context; vLLM's own default is max_position_embeddings " .. mp) or "workload.context")
  if mp and mml > mp then note(n, "max_model_len %d exceeds max_position_embeddings %d (vLLM needs VLLM_ALLOW_LONG_MAX_MODEL_LEN)", mml, mp) end
  default(n, knobs, "block_size", 16, "vLLM's default for CUDA attention backends")
  local kvd = knobs.kv_cache_dtype or "auto"
  if kvd ~= "auto" and not FP8[kvd] and kvd ~= "bfloat16" and kvd ~= "float16" then
    E.fail("runtime.kv_cache_dtype", "expected auto, fp8, fp8_e4m3 or fp8_e5m2, got \"%s\"", kvd)
  end
  n.extra["vllm.kv_bytes"] = FP8[kvd] and 1 or (kvd == "auto" and 0 or 2)
  -- model classes that build their rotary cos/sin cache in fp32 whatever the model dtype
  -- (vllm/model_executor/models/gpt_oss.py: get_rope(..., dtype=torch.float32))
  if ROPE_FP32[n.model.desc.arch or ""] then n.extra["vllm.rope_bytes"] = 4 end
  -- 0.8-0.10 sample top-k/top-p with FlashInfer's kernel when it is installed and sort
  -- the whole vocabulary in PyTorch when not (v1/sample/ops/topk_topp_sampler.py: "FlashInfer
  -- is not available. Falling back to the PyTorch-native implementation"); 0.11-0.16 need
  -- VLLM_USE_FLASHINFER_SAMPLER=1 (PR #26859). Only those versions read the knob.
  if code >= 8000 and code < 17000 then
    default(n, knobs, "flashinfer_sampler", code < 11000,
      code < 11000 and "FlashInfer installed, as in vLLM's images" or "VLLM_USE_FLASHINFER_SAMPLER off by default")
  end
  -- V0 turned chunked prefill on by itself above 32K context (vllm/engine/arg_utils.py);
  -- the V1 engine (0.8 and later by default) always schedules in chunks.
  -- V0 never chunks encoder-decoder prefills (vllm/config.py: chunked prefill is not
  -- supported for encoder-decoder models; arg_utils leaves it off for them)
  local chunked = not (encdec and code < 8000) and (code >= 8000 or mml > 32768)
  default(n, knobs, "enable_chunked_prefill", chunked, code >= 8000 and "V1 engine"
    or (encdec and "V0: never for encoder-decoder models" or "V0: on above 32K context"))
  default(n, knobs, "enforce_eager", false, "CUDA graphs captured")
  -- VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE: off when added (vLLM PR #21761,
  -- 0.10), on by default since PR #29627 (about 0.13). Only Llama 4's chunked layers care.
  local chunked_local = false
  for _, g in ipairs(n.model.desc.kv or {}) do chunked_local = chunked_local or g.kind == "chunked" end
  if chunked_local then
    default(n, knobs, "chunked_local_attn_hybrid", code >= 13000,
      "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE default of this version (PR #21761 off, #29627 on)")
  end
end

return runtime {
  name = "vllm",
  summary = "vLLM serving (paged KV cache)",
  kinds = { "inference" },
  knobs = {
    gpu_memory_utilization = "number", max_model_len = "int", max_num_seqs = "int",
    max_num_batched_tokens = "int", block_size = "int", kv_cache_dtype = "string",
    enforce_eager = "bool", enable_prefix_caching = "bool", enable_chunked_prefill = "bool",
    swap_space = "number", kv_cache_memory_bytes = "bytes", quantization = "string",
    memory_profiler_estimate_cudagraphs = "bool",
    chunked_local_attn_hybrid = "bool", flashinfer_sampler = "bool",
  },
  modelled = true,
  normalize = normalize,
}
