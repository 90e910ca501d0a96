-- AdamW and Adam (torch.optim): exp_avg and exp_avg_sq shaped like each trainable
-- parameter. The default foreach step (PyTorch 2.x on CUDA) materialises
-- sqrt(exp_avg_sq) for the whole group before addcdiv_: one state-sized temporary
-- (torch/optim/adam.py, _multi_tensor_adam).
return optimizer {
  name = "adamw",
  summary = "torch.optim.AdamW / Adam: 2 states, foreach step temporary",
  aliases = { "adam", "adamw-torch", "adamw_torch", "adam-torch" },
  states = 2,
  step_temps = 1,
}
