-- workload.offload_by_component: block_level without num_blocks_per_group (diffusers'
-- apply_group_offloading raises: "num_blocks_per_group must be provided")
return { model = 'Lightricks/LTX-Video', dtype = 'bf16', runtime = 'diffusers', gpu = 'A100',
  workload = { kind = 'video', frames = 161, offload = 'group',
    offload_by_component = { text_encoder = { offload_type = 'block_level' } } } }
