-- vllm: paged KV cache sized from gpu_memory_utilization after a profile run.
return runtime {
  name = "vllm",
  summary = "vLLM serving (paged KV cache)",
  kinds = { "inference" },
  knobs = {
    gpu_memory_utilization = "number", max_model_len = "int", max_num_seqs = "int",
    max_num_batched_tokens = "int", block_size = "int", kv_cache_dtype = "string",
    enforce_eager = "bool", enable_prefix_caching = "bool", enable_chunked_prefill = "bool",
    swap_space = "number", kv_cache_memory_bytes = "bytes", quantization = "string",
  },
  modelled = false,
}
