return { model = "Zyphra/Zamba2-7B-Instruct", runtime = { name = "llamacpp" }, workload = { kind = "inference", context = 4096 }, gpu = "L4" }
