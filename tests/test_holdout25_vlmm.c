/* Held-out vLLM V1 start-ups of multimodal models, round 25c (branch vlmm25), predicted before any
** change. Two public sources; the brief asked for four, and the round's time went to finding logs
** whose GPU, arguments and figures are all printed (see /work/reports/vlmm25.md for the rest).
**
** What the round changed: a preset for Qwen/Qwen2.5-VL-3B-Instruct (architectures/presets.lua, the
** Hugging Face config.json) so the start-up below can be written at all; no model change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

/* ---- ray-project/ray doc/source/data/examples/llm-batch-inference-vision/README.md ("Vision-
** language model batch inference with Ray Data", the notebook's output of 2025-11-13): Ray Data's
** vLLMEngineProcessorConfig with model_source Qwen/Qwen2.5-VL-3B-Instruct, engine_kwargs
** max_model_len 8192, max_num_batched_tokens 2048, accelerator_type "L4" (one GPU per replica),
** util not set (0.9). vLLM 0.11.0 V1, bf16, prefix caching on, cudagraph_capture_sizes
** [256 .. 1] (35 sizes: so max_num_seqs 128, vLLM 0.11's capture maximum being 2 x max_num_seqs),
** "FlashInfer is not available. Falling back to the PyTorch-native implementation of top-p &
** top-k sampling", "Model loading took 7.1550 GiB", "Encoder cache will be initialized with a
** budget of 16384 tokens, and profiled with 1 image items of the maximum feature size",
** "Available KV cache memory: 9.26 GiB", "GPU KV cache size: 269,568 tokens", "Maximum
** concurrency for 8,192 tokens per request: 32.91x", PIECEWISE 35/35, FULL 19/19, "Graph
** capturing finished in 4 secs, took 0.44 GiB" (the same on the four replicas).
** Predicted before any change: weights 7.1512 (-0.05 %); encoder budget 16384 tokens, 1 image
** item (exact); sizes 35 / 19 (exact); KV 10.107 GiB (+9.1 %), 294,384 tokens (+9.2 %), 35.94x
** (+9.2 %); capture 0.47 (+6.8 %). The profile the log implies (0.9 x 22.03 - 7.155 - 9.26 =
** 3.41 GiB of activation and non-torch memory) is modelled at 2.57 (-24.7 %): the vision encoder's
** peak over 65,536 patches (2.44 GiB: fp32 pixel_values and their bf16 cast, the gated MLP's
** gate_up + activation at 14,100 elements a patch) is the only large term. Ruled out: the
** sampler (128 x 151,936 fp32 logits, 74 MiB), the decoder's 2048-token run, the encoder outputs
** (16384 x 2048 x 2 B = 64 MiB, counted), the capture (after KV sizing in 0.11). Not confirmed:
** cuDNN's Conv3d workspace in Qwen2.5-VL's patch embedding (0.11.0 still a Conv3d), and the
** attention stage of the vision block. Read at vllm-project/vllm@002d181a (later than 0.11.0, so
** not scored): Qwen2_5_VisionAttention.forward holds, beside the block input and its norm (2 h a
** patch), qkv (3 h), q / k / v re-laid out "s b -> b s" (3 h), torch.cat([q, k]) (2 h) and its
** rotated copy (2 h): 12 h = 15,360 elements a patch before the rotary's own temporaries, above the
** MLP's 14,100 that mm_encoder_bytes takes as the peak. At 65,536 patches each h a patch is
** 0.156 GiB, so 12 h + a 2-4 h rotary temporary would close most of the 0.84 GiB; to be modelled
** from the 0.11.0 file itself in a later round (it moves every Qwen2.5-VL case). The KV figures
** were pinned at their current error.
** Round 25d (branch qvl25, tests/test_holdout25_qvl.c): that attention stage is now modelled for
** 0.11 (src/rt_vllm.c mm_encoder_bytes: 20 h a patch with the fp32 rotary of q ++ k, beside one
** fp32 pixel copy in V1, the bf16 cast released before the blocks): encoder peak 2.439 ->
** 3.412 GiB, profile 3.54 against the implied 3.41 (+3.9 %), KV 9.134 GiB (-1.4 %), 266,032
** tokens (-1.3 %), 32.47x (-1.3 %): held at their tolerances. */
#define RAY_L4_QWEN25VL3B                                                                           \
  "return { model = 'Qwen/Qwen2.5-VL-3B-Instruct', runtime = { name = 'vllm', version = '0.11.0', " \
  "max_model_len = 8192, max_num_batched_tokens = 2048, max_num_seqs = 128, flashinfer_sampler = "  \
  "false }, workload = { kind = 'inference', context = 8192 }, gpu = 'L4-24GB' }"

