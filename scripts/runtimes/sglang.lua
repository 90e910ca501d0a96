-- sglang: a token pool sized from mem_fraction_static (src/rt_sglang.c). normalize checks
-- the knobs, records the version whose default mem_fraction_static applies, and the
-- context length the request pool is sized for.
local E = require "engine"

local note = E.note

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
  for _, k in ipairs { "page_size", "max_running_requests", "context_length" } do
    if knobs[k] == 0 then E.fail("runtime." .. k, "expected a positive integer, got 0") end
  end
end

return runtime {
  name = "sglang",
  summary = "SGLang serving (token pool)",
  kinds = { "inference" },
  knobs = { mem_fraction_static = "number", context_length = "int", max_running_requests = "int",
            kv_cache_dtype = "string", chunked_prefill_size = "int", max_total_tokens = "int",
            page_size = "int", cuda_graph_max_bs = "int" },
  modelled = true,
  normalize = normalize,
}
