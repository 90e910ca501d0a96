/*
** test_holdout25_llamacpp.c: gpt-oss-120b under ollama's llama-server, held out of
** shared/calibration (round 25, 2026-12-02), predicted by vramfit through the public API before
** any change. Tolerances as the brief's: model, KV and output buffers to the printed MiB,
** compute within 10 %, host compute within 25 %.
**
** One reporter, one machine (AMD Ryzen AI Max+ 395, Radeon 8060S iGPU, ROCm, 124.9 GiB), two
** public issue threads of ollama/ollama, whose 0.30 releases start llama.cpp's own llama-server
** ("using llama-server for model") on ollama's gpt-oss-120b blob (BF16 attention and embeddings,
** F32 routers, MXFP4 experts: "detected Ollama-format gpt-oss GGUF"):
**
** 1. ollama/ollama#16480 (https://github.com/ollama/ollama/issues/16480, 2026-06-04, ollama
**    0.30.2, "full server log"): the command line `llama-server ... -c 262144 -np 2 --flash-attn
**    on -b 1024 -ub 1024 --log-verbosity 4`, and n_seq_max 2, n_ctx 262144, n_ctx_seq 131072,
**    kv_unified false, n_outputs_max 2; "ROCm_Host output buffer size = 1.53 MiB"; non-SWA cache
**    "ROCm0 KV buffer size = 9216.00 MiB" (131072 cells, 18 layers, 2/2 seqs); SWA cache
**    1280 cells "ROCm0 KV buffer size = 90.00 MiB". The thread's excerpt stops before the
**    compute buffers: not checked.
** 2. ollama/ollama#16416 (https://github.com/ollama/ollama/issues/16416, 2026-06-02, ollama
**    0.30, same reporter and machine): common_memory_breakdown_print of the fit dry run, whole
**    MiB (integer division): ROCm0 model 61223, context 9306 (= 9216 + 90: the same -c / -np
**    as #16480), compute 796; Host model 1104, compute 281.
**
** Neither thread prints llama.cpp's build. #16480 prints n_outputs_max, the context parameter
** of PR #23861 (merged 2026-06-01, LC_B_OUTPUTS_MAX 9443), so b9500 is taken for it. #16416's
** ROCm0 compute, 796, is the prompt reserve WITHOUT that PR's cap: the logits of all 1024 rows
** (1024 x 201088 x 4 B = 785.50 MiB) plus the last hidden state (1024 x 2880 x 4 B = 11.25 MiB)
** is 796.75, printed 796; with the cap (2 rows) the peak is elsewhere, 432.04 in the replay. So
** ollama 0.30's engine predates the PR and b9400 is taken for #16416, 0.30.2's has it.
** The 8060S is not in the catalogue: an H100 (80 GB) stands in, fit off (no figure checked
** depends on the card; ROCm's buffers are laid out as CUDA's, ggml-cuda built for HIP).
**
** Predicted before any change (quant 'mxfp4', the BF16 + MXFP4 layout):
**   output 1.53, KV 9306.00 (9216 + 90), Host model 1104.61 (1104), Host compute 281.04 (281):
**   all exact; ROCm0 model 61198.42 for 61223 (-24.58 MiB, -0.04 %); ROCm0 compute 808.00 at
**   b9400 (+1.5 %), 432.04 at b9500 (-45.7 % if #16416 were of the later build).
** Changed: quant mxfp4's `router = "f32"` (ollama's converter keeps the routers in F32): ROCm0
** model 61198.42 -> 61223.74, 61223 whole MiB as printed.
**
** 3. The HilbertRaum desktop app's hardware session of 2026-09-07 on a Ryzen 7 5800H laptop with an
**    RTX 3060 Laptop GPU (6 GB), HilbertraumAI/HilbertRaum issue #318 ("Hardware session for the
**    graphics-memory picker boundaries"; the stored start reports, code-index ids 67250378044,
**    67608857635, 67369886488 and the preflight 67373741531, carry no repository path), llama-server
**    9849 (799fcc04a), Vulkan (the card is Vulkan1), `--ctx-size 8192 --batch-size 2048
**    --ubatch-size 2048 -lv 4`, fit on, -np auto (4, kv_unified) unless -np 1, flash attention auto:
**      E2B  gemma4-e2b-it-qat-q4.gguf (Google's QAT Q4_0), 36/36: CPU_Mapped 2152.50, Vulkan1 model
**           1341.76, Vulkan_Host output 4.00, Vulkan1 KV 48.00 (8192 cells) + 48.00 (SWA 4096 cells),
**           Vulkan1 compute 560.07, Vulkan_Host compute 142.09;
**      P4   qwen3.5-9b-ud-q4kxl.gguf (unsloth UD-Q4_K_XL, no MTP block: 33 = 32 + output), 18/33:
**           CPU_Mapped 2555.45, Vulkan1 3123.80, output 3.79, CPU KV 96.00 + Vulkan1 160.00 (256.00,
**           8192 cells, 8 layers, 4/1 seqs), CPU RS 100.50 + Vulkan1 100.50 (201.00, 4 seqs),
**           Vulkan1 compute 498.00, Vulkan_Host compute 128.44, "fused Gated Delta Net (chunked)
**           not supported, set to disabled" (layer 0 on the CPU);
**      P1   the same with -np 1 (a later start of the same session's follow-up), 20/33: CPU_Mapped
**           2286.14, Vulkan1 3393.11, output 0.95, CPU KV 96.00 + 160.00, CPU RS 20.94 + Vulkan1
**           29.31 (50.25), Vulkan1 compute 498.00, Vulkan_Host compute 128.16, chunked GDN enabled.
**    The layer counts are the fit's; fit off here with them set. An RTX 3090 stands in.
**    Qwen/Qwen3.5-9B was not in the catalogue: added this round (architectures/presets.lua).
**
** Predicted before any change (the 9B with its preset):
**   E2B: output 4.00, KV 96.00, host compute 142.09 exact; compute 502.07 (-10.4 %); Vulkan1 model
**        1322.91 (-1.4 %), CPU_Mapped 1582.39 (the QAT file keeps both embedding tables in Q6_K:
**        262144 x (1536 + 35 x 256) x 210 / 256 B = 2152.50, exactly the print).
**   P4:  output 3.79, KV 256.00 / CPU 96.00, RS 201.00 / CPU 100.50, host compute 128.44 exact;
**        compute 583.44 (+17.2 %); model 2927.39 / CPU_Mapped 2428.51 (UD mix, gguf:Q4_K_M).
**   P1:  output 0.95, KV 256.00 / 96.00, RS 50.25 / CPU 20.94, host compute 128.16 exact; compute
**        519.44 (+4.3 %); model 3169.99 / 2185.92.
** No change to the llama.cpp model for these (see the pinned figures for what is left).
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

/* llama-server -c 262144 -np 2 --flash-attn on -b 1024 -ub 1024 (ollama 0.30 / 0.30.2) */
#define OLLAMA_030                                                                                          \
  "return { model = 'openai/gpt-oss-120b', quant = { name = 'mxfp4', router = '%s' }, runtime = {"          \
  " name = 'llamacpp', version = '%s',"                                                                     \
  " n_ctx = 262144, n_seq_max = 2, n_batch = 1024, n_ubatch = 1024, flash_attn = true, n_gpu_layers = 999," \
  " fit = false }, workload = { kind = 'inference', context = 131072 }, gpu = 'H100-80GB' }"

