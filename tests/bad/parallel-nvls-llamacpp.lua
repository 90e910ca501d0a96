-- parallel.nvls is read by vLLM's and SGLang's estimates only (src/estimate.c est_tp_comm_gib):
-- llama.cpp runs no NCCL communicator, so the knob would be accepted and ignored
return {
  model = "meta-llama/Llama-3.1-8B",
  runtime = { name = "llamacpp" },
  parallel = { tp = 2, nvls = false },
  workload = { kind = "inference", context = 2048 },
  gpu = "H100-SXM-80GB",
}
