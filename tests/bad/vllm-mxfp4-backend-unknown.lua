return { model = "openai/gpt-oss-20b", quant = "mxfp4", runtime = { name = "vllm", version = "0.10.1", mxfp4_backend = "cutlass" },
         workload = { kind = "inference", context = 8192 }, gpu = "H100" }
