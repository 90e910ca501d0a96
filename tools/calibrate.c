/*
** calibrate.c: every case of DIR/expect/<area>.jsonl through libvramfit, report vs measurement.
**   build/calibrate DIR [--area NAME] [--id SUBSTRING] [--verbose] [--json]   (docs/CALIBRATION.md)
** Accuracy is reported, not enforced: exit 0 once the run completes, 2 on bad usage or unreadable DIR.
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "vramfit.h"

#define REASON_MAX 100 /* bytes of an engine message or skip reason shown */
#define GIB 1073741824.0

typedef enum status { ST_PASS, ST_FAIL, ST_UNANSWERED, ST_SKIP, ST_COUNT } status;
static const char *const status_name[ST_COUNT] = {"PASS", "FAIL", "UNANSWERED", "SKIP"};

/* Areas run in this order; any other expect/NAME.jsonl follows, alphabetically. */
static const char *const known_areas[] = {"models", "inference", "training", "diffusion_video"};
#define N_KNOWN (sizeof known_areas / sizeof known_areas[0])

static const char usage_text[] =
    "usage: calibrate DIR [--area NAME] [--id SUBSTRING] [--corrections FILE] [--verbose] [--json]\n"
    "  DIR            a calibration directory (holds expect/*.jsonl and scenarios/)\n"
    "  --area NAME    only the cases of expect/NAME.jsonl, or whose \"area\" field is NAME\n"
    "  --id SUBSTR    only the cases whose id contains SUBSTR\n"
    "  --corrections FILE\n"
    "                 JSON Lines {id, set: [\"path=value\", ...], evidence}: after the cases as\n"
    "                 shipped, run those cases again with the settings their sources state\n"
    "  --verbose      byte figures also in bytes; list cases without checks\n"
    "  --json         one JSON object per check (JSON Lines) instead of the table\n";

typedef struct options {
  const char *dir, *area, *id, *corrections;
  int verbose, json;
} options;

typedef struct check {
  const char *metric, *unit, *bound;
  double expected, rel_tol, abs_tol;
} check;

/* One case as evaluated: the report (NULL when unanswered) and why not. */
typedef struct kase {
  const char *area, *case_area, *id;
  json_t *report;
  int fallback;
  const char **sets; /* the documented corrections applied (second pass), n_sets of them */
  size_t n_sets;
  char reason[REASON_MAX + 8];
} kase;

/* One printed row: a check of a case (c is NULL for a skipped case without checks). */
typedef struct row {
  const kase *k;
  const check *c;
  status st;
  int have_p;
  double p;
  const char *reason;
} row;

/* Per area and metric: the counts, and every answered |error| in percent (for the median). */
typedef struct group {
  char *area, *metric;
  size_t n[ST_COUNT];
  double *err;
  size_t n_err, cap_err;
} group;

typedef struct run {
  options opt;
  vf_engine *engine;
  group *g;
  size_t n_g, cap_g;
  size_t malformed, unreadable, matched, skipped_cases, empty_cases, fallbacks;
  json_t *corr;             /* id -> {set, evidence} from --corrections, or NULL */
  int second;               /* this run evaluates only the corrected cases, corrected */
  size_t shipped[ST_COUNT]; /* first run: the corrected cases' checks as shipped */
} run;

/* ------------------------------------------------------------------ small helpers */

static char *join3(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s%s%s", a, b, c);
  return s;
}

/* Copies at most REASON_MAX bytes of msg into dst, not cutting a UTF-8 sequence; "..." when cut. */
static void clip(char *dst, const char *msg) {
  size_t n = strlen(msg);
  if (n <= REASON_MAX) {
    memcpy(dst, msg, n + 1);
    return;
  }
  n = REASON_MAX;
  while (n > 0 && ((unsigned char)msg[n] & 0xC0) == 0x80) n--;
  memcpy(dst, msg, n);
  memcpy(dst + n, "...", 4);
}

static void set_reason(kase *k, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  clip(k->reason, buf);
}

static void malformed(run *r, const char *where, size_t line, const char *what) {
  fprintf(stderr, "calibrate: %s:%zu: %s (skipped)\n", where, line, what);
  r->malformed++;
}

/* (p - e) / e; e == 0 gives an error only when p is 0 too. */
static int rel_error(double p, double e, double *out) {
  if (e == 0 && p != 0) return 0;
  *out = e == 0 ? 0 : (p - e) / e;
  return 1;
}

