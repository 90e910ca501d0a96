/*
** sbuf.h: a growable text buffer for reports. Out-of-memory is sticky: later
** appends do nothing and sbuf_take returns NULL.
*/
#ifndef VF_SBUF_H
#define VF_SBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sbuf {
  char *p;
  size_t len, cap;
  bool oom;
} sbuf;

void sbuf_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the text (caller frees) or NULL after an out-of-memory. */
char *sbuf_take(sbuf *b);

#endif
