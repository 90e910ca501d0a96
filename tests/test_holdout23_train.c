/*
** test_holdout23_train.c: compiled torchtitan training peaks held out of shared/calibration (round
** 23, 2026-12-02), predicted by vramfit through the public API before any change, then pinned.
** Nothing in the model was changed by this round; the figures locate round 19's +25 % miss.
** Sources:
** - pytorch/torchtitan PR #808 (2025-01-27, "add configuration for float8 with rowwise scaling"):
**   Llama3-8B pretraining on 8 H100s (95 GiB: "47.65GiB(50.16%)"), llama3_8b.toml of the time
**   (torchtitan eddce1265: batch 1, seq 8192, data_parallel_shard_degree -1, activation
**   checkpointing selective 'op'), `--training.compile`, which then compiled each TransformerBlock
**   only (parallelize_llama.py apply_compile, fullgraph); the loss was eager
**   (train.py: cross_entropy(pred.flatten(0, 1).float()), the torch.compile line commented out;
**   `del pred` before backward), run_llama_train.sh's expandable segments. torchtitan's "memory:"
**   is the max reserved. "memory: 47.65GiB" (bf16 + compile), "47.77GiB" (rowwise float8 +
**   compile), "47.32GiB" (tensorwise float8 with its FSDP float8 all-gather and precomputed
**   scales).
** - pytorch/ao torchao/float8/README.md (9519bebbc), "Training benchmarks", AMD MI300x: 8 x
**   MI300X, batch 1, seq 8192, torch.compile, FSDP2, per-op SAC, torch 2.9.0.dev20250811+rocm6.4,
**   torchtitan 2c8b59479 (2025-08-08: the same toml values, the blocks compiled and, since
**   bbb1b616e, the loss: components/loss.py build_cross_entropy_loss; run_train.sh's expandable
**   segments); torchao's torchtitan_benchmark.sh parses the logged "memory:" (max reserved):
**   "Peak Memory (GB)" 39.09 (bf16), 39.07 (tensorwise with float8 all-gather), 39.32 (rowwise with
**   bf16 all-gather). The README's H100 rows (47.65 / 47.77 / 47.79, torch 2.7.0a0+gitb98af95)
**   repeat PR #808's bf16 figure and are not counted twice.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

#define GIB 1073741824.0

static const char *const TT =
    "return { model = 'meta-llama/Llama-3.1-8B', dtype = 'bf16', gpu = '%s', runtime = { name = 'pytorch', "
    "free_logits = true, expandable_segments = true, compile = %s }, parallel = { dp = 8, strategy = 'fsdp' "
    "}, "
    "workload = { kind = 'train', method = 'full', micro_batch = 1, seq_len = 8192, precision = '%s'%s, "
    "optimizer = 'adamw', attention = 'sdpa', grad_checkpointing = 'op' } }";
#define AG ", fp8 = { fsdp_float8_all_gather = true }"

typedef struct {
  const char *gpu, *compile, *precision, *fp8;
  double gib;   /* measured, max reserved */
  double ratio; /* vramfit / measured as predicted before any change, pinned within 1 % */
} tt_row;

/* As predicted (nothing changed): -2.5 / -2.8 / -2.7 % (PR #808) and -1.3 / -1.9 / -2.3 %
** (MI300X), all six within 10 %. runtime.compile is the loss under torch.compile (false for PR
** #808's eager loss); the compiled blocks keep rmsnorm_upcast and repeat_kv off, as round 19's
** compiled rows: Inductor fuses the norm and the expansion. */
static const tt_row ROWS[] = {
    {"H100-SXM-80GB", "false", "bf16-mixed", "", 47.65, 0.9747},
    {"H100-SXM-80GB", "false", "fp8-rowwise", "", 47.77, 0.9723},
    {"H100-SXM-80GB", "false", "fp8", AG, 47.32, 0.9728},
    {"MI300X-OAM-192GB", "true", "bf16-mixed", "", 39.09, 0.9873},
    {"MI300X-OAM-192GB", "true", "fp8-rowwise", "", 39.32, 0.9815},
    {"MI300X-OAM-192GB", "true", "fp8", AG, 39.07, 0.9773},
};

static double reserved(void **state, const tt_row *r) {
  char text[1024];
  snprintf(text, sizeof text, TT, r->gpu, r->compile, r->precision, r->fp8);
  json_t *j = tu_eval_ok(*state, text);
  double resv = (double)tu_int(j, "runtime.peak_reserved_bytes");
  json_decref(j);
  return resv;
}

static void test_holdout23_compiled_op_sac(void **state) {
  for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
    double resv = reserved(state, &ROWS[i]);
    tu_assert_within(resv, ROWS[i].ratio * ROWS[i].gib * GIB, 0.01);
    tu_assert_within(resv, ROWS[i].gib * GIB, 0.10);
  }
}

/* What the two sources locate. The same toml, compiled blocks and per-op SAC, read:
** January 2025 (PR #808, eager loss) 47.65 GiB, June 2025 (pytorch/ao pretraining.rst,
** test_holdout19_train, compiled loss) 30.89, August 2025 (MI300X, compiled loss) 39.09.
** vramfit's eager per-op SAC saved set (16.81 GiB of activations here) holds for the first and
** the third, so round 19's +25 % is not what compiled blocks save in general, nor the compiled
** loss (the MI300X rows have it). The measured January -> June drop, 16.76 GiB, is larger than
** the whole eager loss budget (12 B a logit, 11.74 GiB), so no loss accounting can produce it;
** vramfit's drop is the loss's 12 -> 4 B a logit, pinned here: 46.45 - 38.61 = 7.84 GiB.
** Ruled out by reading torchtitan at eddce1265, 775a486e and 2c8b59479: the toml values, the
** save list (mm, SDPA efficient / flash, reduce_scatter, max; `abs` dropped after January),
** the every-second-mm counter, apply_compile (per block, fullgraph) and `del pred` are the
** same. Open: the June 2025 CUDA nightly (what it dispatched SDPA to on H100, or what its
** partitioner kept) or unstated run settings; not modelled, the June rows stay pinned. */
static void test_holdout23_compiled_loss_share(void **state) {
  tt_row eager_loss = ROWS[0], compiled_loss = ROWS[0];
  compiled_loss.compile = "true";
  double drop = reserved(state, &eager_loss) - reserved(state, &compiled_loss);
  tu_assert_within(drop, 7.84 * GIB, 0.01);
  /* the eager loss's whole budget, 12 B a logit (11.74 GiB), is below the measured drop */
  char text[1024];
  snprintf(text, sizeof text, TT, eager_loss.gpu, eager_loss.compile, eager_loss.precision, eager_loss.fp8);
  json_t *j = tu_eval_ok(*state, text);
  long long logits = tu_category(j, "logits");
  json_decref(j);
  assert_int_equal(logits, 12LL * 8192 * 128256);
  assert_true((double)logits < (47.65 - 30.89) * GIB);
  /* and the MI300X row, with the loss compiled, sits 1.3 % from vramfit: the loss is not it */
  tu_assert_within(reserved(state, &ROWS[3]), 39.09 * GIB, 0.02);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout23_compiled_op_sac),
      cmocka_unit_test(test_holdout23_compiled_loss_share),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