/* ------------------------------------------------------------------ evaluating a scenario */

/* The engine's message, less the "<scenario path>: " it starts with (the row names the case). */
static void engine_reason(run *r, kase *k, const char *path, vf_status st) {
  const char *msg = vf_engine_error(r->engine);
  size_t n = strlen(path);
  if (!msg || !*msg) msg = vf_status_message(st);
  if (strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ') msg += n + 2;
  clip(k->reason, msg);
}

static int is_unknown_model(const char *msg) {
  return msg && (strstr(msg, "unknown model") || strstr(msg, "unknown architecture"));
}

/* Replaces the "model" of the scenario (or of every scenario of a list) by the fallback. */
static void replace_model(json_t *root, json_t *model) {
  size_t i;
  json_t *item;
  if (json_is_object(root)) json_object_set(root, "model", model);
  json_array_foreach(root, i, item) { /* no iteration unless root is an array */
    if (json_is_object(item)) json_object_set(item, "model", model);
  }
}

static vf_status estimate_fallback(run *r, kase *k, const char *path, json_t *model, const char **out) {
  vf_request req = {k->sets, k->n_sets, NULL, 0, VF_FORMAT_JSON, 0};
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je);
  if (!root) {
    set_reason(k, "cannot read the scenario for the fallback model: %s", je.text);
    return VF_EIO;
  }
  replace_model(root, model);
  char *text = json_dumps(root, JSON_COMPACT);
  json_decref(root);
  if (!text) {
    set_reason(k, "out of memory writing the fallback scenario");
    return VF_ENOMEM;
  }
  vf_status st = vf_estimate_string(r->engine, text, strlen(text), path, &req, out);
  free(text);
  return st;
}

/* Fills k->report with the parsed report, or k->reason with why there is none. */
static void evaluate(run *r, kase *k, const char *path, json_t *fallback) {
  vf_request req = {k->sets, k->n_sets, NULL, 0, VF_FORMAT_JSON, 0};
  const char *out = NULL;
  json_error_t je;
  vf_status st = vf_estimate_file(r->engine, path, &req, &out);
  if (st != VF_OK && is_unknown_model(vf_engine_error(r->engine)) && json_is_object(fallback)) {
    k->fallback = 1;
    r->fallbacks++;
    st = estimate_fallback(r, k, path, fallback, &out);
  }
  if (st != VF_OK) {
    if (!k->reason[0]) engine_reason(r, k, path, st);
    return;
  }
  k->report = json_loads(out, 0, &je);
  if (!k->report) set_reason(k, "the report is not JSON: %s", je.text);
}

/* ------------------------------------------------------------------ checks */

/* The value at a dotted path ("devices.0.total_bytes"); numeric parts index arrays. */
static json_t *lookup(json_t *node, const char *path) {
  char key[256];
  while (node && *path) {
    size_t n = strcspn(path, ".");
    if (n >= sizeof key) return NULL;
    memcpy(key, path, n);
    key[n] = '\0';
    path += n + (path[n] == '.');
    if (json_is_object(node)) {
      node = json_object_get(node, key);
      continue;
    }
    if (!json_is_array(node) || n == 0) return NULL;
    for (size_t i = 0; i < n; i++)
      if (!isdigit((unsigned char)key[i])) return NULL;
    node = json_array_get(node, strtoul(key, NULL, 10));
  }
  return node;
}

/* A tolerance: absent or null is 0; anything but a non-negative number is malformed. */
static int tolerance(json_t *v, double *out) {
  *out = 0;
  if (!v || json_is_null(v)) return 1;
  if (!json_is_number(v) || json_number_value(v) < 0) return 0;
  *out = json_number_value(v);
  return 1;
}

static int parse_check(json_t *j, check *c) {
  json_t *e = json_object_get(j, "expected");
  size_t n;
  c->metric = json_string_value(json_object_get(j, "metric"));
  c->unit = json_string_value(json_object_get(j, "unit"));
  c->bound = json_string_value(json_object_get(j, "bound"));
  if (!c->metric || !*c->metric || !json_is_number(e)) return 0;
  if (!tolerance(json_object_get(j, "rel_tol"), &c->rel_tol)) return 0;
  if (!tolerance(json_object_get(j, "abs_tol"), &c->abs_tol)) return 0;
  if (!c->bound) c->bound = "equal";
  if (strcmp(c->bound, "equal") && strcmp(c->bound, "at_most") && strcmp(c->bound, "at_least")) return 0;
  n = strlen(c->metric);
  if (!c->unit) c->unit = n >= 5 && strcmp(c->metric + n - 5, "bytes") == 0 ? "bytes" : "count";
  c->expected = json_number_value(e);
  return 1;
}

