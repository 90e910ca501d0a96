/*
** test_holdout21_vllm.c: vLLM startup figures held out of shared/calibration (round 21,
** 2026-12-02), predicted by vramfit through the public API before any change of the round, and
** the three things the round changed: the RTX 3090 Ti's device total (scripts/gpus.lua, measured:
** nvidia-smi's 24,564 MiB, the RTX 4090's), Gemma 4's rotary caches (architectures/gemma4.lua:
** the full layers' proportional RoPE caches the whole global head) and plain AWQ's dequantized
** weight in the profile run (src/rt_vllm.c forward_bytes). Tolerances as the issue
** states them: weights 1 %, KV capacity 5 %, CUDA graphs 25 %, GiB figures with half the printed
** precision. A miss is pinned at its known error (tu_pinned(): within half a point), so a change
** that moves it is seen. Where a log's GPU is not in the catalog (DGX Spark's GB10, unified
** memory), only the figures that do not depend on the device total are held: the pool is pinned
** at the printed "Available KV cache memory" and the tokens and concurrency are its pages.
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

/* ---- google/gemma-4-E4B-it (bf16) on one RTX 3090 Ti, vLLM 0.22.1 (vllm/vllm-openai:latest,
** "version 0.22.1"), --max-model-len 32768 --gpu-memory-utilization 0.90, all else default (2,048
** batched tokens, TRITON_ATTN forced by the heterogeneous head dims, 51 PIECEWISE + 35 FULL
** graphs): Justus Perlwitz's public "Helium-cuda set up" notes (GPL-3.0, run of 2026-06-07):
** "Model loading took 15.18 GiB", "Estimated CUDA graph memory: 0.79 GiB total", "Available KV
** cache memory: 4.1 GiB", "GPU KV cache size: 224,353 tokens", "Maximum concurrency for 32,768
** tokens per request: 6.85x", "Graph capturing finished ... took 0.71 GiB"; "--gpu-memory-
** utilization=0.9000 is equivalent to ... 0.8667 without CUDA graph memory profiling"; the same
** notes' nvidia-smi: "0MiB /  24564MiB".
** Predicted before any change: weights 14.94 (-1.6 %), graph estimate 0.790 (0 %), capture 0.706
** (-0.6 %), KV 4.66 (+13.7 %), 255,024 tokens (+13.7 %), 7.78x (+13.6 %). The request was right
** (4.66 / 7.78 = 0.599 GiB, 4.1 / 6.85 = 0.599): the pool was 0.56 GiB too large. Two causes,
** both changed: the catalog held the 3090 Ti at its nominal 24 GiB, where the log's own advisory
** puts vLLM's total at 0.79 / (0.9000 - 0.8667) = 23.54-23.91 GiB and its nvidia-smi shows the
** RTX 4090's 24,564 MiB, whose torch total is 25,393,692,672 B (23.65 GiB): 0.9 x 0.35 = 0.315 GiB
** of pool; and Gemma 4's full-attention RoPE (vllm rotary_embedding/gemma4_rope.py
** Gemma4RotaryEmbedding) caches all 512 dims of the global head, not 256: 131,072 x 256 x 2 B =
** 64 MiB more weights. After: weights 15.00 (-1.2 %), KV 4.28 (+4.5 %), 234,345 tokens (+4.5 %),
** 7.15x (+4.4 %). The activation and non-torch memory then match what the log implies (0.9 x 23.65
** - 15.18 - 0.79 - 4.1 = 1.215 GiB; 0.9625 + 0.25 here). Left: 0.18 GiB of weights (pinned at
** -1.2 %). Ruled out: the vocabulary (262,144, a multiple of 64: no padding), an untied head
** (tie_word_embeddings), the double-wide MLP (use_double_wide_mlp false for the E4B: gemma4.py
** doubles only then), the rotary caches (now as gemma4_rope.py builds them); the audio and vision
** towers are in the count in bf16. The checkpoint on disk is 14.89 GiB ("Checkpoint size"), vLLM's
** load 0.29 above it. Not traced: where the 0.18 GiB sits (the towers' loading in 0.22 not read). */
#define E4B(extra)                                                                            \
  "return { model = 'google/gemma-4-E4B-it', runtime = { name = 'vllm', version = '0.22.1', " \
  "gpu_memory_utilization = 0.9, max_model_len = 32768" extra                                 \
  " }, workload = { kind = 'inference', "                                                     \
  "context = 32768 }, gpu = 'RTX-3090Ti-24GB' }"

