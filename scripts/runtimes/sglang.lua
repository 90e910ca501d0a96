-- sglang: a token pool sized from mem_fraction_static (src/rt_sglang.c). normalize checks
-- the knobs, records the version whose default mem_fraction_static applies, the context
-- length the request pool is sized for, and which pool layout SGLang picks for the model:
-- the hybrid sliding-window pool (full and SWA sub-pools) for the architectures SGLang lists,
-- the Mamba state pool beside the token pool for models with recurrent-state layers.
local E = require "engine"

local note = E.note

-- The architectures whose sliding-window layers SGLang keeps in a separate, smaller SWA pool
-- (python/sglang/srt/configs/model_config.py is_hybrid_swa_model, sgl-project/sglang main at
-- 8b5e1bbf: Llama4ForConditionalGeneration, GptOssForCausalLM, MiMo-V2, Step-3.5, Gemma 4,
-- Laguna). Gemma 2 / 3 and Mistral are not among them: their sliding-window layers get a
-- full-length slot in the one token pool.
local HYBRID_SWA = { gpt_oss = true, llama4 = true }
local SSM_DTYPES = { float32 = 4, bfloat16 = 2, float16 = 2 }

local function has_kind(desc, pred)
  for _, g in ipairs(desc.kv or {}) do if pred(g) then return true end end
  return false
end

-- The pool layout for the model: Mamba state pool, hybrid SWA pool, or one token pool.
local function pools(n, knobs)
  local desc = n.model.desc or {}
  if has_kind(desc, function(g) return g.kind == "mamba" end) then
    local dt = knobs.mamba_ssm_dtype or "float32"
    if not SSM_DTYPES[dt] then
      E.fail("runtime.mamba_ssm_dtype", "expected float32, bfloat16 or float16, got \"%s\"", dt)
    end
    n.extra["sglang.ssm_bytes"] = SSM_DTYPES[dt]
    if knobs.mamba_ssm_dtype == nil then
      note(n, "SGLang Mamba state pool: SSM state in float32 (mamba_ssm_dtype default), conv state in bfloat16 (SGLANG_MAMBA_CONV_DTYPE default)")
    end
    return
  end
  local windowed = has_kind(desc, function(g) return (g.window or 0) > 0 end)
  if not windowed then return end
  if HYBRID_SWA[desc.arch or ""] and not knobs.disable_hybrid_swa_memory then
    n.extra["sglang.hybrid_swa"] = true
    if knobs.swa_full_tokens_ratio == nil then
      note(n, "SGLang hybrid SWA pool: swa_full_tokens_ratio 0.8 (server_args.py default)")
    end
  else
    note(n, "SGLang keeps the sliding-window layers at full length in the token pool (%s)",
      knobs.disable_hybrid_swa_memory and "disable_hybrid_swa_memory" or
      ("%s is not one of SGLang's hybrid-SWA architectures"):format(desc.arch or "the model"))
  end
end

local function version_code(v) return E.version_code(v, "an SGLang", "0.5.3") end

local function normalize(n, knobs)
  local f = knobs.mem_fraction_static
  if f ~= nil and (f <= 0 or f >= 1) then
    E.fail("runtime.mem_fraction_static", "expected a fraction in (0, 1), got %s", tostring(f))
  end
  local kvd = knobs.kv_cache_dtype or "auto"
  if kvd ~= "auto" and kvd ~= "fp8" and kvd ~= "fp8_e4m3" and kvd ~= "fp8_e5m2" then
    E.fail("runtime.kv_cache_dtype", "expected auto, fp8, fp8_e4m3 or fp8_e5m2, got \"%s\"", kvd)
  end
  if kvd ~= "auto" then n.kv_dtype = kvd == "fp8_e5m2" and "fp8_e5m2" or "fp8" end
  local code = n.runtime_version and version_code(n.runtime_version) or 999999
  n.extra["sglang.version"] = code
  if f == nil then
    if code >= 5003 then
      note(n, "SGLang mem_fraction_static from its reserved-memory rule (0.5.3 and later, PR #10975)%s",
        n.runtime_version and "" or "; runtime.version not given: the newest rule assumed")
    else
      note(n, "SGLang mem_fraction_static from tensor parallelism (releases before 0.5.3: 0.88 on one GPU, 0.87 tp 2, 0.85 tp 4, 0.81 tp 8)")
    end
  end
  if knobs.context_length == nil then
    note(n, "SGLang context_length = workload.context %d (SGLang's own default is the model's maximum)", n.context)
  end
  for _, k in ipairs { "page_size", "max_running_requests", "context_length", "max_mamba_cache_size" } do
    if knobs[k] == 0 then E.fail("runtime." .. k, "expected a positive integer, got 0") end
  end
  local r = knobs.swa_full_tokens_ratio
  if r ~= nil and (r <= 0 or r > 1) then
    E.fail("runtime.swa_full_tokens_ratio", "expected a ratio in (0, 1], got %s", tostring(r))
  end
  r = knobs.mamba_full_memory_ratio
  if r ~= nil and r <= 0 then
    E.fail("runtime.mamba_full_memory_ratio", "expected a positive ratio, got %s", tostring(r))
  end
  pools(n, knobs)
end

return runtime {
  name = "sglang",
  summary = "SGLang serving (token pool)",
  kinds = { "inference" },
  knobs = { mem_fraction_static = "number", context_length = "int", max_running_requests = "int",
            kv_cache_dtype = "string", chunked_prefill_size = "int", max_total_tokens = "int",
            page_size = "int", cuda_graph_max_bs = "int", disable_radix_cache = "bool",
            swa_full_tokens_ratio = "number", disable_hybrid_swa_memory = "bool",
            mamba_full_memory_ratio = "number", max_mamba_cache_size = "int", mamba_ssm_dtype = "string" },
  modelled = true,
  normalize = normalize,
}
