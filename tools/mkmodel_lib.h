/*
** mkmodel_lib.h: writers of small synthetic model files for tests and mkmodel:
** GGUF v3 llama-like models (valid for llama.cpp), safetensors files and folders
** (single, sharded, GPTQ, diffusers) and each malformed case of the readers.
** Buffers are owned by the caller (mk_buf_free); functions return false and fill
** err on failure, never exit.
*/
#ifndef VF_MKMODEL_LIB_H
#define VF_MKMODEL_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mk_buf {
  uint8_t *p;
  size_t len, cap;
  bool oom;
} mk_buf;

void mk_buf_free(mk_buf *b);
void mk_put(mk_buf *b, const void *p, size_t n);
void mk_u32(mk_buf *b, uint32_t v);
void mk_u64(mk_buf *b, uint64_t v);
void mk_str(mk_buf *b, const char *s);
void mk_zeros(mk_buf *b, size_t n);
void mk_pad(mk_buf *b, size_t align);

/* GGUF pieces */
void mk_gguf_begin(mk_buf *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv);
void mk_kv_str(mk_buf *b, const char *key, const char *val);
void mk_kv_u32(mk_buf *b, const char *key, uint32_t v);
void mk_kv_f32(mk_buf *b, const char *key, float v);
void mk_kv_bool(mk_buf *b, const char *key, bool v);
void mk_tensor_info(mk_buf *b, const char *name, uint32_t ndim, const uint64_t *ne,
                    uint32_t type, uint64_t offset);

typedef struct mk_llama {
  const char *arch, *name;
  unsigned layers, embd, ff, heads, heads_kv, vocab, ctx, experts, experts_used;
  uint32_t type;      /* ggml type of the 2-D weights */
  uint32_t file_type; /* general.file_type */
  bool tied;          /* no output.weight */
  bool gate_up;       /* the routed experts' gate and up fused in one ffn_gate_up_exps {embd, 2 ff,
                      ** experts} (convert_hf_to_gguf --fuse-gate-up-exps; qwen3next, qwen35moe,
                      ** deepseek2 load it) */
  /* Newer architectures (arch "glm4moe", "qwen3next", "qwen35", "qwen35moe", "llama4",
  ** "deepseek2", "qwen2", "qwen3", "qwen3moe", "gemma3"): llama.cpp's tensors and keys of
  ** each (src/models/<arch>.cpp); 0 = unset */
  unsigned head_dim;   /* attention.key_length = value_length (0: embd / heads) */
  unsigned nextn;      /* MTP blocks after the layers (nextn_predict_layers, in block_count) */
  unsigned expert_ff;  /* expert_feed_forward_length (0: ff) */
  unsigned shared;     /* glm4moe, deepseek2: expert_shared_count; qwen3next, qwen35moe:
                       ** expert_shared_feed_forward_length (0: expert_ff) */
  unsigned dense_lead; /* leading_dense_block_count */
  unsigned interval;   /* DeltaNet: full_attention_interval; llama4: interleave_moe_layer_step */
  unsigned ssm_conv, ssm_state, ssm_groups, ssm_vheads; /* DeltaNet kernel, head size, K, V heads */
  unsigned q_lora, kv_lora, rope; /* deepseek2 MLA ranks, rope dims (qk_rope_head_dim) */
  unsigned swa;        /* gemma3, gpt-oss: attention.sliding_window (0: gemma3 none, gpt-oss 128) */
  unsigned w_scale;    /* glm4moe, deepseek2: expert_weights_scale in tenths (25: DeepSeek-V3's
                       ** and GLM-4.5's 2.5), with expert_weights_norm and sigmoid gating; 0: none */
  bool nope;           /* granitehybrid: rope.scaling.finetuned false, no RoPE (the released -H models) */
  /* gemma4 (src/models/gemma4.cpp): a full-attention layer every --interval (default 6) and the
  ** last; sliding layers of head_dim x heads_kv, full ones of g_head_dim (0: 2 x head_dim) x
  ** g_heads_kv (0: heads_kv), without attn_v when k_eq_v; the last kv_shared layers without K/V;
  ** ple: per-layer embedding width; double_wide: the shared layers' FFN 2 x ff; --experts: the
  ** MoE block (fused ffn_gate_up_exps) beside the dense FFN */
  unsigned g_head_dim, g_heads_kv, kv_shared, ple, k_eq_v, double_wide;
  bool kv_scalar;      /* lfm2 / granitehybrid / jamba: attention.head_count_kv as one number, not the
                       ** per-layer list their converters write (a malformed file, for the readers' error) */
  bool granite_scales; /* granitehybrid: embedding / residual / logit / attention scales, Granite-like
                       ** values (12, 0.22, 6, 1/128); any non-zero one adds its ggml_scale node */
} mk_llama;

/* 2 layers, 64 embd, 128 ff, 4 heads, 2 kv heads, 256 vocab, F16 */
void mk_llama_defaults(mk_llama *o);
/* Set o->type and o->file_type from "q4_0", "q8_0", "f16", "f32", "q4_k", ... */
bool mk_llama_ftype(mk_llama *o, const char *ftype);
/* The header, padded to the data start, into b; data bytes and parameters out. */
bool mk_gguf_llama(const mk_llama *o, mk_buf *b, uint64_t *data_bytes, uint64_t *params,
                   char *err, size_t errlen);
/* The whole file (header + zero data) into b. */
bool mk_gguf_llama_buf(const mk_llama *o, mk_buf *b, char *err, size_t errlen);

/* safetensors */
typedef struct mk_st_tensor {
  const char *name, *dtype; /* "F16", "I32", ... */
  int ndim;
  uint64_t shape[4];
} mk_st_tensor;

/* A safetensors file of zero data (metadata_json: "__metadata__" object or NULL). */
bool mk_safetensors(mk_buf *b, const mk_st_tensor *t, size_t n, const char *metadata_json,
                    char *err, size_t errlen);

typedef struct mk_hf {
  unsigned layers, embd, ff, heads, heads_kv, vocab;
  const char *dtype;  /* "BF16" */
  unsigned gptq_bits; /* 0: plain; 4 or 8: GPTQ qweight/qzeros/scales/g_idx */
  unsigned group;     /* GPTQ group size */
  bool no_bits;       /* GPTQ config without quantization_config.bits */
} mk_hf;

void mk_hf_defaults(mk_hf *o);
/* Write DIR/config.json and either DIR/model.safetensors (shards == 1) or
** DIR/model-0000K-of-0000N.safetensors + model.safetensors.index.json. */
bool mk_hf_dir(const char *dir, const mk_hf *o, unsigned shards, char *err, size_t errlen);
/* A diffusers folder: model_index.json, transformer/ and vae/ with weights,
** scheduler/ with a config only. */
bool mk_diffusers_dir(const char *dir, char *err, size_t errlen);
/* Parameters and stored bytes of mk_hf_dir's model (GPTQ: logical, aux apart). */
void mk_hf_totals(const mk_hf *o, uint64_t *params, uint64_t *bytes, uint64_t *aux_bytes);

/* Malformed files: kinds are listed by mk_bad_kinds (NULL-terminated). */
extern const char *const mk_bad_kinds[];
bool mk_bad(const char *kind, mk_buf *b, char *err, size_t errlen);

bool mk_write_file(const char *path, const void *p, size_t n, uint64_t zeros, char *err,
                   size_t errlen);

#endif
