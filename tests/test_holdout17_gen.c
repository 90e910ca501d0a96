/*
** test_holdout17_gen.c: image generation figures held out of shared/calibration (round 17,
** 2026-12-02), predicted by vramfit through the public API before any change.
**
** Source: huggingface/blog diffusers-quantization.md ("Exploring Quantization Backends in
** Diffusers", 2025-05-21, read at 0b53cb19406564a21da2bff693a71a08e73538ee;
** https://huggingface.co/blog/diffusers-quantization). Every row: FluxPipeline of
** black-forest-labs/FLUX.1-dev in bf16 moved whole to the GPU (`pipe.to("cuda")`),
** 1024 x 1024, 50 steps, guidance_scale 3.5 (FLUX.1-dev's distilled guidance, no CFG pass),
** max_sequence_length 512, "All benchmarks performed on 1x NVIDIA H100 80GB GPU"; the
** example prints torch.cuda.max_memory_reserved() / 1024**3 labelled "GB" after loading and
** after the call, so the kind is stated (reserved, GiB) and the tolerance is 10 %.
**
** The calibration set already holds this table's bnb nf4 / int8, torchao int8wo, quanto int8,
** GGUF Q8_0 / Q2_K and fp8 layerwise peaks (hf-blog-flux-dev-h100-*); the rows below are the
** ones no round or case held:
**   BF16                 after loading ~31.447, peak 36.166
**   torchao float8wo     transformer + T5 (TorchAoConfig("float8_weight_only")), peak 21.488
**   quanto INT4          transformer + T5 (QuantoConfig(weights_dtype="int4")), peak 16.139
**   quanto FP8           transformer + T5 (quantize(weights=qfloat8) + freeze), peak 20.898
**   GGUF Q4_1            city96 flux1-dev-Q4_1.gguf transformer, T5 bf16, peak 21.326
** Not scored: torchao int4_weight_only (10.635 / 14.654): its example loads with
** device_map="balanced", which spreads the pipeline over the machine's GPUs.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "apiutil.h"

#define GIB 1073741824.0

/* FLUX.1-dev as the blog runs it, with the given `quant` field (may be empty). */
static json_t *flux(vf_engine *e, const char *quant) {
  char text[1024];
  snprintf(text, sizeof text,
           "return { model = 'black-forest-labs/FLUX.1-dev', dtype = 'bf16'%s, runtime = { name = 'diffusers' },"
           " gpu = 'H100-SXM-80GB', workload = { kind = 'image', width = 1024, height = 1024, batch = 1,"
           " steps = 50, cfg = false, max_sequence_length = 512 } }",
           quant);
  json_t *j = NULL;
  if (tu_eval(e, text, &j) != VF_OK) fail_msg("%s: %s", quant, vf_engine_error(e));
  return j;
}

/* The signed error (predicted - expected) / expected of a byte figure against printed GiB. */
static double err(long long got, double expected_gib) { return ((double)got / GIB - expected_gib) / expected_gib; }

/* The peaks of the table's rows no case holds: max_memory_reserved after the call. Predicted
** before any change (round 17): BF16 35.66 (-1.4 %), torchao float8wo 20.28 (-5.6 %), quanto
** FP8 20.27 (-3.0 %), GGUF Q4_1 20.51 (-3.8 %); every peak is the FLUX VAE decode at 1024^2
** with the transformer and encoders resident. */
static void test_flux_quant_blog_peaks(void **state) {
  static const struct {
    const char *quant, *what;
    double gib;
  } rows[] = {
      {"", "BF16", 36.166},
      /* torchao Float8WeightOnlyConfig: fp8 e4m3 weight, one fp32 scale a row */
      {", quant = { denoiser = { name = 'fp8', scheme = 'channel' }, text_encoder_2 = { name = 'fp8', scheme = 'channel' } }",
       "torchao float8_weight_only", 21.488},
      /* quanto qfloat8: fp8 data and a per-axis scale (per tensor here: the scales are
      ** under 0.01 % of the weights either way) */
      {", quant = { denoiser = 'fp8', text_encoder_2 = 'fp8' }", "quanto FP8", 20.898},
      {", quant = 'gguf:Q4_1'", "GGUF Q4_1", 21.326},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j = flux(*state, rows[i].quant);
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "runtime"), "peak_phase")), "VAE decode");
    tu_within_gib(tu_int(j, "runtime.peak_reserved_bytes"), rows[i].gib, 0.10, rows[i].what);
    json_decref(j);
  }
}

