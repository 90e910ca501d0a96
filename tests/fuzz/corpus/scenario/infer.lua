return { name = "chat-8b", model = "meta-llama/Llama-3.1-8B-Instruct", dtype = "bf16",
         workload = { kind = "inference", context = 8192, concurrency = 4, attention = "eager" }, gpu = "H100" }
