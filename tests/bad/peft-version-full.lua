-- runtime.peft is checked whenever it is given: full fine-tuning does not read it, but a
-- release that is not a version is still an error
return { model = 'meta-llama/Llama-3.2-3B', dtype = 'bf16', gpu = 'L40S',
  runtime = { name = 'transformers', peft = 'latest' },
  workload = { kind = 'train', method = 'full', micro_batch = 1, seq_len = 512, precision = 'bf16' } }
