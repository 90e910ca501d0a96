-- AdamW with fused=True (torch.optim.AdamW, HF Trainer's adamw_torch_fused): the same
-- two states, updated in one kernel with no state-sized temporaries.
return optimizer {
  name = "adamw-fused",
  summary = "torch.optim.AdamW(fused=True): 2 states, no step temporaries",
  aliases = { "adamw_torch_fused", "adamw-torch-fused" },
  states = 2,
  step_temps = 0,
}
