return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "train", method = "full", micro_batch = 16777216, seq_len = 1073741824 }, gpu = "H100" }
