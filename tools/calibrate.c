/*
** calibrate.c: runs every case of DIR/expect/<area>.jsonl through libvramfit and compares the report with the measured figures.
**   build/calibrate DIR [--area NAME] [--id SUBSTRING] [--verbose] [--json]   (docs/CALIBRATION.md)
** Accuracy is reported, not enforced: exit status 0 once the run completes, 2 on bad usage or an unreadable DIR.
*/
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "vramfit.h"

#define REASON_MAX 100 /* characters of an engine message or skip reason shown */
#define GIB 1073741824.0

typedef enum status { ST_PASS, ST_FAIL, ST_UNANSWERED, ST_SKIP, ST_COUNT } status;
static const char *const status_name[ST_COUNT] = {"PASS", "FAIL", "UNANSWERED", "SKIP"};

/* Areas in this order first, then any other expect/*.jsonl alphabetically. */
static const char *const known_areas[] = {"models", "inference", "training", "diffusion_video"};
#define N_KNOWN (sizeof known_areas / sizeof known_areas[0])

typedef struct options {
  const char *dir, *area, *id;
  int verbose, json;
} options;

typedef struct check {
  const char *metric, *unit, *bound;
  double expected, rel_tol, abs_tol;
} check;

/* One evaluated case: the report (NULL when unanswered) and why not. */
typedef struct kase {
  const char *area, *id;
  json_t *report;
  int fallback;
  char reason[REASON_MAX + 8];
} kase;

typedef struct row {
  const kase *k;
  const check *c; /* NULL: a skipped case without checks */
  status st;
  int have_p;
  double p;
  const char *reason;
} row;

/* Per area and metric: the counts, and every answered |error| for the median. */
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
  size_t malformed, matched, no_check_cases;
} run;

/* ------------------------------------------------------------------ small helpers */

static char *join(const char *a, const char *sep, const char *b) {
  size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s%s%s", a, sep, b);
  return s;
}

/* Copies at most REASON_MAX bytes of msg, not cutting a UTF-8 sequence, "..." when cut. */
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

/* The engine's message without the "<scenario path>: " it starts with. */
static void engine_reason(kase *k, const char *path, vf_status st, const char *prefix) {
  const char *msg = vf_engine_error(k->report ? NULL : NULL);
  (void)msg;
  (void)k;
  (void)path;
  (void)st;
  (void)prefix;
}

static int is_unknown_model(const char *msg) {
  return msg && (strstr(msg, "unknown model") || strstr(msg, "unknown architecture"));
}
