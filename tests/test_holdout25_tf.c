/*
** test_holdout25_tf.c: transformers generate() figures held out of shared/calibration (round 25,
** 2026-12-02), predicted by vramfit through the public API before any change of the round, and
** the three mechanisms the round changed: GPTBigCode's model-level causal-mask buffer
** (src/infer.c mask_buffer_bytes), bitsandbytes 4-bit's dequantized weight beside its cast to the
** compute dtype (scripts/quant/_bnb.lua overhead) and LLM.int8()'s col_ampere / col_turing weight
** copy before bitsandbytes 0.45.0 (scripts/quant/bnb_int8.lua, quant option `version`).
**
** Source: the transformers guide "Optimizing LLMs for Speed and Memory" (huggingface/transformers
** docs/source/en/llm_tutorial_optimization.md, @008f5c8c; first the Hugging Face blog post
** "Optimizing your LLM in production", optimize-llm.md, 2023-09-15, so transformers 4.33 and
** bitsandbytes 0.41.1, the releases of that week). bigcode/octocoder (a StarCoder fine-tune: the
** GPTBigCode shapes of bigcode/starcoderbase, 15,517,456,384 parameters, lm_head tied) on "a
** single 40 GB A100", pipeline("text-generation") with max_new_tokens=60, each figure
** `torch.cuda.max_memory_allocated() / 1024**3` after a flush() of gc.collect(), empty_cache()
** and reset_peak_memory_stats(). Prompt "Question: Please write a function in Python that
** transforms bytes to Giga bytes.\n\nAnswer:": 20 tokens (the guide's own key-value-cache loop
** prints "length of key-value cache 20" after that prompt's forward). The long prompt is ten
** copies of the guide's system prompt plus the question; its token count is not printed: 5,201
** is counted here as the pre-tokens of StarCoder's byte-level split with single digits (518 a
** copy, 21 for the question), a lower bound of the BPE count. Tolerance: the stated kind
** (max_memory_allocated), 10 %.
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

/* octocoder under transformers 4.33 on an A100 40GB: dtype, quant, context, prompt, attention */
#define OCTO_FMT                                                                                   \
  "return { model = 'bigcode/starcoderbase', dtype = '%s', %s runtime = { name = 'transformers', " \
  "version = '4.33.0' }, workload = { kind = 'inference', context = %d, prompt_tokens = %d, "      \
  "output_tokens = 60, concurrency = 1, attention = '%s' }, gpu = 'A100-SXM4-40GB' }"

/* the largest Linear of StarCoder-15.5B: mlp.c_fc / c_proj, 24576 x 6144 */
#define OCTO_LARGEST (24576LL * 6144)

static double peak_gib(json_t *j) {
  return (double)tu_int(j, "runtime.peak_allocated_bytes") / TU_GIB;
}

/* ---- "Lower Precision": AutoModelForCausalLM.from_pretrained("bigcode/octocoder",
** torch_dtype=torch.bfloat16, device_map="auto"), the short prompt: "29.0260648727417".
** Predicted before any change: 28.92 GiB (-0.37 %), weights 28.90 GiB. Now 28.98 (-0.16 %):
** GPTBigCodeModel registers one bool causal-mask `bias` of n_positions^2 (8192^2 B, not in the
** checkpoint). The weights alone are the figure within 1 % (-0.43 %). */
static void test_holdout25_tf_octocoder_bf16(void **state) {
  json_t *j = tu_eval_okf(*state, OCTO_FMT, "bf16", "", 80, 20, "eager");
  assert_int_equal(tu_int(j, "model.params"), 15517456384LL);
  tu_within_gib(tu_int(j, "runtime.weights_bytes"), 29.0260648727417, 0.01, "bf16 weights against the peak");
  assert_int_equal(tu_category(j, "model_buffers"), 8192LL * 8192);
  tu_assert_within(peak_gib(j), 29.0260648727417, 0.10);
  tu_assert_within(peak_gib(j), 29.0260648727417, 0.005); /* as close as it lands, -0.16 % */
  json_decref(j);
}

