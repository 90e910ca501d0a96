/*
** test_holdout19_sglang.c: SGLang startup figures held out of shared/calibration (round 19,
** 2026-12-02), predicted by vramfit through the public API before any change of the round, and
** the one mechanism it changed: who pays for the Mamba state pool's padding slot, by release
** (src/rt_sglang.c mamba_slots). Tolerances as the calibration set's: weights 1 %, KV capacity
** and pool sizes 5 %, GiB figures with half the printed precision.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

#define GIB 1073741824.0

/* ---- sgl-project/sglang PR #18040 ("Model: Support IBM Granite (Dense/Mamba + MoE)", opened
** 2026-01-31; the author's source checkout, run as 0.5.8): `python -m sglang.bench_one_batch
** --model-path ibm-granite/granite-4.0-h-micro --batch 4` on a 16 GB card (the same author's card
** as round 12's LFM2 note, run as an RTX 4060 Ti 16GB): "Load weight begin. avail mem=15.24 GB",
** "Load weight end ... mem usage=5.98 GB", "Mamba Cache is allocated. max_mamba_cache_size: 38,
** conv_state size: 0.03GB, ssm_state size: 2.74GB", "KV Cache is allocated. #tokens: 399740, K
** size: 1.52 GB", "Capture cuda graph bs [1, 2, 4, 8]". Shapes: the preset (4 attention layers of
** 8 KV heads x 64, 36 Mamba-2 layers of 64 heads x 64 x d_state 128: 72 MiB of fp32 SSM state and
** 0.9 MiB of bf16 conv window a slot). The card is given its printed free memory (15.24 GiB +
** vramfit's 500 MiB context: 15.73 GiB). Predicted before the change, on the catalog card (15.21
** GiB free): weights 5.979 GiB (-0.0 %), 402,328 tokens (+0.65 %), K 1.535 GiB (+1.0 %), 36 slots
** (-5.3 %), SSM 2.60 GiB (-5.1 %); with the printed free memory 398,081 tokens (-0.41 %) and 37
** slots, 2.67 GiB (-2.6 %). 38 slots need int(budget // per_req) and 39 x 72 MiB = 2.742 GiB is
** the pool with its padding slot: that release charged the slots alone (v0.5.9's
** handle_max_mamba_cache), where vramfit followed main's (budget - per_req) // per_req. Now 38
** slots and 2.74 GiB exactly; the token pool does not move (the same bytes leave rest). */
#define GRANITE_H_MICRO(ver, mem, extra)                                                              \
  "return { model = 'ibm-granite/granite-4.0-h-micro', dtype = 'bf16', runtime = { name = 'sglang', " \
  "version = '" ver "', context_length = 131072" extra                                                \
  " }, workload = { kind = 'inference', context = "                                                   \
  "131072 }, "                                                                                        \
  "gpu = { name = 'RTX-4060Ti-16GB', memory = '" mem "' } }"

static void test_holdout19_sglang_granite_h_micro(void **state) {
  json_t *j = tu_eval_ok(*state, GRANITE_H_MICRO("0.5.8", "15.73GiB", ""));
  tu_gib(j, "weights_bytes", 5.98, 0.01, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 399740, 0.05, 0);
  tu_gib(j, "k_size_bytes", 1.52, 0.05, 0.005);
  tu_near_fig(j, "max_mamba_cache_size", 38, 0, 0);
  tu_gib(j, "mamba_ssm_state_bytes", 2.74, 0, 0.005);
  tu_gib(j, "mamba_conv_state_bytes", 0.03, 0, 0.005);
  tu_near_fig(j, "cuda_graph_decode_sizes", 4, 0, 0);
  json_decref(j);
}

/* The padding slot by release: before 0.5.10 (inferred) int(budget // per) slots charged alone,
** K + 1 allocated; from it one slot less, K + 1 charged (the fraction pinned: 0.5.10's piecewise
** reserve moves the default one). The computed token pool is the same;
** a given max_mamba_cache_size leaves one slot's bytes more to the token pool before. */
static void test_sglang_mamba_padding_by_release(void **state) {
  json_t *old = tu_eval_ok(*state, GRANITE_H_MICRO("0.5.9", "15.73GiB", ", mem_fraction_static = 0.769"));
  json_t *nw = tu_eval_ok(*state, GRANITE_H_MICRO("0.5.10", "15.73GiB", ", mem_fraction_static = 0.769"));
  double per = tu_runtime_fig(old, "mamba_state_bytes_per_request");
  assert_true(per == 36.0 * (64 * 64 * 128 * 4 + 4352 * 3 * 2));
  assert_true(tu_runtime_fig(old, "max_mamba_cache_size") == tu_runtime_fig(nw, "max_mamba_cache_size") + 1);
  assert_true(tu_runtime_fig(old, "kv_cache_tokens") == tu_runtime_fig(nw, "kv_cache_tokens"));
  /* the allocated state: size + 1 slots in both */
  assert_true(tu_runtime_fig(old, "mamba_ssm_state_bytes") ==
              (tu_runtime_fig(old, "max_mamba_cache_size") + 1) * 36.0 * 64 * 64 * 128 * 4);
  json_decref(old);
  json_decref(nw);
  /* a given size of 16: 16 slots charged before 0.5.10, 17 from it; 8192 B a token */
  old = tu_eval_ok(*state,
                   "return { model = 'ibm-granite/granite-4.0-h-micro', runtime = { name = 'sglang', version "
                   "= '0.5.9', max_mamba_cache_size = 16, mem_fraction_static = 0.8 }, workload = { kind = "
                   "'inference', context = 8192 "
                   "}, gpu = 'RTX-4090-24GB' }");
  nw = tu_eval_ok(*state,
                  "return { model = 'ibm-granite/granite-4.0-h-micro', runtime = { name = 'sglang', version "
                  "= '0.5.10', max_mamba_cache_size = 16, mem_fraction_static = 0.8 }, workload = { kind = "
                  "'inference', context = 8192 "
                  "}, gpu = 'RTX-4090-24GB' }");
  assert_true(tu_runtime_fig(old, "max_mamba_cache_size") == 16 &&
              tu_runtime_fig(nw, "max_mamba_cache_size") == 16);
  double dt = tu_runtime_fig(old, "kv_cache_tokens") - tu_runtime_fig(nw, "kv_cache_tokens");
  assert_true(fabs(dt - per / 8192.0) <= 1.0);
  json_decref(old);
  json_decref(nw);
}

