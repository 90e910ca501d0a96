return { model = "meta-llama/Llama-2-7b-hf", dtype = "fp16", quant = "bnb-nf4", runtime = "torchtune", gpu = "RTX 4090",
  workload = { kind = "train", method = "qlora", micro_batch = 2, seq_len = 512, grad_checkpointing = true } }
