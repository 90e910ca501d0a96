return { model = "meta-llama/Llama-3.2-1B", dtype = "bf16", runtime = { name = "pytorch", free_logits = 1 },
  workload = { kind = "train", seq_len = 2048 }, gpu = "H100" }
