-- torchtune: recipes with pure bf16 weights, gradients and optimizer states (no fp32
-- master copy); compile, the loss component (CEWithChunkedOutputLoss: chunked CE),
-- activation checkpointing/offloading and optimizer_in_bwd as the recipe config names them.
-- runtime.version selects release-dependent behaviour (workloads/train.lua era_part: before
-- 0.2 torchao 0.1 quantized an NF4 base at model init without chunking).
return runtime {
  name = "torchtune",
  summary = "torchtune recipes (pure bf16)",
  -- the recipe loads the model in cfg.dtype (training.get_dtype), bf16 in every shipped config,
  -- whatever config.json's torch_dtype says, and its recipes raise on fp16
  -- (recipes/full_finetune_single_device.py, lora_finetune_single_device.py: "full fp16 training
  -- is not supported with this recipe. Please use bf16 or fp32 instead.")
  dtypes = { default = "bf16", why = "the recipe's dtype, bf16 in torchtune's configs; the checkpoint's torch_dtype is not used",
             refused = { fp16 = "its recipes raise 'full fp16 training is not supported with this recipe. Please use bf16 or fp32 instead.'" } },
  kinds = { "train" },
  knobs = { compile = "bool", loss = "string", enable_activation_checkpointing = "bool",
            enable_activation_offloading = "bool", optimizer_in_bwd = "bool", expandable_segments = "bool",
            rmsnorm_upcast = "bool", repeat_kv = "bool" },
  knob_docs = {
    compile = "compile: the model and loss under torch.compile",
    loss = "the loss component (CEWithChunkedOutputLoss: chunked cross-entropy)",
    enable_activation_checkpointing = "enable_activation_checkpointing: every layer recomputed",
    enable_activation_offloading = "enable_activation_offloading: saved activations streamed to host memory",
    optimizer_in_bwd = "optimizer_in_bwd: each parameter stepped and its gradient freed in backward",
    rmsnorm_upcast = "RMSNorm saves its fp32 input copy (torchtune's modules/rms_norm.py x.float()); default: on unless compile",
    repeat_kv = "grouped K/V expanded to every query head before SDPA, a saved copy (modules/attention.py); default: on unless compile",
    expandable_segments = "PYTORCH_CUDA_ALLOC_CONF expandable_segments:True: reserved = allocated peak in 20 MiB pages, no fragmentation share (default true from version 0.7: torchtune/__init__.py sets it)",
  },
  modelled = true,
}
