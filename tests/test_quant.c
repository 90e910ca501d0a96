/*
** test_quant.c: quantization formats (scripts/quant.lua and the files of scripts/quant/) through the
** public API: exact weight bytes of gptq, awq, bnb-nf4, fp8, mxfp4 and gguf:<TYPE> on known
** presets against hand arithmetic (in the comments) and published checkpoint / llama.cpp
** buffer sizes, the runtime overhead they add, and the exact messages for bad input.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdbool.h>

#include <cmocka.h>

#include "apiutil.h"

#define MIB 1048576LL
/* half of the 0.01 MiB llama.cpp prints (calibration abs_tol 5243 B) */
#define PRINTED_MIB_TOL 5243LL

/* The report of `model` with `quant` (Lua source of the field); fails the test on error. */
static json_t *eval_quant(vf_engine *e, const char *model, const char *quant) {
  char text[512];
  snprintf(text, sizeof text,
           "return { model = '%s', dtype = 'fp16', quant = %s,"
           " workload = { kind = 'inference', context = 2048, concurrency = 1 } }",
           model, quant);
  json_t *j = NULL;
  if (tu_eval(e, text, &j) != VF_OK) fail_msg("%s %s: %s", model, quant, vf_engine_error(e));
  return j;
}

static long long weight_bytes(vf_engine *e, const char *model, const char *quant) {
  json_t *j = eval_quant(e, model, quant);
  long long b = tu_int(j, "model.weight_bytes");
  json_decref(j);
  return b;
}

#define LLAMA8 "meta-llama/Llama-3.1-8B"
/* Llama-3.1-8B unquantized part in fp16: embed + lm_head 2 x 128256 x 4096 x 2 B =
** 2,101,346,304 plus 65 norms x 4096 x 2 B = 532,480 -> 2,101,878,784. Per layer the
** Linears are q, o {4096, 4096}, k, v {1024, 4096}, gate, up {14336, 4096}, down {4096, 14336}:
** 218,103,808 elements, 32 layers. */
#define LLAMA8_KEPT 2101878784LL

/* gptq 4-bit g128: qweight in*out/2 + qzeros (in/128)*(out/2) + scales (in/128)*out*2.
** q, o: 8,388,608 + 65,536 + 262,144 = 8,716,288; k, v: 2,097,152 + 16,384 + 65,536 =
** 2,179,072; gate, up, down: 29,360,128 + 229,376 + 917,504 = 30,507,008.
** Layer 113,311,744 x 32 = 3,625,975,808. With act-order g_idx (int32 per input column):
** 6 x 4096 x 4 + 14336 x 4 = 155,648 per layer more, 4,980,736 in all. */
static void test_gptq(void **state) {
  assert_int_equal(weight_bytes(*state, LLAMA8, "'gptq'"), 3625975808LL + LLAMA8_KEPT);
  assert_int_equal(weight_bytes(*state, LLAMA8, "{ name = 'gptq', bits = 4, group_size = 128, desc_act = true }"),
                   3625975808LL + 4980736LL + LLAMA8_KEPT);
  /* 8-bit per-row (group_size -1): in*out + out*2 (scales) + out (qzeros, 8 bits x out / 32 words):
  ** 218,103,808 + (4096+1024+1024+4096+14336*2+4096 = 43,008) x 3 per layer = 218,103,808 + 129,024 */
  assert_int_equal(weight_bytes(*state, LLAMA8, "{ name = 'gptq', bits = 8, group_size = -1 }"),
                   (218103808LL + 129024LL) * 32 + LLAMA8_KEPT);
}

/* awq g128: qweight in*(out/8)*4 + qzeros (in/128)*(out/8)*4 + scales (in/128)*out*2: the same
** bytes as gptq without g_idx for these shapes. Transformers adds the GEMM kernel's fp16
** dequantization of the largest layer (gate/up/down: 58,720,256 x 2 B). */
static void test_awq(void **state) {
  json_t *j = eval_quant(*state, LLAMA8, "'awq'");
  assert_int_equal(tu_int(j, "model.weight_bytes"), 3625975808LL + LLAMA8_KEPT);
  assert_int_equal(tu_category(j, "quant_overhead"), 117440512LL);
  json_decref(j);
}

