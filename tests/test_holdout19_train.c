/*
** test_holdout19_train.c: training peak-memory figures held out of shared/calibration (round 19,
** 2026-12-02), predicted by vramfit through the public API before any change, then pinned.
** Sources:
** - pytorch/ao torchao/prototype/float8nocompile/README.md at d99785c0f (2025-02-11): torchtitan
**   (the experimental integration of pytorch/torchtitan#778) training Llama3-8B on 8 H100s, seq
**   len 4096, "Peak memory (GB)": torchtitan's logged "memory: X GiB", the max reserved. The
**   toml of that time (train_configs/llama3_8b.toml, torchtitan 49c6d6fc): batch 1, FSDP over
**   the 8 GPUs (data_parallel_shard_degree -1), bf16 param_dtype / fp32 reduce, AdamW,
**   norm_type "rmsnorm" (models/norms.py RMSNorm: self._norm(x.float()).type_as(x) *
**   self.weight), GQA keys and values through repeat_kv before SDPA (models/llama/model.py), the
**   loss not compiled (bbb1b616e came in April 2025), run_train.sh's expandable segments (#643).
**   Rows "bfloat16, eager" and "float8 + torch.compile" (tensorwise, the blocks compiled), under
**   no AC, AC every 2nd layer and full AC; the float8nocompile prototype rows are not taken.
** - pytorch/ao docs/source/eager_tutorials/pretraining.rst (488ecd4cf, 2025-06-05; the logs of
**   2025-06-04): torchtitan 775a486e llama3_8b.toml (batch 1, seq 8192, per-op SAC, FSDP over 8
**   GPUs) with --training.compile (blocks and, since bbb1b616e, the loss), bf16 and float8 rowwise
**   / tensorwise: "memory: 30.89 / 30.99 / 30.91 GiB" from step 10 on.
** - huggingface/peft method_comparison/MetaMathQA/results/ at 5d602fdb (run 2026-07-15,
**   transformers 5.13.1, peft 0.19.2.dev0, L40S; Llama-3.2-3B in bf16, batch 4, max_seq_length
**   768, no checkpointing, fp32 adapters; train_info.accelerator_memory_max, max reserved): the
**   files no earlier round took whose method vramfit models: lora rank64-rslora, rank32-mica
**   (LoRA r32 on q,v with its own initialisation), ia3 all-attn-5k (7 modules, up / gate / down
**   feedforward: 630,784 trainable parameters printed), prompt_tuning sample_vocab (200 tokens).
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
    "return { model = 'meta-llama/Llama-3.1-8B', dtype = 'bf16', gpu = 'H100-SXM-80GB', runtime = { name = "
    "'pytorch', free_logits = true, expandable_segments = true, compile = %s%s }, parallel = { dp = 8, "
    "strategy = 'fsdp' }, workload = { kind = 'train', method = 'full', micro_batch = 1, seq_len = %d, "
    "precision = '%s', optimizer = 'adamw', attention = 'sdpa', grad_checkpointing = %s } }";
#define EAGER ", rmsnorm_upcast = true, repeat_kv = true"

typedef struct {
  const char *compile, *knobs;
  int seq;
  const char *precision, *gc;
  double gib;   /* measured, max reserved */
  double ratio; /* vramfit / measured, pinned within 1 % */
} tt_row;

/* Before this round (the same scenarios without the two knobs, which did not exist): -16.6 /
** -13.4 / -9.5 % (bf16 eager), -5.1 / -5.9 / -9.3 % (float8 + compile), +25.0 / +24.6 / +24.9 %
** (the compiled per-op SAC rows). With runtime.rmsnorm_upcast and runtime.repeat_kv on the eager
** rows (their model code; a compiled block fuses the norm, so the compiled rows keep eager
** semantics without them): -6.3 / -6.2 / -8.9 %. The measured no-AC minus full-AC difference,
** 25.05 GiB, reads 18.87 before and 24.22 now. */
static const tt_row TT_ROWS[] = {
    {"false", EAGER, 4096, "bf16-mixed", "false", 53.12, 0.9372},
    {"false", EAGER, 4096, "bf16-mixed", "2", 40.6, 0.9381},
    {"false", EAGER, 4096, "bf16-mixed", "true", 28.07, 0.9108},
    {"false", "", 4096, "fp8", "false", 46.64, 0.9493},
    {"false", "", 4096, "fp8", "2", 37.38, 0.9405},
    {"false", "", 4096, "fp8", "true", 28.03, 0.9065},
    /* open: torch.compile of blocks under per-op SAC keeps less than eager's saved set (vramfit's
    ** 18.05 GB of activations against about 9.8 GB the figure leaves for them). Round 23
    ** (test_holdout23_train): the same job compiled in January and August 2025 reads -2.5 % and
    ** -1.3 % with eager's set, so these June 2025 rows, not compiled blocks in general, are off. */
    {"true", "", 8192, "bf16-mixed", "'op'", 30.89, 1.2500},
    {"true", "", 8192, "fp8-rowwise", "'op'", 30.99, 1.2460},
    {"true", "", 8192, "fp8", "'op'", 30.91, 1.2492},
};
#define TT_WITHIN 6

