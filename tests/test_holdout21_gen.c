/*
** test_holdout21_gen.c: image generation figures held out of shared/calibration (round 21,
** 2026-12-02), predicted by vramfit through the public API before any change, and the mechanism
** the round added (workload.offload = "auto": diffusers' ComponentsManager auto offload).
**
** Sources (none cited by an earlier round, a test or a calibration case):
** - huggingface/diffusers docs/source/en/modular_diffusers/components_manager.md as PR #14304
**   ("[modular] improve auto offload", open; branch auto-offload-v2, commit 0750134d87,
**   2026-07-31) writes it: ModularPipeline of Tongyi-MAI/Z-Image-Turbo in bf16 under
**   ComponentsManager.enable_auto_cpu_offload (memory_reserve "3GB"), pipe(prompt="a cat"): the
**   modular Z-Image defaults (1024 x 1024, 8 steps, its guider disabled: no CFG). "On a 20GB
**   card" the offload record's Peak column (torch.cuda.max_memory_allocated, GB = GiB: the
**   record's sizes 7.49 / 11.46 are Qwen3-4B's 4.02e9 and the DiT's 6.15e9 parameters x 2 B in
**   GiB): 7.77 when the transformer loads (the text encoding), 12.07 when the VAE loads (the
**   denoising, the text encoder offloaded), and "torch.cuda.max_memory_allocated()  # 14.15 GB -
**   the peak of the whole run", the VAE decoding beside the transformer. The same record on a
**   13.5GB card: with memory_reserve=0 the VAE loads beside the transformer and the decode runs
**   out of memory (an oom_retry row); with the 3GB reserve the transformer is offloaded first.
**   The branch's slow test (tests/modular_pipelines/z_image/test_modular_pipeline_z_image.py)
**   asserts the offloads on 32 / 24 / 16 / 10 GB cards.
** - huggingface/diffusers docs/source/en/quicktour.md as PR #12128 wrote it (a58a4f665b,
**   2025-08-15): Qwen/Qwen-Image in bf16 with PipelineQuantizationConfig(bitsandbytes_4bit, nf4,
**   compute bf16, components_to_quantize ["transformer", "text_encoder"]), device_map="cuda",
**   the pipeline's defaults (1024 x 1024, 50 steps, no negative prompt: no true CFG), its print
**   torch.cuda.max_memory_allocated() / 1024**3: "only uses 14.93GB of memory"; the same with
**   enable_model_cpu_offload(): "only requires ~12.54GB of memory".
** - huggingface/diffusers docs/source/en/api/pipelines/pixart_sigma.md (from #7857, 0f0defdb65,
**   2024-05-21), "Inference with under 8GB GPU VRAM": PixArt-Sigma-XL-2-1024-MS with its T5 loaded
**   load_in_8bit (then deleted), the transformer and VAE in fp16 after it, 1024 x 1024 defaults
**   (20 steps, guidance 4.5: CFG): "under 8GB"; load_in_4bit: "under 7GB". Bounds of unstated
**   kind (the memory-report gist is not reachable).
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

#define GIB 1073741824.0

static const char *peak_phase(json_t *j) {
  return json_string_value(json_object_get(json_object_get(j, "runtime"), "peak_phase"));
}

static const char *zimage =
    "return { model = 'Tongyi-MAI/Z-Image-Turbo', dtype = 'bf16', runtime = { name = 'diffusers' }, gpu = { "
    "name ="
    " 'record card', memory = '%s' }, workload = { kind = 'image', width = 1024, height = 1024, steps = 8,"
    " cfg = false, offload = '%s'%s } }";

/* components_manager.md's 20GB-card record. Before this round auto offload was not expressible:
** model offload (the nearest mode) predicted the run's peak at 11.92 GiB, the denoising (-15.8%
** against 14.15), since it offloads the transformer before the decode; by hand (transformer and
** VAE resident, the decode's 2.00 GiB) 13.63. With offload "auto" (src/gen.c gen_auto) the
** strategy's decisions follow from the card: before the transformer loads, free = 18.63 GiB less
** the context, the text encoder and its cached activations, 3 GB kept: 11.46 GiB do not fit, the
** text encoder goes; the VAE's 0.16 GiB fit beside the transformer. Predicted 13.63 GiB (-3.7%);
** the phases 7.61 (-2.1% against 7.77) and 11.92 (-1.3% against 12.07). Stated figures, 10%. The
** card's "20GB" is read as 20e9 B: the record's first Available, 18.02 GB, is 18.63 GiB less a
** 0.6 GiB context. */
static void test_zimage_auto_offload_record(void **state) {
  char text[1024];
  snprintf(text, sizeof text, zimage, "20GB", "auto", "");
  json_t *j = tu_eval_ok(*state, text);
  assert_string_equal(peak_phase(j), "VAE decode");
  tu_within_gib(tu_int(j, "runtime.peak_allocated_bytes"), 14.15, 0.10,
                "components_manager.md run peak (20GB card)");
  tu_within_gib(tu_int(j, "runtime.text_encoding_allocated_bytes"), 7.77, 0.10,
                "record Peak at the transformer's row");
  long long te = tu_int(j, "runtime.text_encoding_allocated_bytes"),
            den = tu_int(j, "runtime.denoising_allocated_bytes");
  tu_within_gib(te > den ? te : den, 12.07, 0.10, "record Peak at the VAE's row");
  /* the decode holds the transformer (11.46 GiB) beside the VAE, the text encoder gone */
  json_t *dw = tu_category_item(j, "weights", "denoiser"),
         *tw = tu_category_item(j, "weights", "text_encoder");
  assert_non_null(dw);
  assert_true(json_integer_value(json_object_get(dw, "bytes")) > 11 * (long long)GIB);
  assert_true(tw == NULL || json_integer_value(json_object_get(tw, "bytes")) == 0);
  /* model offload, the nearest mode before: the transformer leaves before the decode */
  snprintf(text, sizeof text, zimage, "20GB", "model", "");
  json_t *m = tu_eval_ok(*state, text);
  assert_string_equal(peak_phase(m), "denoising");
  assert_true(tu_int(j, "runtime.peak_allocated_bytes") >
              tu_int(m, "runtime.peak_allocated_bytes") + (long long)GIB);
  json_decref(m);
  json_decref(j);
}

