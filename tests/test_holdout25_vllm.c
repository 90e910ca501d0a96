/*
** test_holdout25_vllm.c: vLLM start-up figures held out of shared/calibration (round 25,
** 2026-12-02), predicted by vramfit through the public API before any change of the round, and
** the mechanisms the round changed (src/rt_vllm.c, src/estimate.c, scripts/scenario.lua):
** - gpt-oss's capture list tops at 1024 again from 0.11.2 (vllm PR #28345 reverted PR #25508's 992);
** - MLA's q_a_proj / kv_a_proj_with_mqa are whole on every tensor-parallel rank (ReplicatedLinear),
**   and a quantized kv_b_proj leaves a 16-bit copy for the absorbed decode weights (W_UK_T / W_UV);
** - parallel.nvls: whether NCCL gets NVLink-SHARP multicast on an NVSwitch board, and the 0.41 GiB
**   of communicator memory such a board keeps without it.
** Tolerances as the issue states them: weights 1 %, KV pool / tokens / concurrency 5 %, CUDA graphs
** 25 %, capture-size counts exact. A miss is pinned at its known error (tu_pinned(): within half a
** point) with what was ruled out, so a change that moves it is seen.
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

/* ---- tonghuikang/blog _posts/2025-12-28-vllm-logs.md ("How to read vLLM logs", 2025-12-28, the
** log of the Kaggle notebook huikang/streaming-inference): vLLM 0.11.2, `vllm serve` of
** openai/gpt-oss-120b with --max-model-len 98304 --gpu-memory-utilization 0.96 --max-num-seqs 6
** (8192 batched tokens, prefix caching on), one GPU: "Overriding max cuda graph capture size to
** 1024 for performance", cudagraph_capture_sizes of 83 entries, "Using AttentionBackendEnum.
** TRITON_ATTN backend", "Using Marlin backend" with "Your GPU does not have native support for FP4
** computation" (no SM100), "Model loading took 65.9651 GiB memory", "Available KV cache memory: 8.99
** GiB", "GPU KV cache size: 130,960 tokens", "Maximum concurrency for 98,304 tokens per request:
** 2.46x", "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 83/83", "(decode, FULL): 3/3",
** "Graph capturing finished in 9 secs, took 0.64 GiB". The GPU is not printed: an 80 GB Hopper (the
** H100 of Kaggle's AIMO-3 notebooks) assumed; 65.97 + 8.99 GiB and about 1.1 of profile fit 0.96 x
** 79.19.
** Predicted before any change: weights 65.93 (-0.05 %), KV 8.984 (-0.07 %), 130,832 tokens (-0.10 %),
** 2.454x (-0.26 %), sizes 81 / 3 (83 printed: 992 was the maximum for 0.11), capture 0.723 (+13 %).
** After (capture_sizes_upto: 1024 from 0.11.2, vllm PR #28345 "Revert gpt-oss max cudagraph size to
** 1024", merged 2025-11-08): 83 / 3 exactly, capture 0.738 (+15.4 %); the rest unchanged. */
#define GPT_OSS(ver)                                                                                    \
  "return { model = 'openai/gpt-oss-120b', quant = 'mxfp4', runtime = { name = 'vllm', version = '" ver \
  "', "                                                                                                 \
  "gpu_memory_utilization = 0.96, max_model_len = 98304, max_num_seqs = 6 }, workload = { kind = "      \
  "'inference', context = 98304 }, gpu = 'H100-SXM-80GB' }"

static void test_holdout25_gptoss120b_v0112(void **state) {
  json_t *j = tu_eval_ok(*state, GPT_OSS("0.11.2"));
  tu_gib(j, "weights_bytes", 65.9651, 0.01, 0.00005);
  tu_gib(j, "kv_cache_bytes", 8.99, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 130960, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 2.46, 0.05, 0.005);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 83);
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_full"), 3);
  tu_gib(j, "cuda_graph_bytes", 0.64, 0.25, 0.005);
  json_decref(j);
  /* 0.11.0 / 0.11.1 kept PR #25508's 992: 81 sizes (a 0.11.1rc2 log prints it) */
  j = tu_eval_ok(*state, GPT_OSS("0.11.0"));
  assert_int_equal((long long)tu_runtime_fig(j, "cuda_graph_sizes_piecewise"), 81);
  json_decref(j);
}

