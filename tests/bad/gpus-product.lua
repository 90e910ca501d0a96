return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "inference", context = 8192 }, parallel = { tp = 1024, pp = 1024, dp = 2 } }
