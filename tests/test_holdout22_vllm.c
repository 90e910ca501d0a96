/*
** test_holdout22_vllm.c: vLLM CUDA-graph figures held out of shared/calibration (round 22,
** 2026-12-02), predicted by vramfit through the public API before any change of the round, and
** the one mechanism the round changed (src/rt_vllm.c fi_full_first_bytes, fi_capture_bytes):
** FlashInfer's float workspace (394 MiB from 0.20) and its decode wrappers' 8 MiB int workspaces in
** vLLM's CUDA-graph estimate (profile_cudagraph_memory, 0.20+: the FULL mode's first sample) and in
** a hybrid model's 0.20+ capture. Tolerances as the issue states them: CUDA graphs (activation-like
** figures) 25 %, KV capacity 5 %, GiB figures with half the printed precision. A miss is pinned at
** its known error (tu_pinned(): within half a point) with what was ruled out, so a change that
** moves it is seen.
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

#define MIB_D 1048576.0

/* ---- noonghunna/club-3090 PR #44 ("Add dual4 TP=4 baseline for 4x RTX 3090", merged; the log in
** its thread, 2026-05-03): the repository's docker-compose.dual4.yml at abce88f8 (vllm/vllm-openai
** nightly-7a1eb8ac, a 0.21 development build: its 0.21-era sibling logs print "CUDA graph memory
** profiling is enabled (default since v0.21.0)"), qwen3.6-27b-autoround-int4 --quantization
** auto_round --dtype float16 --tensor-parallel-size 4 --disable-custom-all-reduce --max-model-len
** 262144 --gpu-memory-utilization 0.92 --max-num-seqs 4 --max-num-batched-tokens 8192
** --kv-cache-dtype fp8_e5m2 --enable-prefix-caching, MTP 3: "CUDAGraphMode.FULL_AND_PIECEWISE is not
** supported with spec-decode for attention backend FlashInferBackend ... setting
** cudagraph_mode=PIECEWISE", "Profiling CUDA graph memory: PIECEWISE=7 (largest=32)", "Estimated
** CUDA graph memory: 0.17 GiB total" on each of the four ranks.
** Predicted before any change (and unchanged: no FULL graphs, so no FlashInfer workspace in any
** sample): 7 PIECEWISE sizes exactly, 0 FULL; estimate 0.263 GiB (+54.9 %), pinned. Split: the first
** capture's 95 MiB one-time part + 32 tokens' MLP (0.8 MiB), 6 further sizes x 64 layers x 0.194 MiB
** (74.5 MiB), and the NCCL term over the 7 sizes (custom all-reduce off on PCIe 3090s: 99 MiB,
** est_graph_nccl_bytes). Either the NCCL term or the one-time part is not in vLLM's estimate on
** these rigs: without the NCCL term 0.166 (-2 %), without the one-time part 0.170 (0 %); club-3090
** #104 (tp 2, 5 sizes, test_vllm.c test_spec_capture_sizes, +62 %) reads +8 % and -9 % the same two
** ways, #356 below likewise, so the three logs do not tell them apart (both scale with the sizes:
** 14 MiB a size of NCCL against one 95 MiB block, and 7 vs 5 sizes is too narrow a span). Against
** the first reading: the round-6 hold-out Qwen2.5-72B tp 4 on 4 x L40S (0.19.0, custom all-reduce
** off, 51 + 35 sizes; test_vllm.c test_graph_nccl_holdout6) printed an estimate of 2.73 GiB, 2.87
** here with the NCCL term and 1.75 without, so vLLM's estimate does measure NCCL's graphs there.
** Why these 3090 rigs would lack the one-time part (or hold a smaller NCCL cost, the README's
** driver-dependent term) is not traced. Not changed on that account.
** The same configuration, held out beside it: club-3090 issue #127 ("6x 3090 VFIO-passthrough (TP=4,
** 250W cap)", 2026-05-14), the multi4 compose at 5882bbef (nightly-1acd67a7, the same flags):
** "Estimated CUDA graph memory: 0.17 GiB total", "Available KV cache memory: 15.72 GiB" ("0.9200 is
** equivalent to ... 0.9129"). Predicted before any change (and unchanged): the estimate as above,
** KV 15.07 GiB a rank (-4.1 %), within 5 %. */
#define PR44                                                                                                 \
  "return { model = 'Qwen/Qwen3.6-27B', quant = 'gptq', dtype = 'fp16', runtime = { name = 'vllm', version " \
  "= "                                                                                                       \
  "'0.21.0', gpu_memory_utilization = 0.92, kv_cache_dtype = 'fp8_e5m2', max_model_len = 262144, "           \
  "max_num_seqs = 4, max_num_batched_tokens = 8192, enable_prefix_caching = true, "                          \
  "disable_custom_all_reduce = true, speculative = { method = 'mtp', num_speculative_tokens = 3 } }, "       \
  "parallel = { tp = 4 }, workload = { kind = 'inference', context = 262144 }, gpu = 'RTX-3090-24GB' }"

