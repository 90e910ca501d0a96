/*
** test_holdout25_vllmp.c: the profile run of MoE / MLA models on vLLM, held-out round 25b
** (2026-12-02). Source: ashishkamra/vllm-memory-estimator test_data/validation_db.json (commit
** 8b0e21d1, 281 parsed start-up logs of Red Hat AI's benchmark dashboard; tests/test_validation_db.py
** quotes two logs verbatim). Every run: H200, --gpu-memory-utilization 0.92 (0.9 where stated),
** --no-enable-prefix-caching, the default 8192 batched tokens and 1024 sequences. None of these
** starts is in test_holdout25_vllm.c (round 25 used the 0.11.2 R1 start and the 0.11.2 Qwen3-235B
** starts). Each was predicted through the public API before any change of this round.
** Mechanisms changed (src/rt_vllm.c, scripts/runtimes/vllm.lua):
** - vLLM 0.11.0 still samples with FlashInfer where it is installed (vLLM's images): PR #26859
**   "Disable FlashInfer sampler by default" was opened 2025-10-15, after 0.11.0's release, so the
**   default sort of the whole vocabulary starts at 0.11.1 (VLLM_FI_SAMPLER_OFF);
** - in 0.11-0.16 compressed-tensors FP8 experts with per-channel weights on Hopper run CUTLASS's
**   grouped GEMM in the fused-MoE modular kernel, whose workspaces are class-level shared buffers
**   (modular_kernel.py FusedMoEModularKernel.shared_buffers) that stay allocated through the
**   sampler's dummy run (moe_cutlass_fp8).
** Tolerances as the issue states them: weights 1 %, KV pool / tokens / concurrency 5 %. A miss is
** pinned at its known error (tu_pinned(): within half a point) with what was ruled out.
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
#include "holdout_models.h"

/* DeepSeek-R1-0528 / DeepSeek-V3.2 in block FP8 at tp 8; the host has no NVLS (round 25: the same
** dashboard's tp 4 and tp 8 pools), util, max_model_len and version as given. */
#define DS(model, ver, util, len)                                                                      \
  "return { model = '" model                                                                           \
  "', dtype = 'bf16', quant = { name = 'fp8', scheme = 'block', "                                      \
  "block_size = 128 }, runtime = { name = 'vllm', version = '" ver "', gpu_memory_utilization = " util \
  ", max_model_len = " #len                                                                            \
  ", enable_prefix_caching = false }, parallel = { tp = 8, nvls = false }, "                           \
  "workload = { kind = 'inference', context = " #len " }, gpu = 'H200-SXM-141GB' }"
#define R1(ver) DS("deepseek-ai/DeepSeek-R1", ver, "0.92", 8192)
#define V32(ver) DS("deepseek-ai/DeepSeek-V3.2", ver, "0.92", 8192)

