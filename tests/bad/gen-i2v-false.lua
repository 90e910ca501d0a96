-- workload.i2v = false for a transformer that takes the image latents as input channels (ConsisID)
return { model = 'BestWishYsh/ConsisID-preview', dtype = 'bf16', runtime = 'diffusers', gpu = 'A100',
  workload = { kind = 'video', frames = 49, offload = 'model', i2v = false } }
