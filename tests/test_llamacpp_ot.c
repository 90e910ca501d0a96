/*
** test_llamacpp_ot.c: llama.cpp's -ot / --override-tensor (runtime.override_tensor): each weight
** goes to the buffer type of the first PCRE2 pattern found in its GGUF name (llama-model-loader.cpp
** create_tensor), the model buffers, the mapped range and the compute replay following it; the
** knob's checks. Figures of Qwen3-30B-A3B in Q4_K_M: one layer's routed experts are ffn_gate_exps
** and ffn_up_exps in Q4_K, 128 x 768 x 2048 / 256 x 144 = 113,246,208 B each, and ffn_down_exps
** in Q6_K for layers 0..5 (use_more_bits), 165,150,720 B + one 768-wide row padded to 1024 (210 B)
** on CUDA, aligned to 128: 165,150,976 B; 391,643,392 B a layer on a GPU.
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

#define EXPS_LAYER (113246208ll * 2 + 165150976ll) /* a layer 0..5's routed experts on a GPU */

/* Qwen3-30B-A3B Q4_K_M at b9000 with runtime knobs rt on gpus (a Lua list or name) */
static json_t *moe(vf_engine *e, const char *rt, const char *gpus) {
  char text[1024];
  snprintf(text, sizeof text,
           "return { model = 'Qwen/Qwen3-30B-A3B', quant = 'gguf:Q4_K_M', runtime = { name = 'llamacpp',"
           " version = 'b9000', n_ctx = 8192, n_ubatch = 512, n_gpu_layers = 99, flash_attn = true, fit = "
           "false%s%s },"
           " workload = { kind = 'inference', context = 8192 }, gpu = %s }",
           rt[0] ? ", " : "", rt, gpus);
  json_t *j = NULL;
  if (tu_eval(e, text, &j) != VF_OK) fail_msg("%s: %s", rt, vf_engine_error(e));
  return j;
}

#define ONE "'H100-SXM-80GB'"
#define TWO "{ 'H100-SXM-80GB', 'H100-SXM-80GB' }"

/* the detail of device 0's activations (the compute buffer): whether the replay is exact */
static bool compute_exact(json_t *j) {
  json_t *cats = json_object_get(json_array_get(json_object_get(j, "devices"), 0), "categories");
  size_t i;
  json_t *c;
  json_array_foreach(cats, i, c) {
    if (strcmp(json_string_value(json_object_get(c, "name")), "activations") == 0)
      return strcmp(json_string_value(json_object_get(c, "basis")), "exact") == 0;
  }
  fail_msg("no activations category");
  return false;
}

static void same_buffers(json_t *a, json_t *b) {
  static const char *const figs[] = {"runtime.gpu_model_buffer_bytes", "runtime.cpu_model_buffer_bytes",
                                     "runtime.compute_buffer_bytes", "runtime.host_compute_buffer_bytes",
                                     "runtime.graph_splits"};
  for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++)
    assert_int_equal(tu_int(a, figs[i]), tu_int(b, figs[i]));
}

/* --n-cpu-moe N and --cpu-moe are overrides to the CPU buffer type themselves (common/arg.cpp
** llm_ffn_exps_block_regex): an -ot of the same layers gives every buffer to the byte */
static void test_ot_as_n_cpu_moe(void **state) {
  json_t *a = moe(*state, "override_tensor = [[blk\\.(0|1|2)\\.ffn_.*_exps=CPU]]", ONE);
  json_t *b = moe(*state, "n_cpu_moe = 3", ONE);
  same_buffers(a, b);
  assert_true(compute_exact(a));
  json_decref(a), json_decref(b);
  a = moe(*state, "override_tensor = 'exps=CPU'", ONE);
  b = moe(*state, "cpu_moe = true", ONE);
  same_buffers(a, b);
  json_decref(a), json_decref(b);
}

/* layers 1 and 3 (not a leading run): both layers' experts leave the GPU; CPU_Mapped is the
** file's range from token_embd (first in llama-quantize's order) to blk.3's last expert
** tensor, layer 2 inside it, as --n-cpu-moe 4's */
static void test_ot_noncontiguous(void **state) {
  json_t *a = moe(*state, "", ONE),
         *b = moe(*state, "override_tensor = [[blk\\.(1|3)\\.ffn_.*_exps=CPU]]", ONE);
  json_t *c = moe(*state, "n_cpu_moe = 4", ONE);
  assert_int_equal(tu_int(a, "runtime.gpu_model_buffer_bytes") - tu_int(b, "runtime.gpu_model_buffer_bytes"),
                   2 * EXPS_LAYER);
  assert_int_equal(tu_int(a, "runtime.gpu_model_buffer_bytes"), 18375698432ll);
  assert_int_equal(tu_int(b, "runtime.cpu_model_buffer_bytes"), tu_int(c, "runtime.cpu_model_buffer_bytes"));
  assert_true(compute_exact(b));
  json_decref(a), json_decref(b), json_decref(c);
}

