-- --disable-custom-all-reduce is a flag: true or false
return { model = 'Qwen/Qwen2.5-72B-Instruct', runtime = { name = 'vllm', version = '0.19.0', disable_custom_all_reduce = 'yes' },
  parallel = { tp = 4 }, workload = { kind = 'inference', context = 8192 }, gpu = 'L40S-48GB' }
