return { model = "black-forest-labs/FLUX.1-dev", dtype = "bf16", runtime = { name = "megatron" },
         workload = { kind = "train", method = "lora", lora = { r = 16, targets = "all-linear" }, width = 512,
                      height = 512, precision = "bf16" },
         gpu = "H100" }
