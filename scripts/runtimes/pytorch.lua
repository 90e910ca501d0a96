-- pytorch: a plain PyTorch training loop (torch.amp autocast for mixed precision,
-- DistributedDataParallel or FSDP for several GPUs).
return runtime {
  name = "pytorch",
  summary = "plain PyTorch loop: autocast, DDP, FSDP",
  aliases = { "torch" },
  kinds = { "inference", "train" },
  knobs = { cache = { "dynamic", "static" } },
  modelled = true,
}
