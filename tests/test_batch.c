/*
** test_batch.c: batch evaluation (src/sweep.c, src/lua_sweep.c, the lazy sweep of
** scripts/engine.lua) against the engine's own path, point by point; error rows;
** the fast path's verification probes; and the pictures of src/report_svg.c.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "apiutil.h"
#include "report_svg.c" /* part of the command, not of the library: compiled in here */

#define LLAMA "meta-llama/Llama-3.1-8B-Instruct"

static char *write_tmp(const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/vf_test_batch_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  return path;
}

static vf_batch *open_batch(const char *path, const vf_request *req) {
  vf_options opt;
  vf_options_init(&opt);
  opt.data_dir = "/nonexistent";
  vf_batch *b = NULL;
  char err[1024];
  vf_status st = vf_batch_open(&opt, path, req, &b, err, sizeof err);
  if (st != VF_OK) fprintf(stderr, "%s\n", err);
  assert_int_equal(st, VF_OK);
  return b;
}

/* A batch over a scenario file holding text; *path names it, for unlink. */
static vf_batch *open_text(const char *text, const char **path) {
  *path = write_tmp(text);
  return open_batch(*path, NULL);
}

/* Every point of the batch equals what vf_estimate_file_at reports for it. */
static void same_as_engine(const char *path, size_t expect_n, size_t expect_fast) {
  vf_engine *e = tu_engine(0, 0);
  vf_batch *b = open_batch(path, NULL);
  size_t n = 0;
  assert_int_equal(vf_count_scenarios(e, path, &n), VF_OK);
  assert_int_equal(n, expect_n);
  assert_int_equal(vf_batch_count(b), expect_n);
  vf_request req = {NULL, 0, NULL, 0, VF_FORMAT_CSV, 0};
  for (size_t i = 0; i < n; i++) {
    const char *out;
    const vf_result *r;
    const vf_point *rows;
    size_t nr;
    assert_int_equal(vf_estimate_file_at(e, path, i, &req, &out), VF_OK);
    assert_int_equal(vf_last_result(e, &r), VF_OK);
    assert_int_equal(vf_batch_eval(b, i, &rows, &nr), VF_OK);
    assert_string_equal(rows[0].scenario, r->scenario);
    assert_string_equal(rows[0].gpu, r->gpu);
    assert_int_equal(rows[0].total_bytes, r->total_bytes);
    assert_int_equal(rows[0].peak_allocated_bytes, r->peak_allocated_bytes);
    assert_int_equal(rows[0].n_categories, r->n_categories);
    for (size_t k = 0; k < r->n_categories; k++)
      assert_int_equal(rows[0].categories[k].bytes, r->categories[k].bytes);
  }
  if (expect_fast != SIZE_MAX) assert_int_equal(vf_batch_fast_count(b), expect_fast);
  vf_batch_free(b);
  vf_engine_free(e);
  unlink(path);
}

static void test_fast_path_matches_engine(void **state) {
  (void)state;
  const char *p = write_tmp(
      "return sweep { base = { name = 'chat', model = '" LLAMA
      "', dtype = 'bf16',\n"
      "  workload = { kind = 'inference', context = 8192 } },\n"
      "  axes = { ['workload.context'] = range(1024, 8192, 'double'),\n"
      "           ['workload.concurrency'] = {1, 3, 2}, gpu = {'L40S', 'H100', 'RTX-4090-24GB'} } }\n");
  same_as_engine(p, 4 * 3 * 3, 4 * 3 * 3);
}

/* Slow axes (model, quant, runtime) form groups, each verified on its own; whatever
** path each group takes, every point equals the engine's. */
static void test_mixed_axes_match_engine(void **state) {
  (void)state;
  const char *p = write_tmp("return sweep { base = { name = 'mq', model = '" LLAMA
                            "',\n"
                            "  workload = { kind = 'inference', context = 8192 } },\n"
                            "  axes = { model = { '" LLAMA
                            "', 'mistralai/Mixtral-8x7B-v0.1' }, quant = { 'awq', 'fp8' },\n"
                            "           ['workload.context'] = { 1024, 4096 }, gpu = { 'H100', 'L40S' },\n"
                            "           ['runtime.name'] = { 'transformers', 'vllm' } } }\n");
  same_as_engine(p, 32, SIZE_MAX);
}

