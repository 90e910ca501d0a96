/*
** test_holdout21_train.c: training peak-memory figures held out of shared/calibration (round 21,
** 2026-12-02), predicted by vramfit through the public API before any change, then pinned; and
** the torchtune mechanisms this round read from its source, byte-exact.
** Sources (pytorch/torchtune README.md; rows no calibration case or earlier round took):
** - "Optimization flags" table (added 1814feb1, 2024-11-18, version.txt 0.5.0): Llama 3.2 3B,
**   full_finetune_single_device, batch 2, max sequence length 4096, bf16, A100; "Each technique
**   is added on top of the previous one, except for LoRA and QLoRA, which do not use
**   optimizer_in_bwd or AdamW8bit optimizer"; "Peak Memory Active (GiB)" (torchtune
**   get_memory_stats: active_bytes.all.peak, the allocated peak). Rows taken: + Compile 51.0,
**   + Chunked Cross Entropy 42.9, + Activation Checkpointing 24.9, + Fuse optimizer step into
**   backward 23.1, LoRA 8.5, QLoRA 4.6 (the baseline, packed, offloading and 8-bit rows are the
**   calibration cases torchtune-flags-*). The README's command for the QLoRA row:
**   lora_finetune_single_device, llama3_2/3B_qlora_single_device, dataset.packed=True,
**   compile=True, CEWithChunkedOutputLoss, enable_activation_checkpointing=True,
**   optimizer_in_bwd=False, enable_activation_offloading=True, optimizer=torch.optim.AdamW,
**   max_seq_len 4096, batch 2; the LoRA configs at 1814feb1: r 64, alpha 128 on q, v,
**   output_proj and the MLP. The full rows before "+ 8-bit AdamW" run torch.optim.AdamW (the
**   8-bit row is the change; the config's own PagedAdamW8bit is not theirs), standard
**   torch.nn.CrossEntropyLoss before the chunked row.
** - the Llama 3.1 table (added 30b8519e, 2024-09-24, version 0.3.0): "batch size 2 (without
**   gradient accumulation), a dataset packed to sequence length 2048, and torch compile
**   enabled", "Peak Memory per GPU", kind not stated (15 %, as the calibration cases of the same
**   table read it, on reserved): 8B full 1x A6000 37.4 GiB, 8B LoRA 1x 4090 16.2, 8B QLoRA
**   1x 4090 7.4, 70B full 8x A100 13.9 ("Uses CPU offload with fused optimizer"), 70B LoRA
**   8x A100 27.6, 405B QLoRA 8x A100 44.8 "GB"; each config at 30b8519e (the llama3_1 configs: 8B LoRA
**   r8 on q,v; 8B QLoRA r8 on q,k,v,output_proj and the MLP; 70B full fsdp_cpu_offload; 70B
**   LoRA r16 on q,k,v; 405B QLoRA r16 on every linear with torch.nn.CrossEntropyLoss;
**   activation checkpointing on, CEWithChunkedOutputLoss elsewhere, fused torch AdamW; the 8B
**   full config PagedAdamW8bit with optimizer_in_bwd).
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
#define CE "torch.nn.CrossEntropyLoss"
#define CHUNKED "torchtune.modules.loss.CEWithChunkedOutputLoss"
#define L64                                                                                            \
  ", lora = { r = 64, alpha = 128, targets = { 'q_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', " \
  "'down_proj' } }"
#define ALL7 "targets = { 'q_proj', 'v_proj', 'k_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj' }"

static const char *const TT =
    "return { model = '%s', dtype = 'bf16', gpu = '%s'%s, runtime = { name = 'torchtune', version = '%s', "
    "compile = "
    "true, loss = '%s' }, parallel = %s, workload = { kind = 'train', micro_batch = 2, precision = 'bf16', "
    "attention = "
    "'sdpa', method = '%s', seq_len = %d, grad_checkpointing = %s, optimizer = '%s'%s } }";

typedef struct {
  const char *model, *gpu, *quant, *version, *loss, *parallel, *method;
  int seq;
  const char *gc, *optimizer, *extra;
  double gib;   /* measured */
  double ratio; /* vramfit / measured, pinned within 1 % */
} tt_row;

