/*
** test_threads.c: no global state. Several threads, each with its own engine, estimate
** at once and must get exactly the figures one engine gets alone; two engines used in
** turn in one thread keep their own results and errors. Built with ASan by `make test`
** and with ThreadSanitizer by `make tsan` (which `make test` also runs).
*/
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "vramfit.h"

#define THREADS 4
#define ROUNDS 6

typedef struct job {
  int id;
  uint64_t total[ROUNDS]; /* total_bytes of each round */
  uint64_t params;
  char error[256];        /* first failure, "" when none */
} job;

/* Scenario text of thread id, round r: the context differs per thread and round. */
static void scenario_text(char *buf, size_t n, int id, int r) {
  snprintf(buf, n,
           "return { name = \"t%d\", model = \"meta-llama/Llama-3.1-8B-Instruct\", dtype = \"bf16\",\n"
           "  workload = { kind = \"inference\", context = %d, concurrency = %d }, gpu = \"L40S\" }\n",
           id, 1024 * (id + 1) + 256 * r, 1 + r % 3);
}

/* One thread's work: its own engine, ROUNDS estimates, plus a bad input on purpose. */
static void *run_job(void *arg) {
  job *j = arg;
  vf_engine *e = NULL;
  vf_options opt;
  vf_options_init(&opt);
  opt.data_dir = "/nonexistent";
  if (vf_engine_new(&opt, &e) != VF_OK) {
    snprintf(j->error, sizeof j->error, "engine_new failed");
    return NULL;
  }
  char text[512];
  const char *out;
  const vf_result *r;
  for (int k = 0; k < ROUNDS && !j->error[0]; k++) {
    scenario_text(text, sizeof text, j->id, k);
    if (vf_estimate_string(e, text, strlen(text), "t.lua", NULL, &out) != VF_OK ||
        vf_last_result(e, &r) != VF_OK) {
      snprintf(j->error, sizeof j->error, "round %d: %s", k, vf_engine_error(e));
      break;
    }
    j->total[k] = r->total_bytes;
    j->params = r->params;
    /* an error on this engine must not leak into another thread's engine */
    if (vf_estimate_string(e, "return { model = 1 }", 20, "bad.lua", NULL, &out) == VF_OK)
      snprintf(j->error, sizeof j->error, "round %d: a bad scenario was accepted", k);
  }
  vf_engine_free(e);
  return NULL;
}

/* The figures the threads must reproduce, from one engine on this thread alone. */
static void expected_totals(job *want) {
  for (int i = 0; i < THREADS; i++) {
    want[i].id = i;
    run_job(&want[i]);
    if (want[i].error[0]) fail_msg("serial %d: %s", i, want[i].error);
  }
}

static void test_threads_agree(void **state) {
  (void)state;
  job want[THREADS] = {0}, got[THREADS] = {0};
  pthread_t t[THREADS];
  expected_totals(want);
  for (int i = 0; i < THREADS; i++) {
    got[i].id = i;
    assert_int_equal(pthread_create(&t[i], NULL, run_job, &got[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < THREADS; i++) {
    if (got[i].error[0]) fail_msg("thread %d: %s", i, got[i].error);
    /* Llama-3.1-8B: 8,030,261,248 parameters (the published config, tests/golden/models.tsv) */
    assert_int_equal(got[i].params, 8030261248ull);
    for (int k = 0; k < ROUNDS; k++) assert_int_equal(got[i].total[k], want[i].total[k]);
  }
  /* the rounds really differ, so a mixed-up result would show */
  assert_true(want[0].total[0] != want[1].total[0]);
}

/* Two engines in one thread: results and messages stay with their engine. */
static void test_two_engines(void **state) {
  (void)state;
  vf_engine *a = NULL, *b = NULL;
  assert_int_equal(vf_engine_new(NULL, &a), VF_OK);
  assert_int_equal(vf_engine_new(NULL, &b), VF_OK);
  char text[512];
  const char *out_a, *out_b;
  scenario_text(text, sizeof text, 0, 0);
  assert_int_equal(vf_estimate_string(a, text, strlen(text), "a.lua", NULL, &out_a), VF_OK);
  assert_int_not_equal(vf_estimate_string(b, "return { model = 1 }", 20, "b.lua", NULL, &out_b), VF_OK);
  assert_string_equal(vf_engine_error(a), "");
  assert_non_null(strstr(vf_engine_error(b), "b.lua"));
  const vf_result *r;
  assert_int_equal(vf_last_result(a, &r), VF_OK);
  assert_string_equal(r->scenario, "t0");
  assert_int_equal(vf_last_result(b, &r), VF_ENOENT);
  vf_engine_free(a);
  vf_engine_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_engines),
      cmocka_unit_test(test_threads_agree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
