/*
** test_holdout22_gen.c: video generation figures held out of shared/calibration (round 22,
** 2026-12-02), predicted by vramfit through the public API before any change, the mechanism the
** round added for them (workload.diffusion_forcing: SkyReels-V2's per-frame timesteps), and fit's
** search of ComponentsManager auto offload where a diffusers release can run it.
**
** Sources (no figure of them held by an earlier round, a test or a calibration case; the
** SkyReels-V2 README and diffusers' cogvideox.md are cited before for other figures):
** - SkyworkAI/SkyReels-V2 README @abed76f (2025-05-16), the Diffusion Forcing section: the
**   generate_video_df.py commands (--resolution 540P = 544 x 960, --base_num_frames 97,
**   --num_frames 257, --overlap_history 17, --offload), and its note "Generating a 540P video
**   using the 1.3B model requires approximately 14.7GB peak VRAM, while the same resolution video
**   using the 14B model demands around 51.2GB peak VRAM" (GPU and metric not stated; read as GiB
**   against devices[0].total_bytes, as round 9 read the same README's text-to-video note).
** - huggingface/diffusers docs/source/en/api/pipelines/cogvideox.md as #11112 wrote it
**   (c934720629, 2025-06-02; the same at 58eb52c080): "The quantized CogVideoX 5B model below
**   requires ~16GB of VRAM": THUDM/CogVideoX-5b with its transformer loaded apart in bf16 and
**   enable_layerwise_casting(storage fp8_e4m3fn, compute bf16) (the PipelineQuantizationConfig's
**   torchao int8 mapping names the transformer, but a component passed in is not loaded by
**   from_pretrained, so it is not applied), pipeline.to("cuda") then enable_model_cpu_offload(),
**   guidance 6, 50 steps, the pipeline's defaults 720 x 480 x 49 frames, no VAE tiling.
** - zai-org/CogVideo issue #92 (2024-08-08), a-r-r-o-w: with accelerate's branch of PR #2994
**   ("clear memory after offload") "the Diffusers demo runs in ~18 GB": the repository's
**   inference/cli_demo.py of that date (THUDM/CogVideoX-2b in fp16, enable_model_cpu_offload(),
**   720 x 480 x 49 frames, 50 steps, guidance 6, no tiling: diffusers' tiling came with #9150
**   three days later); the comment's code resets the peak stats and prints GiB (its tail, the
**   print itself, was not read: the figure's kind is taken as unstated).
** - genmoai/mochi README @0c86aeb: the repository's single-GPU operation "requires approximately
**   60GB VRAM" (demos/cli.py defaults: 848 x 480, 163 frames, 64 steps, cfg 6.0, batch_cfg False,
**   no --cpu_offload; MochiSingleGPUPipeline, decode_type "tiled_spatial" with 4 x 2 tiles).
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

static const char *layout(json_t *j) {
  return json_string_value(json_object_get(json_array_get(json_object_get(j, "fit"), 0), "layout"));
}

/* A documented miss on devices[0].total_bytes: predicted / published - 1 within half a point. */
static void pinned_total(json_t *j, double published_gib, double known, const char *what) {
  double err = (double)tu_int(j, "devices.0.total_bytes") / GIB / published_gib - 1;
  double d = err > known ? err - known : known - err;
  if (!(d <= 0.005))
    fail_msg("%s: %+.2f%% against %.2f GiB, pinned at %+.2f%%", what, err * 100, published_gib, known * 100);
}

/* SkyReels-V2's Diffusion Forcing pipelines written as round 9 wrote its text-to-video one (the
** bf16 DiT and umT5 moved in and out, the fp32 WanVAE resident: diffusers model offload with
** vae_dtype fp32), 97 frames a window (--base_num_frames 97: 25 latent frames, 51,000 tokens). */
static const char *skyreels_df =
    "return { model = '%s', dtype = 'bf16', runtime = { name = 'diffusers' }, gpu = 'A100-SXM4-80GB',"
    " workload = { kind = 'video', width = 960, height = 544, frames = 97, steps = 30, cfg = true,"
    " offload = 'model', vae_dtype = 'fp32'%s } }";

