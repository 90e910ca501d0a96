-- PagedAdamW (bitsandbytes, optim_bits=32): two fp32 states whatever the parameter dtype,
-- in CUDA managed memory for tensors of >= 1e5 elements (outside PyTorch's allocator).
return optimizer {
  name = "paged-adamw",
  summary = "bitsandbytes PagedAdamW (32-bit): fp32 states in CUDA managed memory",
  aliases = { "paged_adamw", "paged_adamw_32bit", "pagedadamw" },
  states = 2, state_dtype = "fp32", paged = true, step_temps = 0, temp_scope = "param",
}
