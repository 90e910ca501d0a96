-- sweep.lua: the batch the headless-browser test draws (tests/browser/run.sh): two
-- models x six contexts x two concurrencies x three GPUs.
return sweep {
  base = { name = "report", dtype = "bf16", model = "meta-llama/Llama-3.1-8B-Instruct",
           workload = { kind = "inference", context = 8192, concurrency = 1 } },
  axes = {
    model = { "meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mixtral-8x7B-v0.1" },
    ["workload.context"] = range(1024, 32768, "double"),
    ["workload.concurrency"] = { 1, 8 },
    gpu = { "L40S", "H100", "H200" },
  },
}
