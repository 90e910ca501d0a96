return { model = "meta-llama/Llama-3.1-8B-Instruct", dtype = "bf16", runtime = { name = "vllm", quantization = "awq" }, workload = { kind = "inference", context = 8192 }, gpu = "H100" }
