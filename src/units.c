/*
** units.c: byte-size and count parsing and formatting (see units.h).
** Parsing is table-driven: one table of suffixes with their multipliers per kind.
*/
#include "units.h"

#include "bytes.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct unit_suffix {
  const char *name;
  double scale; /* every scale is a whole number, exact in a double */
} unit_suffix;

static const unit_suffix byte_suffixes[] = {
    {"", 1.0},
    {"b", 1.0},
    {"kb", 1e3},
    {"mb", 1e6},
    {"gb", 1e9},
    {"tb", 1e12},
    {"k", 1e3},
    {"m", 1e6},
    {"g", 1e9},
    {"t", 1e12},
    {"kib", 1024.0},
    {"mib", 1048576.0},
    {"gib", 1073741824.0},
    {"tib", 1099511627776.0},
    {NULL, 0},
};

static const unit_suffix count_suffixes[] = {
    {"", 1.0}, {"k", 1e3}, {"m", 1e6}, {"b", 1e9}, {"t", 1e12}, {NULL, 0},
};

static const char *const messages[] = {
    [UNITS_OK] = "ok",
    [UNITS_EMPTY] = "empty value",
    [UNITS_SYNTAX] = "expected a number with an optional unit",
    [UNITS_UNIT] = "unknown unit",
    [UNITS_NEGATIVE] = "value must not be negative",
    [UNITS_RANGE] = "value out of range",
    [UNITS_FRACTION] = "value must be a whole number",
};

const char *units_message(units_status st) {
  return messages[st];
}

static const unit_suffix *find_suffix(const unit_suffix *table, const char *s,
                                      size_t len) {
  for (; table->name; table++)
    if (strlen(table->name) == len && strncasecmp(table->name, s, len) == 0)
      return table;
  return NULL;
}

/* Splits "  80.5 GiB " into a number and a trimmed suffix and applies the table. */
static units_status parse_with(const unit_suffix *table, const char *text,
                               uint64_t *out) {
  if (!text) return UNITS_EMPTY;
  while (isspace((unsigned char)*text)) text++;
  if (*text == '\0') return UNITS_EMPTY;
  if (*text == '-') return UNITS_NEGATIVE;
  if (!isdigit((unsigned char)*text) && *text != '.') return UNITS_SYNTAX;
  if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return UNITS_SYNTAX; /* strtod takes hex */
  char *end = NULL;
  double v = strtod(text, &end);
  if (end == text) return UNITS_SYNTAX;
  const char *num_end = end;
  while (isspace((unsigned char)*end)) end++;
  size_t len = strlen(end);
  while (len > 0 && isspace((unsigned char)end[len - 1])) len--;
  const unit_suffix *u = find_suffix(table, end, len);
  if (!u) return UNITS_UNIT;
  if (strspn(text, "0123456789") == (size_t)(num_end - text)) {
    /* a plain integer: exact in 64 bits, no rounding through a double */
    errno = 0;
    unsigned long long iv = strtoull(text, NULL, 10);
    uint64_t out_v;
    if (errno == ERANGE || !bytes_mul(iv, (uint64_t)u->scale, &out_v)) return UNITS_RANGE;
    *out = out_v;
    return UNITS_OK;
  }
  double r = v * u->scale;
  if (!isfinite(r) || r >= 18446744073709551616.0) return UNITS_RANGE;
  /* a tolerance of one part in 1e12 absorbs decimal scaling, "1.1 GB" */
  double whole = floor(r + 0.5);
  /* "79.19GiB" is a printed figure, rounded to 2 decimals: the nearest byte is meant.
  ** A bare number or a count in bytes ("0.5", "1.5 B") must be whole. */
  if (u->scale == 1.0 && fabs(r - whole) > 1e-12 * (r > 1 ? r : 1)) return UNITS_FRACTION;
  if (whole >= 18446744073709551616.0) return UNITS_RANGE;
  *out = (uint64_t)whole;
  return UNITS_OK;
}

units_status units_parse_bytes(const char *text, uint64_t *out) {
  return parse_with(byte_suffixes, text, out);
}

units_status units_parse_count(const char *text, uint64_t *out) {
  return parse_with(count_suffixes, text, out);
}

static void format_scaled(uint64_t bytes, double base, const char *const *names,
                          char *buf, size_t size) {
  double v = (double)bytes;
  int i = 0;
  /* 999.995 and above prints as 1000.00 in this unit: move to the next one */
  while (v >= base - 0.005 && names[i + 1] && !(i == 0 && v < base)) {
    v /= base;
    i++;
  }
  if (i == 0)
    snprintf(buf, size, "%llu B", (unsigned long long)bytes);
  else
    snprintf(buf, size, "%.2f %s", v, names[i]);
}

void units_format_iec(uint64_t bytes, char *buf, size_t size) {
  static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", NULL};
  format_scaled(bytes, 1024.0, names, buf, size);
}

void units_format_si(uint64_t bytes, char *buf, size_t size) {
  static const char *const names[] = {"B", "kB", "MB", "GB", "TB", "PB", NULL};
  format_scaled(bytes, 1000.0, names, buf, size);
}

double units_gib(uint64_t bytes) {
  return (double)bytes / 1073741824.0;
}

double units_gb(uint64_t bytes) {
  return (double)bytes / 1e9;
}

void units_format_grouped(uint64_t value, char *buf, size_t size) {
  char digits[32];
  int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
  size_t o = 0;
  for (int i = 0; i < n && o + 1 < size; i++) {
    if (i > 0 && (n - i) % 3 == 0 && o + 2 < size) buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = '\0';
}
