return { model = { arch = "lumina2", config = { transformer = { hidden_size = 2300 }, text_encoder = {} } }, workload = { kind = "image", width = 1024, height = 1024 }, gpu = "H100" }
