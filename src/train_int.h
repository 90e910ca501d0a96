/*
** train_int.h: what the training modules share (train.c, train_ds.c): the options read
** from a scenario's "train.*" extras, the per-rank parts of a training step, and the
** DeepSpeed model-state estimators. Private to src/.
*/
#ifndef VF_TRAIN_INT_H
#define VF_TRAIN_INT_H

#include "estimate_int.h"

typedef enum train_loss { LOSS_STANDARD = 0, LOSS_CHUNKED, LOSS_FUSED, LOSS_VOCAB_PARALLEL, LOSS_TITAN_CHUNKED } train_loss;
/* fp8 GEMMs of the layers' Linears: torchao Float8Linear or Transformer Engine te.Linear */
typedef enum train_fp8 { FP8_NONE = 0, FP8_TORCHAO, FP8_TE } train_fp8;

typedef struct train_cfg {
  bool overflow;                               /* a figure read or derived overflowed */
  uint64_t trainable, added, largest;          /* parameters (elements) */
  uint64_t state_bytes, paged_bytes, temp_bytes; /* optimizer, whole model, unsharded */
  uint64_t saved_elems, mask_elems;            /* adapter activations per token, all layers */
  uint64_t weight_saved;                       /* weight-shaped tensors saved (LoHa deltas) */
  uint64_t dora_out;                           /* DoRA: out-sized outputs saved per token, all layers */
  uint64_t copy_elems;                         /* adapted modules' own input copies per token, all layers */
  uint64_t adapter_bytes;                      /* bytes per element of those copies and of the adapters'
                                               ** outputs, one dtype (0: the activation dtype; DoRA's the
                                               ** adapters') */
  uint64_t gc_every, virtual_tokens;
  uint64_t op_col, op_row;                     /* per-op SAC: saved mm output elements per token and
                                               ** layer, column- and row-parallel (peft.lua op_sac) */
  bool free_logits;                            /* the loop drops the logits before backward (torchtitan) */
  bool model_upcast;                           /* transformers < 4.46: the model's forward upcasts its logits */
  bool output_upcast;                          /* the model returns fp32 logits (torchtune, output_upcast) */
  bool output_held;                            /* the loop keeps those fp32 logits through backward */
  bool keep_outputs;                           /* the loop holds the model's outputs to the step's end */
  bool pp_outputs;                             /* PyTorch pipelining keeps every last-stage output */
  bool kbit_stream;                            /* fp32 residual stream after the first block (PEFT's
                                               ** prepare_model_for_kbit_training under TRL) */
  uint64_t encode;                             /* VAE encoding each step (no precomputed latents) */
  uint64_t layer_extra;                        /* elements per token and layer beyond the LLM block (DiTs) */
  uint64_t act_elems, act_ckpt, act_block;     /* a UNet's saved activations per sample (train_gen.lua) */
  uint64_t act_fwd, act_scores;                /* its forward peak and largest eager score tensor */
  uint64_t load;                               /* transient bytes of model load (quantizing the base) */
  vf_dtype tdtype;                             /* trainable parameters' dtype */
  uint64_t copy_params;                        /* of them, PEFT's modules_to_save copies kept in cdtype */
  vf_dtype cdtype;                             /* their dtype: the base's (PEFT upcasts adapters only) */
  bool peft, save_attn_in, save_o_in, save_mlp_in, save_down_in;
  bool megatron;                               /* runtime megatron: gradient buckets are views of its buffer */
  bool keep_grads;                             /* zero_grad keeps gradients allocated (torch < 2.0) */
  bool oib, off_act, off_opt, off_par, compile, attn_dropout, hidden_dropout;
  uint64_t bnb_state;                          /* bitsandbytes 4-bit quantization statistics of the model
                                               ** (quant.bnb_state_bytes): not parameters, so never sharded
                                               ** or offloaded (train_weights) */
  bool pipeline, aux_on_gpu;                   /* a diffusion pipeline: train its denoiser */
  bool dense_mask;                             /* the denoiser builds a dense [B, S, S] boolean attention
                                               ** mask (diffusers v0.32.0/v0.32.1 HunyuanVideo) */
  train_loss loss;
  uint64_t loss_chunk;                         /* LOSS_TITAN_CHUNKED: tokens per head + loss chunk */
  strategy_kind strategy;                      /* parallel.strategy or runtime.zero_stage */
  double frag;
  bool expandable;                             /* PYTORCH_CUDA_ALLOC_CONF expandable_segments:True (train_slack) */
  double small_frac;                           /* trainable share in PyTorch's small pool (<= 1 MiB tensors) */
  bool encoder_pool;                           /* dropped encoders' weights still cached (in-process precompute) */
  bool encode_after_step;                      /* empty_cache between encode and forward only (SAT) */
  train_fp8 fp8;                               /* workloads/train.lua fp8_part */
  uint64_t fp8_linear_elems, fp8_linears;      /* the converted Linears: elements, count (whole model) */
  uint64_t fp8_amax_len;                       /* TE DelayedScaling amax_history_len */
  bool fp8_all_gather;                         /* torchao FSDP2 float8 all-gather of the weights */
  bool fsdp1; /* FSDP is FullyShardedDataParallel (workloads/train.lua fsdp_part) */
  /* FSDP's sharding strategy (scripts/scenario.lua fsdp_sharding): */
  bool fsdp_keep;                              /* SHARD_GRAD_OP / _HYBRID_SHARD_ZERO2 / reshard_after_forward
                                               ** False: units stay gathered from forward to backward */
  bool fsdp_no_shard;                          /* NO_SHARD: nothing sharded, flat gradients all-reduced */
  uint64_t dp_shard;                           /* HYBRID_SHARD*: data-parallel ranks of one shard group
                                               ** (0: all of dp) */
  uint64_t raf_mesh;                           /* fully_shard reshard_after_forward=int: post-forward mesh
                                               ** ranks (0: none) */
  uint64_t cp;                                 /* context-parallel degree (1: none) */
  uint64_t ep;                                 /* megatron expert-parallel degree (1: none) */
  bool cp_alltoall;                            /* ring attention's KV exchange by all-to-all, else all-gather */
  bool sp;                                     /* sequence parallelism with tp */
  bool sp_local;                               /* Linear inputs saved sequence-sharded (Megatron), not gathered (DTensor) */
  bool norm_upcast;                            /* runtime.rmsnorm_upcast: the RMSNorm's fp32 copy is saved */
  bool norm_trained;                           /* the norms' weights are trained (full fine-tuning) */
  bool repeat_kv;                              /* runtime.repeat_kv: SDPA saves K/V expanded to every head */
} train_cfg;