/* bnb-nf4, blocksize 64: numel/2 + numel/64 x 4 (fp32 absmax) + 64 (code) = numel x 9/16 + 64:
** 218,103,808 x 9/16 + 7 x 64 = 122,683,840 per layer. Double quant: numel/2 + nblocks (uint8
** absmax) + ceil(nblocks/256) x 4 + 1024 + 4 + 64: q, o 8,655,940; k, v 2,164,804; gate, up,
** down 30,293,060 -> 112,520,668 per layer. */
static void test_bnb_nf4(void **state) {
  json_t *j = eval_quant(*state, LLAMA8, "'bnb-nf4'");
  assert_int_equal(tu_int(j, "model.weight_bytes"), 122683840LL * 32 + LLAMA8_KEPT);
  assert_int_equal(tu_int(j, "model.params"), 8030261248LL); /* logical parameters unchanged */
  assert_int_equal(tu_category(j, "quant_overhead"), 58720256LL * 2);
  json_decref(j);
  assert_int_equal(weight_bytes(*state, LLAMA8, "{ name = 'bnb-nf4', double_quant = true }"),
                   112520668LL * 32 + LLAMA8_KEPT);
}

/* fp8 per-tensor: numel + 4 (fp32 weight_scale) -> 218,103,808 + 28 per layer. Block 128x128:
** ceil(out/128) x ceil(in/128) x 4: q, o 4096; k, v 1024; gate, up, down 14,336 -> 53,248. */
static void test_fp8(void **state) {
  assert_int_equal(weight_bytes(*state, LLAMA8, "'fp8'"), (218103808LL + 28) * 32 + LLAMA8_KEPT);
  assert_int_equal(weight_bytes(*state, LLAMA8, "{ name = 'fp8', scheme = 'block' }"),
                   (218103808LL + 53248) * 32 + LLAMA8_KEPT);
  assert_int_equal(weight_bytes(*state, LLAMA8, "{ name = 'fp8', scheme = 'channel' }"),
                   (218103808LL + (4096 * 2 + 1024 * 2 + 14336 * 2 + 4096) * 4) * 32 + LLAMA8_KEPT);
}

/* Routed experts held as fused MoE parameters (Qwen3.5-MoE's experts.gate_up_proj {2I, h} and
** experts.down_proj {h, I}, one expert a tensor, no ".weight" suffix) are quantized by the checkpoint
** formats like Linears, as vLLM's FusedMoE methods load them (hold-out round 6:
** Qwen/Qwen3.5-35B-A3B-FP8 loads 34.22 GiB on vLLM 0.18, 63.70 predicted while the experts stayed
** bf16). Qwen3.5-35B-A3B: 40 layers x 256 experts, h 2048, I 512. Block FP8 per expert: gate_up
** 1024 x 2048 B + 8 x 16 scales x 4 B = 2,097,664, down 2048 x 512 B + 16 x 4 x 4 B = 1,048,832,
** against 6,291,456 B in fp16: 3,144,960 B less an expert. Keeping every other tensor isolates them.
** bitsandbytes (transformers replaces nn.Linear modules only) leaves them alone. */
static void test_fused_experts(void **state) {
  const char *m = "Qwen/Qwen3.5-35B-A3B";
  json_t *j = NULL;
  if (tu_eval(*state, "return { model = 'Qwen/Qwen3.5-35B-A3B', dtype = 'fp16', workload = { kind = 'inference', "
                      "context = 2048, concurrency = 1 } }", &j) != VF_OK)
    fail_msg("%s", vf_engine_error(*state));
  long long fp16 = tu_int(j, "model.weight_bytes");
  json_decref(j);
  long long fp8 = weight_bytes(*state, m, "{ name = 'fp8', scheme = 'block', keep = { '^(?!.*experts\\\\.)' } }");
  long long w8 = weight_bytes(*state, m, "{ name = 'w8a8', keep = { '^(?!.*experts\\\\.)' } }");
  assert_int_equal(fp16 - fp8, 40LL * 256 * 3144960);
  /* w8a8 (int8 + fp32 per row): gate_up 2,097,152 + 1024 x 4, down 1,048,576 + 2048 x 4 */
  assert_int_equal(w8 - fp8, 40LL * 256 * ((2097152 + 4096 + 1048576 + 8192) - (2097664 + 1048832)));
  /* bitsandbytes quantizes nn.Linear modules only: with them all kept, nothing is left */
  j = NULL;
  assert_int_not_equal(tu_eval(*state, "return { model = 'Qwen/Qwen3.5-35B-A3B', dtype = 'fp16', quant = { name = "
                                       "'bnb-nf4', keep = { '^(?!.*experts\\\\.)' } }, workload = { kind = "
                                       "'inference', context = 2048, concurrency = 1 } }", &j), VF_OK);
  assert_non_null(strstr(vf_engine_error(*state), "quant: format 'bnb-nf4' quantizes no tensor of model Qwen/Qwen3.5-35B-A3B"));
  json_decref(j);
}

