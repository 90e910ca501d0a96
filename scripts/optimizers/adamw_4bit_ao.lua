-- torchao AdamW4bit / Adam4bit (torchao.optim, pytorch/ao PR #478; torchao/optim/subclass_4bit.py
-- OptimState4bit.zeros): each of the two states is 4-bit codes packed two a byte (uint8,
-- n / 2) plus one fp32 scale per 128-element block (block_size default 128, adam.py). Only
-- tensors of >= 4096 elements whose size is a multiple of the block are quantized; the others
-- get torch.zeros_like(p), the parameter's own dtype (adam.py _AdamBase._new_buffer). The step
-- is torch.compile'd one parameter at a time (single_param_adam, static shapes since PR #812).
return optimizer {
  name = "adamw-4bit-ao",
  summary = "torchao AdamW4bit: 2 x 4-bit states + fp32 scale per 128 (tensors >= 4096, block multiples)",
  -- adamw_torch_4bit: HF Trainer's optim name for torchao's AdamW4bit (transformers
  -- training_args.py OptimizerNames.ADAMW_TORCH_4BIT; trainer.py get_optimizer_cls_and_kwargs)
  aliases = { "adamw_4bit", "adamw4bit", "adam4bit", "torchao-adamw-4bit", "ao-adamw-4bit", "adamw_torch_4bit" },
  states = 2, state_bits = 4, block = 128, min_blockwise = 4096, block_divides = true,
  step_temps = 0, temp_scope = "param",
}
