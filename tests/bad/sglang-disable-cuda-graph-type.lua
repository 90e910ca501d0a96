-- --disable-cuda-graph is a flag: true or false
return { model = 'Qwen/Qwen3-8B', runtime = { name = 'sglang', version = '0.5.10', disable_cuda_graph = 1 },
  workload = { kind = 'inference', context = 8192 }, gpu = 'H100-SXM-80GB' }
