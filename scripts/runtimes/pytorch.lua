-- pytorch: a plain PyTorch training loop (torch.amp autocast for mixed precision,
-- DistributedDataParallel or FSDP for several GPUs).
return runtime {
  name = "pytorch",
  summary = "plain PyTorch loop: autocast, DDP, FSDP",
  aliases = { "torch" },
  kinds = { "inference", "train" },
  -- torch: the PyTorch version of a training loop (workloads/train.lua era_part)
  -- free_logits: the loop drops its reference to the logits before loss.backward(), as
  -- torchtitan's train step does (`del pred`, train.py at 9dec370; src/train.c logits_bytes);
  -- a Hugging Face model keeps them in outputs.logits (the default, false)
  -- peft, autocast_adapter_dtype: the PEFT release and get_peft_model's argument, which
  -- decide the adapters' dtype under pure 16-bit training (workloads/train.lua upcast_adapters)
  knobs = { cache = { "dynamic", "static" }, torch = "string", free_logits = "bool",
            peft = "string", autocast_adapter_dtype = "bool" },
  modelled = true,
}
