return { model = "meta-llama/Llama-3.1-8B", runtime = { name = "sglang", kv_cache_dtype = "fp4" },
         workload = { kind = "inference", context = 4096 }, gpu = "H100" }
