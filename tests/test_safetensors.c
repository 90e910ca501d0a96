/*
** test_safetensors.c: safetensors headers of single, sharded and GPTQ models,
** and every malformed case with its exact message. Uses tools/mkmodel_lib.c.
*/
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkmodel_lib.h"
#include "safetensors.h"
#define TU_TMPDIR_TAG "st"
#include "tmpdir.h"

static void test_buffer(void **state) {
  (void)state;
  mk_st_tensor t[] = {{"model.embed_tokens.weight", "BF16", 2, {256, 64}},
                      {"model.layers.0.self_attn.q_proj.weight", "F8_E4M3", 2, {64, 64}},
                      {"model.layers.0.self_attn.q_proj.weight_scale", "F32", 0, {0}},
                      {"model.norm.weight", "F32", 1, {64}}};
  mk_buf b = {0};
  char err[256];
  st_model m;
  assert_true(mk_safetensors(&b, t, 4, NULL, err, sizeof err));
  assert_int_equal(st_read_buffer("m.safetensors", b.p, b.len,
                                  "{\"quantization_config\":{\"quant_method\":\"fp8\"}}", &m,
                                  err, sizeof err), ST_OK);
  assert_int_equal(m.n, 4);
  assert_int_equal(m.params, 256 * 64 + 64 * 64 + 64);
  assert_int_equal(m.bytes, 256 * 64 * 2 + 64 * 64 + 64 * 4);
  assert_int_equal(m.aux_bytes, 4); /* the scalar scale */
  assert_true(m.t[2].flags & ST_FLAG_QUANT_AUX);
  assert_int_equal(m.t[1].vdtype, DT_FP8_E4M3);
  assert_string_equal(m.quant.method, "fp8");
  st_model_free(&m);
  mk_buf_free(&b);
}

static void check_dir(const char *dir, const mk_hf *o, unsigned shards, size_t files) {
  char err[512];
  st_model m;
  uint64_t params, bytes, aux;
  assert_true(mk_hf_dir(dir, o, shards, err, sizeof err));
  assert_int_equal(st_read_dir(dir, &m, err, sizeof err), ST_OK);
  mk_hf_totals(o, &params, &bytes, &aux);
  assert_int_equal(m.n_files, files);
  assert_int_equal(m.params, params);
  assert_int_equal(m.bytes + m.aux_bytes, bytes);
  assert_int_equal(m.aux_bytes, aux);
  st_model_free(&m);
}

/* 2 layers, embd 64, ff 128, kv 32, vocab 256 in BF16: 106816 parameters,
** 213632 bytes, in one file or three shards. */
static void test_dirs(void **state) {
  (void)state;
  mk_hf o;
  mk_hf_defaults(&o);
  check_dir(at("one"), &o, 1, 1);
  check_dir(at("sharded"), &o, 3, 3);
  uint64_t p, b, a;
  mk_hf_totals(&o, &p, &b, &a);
  assert_int_equal(p, 106816);
  assert_int_equal(b, 213632);
}

/* GPTQ 4-bit, group 32: q_proj 64x64 packs 4096 values in 512 int32 (2048 B);
** qzeros, scales and g_idx are kept apart. */
static void test_gptq(void **state) {
  (void)state;
  mk_hf o;
  char err[512];
  st_model m;
  mk_hf_defaults(&o);
  o.gptq_bits = 4;
  check_dir(at("gptq"), &o, 1, 1);
  assert_int_equal(st_read_dir(at("gptq"), &m, err, sizeof err), ST_OK);
  assert_int_equal(m.params, 106816);
  assert_string_equal(m.quant.method, "gptq");
  assert_int_equal(m.quant.bits, 4);
  assert_int_equal(m.quant.group_size, 32);
  const st_tensor *q = &m.t[2];
  assert_string_equal(q->name, "model.layers.0.self_attn.q_proj.qweight");
  assert_int_equal(q->elements, 4096);
  assert_int_equal(q->bytes, 2048);
  assert_int_equal(q->vdtype, DT_INT4);
  assert_true(q->flags & ST_FLAG_PACKED);
  assert_true(m.t[3].flags & ST_FLAG_QUANT_AUX); /* qzeros */
  assert_string_equal(m.note, "");
  st_model_free(&m);
  o.no_bits = true;
  assert_true(mk_hf_dir(at("gptq"), &o, 1, err, sizeof err));
  assert_int_equal(st_read_file(at("gptq/model.safetensors"), &m, err, sizeof err), ST_OK);
  assert_true(m.quant.bits_assumed);
  assert_string_equal(m.note, "no quantization_config.bits found: packed int32 tensors "
                              "(qweight, qzeros) assumed to hold 4-bit values");
  assert_int_equal(m.params, 106816);
  st_model_free(&m);
}

