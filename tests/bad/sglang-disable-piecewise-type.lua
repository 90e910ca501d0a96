-- --disable-piecewise-cuda-graph is a flag: true or false
return { model = 'Qwen/Qwen3-8B', runtime = { name = 'sglang', version = '0.5.10', disable_piecewise_cuda_graph = 'on' },
  workload = { kind = 'inference', context = 8192 }, gpu = 'H100-SXM-80GB' }
