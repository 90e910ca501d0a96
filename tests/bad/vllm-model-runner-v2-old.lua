-- the V2 model runner exists from vLLM 0.23.0
return { model = 'meta-llama/Llama-3.1-8B-Instruct', runtime = { name = 'vllm', version = '0.19.0', model_runner = 'v2' },
  workload = { kind = 'inference', context = 8192 }, gpu = 'H100' }