/* The 14B row. Predicted before the change as the text-to-video pipeline: 37.86 GiB (-26.1%
** against 51.2, the denoising). The DF checkpoints run with a timestep per latent frame, and the
** transformer repeats it over each frame's tokens: SkyReels-V2 skyreels_v2_infer/modules/
** transformer.py forward (t.dim() == 2: e [B, L, dim] and e0 [B, 6, L, dim], contiguous, through
** every block, each block's (modulation + e).chunk(6)), and diffusers' port the same in
** transformer_skyreels_v2.py (v0.35.0, enable_diffusion_forcing: temb and timestep_proj in the
** compute dtype, 7 x 2 B, each block's fp32 sum with scale_shift_table, 24 B, a token x dim):
** 38 B x 51,000 x 5,120 = 9,922,560,000 B more in the denoising, to the byte. After: 48.03 GiB
** (-6.2%; unstated metric, 15%). What remains: SkyReels' own transformer keeps e and e0 in fp32
** (28 B, not diffusers' 14 B: +3.4 GiB here, 51.4 GiB, +0.4%); the scenario follows diffusers'. */
static void test_skyreels_df_14b(void **state) {
  json_t *t2v = tu_eval_okf(*state, skyreels_df, "Wan-AI/Wan2.1-T2V-14B", "");
  json_t *df = tu_eval_okf(*state, skyreels_df, "Wan-AI/Wan2.1-T2V-14B", ", diffusion_forcing = true");
  assert_int_equal(tu_int(df, "runtime.denoiser_tokens"), 51000);
  assert_int_equal(
      tu_int(df, "runtime.denoising_allocated_bytes") - tu_int(t2v, "runtime.denoising_allocated_bytes"),
      38LL * 51000 * 5120);
  assert_string_equal(peak_phase(df), "denoising");
  tu_within_gib(tu_int(df, "devices.0.total_bytes"), 51.2, 0.15, "SkyReels-V2-DF-14B-540P --offload");
  /* the prediction before the change, the text-to-video layout: 26% under */
  pinned_total(t2v, 51.2, -0.261, "SkyReels-V2-DF-14B-540P as text-to-video");
  json_decref(t2v);
  json_decref(df);
}

/* The 1.3B row peaks in the fp32 VAE decode (the per-token timestep adds 2.8 GiB to a 5.6 GiB
** denoising, still under the decode): 12.28 GiB, -16.5% against 14.7, as the text-to-video note's
** same 14.7 (round 9, test_wan_family_holdout9: the fp32 Wan decode constant is fitted to the
** Wan2.1 README's 8.19 row; --teacache's two fp32 [tokens, dim] residuals, kept as plain
** attributes that .cpu() does not move, would add 0.6 GiB here). Pinned. The two READMEs' rows
** agree with each other (the same 14.7 in text-to-video and in DF) as the decode peak says:
** diffusion_forcing_pipeline.py (@abed76f) decodes each 97-frame window after moving the DiT to the
** CPU (self.vae.decode(x0), the frames sent to the CPU before the next window), and VAE-encodes the
** next window's 17-frame prefix before the DiT comes back, so no decode is longer than the T2V one. */
static void test_skyreels_df_1_3b(void **state) {
  json_t *j = tu_eval_okf(*state, skyreels_df, "Wan-AI/Wan2.1-T2V-1.3B", ", diffusion_forcing = true");
  json_t *t2v = tu_eval_okf(*state, skyreels_df, "Wan-AI/Wan2.1-T2V-1.3B", "");
  assert_string_equal(peak_phase(j), "VAE decode");
  assert_int_equal(tu_int(j, "devices.0.total_bytes"), tu_int(t2v, "devices.0.total_bytes"));
  assert_true(tu_int(j, "runtime.denoising_allocated_bytes") >
              tu_int(t2v, "runtime.denoising_allocated_bytes"));
  pinned_total(j, 14.7, -0.164, "SkyReels-V2-DF-1.3B-540P --offload");
  json_decref(j);
  json_decref(t2v);
}

