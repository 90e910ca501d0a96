-- fp8 training on a GPU without fp8 tensor cores (scripts/gpus.lua fp8 = false)
return { model = "meta-llama/Llama-3.1-8B", runtime = "torchtune", gpu = "A100-80GB",
         workload = { kind = "train", seq_len = 4096, precision = "fp8-te" } }
