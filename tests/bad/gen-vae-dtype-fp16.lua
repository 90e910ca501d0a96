-- a VAE dtype other than fp32 or the pipeline's is not modelled
return { model = 'Wan-AI/Wan2.1-T2V-1.3B-Diffusers', dtype = 'bf16', runtime = 'diffusers', gpu = 'A100',
  workload = { kind = 'video', frames = 81, vae_dtype = 'fp16' } }
