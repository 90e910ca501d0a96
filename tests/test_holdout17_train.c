/*
** test_holdout17_train.c: training peak-memory figures held out of shared/calibration (round 17,
** 2026-12-02), predicted by vramfit through the public API before any change, and the three
** mechanisms the round changed (scripts/workloads/train.lua precision_apply / optimizer_bytes,
** src/train.c train_weights / train_model_states):
**   - PEFT's modules_to_save copies keep the base dtype when the adapters are upcast
**     (tuners_utils.py _cast_adapter_dtype walks BaseTunerLayer modules only; ModulesToSaveWrapper
**     is none, peft v0.12.0 to 5d602fdb);
**   - PEFT before v0.6.0 created LoRA / AdaLoRA / IA3 adapters in fp32 and moved them by device
**     only (peft v0.5.0 src/peft/tuners/lora.py update_layer, _replace_module; the base dtype came
**     with #915, b786b884f, first released in v0.6.0);
**   - torch 2.0's foreach AdamW kept two group-sized step temporaries (exp_avg_sq_sqrt and
**     denom), one from 2.1.0 (pytorch/pytorch #104780 / #104898, merged 2023-07-10).
** The source's figure kind is unstated (tolerance 15 %).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

/* Hold-out round 17 (not calibration cases): QwenLM/Qwen README.md, "Profiling of Memory and
** Speed" (the 7B LoRA / LoRA (emb) / Q-LoRA rows from e6f2a7a, 2023-10-11; 1.8B and 14B with
** e8e1596, 2023-11-30): "a single A100-SXM4-80G GPU ... CUDA 11.8 and Pytorch 2.0. Flash
** attention 2 is applied. We uniformly use a batch size of 1 and gradient accumulation of 8",
** memory "(GB)" of inputs of 256 to 8192 tokens; LoRA (emb) trains the embedding and output layer
** (finetune.py: modules_to_save ["wte", "lm_head"] unless the model path names a chat model).
** finetune.py at e8e1596: LoRA r 64, alpha 16, dropout 0.05 on c_attn, c_proj, w1, w2,
** adamw_torch, every sample padded to model_max_length; finetune/finetune_lora_single_gpu.sh:
** --bf16 True --gradient_checkpointing, no DeepSpeed; the model loads without torch_dtype and
** modeling_qwen.py's autoset precision casts it to bf16 (pure bf16 under the Trainer's autocast).
** Versions as the sources say: requirements.txt at e8e1596 pins transformers==4.32.0; README line
** 420 pairs torch>=2.0,<2.1 with peft>=0.5.0,<0.6.0 (written as torch 2.0.1, peft 0.5.0; the 7B
** rows predate peft v0.6.0, 2023-11-02; the 1.8B / 14B rows of 2023-11-30 could have run 0.6.x,
** bf16 adapters: 1.8B LoRA 256 would read -21.9 %, 14B LoRA 256 -8.8 %).
** vramfit has no Qwen (v1) architecture: each model is written as its Qwen2 shapes (hidden,
** 2 x 11008-style MLP halves as intermediate_size, 32 / 16 / 40 full heads, q,k,v bias, untied
** 151,936 / 152,064 vocabulary), giving the published totals 1,836,828,672 / 7,721,324,544 /
** 14,167,290,880; c_attn's fused adapter is written as three (q, k, v), 2 x r x hidden more a
** layer (1.3 % of the 7B adapters). Compared: peak reserved (the kind is unstated). Before this
** round (same inputs): reserved -23.7 / +7.4 / -19.6 / -12.6 / -8.5 / +2.2 / -10.8 / -2.3 / -9.4 /
** -3.9 %; with no version knobs the LoRA (emb) rows read +21 % to +32 % (the copies in fp32).
** Each prediction is pinned (ratio within 1 %) and checked within 15 %. Open: the 1.8B rows at
** 256 tokens (-14.2 % reserved, -23 % allocated: about 1 GB at every model size that no modelled
** tensor accounts for; nvidia-smi's CUDA context would be most of it, 6.27 GB with vramfit's
** 0.52). */
static void test_holdout17_qwen_readme(void **state) {
#define QW(h, I, L, nh, V)                                                                               \
  "{ arch = 'llama', config = { model_type = 'qwen2', architectures = { 'Qwen2ForCausalLM' }, "          \
  "hidden_size = " h ", intermediate_size = " I ", num_hidden_layers = " L ", num_attention_heads = " nh \
  ", "                                                                                                   \
  "num_key_value_heads = " nh ", vocab_size = " V                                                        \
  ", max_position_embeddings = 8192, rms_norm_eps = 1e-6, "                                              \
  "rope_theta = 10000.0, tie_word_embeddings = false, hidden_act = 'silu' } }"
  static const struct {
    const char *model;
    long long h, I, L, V, params;
    int emb, seq;
    double measured, ratio;
  } rows[] = {
      {QW("2048", "5504", "24", "16", "151936"), 2048, 5504, 24, 151936, 1836828672LL, 0, 256, 6.7, 0.8580},
      {QW("2048", "5504", "24", "16", "151936"), 2048, 5504, 24, 151936, 1836828672LL, 0, 8192, 21.8, 1.1031},
      {QW("2048", "5504", "24", "16", "151936"), 2048, 5504, 24, 151936, 1836828672LL, 1, 256, 13.7, 0.9798},
      {QW("4096", "11008", "32", "32", "151936"), 4096, 11008, 32, 151936, 7721324544LL, 0, 256, 20.1,
       0.9725},
      {QW("4096", "11008", "32", "32", "151936"), 4096, 11008, 32, 151936, 7721324544LL, 0, 4096, 29.7,
       0.9764},
      {QW("4096", "11008", "32", "32", "151936"), 4096, 11008, 32, 151936, 7721324544LL, 0, 8192, 36.6,
       1.0724},
      {QW("4096", "11008", "32", "32", "151936"), 4096, 11008, 32, 151936, 7721324544LL, 1, 256, 33.7,
       1.0528},
      {QW("4096", "11008", "32", "32", "151936"), 4096, 11008, 32, 151936, 7721324544LL, 1, 8192, 48.5,
       1.0078},
      {QW("5120", "13696", "40", "40", "152064"), 5120, 13696, 40, 152064, 14167290880LL, 0, 256, 34.6,
       1.0046},
      {QW("5120", "13696", "40", "40", "152064"), 5120, 13696, 40, 152064, 14167290880LL, 1, 8192, 67.7,
       0.9865},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char text[2048];
    snprintf(
        text, sizeof text,
        "return { model = %s, dtype = 'bf16', gpu = 'A100-SXM4-80GB', runtime = { name = 'transformers', "
        "version = '4.32.0', peft = '0.5.0', torch = '2.0.1' }, workload = { kind = 'train', method = "
        "'lora', "
        "micro_batch = 1, grad_accum = 8, seq_len = %d, grad_checkpointing = true, precision = 'bf16', "
        "optimizer = 'adamw', attention = 'flash', lora = { r = 64, alpha = 16, dropout = 0.05, targets = { "
        "'q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj' }%s } } }",
        rows[i].model, rows[i].seq, rows[i].emb ? ", modules_to_save = { 'embed_tokens', 'lm_head' }" : "");
    json_t *j = tu_eval_ok(*state, text);
    long long h = rows[i].h, I = rows[i].I, L = rows[i].L, V = rows[i].V;
    long long adapters = L * 64 * (4 * (h + h) + 3 * (h + I)), copies = rows[i].emb ? 2 * V * h : 0;
    assert_int_equal(tu_int(j, "model.params"), rows[i].params);
    assert_int_equal(tu_int(j, "model.trainable_params"), adapters + copies);
    /* peft 0.5.0: fp32 adapters, the copies in bf16 */
    assert_int_equal(tu_category(j, "adapter_weights"), adapters * 4 + copies * 2);
    double resv = (double)tu_int(j, "runtime.peak_reserved_bytes");
    tu_assert_within(resv, rows[i].ratio * rows[i].measured * 1e9, 0.01);
    tu_assert_within(resv, rows[i].measured * 1e9, 0.15);
    json_decref(j);
  }
#undef QW
}

