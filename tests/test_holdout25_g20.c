/*
** test_holdout25_g20.c: vLLM 0.20's CUDA-graph estimate and pool on Red Hat's H200 dashboard, held-out
** round 25e (2026-12-02). Source: ashishkamra/vllm-memory-estimator test_data/validation_db.json at
** commit 8b0e21d1 (the file was moved out of the repository later), the 0.20.x starts that rounds
** 25 / 25b did not use. Every run: H200, --gpu-memory-utilization 0.9, --no-enable-prefix-caching,
** the default 8192 batched tokens and 1024 sequences. Each start was predicted through the public
** API before any change; no mechanism was changed in this round (see /work/reports/g20.md), so every
** figure below is the prediction. Tolerances as the issue states them: weights 1 %, KV pool / tokens
** / concurrency 5 %; a miss is pinned at its known error (tu_pinned: within half a point) with what
** was ruled out beside it.
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

#define H200(model, quant, ver, tp, len)                                                        \
  "return { model = '" model "', " quant "runtime = { name = 'vllm', version = '" ver           \
  "', gpu_memory_utilization = 0.9, max_model_len = " #len                                      \
  ", enable_prefix_caching = false }, "                                                         \
  "parallel = { tp = " #tp ", nvls = false }, workload = { kind = 'inference', context = " #len \
  " }, "                                                                                        \
  "gpu = 'H200-SXM-141GB' }"
#define BLOCK_FP8 "dtype = 'bf16', quant = { name = 'fp8', scheme = 'block', block_size = 128 }, "

/* ---- Two starts inside 5 % (validation_db.json records, log_memory):
**   meta-llama/Llama-3.3-70B-Instruct tp 4, v0.20.0, --max-model-len 131072: "Model loading took"
**   32.89 GiB, KV 90.66 GiB, 1,188,336 tokens, 9.07x, graph capture took 0.94 GiB;
**   Qwen/Qwen3-VL-235B-A22B-Instruct-FP8 (block FP8) tp 4, v0.20.2, 8192: 55.87, 65.48, 1,460,864,
**   178.33x, took 1.2.
** Predicted: 70B weights -0.00 %, KV 88.75 (-2.11 %), 1,163,200 (-2.12 %), 8.875x (-2.16 %);
** VL-235B weights 55.70 (-0.30 %), KV 63.82 (-2.54 %), 1,423,760 (-2.54 %), 173.80x (-2.54 %).
** The captures: 1.66 (+76 %) and 1.93 (+60 %), pinned: the host's per-layer graph cost sits below
** the llm-d H100 unit (VLLM_GRAPH_PER_MIB) on 0.18-0.20 alike (Qwen3-VL-30B 0.18.0 +46 %,
** test_holdout25_vllm.c), so this is not a 0.20 mechanism; FA3's accumulators (0.126 GiB here,
** printed by the llm-d DEBUG logs on H100) are a small part of it. Not traced. */
static void test_g20_within(void **state) {
  json_t *j = tu_eval_ok(*state, H200("meta-llama/Llama-3.3-70B-Instruct", "", "0.20.0", 4, 131072));
  tu_gib(j, "weights_bytes", 32.89, 0.01, 0.005);
  tu_gib(j, "kv_cache_bytes", 90.66, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 1188336, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 9.07, 0.05, 0.005);
  tu_pinned(j, "cuda_graph_bytes", 0.94 * TU_GIB, +0.7625);
  json_decref(j);
  j = tu_eval_ok(*state, H200("Qwen/Qwen3-VL-235B-A22B-Instruct", BLOCK_FP8, "0.20.2", 4, 8192));
  tu_gib(j, "weights_bytes", 55.87, 0.01, 0.005);
  tu_gib(j, "kv_cache_bytes", 65.48, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 1460864, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 178.33, 0.05, 0.005);
  tu_pinned(j, "cuda_graph_bytes", 1.2 * TU_GIB, +0.6039);
  json_decref(j);
}