static void test_holdout21_gemma4_e4b_3090ti(void **state) {
  json_t *j = tu_eval_ok(*state, E4B(""));
  tu_pinned(j, "weights_bytes", 15.18 * TU_GIB, -0.0120);
  tu_gib(j, "cuda_graph_estimate_bytes", 0.79, 0.25, 0.005);
  tu_gib(j, "cuda_graph_bytes", 0.71, 0.25, 0.005);
  tu_gib(j, "kv_cache_bytes", 4.1, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 224353, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 6.85, 0.05, 0.005);
  assert_int_equal(tu_int(j, "devices.0.memory_bytes"), 25393692672LL);
  json_decref(j);
  /* the request to the page: with the pool pinned at the printed 4.1 GiB, 6.85x within 1 % */
  j = tu_eval_ok(*state, E4B(", kv_cache_memory_bytes = '4.1GiB'"));
  tu_near_fig(j, "max_concurrency", 6.85, 0.01, 0.005);
  json_decref(j);
}

/* Gemma 4's two rotary caches, exactly: the sliding layers' 131,072 x 256 and the full layers'
** 131,072 x 512 (Gemma4RotaryEmbedding passes rotary_dim = head_size to RotaryEmbedding and
** zero-pads the non-rotated angles' inv_freq), in bf16: 64 MiB over the two 256-wide caches the
** description held before (16,037,557,696 B of weights then). */
static void test_gemma4_rope_spans_global_head(void **state) {
  json_t *j = tu_eval_ok(*state, E4B(""));
  assert_int_equal((long long)tu_runtime_fig(j, "weights_bytes"), 16037557696LL + 131072LL * (512 - 256) * 2);
  json_decref(j);
}