/* output_tokens makes prompt_tokens depend on the context (workloads/inference.lua):
** the probes see it and every point goes through Lua, with the same figures. */
static void test_derived_field_falls_back(void **state) {
  (void)state;
  const char *p = write_tmp("return sweep { base = { model = '" LLAMA
                            "', gpu = 'H100',\n"
                            "  workload = { kind = 'inference', context = 8192, output_tokens = 512 } },\n"
                            "  axes = { ['workload.context'] = {1024, 4096, 2048} } }\n");
  same_as_engine(p, 3, 0);
}

/* Hand arithmetic: Llama 3.1 8B keeps 32 layers x 8 KV heads x (128 + 128) x 2 B per
** token; 1024 tokens x 1 sequence = 134,217,728 B. Names carry the axis values. */
static void test_rows_and_names(void **state) {
  (void)state;
  const char *p;
  vf_batch *b = open_text(
      "return sweep { base = { name = 'kv', model = '" LLAMA
      "', gpu = {'L40S', 'H100'},\n"
      "  workload = { kind = 'inference', context = 1024 } },\n"
      "  axes = { ['workload.context'] = {1024, 2048} }, order = { 'workload.context' } }\n",
      &p);
  const vf_point *rows;
  size_t nr;
  assert_int_equal(vf_batch_eval(b, 0, &rows, &nr), VF_OK);
  assert_int_equal(nr, 2);
  assert_string_equal(rows[0].scenario, "kv[workload.context=1024]");
  assert_string_equal(rows[0].axes, "workload.context=1024");
  assert_string_equal(rows[0].gpu, "L40S-48GB");
  assert_string_equal(rows[1].gpu, "H100-SXM-80GB");
  for (size_t k = 0; k < rows[0].n_categories; k++)
    if (!strcmp(rows[0].categories[k].name, "kv_cache"))
      assert_int_equal(rows[0].categories[k].bytes, 134217728);
  assert_int_equal(vf_batch_eval(b, 1, &rows, &nr), VF_OK);
  assert_int_equal(rows[0].context, 2048);
  assert_int_equal(rows[0].index, 1);
  vf_batch_free(b);
  unlink(p);
}

/* A prompt longer than the smallest context fails that point only; the probe at the
** axis minimum finds it, and the other point is still evaluated. */
static void test_error_rows(void **state) {
  (void)state;
  const char *p;
  vf_batch *b = open_text(
      "return sweep { base = { model = '" LLAMA
      "', gpu = 'H100',\n"
      "  workload = { kind = 'inference', context = 4096, prompt_tokens = 3000 } },\n"
      "  axes = { ['workload.context'] = {2048, 4096}, gpu = {'H100', 'NoSuchGPU'} } }\n",
      &p);
  const vf_point *rows;
  size_t nr;
  assert_int_equal(vf_batch_eval(b, 0, &rows, &nr), VF_EINVAL);
  assert_int_equal(nr, 1);
  assert_non_null(
      strstr(rows[0].error, ": scenario 1: workload.prompt_tokens: 3000 is out of range (1 to 2048)"));
  assert_string_equal(rows[0].axes, "gpu=H100,workload.context=2048");
  assert_int_equal(vf_batch_eval(b, 1, &rows, &nr), VF_OK);
  assert_null(rows[0].error);
  assert_int_equal(vf_batch_eval(b, 3, &rows, &nr), VF_EINVAL);
  assert_non_null(strstr(rows[0].error, "gpu: unknown GPU 'NoSuchGPU'"));
  assert_int_equal(vf_batch_eval(b, 4, &rows, &nr), VF_EINVAL);
  char want[128];
  snprintf(want, sizeof want, "%s: scenario 5: the file has 4 scenarios", p);
  assert_string_equal(vf_batch_error(b), want);
  vf_batch_free(b);
  unlink(p);
}

