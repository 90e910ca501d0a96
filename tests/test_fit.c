/*
** test_fit.c: verdicts per GPU (fit.c) for Llama-3.1-8B built in C (testutil.h): fits
** and used fraction, the smallest tensor-parallel or sharded data-parallel count,
** and the bisected limits (concurrency, context, micro-batch, sequence length)
** checked against estimate_run on both sides of each limit.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "estimate.h"
#include "fit.h"
#include "testutil.h"

#define GIB80 85899345920ull /* 80 x 2^30 */
#define GIB40 42949672960ull
#define GIB16 17179869184ull

typedef tu_fixture fixture;

static int setup(void **state) {
  if (tu_fixture_setup(state) != 0) return -1;
  ((fixture *)*state)->s.fragmentation = 0.25;
  return 0;
}

static void fit_ok(fixture *f, const gpu *g) {
  f->err[0] = '\0';
  if (fit_gpu(&f->m, &f->s, g, &f->row, f->err, sizeof f->err) != 0) fail_msg("fit: %s", f->err);
}

/* estimate total of the scenario with one field changed; UINT64_MAX on error */
static uint64_t total_with(fixture *f, uint64_t *field, uint64_t v) {
  uint64_t saved = *field;
  *field = v;
  int rc = estimate_run(&f->m, &f->s, &f->e, f->err, sizeof f->err);
  *field = saved;
  return rc == 0 ? f->e.total : UINT64_MAX;
}

/* v is the largest value of *field that fits in usable: v fits (or is 0), v + 1 not */
static void check_limit(fixture *f, uint64_t *field, uint64_t v, uint64_t usable) {
  if (v > 0) assert_true(total_with(f, field, v) <= usable);
  assert_true(total_with(f, field, v + 1) > usable);
}

static void test_device_scenario(void **state) {
  fixture *f = *state;
  gpu hopper = tu_gpu("H100-SXM-80GB", GIB80, "hopper");
  gpu volta = tu_gpu("V100-SXM2-32GB", 32 * TU_GIB, "volta");
  scenario out;
  f->s.cuda_context = 0;
  f->s.workspace = 0;
  fit_device_scenario(&f->s, &hopper, &out);
  assert_int_equal(out.cuda_context, 500 * TU_MIB);
  assert_int_equal(out.workspace, 32 * TU_MIB); /* 8 x 4 MiB */
  fit_device_scenario(&f->s, &volta, &out);
  assert_int_equal(out.cuda_context, 1343 * TU_MIB);
  assert_int_equal(out.workspace, 8519680); /* 2 x 4 MiB + 8 x 16 KiB */
  f->s.cuda_context = 123;
  f->s.workspace = 456;
  fit_device_scenario(&f->s, &volta, &out); /* set by the scenario: kept */
  assert_int_equal(out.cuda_context, 123);
  assert_int_equal(out.workspace, 456);
  assert_int_equal(out.context, 8192);
}

static void test_inference_80gib(void **state) {
  fixture *f = *state;
  gpu g = tu_gpu("GPU-80GiB", GIB80, "hopper");
  fit_ok(f, &g);
  assert_string_equal(f->row.g.name, "GPU-80GiB");
  assert_int_equal(f->row.usable, GIB80); /* no headroom */
  assert_true(f->row.fits);
  assert_int_equal(f->row.count, 1);
  assert_string_equal(f->row.layout, "tp=1");
  assert_int_equal(f->row.total, 18876503680ull); /* as in test_estimate.c */
  assert_true(f->row.used_fraction == 18876503680.0 / 85899345920.0);
  /* each sequence adds KV 1,073,741,824 + activations 838,860,800 + logits 1,282,560
  ** + 25% slack on the last two 210,035,840 = 2,123,921,024 to a fixed
  ** 16,752,582,656 (weights with their allocator share, workspace, context): floor(69,146,763,264 / 2,123,921,024) */
  assert_int_equal(f->row.max_concurrency, 32);
  check_limit(f, &f->s.concurrency, f->row.max_concurrency, f->row.usable);
  /* 259,072 B per token (KV 131,072 + activations 102,400 + slack 25,600) would allow
  ** 266,895 tokens; the model's 131,072 positions cap it */
  assert_int_equal(f->row.max_context, 131072);
  assert_int_equal(f->row.max_micro_batch, 0);
  assert_int_equal(f->row.max_seq_len, 0);
}

static void test_max_context_uncapped(void **state) {
  fixture *f = *state;
  f->m.max_position = 0; /* unknown: searched up to 2^30 */
  gpu g = tu_gpu("GPU-80GiB", GIB80, "hopper");
  fit_ok(f, &g);
  /* floor((85,899,345,920 - 16,754,185,856) / 259,072): the fixed part includes one
  ** sequence's logits and their slack, 1,282,560 + 320,640 */
  assert_int_equal(f->row.max_context, 266895);
  check_limit(f, &f->s.context, f->row.max_context, f->row.usable);
}

static void test_headroom(void **state) {
  fixture *f = *state;
  f->s.headroom = 0.5;
  gpu g = tu_gpu("GPU-80GiB", GIB80, "hopper");
  fit_ok(f, &g);
  assert_int_equal(f->row.usable, GIB40);
  /* floor((42,949,672,960 - 16,752,582,656) / 2,123,921,024) = 12.33 */
  assert_int_equal(f->row.max_concurrency, 12);
  check_limit(f, &f->s.concurrency, f->row.max_concurrency, f->row.usable);
  assert_true(f->row.used_fraction == 18876503680.0 / 85899345920.0); /* of the memory */
}