static void test_holdout19_torchtitan(void **state) {
  int within = 0;
  for (size_t i = 0; i < sizeof TT_ROWS / sizeof TT_ROWS[0]; i++) {
    const tt_row *r = &TT_ROWS[i];
    char text[1024];
    snprintf(text, sizeof text, TT, r->compile, r->knobs, r->seq, r->precision, r->gc);
    json_t *j = tu_eval_ok(*state, text);
    double resv = (double)tu_int(j, "runtime.peak_reserved_bytes");
    tu_assert_within(resv, r->ratio * r->gib * GIB, 0.01);
    if (r->ratio > 0.90 && r->ratio < 1.10) {
      tu_assert_within(resv, r->gib * GIB, 0.10);
      within++;
    }
    json_decref(j);
  }
  assert_int_equal(within, TT_WITHIN);
}

/* The two knobs, byte-exact on Llama-3.1-8B (h 4096, 32 heads of 128, 8 KV heads), FSDP 8, 4096
** tokens, no checkpointing. rmsnorm_upcast: each of a layer's two norms keeps x.float() (4 B) and,
** its weight trained, the bf16 normalized output (2 B) instead of its bf16 input: 2 x 4 x 4096 B
** more a token and layer, 32 x 4096 x 32,768 = 4,294,967,296 B; a LoRA run's frozen norms keep
** only the fp32 copy, 2 x 2 x 4096 B more, 2,147,483,648. repeat_kv: K and V saved at 4096
** wide, not 1024: 2 x 3072 x 2 B more, 1,610,612,736 B. Under per-op SAC the kept layers save
** neither (op_saved_bytes), only the layer being recomputed holds them: 4096 x 45,056 B. */
static void test_rmsnorm_upcast_repeat_kv(void **state) {
  static const char *const t =
      "return { model = 'meta-llama/Llama-3.1-8B', dtype = 'bf16', gpu = 'H100-SXM-80GB', runtime = { name = "
      "'pytorch', free_logits = true%s }, parallel = { dp = 8, strategy = 'fsdp' }, workload = { kind = "
      "'train', method = '%s', micro_batch = 1, seq_len = 4096, precision = 'bf16-mixed', optimizer = "
      "'adamw', attention = 'sdpa', grad_checkpointing = %s%s } }";
  static const struct {
    const char *method, *gc, *knob;
    long long extra;
  } rows[] = {
      {"full", "false", ", rmsnorm_upcast = true", 4294967296LL},
      {"full", "false", ", repeat_kv = true", 1610612736LL},
      {"full", "false", ", rmsnorm_upcast = true, repeat_kv = true", 5905580032LL},
      {"lora", "false", ", rmsnorm_upcast = true", 2147483648LL},
      {"full", "'op'", ", rmsnorm_upcast = true, repeat_kv = true", 4096LL * 45056},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const char *lora =
        strcmp(rows[i].method, "lora") == 0 ? ", lora = { r = 8, targets = { 'q_proj', 'v_proj' } }" : "";
    char a[1024], b[1024];
    snprintf(a, sizeof a, t, "", rows[i].method, rows[i].gc, lora);
    snprintf(b, sizeof b, t, rows[i].knob, rows[i].method, rows[i].gc, lora);
    json_t *ja = tu_eval_ok(*state, a), *jb = tu_eval_ok(*state, b);
    assert_int_equal(tu_category(jb, "activations") - tu_category(ja, "activations"), rows[i].extra);
    json_decref(ja);
    json_decref(jb);
  }
}

