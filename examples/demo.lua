-- demo.lua: the built-in example (make demo). Llama 3.1 8B Instruct in bf16 serving
-- 8 sequences of 8,192 tokens with transformers on an H100.
return {
  name     = "chat-8b",
  model    = "meta-llama/Llama-3.1-8B-Instruct",
  dtype    = "bf16",
  runtime  = { name = "transformers" },
  workload = { kind = "inference", context = 8192, concurrency = 8 },
  gpu      = "H100-SXM-80GB",
}
