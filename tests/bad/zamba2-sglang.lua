return { model = "Zyphra/Zamba2-2.7B", runtime = { name = "sglang" }, workload = { kind = "inference", context = 4096 }, gpu = "L4" }
