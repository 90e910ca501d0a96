return { model = "openai/gpt-oss-20b", quant = { name = "mxfp4", router = "fp16" },
  runtime = { name = "llamacpp", n_ctx = 4096 }, workload = { kind = "inference", context = 4096 }, gpu = "RTX 3090" }