static void test_holdout22_club3090_pr44_tp4(void **state) {
  json_t *j = tu_eval_ok(*state, PR44);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 7);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_full"), 0);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_nccl_sizes"), 7);
  /* round 23 (src/rt_vllm.c cuda_graph_estimate): a 0.20+ run without FULL graphs takes no one-time
  ** part in its estimate; 0.263 (+54.9 %, pinned) -> 0.1705 (+0.3 %), held at 25 % */
  tu_gib(j, "cuda_graph_estimate_bytes", 0.17, 0.25, 0.005);
  tu_gib(j, "kv_cache_bytes", 15.72, 0.05, 0.005); /* issue #127 */
  json_decref(j);
}

/* ---- noonghunna/club-3090 issue #356 ("2x 3090 on X99 + 2x 2680v4 using vllm/dual", 2026-06-09):
** "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): ... 5/5", "Graph capturing finished in
** 2 secs, took 0.10 GiB", "CUDA graph pool memory: 0.1 GiB (actual), 0.13 GiB (estimated),
** difference: 0.04 GiB (38.0%)" on both ranks. The slug's compose at 74b30abf (2026-06-08,
** models/qwen3.6-27b/vllm/compose/dual/autoround-int4/fp8-mtp.yml, the dual default; the slug is
** assumed from the title): vllm/vllm-openai:v0.22.0, qwen3.6-27b-autoround-int4 float16, tp 2,
** custom all-reduce off, 262,144 tokens, 2 sequences, 8,192 batched tokens, fp8_e5m2 KV, prefix
** caching, MTP 3 (PIECEWISE only on FlashInfer, as #104 prints it).
** Predicted before any change (and unchanged): 5 PIECEWISE sizes exactly; capture 0.119 GiB (+18.6 %:
** 4 x 64 x 0.194 MiB + the NCCL term over 5 sizes, 70 MiB; without that term it would be 0.05,
** -50 %, so the capture does hold NCCL's graphs); estimate 0.211 (+62.6 %, as #104's identical
** configuration), pinned: the one-time part or the NCCL term, as for PR #44 above. */
#define I356                                                                                                 \
  "return { model = 'Qwen/Qwen3.6-27B', quant = 'gptq', dtype = 'fp16', runtime = { name = 'vllm', version " \
  "= "                                                                                                       \
  "'0.22.0', gpu_memory_utilization = 0.92, kv_cache_dtype = 'fp8_e5m2', max_model_len = 262144, "           \
  "max_num_seqs = 2, max_num_batched_tokens = 8192, enable_prefix_caching = true, "                          \
  "disable_custom_all_reduce = true, speculative = { method = 'mtp', num_speculative_tokens = 3 } }, "       \
  "parallel = { tp = 2 }, workload = { kind = 'inference', context = 262144 }, gpu = 'RTX-3090-24GB' }"

