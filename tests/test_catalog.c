/*
** test_catalog.c: GPU name resolution (catalog.c) on hand-made entries: canonical
** names caseless, aliases in catalog order, the unknown-GPU message verbatim; then
** tests/golden/gpu_aliases.txt (device name TAB catalog name) against the shipped
** catalog through the public API, as nvidia-smi / rocm-smi names reach it.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "testutil.h"
#include "vramfit.h"

#ifndef GOLDEN_ALIASES
#define GOLDEN_ALIASES "tests/golden/gpu_aliases.txt"
#endif

/* H100-SXM-80GB (0), H100-NVL-94GB (1), A100-SXM4-80GB (2) with nvidia-smi aliases */
static void make_catalog(catalog *c) {
  char err[256] = "";
  assert_true(catalog_init(c));
  gpu g = tu_gpu("H100-SXM-80GB", 85520809984ull, "hopper");
  assert_true(catalog_add(c, &g));
  g = tu_gpu("H100-NVL-94GB", 100485038080ull, "hopper");
  assert_true(catalog_add(c, &g));
  g = tu_gpu("A100-SXM4-80GB", 85198045184ull, "ampere");
  assert_true(catalog_add(c, &g));
  assert_int_equal(c->n, 3);
  /* the NVL alias first: "H100" alone would also match "NVIDIA H100 NVL" */
  assert_true(catalog_alias(c, 1, "h100.*nvl", err, sizeof err));
  assert_true(catalog_alias(c, 0, "^(nvidia )?h100( 80gb hbm3| sxm5?)?$", err, sizeof err));
  assert_true(catalog_alias(c, 2, "a100", err, sizeof err));
}

static void test_find(void **state) {
  (void)state;
  catalog c;
  make_catalog(&c);
  char err[256] = "";
  const gpu *g = catalog_find(&c, "H100-SXM-80GB", err, sizeof err);
  assert_ptr_equal(g, &c.v[0]);
  assert_int_equal(g->memory, 85520809984ull);
  assert_string_equal(g->arch, "hopper");
  assert_ptr_equal(catalog_find(&c, "h100-nvl-94gb", err, sizeof err), &c.v[1]); /* caseless */
  assert_ptr_equal(catalog_find(&c, "NVIDIA H100 80GB HBM3", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "H100", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "NVIDIA H100 NVL", err, sizeof err), &c.v[1]);
  assert_ptr_equal(catalog_find(&c, "NVIDIA A100-SXM4-80GB", err, sizeof err), &c.v[2]);
  assert_ptr_equal(catalog_find(&c, "a100", err, sizeof err), &c.v[2]);
  catalog_free(&c);
}

static void test_unknown(void **state) {
  (void)state;
  catalog c;
  make_catalog(&c);
  char err[256] = "";
  assert_null(catalog_find(&c, "XYZ", err, sizeof err));
  assert_string_equal(err, "unknown GPU 'XYZ' (see 'vramfit list gpus')");
  /* the H100 alias is anchored: a longer name does not resolve by prefix */
  assert_null(catalog_find(&c, "NVIDIA H100 PCIe", err, sizeof err));
  assert_string_equal(err, "unknown GPU 'NVIDIA H100 PCIe' (see 'vramfit list gpus')");
  assert_null(catalog_find(&c, "", err, sizeof err));
  assert_string_equal(err, "unknown GPU '' (see 'vramfit list gpus')");
  catalog_free(&c);

  /* an empty catalog knows nothing */
  assert_true(catalog_init(&c));
  assert_null(catalog_find(&c, "H100", err, sizeof err));
  assert_string_equal(err, "unknown GPU 'H100' (see 'vramfit list gpus')");
  catalog_free(&c);
}

static void test_bad_alias(void **state) {
  (void)state;
  catalog c;
  make_catalog(&c);
  char err[256] = "";
  assert_false(catalog_alias(&c, 0, "h100(", err, sizeof err));
  assert_string_equal(err, "pattern 'h100(': missing closing parenthesis at offset 5");
  assert_int_equal(rules_count(c.aliases), 3);
  catalog_free(&c);
}

static void test_grows(void **state) {
  (void)state;
  catalog c;
  assert_true(catalog_init(&c));
  char name[48];
  for (int i = 0; i < 200; i++) { /* past the first growths (64, 128) */
    snprintf(name, sizeof name, "GPU-%03d", i);
    gpu g = tu_gpu(name, (uint64_t)(i + 1) * TU_GIB, "ampere");
    assert_true(catalog_add(&c, &g));
  }
  char err[256] = "";
  assert_true(catalog_alias(&c, 150, "^card 150$", err, sizeof err));
  const gpu *g = catalog_find(&c, "gpu-199", err, sizeof err);
  assert_non_null(g);
  assert_int_equal(g->memory, 200 * TU_GIB);
  g = catalog_find(&c, "Card 150", err, sizeof err);
  assert_non_null(g);
  assert_string_equal(g->name, "GPU-150");
  catalog_free(&c);
}

/* Lua string literal for s: backslashes and double quotes escaped. */
static void lua_quote(const char *s, char *out, size_t size) {
  size_t o = 0;
  for (; *s && o + 3 < size; s++) {
    if (*s == '"' || *s == '\\') out[o++] = '\\';
    out[o++] = *s;
  }
  out[o] = '\0';
}

static void test_golden_aliases(void **state) {
  (void)state;
  FILE *f = fopen(GOLDEN_ALIASES, "r");
  if (!f) fail_msg("cannot open %s (run from the repository root)", GOLDEN_ALIASES);
  vf_options opt;
  vf_options_init(&opt);
  opt.data_dir = "/nonexistent"; /* the scripts compiled into the library */
  vf_engine *e = NULL;
  assert_int_equal(vf_engine_new(&opt, &e), VF_OK);
  vf_request req;
  memset(&req, 0, sizeof req);
  req.format = VF_FORMAT_JSON;
  char line[512], quoted[512], text[1024];
  int n = 0, bad = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    char *tab = strchr(line, '\t');
    if (line[0] == '\0' || line[0] == '#') continue;
    if (!tab) fail_msg("%s: no tab in '%s'", GOLDEN_ALIASES, line);
    *tab = '\0';
    const char *device = line, *expected = tab + 1;
    lua_quote(device, quoted, sizeof quoted);
    int len = snprintf(text, sizeof text,
                       "return { model = \"meta-llama/Llama-3.2-1B\", workload = { kind = \"inference\", "
                       "context = 128 }, gpu = \"%s\" }",
                       quoted);
    const char *out = NULL;
    const vf_result *res = NULL;
    n++;
    vf_status st = vf_estimate_string(e, text, (size_t)len, "alias.lua", &req, &out);
    if (st != VF_OK) {
      print_error("'%s': %s: %s\n", device, vf_status_message(st), vf_engine_error(e));
      bad++;
      continue;
    }
    assert_int_equal(vf_last_result(e, &res), VF_OK);
    if (strcmp(res->gpu, expected) != 0) {
      print_error("'%s' resolved to '%s', expected '%s'\n", device, res->gpu, expected);
      bad++;
    }
  }
  fclose(f);
  vf_engine_free(e);
  assert_int_equal(n, 64); /* every line of the file was checked */
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_find),  cmocka_unit_test(test_unknown),        cmocka_unit_test(test_bad_alias),
      cmocka_unit_test(test_grows), cmocka_unit_test(test_golden_aliases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