static status judge(const check *c, double p) {
  double e = c->expected;
  int ok;
  if (strcmp(c->bound, "at_most") == 0)
    ok = p <= e * (1 + c->rel_tol) + c->abs_tol;
  else if (strcmp(c->bound, "at_least") == 0)
    ok = p >= e * (1 - c->rel_tol) - c->abs_tol;
  else
    ok = fabs(p - e) <= c->abs_tol + c->rel_tol * fabs(e);
  return ok ? ST_PASS : ST_FAIL;
}

/* ------------------------------------------------------------------ tallies */

static group *group_of(run *r, const char *area, const char *metric) {
  for (size_t i = 0; i < r->n_g; i++)
    if (strcmp(r->g[i].area, area) == 0 && strcmp(r->g[i].metric, metric) == 0) return &r->g[i];
  if (r->n_g == r->cap_g) {
    size_t cap = r->cap_g ? 2 * r->cap_g : 16;
    group *g = realloc(r->g, cap * sizeof *g);
    if (!g) return NULL;
    r->g = g;
    r->cap_g = cap;
  }
  group *g = &r->g[r->n_g];
  memset(g, 0, sizeof *g);
  g->area = strdup(area);
  g->metric = strdup(metric);
  if (!g->area || !g->metric) {
    free(g->area);
    free(g->metric);
    return NULL;
  }
  r->n_g++;
  return g;
}

static void tally(run *r, const row *w) {
  group *g = group_of(r, w->k->area, w->c->metric);
  double err;
  if (!g) return;
  g->n[w->st]++;
  if (!w->have_p || !rel_error(w->p, w->c->expected, &err)) return;
  if (g->n_err == g->cap_err) {
    size_t cap = g->cap_err ? 2 * g->cap_err : 16;
    double *e = realloc(g->err, cap * sizeof *e);
    if (!e) return;
    g->err = e;
    g->cap_err = cap;
  }
  g->err[g->n_err++] = fabs(err) * 100;
}

/* ------------------------------------------------------------------ rows: text and JSON Lines */

static void fmt_value(char *b, size_t n, double v, const char *unit, int verbose) {
  if (strcmp(unit, "bytes") == 0 && verbose)
    snprintf(b, n, "%.2f GiB (%.0f)", v / GIB, v);
  else if (strcmp(unit, "bytes") == 0)
    snprintf(b, n, "%.2f GiB", v / GIB);
  else if (v == floor(v) && fabs(v) < 1e15)
    snprintf(b, n, "%.0f", v);
  else
    snprintf(b, n, "%.4g", v);
}

/* An absolute tolerance, signed: bytes in the largest binary unit that keeps it above 1. */
static void fmt_abs(char *b, size_t n, double v, const char *unit, char sign) {
  if (v <= 0)
    b[0] = '\0';
  else if (strcmp(unit, "bytes") != 0)
    snprintf(b, n, "%c%g", sign, v);
  else if (v >= GIB)
    snprintf(b, n, "%c%.2fGiB", sign, v / GIB);
  else if (v >= 1048576)
    snprintf(b, n, "%c%.1fMiB", sign, v / 1048576);
  else if (v >= 1024)
    snprintf(b, n, "%c%.1fKiB", sign, v / 1024);
  else
    snprintf(b, n, "%c%.0fB", sign, v);
}

