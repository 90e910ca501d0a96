/*
** test_estimate.c: the per-device budget (estimate.c) of Llama-3.1-8B built in C
** (testutil.h): bf16 inference at 8192 tokens with every category exact, tensor and
** pipeline parallel splits, KV-head replication, sliding windows, overflow messages,
** and full fine-tuning with AdamW under no sharding and ZeRO-3.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "estimate.h"
#include "testutil.h"

typedef tu_fixture fixture;

static void run_ok(fixture *f) {
  f->err[0] = '\0';
  if (estimate_run(&f->m, &f->s, &f->e, f->err, sizeof f->err) != 0) fail_msg("estimate: %s", f->err);
}

static uint64_t cat(const fixture *f, const char *name) {
  for (int i = 0; i < f->e.b.n; i++)
    if (strcmp(f->e.b.items[i].name, name) == 0) return f->e.b.items[i].bytes;
  fail_msg("no category '%s'", name);
  return 0;
}

/* total = every category; reserved = those in torch's allocator; allocated = reserved
** less the allocator's slack */
static void check_sums(fixture *f) {
  uint64_t all = 0, torch = 0;
  for (int i = 0; i < f->e.b.n; i++) {
    all += f->e.b.items[i].bytes;
    if (f->e.b.items[i].in_torch) torch += f->e.b.items[i].bytes;
  }
  assert_int_equal(f->e.total, all);
  assert_int_equal(f->e.peak_reserved, torch);
  assert_int_equal(f->e.peak_allocated, torch - cat(f, "allocator_slack"));
  assert_true(f->e.peak_reserved >= f->e.peak_allocated);
  assert_false(f->e.b.overflow);
  assert_false(f->e.b.full);
}

static void test_round_alloc(void **state) {
  (void)state;
  assert_int_equal(estimate_round_alloc(0), 0);
  assert_int_equal(estimate_round_alloc(1), 512);
  assert_int_equal(estimate_round_alloc(512), 512);
  assert_int_equal(estimate_round_alloc(513), 1024);
  assert_int_equal(estimate_round_alloc(1048576), 1048576); /* 1 MiB: not above */
  /* above 1 MiB and under 10 MiB: a share of a 20 MiB segment, floor(20 MiB / r) to one:
  ** 1 MiB + 512 -> 19 a segment, 20 MiB / 19 rounded up; 2 MiB + 512 -> 9 a segment */
  assert_int_equal(estimate_round_alloc(1048577), 1103765);
  assert_int_equal(estimate_round_alloc(2097153), 2330169);
  assert_int_equal(estimate_round_alloc(8 * 1048576), 10 * 1048576); /* two 8 MiB to a segment */
  assert_int_equal(estimate_round_alloc(10 * 1048576), 10 * 1048576); /* 10 MiB: its own segment */
  assert_int_equal(estimate_round_alloc(525336576), 526385152); /* 250.5 x 2 MiB -> 251 */
}

/* an assumption longer than the old 200-byte slot is kept whole (the llama.cpp --fit note is
** 238 characters, vLLM's newer-release note about 320); one longer than the slot ends in "..."
** and never inside a UTF-8 sequence */
static void test_note_length(void **state) {
  (void)state;
  static scenario s;
  memset(&s, 0, sizeof s);
  char long_note[SCN_NOTE + 100];
  memset(long_note, 'a', sizeof long_note - 1);
  long_note[sizeof long_note - 1] = 0;
  long_note[320] = 0;
  scenario_note(&s, "%s", long_note);
  assert_int_equal(strlen(s.notes[0]), 320);
  long_note[320] = 'a';
  memcpy(long_note + SCN_NOTE - 5, "\xc3\xa9", 2); /* U+00E9 across the cut */
  scenario_note(&s, "%s", long_note);
  assert_int_equal(strlen(s.notes[1]), SCN_NOTE - 2);
  assert_string_equal(s.notes[1] + SCN_NOTE - 5, "...");
}

