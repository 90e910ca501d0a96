/*
** gguf.h: a defensive reader of GGUF v2/v3 headers (llama.cpp's model files).
** Reads the metadata and tensor infos only, never the tensor data; every length,
** count and offset is checked against the bytes the file holds before use.
** Ownership: gguf_info owns every string, array and its inventory; free it with
** gguf_info_free (also after a failed read; freeing a zeroed info is a no-op).
*/
#ifndef VF_GGUF_H
#define VF_GGUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inventory.h"

#define GGUF_MAX_DIMS 4
#define GGUF_DEFAULT_ALIGNMENT 32
#define GGUF_HEADER_CAP (256u << 20) /* gguf_read_file reads at most this much */

typedef enum gguf_status {
  GGUF_OK = 0,
  GGUF_ERR_IO,     /* the file could not be opened or read */
  GGUF_ERR_FORMAT, /* the bytes are not a valid GGUF header */
  GGUF_ERR_NOMEM,
} gguf_status;

/* `<arch>.` hyperparameters; the key suffix of each is gguf_field_key(id). */
typedef enum gguf_field_id {
  GGUF_F_BLOCK_COUNT = 0,
  GGUF_F_CONTEXT_LENGTH,
  GGUF_F_EMBEDDING_LENGTH,
  GGUF_F_FEED_FORWARD_LENGTH,
  GGUF_F_HEAD_COUNT,
  GGUF_F_HEAD_COUNT_KV,
  GGUF_F_KEY_LENGTH,
  GGUF_F_VALUE_LENGTH,
  GGUF_F_EXPERT_COUNT,
  GGUF_F_EXPERT_USED_COUNT,
  GGUF_F_SLIDING_WINDOW,
  GGUF_F_VOCAB_SIZE, /* tokenizer.ggml.tokens length, else <arch>.vocab_size */
  /* the fields of newer architectures (llama-arch.cpp LLM_KV_NAMES); an entry of another
  ** type than an integer or a bool (array) is left out rather than refused */
  GGUF_F_NEXTN_PREDICT_LAYERS, /* MTP blocks appended after the trunk, in block_count */
  GGUF_F_EXPERT_FF_LENGTH,
  GGUF_F_EXPERT_SHARED_FF_LENGTH,
  GGUF_F_EXPERT_SHARED_COUNT,
  GGUF_F_LEADING_DENSE_BLOCKS,
  GGUF_F_INTERLEAVE_MOE_STEP,
  GGUF_F_FULL_ATTENTION_INTERVAL,
  GGUF_F_RECURRENT_LAYERS, /* a bool per layer */
  GGUF_F_SLIDING_WINDOW_PATTERN,
  GGUF_F_Q_LORA_RANK,
  GGUF_F_KV_LORA_RANK,
  GGUF_F_KEY_LENGTH_MLA,
  GGUF_F_VALUE_LENGTH_MLA,
  GGUF_F_ROPE_DIMENSION_COUNT,
  GGUF_F_SSM_CONV_KERNEL,
  GGUF_F_SSM_INNER_SIZE,
  GGUF_F_SSM_STATE_SIZE,
  GGUF_F_SSM_TIME_STEP_RANK,
  GGUF_F_SSM_GROUP_COUNT,
  GGUF_F_EXPERT_WEIGHTS_SCALE, /* a real (real, is_real): the top-k weights' scale */
  GGUF_F_EXPERT_WEIGHTS_NORM,  /* a bool, 0/1: the top-k weights renormalized */
  GGUF_F_EXPERT_GATING_FUNC,   /* 1 softmax, 2 sigmoid, 3 softmax of the selected */
  GGUF_F_ROPE_DIMENSION_SECTIONS, /* M-RoPE sections, an array */
  GGUF_F_ATTN_TEMPERATURE_SCALE,  /* a real: mistral3's attention temperature */
  GGUF_F_SHORTCONV_L_CACHE, /* lfm2: the short conv's kernel (llama-arch.cpp LLM_KV_SHORTCONV_L_CACHE) */
  GGUF_F_ROPE_FINETUNED,    /* granitehybrid: RoPE on (default) or off (llama-arch.cpp LLM_KV_ROPE_SCALING_FINETUNED) */
  GGUF_F_MOE_LATENT_SIZE,   /* nemotron_h_moe: the experts' latent width (LLM_KV_MOE_LATENT_SIZE, Nemotron 3 Super) */
  GGUF_F_SHARED_KV_LAYERS,  /* gemma4: the trailing layers that reuse an earlier cache (LLM_KV_ATTENTION_SHARED_KV_LAYERS) */
  GGUF_F_KEY_LENGTH_SWA,    /* gemma4: the sliding layers' head size (LLM_KV_ATTENTION_KEY_LENGTH_SWA) */
  GGUF_F_EMBD_PER_LAYER,    /* gemma4: the per-layer embedding width (LLM_KV_EMBEDDING_LENGTH_PER_LAYER) */
  GGUF_F_KDA_HEAD_DIM,      /* kimi-linear: the KDA head size (LLM_KV_KDA_HEAD_DIM) */
  GGUF_F_COUNT
} gguf_field_id;

/* A scalar, or a per-layer array (then value is the largest element). */
typedef struct gguf_field {
  bool present;
  uint64_t value;
  uint64_t *arr; /* owned; NULL for a scalar */
  size_t n_arr;
  bool is_real;  /* a float field (expert_weights_scale): the value is `real` */
  double real;
} gguf_field;

typedef struct gguf_tensor {
  char *name;       /* owned */
  uint32_t ndim;
  uint64_t ne[GGUF_MAX_DIMS]; /* ggml order: ne[0] is the row length */
  uint32_t type;    /* ggml_type id, see ggml_types.h */
  uint64_t offset;  /* from the start of the data region */
  uint64_t bytes;   /* exact stored bytes */
  uint64_t elements;
  uint64_t info_pos; /* file offset of its tensor info, for messages */
} gguf_tensor;

typedef struct gguf_info {
  uint32_t version;
  uint64_t n_kv;
  uint32_t alignment;
  uint64_t data_start; /* file offset of the data region */
  uint64_t file_size;
  char *arch, *name;   /* owned; NULL when absent */
  bool has_file_type, has_parameter_count;
  uint32_t file_type;  /* llama_ftype, see ggml_ftype_name() */
  uint64_t parameter_count;
  gguf_field f[GGUF_F_COUNT];
  gguf_tensor *tensors; /* owned */
  size_t n_tensors;
  uint64_t tensor_bytes, params; /* sums over the tensors */
  inventory inv; /* one entry per tensor, count 1, exact stored_bytes, file order */
} gguf_info;

/* Parse a GGUF file held whole in buf. Errors name the file as `name`
** ("buffer" in gguf_read_buffer). On failure err holds
** "NAME: offset N: what was expected". */
gguf_status gguf_read_buffer(const uint8_t *buf, size_t len, gguf_info *out,
                             char *err, size_t errlen);
gguf_status gguf_read_buffer_named(const char *name, const uint8_t *buf, size_t len,
                                   gguf_info *out, char *err, size_t errlen);
/* Read only as much of the file at path as its header needs (at most
** GGUF_HEADER_CAP), checking tensor data against the file's size. */
gguf_status gguf_read_file(const char *path, gguf_info *out, char *err, size_t errlen);
void gguf_info_free(gguf_info *info);

/* "block_count", "attention.head_count_kv", ...: the part after "<arch>." */
const char *gguf_field_key(gguf_field_id id);
/* Role of a tensor from its llama.cpp name ("blk.3.ffn_up_exps.weight": expert). */
inv_role gguf_tensor_role(const char *name);

#endif
