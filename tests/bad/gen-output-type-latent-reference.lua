-- workload.output_type "latent" under a model's own reference scripts
return {
  model = "Wan-AI/Wan2.1-T2V-1.3B",
  runtime = { name = "reference" },
  workload = { kind = "video", width = 832, height = 480, frames = 81, output_type = "latent" },
}
