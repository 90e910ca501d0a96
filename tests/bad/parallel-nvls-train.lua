-- parallel.nvls is modelled for inference workloads only
return {
  model = "meta-llama/Llama-3.1-8B",
  parallel = { tp = 2, nvls = false },
  workload = { kind = "train", seq_len = 2048, micro_batch = 1 },
  gpu = "H100-SXM-80GB",
}
