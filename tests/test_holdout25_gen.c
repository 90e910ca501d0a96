/*
** test_holdout25_gen.c: image-generation weight figures held out of shared/calibration (round 25,
** 2026-12-02), predicted by vramfit through the public API before any change, and the two
** mechanisms the round added for them: workload.fuse_qkv (diffusers' fuse_qkv_projections())
** and the quant format quanto-int4 (optimum-quanto's qint4 layout, unpadded).
**
** Sources:
** - ai-compiler-study/quanto @85823e29ed (2024-08-14, README tables f8fabf3): the results of
**   the Hugging Face quanto-diffusers benchmark, benchmark.py and one
**   experiment_results/ckpt@MODEL-bs@1-dtype@DTYPE-qtype@Q-qte@T-fuse@F_info.json per run.
**   load_pipeline: DiffusionPipeline.from_pretrained(ckpt, torch_dtype).to("cuda"),
**   transformer.fuse_qkv_projections() when fuse, then quantize(transformer, weights=Q) +
**   freeze(), and with qte the same on text_encoder, text_encoder_2 and text_encoder_3 where the
**   pipeline has them; 5 warm-up calls of pipe(prompt) at the pipeline's defaults, a timed run,
**   torch.cuda.empty_cache(), then memory = torch.cuda.memory_allocated() / 1024**3, printed
**   with 3 decimals as "memory". The figure is what stays allocated after the runs: the
**   pipeline's weights (model.weight_bytes), not a peak. GPU not stated (the weights do not
**   depend on it). No row of this repository is held by shared/calibration, a test or an
**   earlier round; its FLUX.1-dev rows are new models for this benchmark, and only rows whose
**   figure differs from the blog's held table (next item) are used for PixArt-Sigma.
** - huggingface/blog quanto-diffusers.md @0dd3fc4335 (2024-07-30), the Stable Diffusion 3 table
**   "Quantize TE 1 / 2 / 3": fp16, the transformer qfloat8, the text encoders named, memory in
**   GB. The calibration holds its TE 1 + 3 row (8.204, quanto-sd3-medium-bs1-fp8-transformer-
**   te1-te3) and its PixArt rows; the table's six other SD3 rows are not held.
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

/* One run of the benchmark: load_pipeline's dtype and quantization, pipe(prompt)'s defaults
** (PixArt-Sigma 1024^2, 20 steps, CFG; SD3 1024^2, 28 steps, CFG; FLUX.1-dev 1024^2, 28 steps,
** no CFG batch, 512 T5 tokens). The weights do not depend on the workload. */
static const char *scn =
    "return { model = '%s', dtype = '%s', runtime = { name = 'diffusers' }, gpu = 'H100-SXM-80GB',"
    " workload = { kind = 'image', width = 1024, height = 1024, batch = 1, %s%s }%s }";

#define PIXART "PixArt-alpha/PixArt-Sigma-XL-2-1024-MS"
#define SD3 "stabilityai/stable-diffusion-3-medium-diffusers"
#define FLUX "black-forest-labs/FLUX.1-dev"

static const char *workload_of(const char *model) {
  if (strcmp(model, FLUX) == 0) return "steps = 28, cfg = false, max_sequence_length = 512";
  if (strcmp(model, SD3) == 0) return "steps = 28, cfg = true";
  return "steps = 20, cfg = true";
}

static long long weights(void **state, const char *model, const char *dtype, bool fuse, const char *quant) {
  json_t *j =
      tu_eval_okf(*state, scn, model, dtype, workload_of(model), fuse ? ", fuse_qkv = true" : "", quant);
  long long w = tu_int(j, "model.weight_bytes");
  json_decref(j);
  return w;
}

typedef struct row {
  const char *model, *dtype;
  bool fuse;
  const char *quant; /* the scenario's quant field, "" for none */
  double gib;        /* the printed memory, GiB (1024**3) */
  const char *run;   /* the result file's name */
} row;

