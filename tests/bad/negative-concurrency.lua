return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "inference", context = 8192, concurrency = -3 } }
