return { model = "Qwen/Qwen3-Next-80B-A3B-Instruct", runtime = { name = "vllm", version = "0.10.1" }, workload = { kind = "inference", context = 8192 }, gpu = "H200" }