static void test_inference_16gib_needs_tp2(void **state) {
  fixture *f = *state;
  gpu g = tu_gpu("GPU-16GiB", GIB16, "ada");
  fit_ok(f, &g);
  /* 18,876,503,680 at tp=1 > 17,179,869,184; 9,737,115,264 at tp=2 */
  assert_false(f->row.fits);
  assert_int_equal(f->row.count, 2);
  assert_string_equal(f->row.layout, "tp=2");
  assert_int_equal(f->row.total, 18876503680ull);
  assert_true(f->row.used_fraction == 18876503680.0 / 17179869184.0);
  assert_true(f->row.used_fraction > 1.0);
  /* at the scenario's own tp=1 not one sequence of 8192 tokens fits ... */
  assert_int_equal(f->row.max_concurrency, 0);
  check_limit(f, &f->s.concurrency, 0, f->row.usable);
  /* ... but floor((17,179,869,184 - 16,754,185,856) / 259,072) tokens do */
  assert_int_equal(f->row.max_context, 1643);
  check_limit(f, &f->s.context, f->row.max_context, f->row.usable);
}

static void test_inference_pp_count(void **state) {
  fixture *f = *state;
  f->s.pp = 2;
  gpu g = tu_gpu("GPU-16GiB", GIB16, "ada");
  fit_ok(f, &g);
  assert_true(f->row.fits);          /* the heavier stage holds 8,030,265,344 B of weights */
  assert_int_equal(f->row.count, 2); /* tp=1 x pp=2 */
  assert_string_equal(f->row.layout, "tp=1 pp=2"); /* the label names both splits */
}

static void test_nothing_fits(void **state) {
  fixture *f = *state;
  gpu g = tu_gpu("GPU-256MiB", 256 * TU_MIB, "ampere");
  fit_ok(f, &g); /* the 500 MiB context alone exceeds it at any tp */
  assert_false(f->row.fits);
  assert_int_equal(f->row.count, 0);
  assert_string_equal(f->row.layout, "");
  assert_int_equal(f->row.max_concurrency, 0);
  assert_int_equal(f->row.max_context, 0);
}

static void test_estimate_error(void **state) {
  fixture *f = *state;
  strcpy(f->s.name, "absurd");
  f->s.context = 1ull << 40;
  f->s.concurrency = 1ull << 24;
  gpu g = tu_gpu("GPU-80GiB", GIB80, "hopper");
  assert_int_equal(fit_gpu(&f->m, &f->s, &g, &f->row, f->err, sizeof f->err), -1);
  assert_string_equal(f->err,
                      "scenario 'absurd': a byte figure overflows 64 bits "
                      "(context 1099511627776, concurrency 16777216)");
}

static void test_training_unsharded(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  gpu g80 = tu_gpu("GPU-80GiB", GIB80, "hopper");
  fit_ok(f, &g80);
  assert_true(f->row.fits); /* 10P + 532 MiB + the k / v projections' 128 MiB of segment shares = 80,994,672,640 */
  assert_int_equal(f->row.total, 80994672640ull);
  assert_int_equal(f->row.count, 1);
  assert_string_equal(f->row.layout, "as given");
  /* the forward grows by 2048 x (32 x 168,072 + 128,256 x 14) = 14,692,122,624 per
  ** sample on 6P + 532 MiB + 128 MiB = 48,873,627,648: 2 samples (78,257,872,896) fit, 3 not */
  assert_int_equal(f->row.max_micro_batch, 2);
  check_limit(f, &f->s.micro_batch, f->row.max_micro_batch, f->row.usable);
  /* 7,173,888 B per token: floor((37,159,936,000 - 134,217,728) / 7,173,888) */
  assert_int_equal(f->row.max_seq_len, 5161);
  check_limit(f, &f->s.seq_len, f->row.max_seq_len, f->row.usable);
  assert_int_equal(f->row.max_concurrency, 0);
  assert_int_equal(f->row.max_context, 0);

  gpu g40 = tu_gpu("GPU-40GiB", GIB40, "ampere");
  fit_ok(f, &g40);
  assert_false(f->row.fits);
  assert_int_equal(f->row.count, 0);
  assert_string_equal(f->row.layout, "needs a sharded strategy");
}

static void test_training_zero3_count(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  f->s.strategy = STRAT_ZERO3;
  gpu g = tu_gpu("GPU-40GiB", GIB40, "ampere");
  fit_ok(f, &g);
  assert_false(f->row.fits); /* dp=1 shards nothing: 80,860,454,912 */
  /* dp=2: weights P + gathered buffers 2,054,455,808 (two layers, and the LM head
  ** gathered at the loss) + states 2P + grads P + step temporaries P (the peak) +
  ** 532 MiB = 42,763,604,480 <= 42,949,672,960 */
  assert_int_equal(f->row.count, 2);
  assert_string_equal(f->row.layout, "dp=2");
  assert_int_equal(total_with(f, &f->s.dp, 2), 42763604480ull);
  assert_true(total_with(f, &f->s.dp, 1) > GIB40);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, tu_fixture_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_device_scenario),
      T(test_inference_80gib),
      T(test_max_context_uncapped),
      T(test_headroom),
      T(test_inference_16gib_needs_tp2),
      T(test_inference_pp_count),
      T(test_nothing_fits),
      T(test_estimate_error),
      T(test_training_unsharded),
      T(test_training_zero3_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
