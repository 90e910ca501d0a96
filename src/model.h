/*
** model.h: what the engine evaluates, as plain C structs filled by the Lua host from
** an architecture description and a normalized scenario. No Lua here: estimate.c,
** fit.c and report.c work on these alone, so a sweep re-evaluates without Lua.
*/
#ifndef VF_MODEL_H
#define VF_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"
#include "dtype.h"
#include "inventory.h"

#define MODEL_MAX_KV 8
#define KV_MAX_IDS 1024 /* the layers a kv group's layer_ids may name */
#define SCN_MAX_GPUS 64
#define SCN_MAX_NOTES 32
#define SCN_NOTE 400 /* the longest note (vLLM's newer-release one) is about 320 characters */

/* What a group of layers caches per sequence: K/V per token (full attention, a sliding
** window, or chunked local attention whose window is the chunk), K/V of a fixed number of
** encoder tokens (cross-attention to an image), or a fixed-size recurrent state (Mamba,
** gated DeltaNet: conv + SSM state, in the model dtype). */
typedef enum kv_kind { KV_ATTN = 0, KV_CHUNKED, KV_CROSS, KV_STATE } kv_kind;

enum { KV_BY_VLLM = 1, KV_BY_SGLANG = 2, KV_BY_LLAMACPP = 4 };

typedef struct kv_group {
  uint64_t layers, kv_heads, k_dim, v_dim;
  uint64_t window; /* 0: full attention; else tokens a sliding-window layer keeps */
  kv_kind kind;
  uint64_t tokens;      /* KV_CROSS: encoder tokens cached per sequence */
  uint64_t state_elems; /* KV_STATE: state elements per sequence per layer (TP splits them) */
  uint64_t conv_elems;  /* KV_STATE: the part of state_elems that is the convolution window
                        ** (SGLang keeps it in bf16, the recurrent rest in fp32); 0: not given */
  /* bytes: bytes one token of one layer takes whatever the KV dtype (0: kv_heads x (k_dim +
  ** v_dim) x the KV dtype's size): DeepSeek-V3.2's indexer keys, 128 fp8 + one fp32 scale = 132
  ** uint8 (vllm deepseek_v2.py Indexer, SGLang NSATokenToKVPool). fp8_bytes: a token's bytes
  ** when vLLM stores this MLA latent in 8 bits (0: k_dim x 1): the sparse-MLA "fp8_ds_mla"
  ** layout, 512 fp8 + 4 fp32 scales + 64 bf16 rope = 656. */
  uint64_t bytes, fp8_bytes;
  /* expanded_heads / expanded_k_dim / expanded_v_dim: the per-head K and V that transformers'
  ** attention caches for this group when it differs from what the serving engines store (0: the
  ** group's own kv_heads / k_dim / v_dim). DeepseekV3Attention.forward (transformers
  ** models/deepseek_v3/modeling_deepseek_v3.py) up-projects the MLA latent through kv_b_proj and
  ** passes past_key_values.update key_states of num_heads x (qk_nope + qk_rope) and value_states
  ** of num_heads x v_head_dim, in the KV dtype; src/infer.c reads them (and src/estimate.c for
  ** the runtimes expanded_by names). */
  uint64_t expanded_heads, expanded_k_dim, expanded_v_dim;
  /* expanded_by: the serving runtimes (KV_BY_* bits) that cache the expanded layout too, in place
  ** of the group's own (MiniCPM3: vLLM's minicpm3.py and llama.cpp's minicpm3 graph keep per-head
  ** K and V, SGLang the latent); 0: transformers alone. src/estimate.c est_runtime_layout. */
  unsigned expanded_by;
  /* KV_STATE: which layers (0-based) the group's are, when the description lists them
  ** (layer_ids; LFM2's conv layers); has_ids false: not given (the runtimes assume a period) */
  bool has_ids;
  uint64_t ids[KV_MAX_IDS / 64];
} kv_group;

typedef struct block_spec {
  uint64_t q_dim, kv_dim, ffn_dim;
  uint64_t experts, experts_per_tok;
  uint64_t expert_ffn; /* MoE: one routed expert's FFN width (0: ffn_dim / experts_per_tok, no shared expert) */
  uint64_t dense_ffn;  /* MoE: the gated MLP width of its dense layers (first_k_dense_replace); 0: none */
  bool gated, rms, parallel_residual;
  bool moe_unnormalized; /* MoE: the top-k router weights not renormalized to sum 1
                         ** (norm_topk_prob / expert_weights_norm false) */
  bool moe_scaled;       /* MoE: the top-k weights scaled by routed_scaling_factor != 1 */
  bool dense_beside_moe; /* MoE: the width beyond the routed experts' is a dense MLP run beside a
                         ** plain FusedMoE (Gemma 4), not a shared expert (moe_dense_beside) */
} block_spec;

typedef enum model_family { FAM_DECODER = 0, FAM_ENCODER, FAM_ENCDEC } model_family;

typedef struct model_desc {
  char id[160];
  char arch[48];
  model_family family;
  uint64_t hidden, layers, vocab, heads, kv_heads, head_dim, intermediate, max_position;
  uint64_t rotary_dim; /* dimensions RoPE rotates per head (partial rotary: < head_dim) */
  uint64_t rope_positions; /* positions per token RoPE reads (4 with multimodal RoPE), else 1 */
  uint64_t rope_rows;      /* rows of vLLM's cos/sin caches, all get_rope instances (default max_position) */
  bool attn_temp;          /* every layer scales Q by a per-token attention temperature */
  bool tied_embeddings;
  inventory inv;
  kv_group kv[MODEL_MAX_KV];
  int n_kv;
  block_spec block;
} model_desc;

