/*
** test_units.c: byte-size and count parsing (units.c) with every status and its
** message verbatim, and the IEC, SI and digit-grouped formatting of reports.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "units.h"

typedef struct parse_case {
  const char *text;
  units_status st;
  uint64_t value; /* when st == UNITS_OK */
} parse_case;

static void check_cases(const parse_case *c, size_t n, units_status (*parse)(const char *, uint64_t *)) {
  for (size_t i = 0; i < n; i++) {
    uint64_t v = 12345;
    units_status st = parse(c[i].text, &v);
    if (st != c[i].st) fail_msg("'%s': status %d, expected %d", c[i].text, (int)st, (int)c[i].st);
    if (st == UNITS_OK && v != c[i].value)
      fail_msg("'%s': %llu, expected %llu", c[i].text, (unsigned long long)v, (unsigned long long)c[i].value);
  }
}

static void test_parse_bytes(void **state) {
  (void)state;
  static const parse_case cases[] = {
      {"24GB", UNITS_OK, 24000000000ull},
      {"80 GiB", UNITS_OK, 85899345920ull}, /* 80 x 2^30 */
      {"141e9", UNITS_OK, 141000000000ull},
      {"1.5 TiB", UNITS_OK, 1649267441664ull}, /* 1.5 x 2^40 */
      {"512", UNITS_OK, 512},
      {"512 B", UNITS_OK, 512},
      {"  16 gib  ", UNITS_OK, 17179869184ull}, /* caseless, trimmed */
      {"1.1 GB", UNITS_OK, 1100000000ull},      /* 1.1 x 1e9 is not exact in binary */
      {"0", UNITS_OK, 0},
      {"2 KiB", UNITS_OK, 2048},
      {"3 kB", UNITS_OK, 3000},
      {"", UNITS_EMPTY, 0},
      {"   ", UNITS_EMPTY, 0},
      {"abc", UNITS_SYNTAX, 0},
      {"nan", UNITS_SYNTAX, 0},
      {"inf", UNITS_SYNTAX, 0},
      {"GB", UNITS_SYNTAX, 0},
      {"12 XB", UNITS_UNIT, 0},
      {"12 GBs", UNITS_UNIT, 0},
      {"7 Gi", UNITS_UNIT, 0},
      {"-5GB", UNITS_NEGATIVE, 0},
      {"1e30 GB", UNITS_RANGE, 0},
      {"18446744073709551616", UNITS_RANGE, 0}, /* 2^64 */
      {"0.5 B", UNITS_FRACTION, 0},             /* half a byte */
      {"1.5", UNITS_FRACTION, 0},
      /* a printed figure with a unit means the nearest byte: 79.19 x 2^30 = 85029615042.56 */
      {"79.19GiB", UNITS_OK, 85029615043ull},
      {"0.3 kB", UNITS_OK, 300},
  };
  check_cases(cases, sizeof cases / sizeof cases[0], units_parse_bytes);
  uint64_t v;
  assert_int_equal(units_parse_bytes(NULL, &v), UNITS_EMPTY);
}

static void test_parse_count(void **state) {
  (void)state;
  static const parse_case cases[] = {
      {"7B", UNITS_OK, 7000000000ull},
      {"70b", UNITS_OK, 70000000000ull},
      {"1.5M", UNITS_OK, 1500000},
      {"8030261248", UNITS_OK, 8030261248ull},
      {"405B", UNITS_OK, 405000000000ull},
      {"1.5T", UNITS_OK, 1500000000000ull},
      {"4k", UNITS_OK, 4000},
      {"7 GB", UNITS_UNIT, 0}, /* a count takes no byte unit */
      {"7 KiB", UNITS_UNIT, 0},
      {"", UNITS_EMPTY, 0},
      {"-1", UNITS_NEGATIVE, 0},
      {"0.5", UNITS_FRACTION, 0},
      {"x7B", UNITS_SYNTAX, 0},
      {"1e20 T", UNITS_RANGE, 0},
  };
  check_cases(cases, sizeof cases / sizeof cases[0], units_parse_count);
}

