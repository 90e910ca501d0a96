return { model = "Qwen/Qwen2.5-7B-Instruct", quant = "gguf:Q4_K_M", runtime = { name = "llamacpp", embeddings = "yes" },
  workload = { kind = "inference", context = 4096 }, gpu = "RTX 4090" }
