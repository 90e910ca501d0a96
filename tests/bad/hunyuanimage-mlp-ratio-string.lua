return { model = { arch = "hunyuanimage", config = { transformer = { mlp_ratio = "four" }, text_encoder = {} } }, workload = { kind = "image", width = 2048, height = 2048 }, gpu = "H100" }