/* vf_batch_open's failures with no error buffer, or a NULL path or output, are a status,
** not a crash (err NULL with errlen 0 read a NULL string; a NULL path was strdup'ed). */
static void test_open_bad_arguments(void **state) {
  (void)state;
  vf_batch *b = (vf_batch *)&b;
  assert_int_equal(vf_batch_open(NULL, "/nonexistent/x.lua", NULL, &b, NULL, 0), VF_EINVAL);
  assert_null(b);
  char err[256] = "stale";
  assert_int_equal(vf_batch_open(NULL, NULL, NULL, &b, err, sizeof err), VF_EINVAL);
  assert_string_equal(err, "vf_batch_open: a required argument is NULL");
  assert_null(b);
  assert_int_equal(vf_batch_open(NULL, "/nonexistent/x.lua", NULL, NULL, err, sizeof err), VF_EINVAL);
  assert_string_equal(err, "vf_batch_open: a required argument is NULL");
  assert_int_equal(vf_batch_open(NULL, "/nonexistent/x.lua", NULL, &b, err, sizeof err), VF_EINVAL);
  assert_string_equal(err, "/nonexistent/x.lua: cannot open: No such file or directory");
  vf_request req = {NULL, 2, NULL, 0, VF_FORMAT_CSV, 0};
  assert_int_equal(vf_batch_open(NULL, "/nonexistent/x.lua", &req, &b, err, sizeof err), VF_EINVAL);
  assert_string_equal(err, "vf_request.sets[0]: NULL (n_sets is 2)");
  assert_null(b);
}

/* --set or --gpu over a field a sweep varies: every point evaluated at the one value while
** its name and axes claimed the axis value (8 rows, 4 pairs of identical figures with
** different labels); refused per point naming both, while a field no axis sets still applies. */
static void test_override_of_an_axis(void **state) {
  (void)state;
  const char *p = write_tmp("return sweep { base = { name = 's', model = '" LLAMA "',\n"
                            "  workload = { kind = 'inference', context = 4096 } },\n"
                            "  axes = { ['workload.context'] = {1024, 2048}, gpu = {'L40S', 'H100'} } }\n");
  const char *ctx[] = {"workload.context=99"}, *wl[] = {"workload={}"}, *conc[] = {"workload.concurrency=2"};
  const char *gpu[] = {"H200"};
  struct { vf_request req; const char *want; } cases[] = {
      {{ctx, 1, NULL, 0, VF_FORMAT_CSV, 0},
       "scenario 1: --set workload.context: the sweep's axis 'workload.context' sets this field (drop the --set, or the axis)"},
      {{wl, 1, NULL, 0, VF_FORMAT_CSV, 0},
       "scenario 1: --set workload: the sweep's axis 'workload.context' sets this field (drop the --set, or the axis)"},
      {{NULL, 0, gpu, 1, VF_FORMAT_CSV, 0}, "scenario 1: --gpu: the sweep's axis 'gpu' sets the GPU (drop --gpu, or the axis)"},
  };
  const vf_point *rows;
  size_t nr;
  char want[256];
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    vf_batch *b = open_batch(p, &cases[c].req);
    assert_int_equal(vf_batch_eval(b, 0, &rows, &nr), VF_EINVAL);
    snprintf(want, sizeof want, "%s: %s", p, cases[c].want);
    assert_string_equal(rows[0].error, want);
    vf_batch_free(b);
  }
  vf_request ok = {conc, 1, NULL, 0, VF_FORMAT_CSV, 0};
  vf_batch *b = open_batch(p, &ok);
  assert_int_equal(vf_batch_eval(b, 3, &rows, &nr), VF_OK);
  assert_int_equal(rows[0].concurrency, 2);
  assert_int_equal(rows[0].context, 2048);
  assert_string_equal(rows[0].gpu, "H100-SXM-80GB");
  vf_batch_free(b);
  vf_engine *e = tu_engine(0, 0);
  const char *out;
  assert_int_equal(vf_estimate_file_at(e, p, 1, &cases[0].req, &out), VF_EINVAL);
  snprintf(want, sizeof want, "%s: scenario 2: --set workload.context: the sweep's axis 'workload.context' sets this field (drop the --set, or the axis)", p);
  assert_string_equal(vf_engine_error(e), want);
  vf_engine_free(e);
  unlink(p);
}