/* cogvideox.md's "~16GB" (approximate, unstated: 20%). Predicted 19.71 GiB in all (+23.2%),
** 17.51 allocated (+9.4%): the peak is the VAE decode alone (the transformer and T5 offloaded),
** 17.09 GiB of it the untiled CogVideoX decode of 2 latent frames (9 frames) at a time, the
** family's calibrated constant; the fp8 transformer's 5.94 GiB are not resident then. Ruled out:
** pipeline.to("cuda") before the offload (the decode is the peak either way: 19.71 both), the
** int8 mapping (not applied to a passed component, and offloaded before the decode). The
** CogVideoX decode is the known open item (allocated 16-42% high against diffusers-torchao while
** ConsisID's cases need it, docs/CALIBRATION.md); pinned at +23.2%. */
static void test_cogvideox_5b_fp8_model_offload(void **state) {
  const char *fmt =
      "return { model = 'THUDM/CogVideoX-5b', dtype = 'bf16', quant = { denoiser = 'fp8-storage' },"
      " runtime = { name = 'diffusers' }, gpu = 'A100-SXM4-80GB', workload = { kind = 'video',"
      " width = 720, height = 480, frames = 49, steps = 50, cfg = true, offload = 'model'%s } }";
  json_t *j = tu_eval_okf(*state, fmt, ", pipe_to_gpu = true");
  json_t *plain = tu_eval_okf(*state, fmt, "");
  assert_string_equal(peak_phase(j), "VAE decode");
  assert_int_equal(tu_int(j, "devices.0.total_bytes"), tu_int(plain, "devices.0.total_bytes"));
  tu_within_gib(tu_int(j, "runtime.peak_allocated_bytes"), 16.0, 0.20,
                "cogvideox.md fp8 CogVideoX-5b (allocated)");
  pinned_total(j, 16.0, 0.232, "cogvideox.md fp8 CogVideoX-5b");
  json_decref(j);
  json_decref(plain);
}

/* CogVideo #92: CogVideoX-2b fp16 with model offload, "~18 GB" (approximate, unstated: 20%).
** Predicted 19.64 GiB in all (+9.1%), 17.44 allocated (-3.1%), the decode alone. As found. */
static void test_cogvideox_2b_cli_demo_model_offload(void **state) {
  json_t *j =
      tu_eval_ok(*state,
                 "return { model = 'THUDM/CogVideoX-2b', dtype = 'fp16', runtime = { name = 'diffusers',"
                 " version = '0.30.0' }, gpu = 'RTX-3090-24GB', workload = { kind = 'video', width = 720,"
                 " height = 480, frames = 49, steps = 50, cfg = true, offload = 'model' } }");
  assert_string_equal(peak_phase(j), "VAE decode");
  tu_within_gib(tu_int(j, "devices.0.total_bytes"), 18.0, 0.20, "CogVideo #92 cli_demo CogVideoX-2b");
  tu_within_gib(tu_int(j, "runtime.peak_allocated_bytes"), 18.0, 0.20, "CogVideo #92 (allocated)");
  json_decref(j);
}

/* Mochi's own single-GPU pipeline, "approximately 60GB". vramfit's reference runtime describes
** Wan, HunyuanVideo, CogVideoX SAT and Open-Sora only: for Mochi it computes the diffusers
** layout with every component resident (bf16 T5, an untiled decode) and now says so. 67.15 GiB
** (+11.9%), inside the 20% of an approximate figure, but not a model of that pipeline: its T5 in
** fp32 (8.9 GiB more) and its 4 x 2 spatially tiled decode (most of the 34 GiB decode less) move
** it in opposite directions. Pinned as found, not claimed. */
static void test_mochi_reference_single_gpu(void **state) {
  json_t *j =
      tu_eval_ok(*state,
                 "return { model = 'genmo/mochi-1-preview', dtype = 'bf16', runtime = { name = 'reference' },"
                 " gpu = 'H100-SXM-80GB', workload = { kind = 'video', width = 848, height = 480,"
                 " frames = 163, steps = 64, cfg = true } }");
  assert_true(tu_assumed_part(j, "genmo/mochi-1-preview's own scripts are not described"));
  pinned_total(j, 60.0, 0.119, "genmo/mochi single GPU");
  json_decref(j);
}

