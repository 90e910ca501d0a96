-- torchtune: recipes with pure bf16 weights, gradients and optimizer states.
return runtime {
  name = "torchtune",
  summary = "torchtune recipes",
  kinds = { "train" },
  knobs = { compile = "bool", loss = "string", enable_activation_checkpointing = "bool",
            enable_activation_offloading = "bool", optimizer_in_bwd = "bool" },
  modelled = false,
}
