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
  -- compile: the loss function runs under torch.compile, as torchtitan's training.compile
  -- does since bbb1b616e (2025-04-02, #1033: components/loss.py build_cross_entropy_loss);
  -- the compiled standard CE keeps the head output and writes its gradient, 2 bytes of
  -- the activation dtype per logit each (src/train.c logits_bytes). What the compiler's
  -- partitioner saves inside the blocks is not modelled (eager semantics).
  -- pp_outputs: with pipeline parallelism the schedule's step() keeps every micro-batch's
  -- last-stage output (the head's) for its merged return value, PyTorch's default
  -- (stage.py forward_one_chunk output_chunks; true); torchtitan passes return_outputs=False
  -- since e5ef99aab (2025-10-22, #1922), which this knob set to false models (src/train.c
  -- lm_activations)
  -- fused_experts: the model holds its routed experts as one 3-D parameter per layer and
  -- matrix (transformers 5.x's Experts classes, torchtitan's GroupedExperts) rather than a
  -- ModuleList of per-expert Linears (transformers 4.x, the default), which the caching
  -- allocator rounds differently (src/estimate.c fused_expert); experts the checkpoint
  -- names per layer (Granite MoE, gpt-oss, Llama 4) are fused either way
  -- loss_chunk: torchtitan's ChunkedLossWrapper (components/loss.py): the head and the loss
  -- run on chunks of this many tokens, each chunk's backward at once, the hidden-state
  -- gradients gathered in one fp32 buffer (src/train.c logits_bytes)
  -- expandable_segments: the caching allocator runs with PYTORCH_CUDA_ALLOC_CONF=
  -- expandable_segments:True, as torchtitan's run_train.sh sets it since a5e57e4a9
  -- (2024-10-22, #643) (src/train.c train_slack_expandable; workloads/train.lua alloc_part)
  -- fsdp_version: FullyShardedDataParallel (1) or fully_shard (2) (workloads/train.lua fsdp_part)
  -- rmsnorm_upcast: the model's RMSNorm is `self._norm(x.float()).type_as(x) * self.weight`
  -- (torchtitan models/norms.py RMSNorm, the llama3 default until 3b39d7ab0, 2025-03-19, "Switch
  -- RMSNorm implementation to native PyTorch version"): autograd keeps the fp32 copy x.float()
  -- (pow and the scaling's mul save it) and, for a trained weight, the normalized output cast
  -- back, where a fused norm keeps its input (src/train.c layer_bytes_per_token)
  -- repeat_kv: grouped-query K and V are expanded to every query head before SDPA (torchtitan
  -- models/llama/model.py repeat_kv, unsqueeze/expand/reshape: a copy), so the attention saves
  -- q-sized keys and values (src/train.c layer_bytes_per_token). Both matter where a layer's
  -- activations are kept (no checkpointing, every-k-layer checkpointing, the recomputed layer);
  -- torchtitan's per-op SAC recomputes them. Eager semantics: a compiled block is not modelled.
  -- output_upcast: the model's forward returns its logits in fp32 (torchtitan's
  -- `self.output(h).float()` until e10cb9494, 2024-10-22); without free_logits the loop's
  -- reference keeps that fp32 tensor through backward (workloads/train.lua pytorch_output)
  knobs = { cache = { "dynamic", "static" }, torch = "string", free_logits = "bool", output_upcast = "bool",
            peft = "string", autocast_adapter_dtype = "bool", compile = "bool", pp_outputs = "bool",
            fused_experts = "bool", loss_chunk = "int", expandable_segments = "bool", fsdp_version = "int",
            rmsnorm_upcast = "bool", repeat_kv = "bool" },
  knob_docs = {
    fsdp_version = "the FSDP implementation: 1 FullyShardedDataParallel, 2 fully_shard (default from torch 2.4, torchtitan); the sharding strategy is parallel.fsdp_sharding / dp_shard / reshard_after_forward (docs/TRAINING.md)",
    rmsnorm_upcast = "the RMSNorm saves its fp32 input copy and, for a trained weight, its 16-bit output (torchtitan's RMSNorm before 3b39d7ab0)",
    repeat_kv = "grouped K/V expanded to every query head before SDPA, which saves the expanded copies (torchtitan's repeat_kv)",
    cache = "generate()'s cache (inference)",
    torch = "the PyTorch release (before 2.0 zero_grad kept gradients, per-parameter optimizer step; 2.0's foreach AdamW two step temporaries)",
    free_logits = "the loop drops the logits before backward (torchtitan's del pred)",
    output_upcast = "the model returns fp32 logits (torchtitan's self.output(h).float() before e10cb9494, 2024-10-22)",
    peft = "the PEFT release: 0.6 to 0.11 adapters take the base layer's dtype, below 0.6 fp32",
    autocast_adapter_dtype = "get_peft_model's autocast_adapter_dtype (true: fp32 adapters)",
    compile = "the loss under torch.compile (torchtitan training.compile)",
    pp_outputs = "with parallel.pp, step() keeps every micro-batch's output (false: return_outputs=False)",
    loss_chunk = "torchtitan's ChunkedLossWrapper: tokens per head + loss chunk (chunk_len)",
    expandable_segments = "PYTORCH_CUDA_ALLOC_CONF expandable_segments:True: reserved = allocated peak in 20 MiB pages, no fragmentation share (torchtitan's run_train.sh sets it)",
    fused_experts = "routed experts held as one 3-D parameter per layer (transformers 5.x, torchtitan); false: one module per expert",
  },
  modelled = true,
}
