return { model = "meta-llama/Llama-3.1-8B", dtype = "bf16", quant = { name = "bnb-nf4", version = "foo" },
         runtime = "transformers", workload = { kind = "train", method = "lora", micro_batch = 1, seq_len = 512 }, gpu = "A100-SXM4-80GB" }
