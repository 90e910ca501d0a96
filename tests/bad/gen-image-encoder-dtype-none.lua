-- a text-to-video model has no image encoder to load in fp32
return { model = 'Wan-AI/Wan2.1-T2V-1.3B-Diffusers', dtype = 'bf16', runtime = 'diffusers', gpu = 'A100',
  workload = { kind = 'video', frames = 81, image_encoder_dtype = 'fp32' } }