/* to another GPU: layer 0 is on CUDA0 (tensor_split 1,1), its experts move to CUDA1 whole */
static void test_ot_gpu_target(void **state) {
  const char *ts = "tensor_split = '1,1'";
  json_t *a = moe(*state, ts, TWO);
  json_t *b = moe(*state, "tensor_split = '1,1', override_tensor = [[blk\\.0\\.ffn_.*_exps=CUDA1]]", TWO);
  assert_int_equal(
      tu_int(a, "runtime.gpu_model_buffer_bytes_0") - tu_int(b, "runtime.gpu_model_buffer_bytes_0"),
      EXPS_LAYER);
  assert_int_equal(
      tu_int(b, "runtime.gpu_model_buffer_bytes_1") - tu_int(a, "runtime.gpu_model_buffer_bytes_1"),
      EXPS_LAYER);
  assert_true(compute_exact(b));
  json_decref(a), json_decref(b);
}

/* the first pattern that matches wins (a list, as several -ot): layer 0's ffn_down_exps is held
** on CUDA0 by the first entry, its gate and up go to the host by the second; a layer's experts
** split so is not in the replayed graph (the compute buffers are not exact) */
static void test_ot_first_match(void **state) {
  json_t *a = moe(*state, "", ONE);
  json_t *b = moe(
      *state, "override_tensor = { [[blk\\.0\\.ffn_down_exps=CUDA0]], [[blk\\.0\\.ffn_.*_exps=CPU]] }", ONE);
  assert_int_equal(tu_int(a, "runtime.gpu_model_buffer_bytes") - tu_int(b, "runtime.gpu_model_buffer_bytes"),
                   113246208ll * 2);
  assert_false(compute_exact(b));
  json_decref(b);
  /* one -ot value of two comma-separated entries is the same list */
  b = moe(*state, "override_tensor = [[blk\\.0\\.ffn_down_exps=CUDA0,blk\\.0\\.ffn_.*_exps=CPU]]", ONE);
  assert_int_equal(tu_int(a, "runtime.gpu_model_buffer_bytes") - tu_int(b, "runtime.gpu_model_buffer_bytes"),
                   113246208ll * 2);
  json_decref(b);
  /* an attention weight: moved (CUDA0 loses blk.0.attn_q, 2048 x 4096 Q4_K = 4,718,592 B), the
  ** replay places the op by its layer, so not exact */
  b = moe(*state, "override_tensor = [[blk\\.0\\.attn_q\\.=CPU]]", ONE);
  assert_int_equal(tu_int(a, "runtime.gpu_model_buffer_bytes") - tu_int(b, "runtime.gpu_model_buffer_bytes"),
                   4718592);
  assert_false(compute_exact(b));
  json_decref(a), json_decref(b);
}

/* any tensor override turns pipeline parallelism off (llama-context.cpp: pipeline_parallel needs
** !model->has_tensor_overrides()), even one that matches nothing: the weights stay, the GPUs'
** compute buffers lose the scheduler's n_copies (4) of the split inputs */
static void test_ot_no_pipeline(void **state) {
  json_t *a = moe(*state, "tensor_split = '1,1'", TWO);
  json_t *b = moe(*state, "tensor_split = '1,1', override_tensor = 'nothing_matches=CPU'", TWO);
  assert_int_equal(tu_int(a, "runtime.gpu_model_buffer_bytes"), tu_int(b, "runtime.gpu_model_buffer_bytes"));
  assert_int_equal(tu_int(a, "runtime.gpu_compute_buffer_bytes_0"), 172531712);
  assert_int_equal(tu_int(b, "runtime.gpu_compute_buffer_bytes_0"), 100673536);
  json_decref(a), json_decref(b);
}

static void expect_error(vf_engine *e, const char *rt, const char *gpus, const char *msg) {
  char text[1024];
  snprintf(
      text, sizeof text,
      "return { model = 'Qwen/Qwen3-30B-A3B', quant = 'gguf:Q4_K_M', runtime = { name = 'llamacpp', %s },"
      " workload = { kind = 'inference', context = 4096 }, gpu = %s }",
      rt, gpus);
  assert_int_not_equal(tu_eval(e, text, NULL), VF_OK);
  assert_string_equal(vf_engine_error(e), msg);
}

