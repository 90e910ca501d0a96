-- an MLA model's block size must still be a positive number of tokens
return { model = 'deepseek-ai/DeepSeek-V2-Lite', runtime = { name = 'vllm', version = '0.8.3', block_size = 0 },
  workload = { kind = 'inference', context = 4096 }, gpu = 'H100' }
