return { model = "meta-llama/Llama-3.2-1B", dtype = "bf16",
         runtime = { name = "megatron", accumulate_allreduce_grads_in_fp32 = false },
         workload = { kind = "train", method = "full", micro_batch = 1, seq_len = 1024, precision = "bf16" },
         gpu = "H100" }
