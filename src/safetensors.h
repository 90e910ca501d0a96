/*
** safetensors.h: reader of safetensors headers: one file, a sharded model
** (model.safetensors.index.json) or a folder of files, with the quantization
** packing of GPTQ/AWQ/bitsandbytes checkpoints told apart from plain weights.
** Ownership: st_model owns its tensors, names and files; free it with
** st_model_free (also after a failed read; freeing a zeroed model is a no-op).
*/
#ifndef VF_SAFETENSORS_H
#define VF_SAFETENSORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inventory.h"

#define ST_HEADER_CAP (100u << 20) /* largest JSON header accepted */
#define ST_MAX_DIMS INV_MAX_DIMS

typedef enum st_status { ST_OK = 0, ST_ERR_IO, ST_ERR_FORMAT, ST_ERR_NOMEM } st_status;

enum {
  ST_FLAG_PACKED = 1,    /* int32 words holding several low-bit values (qweight) */
  ST_FLAG_QUANT_AUX = 2, /* scales, zero points, g_idx, absmax: not parameters */
};

typedef struct st_tensor {
  char *name;            /* owned */
  char dtype[12];        /* as stored: "BF16", "I32", "F8_E4M3" */
  vf_dtype vdtype;       /* logical dtype (int4 for a 4-bit qweight) */
  int ndim;
  uint64_t shape[ST_MAX_DIMS];
  uint64_t bytes;        /* exact stored bytes */
  uint64_t elements;     /* logical elements: packed values unpacked */
  unsigned flags;
  size_t file;           /* index into st_model.files */
} st_tensor;

typedef struct st_quant {
  bool present;
  char method[24];       /* quantization_config.quant_method, "" if none */
  unsigned bits, group_size;
  bool bits_assumed;     /* no bits in the config: 4 assumed */
} st_quant;

typedef struct st_model {
  st_tensor *t;
  size_t n, cap;
  char **files;          /* owned: paths of the files read */
  size_t n_files;
  st_quant quant;
  char note[256];        /* what was assumed, "" if nothing */
  uint64_t params, bytes;          /* parameters and bytes, quant aux excluded */
  uint64_t aux_params, aux_bytes;  /* the QUANT_AUX tensors */
} st_model;

/* The file at path; a sibling config.json supplies quantization_config. */
st_status st_read_file(const char *path, st_model *m, char *err, size_t errlen);
/* A model directory: model.safetensors.index.json if present, else every
** *.safetensors file in it (sorted), with DIR/config.json if present. */
st_status st_read_dir(const char *dir, st_model *m, char *err, size_t errlen);
/* An index file: each shard named by weight_map read once. */
st_status st_read_index(const char *index_path, st_model *m, char *err, size_t errlen);
/* A whole file in memory, named `name` in messages; config_json may be NULL. */
st_status st_read_buffer(const char *name, const uint8_t *buf, size_t len,
                         const char *config_json, st_model *m, char *err, size_t errlen);
void st_model_free(st_model *m);

#endif