/* A million-point sweep is counted and indexed without being built. */
static void test_lazy_million(void **state) {
  (void)state;
  const char *p = write_tmp("return sweep { base = { name = 'm', model = '" LLAMA
                            "', gpu = 'H100',\n"
                            "  workload = { kind = 'inference' } },\n"
                            "  axes = { ['workload.context'] = range(1, 1000, 1), ['workload.concurrency'] = "
                            "range(1, 1000, 1) } }\n");
  vf_engine *e = tu_engine(0, 0);
  size_t n = 0;
  assert_int_equal(vf_count_scenarios(e, p, &n), VF_OK);
  assert_int_equal(n, 1000000);
  const char *out;
  vf_request req = {NULL, 0, NULL, 0, VF_FORMAT_CSV, 0};
  assert_int_equal(vf_estimate_file_at(e, p, 999999, &req, &out), VF_OK);
  const vf_result *r;
  assert_int_equal(vf_last_result(e, &r), VF_OK);
  assert_string_equal(r->scenario, "m[workload.concurrency=1000,workload.context=1000]");
  uint64_t total = r->total_bytes;
  vf_engine_free(e);
  vf_batch *b = open_batch(p, NULL);
  const vf_point *rows;
  size_t nr;
  assert_int_equal(vf_batch_eval(b, 999999, &rows, &nr), VF_OK);
  assert_int_equal(rows[0].total_bytes, total);
  assert_string_equal(rows[0].scenario, "m[workload.concurrency=1000,workload.context=1000]");
  vf_batch_free(b);
  unlink(p);
}

static void test_svg_report(void **state) {
  (void)state;
  rsvg *p = rsvg_new(4);
  const char *names[] = {"weights", "kv_cache"};
  for (size_t i = 0; i < 4; i++) {
    uint64_t bytes[] = {16000000000ull, 134217728ull << i};
    rsvg_row r = {i + 1,
                  "s<1>",
                  i < 2 ? "workload.context=1024" : "workload.context=2048",
                  "m&1",
                  "H100",
                  NULL,
                  85899345920ull,
                  bytes[0] + bytes[1],
                  0.2,
                  1,
                  i < 2 ? 1024 : 2048,
                  1,
                  0,
                  0,
                  names,
                  bytes,
                  2};
    assert_int_equal(rsvg_add(p, &r), 0);
  }
  char *html = rsvg_html(p, "t");
  assert_non_null(strstr(html, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"vf-lines\""));
  assert_non_null(strstr(html, "id=\"vf-bars\""));
  assert_non_null(strstr(html, "id=\"vf-matrix\""));
  assert_non_null(strstr(html, "m&amp;1"));
  assert_null(strstr(html, "<script"));
  /* no address but the SVG namespace: nothing is fetched */
  for (const char *a = strstr(html, "http"); a; a = strstr(a + 1, "http"))
    assert_int_equal(strncmp(a, "http://www.w3.org/2000/svg", 26), 0);
  /* one series (its key drops the x axis) of two points, one capacity line, 4 bars */
  const char *line = strstr(html, "<polyline class=\"series\"");
  assert_non_null(line);
  assert_null(strstr(line + 1, "<polyline"));
  assert_non_null(strstr(html, "<title>m&amp;1</title></polyline>"));
  size_t bars = 0;
  for (const char *a = strstr(html, "<g class=\"bar\">"); a; a = strstr(a + 1, "<g class=\"bar\">")) bars++;
  assert_int_equal(bars, 4);
  free(html);
  char *svg = rsvg_svg(p, RSVG_MATRIX);
  assert_non_null(strstr(svg, "20% · 4/4 fit"));
  free(svg);
  rsvg_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fast_path_matches_engine),
      cmocka_unit_test(test_mixed_axes_match_engine),
      cmocka_unit_test(test_derived_field_falls_back),
      cmocka_unit_test(test_rows_and_names),
      cmocka_unit_test(test_error_rows),
      cmocka_unit_test(test_open_bad_arguments),
      cmocka_unit_test(test_override_of_an_axis),
      cmocka_unit_test(test_lazy_million),
      cmocka_unit_test(test_svg_report),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