static void test_index_errors(void **state) {
  (void)state;
  char err[512];
  st_model m;
  FILE *f = fopen(at("sharded/model.safetensors.index.json"), "w");
  assert_non_null(f);
  fputs("{\"weight_map\":{\"lm_head.weight\":\"model-00003-of-00003.safetensors\","
        "\"x\":\"model-00001-of-00003.safetensors\"}}", f);
  fclose(f);
  assert_int_equal(st_read_dir(at("sharded"), &m, err, sizeof err), ST_ERR_FORMAT);
  char want[512];
  snprintf(want, sizeof want, "%s: tensor 'x' is mapped to 'model-00001-of-00003.safetensors', which does not hold it",
           at("sharded/model.safetensors.index.json"));
  assert_string_equal(err, want);
  f = fopen(at("sharded/model.safetensors.index.json"), "w");
  fputs("{\"weight_map\":{\"x\":\"../etc/passwd\"}}", f);
  fclose(f);
  assert_int_equal(st_read_dir(at("sharded"), &m, err, sizeof err), ST_ERR_FORMAT);
  snprintf(want, sizeof want, "%s: weight_map['x'] must name a file in the same folder",
           at("sharded/model.safetensors.index.json"));
  assert_string_equal(err, want);
}

typedef struct bad_case {
  const char *kind, *msg;
} bad_case;

static const bad_case bad_cases[] = {
    {"st-truncated", "bad.safetensors: offset 0: file is 3 bytes, too short for the 8-byte header length"},
    {"st-not-object", "bad.safetensors: offset 8: the header is not a JSON object"},
    {"st-header-past-eof", "bad.safetensors: offset 0: header length 1000 exceeds the 2 bytes after it"},
    {"st-header-cap", "bad.safetensors: offset 0: header length 209715200 exceeds the 100 MiB cap"},
    {"st-bad-json", "bad.safetensors: offset 15: header is not valid JSON: ']' expected near end of file (line 1, column 7)"},
    {"st-offsets-mismatch", "bad.safetensors: tensor 'w': data_offsets [0, 30) hold 30 bytes, but F16 [4, 4] needs 32"},
    {"st-offsets-past-end", "bad.safetensors: tensor 'w': data_offsets [0, 32) lie past the end of the data region (16 bytes)"},
    {"st-unknown-dtype", "bad.safetensors: tensor 'w': unknown dtype 'Q7'"},
    {"st-shape-overflow", "bad.safetensors: tensor 'w': shape [4611686018427387904, 4611686018427387904] overflows 64 bits"},
};

static void test_bad_files(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    mk_buf b = {0};
    char err[512];
    st_model m;
    assert_true(mk_bad(bad_cases[i].kind, &b, err, sizeof err));
    assert_int_equal(st_read_buffer("bad.safetensors", b.p, b.len, NULL, &m, err, sizeof err),
                     ST_ERR_FORMAT);
    assert_string_equal(err, bad_cases[i].msg);
    assert_null(m.t);
    mk_buf_free(&b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_buffer), cmocka_unit_test(test_dirs),
      cmocka_unit_test(test_gptq),   cmocka_unit_test(test_index_errors),
      cmocka_unit_test(test_bad_files),
  };
  return cmocka_run_group_tests(tests, tu_tmp_setup, tu_tmp_teardown);
}
