return { model = "Qwen/Qwen3.5-35B-A3B", runtime = { name = "vllm", version = "0.19.0", max_pixels = 100 }, workload = { kind = "inference", context = 4096 }, gpu = "H200" }
