-- runtime.convert_model_dtype is Wan2.2 generate.py's flag; Wan2.1's scripts have none
return { model = "Wan-AI/Wan2.1-T2V-14B", dtype = "bf16", runtime = { name = "reference", convert_model_dtype = false },
         gpu = "H100-SXM-80GB", workload = { kind = "video", frames = 81, width = 1280, height = 720, offload = "model" } }