#define M3 "meta-llama/Llama-3.2-3B-Instruct", "A100-SXM4-80GB"
#define NF4 ", quant = 'bnb-nf4'"
#define ONE "{ dp = 1 }"
#define FSDP8 "{ dp = 8, strategy = 'fsdp' }"

/* Flags table, peak active = vramfit's peak allocated. Predicted before this round (as found):
** -12.3 / +3.1 / +20.4 / +2.1 / +28.2 / +55.8 %. Now (torchtune's fp32 output and compiled
** chunked loss, src/train.c logits_bytes): -4.7 / +2.5 / +20.4 / +1.0 / +13.8 / +29.2 %. */
static const tt_row FLAGS[] = {
    {M3, "", "0.5.0", CE, ONE, "full", 4096, "false", "adamw", "", 51.0, 0.9534},
    {M3, "", "0.5.0", CHUNKED, ONE, "full", 4096, "false", "adamw", "", 42.9, 1.0251},
    /* open: the step's foreach temporary (_multi_tensor_adamw's exp_avg_sq_sqrt, one bf16 copy
    ** of every parameter, 5.98 GiB) puts the peak at the step; the figure sits 0.9 GiB above
    ** weights + gradients + states (24.0 GiB), as if no group-sized temporary was made (a
    ** fused=True AdamW, as torchtune's own configs pass it, would give -1.6 %); not changed:
    ** the table names no optimizer arguments */
    {M3, "", "0.5.0", CHUNKED, ONE, "full", 4096, "true", "adamw", "", 24.9, 1.2045},
    {M3, "", "0.5.0", CHUNKED, ONE, "full", 4096, "true", "adamw", ", optimizer_in_backward = true", 23.1,
     1.0099},
    /* open: both adapter rows leave 1.95 / 1.70 GiB beside the weights, adapters and their
    ** states, about the 16-bit chunks alone (1.96 GiB): the offloaded layer's working set
    ** (0.91 GiB) and the loss's chunk are not alive together with them at the peak, which
    ** vramfit's forward phase adds */
    {M3, "", "0.5.0", CHUNKED, ONE, "lora", 4096, "true", "adamw", ", offload = { activations = true }" L64,
     8.5, 1.1378},
    {M3, NF4, "0.5.0", CHUNKED, ONE, "qlora", 4096, "true", "adamw", ", offload = { activations = true }" L64,
     4.6, 1.2924},
};
#define FLAGS_WITHIN 3

