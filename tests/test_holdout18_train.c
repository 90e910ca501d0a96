/*
** test_holdout18_train.c: training peak-memory figures held out of shared/calibration (round 18,
** 2026-12-02: FSDP QLoRA at scale), predicted by vramfit through the public API before any
** change. Source: AnswerDotAI/fsdp_qlora benchmarks_03_2024.md (created 4cd6923, 2024-05-03;
** "These benchmarks were done in February and March 2024"), the dual RTX 3090 and dual RTX
** 4090 case studies: train.py on dummy data (every sample exactly context_length tokens),
** 2 GPUs, FSDP FULL_SHARD (or NO_SHARD, the table's "DDP"), use_gradient_checkpointing and
** reentrant_checkpointing True, the blog's template command. "Peak Memory (GiB)" is
** torch.cuda.max_memory_reserved(local_rank) / 2**30 on rank 0 after the fourth step (train.py
** from 50efa1e, 2024-03-26, "memory/reserved_peak"; the text's NB: "the reported peak reserved
** memory for both 512 and 2048 context length is roughly the same, the peak allocated memory is
** 8.28 GiB vs 9.16 GiB"): the kind is stated, tolerance 10 %.
** train.py defaults at 50efa1e: precision "bf16" (the model loaded in bf16, no MixedPrecision,
** no autocast; Linear4bit nf4 with compute_dtype and quant_storage bf16, the lm_head and
** embeddings bf16), PEFT LoRA r 64, alpha 16, dropout 0.1 on k,q,v,up,down,gate (o_proj not
** adapted: lora_target_modules "all"), torch.optim.AdamW (lr 1e-5, wd 0.1), use_orig_params
** False, limit_all_gathers True, the default BACKWARD_PRE prefetch, CPUOffload(offload_params)
** where the table says "CPU Offload". Versions are not printed: written as the README's
** "Pytorch >= 2.2" (2.2.1), bitsandbytes >= 0.43.0, PEFT 0.10.0 (the first with FSDP QLoRA,
** 2024-03-21) and transformers 4.39.0 (March 2024; before 4.46 the model upcasts its own logits).
** Yi-34B and Mistral-7B-v0.2 are written inline from their config.json. Knobs: keep_outputs
** (train.py 50efa1e: `output = model(...)`, `output = None` only after optimizer.step()) and, on
** the QLoRA rows, bnb_4bit_quant_storage = "bf16" (replace_linear(model.model, Linear4bit, ...,
** quant_storage=torch_dtype)).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

#define L7 "'meta-llama/Llama-2-7b-hf'"
#define L70 "'meta-llama/Llama-2-70b-hf'"
#define YI                                                                                                  \
  "{ arch = 'llama', config = { model_type = 'llama', architectures = { 'LlamaForCausalLM' }, hidden_size " \
  "= 7168, intermediate_size = 20480, num_hidden_layers = 60, num_attention_heads = 56, "                   \
  "num_key_value_heads = 8, vocab_size = 64000, max_position_embeddings = 4096, rms_norm_eps = 1e-5, "      \
  "rope_theta = 5000000.0, tie_word_embeddings = false, hidden_act = 'silu' } }"
#define MI                                                                                              \
  "{ arch = 'llama', config = { model_type = 'mistral', architectures = { 'MistralForCausalLM' }, "     \
  "hidden_size = 4096, intermediate_size = 14336, num_hidden_layers = 32, num_attention_heads = 32, "   \
  "num_key_value_heads = 8, vocab_size = 32000, max_position_embeddings = 32768, rms_norm_eps = 1e-5, " \
  "rope_theta = 1000000.0, tie_word_embeddings = false, hidden_act = 'silu' } }"

static const char *const SCN =
    "return { model = %s, dtype = 'bf16', %s gpu = '%s', runtime = { name = 'transformers', version = "
    "'4.39.0', peft = '0.10.0', torch = '2.2.1', keep_outputs = true%s%s }, workload = { kind = 'train', "
    "method = '%s', "
    "micro_batch = %d, seq_len = %d, grad_accum = 1, grad_checkpointing = true, precision = 'bf16', "
    "optimizer = 'adamw', attention = 'sdpa', lora = { r = 64, alpha = 16, dropout = 0.1, targets = { "
    "'k_proj', 'q_proj', 'v_proj', 'up_proj', 'down_proj', 'gate_proj' } } }, parallel = { dp = 2, "
    "strategy = '%s', offload_params = %s } }";

/* rows within 10 % (the rest are pinned misses) */
#define WITHIN18 14

