-- FLUX.1-dev at 1024x1024 with diffusers: `vramfit fit examples/flux-dev-1024.lua` lists
-- every catalog GPU; try --set workload.offload=model (or auto, sequential, group) for the
-- smaller ones.
return {
  name = "flux-dev-1024",
  model = "black-forest-labs/FLUX.1-dev",
  dtype = "bf16",
  runtime = { name = "diffusers" },
  workload = { kind = "image", width = 1024, height = 1024, batch = 1, steps = 28,
               max_sequence_length = 512, offload = "none" },
}
