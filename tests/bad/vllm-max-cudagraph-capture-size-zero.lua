return { model = "Qwen/Qwen3-8B", runtime = { name = "vllm", version = "0.22.0", max_cudagraph_capture_size = 0 }, workload = { kind = "inference", context = 4096 }, gpu = "H100" }