/* Llama 3.1 table, reserved. Predicted before this round: -48.9 / +17.1 / +36.2 / +81.4 /
** +19.6 / +45.2 %; now -45.4 / +12.6 / +26.2 / +81.4 / +16.9 / +50.4 %. */
static const tt_row LLAMA31[] = {
    /* open: twice the 4090 row of the same config (18.9 GiB, calibration case
    ** torchtune-readme-llama31-8b-full-4090, +8.1 %): unstated settings, as the calibration's
    ** skipped A6000 LoRA row (30.3 against the 4090's 16.2) */
    {"meta-llama/Llama-3.1-8B-Instruct", "RTX A6000", "", "0.3.0", CHUNKED, ONE, "full", 2048, "true",
     "paged-adamw-8bit", ", optimizer_in_backward = true", 37.4, 0.5464},
    {"meta-llama/Llama-3.1-8B-Instruct", "RTX 4090", "", "0.3.0", CHUNKED, ONE, "lora", 2048, "true", "adamw",
     ", lora = { r = 8, alpha = 16, targets = { 'q_proj', 'v_proj' } }", 16.2, 1.1262},
    /* open: as the flags table's adapter rows (allocated +16.9 %) */
    {"meta-llama/Llama-3.1-8B-Instruct", "RTX 4090", NF4, "0.3.0", CHUNKED, ONE, "qlora", 2048, "true",
     "adamw", ", lora = { r = 8, alpha = 16, " ALL7 " }", 7.4, 1.2625},
    /* open: FSDP CPUOffload's placement (round 18's open item): vramfit keeps the 16.43 GiB of
    ** sharded bf16 gradients on the GPU, where FSDP2's CPUOffloadPolicy copies each reduced
    ** shard to the host; without them the row would read -39 %, so 5.4 GiB of the offloaded
    ** run stay unidentified and the placement is not changed */
    {"meta-llama/Llama-3.1-70B-Instruct", "A100-SXM4-80GB", "", "0.3.0", CHUNKED,
     "{ dp = 8, strategy = 'fsdp', offload_params = true, offload_optimizer = true }", "full", 2048, "true",
     "adamw", "", 13.9, 1.8142},
    /* open: +16.9 % reserved, +11.6 % allocated (the table's kind is not stated) */
    {"meta-llama/Llama-3.1-70B-Instruct", "A100-SXM4-80GB", "", "0.3.0", CHUNKED, FSDP8, "lora", 2048, "true",
     "adamw", ", lora = { r = 16, alpha = 32, targets = { 'q_proj', 'k_proj', 'v_proj' } }", 27.6, 1.1690},
    /* open: 405B's 126 checkpoints of 2 x 2048 tokens are 15.75 GiB alone; the config's batch 1
    ** and unpacked Alpaca may be what ran (the README's "GB" and batch are not the config's) */
    {"meta-llama/Llama-3.1-405B-Instruct", "A100-SXM4-80GB", NF4, "0.3.0", CE, FSDP8, "qlora", 2048, "true",
     "adamw", ", lora = { r = 16, alpha = 32, " ALL7 " }", 44.8, 1.5044},
};
#define LLAMA31_WITHIN 1

static int check_rows(void **state, const tt_row *rows, size_t n, const char *metric, double tol) {
  int within = 0;
  for (size_t i = 0; i < n; i++) {
    const tt_row *r = &rows[i];
    char text[1536];
    snprintf(text, sizeof text, TT, r->model, r->gpu, r->quant, r->version, r->loss, r->parallel, r->method,
             r->seq, r->gc, r->optimizer, r->extra);
    json_t *j = tu_eval_ok(*state, text);
    double got = (double)tu_int(j, metric);
    tu_assert_within(got, r->ratio * r->gib * GIB, 0.01);
    if (r->ratio > 1 - tol && r->ratio < 1 + tol) {
      tu_assert_within(got, r->gib * GIB, tol);
      within++;
    }
    json_decref(j);
  }
  return within;
}

static void test_holdout21_torchtune_flags(void **state) {
  assert_int_equal(
      check_rows(state, FLAGS, sizeof FLAGS / sizeof FLAGS[0], "runtime.peak_allocated_bytes", 0.10),
      FLAGS_WITHIN);
}

static void test_holdout21_torchtune_llama31(void **state) {
  assert_int_equal(
      check_rows(state, LLAMA31, sizeof LLAMA31 / sizeof LLAMA31[0], "runtime.peak_reserved_bytes", 0.15),
      LLAMA31_WITHIN);
}

static const char *const T3 =
    "return { model = 'meta-llama/Llama-3.2-3B', dtype = 'bf16', gpu = 'A100-SXM4-80GB', runtime = { name = "
    "'torchtune', %s }, workload = { kind = 'train', method = 'lora', lora = { r = 8, targets = { 'q_proj' } "
    "}, "
    "micro_batch = 2, seq_len = 4096, grad_checkpointing = true, optimizer = 'adamw' } }";

