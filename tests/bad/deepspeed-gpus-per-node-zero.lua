-- runtime.gpus_per_node counts GPUs: at least 1
return { model = 'bigscience/T0_3B', dtype = 'fp32', gpu = 'A100-SXM4-80GB',
  runtime = { name = 'deepspeed', gpus_per_node = 0 },
  workload = { kind = 'train', micro_batch = 1, seq_len = 64 },
  parallel = { dp = 2, strategy = 'zero3' } }
