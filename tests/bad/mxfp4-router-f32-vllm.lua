-- quant.router = "f32" is ollama's GGUF storage of gpt-oss's routers (scripts/quant/mxfp4.lua);
-- vLLM loads the checkpoint's bf16 routers, so the option would be accepted and wrong
return {
  model = "openai/gpt-oss-20b",
  quant = { name = "mxfp4", router = "f32" },
  runtime = { name = "vllm" },
  workload = { kind = "inference", context = 8192 },
  gpu = "H100-SXM-80GB",
}
