-- pp_outputs is step(return_outputs=...): true or false
return { model = 'meta-llama/Llama-3.2-3B', dtype = 'bf16', gpu = 'H100-SXM-80GB',
  runtime = { name = 'pytorch', pp_outputs = 'no' }, parallel = { pp = 2 },
  workload = { kind = 'train', method = 'full', micro_batch = 1, seq_len = 4096, grad_accum = 4 } }
