-- AdamW8bit / Adam8bit (bitsandbytes): two 8-bit block-wise quantized states, one fp32
-- absmax per 256-element block per state; tensors under 4096 elements keep 32-bit states
-- (bitsandbytes/optim/optimizer.py Optimizer8bit: min_8bit_size=4096, blocksize 256).
-- The step runs one parameter at a time in a fused kernel: no state-sized temporaries.
return optimizer {
  name = "adamw-8bit",
  summary = "bitsandbytes AdamW8bit / Adam8bit: 2 x 8-bit states + fp32 absmax per 256",
  aliases = { "adam-8bit", "adamw_8bit", "adam8bit", "adamw8bit", "adamw_bnb_8bit", "bnb-adamw-8bit" },
  states = 2, state_bits = 8, state_dtype = "fp32", block = 256, min_blockwise = 4096,
  step_temps = 0, temp_scope = "param",
}