static void test_holdout22_club3090_356_dual(void **state) {
  json_t *j = tu_eval_ok(*state, I356);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 5);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_full"), 0);
  tu_gib(j, "cuda_graph_bytes", 0.10, 0.25, 0.005);
  /* round 23: no one-time part in a PIECEWISE-only 0.20+ estimate; 0.211 (+62.6 %, pinned) ->
  ** 0.119 (-8.8 %), held at 25 % */
  tu_gib(j, "cuda_graph_estimate_bytes", 0.13, 0.25, 0.005);
  json_decref(j);
}

/* ---- LMCache/LMCache issue #3430 ("CPU offloading quickstart claims 24GB GPU is sufficient ...",
** 2026-05-28): the quickstart's cpu_offload.py (vllm.LLM, so 8,192 batched tokens; README: "give
** max_num_batched_tokens for an offline run") on an RTX A5000 (24 GB, GA102 like the RTX 3090, which
** stands in: the A5000 is not in the catalog; the log's advisory puts vLLM's total at 0.52 /
** (0.9764 - 0.9543) = 23.3-23.8 GiB, the 3090's 23.58 within it), vLLM 0.21.0, Qwen/Qwen3-8B bf16,
** 16,384 tokens: "Profiling CUDA graph memory: PIECEWISE=51 (largest=512), FULL=35 (largest=256)",
** "Estimated CUDA graph memory: 0.52 GiB total", "Available KV cache memory: 6.37 GiB", "GPU KV cache
** size: 46,368 tokens", "Maximum concurrency for 16,384 tokens per request: 2.83x" ("--gpu-memory-
** utilization=0.9764 is equivalent to --gpu-memory-utilization=0.9543").
** Predicted before any change (and unchanged: FlashAttention 2, no FlashInfer): 51 / 35 sizes
** exactly; estimate 0.701 GiB (+34.8 %), pinned; KV 6.05 GiB (-4.95 %), 44,080 tokens (-4.93 %),
** 2.69x (-4.93 %), within 5 %, the estimate's excess (0.18 GiB) being most of the KV's shortfall.
** Split of the estimate: 512 x 3 x 12,288 x 2 B (36 MiB) + 95 MiB first, 84 further sizes x 36
** layers x 0.194 MiB (587 MiB). The printed figure is 0.133 MiB a layer and size beyond that first
** capture: the per-size unit is the 26 H100 runs' median (0.16-0.25), and this Ampere run sits under
** their range, as granite-4.0-micro's L40S run (+22 %) and the Qwen2.5-7B L40S 0.22 run (0.176) sit
** low; no per-GPU unit is adopted from one run. Not modelled: the LMCache connector's own GPU
** buffers (the KV figures would fall with them). */
#define LMC3430                                                                                          \
  "return { model = 'Qwen/Qwen3-8B', runtime = { name = 'vllm', version = '0.21.0', "                    \
  "gpu_memory_utilization = 0.9764, max_model_len = 16384, max_num_batched_tokens = 8192 }, workload = " \
  "{ kind = 'inference', context = 16384 }, gpu = 'RTX-3090-24GB' }"

static void test_holdout22_lmcache_3430_a5000(void **state) {
  json_t *j = tu_eval_ok(*state, LMC3430);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 51);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_full"), 35);
  tu_pinned(j, "cuda_graph_estimate_bytes", 0.52 * TU_GIB, +0.3478);
  tu_gib(j, "kv_cache_bytes", 6.37, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 46368, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 2.83, 0.05, 0.005);
  json_decref(j);
}

