return { model = { arch = "hunyuanimage", config = { transformer = { patch_size = { 1, 2 } }, text_encoder = {} } }, workload = { kind = "image", width = 2048, height = 2048 }, gpu = "H100" }
