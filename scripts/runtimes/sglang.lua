-- sglang: a token pool sized from mem_fraction_static (src/rt_sglang.c).
local function normalize(n, knobs)
  local f = knobs.mem_fraction_static
  if f ~= nil and (f <= 0 or f >= 1) then
    require("engine").fail("runtime.mem_fraction_static", "expected a fraction in (0, 1), got %s", tostring(f))
  end
  local kvd = knobs.kv_cache_dtype or "auto"
  if kvd ~= "auto" and kvd ~= "fp8" and kvd ~= "fp8_e4m3" and kvd ~= "fp8_e5m2" then
    require("engine").fail("runtime.kv_cache_dtype", "expected auto, fp8, fp8_e4m3 or fp8_e5m2, got \"%s\"", kvd)
  end
  if kvd ~= "auto" then n.kv_dtype = kvd == "fp8_e5m2" and "fp8_e5m2" or "fp8" end
  if f == nil then
    n.notes[#n.notes + 1] = "SGLang mem_fraction_static assumed from tensor parallelism (0.88 on one GPU, 0.87 tp 2, 0.85 tp 4, 0.81 tp 8)"
  end
end

return runtime {
  name = "sglang",
  summary = "SGLang serving (token pool)",
  kinds = { "inference" },
  knobs = { mem_fraction_static = "number", context_length = "int", max_running_requests = "int",
            kv_cache_dtype = "string", chunked_prefill_size = "int", max_total_tokens = "int" },
  modelled = true,
  normalize = normalize,
}
