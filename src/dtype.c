/*
** dtype.c: the dtype table (see dtype.h).
*/
#include "dtype.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bytes.h"

static const dtype_info table[DT_COUNT] = {
    [DT_FP32] = {"fp32", "float32 float f32 torch.float32 float", 32},
    [DT_FP16] = {"fp16", "float16 half f16 torch.float16", 16},
    [DT_BF16] = {"bf16", "bfloat16 torch.bfloat16", 16},
    [DT_FP8_E4M3] = {"fp8", "fp8_e4m3 float8_e4m3fn e4m3 f8_e4m3", 8},
    [DT_FP8_E5M2] = {"fp8_e5m2", "float8_e5m2 e5m2 f8_e5m2", 8},
    [DT_INT8] = {"int8", "i8 q8", 8},
    [DT_UINT8] = {"uint8", "u8", 8},
    [DT_INT4] = {"int4", "i4 q4", 4},
    [DT_FP64] = {"fp64", "float64 double f64", 64},
    [DT_INT32] = {"int32", "i32", 32},
    [DT_INT64] = {"int64", "i64", 64},
    [DT_BOOL] = {"bool", "", 8},
    [DT_INT16] = {"int16", "i16 short torch.int16", 16},
    [DT_UINT16] = {"uint16", "u16 torch.uint16", 16},
    [DT_UINT32] = {"uint32", "u32 torch.uint32", 32},
    [DT_UINT64] = {"uint64", "u64 torch.uint64", 64},
    [DT_FP8_E8M0] = {"fp8_e8m0", "float8_e8m0fnu e8m0 f8_e8m0", 8},
    [DT_FP4_E2M1] = {"fp4", "fp4_e2m1 float4_e2m1fn_x2 e2m1 f4", 4},
    [DT_FP6_E2M3] = {"fp6_e2m3", "float6_e2m3fn f6_e2m3", 6},
    [DT_FP6_E3M2] = {"fp6_e3m2", "float6_e3m2fn f6_e3m2", 6},
};

const dtype_info *dtype_get(vf_dtype dt) {
  return (unsigned)dt < DT_COUNT ? &table[dt] : NULL;
}

/* true if word (len n) is one of the space-separated words of list */
static bool in_list(const char *list, const char *word, size_t n) {
  const char *p = list;
  while (*p) {
    size_t len = strcspn(p, " ");
    if (len == n && strncasecmp(p, word, n) == 0) return true;
    p += len;
    while (*p == ' ') p++;
  }
  return false;
}

bool dtype_parse(const char *name, vf_dtype *out) {
  if (!name) return false;
  size_t n = strlen(name);
  for (int i = 0; i < DT_COUNT; i++) {
    if (strcasecmp(table[i].name, name) == 0 || in_list(table[i].aliases, name, n)) {
      *out = (vf_dtype)i;
      return true;
    }
  }
  return false;
}

bool dtype_bytes(vf_dtype dt, uint64_t n, uint64_t *out) {
  uint64_t bits = table[dt].bits, whole;
  /* ceil(n * bits / 8) as (n / 8) * bits + ceil((n % 8) * bits / 8): checked, and the
  ** bit count itself may exceed 2^64 where the byte count does not */
  if (!bytes_mul(n / 8, bits, &whole)) return false;
  return bytes_add(whole, bytes_ceildiv(n % 8 * bits, 8), out);
}

void dtype_names(char *buf, size_t size) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < DT_COUNT && o < size; i++) {
    int n = snprintf(buf + o, size - o, "%s%s", i ? ", " : "", table[i].name);
    if (n < 0) break;
    o += (size_t)n;
  }
}