/* ---- sgl-project/sglang issue #2468 (2024-12-13, SGLang of that week: run as 0.4.0.post1),
** `python -m sglang.launch_server --model-path mistralai/Mistral-7B-Instruct-v0.1` with defaults:
** "Load weight end. type=MistralForCausalLM, dtype=torch.bfloat16, avail mem=9.69 GB", "Memory pool
** end. avail mem=2.44 GB", "max_total_num_tokens=56524, max_prefill_tokens=16384,
** max_running_requests=2049, context_len=32768". The GPU is not named: a 24 GB card, run as an
** RTX 4090 (the 0.88 default fraction of ~23.2 GiB free gives the pool). Predicted before any
** change and unchanged: 56,341 tokens (-0.32 %), 2049 requests (exact); vramfit's free 23.16 GiB
** less 13.50 GiB of weights leaves 9.66 against the printed 9.69. */
static void test_holdout19_sglang_mistral_7b(void **state) {
  json_t *j = tu_eval_ok(*state,
                         "return { model = 'mistralai/Mistral-7B-Instruct-v0.1', dtype = 'bf16', runtime = { "
                         "name = 'sglang', version = '0.4.0.post1' }, workload = { kind = 'inference', "
                         "context = 32768 }, gpu = 'RTX-4090-24GB' }");
  tu_near_fig(j, "kv_cache_tokens", 56524, 0.05, 0);
  tu_near_fig(j, "max_running_requests", 2049, 0, 0);
  json_decref(j);
}

/* ---- A public Chinese deployment tutorial "02-Qwen3.5-4B SGLang 部署调用" (sglang 0.5.13.post1,
** torch 2.11.0+cu128, one RTX 4090 D 24G): `python3 -m sglang.launch_server --model-path
** Qwen/Qwen3.5-4B --mem-fraction-static 0.85 --context-length 4096`: "Load weight end ...
** type=Qwen3_5ForConditionalGeneration, avail mem=14.47 GB, mem usage=8.62 GB", "Memory pool end.
** avail mem=3.40 GB" (the pools: 11.07 GB). Shapes as test_vllm.c's QWEN35_4B_MODEL; the card as
** an RTX 4090 with the printed free memory (23.09 GiB: 23.59 less vramfit's 500 MiB context).
** Predicted before any change and unchanged: weights 8.64 GiB (+0.28 %; round 15's kvcached
** vLLM run printed 8.61), the pools 10.99 GiB (KV 5.81 + SSM 5.06 + conv 0.12; -0.7 %). */
static void test_holdout19_sglang_qwen35_4b(void **state) {
  json_t *j = tu_eval_ok(
      *state,
      "return { model = { arch = 'qwen3_5', config = { architectures = { 'Qwen3_5ForConditionalGeneration' "
      "}, "
      "model_type = 'qwen3_5', tie_word_embeddings = true, text_config = { model_type = 'qwen3_5_text', "
      "head_dim = "
      "256, hidden_size = 2560, intermediate_size = 9216, num_hidden_layers = 32, num_attention_heads = 16, "
      "num_key_value_heads = 4, vocab_size = 248320, full_attention_interval = 4, linear_conv_kernel_dim = "
      "4, "
      "linear_key_head_dim = 128, linear_num_key_heads = 16, linear_num_value_heads = 32, "
      "linear_value_head_dim = "
      "128, max_position_embeddings = 262144, mamba_ssm_dtype = 'float32', rope_parameters = { rope_theta = "
      "10000000, partial_rotary_factor = 0.25 } }, vision_config = { depth = 24, hidden_size = 1024, "
      "intermediate_size = 4096, num_heads = 16, num_position_embeddings = 2304, out_hidden_size = 2560, "
      "patch_size = 16, spatial_merge_size = 2, temporal_patch_size = 2 } } }, dtype = 'bf16', runtime = { "
      "name = "
      "'sglang', version = '0.5.13', mem_fraction_static = 0.85, context_length = 4096 }, workload = { kind "
      "= "
      "'inference', context = 4096 }, gpu = { name = 'RTX-4090-24GB', memory = '23.59GiB' } }");
  tu_gib(j, "weights_bytes", 8.62, 0.01, 0.005);
  double pools = tu_runtime_fig(j, "kv_cache_bytes") + tu_runtime_fig(j, "mamba_ssm_state_bytes") +
                 tu_runtime_fig(j, "mamba_conv_state_bytes");
  tu_assert_within(pools, 11.07 * GIB, 0.05);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout19_sglang_granite_h_micro),
      cmocka_unit_test(test_sglang_mamba_padding_by_release),
      cmocka_unit_test(test_holdout19_sglang_mistral_7b),
      cmocka_unit_test(test_holdout19_sglang_qwen35_4b),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
