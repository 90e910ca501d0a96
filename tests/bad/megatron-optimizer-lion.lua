return { model = "meta-llama/Llama-3.2-1B", dtype = "bf16", runtime = { name = "megatron" },
         workload = { kind = "train", method = "full", micro_batch = 1, seq_len = 1024, precision = "bf16",
                      optimizer = "lion" },
         gpu = "H100" }
