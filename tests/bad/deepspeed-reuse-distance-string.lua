-- runtime.stage3_max_reuse_distance is a count of parameter elements
return { model = 'bigscience/T0_3B', dtype = 'fp32', gpu = 'A100-SXM4-80GB',
  runtime = { name = 'deepspeed', stage3_max_reuse_distance = 'all' },
  workload = { kind = 'train', method = 'lora', micro_batch = 8, seq_len = 64, precision = 'fp32' },
  parallel = { strategy = 'zero3' } }
