return { model = "meta-llama/Llama-3.1-8B", runtime = { name = "vllm", max_model_len = 4096 },
  workload = { kind = "inference", context = 8192 }, gpu = "H100" }
