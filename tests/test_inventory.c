/*
** test_inventory.c: repeated tensor groups (inventory.c): Llama-3.1-8B as 12 groups
** with exact parameter, byte and per-role totals, stored_bytes overriding the dtype,
** what inv_add rejects, and overflow reported as false rather than wrapped.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "inventory.h"
#include "testutil.h"

static void test_llama8b_totals(void **state) {
  (void)state;
  inventory inv;
  inv_init(&inv);
  assert_true(tu_llama8b_inventory(&inv, DT_BF16));
  assert_int_equal(inv.n, 12);
  uint64_t v = 0;
  /* per layer: q 16,777,216 + k 4,194,304 + v 4,194,304 + o 16,777,216
  ** + gate/up/down 3 x 58,720,256 + 2 norms x 4,096 = 218,112,000; x 32 layers
  ** = 6,979,584,000; + embed and lm_head 2 x 525,336,576 + final norm 4,096 */
  assert_true(inv_params(&inv, &v));
  assert_int_equal(v, 8030261248ull);
  assert_true(inv_bytes(&inv, &v));
  assert_int_equal(v, 16060522496ull);
  assert_true(inv_params_role(&inv, ROLE_EMBED, &v));
  assert_int_equal(v, 525336576ull); /* 128256 x 4096 */
  assert_true(inv_params_role(&inv, ROLE_LM_HEAD, &v));
  assert_int_equal(v, 525336576ull);
  assert_true(inv_params_role(&inv, ROLE_ATTN, &v));
  assert_int_equal(v, 1342177280ull); /* 41,943,040 x 32 */
  assert_true(inv_params_role(&inv, ROLE_MLP, &v));
  assert_int_equal(v, 5637144576ull); /* 176,160,768 x 32 */
  assert_true(inv_params_role(&inv, ROLE_NORM, &v));
  assert_int_equal(v, 266240); /* 2 x 4096 x 32 + 4096 */
  assert_true(inv_params_role(&inv, ROLE_EXPERT, &v));
  assert_int_equal(v, 0);
  assert_true(inv_params_role(&inv, ROLE_COUNT, &v));
  assert_int_equal(v, 8030261248ull);

  /* one group: the k projection, 1024 x 4096 x 32 layers */
  const inv_tensor *k = &inv.t[2];
  assert_string_equal(k->name, "model.layers.*.self_attn.k_proj.weight");
  assert_true(inv_tensor_elements(k, &v));
  assert_int_equal(v, 4194304);
  assert_true(inv_tensor_bytes(k, &v));
  assert_int_equal(v, 268435456ull); /* 4,194,304 x 2 B x 32 */

  inv_set_dtype(&inv, DT_FP32);
  assert_true(inv_bytes(&inv, &v));
  assert_int_equal(v, 32121044992ull);
  inv_set_dtype(&inv, DT_INT4);
  assert_true(inv_bytes(&inv, &v));
  assert_int_equal(v, 4015130624ull); /* every group has an even element count */
  inv_free(&inv);
  assert_int_equal(inv.n, 0);
  assert_null(inv.t);
}

static void test_stored_bytes(void **state) {
  (void)state;
  inventory inv;
  inv_init(&inv);
  const uint64_t shape[2] = {4096, 4096};
  assert_true(inv_add(&inv, "model.layers.*.mlp.gate_proj.qweight", shape, 2, 32, ROLE_MLP, DT_INT4));
  uint64_t v = 0;
  assert_true(inv_bytes(&inv, &v));
  assert_int_equal(v, 268435456ull); /* 16,777,216 x 4 bits / 8 x 32 */
  inv.t[0].stored_bytes = 8400000;   /* as read from a file: packed plus scales */
  assert_true(inv_bytes(&inv, &v));
  assert_int_equal(v, 268800000ull); /* 8,400,000 x 32 */
  assert_true(inv_params(&inv, &v)); /* parameters still from the shape */
  assert_int_equal(v, 536870912ull);
  inv_free(&inv);
}