/* ---- The mechanism (src/rt_vllm.c fi_full_first_bytes): vLLM 0.20+ profile_cudagraph_memory
** (vllm/v1/worker/gpu_model_runner.py) samples each mode's first two captures, the FULL mode's
** warm-up with force_attention, so a FlashInfer builder of the minimal profiling KV cache allocates
** its float workspace (FlashInferMetadataBuilder._get_workspace_buffer, torch.zeros of
** VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE, 394 MiB) and the first FULL size's decode wrapper (8 MiB
** int workspace) inside the FULL mode's first sample; the estimate is max(first samples) + second
** samples x (sizes - 1), each further FULL sample one more wrapper. Figures already in the tests,
** whose graph figures were not held before:
** - club-3090 issue #652 (test_vllm.c test_holdout12_vllm: 0.24.0, RTX 5090, Qwen3.6-35B-A3B NVFP4,
**   fp8 KV, 1 sequence): "Profiling CUDA graph memory: PIECEWISE=2 (largest=2), FULL=1 (largest=1)",
**   "Estimated CUDA graph memory: 0.41 GiB total": 0.109 (-73.4 %) before, 0.408 (-0.4 %) after.
** - the v0.20.0-cu130 docker-compose log (test_vllm.c test_v020_hybrid_tokens, RTX 5090, RedHatAI
**   Qwen3.6-35B-A3B-NVFP4, fp8 KV, 1 sequence, --max-cudagraph-capture-size 1: one size a mode, the
**   knob this round adds, runtime.max_cudagraph_capture_size): "Estimated CUDA graph memory: 0.36
**   GiB": 0.109 (-69.7 %, two PIECEWISE sizes without the knob) before, 0.393 (+9.0 %: the FULL
**   sample alone, 402 MiB) after, held at 25 %; its capture, 0.73 GiB as round 21's reading of the
**   same log gives it (vllm21 report), 0.032 before, 0.409 (-44.0 %) after: pinned (the other 0.32
**   GiB of that one-size capture is not traced; the 394 MiB would have to be there twice, and one
**   builder holds one workspace).
** Where it does not apply: PIECEWISE-only runs (speculative decoding on FlashInfer: PR #44 above),
** releases before 0.20 (the graphs were estimated after the KV sizing, where kernel_warmup had
** allocated the workspace for a dense model and the capture holds it for a hybrid one). */
#define Q35(ver, extra)                                                                                  \
  "return { model = 'Qwen/Qwen3.5-35B-A3B', quant = 'nvfp4', runtime = { name = 'vllm', version = '" ver \
  "', kv_cache_memory_bytes = 6453188362, kv_cache_dtype = 'fp8', max_model_len = 131072, "              \
  "max_num_seqs = 1, max_num_batched_tokens = 8192, enable_prefix_caching = true" extra                  \
  " }, workload = { kind = 'inference', context = 131072 }, gpu = 'RTX-5090-32GB' }"

