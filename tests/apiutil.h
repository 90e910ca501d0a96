/*
** apiutil.h: helpers for the cmocka tests that drive the public API: an engine with small
** limits, evaluation of an inline scenario, JSON field lookup by dotted path.
*/
#ifndef VF_APIUTIL_H
#define VF_APIUTIL_H

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vramfit.h"

/* An engine for tests; small limits keep hostile-script tests fast. */
static inline vf_engine *tu_engine(uint64_t instructions, size_t memory) {
  vf_options opt;
  vf_options_init(&opt);
  opt.data_dir = "/nonexistent";
  opt.instruction_limit = instructions;
  opt.memory_limit = memory;
  vf_engine *e = NULL;
  return vf_engine_new(&opt, &e) == VF_OK ? e : NULL;
}

/* Evaluates scenario text; returns the status, *json the parsed report (or NULL). */
static inline vf_status tu_eval(vf_engine *e, const char *text, json_t **json) {
  vf_request req = {NULL, 0, NULL, 0, VF_FORMAT_JSON, 0};
  const char *out = NULL;
  vf_status st = vf_estimate_string(e, text, strlen(text), "t.lua", &req, &out);
  if (json) *json = st == VF_OK ? json_loads(out, 0, NULL) : NULL;
  return st;
}

/* The integer at a dotted path ("devices.0.total_bytes"); -1 if absent. */
static inline long long tu_int(json_t *j, const char *path) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *tok = strtok(buf, "."); tok && j; tok = strtok(NULL, ".")) {
    if (json_is_array(j))
      j = json_array_get(j, (size_t)atoi(tok));
    else
      j = json_object_get(j, tok);
  }
  return json_is_integer(j) ? (long long)json_integer_value(j) : -1;
}

/* The first item of the named category of device 0 (of that component when component is
** not NULL); NULL if absent. */
static inline json_t *tu_category_item(json_t *j, const char *name, const char *component) {
  json_t *cats = json_object_get(json_array_get(json_object_get(j, "devices"), 0), "categories");
  size_t i;
  json_t *c;
  json_array_foreach(cats, i, c) {
    const char *comp = json_string_value(json_object_get(c, "component"));
    if (strcmp(json_string_value(json_object_get(c, "name")), name) == 0 &&
        (!component || (comp && strcmp(comp, component) == 0)))
      return c;
  }
  return NULL;
}

/* The bytes of the named category of device 0; -1 if absent. */
static inline long long tu_category(json_t *j, const char *name) {
  json_t *c = tu_category_item(j, name, NULL);
  return c ? (long long)json_integer_value(json_object_get(c, "bytes")) : -1;
}

/* The detail line of the named category of device 0 ("" when absent). */
static inline const char *tu_category_detail(json_t *j, const char *name) {
  json_t *c = tu_category_item(j, name, NULL);
  return c ? json_string_value(json_object_get(c, "detail")) : "";
}

/* Whether the report's assumptions hold `text` exactly. */
static inline int tu_assumed(json_t *j, const char *text) {
  json_t *a = json_object_get(j, "assumptions");
  for (size_t i = 0; i < json_array_size(a); i++)
    if (strcmp(json_string_value(json_array_get(a, i)), text) == 0) return 1;
  return 0;
}

/* Whether one of the report's assumptions contains `needle`. */
static inline int tu_assumed_part(json_t *j, const char *needle) {
  json_t *a = json_object_get(j, "assumptions");
  for (size_t i = 0; i < json_array_size(a); i++)
    if (strstr(json_string_value(json_array_get(a, i)), needle)) return 1;
  return 0;
}

#ifdef cmocka_unit_test
/* cmocka group fixtures: one engine with the default limits in *state. */
static inline int tu_engine_setup(void **state) {
  *state = tu_engine(0, 0);
  return *state ? 0 : -1;
}

static inline int tu_engine_teardown(void **state) {
  vf_engine_free(*state);
  return 0;
}

/* Evaluates scenario text that must succeed: the parsed report, or the test fails with the
** engine's error. */
static inline json_t *tu_eval_ok(vf_engine *e, const char *text) {
  json_t *j = NULL;
  if (tu_eval(e, text, &j) != VF_OK) fail_msg("%s\n-> %s", text, vf_engine_error(e));
  return j;
}