static void test_add_rejects(void **state) {
  (void)state;
  inventory inv;
  inv_init(&inv);
  const uint64_t zero_dim[2] = {4096, 0};
  const uint64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  const uint64_t ok[2] = {2, 3};
  assert_false(inv_add(&inv, "z", zero_dim, 2, 1, ROLE_OTHER, DT_BF16));
  assert_false(inv_add(&inv, "nine", nine, 9, 1, ROLE_OTHER, DT_BF16));
  assert_false(inv_add(&inv, "neg", ok, -1, 1, ROLE_OTHER, DT_BF16));
  assert_false(inv_add(&inv, "nocount", ok, 2, 0, ROLE_OTHER, DT_BF16));
  assert_int_equal(inv.n, 0);
  /* a scalar (ndim 0, a quantization scale) is one element; 8 dimensions is the most */
  assert_true(inv_add(&inv, "scale", ok, 0, 1, ROLE_OTHER, DT_FP32));
  assert_true(inv_add(&inv, "eight", nine, 8, 3, ROLE_OTHER, DT_BF16));
  assert_int_equal(inv.n, 2);
  uint64_t v = 0;
  assert_true(inv_tensor_elements(&inv.t[0], &v));
  assert_int_equal(v, 1);
  assert_true(inv_params(&inv, &v));
  assert_int_equal(v, 4); /* 1 + 1 x 3 */
  assert_true(inv_bytes(&inv, &v));
  assert_int_equal(v, 10); /* 4 + 2 x 3 */
  inv_free(&inv);
}

static void test_overflow(void **state) {
  (void)state;
  inventory inv;
  inv_init(&inv);
  const uint64_t big[2] = {1ull << 32, 1ull << 32}; /* 2^64 elements */
  assert_true(inv_add(&inv, "huge", big, 2, 1, ROLE_OTHER, DT_BF16));
  uint64_t v = 77;
  assert_false(inv_tensor_elements(&inv.t[0], &v));
  assert_false(inv_params(&inv, &v));
  assert_false(inv_bytes(&inv, &v));
  assert_false(inv_params_role(&inv, ROLE_OTHER, &v));
  assert_true(inv_params_role(&inv, ROLE_ATTN, &v)); /* that group is not summed */
  assert_int_equal(v, 0);
  inv_free(&inv);

  /* the elements fit; times count they do not */
  inv_init(&inv);
  const uint64_t half[2] = {1ull << 32, (1ull << 31)}; /* 2^63 */
  assert_true(inv_add(&inv, "x", half, 2, 2, ROLE_OTHER, DT_UINT8));
  assert_true(inv_tensor_elements(&inv.t[0], &v));
  assert_int_equal(v, 1ull << 63);
  assert_false(inv_params(&inv, &v));
  assert_false(inv_tensor_bytes(&inv.t[0], &v));
  inv_free(&inv);

  /* two groups each fitting, their sum not */
  inv_init(&inv);
  const uint64_t a[1] = {1ull << 63};
  assert_true(inv_add(&inv, "a", a, 1, 1, ROLE_OTHER, DT_BOOL));
  assert_true(inv_add(&inv, "b", a, 1, 1, ROLE_OTHER, DT_BOOL));
  assert_false(inv_params(&inv, &v));
  inv_free(&inv);
}

static void test_roles(void **state) {
  (void)state;
  static const char *const names[ROLE_COUNT] = {"other",  "embed",         "pos_embed", "attn", "mlp",
                                                "expert", "shared_expert", "router",    "norm", "lm_head"};
  for (int i = 0; i < ROLE_COUNT; i++) {
    inv_role r = ROLE_COUNT;
    assert_string_equal(inv_role_name((inv_role)i), names[i]);
    assert_true(inv_role_parse(names[i], &r));
    assert_int_equal(r, i);
  }
  inv_role r = ROLE_NORM;
  assert_false(inv_role_parse("Attn", &r)); /* exact spelling */
  assert_false(inv_role_parse("", &r));
  assert_int_equal(r, ROLE_NORM);
  assert_string_equal(inv_role_name(ROLE_COUNT), "other");
}

static void test_many_groups(void **state) {
  (void)state;
  inventory inv;
  inv_init(&inv);
  char name[32];
  for (int i = 0; i < 100; i++) { /* past the first two growths (32, 64) */
    const uint64_t shape[1] = {(uint64_t)i + 1};
    snprintf(name, sizeof name, "t%d", i);
    assert_true(inv_add(&inv, name, shape, 1, 1, ROLE_OTHER, DT_INT8));
  }
  uint64_t v = 0;
  assert_true(inv_params(&inv, &v));
  assert_int_equal(v, 5050);
  assert_string_equal(inv.t[99].name, "t99");
  inv_free(&inv);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_llama8b_totals), cmocka_unit_test(test_stored_bytes),
      cmocka_unit_test(test_add_rejects),    cmocka_unit_test(test_overflow),
      cmocka_unit_test(test_roles),          cmocka_unit_test(test_many_groups),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