typedef enum wl_kind { WL_INFERENCE = 0, WL_TRAIN, WL_IMAGE, WL_VIDEO } wl_kind;
typedef enum attn_kind { ATTN_SDPA = 0, ATTN_FLASH, ATTN_EAGER } attn_kind;
/* activation checkpointing: none; full (layer inputs, each layer recomputed); selective
** (Megatron: the attention core recomputed); op (torchtitan per-op SAC: layer inputs, SDPA
** outputs and every second mm output saved, the rest recomputed; scripts/peft.lua op_sac) */
typedef enum gc_kind { GC_NONE = 0, GC_FULL, GC_SELECTIVE, GC_OP } gc_kind;
typedef enum strategy_kind {
  STRAT_NONE = 0, STRAT_DDP, STRAT_FSDP, STRAT_ZERO1, STRAT_ZERO2, STRAT_ZERO3
} strategy_kind;

typedef struct optimizer_spec {
  char name[32];
  uint64_t state_bits;     /* bits of optimizer state per trainable parameter */
  uint64_t step_temp_bits; /* bits per trainable parameter live only during step() */
} optimizer_spec;

typedef struct precision_spec {
  char name[16];
  vf_dtype weights, grads, activations;
  bool master;             /* a separate fp32 master copy of trainable weights */
  vf_dtype master_dtype;
} precision_spec;

/* A scenario field the core has no struct member for (a runtime's knob, a method's
** option): keys are dotted names ("runtime.max_model_len", "lora.r"); modules read
** them with scn_* below, so a new option needs no change to the reader. */
typedef enum scn_type { SCN_INT = 0, SCN_REAL, SCN_STR, SCN_BOOL } scn_type;

typedef struct scn_value {
  char key[48];
  scn_type type;
  uint64_t i;
  double d;
  char s[96];
} scn_value;

#define SCN_MAX_EXTRA 96

typedef struct scenario {
  char name[160];
  wl_kind kind;
  char runtime[32];
  vf_dtype dtype;          /* weights when not quantized */
  vf_dtype kv_dtype;
  attn_kind attention;
  /* inference */
  uint64_t context, concurrency, prompt_tokens;
  bool static_cache;
  /* training */
  uint64_t micro_batch, seq_len, grad_accum;
  gc_kind gc;
  optimizer_spec opt;
  precision_spec prec;
  /* parallelism */
  uint64_t tp, pp, dp;
  strategy_kind strategy;
  /* device facts */
  uint64_t cuda_context;   /* bytes outside PyTorch per GPU (context, kernels) */
  uint64_t workspace;      /* cuBLAS workspace bytes */
  double fragmentation;    /* reserved = allocated x (1 + f) beyond rounding */
  double headroom;         /* fraction of each GPU kept free */
  /* the GPU this estimate runs on (set by fit_device_scenario; 0 / "" before) */
  uint64_t gpu_memory;     /* bytes the runtime sees as total */
  uint64_t gpu_smi_memory; /* nvidia-smi's total where the catalog records it, else 0 */
  bool fit_probe;        /* set by fit on the estimates it bisects with: runtimes skip their own fit search */
  char gpu_arch[16];       /* catalog arch: "hopper", "ampere", ... */
  char gpu_name[48];       /* catalog name ("H100-SXM-80GB"): runtimes that match device names */
  char gpu_link[64];       /* catalog interconnect ("NVLink 4, 900 GB/s") */
  char gpu_compute[16];    /* catalog compute capability ("9.0"; "" when unknown) */
  /* GPUs asked for; n_gpus == 0: the whole catalog */
  gpu gpus[SCN_MAX_GPUS];
  int n_gpus;
  char notes[SCN_MAX_NOTES][SCN_NOTE]; /* assumptions */
  int n_notes;
  scn_value extra[SCN_MAX_EXTRA];
  int n_extra;
} scenario;

void model_init(model_desc *m);
void model_free(model_desc *m);
/* KV bytes per token summed over layers (full-attention view), overflow-checked. */
bool model_kv_bytes_per_token(const model_desc *m, vf_dtype dt, uint64_t *out);
/* The workload.kind value a scenario writes: "inference", "train", "image", "video". */
const char *wl_kind_name(wl_kind k);
void scenario_note(scenario *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Extras by key; the default when absent or of another type (an integer reads as a
** real too; a bool as 0/1 integer). */
const scn_value *scn_find(const scenario *s, const char *key);
uint64_t scn_u64(const scenario *s, const char *key, uint64_t dflt);
double scn_real(const scenario *s, const char *key, double dflt);
const char *scn_str(const scenario *s, const char *key, const char *dflt);
bool scn_bool(const scenario *s, const char *key, bool dflt);
/* An extra of that key, added (zeroed) when absent; NULL when the table is full. The setters
** replace its value and type. */
scn_value *scn_slot(scenario *s, const char *key);
void scn_set_u64(scenario *s, const char *key, uint64_t v);
void scn_set_str(scenario *s, const char *key, const char *v);

#endif
