/*
** test_fsdp_strategies.c: FSDP's sharding strategies (parallel.fsdp_sharding, dp_shard,
** reshard_after_forward; scripts/scenario.lua fsdp_sharding, src/train.c shard_ranks and
** fsdp_fwd_kept) on Llama-2-7B, every figure derived by hand below from the model's shapes.
**
** Llama-2-7B (meta-llama/Llama-2-7b-hf config.json): hidden 4096, intermediate 11008, 32 layers,
** 32 heads (no GQA), vocab 32000, untied head.
**   one layer: q, k, v, o 4 x 4096^2 = 67,108,864; gate, up, down 3 x 4096 x 11008 =
**              135,266,304; two RMSNorms 2 x 4096 = 8,192; together 202,383,360 parameters
**   32 layers: 6,476,267,520
**   the root (FSDP's outermost unit): embed_tokens 32000 x 4096 = 131,072,000, lm_head the
**              same, the final norm 4,096: 262,148,096
**   P = 6,476,267,520 + 262,148,096 = 6,738,415,616 parameters.
** The run: precision bf16-mixed (fp32 parameters, bf16 autocast), AdamW, full fine-tuning, the
** pytorch runtime (FSDP2), so per rank with S ranks in a shard group:
**   weights    4 P / S  (fp32 flat shards)      4 P = 26,953,662,464
**   gradients  4 P / S  (fp32)
**   AdamW      8 P / S  (exp_avg, exp_avg_sq)   8 P = 53,907,324,928
** and the all-gather yields bf16 (MixedPrecision param_dtype bf16, the existing fsdp_mixed):
**   one layer's unit 2 x 202,383,360 = 404,766,720 B; the root 2 x 262,148,096 = 524,296,192 B;
**   FULL_SHARD's comm_buffers (unchanged): two units of ceil(4 P / 32) fp32 bytes cast to bf16
**   (421,150,976 each) and the root: 842,301,952 + 524,296,192 = 1,366,598,144 B.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

static const char *const SCN =
    "return { model = 'meta-llama/Llama-2-7b-hf', dtype = 'bf16', runtime = { name = 'pytorch' }, "
    "parallel = { strategy = 'fsdp', %s }, workload = { kind = 'train', method = 'full', micro_batch = %d, "
    "seq_len = 4096, precision = 'bf16-mixed', optimizer = 'adamw', grad_checkpointing = true }, "
    "gpu = 'H100-SXM-80GB' }";

static json_t *run(void **state, const char *par, int mb) {
  char text[1024];
  snprintf(text, sizeof text, SCN, par, mb);
  return tu_eval_ok(*state, text);
}

static const char *phase(json_t *j) {
  return json_string_value(json_object_get(json_object_get(j, "runtime"), "peak_phase"));
}

/* Model states per rank: params and optimizer states over the shard group S.
** FULL_SHARD and SHARD_GRAD_OP at dp 8: S = 8: 26,953,662,464 / 8 = 3,369,207,808 B of weights,
** 53,907,324,928 / 8 = 6,738,415,616 B of AdamW states. HYBRID_SHARD and _HYBRID_SHARD_ZERO2 at
** dp 16 with dp_shard 8: S = 8, the same; with dp_shard 4: S = 4, 6,738,415,616 and
** 13,476,831,232. NO_SHARD: S = 1, 26,953,662,464 and 53,907,324,928. */
static void test_fsdp_strategy_model_states(void **state) {
  static const struct {
    const char *par;
    long long weights, states;
  } rows[] = {
      {"dp = 8", 3369207808ll, 6738415616ll},
      {"dp = 8, fsdp_sharding = 'full_shard'", 3369207808ll, 6738415616ll},
      {"dp = 8, fsdp_sharding = 'shard_grad_op'", 3369207808ll, 6738415616ll},
      {"dp = 8, fsdp_sharding = 'SHARD_GRAD_OP'", 3369207808ll, 6738415616ll}, /* accelerate's spelling */
      {"dp = 16, fsdp_sharding = 'hybrid_shard', dp_shard = 8", 3369207808ll, 6738415616ll},
      {"dp = 16, fsdp_sharding = '_HYBRID_SHARD_ZERO2', dp_shard = 8", 3369207808ll, 6738415616ll},
      {"dp = 16, fsdp_sharding = 'hybrid_shard'", 3369207808ll, 6738415616ll}, /* one node of 8 assumed */
      {"dp = 16, dp_shard = 4", 6738415616ll, 13476831232ll},                  /* dp_shard < dp: hybrid */
      {"dp = 8, fsdp_sharding = 'no_shard'", 26953662464ll, 53907324928ll},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j = run(state, rows[i].par, 1);
    if (tu_category(j, "weights") != rows[i].weights || tu_category(j, "optimizer_states") != rows[i].states)
      fail_msg("%s: weights %lld, optimizer_states %lld", rows[i].par, tu_category(j, "weights"),
               tu_category(j, "optimizer_states"));
    json_decref(j);
  }
}