static void test_inference_8b(void **state) {
  fixture *f = *state;
  f->s.fragmentation = 0.25;
  run_ok(f);
  assert_int_equal(f->e.params, 8030261248ull);
  assert_int_equal(f->e.weight_bytes, 16060522496ull);
  assert_int_equal(f->e.trainable_params, 8030261248ull);
  assert_int_equal(f->e.kv_bytes_per_token, 131072); /* 32 layers x 8 heads x (128 + 128) x 2 B */
  assert_int_equal(f->e.devices, 1);
  assert_string_equal(f->e.peak_phase, "prefill");
  assert_int_equal(cat(f, "weights"), 16060522496ull);
  /* 131,072 B per token x 8192 tokens x 1 sequence */
  assert_int_equal(cat(f, "kv_cache"), 1073741824ull);
  /* per token: residual + norm output 2 x 4096, plus the wider of attention
  ** (q 4096 + k, v 2 x 1024 + repeat_kv 2 x 4096 + out 4096 = 18432) and the gated MLP
  ** (3 x 14336 = 43008): 51200 elements x 2 B = 102,400 B; x 8192 tokens */
  assert_int_equal(cat(f, "activations"), 838860800ull);
  /* 1 sequence x 128256 x (2 B bf16 + 4 B fp32 + 4 B probabilities) */
  assert_int_equal(cat(f, "logits"), 1282560);
  assert_int_equal(cat(f, "workspace"), 32 * TU_MIB);
  assert_int_equal(cat(f, "cuda_context"), 500 * TU_MIB);
  /* the 64 k / v projections (8 MiB in bf16) share 20 MiB segments two by two: 2 MiB more each
  ** (134,217,728); every other bf16 tensor is 10 MiB or more in 2 MiB steps, or under 1 MiB in
  ** 512 B steps. Plus 25% of (838,860,800 + 1,282,560) = 210,035,840 */
  assert_int_equal(cat(f, "allocator_slack"), 344253568);
  assert_int_equal(f->e.total, 18876503680ull);
  assert_int_equal(f->e.peak_reserved, 18352215680ull);  /* total - CUDA context */
  assert_int_equal(f->e.peak_allocated, 18007962112ull); /* reserved - slack */
  check_sums(f);
  assert_string_equal(f->e.b.items[1].detail, "8192 tokens x 1 sequences, dynamic cache, bf16");
  /* the figures the runtime module reports beside the budget */
  assert_int_equal(f->e.n_figs, 2);
  assert_string_equal(f->e.figs[0].name, "weights_bytes");
  assert_int_equal(f->e.figs[0].value, 16060522496ull);
  assert_string_equal(f->e.figs[1].name, "kv_cache_bytes");
  assert_int_equal(f->e.figs[1].value, 1073741824ull);
}

static void test_unknown_runtime(void **state) {
  fixture *f = *state;
  strcpy(f->s.runtime, "nosuch");
  assert_int_equal(estimate_run(&f->m, &f->s, &f->e, f->err, sizeof f->err), -1);
  assert_string_equal(f->err, "runtime 'nosuch' has no model for inference workloads yet");
  strcpy(f->s.runtime, "pytorch"); /* the same module as transformers */
  run_ok(f);
  /* no fragmentation here: the slack is the k / v projections' segment shares alone */
  assert_int_equal(cat(f, "allocator_slack"), 134217728);
  assert_int_equal(f->e.total, 18666467840ull);
}

static void test_tensor_parallel(void **state) {
  fixture *f = *state;
  f->s.fragmentation = 0.25;
  f->s.tp = 2;
  run_ok(f);
  assert_int_equal(f->e.devices, 2);
  /* sharded roles halve; the 65 norms (532,480 B) are replicated:
  ** (16,060,522,496 - 532,480) / 2 + 532,480 */
  assert_int_equal(cat(f, "weights"), 8030527488ull);
  assert_int_equal(cat(f, "kv_cache"), 536870912ull); /* 4 heads per rank: exactly half */
  /* (8192 + max(2048 + 1024 + 4096 + 2048, 3 x 7168)) x 2 B x 8192 tokens */
  assert_int_equal(cat(f, "activations"), 486539264ull);
  /* embed and lm_head shards of 525,336,576 B round up to 251 x 2 MiB: 2 x 1 MiB, plus
  ** 25% of (486,539,264 + 1,282,560) = 121,955,456 */
  assert_int_equal(cat(f, "allocator_slack"), 124052608ull);
  assert_int_equal(f->e.total, 9737115264ull);
  check_sums(f);

  uint64_t w = 0;
  assert_true(estimate_device_weights(&f->m, 2, 1, &w));
  assert_int_equal(w, 8030527488ull);
  assert_false(estimate_device_weights(&f->m, 0, 1, &w));
  assert_false(estimate_device_weights(&f->m, 1, 0, &w));
}

