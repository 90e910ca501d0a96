return { model = "EleutherAI/pythia-2.8b", runtime = { name = "vllm", version = "0.19.0", lora = {} }, workload = { kind = "inference", context = 2048 }, gpu = "H100" }
