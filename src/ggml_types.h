/*
** ggml_types.h: llama.cpp's tensor types (enum ggml_type) with their block layout,
** and its model file types (enum llama_ftype, the GGUF `general.file_type` values).
** Ids and block sizes follow ggml/include/ggml.h and the block structs of
** ggml/src/ggml-common.h; a tensor's bytes are whole blocks per row.
*/
#ifndef VF_GGML_TYPES_H
#define VF_GGML_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"

enum {
  GGML_T_F32 = 0, GGML_T_F16 = 1, GGML_T_Q4_0 = 2, GGML_T_Q4_1 = 3,
  GGML_T_Q5_0 = 6, GGML_T_Q5_1 = 7, GGML_T_Q8_0 = 8, GGML_T_Q8_1 = 9,
  GGML_T_Q2_K = 10, GGML_T_Q3_K = 11, GGML_T_Q4_K = 12, GGML_T_Q5_K = 13,
  GGML_T_Q6_K = 14, GGML_T_Q8_K = 15, GGML_T_IQ4_XS = 23, GGML_T_BF16 = 30, GGML_T_MXFP4 = 39
};

typedef struct ggml_type_info {
  uint32_t id;        /* enum ggml_type value stored in GGUF tensor infos */
  const char *name;   /* ggml_type_name(): "q4_K" is spelled "Q4_K" here */
  uint32_t block;     /* elements per block (ggml_blck_size) */
  uint32_t type_size; /* bytes per block (ggml_type_size) */
  vf_dtype dtype;     /* nearest vramfit dtype, for reporting */
} ggml_type_info;

/* NULL if id is not a ggml type that GGUF files may hold. */
const ggml_type_info *ggml_type_get(uint32_t id);
/* Case-insensitive lookup by name ("q4_k", "Q8_0"); NULL if unknown. */
const ggml_type_info *ggml_type_by_name(const char *name);

typedef enum ggml_row_status {
  GGML_ROW_OK = 0,
  GGML_ROW_UNKNOWN_TYPE,
  GGML_ROW_NOT_MULTIPLE, /* ne[0] is not a multiple of the block size */
  GGML_ROW_OVERFLOW,     /* elements or bytes do not fit 64 bits */
} ggml_row_status;

/* Bytes of a tensor of type `id` with dims ne[0..ndim): ne[0]/block x type_size x
** the other dims. The element count goes to *elements when it is not NULL. */
ggml_row_status ggml_tensor_bytes(uint32_t id, const uint64_t *ne, int ndim,
                                  uint64_t *bytes, uint64_t *elements);

/* llama_ftype name without the LLAMA_FTYPE_ prefix ("MOSTLY_Q4_K_M"), and the
** short name llama-quantize uses ("Q4_K_M"); NULL if unknown. */
const char *ggml_ftype_name(uint32_t ftype);
const char *ggml_ftype_short(uint32_t ftype);

#endif