/* "exact", "+-5%+5.1MiB" (equal), "<=exp+10%" (at_most), ">=exp-5%-0.10GiB" (at_least). */
static void fmt_tol(char *b, size_t n, const check *c) {
  char abs[48], rel[32] = "";
  int least = strcmp(c->bound, "at_least") == 0, most = strcmp(c->bound, "at_most") == 0;
  fmt_abs(abs, sizeof abs, c->abs_tol, c->unit, least ? '-' : '+');
  if (c->rel_tol > 0) snprintf(rel, sizeof rel, "%c%g%%", least ? '-' : '+', c->rel_tol * 100);
  if (least || most)
    snprintf(b, n, "%s%s%s", least ? ">=exp" : "<=exp", rel, abs);
  else if (c->rel_tol == 0 && c->abs_tol == 0)
    snprintf(b, n, "exact");
  else if (c->rel_tol == 0)
    snprintf(b, n, "+-%s", abs + 1);
  else
    snprintf(b, n, "+-%g%%%s", c->rel_tol * 100, abs);
}

static void emit_text(run *r, const row *w) {
  char p[64] = "-", e[64], err[32] = "-", tol[64];
  const check *c = w->c;
  double x;
  int vw = r->opt.verbose ? 26 : 12;
  fmt_value(e, sizeof e, c->expected, c->unit, r->opt.verbose);
  if (w->have_p) {
    fmt_value(p, sizeof p, w->p, c->unit, r->opt.verbose);
    if (rel_error(w->p, c->expected, &x)) snprintf(err, sizeof err, "%+.2f%%", x * 100);
  }
  fmt_tol(tol, sizeof tol, c);
  printf("%-10s %-15s %-46s %-34s %*s %*s %9s  ", status_name[w->st], w->k->area, w->k->id, c->metric, vw, p,
         vw, e, err);
  if (!w->k->fallback && !w->reason && !w->k->n_sets) {
    printf("%s\n", tol);
    return;
  }
  printf("%-18s  %s%s%s", tol, w->k->fallback ? "fallback model" : "", w->k->fallback && w->reason ? ": " : "",
         w->reason ? w->reason : "");
  for (size_t i = 0; i < w->k->n_sets; i++)
    printf("%s%s", i ? " " : (w->k->fallback || w->reason) ? "; corrected: " : "corrected: ", w->k->sets[i]);
  putchar('\n');
}

static json_t *jnum(double v) {
  return v == floor(v) && fabs(v) < 9e15 ? json_integer((json_int_t)v) : json_real(v);
}

static json_t *jstr(const char *s) {
  json_t *v = s ? json_string(s) : NULL;
  return v ? v : json_null();
}

static void emit_json(const row *w) {
  json_t *o = json_object();
  double x;
  const check *c = w->c;
  json_object_set_new(o, "status", json_string(status_name[w->st]));
  json_object_set_new(o, "area", jstr(w->k->area));
  json_object_set_new(o, "case_area", jstr(w->k->case_area));
  json_object_set_new(o, "id", jstr(w->k->id));
  json_object_set_new(o, "metric", jstr(c ? c->metric : NULL));
  json_object_set_new(o, "unit", jstr(c ? c->unit : NULL));
  json_object_set_new(o, "bound", jstr(c ? c->bound : NULL));
  json_object_set_new(o, "predicted", w->have_p ? jnum(w->p) : json_null());
  json_object_set_new(o, "expected", c ? jnum(c->expected) : json_null());
  json_object_set_new(o, "error_pct",
                      c && w->have_p && rel_error(w->p, c->expected, &x) ? json_real(x * 100) : json_null());
  json_object_set_new(o, "rel_tol", c ? jnum(c->rel_tol) : json_null());
  json_object_set_new(o, "abs_tol", c ? jnum(c->abs_tol) : json_null());
  json_object_set_new(o, "fallback_model", json_boolean(w->k->fallback));
  json_t *sets = json_array();
  for (size_t i = 0; sets && i < w->k->n_sets; i++) json_array_append_new(sets, json_string(w->k->sets[i]));
  json_object_set_new(o, "corrected", sets ? sets : json_null());
  json_object_set_new(o, "reason", jstr(w->reason));
  char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(12));
  if (s) puts(s);
  free(s);
  json_decref(o);
}

static void emit(run *r, const row *w) {
  if (w->c) tally(r, w);
  if (w->c && !r->second && r->corr && json_object_get(r->corr, w->k->id)) r->shipped[w->st]++;
  if (r->opt.json)
    emit_json(w);
  else if (w->c)
    emit_text(r, w);
}

/* ------------------------------------------------------------------ cases */

