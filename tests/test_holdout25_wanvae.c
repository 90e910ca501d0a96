/*
** test_holdout25_wanvae.c: Wan2.2's VAE (Wan2_2_VAE, the TI2V-5B pipeline's 16x16x4 VAE) laid out
** conv by conv (round 25c, 2026-12-02), and its decode peak against the runs that print it.
**
** Mechanism: Wan-Video/Wan2.2 @bf69229 wan/modules/vae2_2.py (the same layer list as @42bf4cf,
** the commit round 25b read): WanVAE_(dim 160, dec_dim 256, z_dim 48, dim_mult 1, 2, 4, 4,
** num_res_blocks 2, temperal_downsample False, True, True as Wan2_2_VAE passes it). Encoder3d:
** conv1 CausalConv3d(12 -> 160, 3) on the 2x2-patchified RGB; four Down_ResidualBlocks of 2
** ResidualBlocks (RMS_norm gamma, CausalConv3d 3x3x3, RMS_norm gamma, CausalConv3d 3x3x3, a 1x1x1
** shortcut where the width changes; AvgDown3D has no weights), each but the last ending in a
** Resample (Conv2d 3x3, plus a (3,1,1) time_conv where it halves the frames); the middle (2
** ResidualBlocks, an AttentionBlock: RMS_norm, to_qkv 1x1, proj 1x1); head RMS_norm +
** CausalConv3d(640 -> 96, 3). WanVAE_.conv1 (96 -> 96, 1) and conv2 (48 -> 48, 1). Decoder3d at
** 256 x 4, 4, 4, 2, 1: conv1 CausalConv3d(48 -> 1024, 3), the same middle at 1024, four
** Up_ResidualBlocks of 3 ResidualBlocks, each but the last ending in a Resample (Conv2d 3x3, plus
** a time_conv CausalConv3d(d -> 2d, (3,1,1)) where it doubles the frames; DupUp3D has no
** weights); head RMS_norm + CausalConv3d(256 -> 12, 3). 704,688,668 parameters: encoder
** 149,627,776, decoder 555,049,228, conv1 / conv2 11,664. vramfit's former generic layout
** (gen_parts vae_kl with a 256-wide decoder: 3x3x3 resamplers, GroupNorm weights and biases,
** no time_conv) had 2.80 GiB.
**
** Figures (no new source: the open items of round 25b's zysno1/Wan2.2-Enhanced run and of the
** Wan2.2 README's 4090 rows, already in docs/CALIBRATION.md):
** - zysno1/Wan2.2-Enhanced benchmark_report_RTX_PRO_6000_Blackwell_Server_Edition.md @4ca4175,
**   01_Speed_Preview_704p (ti2v-5B, 1280*704, 161 frames, offload_model, t5_cpu, no
**   --convert_model_dtype; max_memory_allocated in MiB / 1024): Model_Initialization and
**   T5_Encoding 2.63 (the fp32 VAE alone on the GPU), VAE_Decoding 23.54, peak 31.27.
** - Wan-Video/Wan2.2 README.md @42bf4cf (assets/comp_effic.png): TI2V-5B T2V 720P on RTX 4090,
**   1 GPU: 22.9 GB (kind not stated: read as reserved, 15%).
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

/* the exact parameter count of Wan2_2_VAE, wan/modules/vae2_2.py @bf69229 (see above) */
#define WAN22_VAE_PARAMS 704688668LL

static const char *enhanced =
    "return { model = 'Wan-AI/Wan2.2-TI2V-5B', dtype = 'bf16', runtime = { name = 'reference',"
    " convert_model_dtype = false }, gpu = 'RTX-PRO-6000-Blackwell-96GB', workload = { kind = 'video',"
    " width = 1280, height = 704, frames = 161, steps = 5, cfg = true, offload = 'model', text_encoders = "
    "'cpu' } }";

static const char *readme_4090 =
    "return { model = 'Wan-AI/Wan2.2-TI2V-5B', dtype = 'bf16', runtime = { name = 'reference' },"
    " gpu = 'NVIDIA GeForce RTX 4090', workload = { kind = 'video', width = 1280, height = 704,"
    " frames = 121, steps = 50, cfg = true, offload = 'model', text_encoders = 'cpu' } }";