static void test_kv_heads_replicate(void **state) {
  fixture *f = *state;
  f->s.tp = 8;
  run_ok(f);
  assert_int_equal(cat(f, "kv_cache"), 134217728ull); /* 1 head per rank: 1/8 */
  f->s.tp = 16; /* more ranks than the 8 KV heads: each holds one whole head */
  run_ok(f);
  assert_int_equal(f->e.devices, 16);
  assert_int_equal(cat(f, "kv_cache"), 134217728ull); /* 1 x 256 x 32 x 8192 x 2 B */
  /* weights: 16,059,990,016 sharded / 16 + 532,480 replicated */
  assert_int_equal(cat(f, "weights"), 1004281856ull);
  check_sums(f);
}

static void test_pipeline_parallel(void **state) {
  fixture *f = *state;
  f->s.pp = 2;
  run_ok(f);
  assert_int_equal(f->e.devices, 2);
  /* the heavier stage: half of 32 x 436,224,000 B of layers = 6,979,584,000, plus
  ** the last stage's final norm and lm_head (8,192 + 1,050,673,152) */
  assert_int_equal(cat(f, "weights"), 8030265344ull);
  assert_int_equal(cat(f, "kv_cache"), 536870912ull); /* 16 layers per stage */
  check_sums(f);
  uint64_t w = 0;
  assert_true(estimate_device_weights(&f->m, 1, 2, &w));
  assert_int_equal(w, 8030265344ull);
  assert_true(estimate_device_weights(&f->m, 1, 1, &w));
  assert_int_equal(w, 16060522496ull);
  /* one stage's own (training compares stages): the last holds its 16 layers, the final norm
  ** and lm_head; the first its 16 layers and the embedding (1,050,673,152 B), 2 B elements */
  uint64_t n = 0;
  assert_true(estimate_stage_weights(&f->m, 1, 16, 32, false, true, &w, &n));
  assert_int_equal(w, 8030265344ull);
  assert_int_equal(n, 8030265344ull / 2);
  assert_true(estimate_stage_weights(&f->m, 1, 16, 32, true, false, &w, &n));
  assert_int_equal(w, 6979584000ull + 1050673152ull);
  /* 15 of the 32 layers (an uneven split): 15 x 436,224,000 B */
  assert_true(estimate_stage_weights(&f->m, 1, 15, 32, false, false, &w, &n));
  assert_int_equal(w, 15ull * 436224000ull);
}

static void test_concurrency_and_prompt(void **state) {
  fixture *f = *state;
  f->s.concurrency = 4;
  f->s.prompt_tokens = 1024;
  run_ok(f);
  assert_int_equal(cat(f, "kv_cache"), 4294967296ull);   /* the cache holds the context */
  assert_int_equal(cat(f, "activations"), 419430400ull); /* 1024 x 4 tokens x 102,400 B */
  assert_int_equal(cat(f, "logits"), 5130240);           /* 4 x 1,282,560 */
  check_sums(f);
}

static void test_eager_attention(void **state) {
  fixture *f = *state;
  f->s.attention = ATTN_EAGER;
  run_ok(f);
  /* + 8192^2 scores x 32 heads x (2 B + 4 B fp32 softmax + 2 B cast) = 17,179,869,184
  ** + the 4D causal mask 8192 x 8192 x 1 sequence x 2 B = 134,217,728 */
  assert_int_equal(cat(f, "activations"), 18152947712ull);
  check_sums(f);
}