/* common_memory_breakdown_print's whole MiB: size / MiB, truncated */
static void whole_mib(json_t *j, const char *fig, long long printed, const char *what) {
  long long got = tu_int(j, fig) / (1024LL * 1024);
  if (got != printed) fail_msg("%s: %lld MiB (truncated), the breakdown says %lld", what, got, printed);
}

/* #16480's printed buffers: 2 rows x 201088 f32 logits; 18 full-attention layers x 131072 cells
** x 2 streams x (512 K + 512 V) f16 = 9216.00, 18 SWA layers x 1280 cells (per stream, not unified:
** n_swa + n_ubatch = 1152, padded to 256) x 2 streams x 2048 B = 90.00 */
static void test_holdout25_printed_buffers(void **state) {
  json_t *j = tu_eval_okf(*state, OLLAMA_030, "f32", "b9500");
  tu_printed_mib(j, "runtime.output_buffer_bytes", "1.53", "#16480 ROCm_Host output");
  tu_printed_mib(j, "runtime.kv_buffer_bytes", "9306.00", "#16480 ROCm0 KV 9216.00 + 90.00");
  tu_printed_mib(j, "runtime.host_kv_buffer_bytes", "0.00", "#16480 no host KV");
  json_decref(j);
}

/* #16416's breakdown: context 9306, Host model 1104 (token_embd 201088 x 2880 BF16 on the host),
** Host compute 281 (the host's inputs of a 1024-token ubatch), exact to the whole MiB */
static void test_holdout25_breakdown_exact(void **state) {
  json_t *j = tu_eval_okf(*state, OLLAMA_030, "f32", "b9400");
  whole_mib(j, "runtime.kv_buffer_bytes", 9306, "#16416 ROCm0 context");
  whole_mib(j, "runtime.cpu_model_buffer_bytes", 1104, "#16416 Host model");
  whole_mib(j, "runtime.host_compute_buffer_bytes", 281, "#16416 Host compute");
  tu_within_mib(j, "runtime.host_compute_buffer_bytes", 281.0, 0.25, "#16416 Host compute");
  json_decref(j);
}

