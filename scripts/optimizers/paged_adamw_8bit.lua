-- PagedAdamW8bit (bitsandbytes): AdamW8bit's states, allocated in CUDA managed memory for
-- tensors of >= 1e5 elements (Optimizer.get_state_buffer), outside PyTorch's caching
-- allocator: torch's memory statistics do not count them (torchtune README, case
-- torchtune-readme-llama31-8b-full-4090).
return optimizer {
  name = "paged-adamw-8bit",
  summary = "bitsandbytes PagedAdamW8bit: 8-bit states in CUDA managed memory",
  aliases = { "paged_adamw_8bit", "pagedadamw8bit" },
  states = 2, state_bits = 8, state_dtype = "fp32", block = 256, min_blockwise = 4096,
  paged = true, step_temps = 0, temp_scope = "param",
}