/* ---- Qwen/Qwen3-VL-30B-A3B-Instruct bf16, one GPU (plain MoE, no shared expert):
**   v0.20.0 at --max-model-len 262144: 58.23 GiB, KV 66.76, 729,136 tokens, 2.78x, took 0.87;
**   v0.20.2 at 8192: 58.23, 66.76, 729,136, 89.01x, took 0.85.
** Predicted: weights -0.02 %; KV 62.99 (-5.65 %), 687,968 tokens (-5.65 %), 2.624x (-5.60 %) and
** 83.98x (-5.65 %); capture 1.17 (+34.5 % / +37.7 %). All pinned. What the dashboard shows: the same
** start on 0.18.0 at util 0.92 printed 67.03 (vramfit +0.05 %); 0.20 at util 0.9 prints 66.76, only
** 0.27 GiB less, where vramfit takes off the 2.80 GiB of the lower util and its 1.16 GiB graph
** estimate (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on from 0.20). The printed 0.18/0.19 -> 0.20
** change, less the util's 2.80 GiB, frees +2.53 GiB here, +1.89 for the dense 70B above (91.57 on
** 0.19.0 at 0.92) and +1.25 for R1 below (42.79): 0.20 gives back more than it subtracts for graphs,
** for dense, MoE and MLA models alike, so the miss is not in the MoE / MLA graph estimate. The part
** given back is not traced. Ruled out: the graph estimate alone (with none subtracted the pool would
** still be 2.53 GiB above what 0.18 plus the lower util gives, vramfit -3.9 %), and vramfit's own
** release terms (its 0.18/0.19 -> 0.20 change is the util's 2.80 GiB plus its estimate, within
** 0.11 GiB, for all three models). */
static void test_g20_vl30_pool(void **state) {
  json_t *j = tu_eval_ok(*state, H200("Qwen/Qwen3-VL-30B-A3B-Instruct", "", "0.20.0", 1, 262144));
  tu_gib(j, "weights_bytes", 58.23, 0.01, 0.005);
  tu_pinned(j, "kv_cache_bytes", 66.76 * TU_GIB, -0.0565);
  tu_pinned(j, "kv_cache_tokens", 729136, -0.0565);
  tu_pinned(j, "max_concurrency", 2.78, -0.0560);
  tu_pinned(j, "cuda_graph_bytes", 0.87 * TU_GIB, +0.3453);
  json_decref(j);
  j = tu_eval_ok(*state, H200("Qwen/Qwen3-VL-30B-A3B-Instruct", "", "0.20.2", 1, 8192));
  tu_pinned(j, "kv_cache_bytes", 66.76 * TU_GIB, -0.0565);
  tu_pinned(j, "max_concurrency", 89.01, -0.0565);
  tu_pinned(j, "cuda_graph_bytes", 0.85 * TU_GIB, +0.3770);
  json_decref(j);
}

/* ---- deepseek-ai/DeepSeek-R1-0528 tp 8, v0.20.0, --max-model-len 163840 (the pool is held in
** test_holdout25_vllmp.c): the capture, "took 2.28 GiB" (2.27 on 0.18.0 / 0.19.0 at 8192), newly
** held. vLLM 0.20 on Hopper takes FLASH_ATTN_MLA first for MLA (platforms/cuda.py
** _get_backend_priorities: FLASH_ATTN_MLA, FLASHMLA, FLASHINFER_MLA, TRITON_MLA off capability 10),
** whose builder supports UNIFORM_BATCH graphs: FULL_AND_PIECEWISE, 51 PIECEWISE and 51 FULL sizes at
** 1024 sequences; FA3's split accumulators at 16 heads x 512 (0.50 GiB, the DeepSeek-V2-Lite 0.19.0
** log's 522 MiB at the same 16 x 512) are the first capture. vramfit: capture 2.95 (+29.5 %), the
** estimate it subtracts 2.93. Pinned: the per-layer cost of the shared-expert MoE layers
** (VLLM_GRAPH_SHARED_MOE, 2.10 x from the llm-d H100 sweep) would have to be 1.54 x on this host,
** and the host's dense and plain-MoE captures are just as far over (above). */
static void test_g20_r1_capture(void **state) {
  json_t *j = tu_eval_ok(*state, H200("deepseek-ai/DeepSeek-R1", BLOCK_FP8, "0.20.0", 8, 163840));
  assert_int_equal((int)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 51);
  assert_int_equal((int)tu_runtime_fig(j, "cuda_graph_sizes_full"), 51);
  assert_true(fabs(tu_runtime_fig(j, "cuda_graph_attn_accum_bytes") - 32.0 * 4 * 16 * 512 * 513) < TU_MIB);
  tu_pinned(j, "cuda_graph_bytes", 2.28 * TU_GIB, +0.2948);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_g20_within),
      cmocka_unit_test(test_g20_vl30_pool),
      cmocka_unit_test(test_g20_r1_capture),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
