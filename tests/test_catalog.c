/*
** test_catalog.c: GPU name resolution (catalog.c) on hand-made entries: canonical
** names caseless, aliases in catalog order, the unknown-GPU message verbatim, a size the
** name states checked against the entry's; then tests/golden/gpu_aliases.txt (device
** name TAB catalog name) and typed names with sizes against the shipped catalog through
** the public API, as nvidia-smi / rocm-smi names and scenario files reach it.
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

/* Entries that print one device name for several sizes, as in scripts/gpus.lua:
** RTX-3060-12GB (0) takes "RTX 3060"; GH200-96GB (1) is what nvidia-smi calls
** "GH200 480GB" (the CPU's memory counted); MI250X-GCD-64GB (2) has the package's 128GB
** as its nominal (cut to the field's 16 bytes, as the loader does). */
static void make_sized(catalog *c) {
  char err[256] = "";
  assert_true(catalog_init(c));
  gpu g = tu_gpu("RTX-3060-12GB", 12 * TU_GIB, "ampere");
  strcpy(g.nominal, "12GB");
  assert_true(catalog_add(c, &g));
  g = tu_gpu("GH200-96GB", 96 * TU_GIB, "hopper");
  strcpy(g.nominal, "96GB");
  assert_true(catalog_add(c, &g));
  g = tu_gpu("MI250X-GCD-64GB", 64 * TU_GIB, "cdna2");
  strcpy(g.nominal, "128GB per packa");
  assert_true(catalog_add(c, &g));
  assert_true(catalog_alias(c, 0, "RTX ?3060(?! ?Ti)", err, sizeof err));
  assert_true(catalog_alias(c, 1, "GH200 480GB", err, sizeof err));
  assert_true(catalog_alias(c, 1, "^GH200$", err, sizeof err));
  assert_true(catalog_alias(c, 2, "\\bMI250X?\\b", err, sizeof err));
}

