return { model = "Qwen/Qwen3-30B-A3B", workload = { kind = "train", method = "lora", micro_batch = 1, seq_len = 2048 }, gpu = "H100" }
