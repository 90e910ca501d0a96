return { model = { arch = "lumina2", config = { transformer = { ffn_dim_multiplier = -1 }, text_encoder = {} } }, workload = { kind = "image", width = 1024, height = 1024 }, gpu = "H100" }