/* HSDP with dp 16 and dp_shard 8 holds per rank what FULL_SHARD over 8 ranks holds: the same
** shards, the same gathered units (the all-gather runs within the shard group), the gradient
** shard all-reduced in place across the two replicas. Every category, the allocated and the
** reserved peak are equal; _HYBRID_SHARD_ZERO2 likewise equals SHARD_GRAD_OP at dp 8. Full
** shard at dp 8 peaks in the optimizer step (micro-batch 1, checkpointed): gradients
** 3,369,207,808 B beside the step's temporaries. */
static void test_hsdp_equals_full_shard(void **state) {
  static const char *pairs[][2] = {
      {"dp = 16, fsdp_sharding = 'hybrid_shard', dp_shard = 8", "dp = 8"},
      {"dp = 16, fsdp_sharding = 'hybrid_shard_zero2', dp_shard = 8",
       "dp = 8, fsdp_sharding = 'shard_grad_op'"},
      {"dp = 32, fsdp_sharding = 'hybrid_shard', dp_shard = 4", "dp = 4"},
  };
  static const char *cats[] = {"weights",      "gradients",   "optimizer_states", "optimizer_step",
                               "comm_buffers", "activations", "logits",           "allocator_slack"};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    json_t *h = run(state, pairs[i][0], 1), *f = run(state, pairs[i][1], 1);
    for (size_t k = 0; k < sizeof cats / sizeof cats[0]; k++)
      if (tu_category(h, cats[k]) != tu_category(f, cats[k]))
        fail_msg("%s vs %s: %s %lld != %lld", pairs[i][0], pairs[i][1], cats[k], tu_category(h, cats[k]),
                 tu_category(f, cats[k]));
    assert_int_equal(tu_int(h, "runtime.peak_allocated_bytes"), tu_int(f, "runtime.peak_allocated_bytes"));
    assert_int_equal(tu_int(h, "runtime.peak_reserved_bytes"), tu_int(f, "runtime.peak_reserved_bytes"));
    json_decref(h);
    json_decref(f);
  }
  json_t *j = run(state, pairs[0][0], 1);
  assert_string_equal(phase(j), "optimizer step");
  assert_int_equal(tu_category(j, "gradients"), 3369207808ll);
  assert_non_null(strstr(tu_category_detail(j, "weights"), "sharded over dp_shard (HSDP"));
  json_decref(j);
}

/* SHARD_GRAD_OP (FSDP2: reshard_after_forward = false) does not reshard after forward: at the
** loss every unit is gathered in bf16, the whole model: 32 x 404,766,720 + 524,296,192 =
** 13,476,831,232 B = 2 P, in comm_buffers, against FULL_SHARD's 1,366,598,144. At micro-batch
** 1 the forward becomes the peak: weights 3,369,207,808 + AdamW 6,738,415,616 + activations +
** logits + those 13,476,831,232 + cuBLAS workspace, no gradient yet (zero_grad freed them). */
static void test_shard_grad_op_forward_gathered(void **state) {
  static const char *pars[] = {"dp = 8, fsdp_sharding = 'shard_grad_op'",
                               "dp = 8, reshard_after_forward = false"};
  for (int i = 0; i < 2; i++) {
    json_t *j = run(state, pars[i], 1);
    assert_string_equal(phase(j), "forward");
    assert_int_equal(tu_category(j, "comm_buffers"), 13476831232ll);
    assert_int_equal(tu_category(j, "gradients"), 0);
    long long sum = tu_category(j, "weights") + tu_category(j, "optimizer_states") +
                    tu_category(j, "activations") + tu_category(j, "logits") +
                    tu_category(j, "comm_buffers") + tu_category(j, "workspace");
    assert_int_equal(tu_int(j, "runtime.peak_allocated_bytes"), sum);
    assert_non_null(
        strstr(tu_category_detail(j, "comm_buffers"), "SHARD_GRAD_OP: the whole model at the loss"));
    json_decref(j);
  }
}

