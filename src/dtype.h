/*
** dtype.h: the storage dtypes of weights, caches and activations.
** One table gives each dtype its canonical name, aliases and width in bits.
*/
#ifndef VF_DTYPE_H
#define VF_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum vf_dtype {
  DT_FP32 = 0,
  DT_FP16,
  DT_BF16,
  DT_FP8_E4M3,
  DT_FP8_E5M2,
  DT_INT8,
  DT_UINT8,
  DT_INT4,
  DT_FP64,
  DT_INT32,
  DT_INT64,
  DT_BOOL,
  DT_INT16,
  DT_UINT16,
  DT_UINT32,
  DT_UINT64,
  DT_FP8_E8M0,
  DT_FP4_E2M1,
  DT_FP6_E2M3,
  DT_FP6_E3M2,
  DT_COUNT
} vf_dtype;

typedef struct dtype_info {
  const char *name;    /* canonical: "bf16" */
  const char *aliases; /* space-separated: "bfloat16 torch.bfloat16 BF16" */
  unsigned bits;
} dtype_info;

const dtype_info *dtype_get(vf_dtype dt);
/* Case-insensitive lookup of a name or alias; false if unknown. */
bool dtype_parse(const char *name, vf_dtype *out);
/* Bytes for n elements, rounded up to whole bytes; false on overflow. */
bool dtype_bytes(vf_dtype dt, uint64_t n, uint64_t *out);
/* The canonical names joined by ", " for error messages, truncated to size. */
void dtype_names(char *buf, size_t size);

#endif
