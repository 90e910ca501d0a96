-- FusedEmaAdam of SwissArmyTransformer (sat.ops.FusedEmaAdam, sat/ops/fused_ema_adam.py,
-- unchanged since 2024-01-17; the optimizer of CogVideoX's SAT fine-tuning, THUDM/CogVideo
-- sat/configs/sft.yaml): Adam's exp_avg and exp_avg_sq plus an EMA copy of each parameter
-- (state['shadow'] = p.data.clone()), all zeros_like / clone of the parameter, so in its
-- dtype (the fp32 partition under DeepSpeed ZeRO); the step is one multi-tensor CUDA kernel
-- (multi_tensor_ema_adam) over gradients, parameters and the three states, with no
-- state-sized temporaries.
return optimizer {
  name = "fused-ema-adam",
  summary = "SwissArmyTransformer FusedEmaAdam: Adam's 2 states + an EMA shadow, fused step",
  aliases = { "sat.ops.FusedEmaAdam", "fusedemaadam" },
  states = 3,
  step_temps = 0,
}
