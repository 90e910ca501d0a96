-- workload.diffusion_forcing must be a boolean
return { model = "Wan-AI/Wan2.1-T2V-1.3B", dtype = "bf16", runtime = { name = "diffusers" }, gpu = "A100-SXM4-80GB",
         workload = { kind = "video", frames = 97, width = 960, height = 544, diffusion_forcing = "yes" } }
