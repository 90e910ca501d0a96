return { model = "Qwen/Qwen2-7B-Instruct", runtime = { name = "vllm", version = "0.11.0", install = "conda" },
         workload = { kind = "inference", context = 8192 }, gpu = "H100" }