/* gpt-oss-20b: experts 24 x 32 x (5760 x 90 + 2880 x 90) blocks x 17 B = 10,152,345,600, the
** rest bf16: exactly the checkpoint, model.safetensors.index.json metadata.total_size
** 13,761,264,768 (https://huggingface.co/openai/gpt-oss-20b). */
static void test_mxfp4_gpt_oss(void **state) {
  json_t *j = eval_quant(*state, "openai/gpt-oss-20b", "'mxfp4'");
  assert_int_equal(tu_int(j, "model.weight_bytes"), 13761264768LL);
  assert_int_equal(tu_int(j, "model.params"), 20914757184LL);
  json_decref(j);
}

#define PYTHIA "EleutherAI/pythia-2.8b"

/* pythia-2.8b as the llama.cpp CI quantized it (shared/calibration llm_inference.jsonl,
** llamacpp-b4385-pythia28b-*): CPU_Mapped holds token_embd (50304 x 2560), CUDA0 the rest.
** token_embd bytes: F16 257,556,480; Q8_0 50304 x 80 x 34 = 136,826,880; Q4_K 50304 x 10 x 144 =
** 72,437,760. Q4_K_M per layer: attn_qkv Q5_K 7680 x 10 x 176 = 13,516,800, attn_output Q4_K
** 3,686,400, ffn_up Q4_K 14,745,600, ffn_down Q6_K (16 use_more_bits layers) 21,504,000 or Q4_K
** 14,745,600, F32 norms/biases 133,120; output Q6_K 105,638,400 + output_norm 20,480. */
static void check_pythia(vf_engine *e, const char *quant, long long embd, long long gpu_mib_x100) {
  long long total = weight_bytes(e, PYTHIA, quant);
  long long gpu = total - embd, expect = gpu_mib_x100 * MIB / 100;
  if (gpu < expect - PRINTED_MIB_TOL || gpu > expect + PRINTED_MIB_TOL)
    fail_msg("%s: GPU model buffer %lld B, llama.cpp printed %lld.%02lld MiB", quant, gpu, gpu_mib_x100 / 100,
             gpu_mib_x100 % 100);
}

static void test_gguf_pythia(void **state) {
  assert_int_equal(weight_bytes(*state, PYTHIA, "'gguf:Q4_K_M'"), 1712273920LL + 72437760LL);
  check_pythia(*state, "'gguf:F16'", 257556480LL, 504971);  /* CUDA0 5049.71 MiB */
  check_pythia(*state, "'gguf:Q8_0'", 136826880LL, 268457); /* CUDA0 2684.57 MiB */
  check_pythia(*state, "'gguf:Q4_K_M'", 72437760LL, 163295); /* CUDA0 1632.95 MiB */
  check_pythia(*state, "'gguf:Q4_0'", 72437760LL, 145483); /* CUDA0 1454.83 MiB */
  check_pythia(*state, "'gguf:Q2_K'", 42255360LL, 99389);   /* CUDA0 993.89 MiB */
  /* CPU_Mapped 69.08 MiB = token_embd Q4_K */
  assert_true(72437760LL - 6908 * MIB / 100 <= PRINTED_MIB_TOL);
}

