/*
** test_rules.c: ordered PCRE2 rule sets (rules.c): first match wins, the caseless and
** anchored flags, compile errors and match failures with their exact messages, and
** catastrophic backtracking stopped by the match limit in bounded time.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rules.h"

static void test_first_match_wins(void **state) {
  (void)state;
  char err[256] = "";
  rules *r = rules_new();
  assert_non_null(r);
  assert_int_equal(rules_count(r), 0);
  assert_true(rules_add(r, "H100 NVL", 3, 0, err, sizeof err));
  assert_true(rules_add(r, "H100", 1, 0, err, sizeof err));
  assert_true(rules_add(r, "H\\d00", 2, 0, err, sizeof err));
  assert_int_equal(rules_count(r), 3);
  int v = -1;
  size_t idx = 99;
  assert_int_equal(rules_match(r, "NVIDIA H100 NVL", &v, &idx, err, sizeof err), 1);
  assert_int_equal(v, 3);
  assert_int_equal(idx, 0);
  assert_int_equal(rules_match(r, "NVIDIA H100 80GB HBM3", &v, &idx, err, sizeof err), 1);
  assert_int_equal(v, 1); /* rule 2 also matches; rule 1 comes first */
  assert_int_equal(idx, 1);
  assert_int_equal(rules_match(r, "NVIDIA H200", &v, &idx, err, sizeof err), 1);
  assert_int_equal(v, 2);
  assert_int_equal(idx, 2);
  v = -1;
  idx = 99;
  assert_int_equal(rules_match(r, "NVIDIA A100", &v, &idx, err, sizeof err), 0);
  assert_int_equal(v, -1); /* untouched without a match */
  assert_int_equal(idx, 99);
  assert_int_equal(rules_match(r, "H100", NULL, NULL, err, sizeof err), 1); /* outputs optional */
  /* the rules after an earlier match: the next one that matches, then none */
  assert_int_equal(rules_match_from(r, 0, "NVIDIA H100 NVL", &v, &idx, err, sizeof err), 1);
  assert_int_equal(idx, 0);
  assert_int_equal(rules_match_from(r, idx + 1, "NVIDIA H100 NVL", &v, &idx, err, sizeof err), 1);
  assert_int_equal(v, 1);
  assert_int_equal(idx, 1);
  assert_int_equal(rules_match_from(r, idx + 1, "NVIDIA H100 NVL", &v, &idx, err, sizeof err), 1);
  assert_int_equal(v, 2);
  assert_int_equal(idx, 2);
  assert_int_equal(rules_match_from(r, idx + 1, "NVIDIA H100 NVL", &v, &idx, err, sizeof err), 0);
  assert_int_equal(rules_match_from(r, 99, "H100", &v, &idx, err, sizeof err), 0); /* past the last */
  rules_free(r);
  rules_free(NULL);
}

static void test_flags(void **state) {
  (void)state;
  char err[256] = "";
  rules *r = rules_new();
  assert_true(rules_add(r, "h100", 1, 0, err, sizeof err));
  int v = 0;
  assert_int_equal(rules_match(r, "NVIDIA H100", &v, NULL, err, sizeof err), 0);
  rules_free(r);

  r = rules_new();
  assert_true(rules_add(r, "h100", 1, RULES_CASELESS, err, sizeof err));
  assert_int_equal(rules_match(r, "NVIDIA H100", &v, NULL, err, sizeof err), 1);
  rules_free(r);

  /* anchored at both ends: the whole subject must match */
  r = rules_new();
  assert_true(rules_add(r, "a100", 5, RULES_ANCHORED | RULES_CASELESS, err, sizeof err));
  assert_int_equal(rules_match(r, "A100", &v, NULL, err, sizeof err), 1);
  assert_int_equal(v, 5);
  assert_int_equal(rules_match(r, "NVIDIA A100", &v, NULL, err, sizeof err), 0);
  assert_int_equal(rules_match(r, "A1000", &v, NULL, err, sizeof err), 0);
  assert_true(rules_add(r, "a100", 6, RULES_CASELESS, err, sizeof err));
  assert_int_equal(rules_match(r, "A1000", &v, NULL, err, sizeof err), 1);
  assert_int_equal(v, 6);
  rules_free(r);
}

static void test_syntax_errors(void **state) {
  (void)state;
  char err[256];
  rules *r = rules_new();
  assert_false(rules_add(r, "a(b", 1, 0, err, sizeof err));
  assert_string_equal(err, "pattern 'a(b': missing closing parenthesis at offset 3");
  assert_false(rules_add(r, "[z-a]", 1, 0, err, sizeof err));
  assert_string_equal(err, "pattern '[z-a]': range out of order in character class at offset 3");
  assert_false(rules_add(r, "*x", 1, 0, err, sizeof err));
  assert_string_equal(err, "pattern '*x': quantifier does not follow a repeatable item at offset 0");
  assert_int_equal(rules_count(r), 0); /* nothing half-added */
  /* a short buffer truncates and terminates */
  char small[16];
  assert_false(rules_add(r, "a(b", 1, 0, small, sizeof small));
  assert_string_equal(small, "pattern 'a(b': ");
  rules_free(r);
}

static void test_catastrophic_pattern(void **state) {
  (void)state;
  const char *subject = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";
  char err[256] = "";
  rules *r = rules_new();
  assert_true(rules_add(r, "(a+)+$", 7, 0, err, sizeof err));
  assert_true(rules_add(r, "b$", 8, 0, err, sizeof err)); /* would match, never reached */
  int v = -1;
  clock_t t0 = clock();
  assert_int_equal(rules_match(r, subject, &v, NULL, err, sizeof err), -1);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  assert_true(secs < 0.5); /* 2^66 paths unbounded; the limit stops it in ~ms */
  assert_int_equal(v, -1);
  char want[256];
  snprintf(want, sizeof want, "matching '%s': match limit exceeded", subject);
  assert_string_equal(err, want);
  rules_free(r);
}

static void test_bad_utf8_subject(void **state) {
  (void)state;
  char err[256] = "";
  rules *r = rules_new();
  assert_true(rules_add(r, "x", 1, 0, err, sizeof err));
  int v = 0;
  assert_int_equal(rules_match(r, "GPU \xff", &v, NULL, err, sizeof err), -1);
  assert_string_equal(err, "matching 'GPU \xff': UTF-8 error: illegal byte (0xfe or 0xff)");
  rules_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_match_wins), cmocka_unit_test(test_flags),
      cmocka_unit_test(test_syntax_errors),    cmocka_unit_test(test_catastrophic_pattern),
      cmocka_unit_test(test_bad_utf8_subject),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