static void test_fi_workspace_in_full_first_sample(void **state) {
  json_t *j = tu_eval_ok(*state, Q35("0.24.0", ""));
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 2);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_full"), 1);
  tu_gib(j, "cuda_graph_estimate_bytes", 0.41, 0.25, 0.005);
  /* the FULL sample (394 + 8 MiB) over the PIECEWISE one (95 MiB and 2 tokens' MLP), plus one
  ** more PIECEWISE size's graphs (VLLM_GRAPH_SHARED_MOE x 0.194 MiB x 40 layers: 16.3 MiB) */
  tu_near_fig(j, "cuda_graph_estimate_bytes", (394 + 8) * MIB_D + 2.10 * 0.194 * 40 * MIB_D, 0, 2);
  json_decref(j);
  /* the v0.20.0 compose log */
  j = tu_eval_ok(
      *state,
      "return { model = 'Qwen/Qwen3.5-35B-A3B', runtime = { name = 'vllm', version = '0.20.0', "
      "gpu_memory_utilization = 0.9, max_model_len = 65536, max_num_seqs = 1, "
      "max_num_batched_tokens = 8192, kv_cache_dtype = 'fp8_e4m3', kv_cache_memory_bytes = "
      "'2.95GiB', enable_prefix_caching = true, max_cudagraph_capture_size = 1 }, workload = { "
      "kind = 'inference', context = 65536 }, gpu = { name = 'RTX-5090-32GB', memory = '31.36GiB' } }");
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 1);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_full"), 1);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_estimate_bytes"), (394 + 8) * 1048576LL);
  tu_gib(j, "cuda_graph_estimate_bytes", 0.36, 0.25, 0.005);
  tu_pinned(j, "cuda_graph_bytes", 0.73 * TU_GIB, -0.4404);
  json_decref(j);
  /* speculative decoding on FlashInfer: PIECEWISE only, no attention metadata in any sample */
  json_t *a =
      tu_eval_ok(*state, Q35("0.24.0", ", speculative = { method = 'mtp', num_speculative_tokens = 2 }"));
  assert_int_equal((long long)tu_runtime_fig(a, "cuda_graph_sizes_full"), 0);
  assert_true(tu_runtime_fig(a, "cuda_graph_estimate_bytes") < 200 * MIB_D);
  json_decref(a);
  /* before 0.20 no estimate is subtracted and the FULL sample is not modelled: the same figure with
  ** an fp8 (FlashInfer) and a bf16 (FlashAttention) cache for a dense model */
  static const char *dense =
      "return { model = 'Qwen/Qwen3-8B', runtime = { name = 'vllm', version = '%s', "
      "kv_cache_dtype = '%s', max_model_len = 16384, max_num_seqs = 8 }, workload = { "
      "kind = 'inference', context = 16384 }, gpu = 'RTX-3090-24GB' }";
  json_t *f19 = tu_eval_okf(*state, dense, "0.19.0", "fp8"),
         *b19 = tu_eval_okf(*state, dense, "0.19.0", "auto");
  assert_int_equal((long long)tu_runtime_fig(f19, "cuda_graph_estimate_bytes"),
                   (long long)tu_runtime_fig(b19, "cuda_graph_estimate_bytes"));
  /* from 0.20 the dense FlashInfer run's estimate holds the workspace, its capture not (kernel_warmup
  ** allocated it after the KV sizing, before the capture: all attention groups are FlashInfer) */
  json_t *f22 = tu_eval_okf(*state, dense, "0.22.0", "fp8"),
         *b22 = tu_eval_okf(*state, dense, "0.22.0", "auto");
  assert_int_equal((long long)tu_runtime_fig(f22, "cuda_graph_bytes"),
                   (long long)tu_runtime_fig(b22, "cuda_graph_bytes"));
  double full = tu_runtime_fig(f22, "cuda_graph_sizes_full");
  assert_int_equal((long long)full, 4);
  assert_true(tu_runtime_fig(f22, "cuda_graph_estimate_bytes") >
              tu_runtime_fig(b22, "cuda_graph_estimate_bytes"));
  /* the larger first sample (the workspace's) plus three more wrappers */
  assert_true(tu_runtime_fig(f22, "cuda_graph_estimate_bytes") >= (394 + 8 + 3 * 8) * MIB_D);
  json_decref(f19);
  json_decref(b19);
  json_decref(f22);
  json_decref(b22);
}

/* --max-cudagraph-capture-size replaces the default maximum (src/rt_vllm.c capture_sizes_upto): at 64
** the list is [1, 2, 4] + range(8, 65, 8), 11 sizes a mode, where an H100's default 1,024 sequences
** take 512 (51 a mode); it overrides gpt-oss's own 1024 (83) too. */
static void test_max_cudagraph_capture_size_knob(void **state) {
  static const char *fmt =
      "return { model = '%s', runtime = { name = 'vllm', version = '0.22.0'%s }, workload = { "
      "kind = 'inference', context = 4096 }, gpu = 'H100' }";
  static const struct {
    const char *model, *extra;
    long long pw, full;
  } rows[] = {{"meta-llama/Llama-3.1-8B-Instruct", "", 51, 51},
              {"meta-llama/Llama-3.1-8B-Instruct", ", max_cudagraph_capture_size = 64", 11, 11},
              {"openai/gpt-oss-20b", "", 83, 83},
              {"openai/gpt-oss-20b", ", max_cudagraph_capture_size = 64", 11, 11}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j = tu_eval_okf(*state, fmt, rows[i].model, rows[i].extra);
    assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), rows[i].pw);
    assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_full"), rows[i].full);
    json_decref(j);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout22_club3090_pr44_tp4),
      cmocka_unit_test(test_holdout22_club3090_356_dual),
      cmocka_unit_test(test_holdout22_lmcache_3430_a5000),
      cmocka_unit_test(test_fi_workspace_in_full_first_sample),
      cmocka_unit_test(test_max_cudagraph_capture_size_knob),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
