-- --disable-custom-all-reduce is a flag: true or false
return { model = 'Qwen/Qwen2.5-32B', runtime = { name = 'sglang', version = '0.4.3.post4', disable_custom_all_reduce = 'yes' },
  parallel = { tp = 4 }, workload = { kind = 'inference', context = 8192 }, gpu = 'L4' }
