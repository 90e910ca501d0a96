return { model = "Qwen/Qwen2.5-7B", workload = { kind = "train", method = "full", micro_batch = 2, seq_len = 2048,
         grad_accum = 4, grad_checkpointing = true, optimizer = "adamw", precision = "bf16-mixed" },
         parallel = { dp = 8, strategy = "zero3" }, gpu = { name = "x", memory = "79.19GiB" }, headroom = 0.1 }
