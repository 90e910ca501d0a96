return { model = "deepseek-ai/DeepSeek-V3", runtime = { name = "vllm", quantization = "compressed-tensors" }, parallel = { tp = 8 }, workload = { kind = "inference", context = 4096 }, gpu = "H200" }