/* ---- nvidia/Qwen3.6-27B-NVFP4 on a DGX Spark (GB10, 128 GB unified memory), vLLM nightly
** 0.23.1rc1.dev531 (modelopt_mixed: NVFP4 on Marlin, "Your GPU does not have native support for
** FP4"), --gpu-memory-utilization 0.70 --max-model-len 262144 --max-num-seqs 8
** --max-num-batched-tokens 65536 --kv-cache-dtype fp8 --enable-prefix-caching: a public notes file
** "Qwen3.6-27B-NVFP4 - First Startup Log (No MTP)" (2026-07-02): "Model loading took 19.78 GiB",
** "Setting attention block size to 1568 tokens", "Profiling CUDA graph memory: PIECEWISE=5
** (largest=16), FULL=4 (largest=8)", "Estimated CUDA graph memory: 0.61 GiB total", "Available KV
** cache memory: 47.84 GiB", "GPU KV cache size: 1,505,068 tokens", "Maximum concurrency for 262,144
** tokens per request: 5.74x", "Graph capturing finished ... took 0.62 GiB". GB10 is not in the
** catalog; the RTX PRO 6000 Blackwell stands in (SM12x: FlashInfer attention for the fp8 cache),
** with the Qwen3.6-27B preset in bf16 (the pool pinned, its weights do not enter). Predicted
** before any change and unchanged: 1,505,068 tokens and 5.74x exactly (999 pages of 1568 in the
** prefix-caching "align" mode). Graphs: estimate 0.18 (-70.6 %), capture 0.10 (-84.1 %), pinned
** in round 21; round 22 models the workspace below at the FULL mode's first sample (the estimate
** takes the larger first sample, not the sum) and in the 0.20+ capture: 0.50 / 0.515, held at 25 %.
** Round 21's reading (0.43 GiB of the estimate not modelled). A candidate, not adopted then: FlashInfer's
** workspace
** (VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE: 413,138,944 B = 394 MiB by 0.19.1rc1.dev231, vllm
** issue #40023's overflow message) and 8 MiB a FULL size, which src/rt_vllm.c fi_capture_bytes
** charges to hybrid captures up to 0.19: 394 + 4 x 8 MiB would bring the estimate to 0.60
** (-2 %) and the capture to 0.52 (-17 %). It fails the other log of the kind: the v0.20.0 RTX
** 5090 run of test_vllm.c (Qwen3.6-35B-A3B NVFP4 on FlashInfer, max_num_seqs 1) prints an
** estimate of 0.36 where vramfit's 0.11 plus the workspace would be 0.50, and a capture of 0.73
** against 0.43; where vLLM's 0.20+ profile_cudagraph_memory (captures before the KV sizing,
** over a minimal KV cache of min(max_num_reqs, largest capture size) blocks: 8 x 49 MiB here,
** not counted in its per-capture samples) leaves the lazily built workspace is not read, and a
** unified-memory device's free-memory deltas may not be a discrete GPU's. */
#define Q36(extra)                                                                               \
  "return { model = 'Qwen/Qwen3.6-27B', runtime = { name = 'vllm', version = '0.23.1', "         \
  "kv_cache_memory_bytes "                                                                       \
  "= '47.84GiB', kv_cache_dtype = 'fp8', gpu_memory_utilization = 0.7, max_model_len = 262144, " \
  "max_num_seqs = 8, max_num_batched_tokens = 65536, enable_prefix_caching = true" extra         \
  " }, workload = { kind = 'inference', context = 262144 }, gpu = 'RTX-PRO-6000-Blackwell-96GB' }"

static void test_holdout21_qwen36_27b_nvfp4_spark(void **state) {
  json_t *j = tu_eval_ok(*state, Q36(""));
  assert_int_equal((long long)tu_runtime_fig(j, "block_size"), 1568);
  assert_int_equal((long long)tu_runtime_fig(j, "kv_cache_tokens"), 1505068);
  tu_near_fig(j, "max_concurrency", 5.74, 0.05, 0.005);
  /* round 22 (rt_vllm.c fi_full_first_bytes, fi_capture_bytes): the FULL mode's first sample holds
  ** FlashInfer's 394 MiB float workspace and a decode wrapper's 8 MiB, the capture the workspace and
  ** 4 x 8 MiB: estimate 0.18 -> 0.50 (-17.9 %), capture 0.10 -> 0.515 (-16.9 %), at the 25 % */
  tu_gib(j, "cuda_graph_estimate_bytes", 0.61, 0.25, 0.005);
  tu_gib(j, "cuda_graph_bytes", 0.62, 0.25, 0.005);
  json_decref(j);
}