/* The quant fields of the benchmark's qtypes: qfloat8 as fp8 (one scale a tensor), qint8 as
** int8-weight-only (int8 and a per-row scale; torchao's int64 zero point, 8 B a row, is the
** difference, under 0.01 %), qint4 as quanto-int4. qte adds the text encoders. */
#define T_FP8 ", quant = { denoiser = 'fp8' }"
#define T_INT8 ", quant = { denoiser = 'int8-weight-only' }"
#define T_INT4 ", quant = { denoiser = 'quanto-int4' }"
#define FLUX_TE(q) ", quant = { denoiser = '" q "', text_encoder = '" q "', text_encoder_2 = '" q "' }"
#define PIXART_TE(q) ", quant = { denoiser = '" q "', text_encoder = '" q "' }"
#define SD3_TE(q)                                                                                          \
  ", quant = { denoiser = '" q "', text_encoder = '" q "', text_encoder_2 = '" q "', text_encoder_3 = '" q \
  "' }"

/* Each row within 10 % (a printed figure, generation's tolerance for a stated one). */
static void check_rows(void **state, const row *rows, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const row *r = &rows[i];
    long long w = weights(state, r->model, r->dtype, r->fuse, r->quant);
    tu_within_gib(w, r->gib, 0.10, r->run);
  }
}

/* FLUX.1-dev, the repository's 12 distinct runs (qte changes nothing without a qtype: the
** qtype "none" rows repeat 31.470 and 33.345). Predicted before any change: -0.06 % to -0.95 %
** (int4 as torchao's int4-weight-only: 15.153 and 8.712 GiB); after, with quanto-int4, the
** int4 rows 15.148 (-0.56 %) and 8.698 (-1.10 %), the others unchanged. The fp16 rows sit
** 1.875 GiB above the bf16 ones while T5 is unquantized: transformers keeps T5's 24 'wo'
** layers in fp32 when loading in fp16 (_keep_in_fp32_modules), 24 x 4096 x 10240 x 2 B more =
** 2,013,265,920 B, which is 1.875 GiB exactly (33.345 - 31.470; 22.271 - 20.393 = 1.878);
** quantized by quantize() they differ by 0.001 (15.998 against 15.997). */
static void test_flux_quanto_runs(void **state) {
  static const row rows[] = {
      {FLUX, "bf16", false, "", 31.470, "flux-dev bf16 none"},
      {FLUX, "fp16", false, "", 33.345, "flux-dev fp16 none"},
      {FLUX, "bf16", false, T_FP8, 20.393, "flux-dev bf16 fp8 qte0"},
      {FLUX, "bf16", false, FLUX_TE("fp8"), 15.997, "flux-dev bf16 fp8 qte1"},
      {FLUX, "bf16", false, T_INT8, 20.395, "flux-dev bf16 int8 qte0"},
      {FLUX, "bf16", false, FLUX_TE("int8-weight-only"), 15.999, "flux-dev bf16 int8 qte1"},
      {FLUX, "bf16", false, T_INT4, 15.234, "flux-dev bf16 int4 qte0"},
      {FLUX, "bf16", false, FLUX_TE("quanto-int4"), 8.795, "flux-dev bf16 int4 qte1"},
      {FLUX, "fp16", false, T_FP8, 22.271, "flux-dev fp16 fp8 qte0"},
      {FLUX, "fp16", false, FLUX_TE("fp8"), 15.998, "flux-dev fp16 fp8 qte1"},
      {FLUX, "fp16", false, T_INT8, 22.270, "flux-dev fp16 int8 qte0"},
      {FLUX, "fp16", false, FLUX_TE("int8-weight-only"), 15.999, "flux-dev fp16 int8 qte1"},
  };
  check_rows(state, rows, sizeof rows / sizeof *rows);
  assert_int_equal(weights(state, FLUX, "fp16", false, "") - weights(state, FLUX, "bf16", false, ""),
                   2013265920LL);
  assert_int_equal(weights(state, FLUX, "fp16", false, T_FP8) - weights(state, FLUX, "bf16", false, T_FP8),
                   2013265920LL);
}