/* ---- ashishkamra/vllm-memory-estimator test_data/validation_db.json (commit 8b0e21d1, 2026-05-17:
** 281 parsed vLLM start-up logs of Red Hat AI's benchmark dashboard, each with its accelerator,
** runtime_args and the log's own lines, tests/test_validation_db.py quoting two of them verbatim).
** The 0.11.2 runs on H200 (gpu-memory-utilization 0.92, no prefix caching, 8192 tokens, the default
** 8192 batched tokens and 1024 sequences), per rank:
**   Llama-3.3-70B-Instruct tp 4: 32.8894 GiB, KV 90.23, 1,182,608 tokens, 144.36x, took -0.04;
**   RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic tp 4: 16.9619, 106.17, 1,391,552, 169.87x, -0.17;
**   Qwen/Qwen3-235B-A22B-Instruct-2507 tp 4: 109.6068, 12.73, 284,080, 34.68x, 0.42;
**   RedHatAI/Qwen3-235B-A22B-FP8-dynamic tp 4 (+ expert parallel): 55.2032, 66.13, 1,475,472,
**   180.11x, 1.40;
**   meta-llama/Llama-4-Maverick-17B-128E-Instruct tp 8: 93.7864, 26.15, 1,142,384, 139.45x, 0.17.
** Predicted before any change: weights all within 0.1 %; KV -1.2 % / -1.15 % / -10.3 % / -0.5 % /
** -3.4 %, tokens and concurrency the same. vramfit counted NCCL's NVLS buffers (1.82 GiB) on the
** NVSwitch H200; these runs have none: the same dashboard's Llama-3.3-70B tp 4 prints 90.30 GiB on
** 0.14.1 and 91.57 on 0.18.0 and 0.19.0, never 1.8 GiB less, where the llm-d v0.19.0 H100 sweep
** prints 2.07 GiB non-torch at tp 2. So it is the host (NCCL_NVLS_ENABLE, multicast), not the
** release: parallel.nvls = false says it, and such a board keeps 0.41 GiB of NCCL P2P and custom
** all-reduce memory (the llm-d-benchmark empirical H100 runs' 0.54-0.55 GiB non-torch at tp 2 on
** 0.11.0, 0.13 at tp 1). After: KV +0.22 / +0.18 / +0.8 / +1.6 / +2.0 %.
** The 0.11.x "Graph capturing finished ... took" is the drop in free memory across the capture; it is
** negative on the dense 70B runs, so memory was released during it (cached profile blocks are the
** likely source, not traced in 0.11's capture_model). vramfit's pool (1.4-2.5 GiB) stays, pinned;
** 0.18.0 and 0.19.0 print 0.96 for the same Llama-3.3-70B tp 4 start (91.57 GiB, 1,200,192 tokens,
** 146.51x): vramfit 1.66 there (51 sizes, +73 %, pinned), KV +1.8 %. */
#define RH(model, quant, tp, nvls)                                                                  \
  "return { model = " model ", " quant                                                              \
  "runtime = { name = 'vllm', version = '0.11.2', "                                                 \
  "gpu_memory_utilization = 0.92, max_model_len = 8192, enable_prefix_caching = false }, parallel " \
  "= { tp = " #tp nvls " }, workload = { kind = 'inference', context = 8192 }, gpu = 'H200-SXM-141GB' }"
#define NO_NVLS ", nvls = false"

