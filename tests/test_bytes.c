/*
** test_bytes.c: checked 64-bit byte arithmetic (bytes.c): add and multiply at the
** overflow edge, alignment, ceiling division, muldiv through 128 bits, the sticky
** overflow flag of bytes_acc and the double -> count conversion.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "bytes.h"

#define P32 4294967296ull /* 2^32 */

static void test_add(void **state) {
  (void)state;
  uint64_t r = 7;
  assert_true(bytes_add(2, 3, &r));
  assert_int_equal(r, 5);
  assert_true(bytes_add(UINT64_MAX - 1, 1, &r));
  assert_int_equal(r, UINT64_MAX);
  assert_true(bytes_add(UINT64_MAX, 0, &r));
  assert_int_equal(r, UINT64_MAX);
  assert_false(bytes_add(UINT64_MAX, 1, &r));
  assert_false(bytes_add(1ull << 63, 1ull << 63, &r)); /* 2^64 */
  assert_false(bytes_add(UINT64_MAX, UINT64_MAX, &r));
}

static void test_mul(void **state) {
  (void)state;
  uint64_t r = 0;
  assert_true(bytes_mul(P32, P32 - 1, &r)); /* 2^64 - 2^32 */
  assert_int_equal(r, 18446744069414584320ull);
  assert_false(bytes_mul(P32, P32, &r)); /* 2^64 */
  assert_true(bytes_mul(UINT64_MAX, 1, &r));
  assert_int_equal(r, UINT64_MAX);
  assert_true(bytes_mul(UINT64_MAX, 0, &r));
  assert_int_equal(r, 0);
  assert_false(bytes_mul(UINT64_MAX, 2, &r));
  assert_false(bytes_mul(3, 6148914691236517206ull, &r)); /* (2^64 + 2) / 3 */
  assert_true(bytes_mul(3, 6148914691236517205ull, &r));  /* (2^64 - 1) / 3 */
  assert_int_equal(r, UINT64_MAX);
}

static void test_align(void **state) {
  (void)state;
  uint64_t r = 1;
  assert_true(bytes_align(0, 512, &r));
  assert_int_equal(r, 0);
  assert_true(bytes_align(1024, 512, &r)); /* exact multiple stays */
  assert_int_equal(r, 1024);
  assert_true(bytes_align(1025, 512, &r));
  assert_int_equal(r, 1536);
  assert_true(bytes_align(7, 1, &r));
  assert_int_equal(r, 7);
  /* the largest multiple of 512 fits; one past it cannot be rounded up */
  assert_true(bytes_align(UINT64_MAX - 511, 512, &r));
  assert_int_equal(r, UINT64_MAX - 511);
  assert_false(bytes_align(UINT64_MAX - 510, 512, &r));
  assert_false(bytes_align(UINT64_MAX, 512, &r));
}

static void test_ceildiv(void **state) {
  (void)state;
  assert_int_equal(bytes_ceildiv(0, 8), 0);
  assert_int_equal(bytes_ceildiv(1, 8), 1);
  assert_int_equal(bytes_ceildiv(8, 8), 1);
  assert_int_equal(bytes_ceildiv(9, 8), 2);
  assert_int_equal(bytes_ceildiv(16060522496ull, 3), 5353507499ull); /* 5353507498.67 */
  /* no a + b - 1 overflow at the top */
  assert_int_equal(bytes_ceildiv(UINT64_MAX, 2), 1ull << 63);
  assert_int_equal(bytes_ceildiv(UINT64_MAX, UINT64_MAX), 1);
  assert_int_equal(bytes_ceildiv(UINT64_MAX, 1), UINT64_MAX);
}

static void test_muldiv(void **state) {
  (void)state;
  uint64_t r = 0;
  /* 2^40 x 2^40 = 2^80 overflows, / 2^30 = 2^50 fits */
  assert_true(bytes_muldiv(1ull << 40, 1ull << 40, 1ull << 30, &r));
  assert_int_equal(r, 1ull << 50);
  /* (2^64 - 1) x 3 / 4: 55340232221128654845 / 4 = 13835058055282163711.25 */
  assert_true(bytes_muldiv(UINT64_MAX, 3, 4, &r));
  assert_int_equal(r, 13835058055282163711ull);
  assert_true(bytes_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX, &r));
  assert_int_equal(r, UINT64_MAX);
  assert_true(bytes_muldiv(10, 1, 3, &r)); /* truncates */
  assert_int_equal(r, 3);
  assert_false(bytes_muldiv(UINT64_MAX, 2, 1, &r));
  assert_false(bytes_muldiv(1ull << 40, 1ull << 40, 1ull << 15, &r)); /* 2^65 */
}

static void test_acc_sticky(void **state) {
  (void)state;
  bytes_acc acc = {0, false};
  assert_int_equal(acc_add(&acc, 40, 2), 42);
  assert_int_equal(acc_mul(&acc, 6, 7), 42);
  assert_int_equal(acc_mul3(&acc, 2, 3, 7), 42);
  assert_false(acc.overflow);
  acc_add(&acc, UINT64_MAX, 1);
  assert_true(acc.overflow);
  /* later steps that fit do not clear it */
  assert_int_equal(acc_add(&acc, 1, 1), 2);
  assert_int_equal(acc_mul(&acc, 2, 2), 4);
  assert_true(acc.overflow);

  bytes_acc m = {0, false};
  acc_mul(&m, P32, P32);
  assert_true(m.overflow);
  bytes_acc m3 = {0, false};
  acc_mul3(&m3, P32, P32 - 1, 2); /* the first product fits, the second does not */
  assert_true(m3.overflow);
  bytes_acc ok3 = {0, false};
  assert_int_equal(acc_mul3(&ok3, P32, P32 - 1, 1), 18446744069414584320ull);
  assert_false(ok3.overflow);
}

static void test_acc_from_double(void **state) {
  (void)state;
  bytes_acc acc = {0, false};
  assert_int_equal(acc_from_double(&acc, 2.5), 3); /* half rounds up */
  assert_int_equal(acc_from_double(&acc, 2.4), 2);
  assert_int_equal(acc_from_double(&acc, 0.0), 0);
  assert_int_equal(acc_from_double(&acc, 210035840.0), 210035840);
  /* 2^63 is exact in a double and below 2^64 */
  assert_int_equal(acc_from_double(&acc, 9223372036854775808.0), 1ull << 63);
  assert_false(acc.overflow);

  const double bad[] = {NAN, -1.0, 1.8446744073709552e19 /* 2^64 */, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bytes_acc b = {0, false};
    assert_int_equal(acc_from_double(&b, bad[i]), 0);
    assert_true(b.overflow);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add),
      cmocka_unit_test(test_mul),
      cmocka_unit_test(test_align),
      cmocka_unit_test(test_ceildiv),
      cmocka_unit_test(test_muldiv),
      cmocka_unit_test(test_acc_sticky),
      cmocka_unit_test(test_acc_from_double),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
