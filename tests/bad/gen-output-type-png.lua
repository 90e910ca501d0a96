-- workload.output_type: not one of diffusers' output types
return {
  model = "black-forest-labs/FLUX.1-dev",
  runtime = { name = "diffusers" },
  workload = { kind = "image", width = 1024, height = 1024, output_type = "png" },
}
