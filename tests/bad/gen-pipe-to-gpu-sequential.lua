-- workload.pipe_to_gpu is pipe.to("cuda") beside enable_model_cpu_offload; diffusers raises on it
-- after enable_sequential_cpu_offload
return { model = 'BestWishYsh/ConsisID-preview', dtype = 'bf16', runtime = 'diffusers', gpu = 'A100',
  workload = { kind = 'video', frames = 49, offload = 'sequential', pipe_to_gpu = true } }