typedef struct train_parts {
  uint64_t weights, weights_full, adapters, master, grads, states, paged, step_temp;
  uint64_t qstate; /* of weights, bitsandbytes statistics kept whole (train_weights) */
  uint64_t
      ep_whole; /* the rank's weights before Megatron's expert parallelism split the experts (0: no split) */
  uint64_t act, act_layer, logits, comm, gathered;
  uint64_t unshard_unit; /* FSDP: one repeated unit's unsharded flat parameter (fsdp1_pools) */
  uint64_t fwd_kept;     /* FSDP: parameter bytes held from each unit's forward to its backward
                         ** beyond comm (fsdp_fwd_kept: SHARD_GRAD_OP, reshard_after_forward=int) */
  uint64_t ds_bucket; /* of comm: DeepSpeed's contiguous gradient reduce bucket (ZeRO-1..3) */
  uint64_t comm_bwd;  /* ZeRO-1/2 without contiguous_gradients: bucketed gradients in backward */
  uint64_t aux, aux_rounding, den_rounding;    /* a pipeline's frozen encoders and VAE */
  uint64_t den_buffers;                        /* the denoiser's persistent buffers (SD3's pos_embed) */
  uint64_t rope;                               /* torchtune's fp32 RoPE cache, in weights (train_weights) */
  uint64_t pool;                               /* their cached segments after they were dropped */
  uint64_t fp8_meta;                           /* TE scaling factors and amax histories */
  /* pipeline parallelism (pp > 1, src/train.c pp_stages): per micro-batch in flight on the
  ** first stage, its saved activations and the stage output; the layer being recomputed; the
  ** last stage's head output per micro-batch the schedule keeps; under FSDP the stage's
  ** unsharded parameters and gradients */
  uint64_t pp_saved, pp_work, pp_head, pp_params, pp_grads;
  uint64_t pp_out;                             /* one micro-batch's stage output (or input) */
  uint64_t pp_recv;                            /* the reported stage's receive buffers */
  int pp_stage;                                /* the stage reported: 0 none, 1 first, 2 last, 3 second */
  uint64_t pp_inflight;                        /* its micro-batches in flight */
  uint64_t pp_g0, pp_g1;                       /* its gradients live in forward and in backward */
  uint64_t pp_logits_bwd, pp_logits_step;      /* its head outputs kept in backward and at the step */
  uint64_t pp_layers, pp_elems;                /* the stage's repeated layers and parameter elements on
                                               ** this rank, when pp_own */
  bool pp_own;                                 /* a compared stage's own parameters (false: the average
                                               ** share, pp = 1); a stage may hold 0 layers */
  uint64_t pp_per_layer, pp_input;             /* one layer's saved set and checkpointed input (pp_stages
                                               ** recounts the kept set for the stage's layers) */
  uint64_t pp_kept;                            /* the kept set for ceil(L / pp) layers, in act */
} train_parts;

void train_read_cfg(const scenario *s, uint64_t params, train_cfg *t);
/* The whole training estimate for one rank from a read configuration. */
void train_run(ectx *c, const train_cfg *t);
/* train_read_cfg of c's scenario, then train_run; *t keeps the configuration read. */
void train_estimate(ectx *c, train_cfg *t);

/* DeepSpeed's own model-state estimators (deepspeed/runtime/zero/stage_1_and_2.py
** estimate_zero2_model_states_mem_needs, stage3.py estimate_zero3_model_states_mem_needs),
** reproduced to the byte: bytes on each GPU and in host memory. */
typedef struct ds_estimate {
  uint64_t gpu, cpu, largest_layer;
  bool overflow; /* a figure exceeded 64 bits (Python's integers do not wrap) */
} ds_estimate;
ds_estimate train_ds_zero2(uint64_t params, uint64_t gpus_per_node, uint64_t nodes, bool cpu_offload,
                           double buffer_factor);
ds_estimate train_ds_zero3(uint64_t params, uint64_t largest_layer_params, uint64_t gpus_per_node,
                           uint64_t nodes, bool cpu_offload, bool cpu_offload_params, bool zero_init,
                           double buffer_factor);

#endif
