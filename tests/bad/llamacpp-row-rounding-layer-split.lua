return { model = "Qwen/Qwen3-30B-A3B", quant = "gguf:Q8_0", runtime = { name = "llamacpp", row_rounding = 64 },
         workload = { kind = "inference", context = 4096 }, parallel = { tp = 2 }, gpu = "RTX 4090" }
