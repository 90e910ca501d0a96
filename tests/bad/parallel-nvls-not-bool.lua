-- parallel.nvls must be true or false (NCCL's NVLS multicast on the host)
return {
  model = "meta-llama/Llama-3.1-8B",
  runtime = { name = "vllm" },
  parallel = { tp = 2, nvls = "off" },
  workload = { kind = "inference", context = 8192 },
  gpu = "H100-SXM-80GB",
}
