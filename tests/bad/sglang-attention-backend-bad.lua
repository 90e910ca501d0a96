-- runtime.attention_backend is one of SGLang's backend names, lower case
return { model = 'meta-llama/Llama-3.1-8B-Instruct', runtime = { name = 'sglang', attention_backend = 'AITER' },
  workload = { kind = 'inference', context = 32768 }, gpu = 'MI300X' }
