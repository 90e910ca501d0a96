-- diffusers: image and video pipelines with model, sequential or group offload.
return runtime {
  name = "diffusers",
  summary = "Hugging Face diffusers pipelines",
  kinds = { "image", "video", "train" },
  knobs = { offload_type = { "block_level", "leaf_level" }, num_blocks_per_group = "int", use_stream = "bool" },
  modelled = true,
}