static void run_checks(run *r, const kase *k, json_t *checks, const char *where, size_t line) {
  size_t i;
  json_t *j;
  json_array_foreach(checks, i, j) {
    check c;
    row w = {k, &c, ST_UNANSWERED, 0, 0, k->report ? NULL : k->reason};
    if (!json_is_object(j) || !parse_check(j, &c)) {
      char what[160];
      snprintf(what, sizeof what,
               "%s: checks[%zu] needs metric, numeric expected, tolerances >= 0, a known bound", k->id, i);
      malformed(r, where, line, what);
      continue;
    }
    if (k->report) {
      json_t *v = lookup(k->report, c.metric);
      w.have_p = json_is_number(v);
      w.p = w.have_p ? json_number_value(v) : 0;
      w.st = w.have_p ? judge(&c, w.p) : ST_UNANSWERED;
      if (!w.have_p)
        w.reason =
            v && !json_is_null(v) ? "metric not a number in the report" : "metric absent from the report";
    }
    emit(r, &w);
  }
}

/* A skipped case: one text line with its reason, or one JSON line per check. */
static void skip_case(run *r, kase *k, json_t *checks, json_t *skip) {
  size_t i, n = json_array_size(checks);
  json_t *j;
  r->skipped_cases++;
  set_reason(k, "%s", json_is_string(skip) ? json_string_value(skip) : "skipped (no reason given)");
  json_array_foreach(checks, i, j) {
    check c;
    row w = {k, &c, ST_SKIP, 0, 0, k->reason};
    if (!json_is_object(j) || !parse_check(j, &c)) continue;
    if (r->opt.json)
      emit(r, &w);
    else
      tally(r, &w);
  }
  if (r->opt.json && n == 0) {
    row w = {k, NULL, ST_SKIP, 0, 0, k->reason};
    emit_json(&w);
  }
  if (!r->opt.json)
    printf("%-10s %-15s %-46s (%zu check%s)  %s\n", "SKIP", k->area, k->id, n, n == 1 ? "" : "s", k->reason);
}

static int selected(const run *r, const kase *k) {
  if (r->opt.id && !strstr(k->id, r->opt.id)) return 0;
  if (!r->opt.area || strcmp(r->opt.area, k->area) == 0) return 1;
  return k->case_area && strcmp(r->opt.area, k->case_area) == 0;
}

static void run_case(run *r, kase *k, json_t *j, const char *where, size_t line) {
  const char *scenario = json_string_value(json_object_get(j, "scenario"));
  json_t *checks = json_object_get(j, "checks"), *skip = json_object_get(j, "skip");
  if (!k->id || !scenario || !json_is_array(checks)) {
    malformed(r, where, line, "a case needs a string id, a string scenario and a checks array");
    return;
  }
  if (!selected(r, k)) return;
  json_t *fix = r->second ? json_object_get(r->corr, k->id) : NULL;
  if (r->second && !fix) return;
  const char *sets[16];
  json_t *set = fix ? json_object_get(fix, "set") : NULL, *v;
  size_t i;
  json_array_foreach(set, i, v) { /* no iteration without a correction; at most 16, checked on load */
    sets[i] = json_string_value(v);
  }
  k->sets = set ? sets : NULL;
  k->n_sets = json_array_size(set);
  r->matched++;
  if (skip && !json_is_null(skip)) {
    skip_case(r, k, checks, skip);
    return;
  }
  if (json_array_size(checks) == 0) {
    r->empty_cases++;
    if (r->opt.verbose && !r->opt.json) printf("%-10s %-15s %-46s (no checks)\n", "-", k->area, k->id);
    return;
  }
  char *path = scenario[0] == '/' ? strdup(scenario) : join3(r->opt.dir, "/", scenario);
  if (path)
    evaluate(r, k, path, json_object_get(j, "fallback_model"));
  else
    set_reason(k, "out of memory");
  free(path);
  run_checks(r, k, checks, where, line);
  json_decref(k->report);
}

static void run_line(run *r, const char *area, const char *where, size_t line, const char *text) {
  json_error_t je;
  json_t *j;
  kase k;
  if (text[strspn(text, " \t\r\n")] == '\0') return;
  j = json_loads(text, 0, &je);
  if (!json_is_object(j)) {
    malformed(r, where, line, j ? "not a JSON object" : je.text);
    json_decref(j);
    return;
  }
  memset(&k, 0, sizeof k);
  k.area = area;
  k.case_area = json_string_value(json_object_get(j, "area"));
  k.id = json_string_value(json_object_get(j, "id"));
  run_case(r, &k, j, where, line);
  json_decref(j);
}

