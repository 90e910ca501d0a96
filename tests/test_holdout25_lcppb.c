/*
** test_holdout25_lcppb.c: llama.cpp CUDA starts printed inside applications that embed it
** (llama-cpp-python's server, LocalAI's llama-cpp backend, LLamaSharp), held out of
** shared/calibration (round 25b, 2026-12-02), predicted by vramfit through the public API before
** any change. Tolerances as the brief's: model, KV and output buffers to the printed MiB, compute
** within 10 %, host compute within 25 % (every figure below is in fact exact).
**
** 1. fedora-copr/logdetective PR #106 (https://github.com/fedora-copr/logdetective/pull/106,
**    2025-01-13, "llama server: explictly set context to 32k"): logdetective's server loads its
**    GGUF through llama-cpp-python (a CUDA0 start, all layers offloaded); the PR's description
**    diffs two starts, n_ctx 2048 (the default) and 32768, both n_batch 512, n_ubatch 512,
**    flash_attn 0, freq_base 1000000.0 (Mistral-7B-Instruct-v0.2's rope_theta):
**      n_ctx  2048: CUDA0 KV 256.00, CUDA_Host output 0.12, CUDA0 compute 164.00, CUDA_Host 12.01
**      n_ctx 32768: CUDA0 KV 4096.00, output 0.12, CUDA0 compute 2144.00, CUDA_Host 72.01
**      graph nodes 1030, graph splits 2 (both)
**    The model buffer lines are not in the excerpt; the file's quantization is not printed
**    (gguf:Q4_K_M taken; no checked figure depends on it). llama_new_context_with_model's prints
**    date the build before PR #11187's rename (llama_init_from_model, mid-January 2025): b4400
**    taken. Catalogue: mistralai/Mistral-7B-Instruct-v0.2 added this round (v0.1's shapes, rope
**    1e6, no sliding window).
** 2. mudler/LocalAI#2394 (https://github.com/mudler/LocalAI/issues/2394, turn 26, 2024-07-23):
**    LocalAI's llama-cpp gRPC backend on Meta-Llama-3-8B-Instruct.Q4_0.gguf, n_ctx_slot 8192, one
**    slot: CUDA_Host output 0.49, CUDA0 compute 560.00, CUDA_Host compute 24.01, graph nodes 1030,
**    graph splits 2 (the KV and model lines are not in the excerpt). b3400 taken (July 2024).
** 3. mudler/LocalAI#4354 (https://github.com/mudler/LocalAI/issues/4354, December 2024): LocalAI's
**    llama-cpp backend on hermes-3-llama-3.1-8b (Q8_0: "tensor 'token_embd.weight' (q8_0) ...
**    cannot be used with preferred buffer type CPU_AARCH64"), 33/33 layers: CPU_Mapped model
**    532.31, CUDA0 model 7605.33. Hermes 3 8B has Llama-3.1-8B's shapes (n_vocab 128256, n_embd
**    4096, 32 layers, 32 / 8 heads as printed): meta-llama/Llama-3.1-8B-Instruct stands in. b4300.
** 4. SciSharp/LLamaSharp#1099 (https://github.com/SciSharp/LLamaSharp/issues/1099, turn 5): LLamaSharp's
**    native llama.cpp on an RTX 4080 SUPER (the same user's llama-cli comparison prints build
**    4701 (be3bbd62), taken), a 434-tensor Qwen2.5-3B GGUF (36 layers of 256-wide KV, tied
**    embeddings), n_ctx 4096, CUDA: CUDA0 KV 144.00, CUDA_Host output 0.58, CUDA0 compute 300.75,
**    CUDA_Host compute 12.01 (the f32 mask: flash attention off), graph nodes 1266, splits 2.
**    Catalogue: Qwen/Qwen2.5-3B (and -Instruct) added this round from its config.json.
**
** Predicted before any change (the two presets added first, as the figures need them): every
** buffer above exact to the printed MiB, graph nodes 1030 and splits 2 where printed. Only
** LLamaSharp's node count differs: 1230 for 1266 (36 nodes, one a layer; not a memory figure,
** left open and not asserted). No model change was needed.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

#define START                                                                                            \
  "return { model = '%s', quant = 'gguf:%s', runtime = { name = 'llamacpp', version = '%s', n_ctx = %d," \
  " n_batch = %d, n_ubatch = 512, n_gpu_layers = 999, flash_attn = false, fit = false },"                \
  " workload = { kind = 'inference', context = %d }, gpu = '%s' }"

static json_t *start(vf_engine *e, const char *model, const char *quant, const char *ver, int n_ctx,
                     int n_batch, const char *gpu) {
  return tu_eval_okf(e, START, model, quant, ver, n_ctx, n_batch, n_ctx, gpu);
}

/* logdetective #106: 32 layers x 1024 (8 KV heads x 128) x 2 x 2 B a cell: 256.00 / 4096.00;
** 32000 f32 logits a row: 0.12; no FA: KQ of 32 heads x 512 x n_ctx f32 (128 / 2048 MiB) and
** the host's inputs (embeddings 8 MiB + the f32 mask 512 x n_ctx) */
static void test_holdout25b_logdetective(void **state) {
  static const struct {
    int n_ctx;
    const char *kv, *compute, *host;
  } s[] = {{2048, "256.00", "164.00", "12.01"}, {32768, "4096.00", "2144.00", "72.01"}};
  for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
    json_t *j = start(*state, "mistralai/Mistral-7B-Instruct-v0.2", "Q4_K_M", "b4400", s[i].n_ctx, 512,
                      "RTX-3090-24GB");
    tu_printed_mib(j, "runtime.kv_buffer_bytes", s[i].kv, "logdetective #106 CUDA0 KV");
    tu_printed_mib(j, "runtime.output_buffer_bytes", "0.12", "logdetective #106 CUDA_Host output");
    tu_within_mib(j, "runtime.compute_buffer_bytes", atof(s[i].compute), 0.10,
                  "logdetective #106 CUDA0 compute");
    tu_printed_mib(j, "runtime.compute_buffer_bytes", s[i].compute,
                   "logdetective #106 CUDA0 compute (as predicted)");
    tu_within_mib(j, "runtime.host_compute_buffer_bytes", atof(s[i].host), 0.25,
                  "logdetective #106 CUDA_Host");
    tu_printed_mib(j, "runtime.host_compute_buffer_bytes", s[i].host,
                   "logdetective #106 CUDA_Host (as predicted)");
    assert_int_equal(tu_int(j, "runtime.graph_nodes"), 1030);
    assert_int_equal(tu_int(j, "runtime.graph_splits"), 2);
    json_decref(j);
  }
}

