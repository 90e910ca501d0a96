/*
** test_inspect.c: inspect_path on every kind of model path written by
** tools/mkmodel_lib.c: .gguf, .safetensors, sharded folder, GPTQ folder, bare
** config.json, diffusers folder, and a bad file.
*/
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "inspect.h"
#include "mkmodel_lib.h"
#define TU_TMPDIR_TAG "inspect"
#include "tmpdir.h"

static json_int_t geti(const json_t *o, const char *path1, const char *path2) {
  const json_t *v = json_object_get(o, path1);
  if (path2) v = json_object_get(v, path2);
  assert_true(json_is_integer(v));
  return json_integer_value(v);
}

static json_t *inspect_ok(const char *path, bool tensors) {
  json_t *o = NULL;
  char err[512] = "";
  inspect_status s = inspect_path(path, tensors, &o, err, sizeof err);
  if (s != INSPECT_OK) fprintf(stderr, "%s\n", err);
  assert_int_equal(s, INSPECT_OK);
  return o;
}

static void test_gguf(void **state) {
  (void)state;
  mk_llama l;
  mk_buf b = {0};
  char err[256];
  mk_llama_defaults(&l);
  mk_llama_ftype(&l, "q4_k");
  l.embd = 256, l.ff = 512;
  assert_true(mk_gguf_llama_buf(&l, &b, err, sizeof err));
  assert_true(mk_write_file(at("m.gguf"), b.p, b.len, 0, err, sizeof err));
  mk_buf_free(&b);
  json_t *o = inspect_ok(at("m.gguf"), true);
  assert_string_equal(json_string_value(json_object_get(o, "format")), "gguf");
  assert_string_equal(json_string_value(json_object_get(o, "arch")), "llama");
  assert_int_equal(geti(o, "params", NULL), 1312000);
  assert_int_equal(geti(o, "weight_bytes", NULL), 742400);
  assert_int_equal(geti(o, "dtypes", "F32"), 5 * 1024);
  assert_int_equal(geti(o, "dtypes", "Q4_K"), 742400 - 5 * 1024);
  assert_string_equal(json_string_value(json_object_get(json_object_get(o, "quantization"), "name")),
                      "Q4_K_M");
  assert_int_equal(geti(o, "metadata", "attention.head_count_kv"), 2);
  assert_int_equal(geti(o, "metadata", "vocab_size"), 256);
  json_t *t0 = json_array_get(json_object_get(o, "tensors"), 0);
  assert_string_equal(json_string_value(json_object_get(t0, "name")), "token_embd.weight");
  assert_string_equal(json_string_value(json_object_get(t0, "dtype")), "Q4_K");
  assert_int_equal(geti(t0, "bytes", NULL), 36864);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(t0, "shape"), 1)), 256);
  json_decref(o);
}

static void test_safetensors(void **state) {
  (void)state;
  mk_hf h;
  char err[256];
  mk_hf_defaults(&h);
  assert_true(mk_hf_dir(at("hf"), &h, 2, err, sizeof err));
  json_t *o = inspect_ok(at("hf"), false);
  assert_string_equal(json_string_value(json_object_get(o, "format")), "safetensors");
  assert_string_equal(json_string_value(json_object_get(o, "arch")), "llama");
  assert_int_equal(geti(o, "params", NULL), 106816);
  assert_int_equal(geti(o, "weight_bytes", NULL), 213632);
  assert_int_equal(geti(o, "dtypes", "bf16"), 213632);
  assert_true(json_is_null(json_object_get(o, "quantization")));
  assert_null(json_object_get(o, "tensors"));
  json_decref(o);
  o = inspect_ok(at("hf/config.json"), false);
  assert_string_equal(json_string_value(json_object_get(o, "format")), "config");
  assert_string_equal(json_string_value(json_object_get(o, "arch")), "llama");
  assert_true(json_is_null(json_object_get(o, "params")));
  json_decref(o);
}

static void test_gptq(void **state) {
  (void)state;
  mk_hf h;
  char err[256];
  mk_hf_defaults(&h);
  h.gptq_bits = 4;
  assert_true(mk_hf_dir(at("gptq"), &h, 1, err, sizeof err));
  json_t *o = inspect_ok(at("gptq/model.safetensors"), true);
  uint64_t p, b, a;
  mk_hf_totals(&h, &p, &b, &a);
  assert_int_equal(geti(o, "params", NULL), (json_int_t)p);
  assert_int_equal(geti(o, "weight_bytes", NULL), (json_int_t)b);
  assert_int_equal(geti(o, "quant_aux", "bytes"), (json_int_t)a);
  assert_int_equal(geti(o, "quantization", "bits"), 4);
  assert_int_equal(geti(o, "quantization", "group_size"), 32);
  json_decref(o);
}

static void test_diffusers(void **state) {
  (void)state;
  char err[256];
  assert_true(mk_diffusers_dir(at("diff"), err, sizeof err));
  json_t *o = inspect_ok(at("diff"), false);
  assert_string_equal(json_string_value(json_object_get(o, "format")), "diffusers");
  assert_string_equal(json_string_value(json_object_get(o, "arch")), "FluxPipeline");
  json_t *c = json_object_get(o, "components");
  assert_int_equal(json_object_size(c), 2); /* scheduler holds no weights */
  assert_int_equal(geti(json_object_get(c, "transformer"), "params", NULL), 1024 + 4096 + 1024);
  assert_int_equal(geti(json_object_get(c, "vae"), "weight_bytes", NULL), (216 + 216) * 4);
  assert_int_equal(geti(o, "params", NULL), 6144 + 432);
  assert_int_equal(geti(o, "dtypes", "fp32"), 432 * 4);
  json_decref(o);
}

static void test_errors(void **state) {
  (void)state;
  json_t *o;
  char err[256];
  mk_buf b = {0};
  assert_int_equal(inspect_path("/nonexistent/m.gguf", false, &o, err, sizeof err), INSPECT_ERR_IO);
  assert_string_equal(err, "/nonexistent/m.gguf: no such file or directory");
  assert_true(mk_bad("st-not-object", &b, err, sizeof err));
  assert_true(mk_write_file(at("bad.safetensors"), b.p, b.len, 0, err, sizeof err));
  mk_buf_free(&b);
  assert_int_equal(inspect_path(at("bad.safetensors"), false, &o, err, sizeof err),
                   INSPECT_ERR_FORMAT);
  char want[400];
  snprintf(want, sizeof want, "%s: offset 8: the header is not a JSON object", at("bad.safetensors"));
  assert_string_equal(err, want);
  assert_null(o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gguf), cmocka_unit_test(test_safetensors),
      cmocka_unit_test(test_gptq), cmocka_unit_test(test_diffusers),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, tu_tmp_setup, tu_tmp_teardown);
}
