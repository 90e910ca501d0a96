-- runtime.peft must be a version such as "0.12.0"
return { model = 'meta-llama/Llama-3.2-3B', dtype = 'bf16', gpu = 'L40S',
  runtime = { name = 'transformers', peft = 'latest' },
  workload = { kind = 'train', method = 'lora', micro_batch = 1, seq_len = 512, precision = 'bf16' } }
