return { model = string.rep("x", 10 * 1024 * 1024), workload = { kind = "inference", context = 8192 } }
