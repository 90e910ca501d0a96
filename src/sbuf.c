/*
** sbuf.c: growable text buffer (see sbuf.h).
*/
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static bool sbuf_reserve(sbuf *b, size_t extra) {
  if (b->oom) return false;
  if (b->len + extra + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p) {
    b->oom = true;
    return false;
  }
  b->p = p;
  b->cap = cap;
  return true;
}

void sbuf_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !sbuf_reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

char *sbuf_take(sbuf *b) {
  if (!sbuf_reserve(b, 0)) {
    free(b->p);
    b->p = NULL;
    return NULL;
  }
  b->p[b->len] = '\0';
  char *p = b->p;
  b->p = NULL;
  b->len = b->cap = 0;
  return p;
}