/* Integers are exact up to 2^64 - 1: UNITS_RANGE is only for values above it, and a
** figure above 2^53 must not come back rounded to the nearest double. */
static void test_parse_large_integers_exact(void **state) {
  (void)state;
  uint64_t v = 0;
  assert_int_equal(units_parse_count("9007199254740993", &v), UNITS_OK); /* 2^53 + 1 */
  assert_int_equal(v, 9007199254740993ull);
  assert_int_equal(units_parse_bytes("18446744073709551615", &v), UNITS_OK); /* 2^64 - 1 */
  assert_int_equal(v, UINT64_MAX);
}

static void test_messages(void **state) {
  (void)state;
  assert_string_equal(units_message(UNITS_OK), "ok");
  assert_string_equal(units_message(UNITS_EMPTY), "empty value");
  assert_string_equal(units_message(UNITS_SYNTAX), "expected a number with an optional unit");
  assert_string_equal(units_message(UNITS_UNIT), "unknown unit");
  assert_string_equal(units_message(UNITS_NEGATIVE), "value must not be negative");
  assert_string_equal(units_message(UNITS_RANGE), "value out of range");
  assert_string_equal(units_message(UNITS_FRACTION), "value must be a whole number");
}

/* One formatter call and the text it must write. */
typedef struct fmt_case {
  void (*fn)(uint64_t, char *, size_t);
  uint64_t v;
  const char *want;
} fmt_case;

static void check_formats(const fmt_case *c, size_t n) {
  char buf[32];
  for (size_t i = 0; i < n; i++) {
    c[i].fn(c[i].v, buf, sizeof buf);
    assert_string_equal(buf, c[i].want);
  }
}

static void test_format_iec_si(void **state) {
  (void)state;
  static const fmt_case cases[] = {
      /* Llama-3.1-8B in bf16: 16060522496 / 2^30 = 14.957..., / 1e9 = 16.0605... */
      {units_format_iec, 16060522496ull, "14.96 GiB"},
      {units_format_si, 16060522496ull, "16.06 GB"},
      {units_format_iec, 512, "512 B"},
      {units_format_si, 512, "512 B"},
      {units_format_iec, 0, "0 B"},
      {units_format_iec, 1023, "1023 B"},
      {units_format_iec, 1024, "1.00 KiB"},
      {units_format_si, 999, "999 B"},
      {units_format_si, 1000, "1.00 kB"},
      {units_format_iec, 500ull << 20, "500.00 MiB"}, /* the assumed CUDA context */
      {units_format_iec, 1536ull << 30, "1.50 TiB"},
      {units_format_si, 141000000000ull, "141.00 GB"},
      {units_format_iec, UINT64_MAX, "16384.00 PiB"}, /* 2^64 - 1 = 16 EiB: PiB is the largest unit */
  };
  check_formats(cases, sizeof cases / sizeof *cases);
  /* truncated to the buffer, still terminated */
  char small[6];
  units_format_iec(16060522496ull, small, sizeof small);
  assert_string_equal(small, "14.96");
}

static void test_gib_gb(void **state) {
  (void)state;
  assert_true(units_gib(85899345920ull) == 80.0);
  assert_true(units_gb(24000000000ull) == 24.0);
  assert_true(units_gib(0) == 0.0);
}

static void test_format_grouped(void **state) {
  (void)state;
  static const fmt_case cases[] = {
      {units_format_grouped, 8030261248ull, "8,030,261,248"},
      {units_format_grouped, 0, "0"},
      {units_format_grouped, 999, "999"},
      {units_format_grouped, 1000, "1,000"},
      {units_format_grouped, 100000, "100,000"},
      {units_format_grouped, 1000000, "1,000,000"},
      {units_format_grouped, UINT64_MAX, "18,446,744,073,709,551,615"},
  };
  check_formats(cases, sizeof cases / sizeof *cases);
  /* a short buffer keeps whole leading groups and stays terminated */
  char small[6];
  units_format_grouped(8030261248ull, small, sizeof small);
  assert_string_equal(small, "8,030");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_bytes),
      cmocka_unit_test(test_parse_count),
      cmocka_unit_test(test_parse_large_integers_exact),
      cmocka_unit_test(test_messages),
      cmocka_unit_test(test_format_iec_si),
      cmocka_unit_test(test_gib_gb),
      cmocka_unit_test(test_format_grouped),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
