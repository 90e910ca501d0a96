return { model = 42, workload = { kind = "inference", context = 8192 } }