/* Llama-3.1-8B Q4_K_M as llama.cpp prints it (a public Ollama log of
** Meta-Llama-3.1-8B-Instruct Q4_K_M): "type f32: 66, q4_K: 193, q6_K: 33 tensors",
** "model size = 4.58 GiB (4.89 BPW)", CPU 281.81 MiB (token_embd Q4_K 128256 x 16 x 144 =
** 295,501,824), CUDA0 4403.49 MiB. The file's 66th F32 tensor is rope_freqs (64 x 4 B), a
** buffer, not a parameter. */
static void test_gguf_llama8b(void **state) {
  long long total = weight_bytes(*state, LLAMA8, "'gguf:Q4_K_M'");
  assert_int_equal(total, 4912898048LL);
  long long gpu = total - 295501824LL;
  assert_true(gpu + 256 >= 440349 * MIB / 100 - PRINTED_MIB_TOL && gpu + 256 <= 440349 * MIB / 100 + PRINTED_MIB_TOL);
}

/* The report of `model` with no quant field: the checkpoint's own quantization_config applies. */
static json_t *eval_plain(vf_engine *e, const char *model) {
  char text[512];
  snprintf(text, sizeof text,
           "return { model = '%s', workload = { kind = 'inference', context = 2048, concurrency = 1 } }", model);
  json_t *j = NULL;
  if (tu_eval(e, text, &j) != VF_OK) fail_msg("%s: %s", model, vf_engine_error(e));
  return j;
}

/* DeepSeek's kv_b_proj is two tensors in a GGUF (convert_hf_to_gguf's DeepseekV2Model splits it
** per head for MLA), neither of which llama-quantize counts as attn_v-like. DeepSeek-V2-Lite
** (16 heads, kv_lora_rank 512, qk_nope 128, v_head 128, 27 layers) at Q4_K_M:
** attn_k_b {128, 512, 16}: a 128-element row that Q4_K's 256 block does not divide, so Q5_0:
** 8192 rows x 4 x 22 B = 720,896; attn_v_b {512, 128, 16}: Q4_K, 2048 x 2 x 144 = 589,824.
** 27 x 1,310,720 = 35,389,440 B. As one attn_kv_b {512, 4096} it would be the attn_v ladder,
** use_more_bits: 13 layers Q6_K (4096 x 2 x 210 = 1,720,320) and 14 Q4_K (1,179,648),
** 38,879,232 B: 3,489,792 B more. */
static void test_gguf_deepseek_kv_b(void **state) {
  json_t *j = eval_quant(*state, "deepseek-ai/DeepSeek-V2-Lite", "'gguf:Q4_K_M'");
  assert_int_equal(tu_int(j, "model.weight_bytes"), 10363959296LL);
  assert_true(tu_assumed(j, "quant gguf:Q4_K_M: llama-quantize classic rules, tensors 108 F32, 13 Q6_K, 3505 Q4_K, "
                                "769 Q8_0, 923 Q5_0 (54 tensors fell back: row length not a multiple of the block)"));
  json_decref(j);
}

/* Qwen3.5-35B-A3B as llama.cpp files it: the DeltaNet layers' conv1d kernels ({8192, 1, 4}:
** rows of 4) stay F32 as the converter writes them and llama-quantize leaves them, so Q8_0,
** which no 4-element row fits, converts (it failed: "row length 4 is not a multiple of 32");
** the vision tower and projector go to the mmproj file, not the text model's types. */
static void test_gguf_hybrid_vision(void **state) {
  json_t *j = eval_quant(*state, "Qwen/Qwen3.5-35B-A3B", "'gguf:Q8_0'");
  assert_true(tu_assumed(j, "quant gguf:Q8_0: llama-quantize classic rules, tensors 20792 Q8_0, 301 F32; the vision "
                                "tower and projector (333 tensors) left to the mmproj file and its own type"));
  json_decref(j);
}

/* Mamba-1's A_log {d_inner, d_state} is 2-D with rows of 16, which no Q8_0 block fits; llama.cpp
** files it as ssm_a (-exp(A_log)) and D as ssm_d, without a ".weight" suffix, F32 from the
** converter (MambaModel / JambaModel tensor_force_quant), and llama-quantize quantizes only names
** ending in "weight" (llama-quant.cpp), so Q8_0 converts: it failed with "row length 16 is not a
** multiple of 32". state-spaces/mamba-2.8b-hf (64 layers, tied head): Q8_0 the 4 projections a layer
** (in_proj, x_proj, dt_proj, out_proj) and token_embd = 257; F32 A_log, D, conv1d weight and bias,
** dt_proj bias and the norm a layer, and norm_f = 6 x 64 + 1 = 385. */
static void test_gguf_mamba_ssm_a(void **state) {
  json_t *j = eval_quant(*state, "state-spaces/mamba-2.8b-hf", "'gguf:Q8_0'");
  assert_true(tu_assumed(j, "quant gguf:Q8_0: llama-quantize classic rules, tensors 257 Q8_0, 385 F32"));
  json_decref(j);
  j = eval_quant(*state, "ai21labs/AI21-Jamba-1.5-Mini", "'gguf:Q8_0'");
  json_decref(j);
}