static void test_sliding_window(void **state) {
  fixture *f = *state;
  /* Gemma-2 style: half the layers global, half a 4096-token window */
  f->m.kv[0].layers = 16;
  f->m.kv[1] = (kv_group){.layers = 16, .kv_heads = 8, .k_dim = 128, .v_dim = 128, .window = 4096};
  f->m.n_kv = 2;
  run_ok(f);
  /* 16 x 2048 x 8192 x 2 B + 16 x 2048 x 4096 x 2 B: the windowed layers keep 4096 */
  assert_int_equal(cat(f, "kv_cache"), 805306368ull);
  assert_int_equal(f->e.kv_bytes_per_token, 131072); /* full-attention view */
  f->s.context = 2048;                               /* under the window: both groups hold every token */
  run_ok(f);
  assert_int_equal(cat(f, "kv_cache"), 268435456ull);
  f->s.context = 4096; /* at the window */
  run_ok(f);
  assert_int_equal(cat(f, "kv_cache"), 536870912ull);
}

static void test_kv_dtype(void **state) {
  fixture *f = *state;
  f->s.kv_dtype = DT_FP8_E4M3;
  run_ok(f);
  assert_int_equal(cat(f, "kv_cache"), 536870912ull);
  assert_int_equal(f->e.kv_bytes_per_token, 65536);
  assert_string_equal(f->e.b.items[1].detail, "8192 tokens x 1 sequences, dynamic cache, fp8");
}

static void test_overflow_message(void **state) {
  fixture *f = *state;
  strcpy(f->s.name, "absurd");
  f->s.context = 1ull << 40;
  f->s.concurrency = 1ull << 24;
  /* 65,536 KV elements per token x 2^40 x 2^24 = 2^80 */
  assert_int_equal(estimate_run(&f->m, &f->s, &f->e, f->err, sizeof f->err), -1);
  assert_string_equal(f->err,
                      "scenario 'absurd': a byte figure overflows 64 bits "
                      "(context 1099511627776, concurrency 16777216)");

  /* a model whose own parameter count overflows */
  const uint64_t big[2] = {1ull << 32, 1ull << 32};
  assert_true(inv_add(&f->m.inv, "huge", big, 2, 1, ROLE_OTHER, DT_BF16));
  f->s.context = 8192;
  f->s.concurrency = 1;
  assert_int_equal(estimate_run(&f->m, &f->s, &f->e, f->err, sizeof f->err), -1);
  assert_string_equal(f->err, "model 'meta-llama/Llama-3.1-8B': parameter or byte count overflows 64 bits");
}

static void test_training_full(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  run_ok(f);
  assert_int_equal(f->e.devices, 1);
  /* phases: base = weights 2P + states 4P; forward + activations 11,014,766,592 +
  ** logits 3,677,356,032; backward + grads 2P + one layer's 344,211,456; step + grads
  ** 2P + step temporaries 2P = 10P: the step is the peak */
  assert_string_equal(f->e.peak_phase, "optimizer step");
  assert_int_equal(cat(f, "weights"), 16060522496ull);
  assert_int_equal(cat(f, "master_weights"), 0);
  assert_int_equal(cat(f, "gradients"), 16060522496ull);
  assert_int_equal(cat(f, "optimizer_states"), 32121044992ull); /* 8,030,261,248 x 32 bits */
  assert_int_equal(cat(f, "optimizer_step"), 16060522496ull);
  assert_int_equal(cat(f, "activations"), 0);
  assert_int_equal(cat(f, "logits"), 0);
  assert_int_equal(cat(f, "comm_buffers"), 0);
  /* 10P + 32 MiB + 500 MiB + the k / v projections' 20 MiB segment shares (64 x 2 MiB) */
  assert_int_equal(f->e.total, 80994672640ull);
  check_sums(f);
}

static void test_training_forward_peak(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  f->s.micro_batch = 8;
  f->s.seq_len = 4096;
  run_ok(f);
  assert_string_equal(f->e.peak_phase, "forward");
  assert_int_equal(cat(f, "gradients"), 0); /* freed by zero_grad with no accumulation */
  /* per token per layer: (2h + h + 2q + 2kv + h + 4 ffn) = 83,968 x 2 B + 2 x 4 B rstd
  ** + 32 heads x 4 B lse = 168,072 B; x 32,768 tokens x 32 layers */
  assert_int_equal(cat(f, "activations"), 176236265472ull);
  assert_int_equal(cat(f, "logits"), 58837696512ull); /* 32,768 x 128,256 x (2 + 12) */
  check_sums(f);
  f->s.grad_accum = 2; /* accumulated gradients stay through the next forward */
  run_ok(f);
  assert_int_equal(cat(f, "gradients"), 16060522496ull);
}