/* The sliding window matters to neither start here (v0.1's 4096-token window gives the same
** buffers at b4400: llama.cpp's llama arch ignored it), but v0.2 has none: the preset says so */
static void test_holdout25b_mistral_v02_preset(void **state) {
  json_t *j =
      start(*state, "mistralai/Mistral-7B-Instruct-v0.2", "Q4_K_M", "b4400", 32768, 512, "RTX-3090-24GB");
  json_t *k =
      start(*state, "mistralai/Mistral-7B-Instruct-v0.1", "Q4_K_M", "b4400", 32768, 512, "RTX-3090-24GB");
  assert_int_equal(tu_int(j, "runtime.gpu_model_buffer_bytes"), tu_int(k, "runtime.gpu_model_buffer_bytes"));
  assert_int_equal(tu_int(j, "runtime.kv_buffer_bytes"), tu_int(k, "runtime.kv_buffer_bytes"));
  json_decref(j);
  json_decref(k);
}

/* LocalAI #2394: Llama-3-8B, 8192 cells, no FA: 128256 f32 logits a row 0.49; CUDA0 560.00 (KQ
** 32 x 512 x 8192 f32 = 512 MiB + 48); host 8 MiB of embeddings + 16 MiB of f32 mask */
static void test_holdout25b_localai_2394(void **state) {
  json_t *j =
      start(*state, "meta-llama/Meta-Llama-3-8B-Instruct", "Q4_0", "b3400", 8192, 2048, "RTX-3090-24GB");
  tu_printed_mib(j, "runtime.output_buffer_bytes", "0.49", "LocalAI #2394 CUDA_Host output");
  tu_within_mib(j, "runtime.compute_buffer_bytes", 560.00, 0.10, "LocalAI #2394 CUDA0 compute");
  tu_printed_mib(j, "runtime.compute_buffer_bytes", "560.00", "LocalAI #2394 CUDA0 compute (as predicted)");
  tu_within_mib(j, "runtime.host_compute_buffer_bytes", 24.01, 0.25, "LocalAI #2394 CUDA_Host compute");
  tu_printed_mib(j, "runtime.host_compute_buffer_bytes", "24.01", "LocalAI #2394 CUDA_Host (as predicted)");
  assert_int_equal(tu_int(j, "runtime.graph_nodes"), 1030);
  assert_int_equal(tu_int(j, "runtime.graph_splits"), 2);
  json_decref(j);
}

