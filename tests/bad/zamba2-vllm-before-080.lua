return { model = "Zyphra/Zamba2-1.2B", runtime = { name = "vllm", version = "0.7.3" }, workload = { kind = "inference", context = 4096 }, gpu = "L4" }
