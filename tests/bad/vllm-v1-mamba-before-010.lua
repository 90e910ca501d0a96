return { model = "ibm-ai-platform/Bamba-9B", runtime = { name = "vllm", version = "0.9.2", use_v1 = true }, workload = { kind = "inference", context = 8192 }, gpu = "H100" }