/* fit searches ComponentsManager auto offload (diffusers modular_pipelines/components_manager.py,
** from v0.35.0) after "none", only where the release has a ModularPipeline for the model
** (src/diffusers/modular_pipelines/<family>/ by tag: flux, stable_diffusion_xl and wan from
** v0.35.0, qwenimage v0.36.0, flux2 and z_image v0.37.0, ltx and hunyuan_video1_5 v0.38.0,
** stable_diffusion_3 v0.39.0; none for HunyuanVideo 1.0 or SD 1.x up to v0.40.0). */
static void test_fit_auto_offload_by_release(void **state) {
  const char *flux =
      "return { model = 'black-forest-labs/FLUX.1-dev', dtype = 'bf16', runtime = { name = "
      "'diffusers'%s }, gpu = 'RTX-5090-32GB', workload = { kind = 'image', width = 1024, height = "
      "1024%s } }";
  /* FLUX.1-dev on 32 GB: all resident does not fit; auto offload does (the text encoders yield to
  ** the transformer, the VAE decodes beside it), so it is the answer of the newest release ... */
  json_t *none = tu_eval_okf(*state, flux, "", "");
  json_t *auto_ = tu_eval_okf(*state, flux, "", ", offload = 'auto'");
  assert_false(json_is_true(json_object_get(json_array_get(json_object_get(none, "fit"), 0), "fits")));
  assert_true(json_is_true(json_object_get(json_array_get(json_object_get(auto_, "fit"), 0), "fits")));
  assert_string_equal(layout(none), "offload=auto");
  /* ... and not of v0.34.0, which has no ComponentsManager auto offload: model offload */
  json_t *old = tu_eval_okf(*state, flux, ", version = '0.34.0'", "");
  assert_string_equal(layout(old), "offload=model");
  json_decref(none);
  json_decref(auto_);
  json_decref(old);
  /* HunyuanVideo (1.0) has no ModularPipeline: auto would fit on a 40 GB A100, fit answers model */
  const char *hv =
      "return { model = 'hunyuanvideo-community/HunyuanVideo', dtype = 'bf16', runtime = { name = "
      "'diffusers' }, gpu = 'A100-SXM4-40GB', workload = { kind = 'video', width = 512, height = 320,"
      " frames = 61, vae_tiling = true%s } }";
  json_t *hva = tu_eval_okf(*state, hv, ", offload = 'auto'");
  assert_true(json_is_true(json_object_get(json_array_get(json_object_get(hva, "fit"), 0), "fits")));
  assert_true(tu_assumed_part(hva, "has no ModularPipeline for hunyuanvideo-community/HunyuanVideo"));
  json_t *hvn = tu_eval_okf(*state, hv, "");
  assert_string_equal(layout(hvn), "offload=model");
  json_decref(hva);
  json_decref(hvn);
  /* SDXL has one from v0.35.0 */
  const char *xl =
      "return { model = 'stabilityai/stable-diffusion-xl-base-1.0', dtype = 'fp16', runtime = { name = "
      "'diffusers', version = '%s' }, gpu = 'RTX-3060-8GB', workload = { kind = 'image', width = 1024,"
      " height = 1024 } }";
  json_t *x34 = tu_eval_okf(*state, xl, "0.34.0"), *x35 = tu_eval_okf(*state, xl, "0.35.0");
  assert_string_equal(layout(x34), "offload=model");
  assert_string_equal(layout(x35), "offload=auto");
  json_decref(x34);
  json_decref(x35);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_skyreels_df_14b),
      cmocka_unit_test(test_skyreels_df_1_3b),
      cmocka_unit_test(test_cogvideox_5b_fp8_model_offload),
      cmocka_unit_test(test_cogvideox_2b_cli_demo_model_offload),
      cmocka_unit_test(test_mochi_reference_single_gpu),
      cmocka_unit_test(test_fit_auto_offload_by_release),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