/* Where both peak in forward (micro-batch 4: 6,813,777,920 B of checkpointed activations and
** 7,340,032,000 of logits), SHARD_GRAD_OP's peak exceeds FULL_SHARD's by exactly the units
** FULL_SHARD does not hold at the loss: 13,476,831,232 - 1,366,598,144 = 12,110,233,088 B, in
** allocated and in reserved alike (gathered parameters are no activation: no fragmentation
** share). */
static void test_shard_grad_op_minus_full_shard(void **state) {
  json_t *f = run(state, "dp = 8", 4), *g = run(state, "dp = 8, fsdp_sharding = 'shard_grad_op'", 4);
  assert_string_equal(phase(f), "forward");
  assert_string_equal(phase(g), "forward");
  assert_int_equal(tu_category(f, "comm_buffers"), 1366598144ll);
  assert_int_equal(tu_int(g, "runtime.peak_allocated_bytes") - tu_int(f, "runtime.peak_allocated_bytes"),
                   12110233088ll);
  assert_int_equal(tu_int(g, "runtime.peak_reserved_bytes") - tu_int(f, "runtime.peak_reserved_bytes"),
                   12110233088ll);
  json_decref(f);
  json_decref(g);
}

/* fully_shard(reshard_after_forward = 4) on 8 ranks: each layer keeps its rank's 1/4 slice of
** the bf16 all-gather output from forward to backward: 404,766,720 / 4 = 101,191,680 B a
** layer, 32 x 101,191,680 = 3,238,133,760 B beside FULL_SHARD's 1,366,598,144: 4,604,731,904
** (the root is never resharded after forward). With HSDP (dp 16, dp_shard 8) the same. */
static void test_reshard_after_forward_int(void **state) {
  static const char *pars[] = {"dp = 8, reshard_after_forward = 4",
                               "dp = 16, dp_shard = 8, reshard_after_forward = 4"};
  for (int i = 0; i < 2; i++) {
    json_t *j = run(state, pars[i], 1);
    assert_string_equal(phase(j), "forward");
    assert_int_equal(tu_category(j, "comm_buffers"), 4604731904ll);
    assert_non_null(strstr(tu_category_detail(j, "comm_buffers"), "post-forward shard over 4 ranks"));
    json_decref(j);
  }
}

/* NO_SHARD keeps every parameter, gradient and state whole (26,953,662,464 B of fp32 weights,
** the same of gradients and of AdamW's step temporaries, 53,907,324,928 of states) and
** all-reduces the flat gradients in place: no gathered unit and no bucket copy, so its peak
** (the optimizer step) is DDP's less DDP's flat bucket copies of the gradients, 26,953,662,464. */
static void test_no_shard(void **state) {
  json_t *n = run(state, "dp = 8, fsdp_sharding = 'no_shard'", 1);
  char text[1024];
  snprintf(text, sizeof text, SCN, "dp = 8", 1);
  char *at = strstr(text, "strategy = 'fsdp'");
  memcpy(at, "strategy = 'ddp' ", 17);
  json_t *d = tu_eval_ok(*state, text);
  assert_string_equal(phase(n), "optimizer step");
  assert_int_equal(tu_category(n, "weights"), 26953662464ll);
  assert_int_equal(tu_category(n, "gradients"), 26953662464ll);
  assert_int_equal(tu_category(n, "comm_buffers"), 0);
  assert_int_equal(tu_category(d, "comm_buffers"), 26953662464ll);
  assert_int_equal(tu_int(d, "runtime.peak_allocated_bytes") - tu_int(n, "runtime.peak_allocated_bytes"),
                   26953662464ll);
  json_decref(n);
  json_decref(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fsdp_strategy_model_states),
      cmocka_unit_test(test_hsdp_equals_full_shard),
      cmocka_unit_test(test_shard_grad_op_forward_gathered),
      cmocka_unit_test(test_shard_grad_op_minus_full_shard),
      cmocka_unit_test(test_reshard_after_forward_int),
      cmocka_unit_test(test_no_shard),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
