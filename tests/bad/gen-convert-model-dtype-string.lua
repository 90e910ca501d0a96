-- runtime.convert_model_dtype is a flag: true or false
return { model = "Wan-AI/Wan2.2-TI2V-5B", dtype = "bf16", runtime = { name = "reference", convert_model_dtype = "no" },
         gpu = "H100-SXM-80GB", workload = { kind = "video", frames = 121, width = 1280, height = 704, offload = "model" } }
