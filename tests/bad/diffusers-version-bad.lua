-- diffusers' runtime.version must be a release such as "0.32.2" for every model, not only
-- for the ones with a version-dependent rule (HunyuanVideo's attention mask)
return { model = 'Wan-AI/Wan2.1-T2V-1.3B', dtype = 'bf16', gpu = 'L40S',
  runtime = { name = 'diffusers', version = 'latest' },
  workload = { kind = 'video', width = 832, height = 480, frames = 81, steps = 50 } }
