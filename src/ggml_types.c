/*
** ggml_types.c: the ggml tensor type and llama file type tables (see ggml_types.h).
** Block layouts are the static_asserts of ggml/src/ggml-common.h; ids are enum
** ggml_type in ggml.h (31-33 and 36-38 were repacked types, removed from GGUF).
** Uses bytes.c for checked arithmetic.
*/
#include "ggml_types.h"

#include <stddef.h>
#include <strings.h>

#include "bytes.h"

#define T(id, name, blk, size, dt) {id, name, blk, size, dt}

static const ggml_type_info types[] = {
    T(0, "F32", 1, 4, DT_FP32),
    T(1, "F16", 1, 2, DT_FP16),
    T(2, "Q4_0", 32, 18, DT_INT4),    /* half d + 16 B nibbles */
    T(3, "Q4_1", 32, 20, DT_INT4),    /* half d, m + 16 B */
    T(6, "Q5_0", 32, 22, DT_INT4),    /* half d + 4 B high bits + 16 B */
    T(7, "Q5_1", 32, 24, DT_INT4),
    T(8, "Q8_0", 32, 34, DT_INT8),    /* half d + 32 int8 */
    T(9, "Q8_1", 32, 36, DT_INT8),    /* half d, s + 32 int8 */
    T(10, "Q2_K", 256, 84, DT_INT4),
    T(11, "Q3_K", 256, 110, DT_INT4),
    T(12, "Q4_K", 256, 144, DT_INT4), /* half d, dmin + 12 B scales + 128 B */
    T(13, "Q5_K", 256, 176, DT_INT4),
    T(14, "Q6_K", 256, 210, DT_INT8), /* 6.56 bits: nearer int8 than int4 */
    T(15, "Q8_K", 256, 292, DT_INT8), /* float d + 256 int8 + 16 int16 sums */
    T(16, "IQ2_XXS", 256, 66, DT_INT4),
    T(17, "IQ2_XS", 256, 74, DT_INT4),
    T(18, "IQ3_XXS", 256, 98, DT_INT4),
    T(19, "IQ1_S", 256, 50, DT_INT4),
    T(20, "IQ4_NL", 32, 18, DT_INT4),
    T(21, "IQ3_S", 256, 110, DT_INT4),
    T(22, "IQ2_S", 256, 82, DT_INT4),
    T(23, "IQ4_XS", 256, 136, DT_INT4),
    T(24, "I8", 1, 1, DT_INT8),
    T(25, "I16", 1, 2, DT_INT16),
    T(26, "I32", 1, 4, DT_INT32),
    T(27, "I64", 1, 8, DT_INT64),
    T(28, "F64", 1, 8, DT_FP64),
    T(29, "IQ1_M", 256, 56, DT_INT4),
    T(30, "BF16", 1, 2, DT_BF16),
    T(34, "TQ1_0", 256, 54, DT_INT4),
    T(35, "TQ2_0", 256, 66, DT_INT4),
    T(39, "MXFP4", 32, 17, DT_FP4_E2M1), /* e8m0 scale + 16 B e2m1 nibbles */
    T(40, "NVFP4", 64, 36, DT_FP4_E2M1), /* 4 ue4m3 scales + 32 B nibbles */
    T(41, "Q1_0", 128, 18, DT_INT4),     /* half d + 16 B sign bits */
};

#define N_TYPES (sizeof types / sizeof types[0])

const ggml_type_info *ggml_type_get(uint32_t id) {
  for (size_t i = 0; i < N_TYPES; i++)
    if (types[i].id == id) return &types[i];
  return NULL;
}

const ggml_type_info *ggml_type_by_name(const char *name) {
  for (size_t i = 0; name && i < N_TYPES; i++)
    if (strcasecmp(types[i].name, name) == 0) return &types[i];
  return NULL;
}

ggml_row_status ggml_tensor_bytes(uint32_t id, const uint64_t *ne, int ndim,
                                  uint64_t *bytes, uint64_t *elements) {
  const ggml_type_info *ti = ggml_type_get(id);
  if (!ti) return GGML_ROW_UNKNOWN_TYPE;
  uint64_t n = 1, b = ti->type_size;
  for (int i = 0; i < ndim; i++)
    if (!bytes_mul(n, ne[i], &n)) return GGML_ROW_OVERFLOW;
  if (ndim > 0 && ne[0] % ti->block != 0) return GGML_ROW_NOT_MULTIPLE;
  /* bytes = ne0/block x type_size x ne1 x ...; 0-d tensors hold one element */
  uint64_t rows = ndim > 0 ? ne[0] / ti->block : 1;
  if (ndim == 0 && ti->block != 1) return GGML_ROW_NOT_MULTIPLE;
  if (!bytes_mul(b, rows, &b)) return GGML_ROW_OVERFLOW;
  for (int i = 1; i < ndim; i++)
    if (!bytes_mul(b, ne[i], &b)) return GGML_ROW_OVERFLOW;
  *bytes = b;
  if (elements) *elements = n;
  return GGML_ROW_OK;
}

typedef struct ftype_info {
  uint32_t id;
  const char *name;
} ftype_info;

/* enum llama_ftype in include/llama.h; 4-6 and 33-35 were removed. */
static const ftype_info ftypes[] = {
    {0, "ALL_F32"},         {1, "MOSTLY_F16"},      {2, "MOSTLY_Q4_0"},
    {3, "MOSTLY_Q4_1"},     {4, "MOSTLY_Q4_1_SOME_F16"},
    {7, "MOSTLY_Q8_0"},     {8, "MOSTLY_Q5_0"},     {9, "MOSTLY_Q5_1"},
    {10, "MOSTLY_Q2_K"},    {11, "MOSTLY_Q3_K_S"},  {12, "MOSTLY_Q3_K_M"},
    {13, "MOSTLY_Q3_K_L"},  {14, "MOSTLY_Q4_K_S"},  {15, "MOSTLY_Q4_K_M"},
    {16, "MOSTLY_Q5_K_S"},  {17, "MOSTLY_Q5_K_M"},  {18, "MOSTLY_Q6_K"},
    {19, "MOSTLY_IQ2_XXS"}, {20, "MOSTLY_IQ2_XS"},  {21, "MOSTLY_Q2_K_S"},
    {22, "MOSTLY_IQ3_XS"},  {23, "MOSTLY_IQ3_XXS"}, {24, "MOSTLY_IQ1_S"},
    {25, "MOSTLY_IQ4_NL"},  {26, "MOSTLY_IQ3_S"},   {27, "MOSTLY_IQ3_M"},
    {28, "MOSTLY_IQ2_S"},   {29, "MOSTLY_IQ2_M"},   {30, "MOSTLY_IQ4_XS"},
    {31, "MOSTLY_IQ1_M"},   {32, "MOSTLY_BF16"},    {36, "MOSTLY_TQ1_0"},
    {37, "MOSTLY_TQ2_0"},   {38, "MOSTLY_MXFP4_MOE"}, {39, "MOSTLY_NVFP4"},
    {40, "MOSTLY_Q1_0"},    {1024, "GUESSED"},
};

#define N_FTYPES (sizeof ftypes / sizeof ftypes[0])

const char *ggml_ftype_name(uint32_t ftype) {
  for (size_t i = 0; i < N_FTYPES; i++)
    if (ftypes[i].id == ftype) return ftypes[i].name;
  return NULL;
}

const char *ggml_ftype_short(uint32_t ftype) {
  const char *n = ggml_ftype_name(ftype);
  if (!n) return NULL;
  if (ftype == 0) return "F32";
  return n[0] == 'M' ? n + 7 : n; /* skip "MOSTLY_" */
}
