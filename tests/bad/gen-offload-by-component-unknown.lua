-- workload.offload_by_component names the pipeline's components (its folders); LTX-Video has no unet
return { model = 'Lightricks/LTX-Video', dtype = 'bf16', runtime = 'diffusers', gpu = 'A100',
  workload = { kind = 'video', frames = 161, offload = 'group', offload_by_component = { unet = 'none' } } }
