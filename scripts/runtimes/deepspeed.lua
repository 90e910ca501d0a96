-- deepspeed: ZeRO stages 1-3 with bf16/fp16 weights and gradients and an fp32 master copy
-- (workloads/train.lua), ZeRO-Offload of optimizer states and parameters. The stage comes
-- from parallel.strategy (zero1..zero3) or zero_stage (the ds_config's zero_optimization.stage).
return runtime {
  name = "deepspeed",
  summary = "DeepSpeed ZeRO training",
  kinds = { "train" },
  knobs = { zero_stage = "int", offload_optimizer = "bool", offload_param = "bool",
            reduce_bucket_size = "int", overlap_comm = "bool", contiguous_gradients = "bool", stage3_prefetch_bucket_size = "int",
            stage3_max_live_parameters = "int", stage3_max_reuse_distance = "int", expandable_segments = "bool",
            zero_init = "bool", gpus_per_node = "int" },
  knob_docs = {
    zero_stage = "zero_optimization.stage: 0, 1, 2 or 3",
    offload_optimizer = "offload_optimizer.device cpu: optimizer states and fp32 master in host memory",
    offload_param = "offload_param.device cpu (ZeRO-3): parameters in host memory",
    reduce_bucket_size = "reduce_bucket_size: the gradient bucket's elements (5e8)",
    overlap_comm = "overlap_comm: a second gradient bucket under ZeRO-1/2",
    contiguous_gradients = "contiguous_gradients (default true): false under ZeRO-1/2 keeps no bucket buffer; backward holds up to two buckets of .grad tensors or the trainable set and its flattened copy",
    stage3_prefetch_bucket_size = "accepted from a ds_config, not modelled (a gathered block and the next assumed)",
    stage3_max_live_parameters = "accepted from a ds_config, not modelled (a gathered block and the next assumed)",
    stage3_max_reuse_distance = "stage3_max_reuse_distance: parameters reused within it stay gathered",
    expandable_segments = "PYTORCH_CUDA_ALLOC_CONF expandable_segments:True: reserved = allocated peak in 20 MiB pages, no fragmentation share",
    zero_init = "ZeRO-3: the model built under deepspeed.zero.Init (default true, as transformers' from_pretrained does under ZeRO-3); only DeepSpeed's own estimate (deepspeed_estimate_*) reads it",
    gpus_per_node = "the GPUs of one node (default: every GPU of the run on one node); only DeepSpeed's own estimate reads it",
  },
  modelled = true,
  -- after parallel: DeepSpeed's estimators take num_gpus_per_node and num_nodes (deepspeed/
  -- runtime/zero/stage_1_and_2.py, stage3.py estimate_*_model_states_mem_needs), the run's
  -- GPUs in whole nodes
  parallel_check = function(n, knobs)
    local g = knobs.gpus_per_node
    if g == nil then return end
    local fail, total = require("engine").fail, n.tp * n.pp * n.dp
    if g < 1 then fail("runtime.gpus_per_node", "expected at least 1, got %d", g) end
    if total % g ~= 0 then fail("runtime.gpus_per_node", "%d does not divide the run's %d GPUs (tp x pp x dp)", g, total) end
  end,
  normalize = function(n, knobs)
    local z = knobs.zero_stage
    if z ~= nil and (z < 0 or z > 3) then
      error("runtime.zero_stage: expected 0, 1, 2 or 3, got " .. tostring(z), 0)
    end
    -- ZeRO-3's prefetch and live-parameter limits bound how much is gathered ahead; vramfit
    -- gathers a block and prefetches the next (src/train.c) and keeps what the reuse distance
    -- holds, whatever these say: accepted from a ds_config, and said to be not modelled
    for _, k in ipairs({ "stage3_prefetch_bucket_size", "stage3_max_live_parameters" }) do
      if knobs[k] ~= nil then
        require("engine").note(n, "deepspeed %s %d not modelled (a gathered block and the prefetched next assumed)",
          k, knobs[k])
      end
    end
  end,
}
