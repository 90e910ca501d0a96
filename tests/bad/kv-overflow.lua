return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "inference", context = 1073741824, concurrency = 16777216 }, gpu = "H100" }
