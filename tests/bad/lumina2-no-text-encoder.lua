return { model = { arch = "lumina2", config = { transformer = {} } }, workload = { kind = "image", width = 1024, height = 1024 }, gpu = "H100" }
