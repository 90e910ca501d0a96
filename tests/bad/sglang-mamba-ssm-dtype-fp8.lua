-- SGLang keeps the Mamba SSM state in float32, bfloat16 or float16 (--mamba-ssm-dtype); fp8 is none of them
return { model = "Qwen/Qwen3-Next-80B-A3B-Instruct", runtime = { name = "sglang", mamba_ssm_dtype = "fp8" }, workload = { kind = "inference", context = 4096 }, gpu = "H200" }
