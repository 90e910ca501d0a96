-- runtime.convert_model_dtype belongs to the reference runtime (Wan2.2's generate.py), not diffusers
return { model = "Wan-AI/Wan2.2-TI2V-5B", dtype = "bf16", runtime = { name = "diffusers", convert_model_dtype = false },
         gpu = "H100-SXM-80GB", workload = { kind = "video", frames = 121, width = 1280, height = 704, offload = "model" } }
