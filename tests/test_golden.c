/*
** test_golden.c: golden figures through the public API: every preset's exact
** parameter count and weight bytes (tests/golden/models.tsv, published facts), the
** Llama-3.1-8B KV cache, and the JSON report's contract fields.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "apiutil.h"

static void check_preset(vf_engine *e, const char *id, const char *dtype, long long params, long long bytes) {
  char text[512];
  snprintf(text, sizeof text,
           "return { model = \"%s\", dtype = \"%s\", workload = { kind = \"inference\", context = 1024 } }", id,
           dtype);
  json_t *j = NULL;
  vf_status st = tu_eval(e, text, &j);
  if (st != VF_OK) fail_msg("%s: %s", id, vf_engine_error(e));
  if (tu_int(j, "model.params") != params)
    fail_msg("%s: params %lld, expected %lld", id, tu_int(j, "model.params"), params);
  if (bytes >= 0 && tu_int(j, "model.weight_bytes") != bytes)
    fail_msg("%s: weight_bytes %lld, expected %lld", id, tu_int(j, "model.weight_bytes"), bytes);
  json_decref(j);
}

/* Every row of tests/golden/models.tsv (run from the repository root). */
static void test_presets_exact(void **state) {
  FILE *f = fopen("tests/golden/models.tsv", "r");
  assert_non_null(f);
  char line[512];
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char id[200], dtype[16], bytes[32];
    long long params;
    assert_int_equal(sscanf(line, "%199s %15s %lld %31s", id, dtype, &params, bytes), 4);
    check_preset(*state, id, dtype, params, strcmp(bytes, "-") == 0 ? -1 : atoll(bytes));
    rows++;
  }
  fclose(f);
  assert_true(rows >= 20);
}

/* The headline: Llama-3.1-8B-Instruct, bf16, 8,192 tokens. */
static void test_llama31_8b_kv(void **state) {
  json_t *j = NULL;
  assert_int_equal(tu_eval(*state,
                           "return { model = 'meta-llama/Llama-3.1-8B-Instruct', dtype = 'bf16',"
                           " workload = { kind = 'inference', context = 8192, concurrency = 1 } }",
                           &j),
                   VF_OK);
  assert_int_equal(tu_int(j, "model.params"), 8030261248LL);
  assert_int_equal(tu_int(j, "model.weight_bytes"), 16060522496LL);
  assert_int_equal(tu_int(j, "model.kv_bytes_per_token"), 131072);
  assert_int_equal(tu_category(j, "kv_cache"), 1073741824LL);
  assert_int_equal(tu_int(j, "runtime.kv_cache_bytes"), 1073741824LL);
  assert_int_equal(tu_category(j, "weights"), 16060522496LL);
  json_decref(j);
}

/* DESIGN.md's report: the fixed fields exist and the totals are consistent. */
static void test_report_contract(void **state) {
  json_t *j = NULL;
  assert_int_equal(tu_eval(*state,
                           "return { name = 'c', model = 'Qwen/Qwen3-8B', gpu = 'H100',"
                           " workload = { kind = 'inference', context = 4096, concurrency = 4 } }",
                           &j),
                   VF_OK);
  assert_string_equal(json_string_value(json_object_get(j, "vramfit")), VF_VERSION_STRING);
  assert_string_equal(json_string_value(json_object_get(j, "scenario")), "c");
  json_t *dev = json_array_get(json_object_get(j, "devices"), 0);
  long long sum = 0;
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(dev, "categories"), i, c) sum += json_integer_value(json_object_get(c, "bytes"));
  assert_int_equal(sum, tu_int(j, "devices.0.total_bytes"));
  assert_true(tu_int(j, "devices.0.peak_reserved_bytes") >= tu_int(j, "devices.0.peak_allocated_bytes"));
  assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(j, "fit"), 0), "gpu")),
                      "H100-SXM-80GB");
  assert_true(json_array_size(json_object_get(j, "assumptions")) > 0);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_presets_exact),
      cmocka_unit_test(test_llama31_8b_kv),
      cmocka_unit_test(test_report_contract),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
