/*
** units.h: parsing and formatting of byte sizes and counts.
** SI (kB MB GB TB, powers of 1000) and IEC (KiB MiB GiB TiB, powers of 1024) are never
** mixed: "80GB" is 80e9 bytes, "80GiB" is 80*2^30. Counts take K M B T suffixes ("7B").
*/
#ifndef VF_UNITS_H
#define VF_UNITS_H

#include <stddef.h>
#include <stdint.h>

typedef enum units_status {
  UNITS_OK = 0,
  UNITS_EMPTY,     /* nothing to parse */
  UNITS_SYNTAX,    /* not a number followed by a known unit */
  UNITS_UNIT,      /* unknown unit suffix */
  UNITS_NEGATIVE,  /* negative value */
  UNITS_RANGE,     /* NaN, infinite, or above 2^64 - 1 */
  UNITS_FRACTION,  /* a count or byte figure that is not a whole number */
} units_status;

const char *units_message(units_status st);

/* "24GB", "80 GiB", "141e9", "1.5 TiB", "512" (bytes). */
units_status units_parse_bytes(const char *text, uint64_t *out);
/* "7B", "70b", "1.5M", "8030261248" */
units_status units_parse_count(const char *text, uint64_t *out);

/* "14.96 GiB" with two decimals, picking KiB/MiB/GiB/TiB by magnitude. */
void units_format_iec(uint64_t bytes, char *buf, size_t size);
/* "16.06 GB" likewise in powers of 1000. */
void units_format_si(uint64_t bytes, char *buf, size_t size);
/* Fixed unit with two decimals: GiB and GB, the table's columns. */
double units_gib(uint64_t bytes);
double units_gb(uint64_t bytes);
/* "8,030,261,248" */
void units_format_grouped(uint64_t value, char *buf, size_t size);

#endif
