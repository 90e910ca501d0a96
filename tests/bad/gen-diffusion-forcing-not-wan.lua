-- workload.diffusion_forcing (SkyReels-V2's per-frame timesteps) on a transformer that is not Wan-shaped
return { model = "THUDM/CogVideoX-5b", dtype = "bf16", runtime = { name = "diffusers" }, gpu = "A100-SXM4-80GB",
         workload = { kind = "video", frames = 49, width = 720, height = 480, diffusion_forcing = true } }