/* ---- noonghunna/club-3090 PR #594 (merged; "feat: switch dual-max KV from int8_per_token_head to
** fp8"): qwen3.6-27b-fp8 (block FP8) at tp 2 on 2 x RTX 3090, --quantization fp8 --kv-cache-dtype
** fp8 --max-model-len 262144 --max-num-seqs 2 --max-num-batched-tokens 8192 --enable-prefix-caching
** --disable-custom-all-reduce, MTP 3 as the repository's dual compose runs it (the PR's printed
** args end at "specula..."), 0.24.0 assumed from the source lines (kv_cache_utils.py:2146, as its
** #652): "Available KV cache memory: 5.33 GiB", "GPU KV cache size: 300,220 tokens", "Maximum
** concurrency for 262,144 tokens per request: 1.15x". The utilization is not printed: the pool is
** pinned at 5.33 GiB. Predicted before any change and unchanged: 205 pages of 1600 tokens, 300,220
** tokens exactly, 1.15x. */
static void test_holdout21_club3090_pr594(void **state) {
  json_t *j = tu_eval_ok(
      *state,
      "return { model = 'Qwen/Qwen3.6-27B', quant = 'fp8', runtime = { name = 'vllm', version = '0.24.0', "
      "kv_cache_memory_bytes = '5.33GiB', kv_cache_dtype = 'fp8', max_model_len = 262144, max_num_seqs = 2, "
      "max_num_batched_tokens = 8192, enable_prefix_caching = true, disable_custom_all_reduce = true, "
      "speculative "
      "= { method = 'mtp', num_speculative_tokens = 3 } }, parallel = { tp = 2 }, workload = { kind = "
      "'inference', context = 262144 }, gpu = 'RTX-3090-24GB' }");
  assert_int_equal((long long)tu_runtime_fig(j, "kv_cache_tokens"), 300220);
  tu_near_fig(j, "max_concurrency", 1.15, 0.05, 0.005);
  json_decref(j);
}

/* ---- Qwen/Qwen3-30B-A3B-FP8 (block FP8 [128, 128]) on a DGX Spark (GB10), NVIDIA's vLLM
** container 26.01 ("vLLM Version 0.13.0+faa43dbf"), --max-model-len 32768 --gpu-memory-
** utilization 0.3 --kv-cache-dtype fp8 --enable-prefix-caching (2,048 batched tokens as printed;
** FlashInfer attention, "Using Triton backend for FP8 MoE"): a public docker log of the guardkit
** project's vllm-graphiti service (2026-03-18): "Model loading took 29.0435 GiB", "Available KV
** cache memory: 4.04 GiB", "GPU KV cache size: 88,176 tokens", "Maximum concurrency for 32,768
** tokens per request: 2.69x", "Graph capturing finished in 6 secs, took 1.28 GiB" (51 PIECEWISE
** + 35 FULL). Predicted before any change and unchanged: weights 29.0443 (+0.003 %); with the
** pool pinned at 4.04 GiB 88,240 tokens (+0.07 %: the printed 4.04 rounds 4 pages), 2.69x;
** capture 1.03 (-19.6 %): within the graphs' 25 %, and the plain-MoE under-count the calibration
** round of CUDA graphs left open (Qwen3-30B-A3B -17 % and Mixtral -20 % in the llm-d sweep, where
** the 0.11 RTX 3090 hold-out is +8 %): one more point on the low side, no factor adopted. */
static void test_holdout21_qwen3_30b_fp8_spark(void **state) {
  json_t *j = tu_eval_ok(
      *state,
      "return { model = 'Qwen/Qwen3-30B-A3B', quant = { name = 'fp8', scheme = 'block', block_size = 128 }, "
      "runtime = { name = 'vllm', version = '0.13.0', kv_cache_memory_bytes = '4.04GiB', kv_cache_dtype = "
      "'fp8', "
      "gpu_memory_utilization = 0.3, max_model_len = 32768, max_num_batched_tokens = 2048, "
      "enable_prefix_caching "
      "= true }, workload = { kind = 'inference', context = 32768 }, gpu = 'RTX-PRO-6000-Blackwell-96GB' }");
  tu_gib(j, "weights_bytes", 29.0435, 0.01, 0.00005);
  tu_near_fig(j, "kv_cache_tokens", 88176, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 2.69, 0.05, 0.005);
  tu_gib(j, "cuda_graph_bytes", 1.28, 0.25, 0.005);
  json_decref(j);
}

