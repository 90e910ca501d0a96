-- workload.resident names what stays on the GPU beside group-offloaded components
return { model = 'Wan-AI/Wan2.1-I2V-14B-720P', dtype = 'bf16', runtime = 'diffusers', gpu = 'A100',
  workload = { kind = 'video', frames = 81, offload = 'model', resident = { 'vae' } } }
