return { model = "meta-llama/Llama-3.1-8B", runtime = { name = "sglang", page_size = 0 },
         workload = { kind = "inference", context = 4096 }, gpu = "H100" }