static void test_training_checkpointing(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  f->s.micro_batch = 8;
  f->s.seq_len = 4096;
  f->s.gc = GC_FULL;
  run_ok(f);
  /* the logits (58,837,696,512) keep the forward the peak */
  assert_string_equal(f->e.peak_phase, "forward");
  /* layer inputs 32,768 tokens x 4096 x 2 B x 32 layers + one recomputed layer
  ** 32,768 x 168,072 B: 8,589,934,592 + 5,507,383,296 */
  assert_int_equal(cat(f, "activations"), 14097317888ull);
  check_sums(f);
  f->s.micro_batch = 1;
  f->s.seq_len = 4096;
  f->s.gc = GC_FULL; /* 6P + 1,762,164,736 + 7,354,712,064 < 10P: the step peaks */
  run_ok(f);
  assert_string_equal(f->e.peak_phase, "optimizer step");
  assert_int_equal(cat(f, "activations"), 0);
}

static void test_training_master_weights(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  f->s.prec.master = true;
  f->s.prec.master_dtype = DT_FP32;
  run_ok(f);
  assert_int_equal(cat(f, "master_weights"), 32121044992ull); /* 4 B x P */
  check_sums(f);
}

static void test_training_zero3(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  f->s.dp = 4;
  f->s.strategy = STRAT_ZERO3;
  run_ok(f);
  assert_int_equal(f->e.devices, 4);
  assert_int_equal(cat(f, "weights"), 4015130624ull);          /* 16,060,522,496 / 4 */
  assert_int_equal(cat(f, "optimizer_states"), 8030261248ull); /* 32,121,044,992 / 4 */
  /* the gathered layer and the prefetched next, 2 x P / 32 x 2 B = 1,003,782,656, plus
  ** the root unit's largest tensor gathered at the loss (the LM head, 128,256 x 4,096 x
  ** 2 B = 1,050,673,152) */
  assert_int_equal(cat(f, "comm_buffers"), 2054455808ull);
  assert_string_equal(f->e.peak_phase, "forward");
  check_sums(f);
  f->s.dp = 3; /* ceilings, not truncation */
  run_ok(f);
  assert_int_equal(cat(f, "weights"), 5353507499ull);           /* 5,353,507,498.67 */
  assert_int_equal(cat(f, "optimizer_states"), 10707014998ull); /* 10,707,014,997.33 */
}

static void test_training_zero1_ddp(void **state) {
  fixture *f = *state;
  tu_train_scenario(&f->s);
  f->s.dp = 4;
  f->s.strategy = STRAT_ZERO1;
  run_ok(f);
  assert_int_equal(cat(f, "weights"), 16060522496ull); /* replicated */
  assert_int_equal(cat(f, "optimizer_states"), 8030261248ull);
  f->s.strategy = STRAT_DDP;
  run_ok(f);
  assert_int_equal(cat(f, "optimizer_states"), 32121044992ull);
  assert_int_equal(cat(f, "comm_buffers"), 16060522496ull); /* gradient buckets */
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, tu_fixture_setup, tu_fixture_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_alloc),
      cmocka_unit_test(test_note_length),
      T(test_inference_8b),
      T(test_unknown_runtime),
      T(test_tensor_parallel),
      T(test_kv_heads_replicate),
      T(test_pipeline_parallel),
      T(test_concurrency_and_prompt),
      T(test_eager_attention),
      T(test_sliding_window),
      T(test_kv_dtype),
      T(test_overflow_message),
      T(test_training_full),
      T(test_training_forward_peak),
      T(test_training_checkpointing),
      T(test_training_master_weights),
      T(test_training_zero3),
      T(test_training_zero1_ddp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
