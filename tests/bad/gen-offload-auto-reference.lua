-- workload.offload "auto" (diffusers ComponentsManager) under a model's own reference scripts
return { model = "Wan-AI/Wan2.1-T2V-1.3B", dtype = "bf16", runtime = { name = "reference" }, gpu = "RTX-4090-24GB",
         workload = { kind = "video", frames = 33, width = 832, height = 480, offload = "auto" } }
