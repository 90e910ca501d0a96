return { model = { arch = "sana", config = { transformer = { mlp_ratio = "2.5" }, text_encoder = {} } }, workload = { kind = "image", width = 1024, height = 1024 }, gpu = "H100" }
