/*
** test_dtype.c: the dtype table (dtype.c): canonical names and aliases from torch,
** safetensors and GGUF spellings, caseless lookup, widths, byte counts rounded up
** for sub-byte types, overflow, and the name list used in error messages.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "dtype.h"

typedef struct alias_case {
  const char *name;
  vf_dtype dt;
} alias_case;

static void test_parse(void **state) {
  (void)state;
  static const alias_case cases[] = {
      {"bf16", DT_BF16},        {"bfloat16", DT_BF16},     {"torch.bfloat16", DT_BF16},
      {"BF16", DT_BF16},        {"fp16", DT_FP16},         {"torch.float16", DT_FP16},
      {"half", DT_FP16},        {"F16", DT_FP16},          {"fp32", DT_FP32},
      {"float32", DT_FP32},     {"F32", DT_FP32},          {"float", DT_FP32},
      {"fp8", DT_FP8_E4M3},     {"F8_E4M3", DT_FP8_E4M3},  {"float8_e4m3fn", DT_FP8_E4M3},
      {"F8_E5M2", DT_FP8_E5M2}, {"fp8_e5m2", DT_FP8_E5M2}, {"I8", DT_INT8},
      {"U8", DT_UINT8},         {"int4", DT_INT4},         {"q4", DT_INT4},
      {"F64", DT_FP64},         {"I64", DT_INT64},         {"BOOL", DT_BOOL},
      {"F8_E8M0", DT_FP8_E8M0}, {"fp4", DT_FP4_E2M1},      {"float4_e2m1fn_x2", DT_FP4_E2M1},
      {"F6_E2M3", DT_FP6_E2M3}, {"fp6_e3m2", DT_FP6_E3M2}, {"torch.uint16", DT_UINT16},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    vf_dtype dt = DT_COUNT;
    if (!dtype_parse(cases[i].name, &dt)) fail_msg("'%s' not recognized", cases[i].name);
    if (dt != cases[i].dt) fail_msg("'%s' -> %d, expected %d", cases[i].name, (int)dt, (int)cases[i].dt);
  }
}

static void test_parse_unknown(void **state) {
  (void)state;
  vf_dtype dt = DT_INT16;
  static const char *const bad[] = {"",         "bf",   "bfloat", "float8", "torch.bf16",
                                    "fp8 e4m3", "int3", "fp16 ",  "f"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (dtype_parse(bad[i], &dt)) fail_msg("'%s' should be unknown", bad[i]);
  assert_false(dtype_parse(NULL, &dt));
  assert_int_equal(dt, DT_INT16); /* untouched */
}

static void test_table(void **state) {
  (void)state;
  static const unsigned bits[DT_COUNT] = {
      [DT_FP32] = 32,   [DT_FP16] = 16,    [DT_BF16] = 16,    [DT_FP8_E4M3] = 8, [DT_FP8_E5M2] = 8,
      [DT_INT8] = 8,    [DT_UINT8] = 8,    [DT_INT4] = 4,     [DT_FP64] = 64,    [DT_INT32] = 32,
      [DT_INT64] = 64,  [DT_BOOL] = 8,     [DT_INT16] = 16,   [DT_UINT16] = 16,  [DT_UINT32] = 32,
      [DT_UINT64] = 64, [DT_FP8_E8M0] = 8, [DT_FP4_E2M1] = 4, [DT_FP6_E2M3] = 6, [DT_FP6_E3M2] = 6,
  };
  for (int i = 0; i < DT_COUNT; i++) {
    const dtype_info *d = dtype_get((vf_dtype)i);
    assert_non_null(d);
    assert_int_equal(d->bits, bits[i]);
    vf_dtype back = DT_COUNT; /* every canonical name parses back to its own entry */
    assert_true(dtype_parse(d->name, &back));
    assert_int_equal(back, i);
  }
  assert_string_equal(dtype_get(DT_BF16)->name, "bf16");
  assert_string_equal(dtype_get(DT_FP8_E4M3)->name, "fp8");
  assert_null(dtype_get(DT_COUNT));
  assert_null(dtype_get((vf_dtype)-1));
}

static void test_bytes(void **state) {
  (void)state;
  uint64_t b = 0;
  assert_true(dtype_bytes(DT_BF16, 8030261248ull, &b));
  assert_int_equal(b, 16060522496ull);
  assert_true(dtype_bytes(DT_INT4, 7, &b)); /* 28 bits -> 4 bytes */
  assert_int_equal(b, 4);
  assert_true(dtype_bytes(DT_INT4, 8, &b));
  assert_int_equal(b, 4);
  assert_true(dtype_bytes(DT_INT4, 1, &b));
  assert_int_equal(b, 1);
  assert_true(dtype_bytes(DT_FP6_E2M3, 5, &b)); /* 30 bits -> 4 bytes */
  assert_int_equal(b, 4);
  assert_true(dtype_bytes(DT_FP32, 0, &b));
  assert_int_equal(b, 0);
  assert_true(dtype_bytes(DT_FP32, (1ull << 59) - 1, &b)); /* 2^61 - 4 bytes */
  assert_int_equal(b, (1ull << 61) - 4);
  assert_false(dtype_bytes(DT_FP32, 1ull << 62, &b)); /* 2^64 bytes */
  assert_false(dtype_bytes(DT_FP32, UINT64_MAX, &b));
  assert_false(dtype_bytes(DT_FP64, 1ull << 61, &b));
}

/* A count whose byte total fits in 64 bits must not be reported as overflowing just
** because the intermediate bit count (n x bits) does not. */
static void test_bytes_fit_although_bits_do_not(void **state) {
  (void)state;
  uint64_t b = 0;
  assert_true(dtype_bytes(DT_FP32, 1ull << 59, &b)); /* 2^61 bytes; 2^64 bits */
  assert_int_equal(b, 1ull << 61);
  assert_true(dtype_bytes(DT_FP32, 1ull << 61, &b)); /* 2^63 bytes; 2^66 bits */
  assert_int_equal(b, 1ull << 63);
  assert_true(dtype_bytes(DT_UINT8, UINT64_MAX, &b)); /* one byte each */
  assert_int_equal(b, UINT64_MAX);
  assert_true(dtype_bytes(DT_INT4, UINT64_MAX, &b)); /* ceil((2^64 - 1) / 2) */
  assert_int_equal(b, 1ull << 63);
}

static void test_names(void **state) {
  (void)state;
  char buf[256];
  dtype_names(buf, sizeof buf);
  assert_string_equal(buf,
                      "fp32, fp16, bf16, fp8, fp8_e5m2, int8, uint8, int4, fp64, int32, int64, "
                      "bool, int16, uint16, uint32, uint64, fp8_e8m0, fp4, fp6_e2m3, fp6_e3m2");
  char small[12];
  dtype_names(small, sizeof small);
  assert_string_equal(small, "fp32, fp16,"); /* truncated, terminated */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse),
      cmocka_unit_test(test_parse_unknown),
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_bytes),
      cmocka_unit_test(test_bytes_fit_although_bits_do_not),
      cmocka_unit_test(test_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
