return { model = "Qwen/Qwen3-30B-A3B", quant = "gguf:Q4_K_M", runtime = { name = "llamacpp", device = "cpu", host_memory = "64MiB" }, workload = { kind = "inference", context = 4096 } }