/* LocalAI #4354: Q8_0 Llama-3.1-8B shapes, all 33 layers on CUDA0; token_embd (128256 x 4096 x
** 34 / 32 B = 532.31) stays on the host, every other tensor (the output included) on the GPU */
static void test_holdout25b_localai_4354(void **state) {
  json_t *j = start(*state, "meta-llama/Llama-3.1-8B-Instruct", "Q8_0", "b4300", 8192, 2048, "RTX-3090-24GB");
  tu_printed_mib(j, "runtime.cpu_model_buffer_bytes", "532.31", "LocalAI #4354 CPU_Mapped model");
  tu_printed_mib(j, "runtime.gpu_model_buffer_bytes", "7605.33", "LocalAI #4354 CUDA0 model");
  tu_printed_mib_bytes(128256LL * 4096 * 34 / 32, "532.31", "token_embd in Q8_0");
  json_decref(j);
}

/* LLamaSharp #1099: Qwen2.5-3B, 4096 cells: 36 x 256 x 2 x 2 B = 144.00; 151936 f32 logits a row
** 0.58; CUDA0 300.75 = 512 rows of logits (296.75) + 4.00; host 4 MiB of embeddings + 8 MiB of
** f32 mask. Its 1266 graph nodes are 36 more than the replay's 1230 (one a layer), not asserted:
** no buffer moves with them and the wrapper's own llama.cpp build is not printed. */
static void test_holdout25b_llamasharp(void **state) {
  json_t *j = start(*state, "Qwen/Qwen2.5-3B-Instruct", "Q4_K_M", "b4701", 4096, 512, "RTX-4080-16GB");
  tu_printed_mib(j, "runtime.kv_buffer_bytes", "144.00", "LLamaSharp #1099 CUDA0 KV");
  tu_printed_mib(j, "runtime.output_buffer_bytes", "0.58", "LLamaSharp #1099 CUDA_Host output");
  tu_within_mib(j, "runtime.compute_buffer_bytes", 300.75, 0.10, "LLamaSharp #1099 CUDA0 compute");
  tu_printed_mib(j, "runtime.compute_buffer_bytes", "300.75",
                 "LLamaSharp #1099 CUDA0 compute (as predicted)");
  tu_within_mib(j, "runtime.host_compute_buffer_bytes", 12.01, 0.25, "LLamaSharp #1099 CUDA_Host compute");
  tu_printed_mib(j, "runtime.host_compute_buffer_bytes", "12.01",
                 "LLamaSharp #1099 CUDA_Host (as predicted)");
  assert_int_equal(tu_int(j, "runtime.graph_splits"), 2);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout25b_logdetective), cmocka_unit_test(test_holdout25b_mistral_v02_preset),
      cmocka_unit_test(test_holdout25b_localai_2394), cmocka_unit_test(test_holdout25b_localai_4354),
      cmocka_unit_test(test_holdout25b_llamasharp),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
