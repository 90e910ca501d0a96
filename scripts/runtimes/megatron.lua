-- megatron: Megatron-LM / Megatron-Core training (pretrain_gpt.py, NeMo and Megatron-Bridge
-- recipes). --bf16 / --fp16 keep 16-bit parameters and an fp32 main copy in the optimizer
-- (megatron/core/optimizer/optimizer.py Float16OptimizerWithFloat16Params); the gradients
-- accumulate into one contiguous buffer allocated when the model is wrapped and zeroed in
-- place each step (megatron/core/distributed/param_and_grad_buffer.py, `main_grad` views;
-- DistributedDataParallel.zero_grad_buffer), in fp32 with
-- accumulate_allreduce_grads_in_fp32, which --bf16 forces on (megatron/training/
-- arguments.py: "accumulate and all-reduce gradients in fp32 for bfloat16 data type") and
-- --fp16 leaves off. use_distributed_optimizer (--use-distributed-optimizer) shards the fp32
-- main parameters and the Adam states over the data-parallel ranks, not the gradient
-- buffer (megatron/core/optimizer/distrib_optimizer.py): ZeRO-1. Megatron's Adam is a fused
-- multi-tensor one (TE or apex FusedAdam, megatron/core/optimizer/__init__.py) and its DDP
-- buckets are views of the buffer, so neither a foreach temporary nor bucket copies
-- (src/train.c, workloads/train.lua). Without TE and Apex it falls back to torch's AdamW,
-- whose foreach temporary over the rank's (sharded) parameters is not counted.
-- Paths cited from NVIDIA/Megatron-LM d98e8a64.
local E = require "engine"

-- Megatron's --optimizer (megatron/training/arguments.py): adam (AdamW: decoupled weight
-- decay), sgd, and the emerging-optimizers muon; no bitsandbytes, paged, Lion or Adafactor
local OPTIMIZERS = { adamw = true, ["adamw-fused"] = true, sgd = true, ["sgd-momentum"] = true, muon = true }

local function normalize(n)
  if n.extra["train.pipeline"] or type(n.model.desc.pipeline) == "table" then
    E.fail("runtime.name", "megatron trains language models, and '%s' is a diffusion pipeline: use \"diffusers\"",
           n.model.id)
  end
  local o = n.optimizer and n.optimizer.name
  if o and not OPTIMIZERS[o] then
    E.fail("workload.optimizer", "megatron steps adam (\"adamw\"), sgd or muon (--optimizer), not %s", o)
  end
end

return runtime {
  name = "megatron",
  summary = "Megatron-LM / Megatron-Core training",
  aliases = { "megatron-lm", "megatron-core", "mcore" },
  kinds = { "train" },
  -- decoder_first_pipeline_num_layers / decoder_last_pipeline_num_layers
  -- (--decoder-first-pipeline-num-layers, --decoder-last-pipeline-num-layers) fix the first /
  -- last pipeline stage's transformer layers, the rest dividing evenly over the others;
  -- account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split count the
  -- embedding / the loss as one layer of the first / last stage (megatron/core/transformer/
  -- transformer_config.py; src/train.c pp_stage_layers). Without them each stage builds
  -- num_layers / pp layers.
  knobs = { use_distributed_optimizer = "bool", accumulate_allreduce_grads_in_fp32 = "bool",
            decoder_first_pipeline_num_layers = "int", decoder_last_pipeline_num_layers = "int",
            account_for_embedding_in_pipeline_split = "bool", account_for_loss_in_pipeline_split = "bool" },
  knob_docs = {
    use_distributed_optimizer = "--use-distributed-optimizer: optimizer states and master weights sharded over data parallel",
    accumulate_allreduce_grads_in_fp32 = "--accumulate-allreduce-grads-in-fp32 (forced by --bf16): fp32 main gradients",
    decoder_first_pipeline_num_layers = "--decoder-first-pipeline-num-layers: layers on the first stage",
    decoder_last_pipeline_num_layers = "--decoder-last-pipeline-num-layers: layers on the last stage",
    account_for_embedding_in_pipeline_split = "--account-for-embedding-in-pipeline-split: the embedding counts as a layer",
    account_for_loss_in_pipeline_split = "--account-for-loss-in-pipeline-split: the loss counts as a layer",
  },
  normalize = normalize,
  modelled = true,
}