/* Stable Diffusion 3 Medium, the repository's runs without fusion (qte quantizes all three
** text encoders). Predicted before any change: -0.29 % to -0.83 %; nothing changed them. */
static void test_sd3_quanto_runs(void **state) {
  static const row rows[] = {
      {SD3, "bf16", false, "", 14.526, "sd3 bf16 none"},
      {SD3, "fp16", false, "", 16.397, "sd3 fp16 none qte0"},
      {SD3, "bf16", false, T_FP8, 12.598, "sd3 bf16 fp8 qte0"},
      {SD3, "bf16", false, SD3_TE("fp8"), 7.628, "sd3 bf16 fp8 qte1"},
      {SD3, "bf16", false, T_INT8, 12.598, "sd3 bf16 int8 qte0"},
      {SD3, "bf16", false, SD3_TE("int8-weight-only"), 7.628, "sd3 bf16 int8 qte1"},
      {SD3, "fp16", false, T_FP8, 14.469, "sd3 fp16 fp8 qte0"},
      {SD3, "fp16", false, SD3_TE("fp8"), 7.630, "sd3 fp16 fp8 qte1"},
      {SD3, "fp16", false, T_INT8, 14.473, "sd3 fp16 int8 qte0"},
      {SD3, "fp16", false, SD3_TE("int8-weight-only"), 7.625, "sd3 fp16 int8 qte1"},
  };
  check_rows(state, rows, sizeof rows / sizeof *rows);
}

/* fuse_qkv_projections() before quantize(): the fuse@1 runs. Before this round the scenario
** could not say it, and the unfused prediction missed every fused row by the fused copies:
** PixArt -2.1 % to -4.6 %, SD3 -2.5 % to -5.0 %. diffusers' Attention.fuse_projections
** (models/attention_processor.py @bce9105ac7, the benchmark's diffusers) adds to_qkv (q, k, v
** concatenated; to_kv, k and v, for a cross-attention module) and, for SD3's joint attention,
** to_added_qkv, and keeps to_q / to_k / to_v: workload.fuse_qkv adds them. The increments to the
** byte in fp16, with biases:
**   PixArt-Sigma: 28 x (attn1 3 x 1152^2 + 3 x 1152 + attn2 2 x 1152^2 + 2 x 1152) x 2 B =
**     371,911,680 B (0.3464 GiB; published 12.433 - 12.086 = 0.347);
**   SD3 Medium: 24 x 2 x (3 x 1536^2 + 3 x 1536) x 2 B = 679,919,616 B (0.6332 GiB; published
**     17.058 - 16.397 = 0.661: 0.028 GiB more than the fused weights, not explained; the
**     other SD3 pairs 0.011-0.052 GiB more, 0.02 in most, in every dtype and qtype, and
**     PixArt's qint4 pairs 0.017, its others within 0.003).
** After: PixArt -0.38 % to -2.78 %, SD3 -0.36 % to -1.06 %. The PixArt int4 rows with
** quanto-int4 (torchao's int4-weight-only pads PixArt's 1152-wide inputs to 2048: +3.71 %
** on the qte row before, -2.30 % after). */
static void test_fuse_qkv(void **state) {
  static const row rows[] = {
      {PIXART, "bf16", true, "", 10.560, "pixart bf16 none fuse"},
      {PIXART, "fp16", true, "", 12.433, "pixart fp16 none fuse"},
      {PIXART, "bf16", true, T_FP8, 9.847, "pixart bf16 fp8 qte0 fuse"},
      {PIXART, "bf16", true, PIXART_TE("fp8"), 5.537, "pixart bf16 fp8 qte1 fuse"},
      {PIXART, "bf16", true, T_INT8, 9.847, "pixart bf16 int8 qte0 fuse"},
      {PIXART, "bf16", true, PIXART_TE("int8-weight-only"), 5.537, "pixart bf16 int8 qte1 fuse"},
      {PIXART, "bf16", true, T_INT4, 9.491, "pixart bf16 int4 qte0 fuse"},
      {PIXART, "bf16", true, PIXART_TE("quanto-int4"), 3.176, "pixart bf16 int4 qte1 fuse"},
      {PIXART, "fp16", true, T_FP8, 11.722, "pixart fp16 fp8 qte0 fuse"},
      {PIXART, "fp16", true, PIXART_TE("fp8"), 5.537, "pixart fp16 fp8 qte1 fuse"},
      {PIXART, "fp16", true, T_INT8, 11.722, "pixart fp16 int8 qte0 fuse"},
      {SD3, "bf16", true, "", 15.183, "sd3 bf16 none fuse"},
      {SD3, "fp16", true, "", 17.058, "sd3 fp16 none fuse"},
      {SD3, "bf16", true, T_FP8, 12.926, "sd3 bf16 fp8 qte0 fuse"},
      {SD3, "bf16", true, SD3_TE("fp8"), 7.968, "sd3 bf16 fp8 qte1 fuse"},
      {SD3, "bf16", true, T_INT8, 12.929, "sd3 bf16 int8 qte0 fuse"},
      {SD3, "bf16", true, SD3_TE("int8-weight-only"), 7.963, "sd3 bf16 int8 qte1 fuse"},
      {SD3, "fp16", true, T_FP8, 14.838, "sd3 fp16 fp8 qte0 fuse"},
      {SD3, "fp16", true, SD3_TE("fp8"), 7.963, "sd3 fp16 fp8 qte1 fuse"},
      {SD3, "fp16", true, T_INT8, 14.804, "sd3 fp16 int8 qte0 fuse"},
      {SD3, "fp16", true, SD3_TE("int8-weight-only"), 7.963, "sd3 fp16 int8 qte1 fuse"},
  };
  check_rows(state, rows, sizeof rows / sizeof *rows);
  assert_int_equal(weights(state, PIXART, "fp16", true, "") - weights(state, PIXART, "fp16", false, ""),
                   371911680LL);
  assert_int_equal(weights(state, SD3, "fp16", true, "") - weights(state, SD3, "fp16", false, ""),
                   679919616LL);
  /* quantized after fusion, the fused copy stores what its parts store: fp8 weights 1 B an
  ** element (28 x 5 x 1152^2 = 185,794,560 B) and one fp32 scale each part (140 x 4 B), the
  ** fp16 biases unquantized (28 x 5 x 1152 x 2 B = 322,560 B): 186,117,680 B */
  assert_int_equal(weights(state, PIXART, "fp16", true, T_FP8) - weights(state, PIXART, "fp16", false, T_FP8),
                   186117680LL);
}