static void check_rh(void **state, const char *text, double w, double kv, double tokens, double conc) {
  json_t *j = tu_eval_ok(*state, text);
  tu_gib(j, "weights_bytes", w, 0.01, 0.00005);
  tu_gib(j, "kv_cache_bytes", kv, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", tokens, 0.05, 0);
  tu_near_fig(j, "max_concurrency", conc, 0.05, 0.005);
  json_decref(j);
}

static void test_holdout25_redhat_h200_v0112(void **state) {
  check_rh(state, RH("'meta-llama/Llama-3.3-70B-Instruct'", "", 4, NO_NVLS), 32.8894, 90.23, 1182608, 144.36);
  check_rh(state, RH("'RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic'", "", 4, NO_NVLS), 16.9619, 106.17,
           1391552, 169.87);
  check_rh(state, RH(Q235_CFG, "dtype = 'bf16', ", 4, NO_NVLS), 109.6068, 12.73, 284080, 34.68);
  check_rh(state, RH(Q235_CFG, "quant = { name = 'fp8', scheme = 'channel' }, dtype = 'bf16', ", 4, NO_NVLS),
           55.2032, 66.13, 1475472, 180.11);
  check_rh(state, RH("'meta-llama/Llama-4-Maverick-17B-128E-Instruct'", "", 8, NO_NVLS), 93.7864, 26.15,
           1142384, 139.45);
  /* the same Llama-3.3-70B tp 4 start on 0.19.0 */
  json_t *j19 =
      tu_eval_ok(*state,
                 "return { model = 'meta-llama/Llama-3.3-70B-Instruct', runtime = { name = 'vllm', "
                 "version = '0.19.0', gpu_memory_utilization = 0.92, max_model_len = 8192, "
                 "enable_prefix_caching = false }, parallel = { tp = 4, nvls = false }, workload = { "
                 "kind = 'inference', context = 8192 }, gpu = 'H200-SXM-141GB' }");
  tu_gib(j19, "kv_cache_bytes", 91.57, 0.05, 0.005);
  tu_near_fig(j19, "kv_cache_tokens", 1200192, 0.05, 0);
  tu_near_fig(j19, "max_concurrency", 146.51, 0.05, 0.005);
  tu_pinned(j19, "cuda_graph_bytes", 0.96 * TU_GIB, +0.7258);
  json_decref(j19);
  /* the captures, pinned (see above): 0.42 and 1.40 printed for the two Qwen3-235B starts */
  json_t *j = tu_eval_ok(*state, RH(Q235_CFG, "dtype = 'bf16', ", 4, NO_NVLS));
  tu_pinned(j, "cuda_graph_bytes", 0.42 * TU_GIB, +4.9393);
  double nt_off = tu_runtime_fig(j, "non_torch_bytes"), kv_off = tu_runtime_fig(j, "kv_cache_bytes");
  json_decref(j);
  /* the catalog's guess for an H200 is NVLS on: 1.82 GiB of communicator memory where 0.41 without,
  ** the -10.3 % of the prediction before the round */
  j = tu_eval_ok(*state, RH(Q235_CFG, "dtype = 'bf16', ", 4, ""));
  tu_near_fig(j, "non_torch_bytes", nt_off + (1.82 - 0.41) * TU_GIB, 0, 0.005 * TU_GIB);
  tu_near_fig(j, "kv_cache_bytes", kv_off - (1.82 - 0.41) * TU_GIB, 0, 0.005 * TU_GIB);
  tu_pinned(j, "kv_cache_bytes", 12.73 * TU_GIB, -0.1027);
  json_decref(j);
  j = tu_eval_ok(*state, RH("'meta-llama/Llama-4-Maverick-17B-128E-Instruct'", "", 8, NO_NVLS));
  tu_pinned(j, "cuda_graph_bytes", 0.17 * TU_GIB, +6.9943);
  json_decref(j);
}

/* ---- The same dashboard's deepseek-ai/DeepSeek-R1-0528 at tp 8 on H200 (vLLM 0.11.2, block FP8,
** util 0.92, 8192, no prefix caching; tests/test_validation_db.py quotes the lines): "Model loading
** took 79.7390 GiB", "Available KV cache memory: 41.60 GiB", "GPU KV cache size: 635,648 tokens",
** "Maximum concurrency for 8,192 tokens per request: 77.59x", "Graph capturing finished in 35 secs,
** took 0.51 GiB".
** Predicted before any change: weights 78.56 (-1.48 %), KV 43.31 (+4.1 %), 661,760 tokens (+4.1 %),
** 80.78x (+4.1 %), capture 3.33 (+552 %).
** Changes (src/rt_vllm.c): q_a_proj and kv_a_proj_with_mqa whole on every rank (DeepseekV2
** MLAAttention's ReplicatedLinear: 61 x 7168 x 2112 B of FP8 a rank where an eighth was counted),
** and the 16-bit copy process_weights_after_loading makes of a quantized kv_b_proj for W_UK_T / W_UV
** (61 x 512 x 16 heads x 256 x 2 B = 244 MiB). Weights 79.55 (-0.24 %). With parallel.nvls = false
** (the dashboard's host, above) the pool is 43.73 (+5.1 %), tokens 668,160 (+5.1 %), 81.56x (+5.1 %):
** pinned. Ruled out: the MLA latent page (64-token FlashMLA blocks of 576 x 2 B, 635,648 = 9,932 x
** 64 blocks exactly), the sampler (1024 x 129,280 vocabulary, as every 8192-token start), the NVLS
** term (off, as for the other runs of the host). Not traced: about 2 GiB more profile peak than
** vramfit's 4.80 GiB for the 8192-token MLA + FP8 block MoE forward (the fused-MoE workspaces and
** the MLA prefill's up-projected K / V are the candidates; the dense and Qwen3 runs of the same host
** agree within 2 %). */
#define R1(nvls)                                                                                           \
  "return { model = 'deepseek-ai/DeepSeek-R1', dtype = 'bf16', quant = { name = 'fp8', scheme = 'block', " \
  "block_size = 128 }, runtime = { name = 'vllm', version = '0.11.2', gpu_memory_utilization = 0.92, "     \
  "max_model_len = 8192, enable_prefix_caching = false }, parallel = { tp = 8" nvls                        \
  " }, workload = { "                                                                                      \
  "kind = 'inference', context = 8192 }, gpu = 'H200-SXM-141GB' }"

static void test_holdout25_deepseek_r1_tp8(void **state) {
  json_t *j = tu_eval_ok(*state, R1(NO_NVLS));
  tu_gib(j, "weights_bytes", 79.739, 0.01, 0.00005);
  assert_int_equal((long long)tu_runtime_fig(j, "mla_absorbed_copy_bytes"), 61LL * 512 * 16 * 256 * 2);
  tu_pinned(j, "kv_cache_bytes", 41.60 * TU_GIB, +0.0512);
  tu_pinned(j, "kv_cache_tokens", 635648, +0.0512);
  tu_pinned(j, "max_concurrency", 77.59, +0.0512);
  tu_pinned(j, "cuda_graph_bytes", 0.51 * TU_GIB, +5.5238);
  json_decref(j);
}

/* ---- The same dashboard's one-GPU H200 runs of a hybrid Mamba and a vision-language MoE (util 0.92,
** no prefix caching, 10,000 tokens), predicted before any change; none of the round's changes
** moves them (one GPU: no NVLS, no MLA):
**   nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8 (ModelOpt FP8, fp8 KV), v0.14.1: "Model loading
**   took 30.52 GiB", KV 92.64, 6,472,800 tokens, 1107.57x, took 0.43. Predicted: weights 30.07
**   (-1.46 %, pinned: the checkpoint's hf_quant_config exclude list, which of the Mamba, attention and
**   shared-expert projections stay bf16, was not readable here; every linear but the routers taken
**   as FP8), KV +0.98 %, tokens +1.03 %, concurrency +0.99 %, capture 2.34 (+445 %, pinned as the
**   0.11.x captures above);
**   Qwen/Qwen3-VL-30B-A3B-Instruct bf16, v0.14.1: 58.23 GiB, KV 63.73, 696,144 tokens, 69.61x, took
**   0.48; and on v0.18.0 at 262,144 tokens: KV 67.03, 732,176 tokens, 2.79x, took 0.80. Predicted:
**   weights -0.02 %, KV +0.73 % / +0.05 %, tokens +0.72 % / +0.05 %, concurrency +0.73 % / +0.16 %,
**   capture 1.17 (+144 %, pinned; +46 % on 0.18.0, pinned). */
#define H200_ONE(model, quant, ver, len, kv)                                                  \
  "return { model = '" model "', " quant "runtime = { name = 'vllm', version = '" ver         \
  "', "                                                                                       \
  "gpu_memory_utilization = 0.92, max_model_len = " #len ", enable_prefix_caching = false" kv \
  " }, workload "                                                                             \
  "= { kind = 'inference', context = " #len " }, gpu = 'H200-SXM-141GB' }"

static void test_holdout25_redhat_h200_one_gpu(void **state) {
  json_t *j = tu_eval_ok(*state, H200_ONE("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B",
                                          "quant = { name = 'fp8', scheme = "
                                          "'tensor' }, ",
                                          "0.14.1", 10000, ", kv_cache_dtype = 'fp8'"));
  tu_pinned(j, "weights_bytes", 30.52 * TU_GIB, -0.0146);
  tu_gib(j, "kv_cache_bytes", 92.64, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 6472800, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 1107.57, 0.05, 0.005);
  tu_pinned(j, "cuda_graph_bytes", 0.43 * TU_GIB, +4.4453);
  json_decref(j);
  j = tu_eval_ok(*state, H200_ONE("Qwen/Qwen3-VL-30B-A3B-Instruct", "", "0.14.1", 10000, ""));
  tu_gib(j, "weights_bytes", 58.23, 0.01, 0.005);
  tu_gib(j, "kv_cache_bytes", 63.73, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 696144, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 69.61, 0.05, 0.005);
  tu_pinned(j, "cuda_graph_bytes", 0.48 * TU_GIB, +1.4384);
  json_decref(j);
  j = tu_eval_ok(*state, H200_ONE("Qwen/Qwen3-VL-30B-A3B-Instruct", "", "0.18.0", 262144, ""));
  tu_gib(j, "kv_cache_bytes", 67.03, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 732176, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 2.79, 0.05, 0.005);
  tu_pinned(j, "cuda_graph_bytes", 0.80 * TU_GIB, +0.4630);
  json_decref(j);
}

/* ---- The MLA mechanisms alone. DeepSeek-V2-Lite (no q_lora; kv_a_proj_with_mqa 576 x 2048) in
** bf16: an unquantized kv_b_proj gives its own storage to W_UK_T / W_UV (views of layer.weight): no
** copy, at tp 1 as at tp 2. */
static void test_mla_absorbed_and_replicated(void **state) {
  static const char *fmt =
      "return { model = 'deepseek-ai/DeepSeek-V2-Lite', runtime = { name = 'vllm', version = '0.11.2', "
      "max_model_len = 8192 }, parallel = { tp = %d }, workload = { kind = 'inference', context = 8192 }, "
      "gpu = 'H100-SXM-80GB' }";
  json_t *j = tu_eval_okf(*state, fmt, 1);
  assert_true(isnan(tu_runtime_fig(j, "mla_absorbed_copy_bytes")));
  json_decref(j);
  j = tu_eval_okf(*state, fmt, 2);
  assert_true(isnan(tu_runtime_fig(j, "mla_absorbed_copy_bytes")));
  json_decref(j);
  /* FP8 block weights: the copy is the rank's kv_b_proj in bf16 */
  j = tu_eval_ok(*state, R1(""));
  assert_int_equal((long long)tu_runtime_fig(j, "mla_absorbed_copy_bytes"), 61LL * 512 * 16 * 256 * 2);
  json_decref(j);
  /* mend25: 0.7.x absorbed W_UK / W_UV into fused W_Q_UK / W_UV_O instead (mla/utils.py), so the
  ** 0.8+ bf16 copy is not counted there (src/rt_vllm.c VLLM_MLA_VIEWS) */
  j = tu_eval_ok(
      *state,
      "return { model = 'deepseek-ai/DeepSeek-R1', dtype = 'bf16', quant = { name = 'fp8', scheme = "
      "'block', block_size = 128 }, runtime = { name = 'vllm', version = '0.7.3', max_model_len = 8192 "
      "}, parallel = { tp = 8 }, workload = { kind = 'inference', context = 8192 }, gpu = "
      "'H200-SXM-141GB' }");
  assert_true(isnan(tu_runtime_fig(j, "mla_absorbed_copy_bytes")));
  json_decref(j);
}

/* ---- parallel.nvls: bad input (a training workload; not a boolean) */
static void test_nvls_knob_errors(void **state) {
  tu_eval_err(
      *state,
      "return { model = 'meta-llama/Llama-3.1-8B', parallel = { tp = 2, nvls = 'off' }, workload = { kind "
      "= 'inference', context = 8192 }, runtime = { name = 'vllm' }, gpu = 'H100-SXM-80GB' }",
      "parallel.nvls");
  tu_eval_err(
      *state,
      "return { model = 'meta-llama/Llama-3.1-8B', parallel = { tp = 2, nvls = false }, workload = { kind "
      "= 'train', seq_len = 2048, micro_batch = 1 }, gpu = 'H100-SXM-80GB' }",
      "parallel.nvls");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout25_gptoss120b_v0112),
      cmocka_unit_test(test_holdout25_redhat_h200_v0112),
      cmocka_unit_test(test_holdout25_deepseek_r1_tp8),
      cmocka_unit_test(test_holdout25_redhat_h200_one_gpu),
      cmocka_unit_test(test_mla_absorbed_and_replicated),
      cmocka_unit_test(test_nvls_knob_errors),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