/* The 13.5GB-card records: with the 3GB reserve the VAE's load offloads the transformer (the
** peak is the denoising, and it fits); with memory_reserve = 0 the VAE loads beside it and the
** decode needs more than the card (diffusers' oom_retry row). On a card with room (80 GB) nothing
** is offloaded: the peak is offload "none"'s, to the byte. */
static void test_zimage_auto_offload_decisions(void **state) {
  char text[1024];
  snprintf(text, sizeof text, zimage, "13.5GiB", "auto", ", memory_reserve = 3");
  json_t *r3 = tu_eval_ok(*state, text);
  assert_string_equal(peak_phase(r3), "denoising");
  assert_true(tu_int(r3, "devices.0.total_bytes") < (long long)(13.5 * GIB));
  snprintf(text, sizeof text, zimage, "13.5GiB", "auto", ", memory_reserve = 0");
  json_t *r0 = tu_eval_ok(*state, text);
  assert_string_equal(peak_phase(r0), "VAE decode");
  assert_true(tu_int(r0, "runtime.peak_allocated_bytes") > (long long)(13.5 * GIB - 0.6 * GIB));
  snprintf(text, sizeof text, zimage, "80GB", "auto", "");
  json_t *big = tu_eval_ok(*state, text);
  snprintf(text, sizeof text, zimage, "80GB", "none", "");
  json_t *none = tu_eval_ok(*state, text);
  assert_int_equal(tu_int(big, "runtime.peak_allocated_bytes"), tu_int(none, "runtime.peak_allocated_bytes"));
  json_decref(r3);
  json_decref(r0);
  json_decref(big);
  json_decref(none);
}

/* PR #14304's slow test (tests/modular_pipelines/z_image/test_modular_pipeline_z_image.py on the
** same branch) asserts the strategy's offloads for Z-Image-Turbo at 1024 x 1024, 4 steps, on
** cards simulated by tests/testing_utils.py simulate_accelerator_memory ("32GB" .. "10GB" through
** accelerate's convert_file_size_to_int: 10^9 B a GB; mem_get_info's free memory is that total
** less what the device really holds): 32GB offloads nothing; 24GB the text encoder once, the VAE
** then loading beside the transformer; 16GB and 10GB the text encoder and the transformer. With
** the record's own CUDA context (20GB card: 18.63 GiB less its first Available, 18.02: 0.61 GiB)
** each card's decisions follow. The 24GB one is 0.1 GiB from the line: with vramfit's assumed
** 0.49 GiB context the text encoder would stay. */
static void test_zimage_auto_offload_cards(void **state) {
  static const char *fmt =
      "return { model = 'Tongyi-MAI/Z-Image-Turbo', dtype = 'bf16', runtime = { name = 'diffusers' }, gpu = "
      "{ name ="
      " 'simulated', memory = '%s' }, cuda_context = '0.61GiB', workload = { kind = 'image', width = 1024, "
      "height ="
      " 1024, steps = 4, cfg = false, offload = '%s' } }";
  /* card, text encoder kept through the decode, transformer kept through the decode */
  static const struct {
    const char *card;
    bool te, den;
  } cases[] = {{"32GB", true, true}, {"24GB", false, true}, {"16GB", false, false}, {"10GB", false, false}};
  /* the bf16 weights (Qwen3-4B's and the DiT's, as the weights lines of the model count them) */
  const long long te_bytes = 8044936192LL, den_bytes = 12309817472LL;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    json_t *j = tu_eval_okf(*state, fmt, cases[i].card, "auto");
    /* the same card under model offload, where the VAE decodes alone */
    json_t *mo = tu_eval_okf(*state, fmt, cases[i].card, "model");
    long long extra =
        tu_int(j, "runtime.vae_decode_allocated_bytes") - tu_int(mo, "runtime.vae_decode_allocated_bytes");
    long long want = (cases[i].te ? te_bytes : 0) + (cases[i].den ? den_bytes : 0);
    if (extra != want)
      fail_msg(
          "%s card: the decode holds %lld B beside the VAE, expected %lld (text encoder %d, transformer %d)",
          cases[i].card, extra, want, cases[i].te, cases[i].den);
    json_decref(j);
    json_decref(mo);
  }
}

