-- torchao AdamW8bit / Adam8bit (torchao.optim; torchao/optim/subclass_8bit.py
-- OptimState8bit.zeros): each of the two states is one uint8 code per element plus one fp32
-- scale per 256-element block (block_size default 256, adam.py). Unlike bitsandbytes, tensors
-- under 4096 elements or not a multiple of the block keep torch.zeros_like(p) states in the
-- parameter's dtype (adam.py _AdamBase._new_buffer), bf16 under full bf16. The step is
-- torch.compile'd one parameter at a time (single_param_adam, PR #812).
return optimizer {
  name = "adamw-8bit-ao",
  summary = "torchao AdamW8bit: 2 x 8-bit states + fp32 scale per 256 (tensors >= 4096, block multiples)",
  -- adamw_torch_8bit: HF Trainer's optim name for torchao's AdamW8bit (OptimizerNames.ADAMW_TORCH_8BIT;
  -- adamw_8bit / adamw_bnb_8bit there are bitsandbytes', scripts/optimizers/adamw_8bit.lua)
  aliases = { "torchao-adamw-8bit", "ao-adamw-8bit", "adamw_torch_8bit" },
  states = 2, state_bits = 8, block = 256, min_blockwise = 4096, block_divides = true,
  step_temps = 0, temp_scope = "param",
}