static void test_ot_errors(void **state) {
  expect_error(*state, "override_tensor = 'exps=GPU0'", ONE,
               "t.lua: runtime.override_tensor: unknown buffer type 'GPU0' (CPU, or a GPU's: CUDA0, ROCm0, "
               "Vulkan0, MTL0, ...)");
  expect_error(*state, "override_tensor = 'exps'", ONE,
               "t.lua: runtime.override_tensor: expected PATTERN=BUFFER_TYPE, got 'exps'");
  expect_error(
      *state, "override_tensor = { 'exps=CPU', [[blk\\.(0=CPU]] }", ONE,
      "t.lua: runtime.override_tensor[2]: bad regular expression 'blk\\.(0': pattern 'blk\\.(0': missing "
      "closing parenthesis at offset 7");
  expect_error(*state, "override_tensor = '=CPU'", ONE,
               "t.lua: runtime.override_tensor: '=CPU': empty pattern");
  expect_error(*state, "override_tensor = { 'exps=CPU', 3 }", ONE,
               "t.lua: runtime.override_tensor[2]: expected a string");
  expect_error(*state, "override_tensor = {}", ONE,
               "t.lua: runtime.override_tensor: expected a string or a list of strings");
  expect_error(*state, "override_tensor = 'exps=CUDA1'", ONE,
               "t.lua: runtime.override_tensor: buffer type 'CUDA1' names no device of the scenario's 1 GPU "
               "(CPU, or a "
               "GPU from index 0)");
  expect_error(*state, "override_tensor = 'exps=CUDA0', device = 'cpu'", ONE,
               "t.lua: runtime.override_tensor: CUDA0 names a GPU, and device is \"cpu\"");
}

/* runtime.nextn_predict_layers: the MTP blocks of a built-in model's GGUF, as its config has them */
static void test_nextn_errors(void **state) {
  expect_error(
      *state, "nextn_predict_layers = 1", ONE,
      "t.lua: runtime.nextn_predict_layers: 1, but model Qwen/Qwen3-30B-A3B's config has 0 MTP layers (the "
      "converter writes them all)");
  assert_int_not_equal(
      tu_eval(*state,
              "return { model = 'zai-org/GLM-4.5-Air', quant = 'gguf:Q4_K_M', runtime = { name = "
              "'llamacpp', nextn_predict_layers = 2 }, workload = { kind = 'inference', context = 4096 } }",
              NULL),
      VF_OK);
  assert_string_equal(vf_engine_error(*state),
                      "t.lua: runtime.nextn_predict_layers: 2, but model zai-org/GLM-4.5-Air's "
                      "config has 1 MTP layer (num_nextn_predict_layers) (the converter writes them all)");
}

/* GLM-4.5-Air's GGUF with its MTP block (num_nextn_predict_layers 1): the plain KV cache walks
** every block of n_layer_all (llama.cpp 80fb11a, src/rt_llamacpp.c lc_nextn_group), so the block
** holds one more layer's cells: 8192 x 8 KV heads x 128 x 2 (K, V) x 2 B = 33,554,432 B, a 46th
** of the trunk's 1,543,503,872; its weights are skipped (the model buffer is the same) */
static void test_nextn_glm(void **state) {
  const char *fmt =
      "return { model = 'zai-org/GLM-4.5-Air', quant = 'gguf:Q4_K_M', runtime = { name = 'llamacpp',"
      " n_ctx = 8192, fit = false%s }, workload = { kind = 'inference', context = 8192 }, gpu = 'H200-141GB' "
      "}";
  char text[512];
  json_t *j[2];
  for (int i = 0; i < 2; i++) {
    snprintf(text, sizeof text, fmt, i ? ", nextn_predict_layers = 1" : "");
    if (tu_eval(*state, text, &j[i]) != VF_OK) fail_msg("%s", vf_engine_error(*state));
  }
  assert_int_equal(tu_int(j[0], "runtime.kv_buffer_bytes"), 1543503872ll);
  assert_int_equal(tu_int(j[1], "runtime.kv_buffer_bytes") - tu_int(j[0], "runtime.kv_buffer_bytes"),
                   33554432ll);
  assert_int_equal(tu_int(j[1], "runtime.gpu_model_buffer_bytes"),
                   tu_int(j[0], "runtime.gpu_model_buffer_bytes"));
  json_decref(j[0]), json_decref(j[1]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ot_as_n_cpu_moe), cmocka_unit_test(test_ot_noncontiguous),
      cmocka_unit_test(test_ot_gpu_target),   cmocka_unit_test(test_ot_first_match),
      cmocka_unit_test(test_ot_no_pipeline),  cmocka_unit_test(test_ot_errors),
      cmocka_unit_test(test_nextn_errors),    cmocka_unit_test(test_nextn_glm),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