static void run_file(run *r, const char *area) {
  char *where = join3("expect/", area, ".jsonl"), *path = where ? join3(r->opt.dir, "/", where) : NULL;
  FILE *f = path ? fopen(path, "r") : NULL;
  char *line = NULL;
  size_t cap = 0, n = 0;
  if (!f) {
    fprintf(stderr, "calibrate: %s: %s\n", path ? path : area, path ? strerror(errno) : "out of memory");
    r->unreadable++;
  }
  while (f && getline(&line, &cap, f) != -1) run_line(r, area, where, ++n, line);
  if (f) fclose(f);
  free(line);
  free(where);
  free(path);
}

/* ------------------------------------------------------------------ summary */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int cmp_metric(const void *a, const void *b) {
  return strcmp(((const group *)a)->metric, ((const group *)b)->metric);
}

/* One summary line over groups g[0..n): counts, and median and max |error| over answered checks. */
static void summary_line(const char *area, const char *metric, const group *g, size_t n) {
  size_t c[ST_COUNT] = {0}, m = 0, total = 0;
  char med[32] = "-", max[32] = "-";
  for (size_t i = 0; i < n; i++) {
    for (int s = 0; s < ST_COUNT; s++) c[s] += g[i].n[s];
    m += g[i].n_err;
  }
  for (int s = 0; s < ST_COUNT; s++) total += c[s];
  double *e = m ? malloc(m * sizeof *e) : NULL;
  if (e) {
    for (size_t i = 0, k = 0; i < n; k += g[i].n_err, i++) memcpy(e + k, g[i].err, g[i].n_err * sizeof *e);
    qsort(e, m, sizeof *e, cmp_double);
    snprintf(med, sizeof med, "%.2f%%", m % 2 ? e[m / 2] : (e[m / 2 - 1] + e[m / 2]) / 2);
    snprintf(max, sizeof max, "%.2f%%", e[m - 1]);
  }
  free(e);
  printf("%-15s %-34s %6zu %6zu %6zu %10zu %7zu %11s %11s\n", area, metric, total, c[ST_PASS], c[ST_FAIL],
         c[ST_UNANSWERED], c[ST_SKIP], med, max);
}

static void summary(run *r) {
  size_t i = 0, j;
  printf("\nsummary (|error| over answered checks)\n");
  printf("%-15s %-34s %6s %6s %6s %10s %7s %11s %11s\n", "area", "metric", "checks", "passed", "failed",
         "unanswered", "skipped", "median|err|", "max|err|");
  while (i < r->n_g) {
    j = i + 1;
    while (j < r->n_g && strcmp(r->g[j].area, r->g[i].area) == 0) j++;
    qsort(r->g + i, j - i, sizeof *r->g, cmp_metric);
    for (size_t k = i; k < j; k++) summary_line(r->g[k].area, r->g[k].metric, r->g + k, 1);
    if (j - i > 1) summary_line(r->g[i].area, "(all)", r->g + i, j - i);
    i = j;
  }
  summary_line("(all)", "(all)", r->g, r->n_g);
}

static void counts(const run *r, size_t c[ST_COUNT]) {
  memset(c, 0, ST_COUNT * sizeof *c);
  for (size_t i = 0; i < r->n_g; i++)
    for (int s = 0; s < ST_COUNT; s++) c[s] += r->g[i].n[s];
}

/* The corrected cases again (r2): their rows, then their checks' counts beside the same
** checks as shipped (r), and the whole run's counts with them corrected. */
static void corrected_totals(const run *r, const run *r2) {
  size_t c[ST_COUNT], all[ST_COUNT];
  FILE *f = r->opt.json ? stderr : stdout;
  counts(r2, c);
  counts(r, all);
  for (int s = 0; s < ST_COUNT; s++) all[s] = all[s] - r->shipped[s] + c[s];
  fprintf(f, "\ncalibrate: %zu corrected cases, %zu checks: %zu passed, %zu failed, %zu unanswered (as shipped: %zu "
          "passed, %zu failed, %zu unanswered)\n", r2->matched, c[ST_PASS] + c[ST_FAIL] + c[ST_UNANSWERED],
          c[ST_PASS], c[ST_FAIL], c[ST_UNANSWERED], r->shipped[ST_PASS], r->shipped[ST_FAIL], r->shipped[ST_UNANSWERED]);
  fprintf(f, "calibrate: with the documented corrections %zu passed, %zu failed, %zu unanswered\n", all[ST_PASS],
          all[ST_FAIL], all[ST_UNANSWERED]);
}

