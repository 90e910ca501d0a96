return sweep { base = { model = "meta-llama/Llama-3.1-8B", workload = { kind = "inference", context = 4096 } },
               axes = { ["workload.context"] = { 4096, 8192 }, gpu = { "L40S", "H100" } } }
