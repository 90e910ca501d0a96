return { model = "bigcode/starcoderbase", dtype = "fp16", quant = { name = "bnb-int8", version = "latest" },
         runtime = { name = "transformers", version = "4.33.0" }, workload = { kind = "inference", context = 80, prompt_tokens = 20 }, gpu = "A100-SXM4-40GB" }
