-- torchao AdamWFp8 / AdamFp8 (torchao.optim; torchao/optim/subclass_fp8.py OptimStateFp8.zeros):
-- each of the two states is float8_e4m3fn, one byte per element, plus one fp32 scale per
-- 256-element block; the same size rule as AdamW8bit (adam.py _AdamBase._new_buffer). Needs
-- compute capability >= 8.9 on CUDA (torchao/optim/README.md); not checked here.
return optimizer {
  name = "adamw-fp8-ao",
  summary = "torchao AdamWFp8: 2 x fp8 e4m3 states + fp32 scale per 256 (tensors >= 4096, block multiples)",
  aliases = { "adamw_fp8", "adamwfp8", "adamfp8", "torchao-adamw-fp8", "ao-adamw-fp8" },
  states = 2, state_bits = 8, block = 256, min_blockwise = 4096, block_divides = true,
  step_temps = 0, temp_scope = "param",
}
