-- runtime.peft is checked whenever it is given: QLoRA's 4-bit base keeps fp32 adapters in
-- every PEFT release, but a release that is not a version is still an error
return { model = 'meta-llama/Llama-3.2-3B', dtype = 'bf16', gpu = 'L40S',
  runtime = { name = 'pytorch', peft = 'latest' },
  workload = { kind = 'train', method = 'qlora', micro_batch = 1, seq_len = 512, precision = 'bf16' } }