/* torchtune's decoder returns `self.output(h).float()` when the loss is not chunked
** (torchtune/modules/transformer.py, 0.3.0-0.7.0): 8192 tokens x 128,256 = 1,050,673,152 logits;
** compiled, the loss saves the fp32 logits and writes their fp32 gradient, 8 B each (2 x 2 B
** before); eager, the log-softmax output, the nll gradient and log_softmax_backward's result,
** 12 (14 before: the 16-bit head output was counted kept). Chunked and compiled, the 16-bit
** chunks and one chunk's 16-bit gradient: 2 + 2 / 8 (2 + 12 / 8 before); a frozen head has no
** weight gradient to accumulate. */
static void test_torchtune_output_upcast(void **state) {
  static const struct {
    const char *knobs;
    long long logits;
  } rows[] = {
      {"compile = true", 1050673152LL * 8},
      {"compile = false", 1050673152LL * 12},
      {"compile = true, loss = 'CEWithChunkedOutputLoss'", 1050673152LL * 2 + 1050673152LL * 2 / 8},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text, T3, rows[i].knobs);
    json_t *j = tu_eval_ok(*state, text);
    assert_int_equal(tu_category(j, "logits"), rows[i].logits);
    json_decref(j);
  }
}

static const char *const T8 =
    "return { model = 'meta-llama/Llama-3.1-8B', dtype = 'bf16', gpu = 'H100-SXM-80GB', parallel = { dp = 8, "
    "strategy = 'fsdp' }, runtime = { name = 'torchtune', loss = 'CEWithChunkedOutputLoss'%s }, workload = { "
    "kind = "
    "'train', method = 'full', micro_batch = 1, seq_len = 4096, grad_checkpointing = false, optimizer = "
    "'adamw' } }";

/* Llama-3.1-8B, 4096 tokens, no checkpointing, FSDP 8. Compiled chunked loss with a trained
** (untied) head: each chunk's head backward writes a whole weight gradient (128,256 x 4096 x 2 B
** = 1,050,673,152) into the AccumulateGrad input buffer beside the buffer itself and the 7
** chunks' gradients left: 7 x 4096 x 128,256 x 2 / 8 + 2 x 1,050,673,152 = 3,020,685,312.
** torchtune's eager modules (RMSNorm on x.float(), grouped K/V expanded: round 19's knobs, by
** default on for torchtune unless compiled): 32 x 4096 x 45,056 B = 5,905,580,032 more saved,
** 1,610,612,736 of it the K/V expansion (test_holdout19_train test_rmsnorm_upcast_repeat_kv). */
static void test_torchtune_eager_modules(void **state) {
  static const struct {
    const char *knobs;
    long long extra, logits;
  } rows[] = {
      {"", 5905580032LL, 0},
      {", rmsnorm_upcast = false, repeat_kv = false", 0, 0},
      {", repeat_kv = false", 5905580032LL - 1610612736LL, 0},
      {", compile = true", 0, 3020685312LL},
      {", compile = true, rmsnorm_upcast = true, repeat_kv = true", 5905580032LL, 3020685312LL},
  };
  char text[1024];
  snprintf(text, sizeof text, T8, ", rmsnorm_upcast = false, repeat_kv = false");
  json_t *ref = tu_eval_ok(*state, text);
  long long base = tu_category(ref, "activations");
  json_decref(ref);
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    snprintf(text, sizeof text, T8, rows[i].knobs);
    json_t *j = tu_eval_ok(*state, text);
    assert_int_equal(tu_category(j, "activations") - base, rows[i].extra);
    if (rows[i].logits) assert_int_equal(tu_category(j, "logits"), rows[i].logits);
    json_decref(j);
  }
  /* a LayerNorm model keeps its norm as it is; the knob itself is refused there */
  tu_eval_err(*state,
              "return { model = 'openai-community/gpt2', dtype = 'bf16', runtime = { name = "
              "'torchtune', rmsnorm_upcast = true }, workload = { kind = 'train', method = 'full', "
              "micro_batch = 1, seq_len = 512 } }",
              "runtime.rmsnorm_upcast: describes an RMSNorm; "
              "openai-community/gpt2's norms are LayerNorm");
  json_decref(tu_eval_ok(*state,
                         "return { model = 'openai-community/gpt2', dtype = 'bf16', runtime = 'torchtune', "
                         "workload = { kind = 'train', method = 'full', micro_batch = 1, seq_len = 512 } }"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout21_torchtune_flags),
      cmocka_unit_test(test_holdout21_torchtune_llama31),
      cmocka_unit_test(test_torchtune_output_upcast),
      cmocka_unit_test(test_torchtune_eager_modules),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