static void check(json_t *j, double w, double kv, double tokens, double conc) {
  tu_gib(j, "weights_bytes", w, 0.01, 0.00005);
  tu_gib(j, "kv_cache_bytes", kv, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", tokens, 0.05, 0);
  tu_near_fig(j, "max_concurrency", conc, 0.05, 0.005);
}

/* ---- vLLM v0.11.0 (the upstream build: "Initializing a V1 LLM engine (v0.11.0)"), three starts:
**   deepseek-ai/DeepSeek-R1-0528 tp 8: "Model loading took 79.5828 GiB", KV 46.23 GiB, 706,368
**   tokens, 86.23x, took -0.14;
**   RedHatAI/Qwen3-235B-A22B-FP8-dynamic tp 4 (+ expert parallel): 55.2032, 69.62, 1,553,136,
**   189.59x, took 1.93;
**   RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic tp 4: 16.9619, 109.09, 1,429,856, 174.54x;
** and Red Hat's own build v0.11.0+rhai2 of the 70B: 105.87, 1,387,664, 169.39x.
** Predicted before any change: R1 weights 79.55 (-0.04 %), KV 43.73 (-5.4 %), 668,160 (-5.4 %),
** 81.56x (-5.4 %); Qwen3 55.25 (+0.09 %), 67.19 (-3.5 %), 1,498,960 (-3.5 %), 182.98x (-3.5 %); 70B
** 16.96 (-0.02 %), 106.36 (-2.5 %), 1,394,080 (-2.5 %). The upstream 0.11.0 pools exceed the same
** starts' 0.11.2 pools (test_holdout25_vllm.c) by 1024 x vocabulary x 23.5 B, the sorting sampler's
** extra (70B: 2.94 GiB against 2.87; Qwen3: 3.49 against 3.40); Red Hat's 0.11.0+rhai2 build prints
** the 0.11.2 pool. After (FlashInfer's sampler the 0.11.0 default; CUTLASS's kept workspaces for the
** Qwen3 FP8 experts): R1 46.63 (+0.86 %), 712,448 (+0.86 %), 86.97x (+0.86 %); Qwen3 69.59
** (-0.04 %), 1,552,528 (-0.04 %), 189.52x (-0.04 %); 70B 109.24 (+0.13 %), 1,431,760 (+0.13 %);
** the +rhai2 build with flashinfer_sampler = false 106.36 (+0.46 %). */
#define TP4(model, quant, ver, extra)                                                              \
  "return { model = " model ", " quant "runtime = { name = 'vllm', version = '" ver                \
  "', gpu_memory_utilization = 0.92, max_model_len = 8192, enable_prefix_caching = false" extra    \
  " }, "                                                                                           \
  "parallel = { tp = 4, nvls = false }, workload = { kind = 'inference', context = 8192 }, gpu = " \
  "'H200-SXM-141GB' }"
#define Q235_FP8(ver) TP4(Q235_CFG, "quant = { name = 'fp8', scheme = 'channel' }, dtype = 'bf16', ", ver, "")
#define L70_FP8(ver, extra) TP4("'RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic'", "", ver, extra)

static void test_holdout25b_v0110_sampler(void **state) {
  json_t *j = tu_eval_ok(*state, R1("0.11.0"));
  check(j, 79.5828, 46.23, 706368, 86.23);
  double smp = tu_runtime_fig(j, "activation_peak_bytes");
  json_decref(j);
  /* the sampler, not the forward, sets R1's peak: 1024 x 129,280 x (2 + 13.4) B with FlashInfer */
  assert_true(fabs(smp - 1024.0 * 129280 * 15.4) < 0.08 * TU_GIB);
  j = tu_eval_ok(*state, Q235_FP8("0.11.0"));
  check(j, 55.2032, 69.62, 1553136, 189.59);
  json_decref(j);
  j = tu_eval_ok(*state, L70_FP8("0.11.0", ""));
  check(j, 16.9619, 109.09, 1429856, 174.54);
  json_decref(j);
  j = tu_eval_ok(*state, L70_FP8("0.11.0", ", flashinfer_sampler = false"));
  check(j, 16.9619, 105.87, 1387664, 169.39);
  json_decref(j);
  /* 0.11.1 sorts by default (PR #26859): the sorting sampler's extra, 1024 x 128,256 x 23.5 B */
  json_t *a = tu_eval_ok(*state, L70_FP8("0.11.0", "")), *b = tu_eval_ok(*state, L70_FP8("0.11.1", ""));
  tu_near_fig(b, "activation_peak_bytes", tu_runtime_fig(a, "activation_peak_bytes") + 1024.0 * 128256 * 23.5,
              0, 0.01 * TU_GIB);
  json_decref(a);
  json_decref(b);
}

/* ---- CUTLASS FP8 MoE's kept workspaces (0.11-0.16, compressed-tensors per-channel FP8, Hopper):
** CutlassExpertsFp8.workspace_shapes gives (M x topk, max(N, K)) and (M x topk, max(N / 2, K)), N = 2 I
** (the rank's 384-wide Qwen3 experts: N = 768), K = 4096: 2 x 65,536 x 4096 x 2 B = 1.00 GiB held into
** the sampler's dummy run. The 0.11.2 start of test_holdout25_vllm.c (66.13 GiB printed) moves from
** +1.6 % to +0.08 %; bf16 experts (the legacy fused_experts_impl, local caches) and block FP8 at
** R1's shape (Triton: w2's N = 256 <= 512 fails _valid_deep_gemm) keep nothing. */
static void test_cutlass_fp8_kept_workspace(void **state) {
  const double ws = 2.0 * 65536 * 4096 * 2;
  json_t *j = tu_eval_ok(*state, Q235_FP8("0.11.2"));
  tu_gib(j, "kv_cache_bytes", 66.13, 0.05, 0.005);
  tu_pinned(j, "kv_cache_bytes", 66.13 * TU_GIB, +0.0008);
  double peak = tu_runtime_fig(j, "activation_peak_bytes");
  json_decref(j);
  /* the sampler's sorting peak (1024 x 151,936 x 38.9 B) plus the kept workspaces */
  assert_true(fabs(peak - (1024.0 * 151936 * 38.9 + ws)) < 0.02 * TU_GIB);
  /* not on an Ada card (CUTLASS's FP8 MoE path is 9.0 / 10.x only), not from 0.17 (every MoE keeps
  ** its workspace there, moe_bytes) and not before 0.11 */
  j = tu_eval_ok(
      *state, "return { model = " Q235_CFG
              ", quant = { name = 'fp8', scheme = 'channel' }, dtype = 'bf16', "
              "runtime = { name = 'vllm', version = '0.11.2', gpu_memory_utilization = 0.92, max_model_len = "
              "8192 }, parallel = { tp = 8 }, workload = { kind = 'inference', context = 8192 }, gpu = "
              "'L40S-48GB' }");
  double ada = tu_runtime_fig(j, "activation_peak_bytes");
  json_decref(j);
  assert_true(ada < 1024.0 * 151936 * 38.9 + 0.3 * TU_GIB);
  /* review round 25: _is_fp8_w8a8_sm100 is _check_scheme_supported(100, match_exact=True)
  ** (compressed_tensors.py): a B200 (10.0) keeps the workspaces, a B300 (10.3) runs the legacy
  ** path and does not */
#define Q235_ON(gpu)                                                                                       \
  "return { model = " Q235_CFG                                                                             \
  ", quant = { name = 'fp8', scheme = 'channel' }, dtype = 'bf16', "                                       \
  "runtime = { name = 'vllm', version = '0.11.2', gpu_memory_utilization = 0.92, max_model_len = 8192 }, " \
  "parallel = { tp = 4 }, workload = { kind = 'inference', context = 8192 }, gpu = '" gpu "' }"
  j = tu_eval_ok(*state, Q235_ON("B200-SXM-180GB"));
  assert_true(fabs(tu_runtime_fig(j, "activation_peak_bytes") - (1024.0 * 151936 * 38.9 + ws)) <
              0.02 * TU_GIB);
  json_decref(j);
  j = tu_eval_ok(*state, Q235_ON("B300-SXM-288GB"));
  assert_true(tu_runtime_fig(j, "activation_peak_bytes") < 1024.0 * 151936 * 38.9 + 0.3 * TU_GIB);
  json_decref(j);
  /* block FP8 R1 at 0.11.2: the sampler alone */
  j = tu_eval_ok(*state, R1("0.11.2"));
  assert_true(fabs(tu_runtime_fig(j, "activation_peak_bytes") - 1024.0 * 129280 * 38.9) < 0.08 * TU_GIB);
  json_decref(j);
}

/* ---- DeepSeek-R1-0528 tp 8 on later releases (block FP8, FlashMLA 64-token pages):
**   v0.13.0: "Model loading took 79.739 GiB", KV 43.11, 658,752 tokens, 80.41x;
**   v0.14.1: 79.74, 41.43, 633,088, 77.28x;
**   v0.16.0: 79.74, 43.08, 658,176, 80.34x;
**   v0.18.0 and v0.19.0: 79.74, 42.79, 653,808, 79.81x, took 2.27;
**   v0.20.0 at --max-model-len 163840, util 0.9: 79.74, 41.24, 616,096, 3.76x, took 2.28.
** Predicted (unchanged by this round): weights 79.55 (-0.24 %); KV 43.73 on 0.13-0.16 (+1.4 %,
** +5.6 %, +1.5 %), 44.87 / 44.75 on 0.18.0 / 0.19.0 (+4.9 % / +4.6 %), 39.03 on 0.20.0 (-5.4 %;
** 596,288 tokens -3.2 %, 3.64x -3.2 %). The same model and release line print pools 1.5-1.7 GiB apart
** (0.11.2 41.60 and 0.14.1 41.43 against 0.13.0 43.11 and 0.16.0 43.08) where the dense 70B tp 4
** of the same host stays within 0.1 GiB from 0.11.2 to 0.16.0 (90.23-90.32): the size of the NVLS
** term (1.82 - 0.41 = 1.41 GiB), a host property of a full 8-GPU node, not a release mechanism;
** with parallel.nvls = true the 0.11.2 / 0.14.1 pools come to +1.7 % / +2.1 % (not asserted: the
** logs carry no NCCL lines). Ruled out by the source for R1 at tp 8 in 0.11-0.16: DeepGEMM (w2's
** N = 256 <= 512 fails _valid_deep_gemm, deep_gemm_moe.py), any kept MoE workspace (the legacy
** fused_experts_impl allocates its caches per call), the MLA prefill's up-projected K / V and the
** chunked-prefill workspace (the profile's dummy run has no attention metadata: MLACommonImpl.forward
** returns before the prefill path; the 131,072 x 576 x 2 B workspace is built with the metadata
** builders after the KV sizing). The 0.18 / 0.19 excess matches the dense 70B's on the same host
** (+1.8 % at 0.19.0, test_holdout25_vllm.c): not MoE / MLA specific. 0.20.0 subtracts vramfit's
** 2.93 GiB graph estimate where the capture took 2.28: under by 2.2 GiB, pinned. */
static void test_holdout25b_r1_releases(void **state) {
  json_t *j = tu_eval_ok(*state, R1("0.13.0"));
  check(j, 79.739, 43.11, 658752, 80.41);
  json_decref(j);
  j = tu_eval_ok(*state, R1("0.16.0"));
  check(j, 79.74, 43.08, 658176, 80.34);
  json_decref(j);
  j = tu_eval_ok(*state, R1("0.14.1"));
  tu_gib(j, "weights_bytes", 79.74, 0.01, 0.005);
  tu_pinned(j, "kv_cache_bytes", 41.43 * TU_GIB, +0.0555);
  tu_pinned(j, "kv_cache_tokens", 633088, +0.0554);
  tu_pinned(j, "max_concurrency", 77.28, +0.0554);
  json_decref(j);
  j = tu_eval_ok(*state, R1("0.18.0"));
  check(j, 79.74, 42.79, 653808, 79.81);
  tu_pinned(j, "kv_cache_bytes", 42.79 * TU_GIB, +0.0486);
  json_decref(j);
  j = tu_eval_ok(*state, R1("0.19.0"));
  check(j, 79.74, 42.79, 653808, 79.81);
  tu_pinned(j, "kv_cache_bytes", 42.79 * TU_GIB, +0.0458);
  json_decref(j);
  j = tu_eval_ok(*state, DS("deepseek-ai/DeepSeek-R1", "0.20.0", "0.9", 163840));
  tu_gib(j, "weights_bytes", 79.74, 0.01, 0.005);
  tu_pinned(j, "kv_cache_bytes", 41.24 * TU_GIB, -0.0537);
  tu_near_fig(j, "kv_cache_tokens", 616096, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 3.76, 0.05, 0.005);
  json_decref(j);
}

/* ---- deepseek-ai/DeepSeek-V3.2 tp 8 (sparse MLA, FLASHMLA_SPARSE 64-token pages, the indexer's
** keys):
**   v0.16.0: "Model loading took 80.62 GiB", KV 42.19, 578,368 tokens, 70.6x, took -1.22;
**   v0.18.0 and v0.19.0: 80.76, 41.76, 572,480, 69.88x, took 1.62.
** Predicted (unchanged by this round): weights 80.34 (-0.34 % / -0.52 %); KV 42.94 (+1.8 %), 588,608
** (+1.8 %), 71.85x (+1.8 %) on 0.16.0; 44.08 (+5.5 %), 604,224 (+5.5 %), 73.76x (+5.6 %) on 0.18.0,
** 43.96 (+5.3 %) on 0.19.0: pinned, the same 0.18 excess as R1's and the dense 70B's above. The
** 0.16.0 -> 0.18.0 weights grow by 0.14 GiB in the print (not traced). */
static void test_holdout25b_v32(void **state) {
  json_t *j = tu_eval_ok(*state, V32("0.16.0"));
  check(j, 80.62, 42.19, 578368, 70.6);
  json_decref(j);
  j = tu_eval_ok(*state, V32("0.18.0"));
  tu_gib(j, "weights_bytes", 80.76, 0.01, 0.005);
  tu_pinned(j, "kv_cache_bytes", 41.76 * TU_GIB, +0.0555);
  tu_pinned(j, "kv_cache_tokens", 572480, +0.0554);
  tu_pinned(j, "max_concurrency", 69.88, +0.0555);
  json_decref(j);
  j = tu_eval_ok(*state, V32("0.19.0"));
  tu_pinned(j, "kv_cache_bytes", 41.76 * TU_GIB, +0.0526);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout25b_v0110_sampler),
      cmocka_unit_test(test_cutlass_fp8_kept_workspace),
      cmocka_unit_test(test_holdout25b_r1_releases),
      cmocka_unit_test(test_holdout25b_v32),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