static void totals(run *r) {
  size_t c[ST_COUNT];
  counts(r, c);
  FILE *f = r->opt.json ? stderr : stdout;
  if (r->matched == 0) fprintf(stderr, "calibrate: no case matches the filters\n");
  fprintf(f,
          "\ncalibrate: %zu cases, %zu skipped (%zu checks), %zu without checks, %zu retried with the "
          "fallback model",
          r->matched, r->skipped_cases, c[ST_SKIP], r->empty_cases, r->fallbacks);
  fprintf(f, "; %zu malformed entries, %zu unreadable files\n", r->malformed, r->unreadable);
  fprintf(f, "calibrate: %zu passed, %zu failed, %zu unanswered\n", c[ST_PASS], c[ST_FAIL], c[ST_UNANSWERED]);
}

/* ------------------------------------------------------------------ areas, arguments, main */

static size_t area_rank(const char *a) {
  size_t i = 0;
  while (i < N_KNOWN && strcmp(known_areas[i], a) != 0) i++;
  return i;
}

static int cmp_area(const void *a, const void *b) {
  const char *x = *(char *const *)a, *y = *(char *const *)b;
  size_t rx = area_rank(x), ry = area_rank(y);
  return rx != ry ? (rx > ry) - (rx < ry) : strcmp(x, y);
}

/* The NAME of every DIR/expect/NAME.jsonl, in run order; -1 when DIR/expect cannot be read. */
static int list_areas(const char *dir, char ***out, size_t *n) {
  char *path = join3(dir, "/", "expect");
  DIR *d = path ? opendir(path) : NULL;
  struct dirent *e;
  size_t cap = 0;
  *out = NULL;
  *n = 0;
  if (!d) fprintf(stderr, "calibrate: %s: %s\n", path ? path : dir, path ? strerror(errno) : "out of memory");
  while (d && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (e->d_name[0] == '.' || len <= 6 || strcmp(e->d_name + len - 6, ".jsonl") != 0) continue;
    if (*n == cap) {
      char **grown = realloc(*out, (cap = cap ? 2 * cap : 8) * sizeof *grown);
      if (!grown) break;
      *out = grown;
    }
    if (((*out)[*n] = strndup(e->d_name, len - 6)) != NULL) (*n)++;
  }
  if (d) closedir(d);
  free(path);
  if (*n) qsort(*out, *n, sizeof **out, cmp_area);
  return d ? 0 : -1;
}

static int usage_error(const char *fmt, const char *arg) {
  fputs("calibrate: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  fputs(usage_text, stderr);
  return 2;
}

/* 0: run; 1: --help done; 2: bad usage. */
static int parse_args(int argc, char **argv, options *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = strcmp(a, "--area") == 0           ? &o->area
                        : strcmp(a, "--id") == 0          ? &o->id
                        : strcmp(a, "--corrections") == 0 ? &o->corrections
                                                          : NULL;
    if (slot && i + 1 >= argc) return usage_error("%s needs a value", a);
    if (slot)
      *slot = argv[++i];
    else if (strncmp(a, "--area=", 7) == 0)
      o->area = a + 7;
    else if (strncmp(a, "--id=", 5) == 0)
      o->id = a + 5;
    else if (strncmp(a, "--corrections=", 14) == 0)
      o->corrections = a + 14;
    else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0)
      o->verbose = 1;
    else if (strcmp(a, "--json") == 0)
      o->json = 1;
    else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
      return fputs(usage_text, stdout), 1;
    else if (a[0] == '-' && a[1] != '\0')
      return usage_error("unknown option '%s'", a);
    else if (o->dir)
      return usage_error("unexpected argument '%s' (one DIR only)", a);
    else
      o->dir = a;
  }
  return o->dir ? 0 : usage_error("%s", "missing DIR");
}

