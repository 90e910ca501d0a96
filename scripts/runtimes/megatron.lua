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

-- --expert-model-parallel-size: the routed experts of each MoE layer split over ep ranks
-- (megatron/core/transformer/moe/experts.py builds num_experts / ep local experts). The
-- expert parameters form their own gradient buffer and, under the distributed optimizer,
-- shard their fp32 main parameters and Adam states over the expert-data-parallel group,
-- world / (tp x pp x ep) ranks at expert_tensor_parallel_size = tp (megatron/core/
-- parallel_state.py, the expert-data-parallel group; megatron/core/distributed/
-- distributed_data_parallel.py, expert_parallel_buffers; src/train.c train_model_states).
-- Megatron asserts that ep divides the data-parallel x context-parallel ranks it is folded
-- into (parallel_state.py initialize_model_parallel: the expert groups are carved from the
-- tp x cp x dp ranks of a pipeline stage).
local function parallel_check(n, knobs)
  local ep = knobs.expert_model_parallel_size
  if ep == nil or ep == 1 then return end
  if ep < 1 then
    E.fail("runtime.expert_model_parallel_size", "expected a positive number of expert-parallel ranks, got %d", ep)
  end
  -- src/train.c train_model_states splits the experts for full (and freeze) training only:
  -- an adapter method would take the knob and ignore it
  local method = n.extra["train.method"] or "full"
  if method ~= "full" and method ~= "freeze" then
    E.fail("runtime.expert_model_parallel_size", "is modelled for workload.method \"full\" or \"freeze\", got \"%s\"", method)
  end
  local b = type(n.model.desc) == "table" and n.model.desc.block or {}
  local experts = b.experts or 0
  if experts == 0 then
    E.fail("runtime.expert_model_parallel_size", "splits routed experts, and %s has none (a dense model)", n.model.id or "this model")
  end
  if experts % ep ~= 0 then
    E.fail("runtime.expert_model_parallel_size", "expected a divisor of the model's %d routed experts, got %d", experts, ep)
  end
  local cp = n.extra["train.cp"] or 1
  if (n.dp * cp) % ep ~= 0 then
    E.fail("runtime.expert_model_parallel_size", "expected a divisor of parallel.dp x cp = %d (Megatron carves the expert " ..
           "groups from those ranks), got %d", n.dp * cp, ep)
  end
  n.extra["train.ep"] = ep
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
            account_for_embedding_in_pipeline_split = "bool", account_for_loss_in_pipeline_split = "bool",
            expert_model_parallel_size = "int" },
  knob_docs = {
    use_distributed_optimizer = "--use-distributed-optimizer: optimizer states and master weights sharded over data parallel",
    accumulate_allreduce_grads_in_fp32 = "--accumulate-allreduce-grads-in-fp32 (forced by --bf16): fp32 main gradients",
    decoder_first_pipeline_num_layers = "--decoder-first-pipeline-num-layers: layers on the first stage",
    decoder_last_pipeline_num_layers = "--decoder-last-pipeline-num-layers: layers on the last stage",
    account_for_embedding_in_pipeline_split = "--account-for-embedding-in-pipeline-split: the embedding counts as a layer",
    account_for_loss_in_pipeline_split = "--account-for-loss-in-pipeline-split: the loss counts as a layer",
    expert_model_parallel_size = "--expert-model-parallel-size: routed experts split over this many ranks (a divisor of dp x cp)",
  },
  normalize = normalize,
  parallel_check = parallel_check,
  modelled = true,
}
