/*
** fuzz_units.c: libFuzzer target for the unit parser (units_parse_bytes and
** units_parse_count) and the formatters. A plain run of digits must parse to exactly
** its value; every parsed value must format without overflowing the buffers.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void format_all(uint64_t v) {
  char a[32], b[32], c[32], d[32];
  units_format_iec(v, a, sizeof a);
  units_format_si(v, b, sizeof b);
  units_format_grouped(v, c, sizeof c);
  snprintf(d, sizeof d, "%llu", (unsigned long long)v);
  /* grouping only inserts commas: removing them gives the decimal digits back */
  size_t o = 0;
  for (size_t i = 0; c[i]; i++)
    if (c[i] != ',') c[o++] = c[i];
  c[o] = '\0';
  if (strcmp(c, d) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  uint64_t v = 0;
  units_status sb = units_parse_bytes(text, &v);
  if (units_message(sb) == NULL) abort();
  if (sb == UNITS_OK) format_all(v);
  units_status sc = units_parse_count(text, &v);
  if (units_message(sc) == NULL) abort();
  if (sc == UNITS_OK) format_all(v);
  /* digits only: the exact integer, no rounding through a double */
  if (size > 0 && size < 20 && strspn(text, "0123456789") == size) {
    if (sb != UNITS_OK || v != strtoull(text, NULL, 10)) abort();
  }
  free(text);
  return 0;
}