/* ---- vllm-project/vllm PR #23066 ("fix: gptq marlin weight loading failure", 2025-08-17): vLLM
** 0.10.1.dev680, TheBloke's Mixtral-8x7B-v0.1-GPTQ (main branch: 4 bits, act-order, no group
** size, as the model card's branch table lists it), bf16, tp 2, max_model_len 1024, H100
** ("Using MacheteLinearKernel for GPTQMarlinLinearMethod"): "Model loading took 11.0802 GiB" on
** both ranks. Predicted before any change and unchanged: 11.0907 (+0.09 %). With group size 128
** it would read 11.50 (+3.8 %): the figure tells the branch. */
static void test_holdout21_mixtral_gptq_tp2(void **state) {
  json_t *j =
      tu_eval_ok(*state,
                 "return { model = 'mistralai/Mixtral-8x7B-v0.1', quant = { name = 'gptq', group_size = "
                 "-1, desc_act = true }, dtype = 'bf16', runtime = { name = 'vllm', version = '0.10.1', "
                 "max_model_len = 1024 }, parallel = { tp = 2 }, workload = { kind = 'inference', context "
                 "= 1024 }, gpu = 'H100-SXM-80GB' }");
  tu_gib(j, "weights_bytes", 11.0802, 0.01, 0.00005);
  json_decref(j);
}

/* ---- Qwen/Qwen2.5-7B-Instruct-AWQ on one RTX 3090, vLLM 0.22.1 (vllm/vllm-openai:v0.22.1-cu129),
** --dtype float16 --max-model-len 4096 --quantization awq --gpu-memory-utilization 0.9
** --max-num-seqs 8 ("Detected that the model can run with awq_marlin, however you specified
** quantization=awq explicitly, so forcing awq"; FlashAttention 2; 2,048 batched tokens): a public
** walkthrough "What vLLM actually does before it answers" (GitHub Actions -> Runpod, 2026-09-07):
** "Model loading took 5.29 GiB", "Profiling CUDA graph memory: PIECEWISE=5 (largest=16), FULL=4
** (largest=8)", "Estimated CUDA graph memory: 0.35 GiB", "Graph capturing finished ... took 0.33
** GiB", "Available KV cache memory: 14.43 GiB", "GPU KV cache size: 270,144 tokens", "Maximum
** concurrency for 4,096 tokens per request: 65.95x"; 0.90 "behaves like 0.885" (0.35 / 0.0148 =
** 23.6 GiB, the RTX 3090's 23.58).
** Predicted before any change: weights 5.197 (-1.8 %: the round-18 AWQ miss, here on plain AWQ
** too, so not Marlin's), graph estimate 0.13 (-62 %), capture 0.044 (-87 %), KV 15.39 (+6.6 %),
** 288,080 tokens (+6.6 %), 70.33x (+6.6 %); pinned at 14.43 GiB 270,192 tokens (+0.02 %), the
** request right. The log implies 0.9 x 23.58 - 5.29 - 0.35 - 14.43 = 1.15 GiB of activation and
** non-torch memory, 0.51 modelled: the same 0.4-0.6 GiB short as the 0.26 AWQ run of round 18.
** Changed (src/rt_vllm.c forward_bytes, awq_dequant_bytes): forced plain AWQ dequantizes each
** Linear's weight in fp16 for batches of 256 tokens or more (awq.py AWQLinearMethod.apply:
** awq_dequantize then torch.matmul), gate_up's 3,584 x 37,888 x 2 B = 0.253 GiB beside its
** input and output: the forward 0.258 -> 0.438 GiB, KV 15.21 (+5.4 %), 284,704 tokens (+5.4 %),
** 69.51x (+5.4 %), pinned. Left: about 0.46 GiB of activation / non-torch memory (not traced; the
** sampler over 8 sequences is 0.01 GiB), the weights' 0.09 GiB, and the graphs: with 9 captures
** the estimate is 0.22 GiB over vramfit's first capture + 7 further sizes, as the Qwen3.6-27B
** Spark log above at the same max_num_seqs 8 (0.43 GiB); the llm-d sweep the per-size unit was
** fitted on captured 35-86 sizes, where a larger fixed part would not show. */
#define Q25AWQ(extra)                                                                                       \
  "return { model = 'Qwen/Qwen2.5-7B-Instruct', quant = 'awq', dtype = 'fp16', runtime = { name = 'vllm', " \
  "version = '0.22.1', quantization = 'awq', gpu_memory_utilization = 0.9, max_model_len = 4096, "          \
  "max_num_seqs = 8" extra " }, workload = { kind = 'inference', context = 4096 }, gpu = 'RTX-3090-24GB' }"

