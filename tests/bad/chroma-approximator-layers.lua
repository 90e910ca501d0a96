return { model = { arch = "chroma", config = { transformer = { approximator_layers = 0 } } }, workload = { kind = "image", width = 1024, height = 1024 }, gpu = "H100" }
