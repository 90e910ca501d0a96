return { model = "black-forest-labs/FLUX.1-dev", runtime = { name = "llamacpp" }, workload = { kind = "inference", context = 8192 }, gpu = "H100" }
