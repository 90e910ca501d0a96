return { model = "meta-llama/Llama-3.1-8B-Instructÿþ", workload = { kind = "inference", context = 8192 } }
