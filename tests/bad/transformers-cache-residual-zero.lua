return { model = "meta-llama/Llama-3.1-8B", runtime = { name = "transformers", cache = "quantized", cache_residual_length = 0 }, workload = { kind = "inference", context = 4096 }, gpu = "H100" }
