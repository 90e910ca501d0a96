return { sweep = { base = "meta-llama/Llama-3.1-8B-Instruct", axes = { ["workload.context"] = { 1024, 2048 } } } }