typedef struct {
  const char *model, *method;
  int mb, seq;
  const char *strategy, *offload, *gpu;
  double measured; /* GiB, max_memory_reserved */
  double ratio;    /* vramfit / measured, pinned within 1 % */
} fq_row;

#define G3 "RTX-3090-24GB"
#define G4 "RTX-4090-24GB"
/* Before this round (predicted with the same inputs, no change): -15.8 / +7.3 / -16.0 / -5.0 /
** -10.6 / -9.9 / -12.4 / -19.9 / -10.2 / -10.1 / -26.2 / -11.0 / -0.3 / -9.4 / +11.5 / -11.4 /
** -11.4 % (5 of 17 within 10 %). After the fp32 logits and the adapters' dtype (13 of 17): -22.1 / -0.0 /
** -15.3 / -2.1 / -6.2 / +0.9 / -5.1 / -11.7 / -5.5 / -4.7 / -13.3 / +1.7 / -0.7 / -4.8 / -3.9 / +1.2 / +1.2
*%.
** With FSDP1's side-stream pools (src/train.c unshard_pending: one unsharded decoder unit more in
** the unshard stream's pool, 406,847,488 B for Llama-2-7B bf16; pre_unshard_pool: one shard of a
** unit under CPU offload), 14 of 17.
** Round 25 (test_holdout25_train): fsdp_qlora's Linear4bit keeps bitsandbytes' default
** compress_statistics=True (bitsandbytes nn/modules.py Linear4bit.__init__; train.py passes only
** compute_dtype, quant_type and quant_storage), so the base is double-quantized (`double_quant =
** true` above, was plain fp32 absmax), and its statistics are held whole on every rank, neither
** sharded nor offloaded (src/train.c train_weights, quant.bnb_state_bytes): QLoRA rows
** -19.9 / +2.0 / -5.2 / +1.4 / -5.5 / +2.4 / +0.5 / -2.9 / +0.6 / +2.0 / +2.0 % ->
** -22.5 / -0.4 / -6.4 / +0.8 / -6.4 / +2.7 / -1.9 / -1.2 / +6.4 / +2.2 / +2.2 %; still 14 of 17:
** the table's ratios. */
static const fq_row ROWS[] = {
    /* dual 3090, Llama-2 7B, batch 1 */
    {L7, "qlora", 1, 512, "fsdp", "false", G3, 4.98, 0.7755},
    {L7, "qlora", 1, 2048, "fsdp", "false", G3, 5.21, 0.9963},
    {L7, "lora", 1, 512, "fsdp", "false", G3, 10.24, 0.8840},
    {L7, "lora", 1, 2048, "fsdp", "false", G3, 10.22, 1.0157},
    /* dual 3090, Llama-2 7B at 2048 tokens, larger batches */
    {L7, "qlora", 4, 2048, "fsdp", "false", G3, 11.22, 0.9364},
    {L7, "qlora", 10, 2048, "fsdp", "false", G3, 20.97, 1.0080},
    {L7, "lora", 4, 2048, "fsdp", "false", G3, 16.14, 0.9725},
    {L7, "lora", 6, 2048, "fsdp", "false", G3, 21.35, 0.9012},
    {L7, "qlora", 8, 2048, "ddp", "false", G3, 20.94, 0.9362}, /* sharding_strategy "ddp": NO_SHARD */
    {L7, "lora", 4, 2048, "ddp", "false", G3, 22.04, 0.9526},
    /* dual 4090, Llama-2 7B with CPU offload */
    {L7, "lora", 10, 2048, "fsdp", "true", G4, 22.69, 0.8921},
    {L7, "qlora", 12, 2048, "fsdp", "true", G4, 22.38, 1.0267},
    /* Yi 34B at 2048 tokens (3090 and 4090 rows print the same figures) */
    {YI, "qlora", 2, 2048, "fsdp", "false", G3, 23.05, 0.9807},
    {YI, "qlora", 4, 2048, "fsdp", "true", G3, 22.98, 0.9885},
    /* Llama-2 70B at 2048 tokens, CPU offload */
    {L70, "qlora", 2, 2048, "fsdp", "true", G3, 14.92, 1.0635},
    /* Mistral 7B v0.2 Base, CPU offload, 12 x 2048 and 1 x 24,576 tokens */
    {MI, "qlora", 12, 2048, "fsdp", "true", G4, 22.54, 1.0223},
    {MI, "qlora", 1, 24576, "fsdp", "true", G4, 22.54, 1.0223},
};

