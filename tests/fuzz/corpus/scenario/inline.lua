return { model = { arch = "llama", config = { hidden_size = 64, intermediate_size = 128, num_attention_heads = 4,
         num_key_value_heads = 2, num_hidden_layers = 2, vocab_size = 100, max_position_embeddings = 256 } },
         workload = { kind = "inference", context = 128 }, gpu = "RTX-4090-24GB", cuda_context = "300MiB" }