static const char *qwen =
    "return { model = 'Qwen/Qwen-Image', dtype = 'bf16', quant = { denoiser = 'bnb-nf4', text_encoder = "
    "'bnb-nf4' },"
    " runtime = { name = 'diffusers' }, gpu = 'H100-SXM-80GB', workload = { kind = 'image', width = 1024, "
    "height ="
    " 1024, steps = 50, cfg = false, max_sequence_length = 512%s } }";

/* quicktour.md (#12128). All resident: predicted 20.46 GiB allocated, the VAE decode beside the
** nf4 transformer (10.71 GiB) and text encoder (5.81: Qwen2.5-VL's Linears in nf4, its
** embed_tokens and lm_head kept bf16); "14.93GB" is below what the stated configuration stores
** (16.78 GiB of weights, 14.9 even without lm_head), so no per-phase mechanism explains it: ruled
** out the GiB / GB reading, the lm_head, the decode (no run can allocate less than its weights).
** Pinned at +37.0%. Model offload: predicted 11.40 GiB, the denoising (the transformer with
** its activations and bitsandbytes' dequantization buffer), -9.1% against "~12.54GB"
** (approximate: 20%). Both as found; nothing changed. */
static void test_qwenimage_quicktour_nf4(void **state) {
  char text[1024];
  snprintf(text, sizeof text, qwen, "");
  json_t *j = tu_eval_ok(*state, text);
  assert_true(tu_int(j, "model.weight_bytes") > (long long)(14.93 * GIB));
  tu_pinned(j, "peak_allocated_bytes", 14.93 * GIB, 0.370);
  snprintf(text, sizeof text, qwen, ", offload = 'model'");
  json_t *m = tu_eval_ok(*state, text);
  assert_string_equal(peak_phase(m), "denoising");
  tu_within_gib(tu_int(m, "runtime.peak_allocated_bytes"), 12.54, 0.20,
                "quicktour.md Qwen-Image nf4 model offload");
  json_decref(j);
  json_decref(m);
}

static const char *pixart =
    "return { model = 'PixArt-alpha/PixArt-Sigma-XL-2-1024-MS', dtype = 'fp16', quant = { text_encoder = "
    "'%s' },"
    " runtime = { name = 'diffusers' }, gpu = 'RTX-4090-24GB', workload = { kind = 'image', width = 1024,"
    " height = 1024, steps = 20, cfg = true, offload = 'model' } }";

/* pixart_sigma.md: the staged run (T5 alone, then the transformer and VAE) is model offload's
** phases. T5-XXL under bitsandbytes keeps its wo projections in fp32, unquantized
** (transformers' _keep_in_fp32_modules joins modules_to_not_convert), so the text encoding is
** the peak: predicted 7.53 GiB allocated with 8-bit (8.03 with the CUDA context) and 6.13 with
** 4-bit (6.63). Held under the allocated reading in GiB (the gist's script is not reachable;
** read as nvidia-smi in decimal GB the 8-bit bound would not hold: 8.62). As found. */
static void test_pixart_sigma_t5_low_bit_bounds(void **state) {
  char text[1024];
  snprintf(text, sizeof text, pixart, "bnb-int8");
  json_t *j8 = tu_eval_ok(*state, text);
  assert_string_equal(peak_phase(j8), "text encoding");
  assert_true(tu_int(j8, "runtime.peak_allocated_bytes") < (long long)(8 * GIB));
  snprintf(text, sizeof text, pixart, "bnb-nf4");
  json_t *j4 = tu_eval_ok(*state, text);
  assert_string_equal(peak_phase(j4), "text encoding");
  assert_true(tu_int(j4, "runtime.peak_allocated_bytes") < (long long)(7 * GIB));
  assert_true(tu_int(j4, "runtime.peak_allocated_bytes") < tu_int(j8, "runtime.peak_allocated_bytes"));
  json_decref(j8);
  json_decref(j4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_zimage_auto_offload_record),
      cmocka_unit_test(test_zimage_auto_offload_decisions),
      cmocka_unit_test(test_zimage_auto_offload_cards),
      cmocka_unit_test(test_qwenimage_quicktour_nf4),
      cmocka_unit_test(test_pixart_sigma_t5_low_bit_bounds),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