/* ---- load_in_8bit=True (torch_dtype left unset: transformers 4.33 loads bitsandbytes models in
** fp16), the short prompt: "15.219234466552734". Predicted before any change: 14.80 GiB (-2.8 %),
** weights 14.79 (int8 Linears with fp32 row scales, fp16 embeddings). Now 15.01 (-1.4 %): the mask
** buffer, and bitsandbytes 0.41's first forward of the largest Linear8bitLt building its
** col_ampere copy CxB (151 MB) beside the row-major CB it then drops. Left: about 0.2 GiB, not
** modelled: the outlier columns each Linear8bitLt keeps after a forward (state.subB, fp16, as
** many columns as the prompt's activations have outliers above threshold 6.0; data-dependent). */
static void test_holdout25_tf_octocoder_int8(void **state) {
  json_t *j = tu_eval_okf(*state, OCTO_FMT, "fp16", "quant = { name = 'bnb-int8', version = '0.41.1' },", 80,
                          20, "eager");
  assert_int_equal(tu_category(j, "quant_overhead"), OCTO_LARGEST);
  tu_assert_within(peak_gib(j), 15.219234466552734, 0.10);
  tu_assert_within(peak_gib(j), 15.219234466552734, 0.02); /* -1.4 % */
  json_decref(j);
  /* bitsandbytes 0.45.0 (PR #1401) keeps the int8 weight row-major: no copy */
  j = tu_eval_okf(*state, OCTO_FMT, "fp16", "quant = { name = 'bnb-int8', version = '0.45.0' },", 80, 20,
                  "eager");
  assert_int_equal(tu_category(j, "quant_overhead"), -1); /* no such category */
  json_decref(j);
}

/* ---- load_in_4bit=True (BitsAndBytesConfig's defaults of 4.33: fp4, no double quantization,
** bnb_4bit_compute_dtype float32; the model in fp16), the short prompt: "9.543574333190918".
** Predicted before any change: 8.90 GiB (-6.7 %) as written with the scenario's dtype as compute
** dtype, 9.16 (-4.0 %) with compute_dtype = 'fp32'; weights 8.60. Now 9.53 (-0.1 %): the mask
** buffer, and MatMul4Bit.forward's `F.dequantize_4bit(B, quant_state).to(A.dtype)`: the fp16
** dequantized c_fc weight and its fp32 cast live together, 151M x 6 B. */
static void test_holdout25_tf_octocoder_fp4(void **state) {
  json_t *j = tu_eval_okf(*state, OCTO_FMT, "fp16", "quant = { name = 'bnb-fp4', compute_dtype = 'fp32' },",
                          80, 20, "eager");
  assert_int_equal(tu_category(j, "quant_overhead"), OCTO_LARGEST * (2 + 4));
  tu_assert_within(peak_gib(j), 9.543574333190918, 0.10);
  tu_assert_within(peak_gib(j), 9.543574333190918, 0.01); /* -0.1 % */
  json_decref(j);
  /* compute dtype = load dtype: .to() returns the tensor itself, one copy */
  j = tu_eval_okf(*state, OCTO_FMT, "fp16", "quant = { name = 'bnb-fp4', compute_dtype = 'fp16' },", 80, 20,
                  "eager");
  assert_int_equal(tu_category(j, "quant_overhead"), OCTO_LARGEST * 2);
  json_decref(j);
}

/* ---- "Flash Attention": the long prompt in bf16, default (eager) attention: "37.668193340301514";
** after model.to_bettertransformer() under sdp_kernel(enable_flash=True, enable_math=False,
** enable_mem_efficient=False): "32.617331981658936". Predicted before any change at 5,201 prompt
** tokens: eager 39.33 GiB (+4.4 %), flash 30.44 (-6.7 %). Now 39.39 (+4.6 %) and 30.50 (-6.5 %)
** (the mask buffer). Left, not changed: the flash run's peak is 3.59 GiB above the short run's,
** of which vramfit finds 1.5 (every prompt position's logits, bf16 and fp32, before 4.45, and the
** prefill's layer transient); the fused TorchScript upcast_masked_softmax of GPTBigCode's eager
** path is held at the generic 2 + 4 + 2 B a score (its fuser is not known); and the prompt's
** token count is a lower bound (at 5,600 tokens eager is +8.8 %, flash -6.1 %). */
static void test_holdout25_tf_octocoder_long_prompt(void **state) {
  json_t *j = tu_eval_okf(*state, OCTO_FMT, "bf16", "", 5261, 5201, "eager");
  tu_assert_within(peak_gib(j), 37.668193340301514, 0.10);
  json_decref(j);
  j = tu_eval_okf(*state, OCTO_FMT, "bf16", "", 5261, 5201, "flash");
  tu_assert_within(peak_gib(j), 32.617331981658936, 0.10);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout25_tf_octocoder_bf16),
      cmocka_unit_test(test_holdout25_tf_octocoder_int8),
      cmocka_unit_test(test_holdout25_tf_octocoder_fp4),
      cmocka_unit_test(test_holdout25_tf_octocoder_long_prompt),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
