/*
** test_holdout24_gen.c: diffusers' ComponentsManager auto offload per registered component
** (round 24, 2026-12-02). Round 21's gen_auto took the text encoders as one component and a
** two-expert denoiser as one; diffusers hooks each registered component on its own
** (modular_pipelines/components_manager.py @58eb52c080: a CustomOffloadHook per component,
** AutoOffloadStrategy choosing, before a component loads, the smallest combination of the
** resident components whose bytes cover the shortfall). No published measurement of such a
** run was found this round: the expectations below are derived by hand from that rule, each
** component's bytes (its parameters x 2 in bf16) and vramfit's own modelled figures (stated
** beside each), byte-exact.
**
** Pipeline order: FLUX's encode_prompt runs CLIP (text_encoder), then T5 (text_encoder_2)
** (modular_pipelines/flux/encoders.py); Wan2.2 A14B's loop runs transformer while
** t >= boundary, then transformer_2 (modular_pipelines/wan/denoise.py, ComponentSpec
** "transformer" and "transformer_2": separate components since Wan22AutoBlocks, v0.36.0).
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

/* the components' bytes (bf16): CLIP-L 123,060,480 params, T5-XXL encoder 4,762,310,656,
** FLUX.1-dev transformer 11,901,408,320, VAE 83,819,683 */
#define CLIP_L 246120960LL
#define T5_XXL 9524621312LL
#define FLUX_DIT 23802816640LL

static const char *flux =
    "return { model = 'black-forest-labs/FLUX.1-dev', dtype = 'bf16', runtime = { name = "
    "'diffusers' }, gpu = { name = 'card', memory = '%s' }, workload = { kind = 'image', "
    "width = 1024, height = 1024, steps = 28, max_sequence_length = 512, offload = 'auto' } }";

/* FLUX.1-dev 1024^2, memory_reserve 3 GB (the default). At the transformer's load the resident
** set is CLIP + T5 beside vramfit's 0.49 GiB context (524,288,000 B) and the text encoding's
** cached 134,217,728 B: used 10,429,248,000 B.
** - 24 GB card: room 24e9 - used - 3e9 = 10,570,752,000 B; shortfall 13,232,064,640 B, which
**   neither encoder nor both (9,770,742,272) cover: all go; the VAE then loads beside nothing.
**   The reference figures (everything offloaded before each phase).
** - 32 GB card: room 18,570,752,000 B, shortfall 5,232,064,640 B: {CLIP} does not cover it, {T5}
**   does and is smaller than {CLIP, T5}: T5 goes, CLIP stays beside the transformer. At the
**   VAE's load (cached: the denoising's 457,179,136 B) room 3,969,595,264 B > the VAE: nothing
**   goes. Denoising +CLIP, decode +CLIP +transformer against the 24 GB card. Round 21 offloaded
**   both encoders here (one component of 9,770,742,272 B): denoising +0, decode +transformer.
** - 37.1 GB card: room 23,670,752,000 B, shortfall 132,064,640 B: {CLIP} covers it: CLIP goes,
**   T5 stays. At the VAE's load used 34,308,905,088 B, free 2,791,094,912 B < the reserve: room
**   0, shortfall = the VAE: {T5} is the smallest cover, T5 goes, the VAE decodes beside the
**   transformer. Round 21: both encoders out before the transformer (shortfall 132,064,640 B
**   covered only by the pair). */
static void test_flux_encoders_separate(void **state) {
  json_t *c24 = tu_eval_okf(*state, flux, "24GB");
  json_t *c32 = tu_eval_okf(*state, flux, "32GB");
  json_t *c37 = tu_eval_okf(*state, flux, "37.1GB");
  long long d24 = tu_int(c24, "runtime.denoising_allocated_bytes");
  long long v24 = tu_int(c24, "runtime.vae_decode_allocated_bytes");
  long long t24 = tu_int(c24, "runtime.text_encoding_allocated_bytes");
  /* the text encoding holds both encoders on every card here (nothing resident before it) */
  assert_int_equal(tu_int(c32, "runtime.text_encoding_allocated_bytes"), t24);
  assert_int_equal(tu_int(c37, "runtime.text_encoding_allocated_bytes"), t24);
  assert_int_equal(tu_int(c32, "runtime.denoising_allocated_bytes") - d24, CLIP_L);
  assert_int_equal(tu_int(c32, "runtime.vae_decode_allocated_bytes") - v24, CLIP_L + FLUX_DIT);
  assert_int_equal(tu_int(c37, "runtime.denoising_allocated_bytes") - d24, T5_XXL);
  assert_int_equal(tu_int(c37, "runtime.vae_decode_allocated_bytes") - v24, FLUX_DIT);
  assert_string_equal(json_string_value(json_object_get(json_object_get(c37, "runtime"), "peak_phase")),
                      "denoising");
  json_decref(c24);
  json_decref(c32);
  json_decref(c37);
}

static const char *wan =
    "return { model = 'Wan-AI/Wan2.2-T2V-A14B', dtype = 'bf16', runtime = { name = "
    "'diffusers' }, gpu = { name = 'card', memory = '%s' }, workload = { kind = 'video', "
    "width = 1280, height = 720, frames = 81, steps = 40, offload = 'auto' } }";

/* Wan2.2 T2V A14B 720p x 81: umT5-XXL 11,361,820,672 B, each expert 28,576,983,168 B, VAE
** 277,571,174 B; vramfit's denoising pool 15,560,294,400 B, context 524,288,000 B.
** - 96 GB card: transformer_2's load finds T5 + transformer + the high-noise steps' cached pool
**   (used 56,023,386,240 B): room 96e9 - used - 3e9 = 36,976,613,760 B > an expert: nothing goes,
**   nor at the VAE's. Everything resident (round 21's figures: both experts as one, 57.15 GB,
**   fitted beside T5 on this card too).
** - 80 GiB card (85,899,345,920 B): the same used, room 26,875,959,680 B < an expert: shortfall
**   1,701,023,488 B, covered by {T5} (smaller than either expert): T5 goes, transformer_2 loads
**   beside transformer. The VAE (cache: the loop's pool, 73,238,548,736 B used) fits beside both
**   experts. Denoising and decode each less T5 than the 96 GB card. Round 21 (the experts one
**   component, loaded at once before the loop's pool existed) saw room 85,899,345,920 -
**   524,288,000 - 134,217,728 - 11,361,820,672 - 3e9 = 70,879,019,520 B > 57,153,966,336: T5
**   stayed, 84,084,601,088 B denoising. */
static void test_wan22_experts_separate(void **state) {
  json_t *big = tu_eval_okf(*state, wan, "96GB");
  json_t *a80 = tu_eval_okf(*state, wan, "80GiB");
  long long t5 = 11361820672LL;
  assert_int_equal(tu_int(big, "runtime.denoising_allocated_bytes"), 84084601088LL);
  assert_int_equal(tu_int(a80, "runtime.denoising_allocated_bytes"),
                   tu_int(big, "runtime.denoising_allocated_bytes") - t5);
  assert_int_equal(tu_int(a80, "runtime.vae_decode_allocated_bytes"),
                   tu_int(big, "runtime.vae_decode_allocated_bytes") - t5);
  assert_int_equal(tu_int(a80, "runtime.text_encoding_allocated_bytes"),
                   tu_int(big, "runtime.text_encoding_allocated_bytes"));
  json_decref(big);
  json_decref(a80);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flux_encoders_separate),
      cmocka_unit_test(test_wan22_experts_separate),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
