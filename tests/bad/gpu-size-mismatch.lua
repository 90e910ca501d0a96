return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "inference", context = 8192 }, gpu = "RTX 4090 48GB" }