/* The mechanisms, byte-exact on Llama-3.1-8B (pure bf16, LoRA r16 on q,v: 6,815,744 adapter
** parameters = 32 x 16 x ((4096 + 4096) + (4096 + 1024)); modules_to_save embed_tokens: a
** 128,256 x 4096 copy, 525,336,576), 64 tokens so the step is the peak. */
#define L31                                                                                                 \
  "return { model = 'meta-llama/Llama-3.1-8B', dtype = 'bf16', gpu = 'A100-SXM4-80GB', runtime = { name = " \
  "'transformers', %s }, workload = { kind = 'train', method = 'lora', micro_batch = 1, seq_len = 64, "     \
  "grad_checkpointing = true, precision = 'bf16', optimizer = 'adamw', lora = { r = 16, targets = { "       \
  "'q_proj', 'v_proj' }%s } } }"
static json_t *l31(void **state, const char *knobs, int mts) {
  char text[1024];
  snprintf(text, sizeof text, L31, knobs, mts ? ", modules_to_save = { 'embed_tokens' }" : "");
  return tu_eval_ok(*state, text);
}

static void test_peft_adapter_dtype_by_release(void **state) {
  static const struct {
    const char *knobs;
    long long bytes;
  } rows[] = {
      {"peft = '0.5.0'", 4}, /* nn.Linear's fp32, moved by device only */
      {"peft = '0.6.0'", 2}, /* the base layer's bf16 (#915) */
      {"peft = '0.11.1'", 2},
      {"peft = '0.12.0'", 4}, /* autocast_adapter_dtype */
      {"peft = '0.12.0', autocast_adapter_dtype = false", 2},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j = l31(state, rows[i].knobs, 0);
    assert_int_equal(tu_int(j, "model.trainable_params"), 6815744LL);
    assert_int_equal(tu_category(j, "adapter_weights"), 6815744LL * rows[i].bytes);
    assert_int_equal(tu_category(j, "optimizer_states"), 6815744LL * 2 * rows[i].bytes);
    json_decref(j);
  }
}