/* #16416's ROCm0 compute within 10 %: 808.00 for 796 (+1.5 %), the reserve's logits of every
** token before PR #23861. At the later build the replay caps them at n_outputs_max (2 rows),
** 432.04: the print (796) tells the two apart, which is what dates the engine. */
static void test_holdout25_compute(void **state) {
  json_t *before = tu_eval_okf(*state, OLLAMA_030, "f32", "b9400");
  json_t *after = tu_eval_okf(*state, OLLAMA_030, "f32", "b9500");
  tu_within_mib(before, "runtime.compute_buffer_bytes", 796.0, 0.10, "#16416 ROCm0 compute");
  /* the uncapped reserve holds at least the 1024 rows of logits the print implies */
  assert_true(tu_int(before, "runtime.compute_buffer_bytes") >= 1024LL * 201088 * 4);
  assert_true(tu_int(after, "runtime.compute_buffer_bytes") < 1024LL * 201088 * 4);
  json_decref(before);
  json_decref(after);
}

/* ROCm0 model, 61223 whole MiB, exact: ollama's converter writes the routers in F32
** (convert/reader.go tensorBase.Kind: ".ffn_gate_inp.weight" always F32, other 2-D tensors the
** source type), 36 x 128 x 2880 x 4 B, 25.31 MiB more than the checkpoint's BF16 routers:
** predicted before the change 61198.42 (-24.58 MiB) with quant 'mxfp4', now 61223.74 with
** router = 'f32'. The host half (token_embd, BF16) is 1104 either way. Ruled out: 'gguf:MXFP4'
** (Q8_0 attention: 59853.36 / host 586.82, the host figure rules it out) */
static void test_holdout25_model(void **state) {
  json_t *j = tu_eval_okf(*state, OLLAMA_030, "f32", "b9400");
  whole_mib(j, "runtime.gpu_model_buffer_bytes", 61223, "#16416 ROCm0 model");
  whole_mib(j, "runtime.cpu_model_buffer_bytes", 1104, "#16416 Host model");
  json_decref(j);
  j = tu_eval_okf(*state, OLLAMA_030, "bf16", "b9400");
  whole_mib(j, "runtime.gpu_model_buffer_bytes", 61198, "the checkpoint's BF16 routers");
  json_decref(j);
}

/* ---- HilbertRaum #318: b9849, Vulkan, -c 8192 -b 2048 -ub 2048, flash attention on */
#define HR318                                                                                                \
  "return { model = '%s', quant = 'gguf:%s', runtime = { name = 'llamacpp', version = 'b9849', n_ctx = "     \
  "8192,"                                                                                                    \
  " n_batch = 2048, n_ubatch = 2048, n_seq_max = %d, kv_unified = %s, n_gpu_layers = %d, flash_attn = true," \
  " nextn_predict_layers = 0, fit = false }, workload = { kind = 'inference', context = 8192 },"             \
  " gpu = 'RTX 3090' }"

typedef struct {
  const char *name, *model, *quant;
  int np, ngl;
  /* printed: output, KV (all), CPU KV, RS (all), CPU RS */
  const char *out, *kv, *host_kv, *rs, *host_rs;
  double compute, host;
  const char *host_printed;
} hr_start;

static const hr_start hr[] = {
    {"E2B", "google/gemma-4-E2B-it", "Q4_0", 4, 99, "4.00", "96.00", "0.00", "0.00", "0.00", 560.07, 142.09,
     "142.09"},
    {"P4", "Qwen/Qwen3.5-9B", "Q4_K_M", 4, 18, "3.79", "256.00", "96.00", "201.00", "100.50", 498.00, 128.44,
     "128.44"},
    {"P1", "Qwen/Qwen3.5-9B", "Q4_K_M", 1, 20, "0.95", "256.00", "96.00", "50.25", "20.94", 498.00, 128.16,
     "128.16"},
};

static json_t *hr_eval(vf_engine *e, const hr_start *s) {
  return tu_eval_okf(e, HR318, s->model, s->quant, s->np, s->np > 1 ? "true" : "false", s->ngl);
}

/* Output, KV (the E2B's two caches: 3 unshared full-attention layers of one 512-wide KV head x 2 x 2 B
** x 8192 cells = 48.00, 12 unshared SWA layers of one 256-wide head x 2 x 2 B x 4096 cells (n_swa x 4
** sequences + n_ubatch) = 48.00; the other 20 layers reuse them), the 9B's 8 attention layers x 4 x
** 256 x 2 x 2 B x 8192 split by the host layers (3 attention layers of them), its RS of 24 DeltaNet
** layers x (32 x 128 x 128 + 3 x 8192) x 4 B a sequence, and the host's share of it */
static void test_holdout25_hr318_exact(void **state) {
  for (size_t i = 0; i < sizeof hr / sizeof *hr; i++) {
    json_t *j = hr_eval(*state, &hr[i]);
    tu_printed_mib(j, "runtime.output_buffer_bytes", hr[i].out, "Vulkan_Host output");
    tu_printed_mib(j, "runtime.kv_buffer_bytes", hr[i].kv, "KV");
    tu_printed_mib(j, "runtime.host_kv_buffer_bytes", hr[i].host_kv, "CPU KV");
    tu_printed_mib(j, "runtime.rs_buffer_bytes", hr[i].rs, "RS");
    tu_printed_mib(j, "runtime.host_rs_buffer_bytes", hr[i].host_rs, "CPU RS");
    json_decref(j);
  }
}

