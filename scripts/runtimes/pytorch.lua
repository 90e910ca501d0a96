-- pytorch: a plain PyTorch training loop (torch.amp autocast for mixed precision,
-- DistributedDataParallel or FSDP for several GPUs).
return runtime {
  name = "pytorch",
  summary = "plain PyTorch loop: autocast, DDP, FSDP",
  aliases = { "torch" },
  kinds = { "inference", "train" },
  -- torch: the PyTorch version of a training loop (workloads/train.lua era_part)
  knobs = { cache = { "dynamic", "static" }, torch = "string" },
  modelled = true,
}