static void test_modules_to_save_base_dtype(void **state) {
  const long long A = 6815744LL, C = 525336576LL;
  /* upcast adapters (0.5.0 and >= 0.12): adapters, gradients and states fp32, the copy bf16 */
  const char *upcast[] = {"peft = '0.5.0'", "peft = '0.12.0'", "peft = '0.13.2'"};
  for (size_t i = 0; i < sizeof upcast / sizeof upcast[0]; i++) {
    json_t *j = l31(state, upcast[i], 1);
    assert_int_equal(tu_int(j, "model.trainable_params"), A + C);
    assert_int_equal(tu_category(j, "adapter_weights"), A * 4 + C * 2);
    assert_int_equal(tu_category(j, "gradients"), A * 4 + C * 2);
    assert_int_equal(tu_category(j, "optimizer_states"), A * 8 + C * 4);
    assert_int_equal(tu_category(j, "optimizer_step"), A * 4 + C * 2); /* torch >= 2.1: one temporary */
    assert_non_null(strstr(tu_category_detail(j, "adapter_weights"), "modules_to_save copies in bf16"));
    json_decref(j);
  }
  /* 0.6-0.11: everything in the base dtype, as before */
  json_t *j = l31(state, "peft = '0.6.0'", 1);
  assert_int_equal(tu_category(j, "adapter_weights"), (A + C) * 2);
  assert_int_equal(tu_category(j, "optimizer_states"), (A + C) * 4);
  assert_null(strstr(tu_category_detail(j, "adapter_weights"), "modules_to_save"));
  json_decref(j);
}

static void test_torch20_adamw_step_temps(void **state) {
  const long long A = 6815744LL, C = 525336576LL;
  json_t *j = l31(state, "peft = '0.12.0', torch = '2.0.1'", 1);
  assert_int_equal(tu_category(j, "optimizer_step"), 2 * (A * 4 + C * 2));
  json_decref(j);
  j = l31(state, "peft = '0.12.0', torch = '2.1.0'", 1);
  assert_int_equal(tu_category(j, "optimizer_step"), A * 4 + C * 2);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout17_qwen_readme),
      cmocka_unit_test(test_peft_adapter_dtype_by_release),
      cmocka_unit_test(test_modules_to_save_base_dtype),
      cmocka_unit_test(test_torch20_adamw_step_temps),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