static long long vae_weight_bytes(json_t *j) {
  json_t *c = tu_category_item(j, "weights", "vae");
  assert_non_null(c);
  return (long long)json_integer_value(json_object_get(c, "bytes"));
}

/* The VAE's parameters to the byte, fp32 (Wan2_2_VAE's dtype=torch.float; generate.py builds it
** on the GPU: Wan2_2_VAE(device=self.device)). Before: 2.80 GiB (+6.4% against the printed 2.63);
** after 2.625 GiB, which the monitor's two decimals print as 2.63. The text encoding (T5 on the
** CPU, the VAE alone resident) stays within the stated 10%. */
static void test_wan22_vae_params(void **state) {
  json_t *j = tu_eval_ok(*state, enhanced);
  assert_int_equal(vae_weight_bytes(j), 4 * WAN22_VAE_PARAMS);
  char got[16];
  snprintf(got, sizeof got, "%.2f", (double)vae_weight_bytes(j) / TU_GIB);
  assert_string_equal(got, "2.63");
  tu_gib(j, "text_encoding_allocated_bytes", 2.63, 0.10, 0.005);
  json_decref(j);
  /* the 4090 rows run the same VAE: the same bytes whatever convert_model_dtype says */
  json_t *r = tu_eval_ok(*state, readme_4090);
  assert_int_equal(vae_weight_bytes(r), 4 * WAN22_VAE_PARAMS);
  json_decref(r);
}

/* The decode (printed VAE_Decoding 23.54, allocated, 10%): before 23.65 (+0.5%), after 23.49
** (-0.2%), the weights 0.17 GiB lower. The per-chunk decode is still the "wan" family's constant
** (src/gen.c: 22.75 B a fp32 pixel x frame x channel) over vae_peak_channels = 104
** (architectures/wan.lua), not a mechanism: a port of gen_parts' wan_vae_decode_elems to
** Decoder3d's layout (the feat_cache frames of every CausalConv3d, the time_conv caches, the
** Up_ResidualBlock's x and x_main clone, the conv in flight at 256 channels on the half-resolution
** map) gives 686 fp32 elements per output pixel x frame, 64 channels' worth, against Wan2.1's
** 1,023 for the 96 its 22.75 was fitted on: the decode would then be 17.4 GiB (-26%). What the
** missing ~500 elements per pixel x frame are (cuDNN 3D convolution workspaces, DupUp3D's
** repeat_interleave and contiguous copies, the upsample's fp32 copies) was not settled, so the
** fitted 104 stays, checked here against the run that prints the decode directly. */
static void test_wan22_vae_decode(void **state) {
  json_t *j = tu_eval_ok(*state, enhanced);
  tu_gib(j, "vae_decode_allocated_bytes", 23.54, 0.10, 0.005);
  tu_pinned(j, "vae_decode_allocated_bytes", 23.54 * TU_GIB, -0.002);
  tu_gib(j, "peak_allocated_bytes", 31.27, 0.10, 0.005);
  json_decref(j);
}

/* The README's 4090 row (22.9, kind not stated, 15%): before +6.35%, after +5.74% (24.21 GiB
** reserved). Its allocated figure is 22.25 (-2.8% against 22.9): what is over is the reserved
** slack vramfit adds over the decode's transients (1.96 GiB, 10% of them), not the decode
** constant, whose allocated figure the Enhanced run's printed decode confirms at 161 frames
** (test_wan22_vae_decode). Pinned, the slack left as it is (no figure isolates it here). */
static void test_wan22_4090_row(void **state) {
  json_t *j = tu_eval_ok(*state, readme_4090);
  tu_gib(j, "peak_reserved_bytes", 22.9, 0.15, 0.05);
  tu_pinned(j, "peak_reserved_bytes", 22.9 * TU_GIB, 0.0574);
  tu_pinned(j, "peak_allocated_bytes", 22.9 * TU_GIB, -0.028);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wan22_vae_params),
      cmocka_unit_test(test_wan22_vae_decode),
      cmocka_unit_test(test_wan22_4090_row),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