/* Host compute within 25 % and, as predicted, to the printed MiB: the host's graph inputs (the
** embeddings' get_rows -- the E2B's per-layer table too -- and the masks) */
static void test_holdout25_hr318_host(void **state) {
  for (size_t i = 0; i < sizeof hr / sizeof *hr; i++) {
    json_t *j = hr_eval(*state, &hr[i]);
    tu_within_mib(j, "runtime.host_compute_buffer_bytes", hr[i].host, 0.25, "Vulkan_Host compute");
    tu_printed_mib(j, "runtime.host_compute_buffer_bytes", hr[i].host_printed, "Vulkan_Host compute");
    json_decref(j);
  }
}

/* Vulkan1 compute: P1 within 10 % (519.44 for 498.00, +4.3 %). Pinned:
** - E2B 502.07 for 560.07 (-10.4 %, 58.00 MiB): the class of round 17's Gemma 4 E4B miss (47.01
**   MiB on CUDA), now at b9849 where the reserve's logits are 4 rows, so not the logits' placement.
**   Ruled out: flash attention off (800.04, and the KV and host figures stop matching), one
**   sequence (496.07).
** - P4 583.44 for 498.00 (+17.2 %): the log prints 498.00 for both splits (18/33 and 20/33) and with
**   the chunked fused GDN disabled or not; the replay's figure moves with the first GPU layer
**   (ngl 18/19: 583.44, 20: 519.44, 21/22: 487.44, ngl 0: 487.44), a placement effect of the
**   host layers' weight copies in the simulated allocator, not traced (no per-tensor dump of the
**   replay exists); round 21's Vulkan 62/66 start (+13.0 %) is the same family. */
static void test_holdout25_hr318_compute(void **state) {
  json_t *j = hr_eval(*state, &hr[2]);
  tu_within_mib(j, "runtime.compute_buffer_bytes", hr[2].compute, 0.10, "P1 Vulkan1 compute");
  json_decref(j);
  j = hr_eval(*state, &hr[0]);
  tu_pinned(j, "compute_buffer_bytes", hr[0].compute * 1024 * 1024, -0.104);
  json_decref(j);
  j = hr_eval(*state, &hr[1]);
  tu_pinned(j, "compute_buffer_bytes", hr[1].compute * 1024 * 1024, 0.172);
  json_decref(j);
}

/* Model buffers, pinned: the files are per-tensor mixes the reports do not list. The E2B's host
** half is still exact by arithmetic: both embedding tables (262144 x 1536 and 262144 x 35 x 256)
** in Q6_K are 2152.50 MiB, the print; the replay's gguf:Q4_0 rule gives 1582.39. Vulkan1 1322.91
** for 1341.76 (-1.4 %). The 9B's UD-Q4_K_XL against gguf:Q4_K_M: 2927.39 for 3123.80 (-6.3 %) at
** 18/33; its full-offload CPU_Mapped (545.62 in the session's 3080 Ti start) is token_embd in
** Q4_K, 248320 x 4096 x 144 / 256 B, exactly. */
static void test_holdout25_hr318_models(void **state) {
  json_t *j = hr_eval(*state, &hr[0]);
  tu_pinned(j, "gpu_model_buffer_bytes", 1341.76 * 1024 * 1024, -0.014);
  tu_printed_mib_bytes(262144LL * (1536 + 35 * 256) * 210 / 256, "2152.50", "the E2B's embeddings in Q6_K");
  json_decref(j);
  j = hr_eval(*state, &hr[1]);
  tu_pinned(j, "gpu_model_buffer_bytes", 3123.80 * 1024 * 1024, -0.063);
  tu_printed_mib_bytes(248320LL * 4096 * 144 / 256, "545.62", "the 9B's token_embd in Q4_K");
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout25_printed_buffers), cmocka_unit_test(test_holdout25_breakdown_exact),
      cmocka_unit_test(test_holdout25_compute),         cmocka_unit_test(test_holdout25_model),
      cmocka_unit_test(test_holdout25_hr318_exact),     cmocka_unit_test(test_holdout25_hr318_host),
      cmocka_unit_test(test_holdout25_hr318_compute),   cmocka_unit_test(test_holdout25_hr318_models),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