/* optimum-quanto's qint4 layout against torchao's tinygemm tiles on PixArt-Sigma (bf16; the
** quanto path runs qint4 in bf16 only on this benchmark). Predicted before any change with
** int4-weight-only: 9.380 -> 9.514 (+1.43 %), 3.066 -> 3.180 (+3.71 %): torchao pads every
** Linear's in_features to a multiple of 1024 (PixArt's 1152 to 2048), quanto does not
** (optimum-quanto tinygemm/qbits.py, qmodule.py's group of 128). With quanto-int4: 9.329
** (-0.54 %) and 2.995 (-2.30 %). The 9.380 row is held by the calibration (the blog's table)
** and is kept here as the layout's check; 3.066 is the repository's own (the blog printed
** 3.058 for that configuration). FLUX.1-dev's inputs are multiples of 1024 but for
** x_embedder (64) and the timestep / guidance embedders (256): the two layouts differ by
** 0.005 GiB there. */
static void test_quanto_int4_layout(void **state) {
  long long q0 = weights(state, PIXART, "bf16", false, T_INT4);
  long long q1 = weights(state, PIXART, "bf16", false, PIXART_TE("quanto-int4"));
  tu_within_gib(q0, 9.380, 0.10, "pixart bf16 int4 qte0");
  tu_within_gib(q1, 3.066, 0.10, "pixart bf16 int4 qte1");
  /* quanto's rule to the byte: every Linear of PixArt's transformer has in_features a multiple
  ** of 128 (1152, 4608, 256, 4096), so each stores out x in x (1/2 + 2 x 2 / 128) B instead of
  ** out x in x 2: 47/32 B less an element. The transformer's Linear weights: 28 blocks x
  ** (attn1 4 x 1152^2 + attn2 4 x 1152^2 + ff 2 x 1152 x 4608) = 594,542,592, plus proj_out
  ** 32 x 1152, the timestep embedder 1152 x 256 + 1152^2, adaln_single.linear 6912 x 1152 and the
  ** caption projection 1152 x 4096 + 1152^2 = 15,667,200: 610,209,792 x 47 / 32 =
  ** 896,245,632 B less than bf16. torchao's tiles (in padded to 1024's multiples) save
  ** 698,353,664 B only. */
  long long none = weights(state, PIXART, "bf16", false, "");
  assert_int_equal(none - q0, 896245632LL);
  long long t0 = weights(state, PIXART, "bf16", false, ", quant = { denoiser = 'int4-weight-only' }");
  assert_int_equal(none - t0, 698353664LL);
}

