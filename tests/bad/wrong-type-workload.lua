return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = "inference" }
