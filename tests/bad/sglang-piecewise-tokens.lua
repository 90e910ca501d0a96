return { model = "meta-llama/Llama-3.1-8B-Instruct", runtime = { name = "sglang", version = "0.5.6",
  enable_piecewise_cuda_graph = true, piecewise_cuda_graph_max_tokens = 0 },
  workload = { kind = "inference", context = 4096 }, gpu = "H100" }