static void test_stated_size(void **state) {
  (void)state;
  catalog c;
  make_sized(&c);
  char err[512] = "";
  /* sizes that agree with the nominal, in the spellings people type */
  assert_ptr_equal(catalog_find(&c, "RTX 3060", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "RTX 3060 12GB", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "RTX 3060 12 GB", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "rtx 3060 12gib", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "RTX 3060 12G", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "RTX 3060 (12.0 GB)", err, sizeof err), &c.v[0]);
  /* the alias needs the 480GB to match: the catalog's own word, not the user's */
  assert_ptr_equal(catalog_find(&c, "NVIDIA GH200 480GB", err, sizeof err), &c.v[1]);
  /* the size in the entry's name counts as well as its nominal */
  assert_ptr_equal(catalog_find(&c, "MI250X 64GB", err, sizeof err), &c.v[2]);
  assert_ptr_equal(catalog_find(&c, "MI250X 128GB", err, sizeof err), &c.v[2]);
  /* digits glued to a word or a dot are no size: a model number, a MIG profile */
  assert_ptr_equal(catalog_find(&c, "RTX 3060 G6", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "RTX 3060 1g.8gb", err, sizeof err), &c.v[0]);
  assert_ptr_equal(catalog_find(&c, "RTX 3060 GPU", err, sizeof err), &c.v[0]);
  /* an exact name is never second-guessed */
  assert_ptr_equal(catalog_find(&c, "rtx-3060-12gb", err, sizeof err), &c.v[0]);

  assert_null(catalog_find(&c, "RTX 3060 8GB", err, sizeof err));
  assert_string_equal(err,
                      "unknown GPU 'RTX 3060 8GB': the catalog's RTX 3060 is RTX-3060-12GB (12GB); give its "
                      "memory: gpu = { name = \"RTX 3060 8GB\", memory = \"8GB\" }");
  assert_null(catalog_find(&c, "NVIDIA GeForce RTX 3060 8 gib", err, sizeof err));
  assert_string_equal(
      err,
      "unknown GPU 'NVIDIA GeForce RTX 3060 8 gib': the catalog's NVIDIA GeForce RTX 3060 is "
      "RTX-3060-12GB (12GB); give its memory: gpu = { name = \"NVIDIA GeForce RTX 3060 8 gib\", "
      "memory = \"8GiB\" }");
  /* a second, disagreeing size is not hidden behind an agreeing first one */
  assert_null(catalog_find(&c, "RTX 3060 12GB 6GB", err, sizeof err));
  assert_string_equal(err,
                      "unknown GPU 'RTX 3060 12GB 6GB': the catalog's RTX 3060 12GB is RTX-3060-12GB (12GB); "
                      "give its memory: gpu = { name = \"RTX 3060 12GB 6GB\", memory = \"6GB\" }");
  assert_null(catalog_find(&c, "MI250X-32GB", err, sizeof err));
  assert_string_equal(err,
                      "unknown GPU 'MI250X-32GB': the catalog's MI250X is MI250X-GCD-64GB (64GB); give its "
                      "memory: gpu = { name = \"MI250X-32GB\", memory = \"32GB\" }");
  assert_null(catalog_find(&c, "GH200 144GB", err, sizeof err)); /* no alias for it here */
  assert_string_equal(err, "unknown GPU 'GH200 144GB' (see 'vramfit list gpus')");

  /* resolving a scenario's entry: a name alone is refused as catalog_find refuses it */
  gpu g = tu_gpu("RTX 3060 8GB", 0, "");
  assert_false(catalog_resolve(&c, &g, err, sizeof err));
  assert_string_equal(err,
                      "unknown GPU 'RTX 3060 8GB': the catalog's RTX 3060 is RTX-3060-12GB (12GB); give its "
                      "memory: gpu = { name = \"RTX 3060 8GB\", memory = \"8GB\" }");
  /* with its memory the stated memory wins; the entry still gives the architecture, but
  ** not its name, which would claim 12GB */
  g = tu_gpu("RTX 3060 8GB", 8 * TU_GIB, "");
  g.arch[0] = '\0';
  g.bf16 = false;
  assert_true(catalog_resolve(&c, &g, err, sizeof err));
  assert_string_equal(g.name, "RTX 3060 8GB");
  assert_string_equal(g.arch, "ampere");
  assert_true(g.bf16);
  assert_int_equal(g.memory, 8 * TU_GIB);
  assert_string_equal(g.nominal, "");
  /* a name that agrees takes the entry's name, as before */
  g = tu_gpu("RTX 3060 12GB", 11 * TU_GIB, "");
  assert_true(catalog_resolve(&c, &g, err, sizeof err));
  assert_string_equal(g.name, "RTX-3060-12GB");
  assert_string_equal(g.nominal, "12GB");
  assert_int_equal(g.memory, 11 * TU_GIB);
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

/* The engine's answer for a scenario whose gpu is device: the catalog name it resolved
** to, else the error message; *st the status. */
static const char *resolve_shipped(vf_engine *e, const char *device, vf_status *st) {
  static char answer[1024];
  char quoted[512], text[1024];
  lua_quote(device, quoted, sizeof quoted);
  int len = snprintf(text, sizeof text,
                     "return { model = \"meta-llama/Llama-3.2-1B\", workload = { kind = \"inference\", "
                     "context = 128 }, gpu = \"%s\" }",
                     quoted);
  vf_request req;
  memset(&req, 0, sizeof req);
  req.format = VF_FORMAT_JSON;
  const char *out = NULL;
  const vf_result *res = NULL;
  *st = vf_estimate_string(e, text, (size_t)len, "sized.lua", &req, &out);
  if (*st != VF_OK)
    snprintf(answer, sizeof answer, "%s", vf_engine_error(e));
  else if (vf_last_result(e, &res) != VF_OK)
    snprintf(answer, sizeof answer, "no result");
  else
    snprintf(answer, sizeof answer, "%s", res->gpu);
  return answer;
}

/* Typed names that state a size, against scripts/gpus.lua: the variants that print one
** device name resolve by the size given, and a size no entry has is refused. */
static void test_shipped_sizes(void **state) {
  (void)state;
  static const struct {
    const char *typed, *want;
  } ok[] = {
      {"RTX 3060 8GB", "RTX-3060-8GB"},
      {"NVIDIA GeForce RTX 3060 8 GB", "RTX-3060-8GB"},
      {"RTX 3060 12GB", "RTX-3060-12GB"},
      {"RTX 3060", "RTX-3060-12GB"},
      {"RTX 3080 12GB", "RTX-3080-12GB"},
      {"RTX 3080 12GiB", "RTX-3080-12GB"},
      {"RTX 3080 10GB", "RTX-3080-10GB"},
      {"RTX 3080", "RTX-3080-10GB"},
      {"RTX 4060 Ti 8GB", "RTX-4060Ti-8GB"},
      {"RTX 4060 Ti 16GB", "RTX-4060Ti-16GB"},
      {"RTX 4060 Ti", "RTX-4060Ti-16GB"},
      {"NVIDIA GeForce RTX 4060 Ti", "RTX-4060Ti-16GB"},
      {"3060 8GB", "RTX-3060-8GB"},
      {"4060 Ti 8GB", "RTX-4060Ti-8GB"},
      {"3080-12GB", "RTX-3080-12GB"},
      {"rtx-4060ti-8gb", "RTX-4060Ti-8GB"},
      {"A100 40GB", "A100-SXM4-40GB"},
      {"A100 80GB", "A100-SXM4-80GB"},
      {"A100", "A100-SXM4-80GB"},
      {"V100 32GB", "V100-SXM2-32GB"},
      {"GH200 144GB", "GH200-144GB"},
      {"NVIDIA GH200 480GB", "GH200-96GB"},
      {"RTX 3090 24 GB", "RTX-3090-24GB"},
      {"H200 141GB", "H200-SXM-141GB"},
      {"B300 288GB", "B300-SXM-288GB"},
      {"NVIDIA GB300 288GB", "GB300-288GB"},
      {"NVIDIA A10G", "A10G-24GB"},
      {"MI250X 64GB", "MI250X-GCD-64GB"},
  };
  static const struct {
    const char *typed, *err;
  } bad[] = {
      {"RTX 3060 16GB",
       "sized.lua: gpu: unknown GPU 'RTX 3060 16GB': the catalog's RTX 3060 is RTX-3060-12GB (12GB); "
       "give its memory: gpu = { name = \"RTX 3060 16GB\", memory = \"16GB\" }"},
      {"RTX 3080 20GB",
       "sized.lua: gpu: unknown GPU 'RTX 3080 20GB': the catalog's RTX 3080 is RTX-3080-10GB (10GB); "
       "give its memory: gpu = { name = \"RTX 3080 20GB\", memory = \"20GB\" }"},
      {"RTX 4060 Ti 12GB",
       "sized.lua: gpu: unknown GPU 'RTX 4060 Ti 12GB': the catalog's RTX 4060 Ti is "
       "RTX-4060Ti-16GB (16GB); give its memory: gpu = { name = \"RTX 4060 Ti 12GB\", memory = "
       "\"12GB\" }"},
      {"RTX 4090 48GB",
       "sized.lua: gpu: unknown GPU 'RTX 4090 48GB': the catalog's RTX 4090 is RTX-4090-24GB (24GB); "
       "give its memory: gpu = { name = \"RTX 4090 48GB\", memory = \"48GB\" }"},
      {"H200 144GB",
       "sized.lua: gpu: unknown GPU 'H200 144GB': the catalog's H200 is H200-SXM-141GB (141GB); give "
       "its memory: gpu = { name = \"H200 144GB\", memory = \"144GB\" }"},
  };
  vf_options opt;
  vf_options_init(&opt);
  opt.data_dir = "/nonexistent"; /* the scripts compiled into the library */
  vf_engine *e = NULL;
  assert_int_equal(vf_engine_new(&opt, &e), VF_OK);
  vf_status st;
  int wrong = 0;
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    const char *got = resolve_shipped(e, ok[i].typed, &st);
    if (st != VF_OK || strcmp(got, ok[i].want) != 0) {
      print_error("'%s': got '%s', expected '%s'\n", ok[i].typed, got, ok[i].want);
      wrong++;
    }
  }
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *got = resolve_shipped(e, bad[i].typed, &st);
    if (st != VF_EINVAL || strcmp(got, bad[i].err) != 0) {
      print_error("'%s': got %s '%s', expected '%s'\n", bad[i].typed, vf_status_message(st), got, bad[i].err);
      wrong++;
    }
  }
  /* --gpu (vramfit estimate/fit) goes the same way as the scenario's gpu field */
  const char *text =
      "return { model = \"meta-llama/Llama-3.2-1B\", workload = { kind = \"inference\", "
      "context = 128 } }";
  const char *gpus[] = {"RTX 3060 8GB", "RTX 3080 12GB", "RTX 4060 Ti 8GB"};
  vf_request req;
  memset(&req, 0, sizeof req);
  req.format = VF_FORMAT_JSON;
  req.gpus = gpus;
  req.n_gpus = 3;
  req.fit = 1;
  const char *out = NULL;
  const vf_result *res = NULL;
  assert_int_equal(vf_estimate_string(e, text, strlen(text), "fit.lua", &req, &out), VF_OK);
  assert_int_equal(vf_last_result(e, &res), VF_OK);
  assert_int_equal(res->n_fit, 3);
  assert_string_equal(res->fit[0].gpu, "RTX-3060-8GB");
  assert_string_equal(res->fit[1].gpu, "RTX-3080-12GB");
  assert_string_equal(res->fit[2].gpu, "RTX-4060Ti-8GB");
  assert_int_equal(res->fit[0].memory_bytes, 8 * TU_GIB);
  const char *wrong_gpu[] = {"RTX 4060 Ti 12GB"};
  req.gpus = wrong_gpu;
  req.n_gpus = 1;
  assert_int_equal(vf_estimate_string(e, text, strlen(text), "fit.lua", &req, &out), VF_EINVAL);
  assert_string_equal(vf_engine_error(e),
                      "fit.lua: gpu: unknown GPU 'RTX 4060 Ti 12GB': the catalog's RTX 4060 Ti "
                      "is RTX-4060Ti-16GB (16GB); give its memory: gpu = { name = \"RTX 4060 Ti "
                      "12GB\", memory = \"12GB\" }");
  vf_engine_free(e);
  assert_int_equal(wrong, 0);
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
  assert_int_equal(n, 65); /* every line of the file was checked */
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_find),           cmocka_unit_test(test_unknown),
      cmocka_unit_test(test_bad_alias),      cmocka_unit_test(test_grows),
      cmocka_unit_test(test_stated_size),    cmocka_unit_test(test_shipped_sizes),
      cmocka_unit_test(test_golden_aliases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
