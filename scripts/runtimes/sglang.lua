-- sglang: a token pool sized from mem_fraction_static.
return runtime {
  name = "sglang",
  summary = "SGLang serving (token pool)",
  kinds = { "inference" },
  knobs = { mem_fraction_static = "number", context_length = "int", max_running_requests = "int",
            kv_cache_dtype = "string", chunked_prefill_size = "int", max_total_tokens = "int" },
  modelled = false,
}
