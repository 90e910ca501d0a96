-- deepspeed: ZeRO stages 1-3 with bf16/fp16 weights and gradients and an fp32 master copy.
return runtime {
  name = "deepspeed",
  summary = "DeepSpeed ZeRO training",
  kinds = { "train" },
  knobs = { zero_stage = "int", offload_optimizer = "bool", offload_param = "bool",
            reduce_bucket_size = "int", stage3_prefetch_bucket_size = "int",
            stage3_max_live_parameters = "int" },
  modelled = false,
}