/* --corrections FILE: one JSON object a line, {"id": "...", "set": ["path=value", ...],
** "evidence": "..."}; any other line is a usage error (exit 2) naming FILE:LINE. */
#define MAX_SETS 16
static json_t *load_corrections(const char *path) {
  FILE *f = fopen(path, "r");
  json_t *all = json_object();
  char *line = NULL;
  size_t cap = 0, n = 0;
  if (!f) {
    fprintf(stderr, "calibrate: %s: %s\n", path, strerror(errno));
    json_decref(all);
    return NULL;
  }
  while (all && getline(&line, &cap, f) != -1) {
    json_error_t je;
    n++;
    if (line[strspn(line, " \t\r\n")] == '\0') continue;
    json_t *j = json_loads(line, 0, &je), *set = json_object_get(j, "set"), *v;
    const char *id = json_string_value(json_object_get(j, "id"));
    const char *ev = json_string_value(json_object_get(j, "evidence"));
    size_t i, nset = json_array_size(set);
    int ok = id && ev && *ev && json_is_array(set) && nset > 0 && nset <= MAX_SETS;
    json_array_foreach(set, i, v) ok = ok && json_is_string(v) && strchr(json_string_value(v), '=');
    if (!ok || json_object_get(all, id)) {
      fprintf(stderr, "calibrate: %s:%zu: %s\n", path, n,
              !j ? je.text
              : ok ? "a second correction for the same id"
                   : "expected {\"id\": string, \"set\": [1 to 16 \"path=value\" strings], \"evidence\": string}");
      json_decref(j);
      json_decref(all);
      all = NULL;
      break;
    }
    json_object_set_new(all, id, j);
  }
  free(line);
  fclose(f);
  return all;
}

static void run_areas(run *r, char **areas, size_t n) {
  int only = 0;
  for (size_t i = 0; r->opt.area && i < n; i++) only |= strcmp(areas[i], r->opt.area) == 0;
  if (!r->opt.json)
    printf("%-10s %-15s %-46s %-34s %*s %*s %9s  %-18s  %s\n", "status", "area", "case", "metric",
           r->opt.verbose ? 26 : 12, "predicted", r->opt.verbose ? 26 : 12, "expected", "error", "tolerance",
           "note");
  for (size_t i = 0; i < n; i++)
    if (!only || strcmp(areas[i], r->opt.area) == 0) run_file(r, areas[i]);
}

int main(int argc, char **argv) {
  run r;
  char **areas;
  size_t n;
  vf_options vo;
  vf_status st;
  memset(&r, 0, sizeof r);
  int rc = parse_args(argc, argv, &r.opt);
  if (rc) return rc == 1 ? 0 : 2;
  rc = list_areas(r.opt.dir, &areas, &n);
  if (rc == 0 && n == 0) fprintf(stderr, "calibrate: %s: no expect/*.jsonl to run\n", r.opt.dir);
  if (rc != 0 || n == 0) {
    for (size_t i = 0; i < n; i++) free(areas[i]);
    free(areas);
    return 2;
  }
  vf_options_init(&vo);
  if ((st = vf_engine_new(&vo, &r.engine)) != VF_OK) {
    fprintf(stderr, "calibrate: cannot start the engine: %s\n", vf_status_message(st));
    rc = 2;
  } else if (r.opt.corrections && !(r.corr = load_corrections(r.opt.corrections))) {
    rc = 2;
  } else {
    run_areas(&r, areas, n);
    if (!r.opt.json) summary(&r);
    if (r.corr) {
      run r2;
      memset(&r2, 0, sizeof r2);
      r2.opt = r.opt;
      r2.engine = r.engine;
      r2.corr = r.corr;
      r2.second = 1;
      if (!r.opt.json)
        printf("\ncases whose scenario omits a setting its source states, run with it (%s):\n",
               r.opt.corrections);
      run_areas(&r2, areas, n);
      corrected_totals(&r, &r2);
      for (size_t i = 0; i < r2.n_g; i++) free(r2.g[i].area), free(r2.g[i].metric), free(r2.g[i].err);
      free(r2.g);
    }
    totals(&r);
  }
  json_decref(r.corr);
  vf_engine_free(r.engine);
  for (size_t i = 0; i < n; i++) free(areas[i]);
  for (size_t i = 0; i < r.n_g; i++) free(r.g[i].area), free(r.g[i].metric), free(r.g[i].err);
  free(areas);
  free(r.g);
  return rc;
}