static const char *const MC =
    "return { model = 'meta-llama/Llama-3.2-3B', dtype = 'bf16', gpu = 'L40S', runtime = { name = "
    "'transformers', "
    "version = '5.13.1' }, workload = { kind = 'train', method = '%s', micro_batch = 4, seq_len = 768, "
    "grad_checkpointing = false, precision = 'bf16', attention = 'sdpa', optimizer = 'adamw', lora = { %s } "
    "} }";

/* Predicted as found, nothing changed by this round: +6.8 / +7.4 / -7.8 / +2.2 %, all within 10 %
** (the LoRA rows share the +6 to +8 % of the calibration cases peft-mc-llama32-3b-lora-r32 / -r64,
** docs/CALIBRATION.md). IA3's trainable count is exact with workload.lora.feedforward_modules:
** 28 x (3072 + 1024 + 1024 + 3072 + 3072 + 3072 + 8192) = 630,784 (917,504 before: up and gate
** scaled on their 8192-wide outputs). */
static void test_holdout19_peft_method_comparison(void **state) {
  static const struct {
    const char *method, *adapter;
    double bytes, ratio;
  } rows[] = {
      {"lora", "r = 64, alpha = 64, targets = {'q_proj', 'v_proj'}", 22561161216.0, 1.0679},
      {"lora", "r = 32, alpha = 64, targets = {'q_proj', 'v_proj'}", 22244491264.0, 1.0737},
      {"ia3",
       "targets = {'gate_proj', 'o_proj', 'q_proj', 'k_proj', 'v_proj', 'down_proj', 'up_proj'}, "
       "feedforward_modules = {'up_proj', 'gate_proj', 'down_proj'}",
       26145193984.0, 0.9221},
      {"prompt-tuning", "num_virtual_tokens = 200", 24410849280.0, 1.0224},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text, MC, rows[i].method, rows[i].adapter);
    json_t *j = tu_eval_ok(*state, text);
    double resv = (double)tu_int(j, "runtime.peak_reserved_bytes");
    tu_assert_within(resv, rows[i].ratio * rows[i].bytes, 0.01);
    tu_assert_within(resv, rows[i].bytes, 0.10);
    if (strcmp(rows[i].method, "ia3") == 0) assert_int_equal(tu_int(j, "model.trainable_params"), 630784LL);
    json_decref(j);
  }
}

/* workload.lora.feedforward_modules: IA3 only, and within a list of targets (PEFT's
** IA3Config.__post_init__ subset check); runtime.rmsnorm_upcast: an RMSNorm model. Each error
** names the field. */
static void test_ia3_feedforward_modules_errors(void **state) {
  char text[1024];
  snprintf(text, sizeof text, MC, "lora", "r = 8, targets = {'q_proj'}, feedforward_modules = {'q_proj'}");
  tu_eval_err(*state, text,
              "workload.lora.feedforward_modules: applies to method ia3 "
              "(IA3Config.feedforward_modules), got method lora");
  snprintf(text, sizeof text, MC, "ia3", "targets = {'q_proj'}, feedforward_modules = {'down_proj'}");
  tu_eval_err(*state, text,
              "workload.lora.feedforward_modules[1]: down_proj is not in "
              "workload.lora.targets (PEFT requires a subset)");
  /* runtime.rmsnorm_upcast describes an RMSNorm: refused on a LayerNorm model */
  tu_eval_err(*state,
              "return { model = 'openai-community/gpt2', dtype = 'bf16', runtime = { name = "
              "'pytorch', rmsnorm_upcast = true }, workload = { kind = 'train', method = 'full', "
              "micro_batch = 1, seq_len = 512 } }",
              "runtime.rmsnorm_upcast: describes an RMSNorm; "
              "openai-community/gpt2's norms are LayerNorm");
  /* without it, PEFT's default for llama: down_proj alone scales its input */
  snprintf(text, sizeof text, MC, "ia3", "targets = {'k_proj', 'v_proj', 'down_proj'}");
  json_t *j = tu_eval_ok(*state, text);
  assert_int_equal(tu_int(j, "model.trainable_params"), 28LL * (1024 + 1024 + 8192));
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout19_torchtitan),
      cmocka_unit_test(test_rmsnorm_upcast_repeat_kv),
      cmocka_unit_test(test_holdout19_peft_method_comparison),
      cmocka_unit_test(test_ia3_feedforward_modules_errors),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