static void test_holdout21_qwen25_7b_awq_plain_3090(void **state) {
  json_t *j = tu_eval_ok(*state, Q25AWQ(""));
  tu_pinned(j, "weights_bytes", 5.29 * TU_GIB, -0.0176);
  tu_pinned(j, "cuda_graph_estimate_bytes", 0.35 * TU_GIB, -0.624);
  tu_pinned(j, "cuda_graph_bytes", 0.33 * TU_GIB, -0.866);
  tu_pinned(j, "kv_cache_bytes", 14.43 * TU_GIB, +0.0537);
  tu_pinned(j, "kv_cache_tokens", 270144, +0.0539);
  tu_pinned(j, "max_concurrency", 65.95, +0.0539);
  json_decref(j);
  j = tu_eval_ok(*state, Q25AWQ(", kv_cache_memory_bytes = '14.43GiB'"));
  tu_near_fig(j, "kv_cache_tokens", 270144, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 65.95, 0.05, 0.005);
  json_decref(j);
}

/* The dequantized weight, exactly: gate_up's 3,584 x 37,888 x 2 B = 271,581,184 B beside T x (3 x
** 3,584 + 2 x 18,944) x 2 B of input and output: 470,810,624 B at 2,048 tokens, 296,484,864 at
** 256. Below 256 awq_gemm runs from the packed weight: the dense layer's T x (3 x 3,584 + 3 x
** 18,944) x 2 B (255 tokens: 34,467,840), as with awq_marlin at 2,048 (276,824,064). */
static void test_awq_plain_dequantizes(void **state) {
  static const struct {
    const char *quant, *extra;
    long long act;
  } rows[] = {{"awq", "", 470810624LL},
              {"awq", ", max_num_batched_tokens = 256", 24903680LL + 271581184LL},
              {"awq", ", max_num_batched_tokens = 255", 255LL * (3 * 3584 + 3 * 18944) * 2},
              {"awq_marlin", "", 2048LL * (3 * 3584 + 3 * 18944) * 2}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j =
        tu_eval_okf(*state,
                    "return { model = 'Qwen/Qwen2.5-7B-Instruct', quant = 'awq', dtype = 'fp16', runtime = "
                    "{ name = 'vllm', version = '0.22.1', quantization = '%s', gpu_memory_utilization = 0.9, "
                    "max_model_len = 4096, max_num_seqs = 8%s }, workload = { kind = 'inference', context = "
                    "4096 }, gpu = 'RTX-3090-24GB' }",
                    rows[i].quant, rows[i].extra);
    assert_int_equal((long long)tu_runtime_fig(j, "activation_peak_bytes"), rows[i].act);
    json_decref(j);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout21_gemma4_e4b_3090ti),
      cmocka_unit_test(test_gemma4_rope_spans_global_head),
      cmocka_unit_test(test_holdout21_qwen36_27b_nvfp4_spark),
      cmocka_unit_test(test_holdout21_club3090_pr594),
      cmocka_unit_test(test_holdout21_qwen3_30b_fp8_spark),
      cmocka_unit_test(test_holdout21_mixtral_gptq_tp2),
      cmocka_unit_test(test_holdout21_qwen25_7b_awq_plain_3090),
      cmocka_unit_test(test_awq_plain_dequantizes),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
