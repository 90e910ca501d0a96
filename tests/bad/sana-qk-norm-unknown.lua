return { model = { arch = "sana", config = { transformer = { qk_norm = "layer_norm" }, text_encoder = {} } }, workload = { kind = "image", width = 1024, height = 1024 }, gpu = "H100" }