/* BF16 "Memory after loading ~31.447 GB": max_memory_reserved after pipe.to("cuda"), before
** any call; a bf16 load allocates nothing else, so it is the four components' weights
** (T5 9.52 GB, CLIP 246 MB, transformer 23.8 GB, VAE 168 MB by the blog's own split).
** Predicted 31.424 GiB (-0.07 %); held to 1 %. */
static void test_flux_bf16_after_loading(void **state) {
  json_t *j = flux(*state, "");
  tu_within_gib(tu_int(j, "model.weight_bytes"), 31.447, 0.01, "BF16 memory after loading");
  json_decref(j);
}

/* The quantized rows' "Memory after loading": reserved after the quantized pipeline is moved to
** the GPU, so the weights vramfit counts cannot exceed it (+ half the printed digit), and held
** within the round's 10 %. Predicted before any change: torchao float8wo 16.045 against 17.016
** (-5.7 %), quanto FP8 16.030 against 16.395 (-2.2 %), GGUF Q4_1 16.275 against 16.838 (-3.3 %).
** The quantized rows sit 0.4-1.3 GiB over their weights where BF16 and bnb nf4 (12.518 against
** 12.584) sit 0.02-0.07 over: the reserve a quantizing load leaves cached is not modelled (the
** table's int8 rows, torchao 17.020 and quanto 17.330 after loading, are calibration cases'
** runs and show the same). */
static void test_flux_quant_after_loading(void **state) {
  static const struct {
    const char *quant, *what;
    double gib;
  } rows[] = {
      {", quant = { denoiser = { name = 'fp8', scheme = 'channel' }, text_encoder_2 = { name = 'fp8', scheme = 'channel' } }",
       "torchao float8_weight_only after loading", 17.016},
      {", quant = { denoiser = 'fp8', text_encoder_2 = 'fp8' }", "quanto FP8 after loading", 16.395},
      {", quant = 'gguf:Q4_1'", "GGUF Q4_1 after loading", 16.838},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j = flux(*state, rows[i].quant);
    long long w = tu_int(j, "model.weight_bytes");
    if ((double)w > (rows[i].gib + 0.0005) * GIB) fail_msg("%s: weights %.3f GiB over the reserved figure", rows[i].what, (double)w / GIB);
    tu_within_gib(w, rows[i].gib, 0.10, rows[i].what);
    json_decref(j);
  }
}

/* quanto INT4, a documented miss pinned at its known error: 13.05 GiB against 16.139
** (-19.1 %); after loading 8.82 GiB of weights against 12.254 reserved (-28 %). vramfit holds
** quanto's qint4 as torchao's tinygemm layout (optimum-quanto nn/qmodule.py: group size 128,
** or 96 / 64 / 32 when the input width needs it, per-axis below 128; TinyGemmWeightQBitsTensor
** on CUDA with bf16 scales: 0.5 B an element + 4 B a group of 128), 0.53 B an element in all.
** The measured 12.254 GiB after loading is 3.4 GiB over that, while the same table's int8
** rows (quanto 17.330, torchao 17.020) sit only 1.0-1.3 GiB over their weights and the run's
** 109 s (12 s in BF16; the torchao int4 row, also 109 s) suggests the transformer did not
** run the tinygemm kernel. Which representation the run held (unpacked data, the CPU-side
** WeightQBitsTensor moved as is, or the bf16 originals of some modules) is not in the post, so
** nothing is changed; the pin fails when a change moves this prediction. */
static void test_flux_quanto_int4_pinned(void **state) {
  json_t *j = flux(*state, ", quant = { denoiser = 'int4-weight-only', text_encoder_2 = 'int4-weight-only' }");
  double d = err(tu_int(j, "runtime.peak_reserved_bytes"), 16.139);
  if (d < -0.20 || d > -0.18) fail_msg("quanto INT4 peak: %+.2f%%, pinned at -19.1%%", d * 100);
  d = err(tu_int(j, "model.weight_bytes"), 12.254);
  if (d < -0.29 || d > -0.27) fail_msg("quanto INT4 after loading: %+.2f%%, pinned at -28.0%%", d * 100);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flux_quant_blog_peaks),
      cmocka_unit_test(test_flux_bf16_after_loading),
      cmocka_unit_test(test_flux_quant_after_loading),
      cmocka_unit_test(test_flux_quanto_int4_pinned),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