/* The blog's SD3 table (fp16, transformer qfloat8, text encoders as named; not held but its
** TE 1 + 3 row). Predicted before any change, nothing changed them:
**   none 16.403 -> 16.309 (-0.57 %); TE 3 8.294 -> 8.234 (-0.72 %); TE 1 14.384 -> 14.342
**   (-0.29 %);
**   TE 1 + 2 14.384 -> 13.754 (-4.38 %); TE 2 14.475 -> 13.834 (-4.43 %); TE 2 + 3 8.325 -> 7.646
**   (-8.15 %); TE 1 + 2 + 3 8.200 -> 7.567 (-7.72 %).
** The four rows that quantize text_encoder_2 (OpenCLIP-bigG, 694,659,840 parameters, 0.65 GiB
** less in qfloat8) are pinned at these errors: in the blog's run quantizing it freed nothing
** (TE 1 + 2 = TE 1, TE 2 + 3 > TE 3), while the repository's run of the same benchmark.py with
** all three quantized printed 7.630 (test_sd3_quanto_runs: -0.83 % here), 0.57 GiB under the
** blog's 8.200 for the same configuration. Ruled out: text_encoder_2's token embedding (nn.Embedding,
** not quantized by quantize(), 0.12 GiB, already counted unquantized here) and its projection
** (1280 x 1280, quantized like the rest); what the blog's run kept is not known. */
static void test_blog_sd3_text_encoders(void **state) {
  static const row rows[] = {
      {SD3, "fp16", false, "", 16.403, "blog sd3 none"},
      {SD3, "fp16", false, ", quant = { denoiser = 'fp8', text_encoder_3 = 'fp8' }", 8.294, "blog sd3 TE 3"},
      {SD3, "fp16", false, ", quant = { denoiser = 'fp8', text_encoder = 'fp8' }", 14.384, "blog sd3 TE 1"},
  };
  check_rows(state, rows, sizeof rows / sizeof *rows);
  static const struct {
    const char *quant;
    double gib, known;
  } pinned[] = {
      {", quant = { denoiser = 'fp8', text_encoder = 'fp8', text_encoder_2 = 'fp8' }", 14.384, -0.0438},
      {", quant = { denoiser = 'fp8', text_encoder_2 = 'fp8' }", 14.475, -0.0443},
      {", quant = { denoiser = 'fp8', text_encoder_2 = 'fp8', text_encoder_3 = 'fp8' }", 8.325, -0.0815},
      {SD3_TE("fp8"), 8.200, -0.0772},
  };
  for (size_t i = 0; i < sizeof pinned / sizeof *pinned; i++) {
    double err = (double)weights(state, SD3, "fp16", false, pinned[i].quant) / TU_GIB / pinned[i].gib - 1;
    double d = err > pinned[i].known ? err - pinned[i].known : pinned[i].known - err;
    if (!(d <= 0.005))
      fail_msg("blog SD3 row %.3f: %+.2f%%, pinned at %+.2f%%", pinned[i].gib, err * 100,
               pinned[i].known * 100);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flux_quanto_runs),
      cmocka_unit_test(test_sd3_quanto_runs),
      cmocka_unit_test(test_fuse_qkv),
      cmocka_unit_test(test_quanto_int4_layout),
      cmocka_unit_test(test_blog_sd3_text_encoders),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
