return { model = "Qwen/Qwen3-Next-80B-A3B-Instruct", runtime = { name = "transformers", cache = "quantized" }, workload = { kind = "inference", context = 4096 }, gpu = "H200" }
