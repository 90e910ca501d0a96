return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "train", method = "full", micro_batch = 1, seq_len = 2048 }, parallel = { dp = 2000000, strategy = "zero3" } }