static json_t *fq_eval(void **state, const fq_row *r, const char *knobs) {
  char text[4096];
  int q = strcmp(r->method, "qlora") == 0;
  snprintf(text, sizeof text, SCN, r->model, q ? "quant = { name = 'bnb-nf4', double_quant = true }," : "",
           r->gpu, q ? ", bnb_4bit_quant_storage = 'bf16'" : "", knobs, r->method, r->mb, r->seq, r->strategy,
           r->offload);
  return tu_eval_ok(*state, text);
}

/* Each prediction pinned (ratio within 1 %); a row within 10 % is asserted so, a row outside is a
** documented miss (its error in the ratio column and docs/CALIBRATION.md's round-18 row). */
static void test_holdout18_fsdp_qlora_benchmarks(void **state) {
  int within = 0;
  for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
    json_t *j = fq_eval(state, &ROWS[i], "");
    double resv = (double)tu_int(j, "runtime.peak_reserved_bytes");
    double want = ROWS[i].measured * 1073741824.0;
    tu_assert_within(resv, ROWS[i].ratio * want, 0.01);
    if (ROWS[i].ratio > 0.90 && ROWS[i].ratio < 1.10) {
      tu_assert_within(resv, want, 0.10);
      within++;
    }
    json_decref(j);
  }
  assert_int_equal(within, WITHIN18);
}

/* The text's NB: the LoRA rows at 1 x 512 and 1 x 2048 tokens (10.24 / 10.22 GiB reserved) peak at
** 8.28 / 9.16 GiB allocated (max_memory_allocated, the same run's "memory/allocated_peak"). Before
** this round: 8.26 / 9.19 (-0.3 % / +0.3 %); with the kept fp32 logits 8.33 / 9.43 (+0.6 % /
** +3.0 %: 65.5 M logits x 4 B more at 2048 tokens), pinned within 1 % and checked within 10 %. */
static void test_holdout18_lora_allocated(void **state) {
  static const double alloc[] = {8.28, 9.16}, ratio[] = {1.0055, 1.0298};
  for (int i = 0; i < 2; i++) {
    json_t *j = fq_eval(state, &ROWS[2 + i], "");
    double got = (double)tu_int(j, "runtime.peak_allocated_bytes");
    tu_assert_within(got, ratio[i] * alloc[i] * 1073741824.0, 0.01);
    tu_assert_within(got, alloc[i] * 1073741824.0, 0.10);
    json_decref(j);
  }
}

