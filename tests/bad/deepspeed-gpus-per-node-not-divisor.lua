-- runtime.gpus_per_node splits the run's GPUs into whole nodes for DeepSpeed's estimators
return { model = 'bigscience/T0_3B', dtype = 'fp32', gpu = 'A100-SXM4-80GB',
  runtime = { name = 'deepspeed', gpus_per_node = 4 },
  workload = { kind = 'train', micro_batch = 1, seq_len = 64 },
  parallel = { dp = 6, strategy = 'zero3' } }
