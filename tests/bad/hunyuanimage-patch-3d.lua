return { model = { arch = "hunyuanimage", config = { transformer = { patch_size = { 1, 1, 1 } }, text_encoder = {} } }, workload = { kind = "image" }, gpu = "H100" }
