return { model = "meta-llama/Llama-3.1-8B-Instruct", runtime = { name = "sglang", max_total_tokens = 4, page_size = 1 },
         workload = { kind = "inference", context = 4096 }, gpu = "H100" }