/* runtime.keep_outputs under transformers < 4.46 (src/train.c logits_bytes): the fp32 logits the
** model returns stay beside the loss's backward (16 B a logit, not 12) and beside the last
** block's recomputation (4 B). Llama-2-7B LoRA, 10 x 2048 tokens: 655,360,000 logits, the logits'
** share at the peak 4 x 655,360,000 B higher, byte-exact; from 4.46 the head output that
** outputs.logits holds is already counted, so the knob changes nothing. */
static void test_keep_outputs_logits(void **state) {
  static const char *const t =
      "return { model = 'meta-llama/Llama-2-7b-hf', dtype = 'bf16', gpu = 'RTX-3090-24GB', runtime = { name "
      "= "
      "'transformers', version = '%s'%s }, workload = { kind = 'train', method = 'lora', micro_batch = 10, "
      "seq_len = 2048, grad_checkpointing = true, precision = 'bf16', optimizer = 'adamw', lora = { r = 64, "
      "targets = { 'q_proj', 'v_proj' } } }, parallel = { dp = 2, strategy = 'fsdp' } }";
  static const struct {
    const char *version;
    long long extra;
  } rows[] = {{"4.39.0", 4LL * 20480 * 32000}, {"4.46.0", 0}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char a[1024], b[1024];
    snprintf(a, sizeof a, t, rows[i].version, "");
    snprintf(b, sizeof b, t, rows[i].version, ", keep_outputs = true");
    json_t *ja = tu_eval_ok(*state, a), *jb = tu_eval_ok(*state, b);
    assert_int_equal(tu_category(jb, "logits") - tu_category(ja, "logits"), rows[i].extra);
    assert_int_equal(tu_category(jb, "activations"), tu_category(ja, "activations"));
    json_decref(ja);
    json_decref(jb);
  }
}

/* bnb_4bit_quant_storage (scripts/workloads/train.lua float_quant_storage): a float storage dtype
** gives PEFT 0.6-0.11 adapters that dtype (update_layer's weight.dtype.is_floating_point cast); the
** default uint8 storage and fp32 keep nn.Linear's fp32, and PEFT >= 0.12 upcasts them anyway.
** Llama-2-7B QLoRA r 64 on k,q,v,up,down,gate: 32 x 64 x (3 x 8192 + 2 x 15104 + 15104) =
** 143,130,624 adapter parameters, one GPU. */
static void test_bnb_quant_storage_adapter_dtype(void **state) {
  static const char *const t =
      "return { model = 'meta-llama/Llama-2-7b-hf', dtype = 'bf16', quant = 'bnb-nf4', gpu = "
      "'RTX-3090-24GB', "
      "runtime = { name = 'transformers', version = '4.39.0', peft = '%s'%s }, workload = { kind = 'train', "
      "method = 'qlora', micro_batch = 1, seq_len = 512, grad_checkpointing = true, precision = 'bf16', "
      "optimizer = 'adamw', lora = { r = 64, targets = { 'k_proj', 'q_proj', 'v_proj', 'up_proj', "
      "'down_proj', 'gate_proj' } } } }";
  static const struct {
    const char *peft, *knob;
    long long bytes;
  } rows[] = {
      {"0.10.0", "", 4},
      {"0.10.0", ", bnb_4bit_quant_storage = 'uint8'", 4},
      {"0.10.0", ", bnb_4bit_quant_storage = 'bf16'", 2},
      {"0.10.0", ", bnb_4bit_quant_storage = 'fp16'", 2},
      {"0.10.0", ", bnb_4bit_quant_storage = 'fp32'", 4},
      {"0.12.0", ", bnb_4bit_quant_storage = 'bf16'", 4},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text, t, rows[i].peft, rows[i].knob);
    json_t *j = tu_eval_ok(*state, text);
    assert_int_equal(tu_int(j, "model.trainable_params"), 143130624LL);
    assert_int_equal(tu_category(j, "adapter_weights"), 143130624LL * rows[i].bytes);
    json_decref(j);
  }
  assert_int_not_equal(
      tu_eval(*state,
              "return { model = 'meta-llama/Llama-2-7b-hf', dtype = 'bf16', runtime = { name = "
              "'transformers', bnb_4bit_quant_storage = 'bf16' }, workload = { kind = 'train', "
              "method = 'lora', micro_batch = 1, seq_len = 512 } }",
              NULL),
      VF_OK);
  assert_string_equal(
      strstr(vf_engine_error(*state), "runtime.bnb_4bit_quant_storage"),
      "runtime.bnb_4bit_quant_storage: applies to a bitsandbytes 4-bit base (quant bnb-nf4 or "
      "bnb-fp4), got quant none");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout18_fsdp_qlora_benchmarks),
      cmocka_unit_test(test_holdout18_lora_allocated),
      cmocka_unit_test(test_keep_outputs_logits),
      cmocka_unit_test(test_bnb_quant_storage_adapter_dtype),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