/* A checkpoint stored quantized loads in its stored format (what vLLM and transformers do with
** config.json quantization_config): gpt-oss-20b is the checkpoint's total_size without a quant
** field; DeepSeek-V3's fp8 with weight_block_size [128, 128] equals the explicit block-fp8 format
** (bf16 embeddings, norms and routers); RedHatAI's FP8-dynamic Llama-3.3-70B (compressed-tensors
** fp8 weights per output channel) equals fp8 scheme 'channel' on the 70B shapes. */
static void test_checkpoint_quant(void **state) {
  json_t *j = eval_plain(*state, "openai/gpt-oss-20b");
  assert_int_equal(tu_int(j, "model.weight_bytes"), 13761264768LL);
  assert_true(tu_assumed(j, "quant mxfp4 from the checkpoint's quantization_config (quant_method mxfp4); set quant to override"));
  json_decref(j);
  char text[512];
  snprintf(text, sizeof text, "return { model = 'deepseek-ai/DeepSeek-V3', dtype = 'bf16', quant = %s,"
           " workload = { kind = 'inference', context = 2048, concurrency = 1 } }",
           "{ name = 'fp8', scheme = 'block', block_size = 128 }");
  json_t *explicit = NULL;
  assert_int_equal(tu_eval(*state, text, &explicit), VF_OK);
  j = eval_plain(*state, "deepseek-ai/DeepSeek-V3");
  assert_int_equal(tu_int(j, "model.weight_bytes"), tu_int(explicit, "model.weight_bytes"));
  assert_true(tu_int(j, "model.weight_bytes") < 700000000000LL); /* not the 1.34 TB of bf16 */
  json_decref(j);
  json_decref(explicit);
  snprintf(text, sizeof text, "return { model = 'meta-llama/Llama-3.1-70B', dtype = 'bf16', quant = %s,"
           " workload = { kind = 'inference', context = 2048, concurrency = 1 } }", "{ name = 'fp8', scheme = 'channel' }");
  assert_int_equal(tu_eval(*state, text, &explicit), VF_OK);
  j = eval_plain(*state, "RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic");
  assert_int_equal(tu_int(j, "model.weight_bytes"), tu_int(explicit, "model.weight_bytes"));
  json_decref(j);
  json_decref(explicit);
  /* a quant field overrides the checkpoint's */
  j = eval_quant(*state, "openai/gpt-oss-20b", "'mxfp4'");
  assert_false(tu_assumed(j, "quant mxfp4 from the checkpoint's quantization_config (quant_method mxfp4); set quant to override"));
  json_decref(j);
  /* a quantization vramfit has no format for is refused, never read as unquantized */
  assert_int_not_equal(tu_eval(*state,
      "return { model = { id = 'x/hqq', arch = 'llama', config = { model_type = 'llama', hidden_size = 512,"
      " intermediate_size = 1024, num_attention_heads = 8, num_hidden_layers = 2, num_key_value_heads = 8,"
      " vocab_size = 1000, max_position_embeddings = 2048, quantization_config = { quant_method = 'hqq' } } },"
      " workload = { kind = 'inference', context = 64 } }", NULL), VF_OK);
  assert_string_equal(vf_engine_error(*state),
                      "t.lua: model: x/hqq: config.json quantization_config (quant_method hqq) is not modelled: no format "
                      "for it; give quant explicitly (vramfit list quants)");
}

static void check_error(vf_engine *e, const char *quant, const char *message) {
  char text[512];
  snprintf(text, sizeof text,
           "return { model = 'meta-llama/Llama-3.1-8B', quant = %s, workload = { kind = 'inference', context = 64 } }",
           quant);
  assert_int_not_equal(tu_eval(e, text, NULL), VF_OK);
  assert_string_equal(vf_engine_error(e), message);
}