static void test_holdout25_ray_qwen25vl3b_l4(void **state) {
  json_t *j = tu_eval_ok(*state, RAY_L4_QWEN25VL3B);
  tu_gib(j, "weights_bytes", 7.1550, 0.01, 0.00005);
  tu_near_fig(j, "mm_tokens_per_item", 16384, 0, 0);
  tu_near_fig(j, "mm_items_profiled", 1, 0, 0);
  tu_near_fig(j, "cuda_graph_sizes_piecewise", 35, 0, 0);
  tu_near_fig(j, "cuda_graph_sizes_full", 19, 0, 0);
  tu_gib(j, "kv_cache_bytes", 9.26, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 269568, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 32.91, 0.05, 0.005);
  tu_gib(j, "cuda_graph_bytes", 0.44, 0.25, 0.005);
  /* the profile the log implies: 0.9 x 22.03 GiB - weights - KV */
  double prof = tu_runtime_fig(j, "activation_peak_bytes") + tu_runtime_fig(j, "non_torch_bytes");
  double implied = (0.9 * 22.03 - 7.155 - 9.26) * TU_GIB;
  double err = prof / implied - 1;
  if (!(err > -0.25 && err < 0.25))
    fail_msg("profile %+.2f%% against the implied %.3f GiB (25 %%)", err * 100, implied / TU_GIB);
  json_decref(j);
}

/* ---- TaintsAndTokenizersInc/vllm_multimodal_rocm_examples example_logs.md @67f21188 ("vLLM API
** Server Startup Log (Example)"; the README names an "AMD MI300X, MI325X" as the hardware):
** vLLM 0.11.0rc2.dev98+g393de22d2 on ROCm, google/gemma-3-27b-it bf16, non-default args
** max_model_len 4096 and limit_mm_per_prompt {'image': 2} (8192 batched tokens, 67 capture sizes
** to 512, prefix caching on; "MultiHeadAttention attn_backend: _Backend.TORCH_SDPA", Triton
** attention): "Model loading took 51.7891 GiB", "Encoder cache will be initialized with a budget of
** 8192 tokens, and profiled with 31 image items of the maximum feature size", "Available KV cache
** memory: 109.86 GiB", "Add 8 padding layers, may waste at most 15.38% KV cache memory", "GPU KV
** cache size: 205,696 tokens", "Maximum concurrency for 4,096 tokens per request: 50.05x", PIECEWISE
** 67/67, FULL 67/67, "took 1.02 GiB", "num_gpu_blocks is: 89994". The GPU is not printed: an
** MI300X-OAM-192GB assumed (51.79 + 109.86 + about 11 GiB of profile is 0.9 x 191.98; an MI325X
** would leave 68 GiB of profile). Run as 0.11.0.
** Predicted before any change: weights 51.4389 (-0.68 %); tokens per GiB of KV 1872.42 against the
** printed 1872.35 (the sliding-window / full hybrid and its padding layers: exact); KV 111.12 GiB
** (+1.15 %), 208,064 tokens (+1.15 %), 50.63x (+1.15 %), 91,029 blocks (+1.15 %); sizes 67 / 67
** (exact); encoder budget 8192 (exact) but 32 items against the printed 31, and capture 1.72 GiB
** (+68 %). Both pinned:
** - 31 items: 8192 // 31 leaves a per-item maximum between 257 and 264 tokens, not Gemma 3's 256
**   soft tokens; "\n\n<start_of_image>" + 256 x <image_soft_token> + "<end_of_image>\n\n" is 260
**   tokens, which would give 31 if this build's budget counts an item's whole placeholder range
**   rather than its embeddings. Not yet read in vLLM's source at this commit; one item less
**   moves the encoder peak by 1/32 and nothing printed here.
** - the capture on ROCm: 1.02 GiB for 67 + 67 graphs; vramfit's capture model is calibrated on
**   CUDA graphs (no ROCm capture in shared/calibration), not changed on one log. */
#define ROCM_GEMMA3_27B                                                                                \
  "return { model = 'google/gemma-3-27b-it', runtime = { name = 'vllm', version = '0.11.0', "          \
  "max_model_len = 4096, limit_mm_per_prompt = 'image=2' }, workload = { kind = 'inference', context " \
  "= 4096 }, gpu = 'MI300X-OAM-192GB' }"

static void test_holdout25_rocm_gemma3_27b(void **state) {
  json_t *j = tu_eval_ok(*state, ROCM_GEMMA3_27B);
  tu_gib(j, "weights_bytes", 51.7891, 0.01, 0.00005);
  tu_near_fig(j, "mm_tokens_per_item", 256, 0, 0);
  tu_pinned(j, "mm_items_profiled", 31, +0.0323);
  tu_near_fig(j, "cuda_graph_sizes_piecewise", 67, 0, 0);
  tu_near_fig(j, "cuda_graph_sizes_full", 67, 0, 0);
  /* GPU-independent: tokens per GiB of the KV pool */
  double per_gib = tu_runtime_fig(j, "kv_cache_tokens") / (tu_runtime_fig(j, "kv_cache_bytes") / TU_GIB);
  if (!(per_gib / (205696 / 109.86) - 1 < 0.005 && per_gib / (205696 / 109.86) - 1 > -0.005))
    fail_msg("tokens per GiB %.2f against the printed %.2f", per_gib, 205696 / 109.86);
  /* on the assumed MI300X */
  tu_gib(j, "kv_cache_bytes", 109.86, 0.05, 0.005);
  tu_near_fig(j, "kv_cache_tokens", 205696, 0.05, 0);
  tu_near_fig(j, "num_gpu_blocks", 89994, 0.05, 0);
  tu_near_fig(j, "max_concurrency", 50.05, 0.05, 0.005);
  tu_pinned(j, "cuda_graph_bytes", 1.02 * TU_GIB, +0.6829);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout25_ray_qwen25vl3b_l4),
      cmocka_unit_test(test_holdout25_rocm_gemma3_27b),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