/* Evaluates scenario text that must be refused: the test fails unless the engine's error
** contains needle (the field it names and what was expected). */
static inline void tu_eval_err(vf_engine *e, const char *text, const char *needle) {
  if (tu_eval(e, text, NULL) == VF_OK) fail_msg("accepted, expected an error with '%s':\n%s", needle, text);
  if (!strstr(vf_engine_error(e), needle)) fail_msg("error '%s' lacks '%s'", vf_engine_error(e), needle);
}

/* tu_eval_ok of a printf-formatted scenario (a test's template with its settings filled in). */
static inline json_t *tu_eval_okf(vf_engine *e, const char *fmt, ...) {
  char text[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof text) fail_msg("scenario template longer than %zu bytes", sizeof text);
  return tu_eval_ok(e, text);
}

/* A runtime figure (integer or real); NAN when absent. */
static inline double tu_runtime_fig(json_t *j, const char *name) {
  json_t *v = json_object_get(json_object_get(j, "runtime"), name);
  return json_is_number(v) ? json_number_value(v) : 0.0 / 0.0;
}

/* |predicted - expected| <= abs + rel x expected, as calibrate checks a runtime figure. */
static inline void tu_near_fig(json_t *j, const char *name, double expected, double rel, double abs) {
  double p = tu_runtime_fig(j, name);
  double d = p > expected ? p - expected : expected - p;
  if (!(d <= abs + rel * expected))
    fail_msg("%s: %.6g, expected %.6g (+-%.1f%%)", name, p, expected, rel * 100);
}

/* Printed figures of runtime logs, for the hold-out tests. */
#define TU_GIB 1073741824.0
#define TU_MIB 1048576.0

/* A runtime figure against a printed GiB: within rel, plus half the printed last digit. */
static inline void tu_gib(json_t *j, const char *name, double printed, double rel, double half_digit) {
  tu_near_fig(j, name, printed * TU_GIB, rel, half_digit * TU_GIB);
}

/* A documented miss: predicted / printed - 1 within half a point of the known error. */
static inline void tu_pinned(json_t *j, const char *name, double printed, double known) {
  double err = tu_runtime_fig(j, name) / printed - 1, d = err > known ? err - known : known - err;
  if (!(d <= 0.005))
    fail_msg("%s: %+.2f%% against %.6g, pinned at %+.2f%%", name, err * 100, printed, known * 100);
}

/* Bytes as llama.cpp prints a buffer: MiB with two decimals, exactly. */
static inline void tu_printed_mib_bytes(long long bytes, const char *printed, const char *what) {
  char got[32];
  snprintf(got, sizeof got, "%.2f", (double)bytes / TU_MIB);
  if (strcmp(got, printed) != 0)
    fail_msg("%s: %lld B prints as %s MiB, the log says %s", what, bytes, got, printed);
}

/* A report figure as llama.cpp prints the buffer (tu_printed_mib_bytes). */
static inline void tu_printed_mib(json_t *j, const char *fig, const char *printed, const char *what) {
  tu_printed_mib_bytes(tu_int(j, fig), printed, what);
}

/* A buffer within rel of the printed MiB (llama.cpp compute 10 %, host compute 25 %). */
static inline void tu_within_mib(json_t *j, const char *fig, double printed, double rel, const char *what) {
  double got = (double)tu_int(j, fig) / TU_MIB, d = got > printed ? got - printed : printed - got;
  if (d > rel * printed)
    fail_msg("%s: %.2f MiB, the log says %.2f (+-%.0f%%)", what, got, printed, rel * 100);
}

/* Bytes within tol of a published GiB figure. */
static inline void tu_within_gib(long long got, double expected_gib, double tol, const char *what) {
  double d = ((double)got / TU_GIB - expected_gib) / expected_gib;
  if (d < -tol || d > tol)
    fail_msg("%s: %.3f GiB, expected %.3f GiB +-%.0f%% (%+.2f%%)", what, (double)got / TU_GIB, expected_gib,
             tol * 100, d * 100);
}

/* got within want x (1 +- tol), exclusive. */
static inline void tu_assert_within(double got, double want, double tol) {
  if (!(got > want * (1 - tol) && got < want * (1 + tol)))
    fail_msg("%.0f not within %.1f%% of %.0f", got, tol * 100, want);
}
#endif

#endif
