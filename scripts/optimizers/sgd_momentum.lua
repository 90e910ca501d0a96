-- SGD with momentum (torch.optim.SGD, momentum>0): one momentum_buffer per parameter.
return optimizer {
  name = "sgd-momentum",
  summary = "torch.optim.SGD with momentum: 1 state",
  aliases = { "sgd_momentum", "momentum" },
  states = 1,
  step_temps = 0,
}
