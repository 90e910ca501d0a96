return { model = "meta-llama/Llama-3.1-8B", dtype = "bf16", runtime = { name = "pytorch", output_upcast = "yes" },
  workload = { kind = "train", method = "full", micro_batch = 1, seq_len = 2048 } }
