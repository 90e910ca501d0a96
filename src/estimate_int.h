/*
** estimate_int.h: what the estimate modules share (estimate.c, infer.c, train.c and
** the runtime modules): the evaluation context with its sticky overflow flag, and the
** helpers every runtime uses (per-device weights, KV cache, common categories, the
** allocator model). Private to src/.
*/
#ifndef VF_ESTIMATE_INT_H
#define VF_ESTIMATE_INT_H

#include "bytes.h"
#include "estimate.h"


typedef struct ectx {
  const model_desc *m;
  const scenario *s;
  estimate *e;
  bytes_acc acc;
  char *err; /* a runtime may set a message and est_fail */
  size_t errlen;
  bool failed;
} ectx;

/* A runtime's estimate for one workload kind; fills c->e->b and the runtime figures. */
typedef void (*est_fn)(ectx *c);

uint64_t est_bits(vf_dtype dt);
/* bytes of n elements of dt, overflow recorded in c */
uint64_t est_elems_bytes(ectx *c, uint64_t n, vf_dtype dt);
/* Elements of the rotary cos/sin cache a serving runtime registers once per model (vLLM's
** get_rope, SGLang's RotaryEmbedding): the description's rope_rows (max_position, times the
** factor of linear / dynamic-NTK scaling, and Gemma 3's local cache beside its global one:
** scripts/nn.lua rope_rows) x rotary_dim (the whole head when no partial factor), torch.cat((cos,
** sin), -1) of rows x rotary_dim / 2 each; none for a model with learned position embeddings. */
uint64_t est_rope_elems(ectx *c);
/* An MLA model: an attention KV group caching one latent per token (v_dim 0, V a view of K). */
bool est_model_mla(const model_desc *m);
bool est_mla_replicated(const model_desc *m, const inv_tensor *t);
/* SGLang's attention tp at a tp: tp / dp_size under --enable-dp-attention where dp_size (>= 2)
** divides it, else tp (rt_sglang.c; fit.c's launch line uses the same rule). */
uint64_t est_sglang_attn_tp(const scenario *s, uint64_t tp);
/* Whether some kv group is a recurrent state (a Mamba / DeltaNet / short-conv hybrid or a pure
** recurrent model), and whether every one is (attention-free: architectures/mamba.lua). */
bool est_model_recurrent(const model_desc *m);
bool est_model_attention_free(const model_desc *m);
/* Roles that tensor parallelism splits (Megatron column/row and vocabulary parallel). */
bool est_tp_sharded(inv_role r);
/* KV heads one tensor-parallel rank holds: split when there are at least tp heads,
** replicated otherwise. */
uint64_t est_kv_heads_rank(uint64_t heads, uint64_t tp);
/* Tokens one layer of a KV group caches for a sequence of `tokens` (window, encoder tokens). */
uint64_t est_kv_group_tokens(const kv_group *g, uint64_t tokens);
/* KV cache of `tokens` per sequence x `seqs` sequences on one rank (tp, pp split); recurrent
** state groups add a constant per sequence. windows false sizes sliding-window and
** chunked layers at full length (caches that do not trim them). */
uint64_t est_kv_cache_bytes(ectx *c, uint64_t tokens, uint64_t seqs, bool windows);
/* Bytes one more token adds on one rank: the self-attention groups at full length
** (cross-attention and recurrent state groups are fixed per sequence). */
uint64_t est_kv_token_bytes(ectx *c);
/* cuBLAS workspace and CUDA context categories. */
/* One decoder layer's largest forward transient over `tokens` tokens (a bytes per element),
** dense part and MoE workspaces (estimate.c). */
/* SGLang's MiB of CUDA-graph memory per layer and captured size (vLLM's flat unit until the cudagraph
** round; rt_vllm.c now splits vLLM's capture into a first capture + VLLM_GRAPH_PER_MIB a graph). Of a
** torch.compile piecewise capture,
** FlashAttention 3's split-KV accumulators held apart: the median over 14 vLLM 0.19 H100 runs of
** (capture - accumulators) / (layers x sizes), as rt_vllm.c describes (fa3_accum_bytes; the
** accumulators are the FULL decode graphs' own, sized there). rt_sglang.c applies it to SGLang's
** piecewise graphs, the same design, where attention is a split op run between the pieces and
** no FA3 accumulator is captured (python/sglang/srt/compilation/compilation_config.py split_ops);
** the 0.289 median with the accumulators inside is not the per-piece cost. */
#define EST_GRAPH_UNIT_MIB 0.228
uint64_t est_forward_dense_bytes(ectx *c, uint64_t tokens, uint64_t a);
uint64_t est_forward_as_dense(ectx *c, model_desc d, uint64_t tokens, uint64_t a);
/* vLLM's fused-MoE chunk (envs.py VLLM_FUSED_MOE_CHUNK_SIZE, default 32768 tokens): the legacy
** fused_experts and, before 0.18, the modular kernels work on at most this many tokens at once */
#define EST_FUSED_MOE_CHUNK 32768
uint64_t est_forward_moe_bytes(ectx *c, uint64_t tokens, uint64_t a);
/* A speculative drafter's dense layer forward with its own widths (spec.* extras). */
uint64_t est_drafter_forward_bytes(ectx *c, uint64_t tokens, uint64_t a);
/* A vision tower's or projector's tensor (by name prefix). */
bool est_vision_tensor(const inv_tensor *t);
/* A speculative drafter's tensor (component "draft", scripts/speculative.lua). */
bool est_is_draft(const inv_tensor *t);
/* A speculative drafter's KV group i (1-based: spec.kv<i>.*); false when empty. */
bool est_spec_kv_group(const scenario *s, uint64_t i, kv_group *g);
void est_add_common(ectx *c, budget *b);
/* The cuda_context line alone, for runtimes that count their own workspaces (vLLM,
** SGLang, llama.cpp). */
void est_add_context(ectx *c, budget *b, const char *detail);
/* allocator_slack: weight rounding plus the fragmentation share of transient bytes. */
void est_add_slack(ectx *c, budget *b, uint64_t rounding, uint64_t transient, double frag, vf_basis basis);
/* allocator_slack under PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the PyTorch total
** so far (plus `kept`, reserved bytes the caller already knows beyond it) rounded up to the
** large pool's 20 MiB pages; returns the slack added (src/estimate.c). */
uint64_t est_add_slack_expandable_kept(ectx *c, budget *b, uint64_t kept, const char *detail);
void est_add_slack_expandable(ectx *c, budget *b);
/* PyTorch's per-tensor rounding of one rank's weights beyond their bytes (512 B blocks,
** 2 MiB segments). */
uint64_t est_weight_rounding(ectx *c, uint64_t weights);
/* Sets peak allocated / reserved / total from the budget. */
void est_finish(ectx *c, budget *b);
/* A runtime figure for the report's "runtime" object (what the runtime prints). */
void est_fig(ectx *c, const char *name, uint64_t value);
void est_fig_real(ectx *c, const char *name, double value);
/* Stops the estimate with a message (an unsupported combination, say). */
void est_fail(ectx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* NCCL NVLS buffers on this GPU (an NVSwitch system of Hopper or later). */
bool est_nvls(const scenario *s);
/* GiB tensor parallelism's communicators take outside PyTorch on a rank (0 at tp 1). */
double est_tp_comm_gib(const scenario *s);
/* Why custom all-reduce is off (vLLM's rule, which SGLang's custom_all_reduce.py copies), NULL
** when it runs: runtime.disable_custom_all_reduce, a world size outside 2/4/6/8, more than two
** GPUs without full NVLink (estimate.c). */
const char *est_custom_ar_off(const scenario *s);
/* All-reduces one captured forward runs on a rank: 2 x the stage's layers + 1 (0 at tp 1). */
uint64_t est_graph_collectives(const ectx *c);
/* MiB a captured NCCL collective costs per captured size (NCCL's persistent plans; estimate.c
** est_graph_nccl_bytes), fitted on two vLLM logs, used by vLLM and SGLang. */
#define EST_GRAPH_NCCL_MIB 0.110
/* NCCL's captured all-reduces over `sizes` captured sizes: EST_GRAPH_NCCL_MIB x collectives x sizes. */
uint64_t est_graph_nccl_bytes(ectx *c, uint64_t sizes);

/* The modules. */
void infer_transformers(ectx *c);
/* llama.cpp's backend buffers (rt_llamacpp.c) */
void llamacpp_estimate(ectx *c);
void train_pytorch(ectx *c);
void vllm_estimate(ectx *c); /* rt_vllm.c */
/* Bytes the caching allocator keeps reserved beyond the loaded parameters on a rank (segment
** rounding and 20 MiB segment tails; rt_vllm.c, used for SGLang's weights figure). */
uint64_t est_reserved_slack(ectx *c);
void sglang_estimate(ectx *c); /* rt_sglang.c */
void train_deepspeed(ectx *c);  /* train_ds.c */
void train_torchtune(ectx *c);  /* train_ds.c */
void gen_estimate(ectx *c);      /* gen.c: image and video generation */

#endif
