return { model = "Qwen/Qwen2.5-VL-7B-Instruct", runtime = { name = "vllm", limit_mm_per_prompt = "image:1" },
         workload = { kind = "inference", context = 8192 }, gpu = "H100" }
