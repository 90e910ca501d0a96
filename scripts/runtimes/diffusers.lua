-- diffusers: image and video pipelines with model, sequential or group offload.
return runtime {
  name = "diffusers",
  summary = "Hugging Face diffusers pipelines",
  kinds = { "image", "video", "train" },
  -- torch: the PyTorch release of a training run (pre-2.0 zero_grad kept gradients; src/train.c)
  knobs = { offload_type = { "block_level", "leaf_level" }, num_blocks_per_group = "int", use_stream = "bool",
            torch = "string" },
  modelled = true,
}
