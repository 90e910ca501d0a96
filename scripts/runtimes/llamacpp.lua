-- llamacpp: llama.cpp's contiguous KV buffer, model buffers per device, compute buffers.
return runtime {
  name = "llamacpp",
  summary = "llama.cpp (llama-server, llama-cli)",
  aliases = { "llama.cpp", "llama-cpp", "ollama" },
  kinds = { "inference" },
  knobs = {
    n_ctx = "int", n_batch = "int", n_ubatch = "int", n_gpu_layers = "int", n_seq_max = "int",
    flash_attn = "bool", type_k = "string", type_v = "string", split_mode = "string",
    tensor_split = "string", use_mmap = "bool", device = { "gpu", "cpu" }, no_kv_offload = "bool",
  },
  modelled = false,
}
