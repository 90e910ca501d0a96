return { model = "Qwen/Qwen3.6-27B", quant = "gguf:Q4_K_M", runtime = { name = "llamacpp", n_rs_seq = -1 },
  workload = { kind = "inference", context = 8192 }, gpu = "RTX 3090" }
