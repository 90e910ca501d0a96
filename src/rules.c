/*
** rules.c: ordered PCRE2 rule sets with match limits (see rules.h).
** Uses libpcre2-8. One match context with limits is shared by the set; match data
** is made per call so that a const rule set can be matched from several threads.
*/
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rules.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits for one match: generous for names of a few hundred bytes, small enough that
** catastrophic backtracking on (a+)+b stops within milliseconds. */
#define RULES_MATCH_LIMIT 100000
#define RULES_DEPTH_LIMIT 1000

typedef struct rule {
  pcre2_code *code;
  int value;
} rule;

struct rules {
  rule *v;
  size_t n, cap;
  pcre2_match_context *mctx;
};

rules *rules_new(void) {
  rules *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->mctx = pcre2_match_context_create(NULL);
  if (!r->mctx) {
    free(r);
    return NULL;
  }
  pcre2_set_match_limit(r->mctx, RULES_MATCH_LIMIT);
  pcre2_set_depth_limit(r->mctx, RULES_DEPTH_LIMIT);
  return r;
}

void rules_free(rules *r) {
  if (!r) return;
  for (size_t i = 0; i < r->n; i++) pcre2_code_free(r->v[i].code);
  pcre2_match_context_free(r->mctx);
  free(r->v);
  free(r);
}

static bool rules_grow(rules *r) {
  if (r->n < r->cap) return true;
  size_t cap = r->cap ? r->cap * 2 : 16;
  rule *v = realloc(r->v, cap * sizeof *v);
  if (!v) return false;
  r->v = v;
  r->cap = cap;
  return true;
}

bool rules_add(rules *r, const char *pattern, int value, int flags, char *err, size_t errlen) {
  uint32_t opts = PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C;
  if (flags & RULES_CASELESS) opts |= PCRE2_CASELESS;
  if (flags & RULES_ANCHORED) opts |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
  int code;
  PCRE2_SIZE offset;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, opts, &code, &offset, NULL);
  if (!re) {
    PCRE2_UCHAR msg[160];
    pcre2_get_error_message(code, msg, sizeof msg);
    snprintf(err, errlen, "pattern '%s': %s at offset %zu", pattern, (const char *)msg, (size_t)offset);
    return false;
  }
  if (!rules_grow(r)) {
    pcre2_code_free(re);
    snprintf(err, errlen, "out of memory");
    return false;
  }
  r->v[r->n].code = re;
  r->v[r->n].value = value;
  r->n++;
  return true;
}

/* 1 match, 0 no match, -1 error (message in err) */
static int match_one(const rules *r, const rule *ru, const char *subject, char *err, size_t errlen) {
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(ru->code, NULL);
  if (!md) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = pcre2_match(ru->code, (PCRE2_SPTR)subject, strlen(subject), 0, 0, md, r->mctx);
  pcre2_match_data_free(md);
  if (rc >= 0) return 1;
  if (rc == PCRE2_ERROR_NOMATCH) return 0;
  PCRE2_UCHAR msg[160];
  pcre2_get_error_message(rc, msg, sizeof msg);
  snprintf(err, errlen, "matching '%s': %s", subject, (const char *)msg);
  return -1;
}

int rules_match(const rules *r, const char *subject, int *value, size_t *index, char *err,
                size_t errlen) {
  return rules_match_from(r, 0, subject, value, index, err, errlen);
}

int rules_match_from(const rules *r, size_t from, const char *subject, int *value, size_t *index, char *err,
                     size_t errlen) {
  for (size_t i = from; i < r->n; i++) {
    int m = match_one(r, &r->v[i], subject, err, errlen);
    if (m < 0) return -1;
    if (m == 0) continue;
    if (value) *value = r->v[i].value;
    if (index) *index = i;
    return 1;
  }
  return 0;
}

int rules_match_at(const rules *r, size_t index, const char *subject, char *err, size_t errlen) {
  return index < r->n ? match_one(r, &r->v[index], subject, err, errlen) : 0;
}

size_t rules_count(const rules *r) {
  return r->n;
}