static void test_bad_input(void **state) {
  check_error(*state, "'foo'",
              "t.lua: quant: unknown format 'foo' (known: awq, bnb-fp4, bnb-int8, bnb-nf4, "
              "compressed-tensors-w4a16, fp8, fp8-storage, gguf:<TYPE>, gptq, int4-weight-only, "
              "int8-weight-only, mxfp4, nvfp4, quanto-int4, w8a8)");
  check_error(*state, "{ name = 'gptq', bits = 5 }", "t.lua: quant.bits: expected one of 2, 3, 4, 8, got 5");
  check_error(*state, "{ name = 'gptq', group_size = 0 }",
              "t.lua: quant.group_size: expected -1 (one group per row) or a positive integer, got 0");
  check_error(*state, "{ name = 'awq', bitz = 4 }",
              "t.lua: quant: unknown key 'bitz' (allowed: bits, group_size, ignore, keep, modules_to_not_convert, name, "
              "version, zero_point)");
  check_error(*state, "'awq:Q4'", "t.lua: quant: format 'awq' takes no ':<TYPE>' suffix");
  check_error(*state, "{ name = 'gguf:Q4_K_M', type = 'Q8_0' }",
              "t.lua: quant: give the type either as 'gguf:<TYPE>' or as 'type', not both");
  check_error(*state, "5",
              "t.lua: quant: expected a format name such as \"awq\" or \"gguf:Q4_K_M\", or a table with 'name'");
  check_error(*state, "'mxfp4'", "t.lua: quant: format 'mxfp4' quantizes no tensor of model meta-llama/Llama-3.1-8B");
  check_error(*state, "{ denoiser = 'bnb-nf4' }",
              "t.lua: quant.denoiser: per-component quantization is not supported yet for model "
              "meta-llama/Llama-3.1-8B (its tensors carry no component 'denoiser')");
}

/* GPTQ's transformers kernels (GPTQConfig exllama_config version): exllama v1 keeps one fp16
** temp_dq of the largest layer, Llama-2-7B's gate/up 4096 x 11008 x 2 B = 90,177,536;
** exllama v2 one scratch of the largest layer's scratch_space_fixed (AutoGPTQ 0.5
** qlinear_exllamav2.py: temp_dq in x out x 2 + 128, temp_fwd out x 2048 x 8 x 4 + 128):
** 90,177,664 + 721,420,416 = 811,598,080. With act-order v1 also sizes temp_state for 2048
** input rows of the largest in / out dimension in fp16 (autogptq_post_init, 0.5). */
static void test_gptq_exllama_scratch(void **state) {
  json_t *j = eval_quant(*state, "meta-llama/Llama-2-7b-hf", "{ name = 'gptq', kernel = 'exllama' }");
  assert_int_equal(tu_category(j, "quant_overhead"), 90177536LL);
  json_decref(j);
  /* act-order adds exllama v1's temp_state: 2048 rows x 11008 (the largest in / out) x 2 B */
  j = eval_quant(*state, "meta-llama/Llama-2-7b-hf", "{ name = 'gptq', kernel = 'exllama', desc_act = true }");
  assert_int_equal(tu_category(j, "quant_overhead"), 90177536LL + 2048LL * 11008 * 2);
  json_decref(j);
  j = eval_quant(*state, "meta-llama/Llama-2-7b-hf", "{ name = 'gptq', kernel = 'exllamav2' }");
  assert_int_equal(tu_category(j, "quant_overhead"), 811598080LL);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gptq),         cmocka_unit_test(test_awq),
      cmocka_unit_test(test_bnb_nf4),      cmocka_unit_test(test_fp8), cmocka_unit_test(test_fused_experts),
      cmocka_unit_test(test_mxfp4_gpt_oss), cmocka_unit_test(test_gguf_pythia),
      cmocka_unit_test(test_gguf_llama8b),
      cmocka_unit_test(test_gguf_deepseek_kv_b), cmocka_unit_test(test_gguf_hybrid_vision), cmocka_unit_test(test_gguf_mamba_ssm_a), cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_checkpoint_quant), cmocka_unit_test(test_gptq_exllama_scratch),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
