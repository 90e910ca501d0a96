return { model = "meta-llama/Llama-3.1-8B", dtype = "bf16", runtime = { name = "torchtune", repeat_kv = "yes" },
  workload = { kind = "train", method = "full", micro_batch = 1, seq_len = 2048 } }
