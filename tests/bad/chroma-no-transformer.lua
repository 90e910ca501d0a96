return { model = { arch = "chroma", config = { text_encoder = {} } }, workload = { kind = "image", width = 1024, height = 1024 }, gpu = "H100" }
