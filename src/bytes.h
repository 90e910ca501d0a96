/*
** bytes.h: checked 64-bit byte arithmetic.
** Every add and multiply of byte counts goes through these; an overflow sets the
** sticky flag of a bytes_ctx (or returns false) instead of wrapping or saturating.
*/
#ifndef VF_BYTES_H
#define VF_BYTES_H

#include <stdbool.h>
#include <stdint.h>

#define MIB (1024ull * 1024ull)
#define GIB (1024.0 * 1024.0 * 1024.0) /* a double: for printing and fractional figures */

/* Returns false on overflow; *out is then left unspecified. */
bool bytes_add(uint64_t a, uint64_t b, uint64_t *out);
bool bytes_mul(uint64_t a, uint64_t b, uint64_t *out);
/* a * num / den without intermediate overflow where the result fits; den > 0. */
bool bytes_muldiv(uint64_t a, uint64_t num, uint64_t den, uint64_t *out);
/* Round a up to a multiple of align (align > 0). */
bool bytes_align(uint64_t a, uint64_t align, uint64_t *out);
/* ceil(a / b), b > 0 */
uint64_t bytes_ceildiv(uint64_t a, uint64_t b);

/* A running computation: once any step overflows, `overflow` stays set and the
** value is meaningless; callers check it once at the end. */
typedef struct bytes_acc {
  uint64_t value;
  bool overflow;
} bytes_acc;

uint64_t acc_add(bytes_acc *acc, uint64_t a, uint64_t b);
uint64_t acc_mul(bytes_acc *acc, uint64_t a, uint64_t b);
uint64_t acc_mul3(bytes_acc *acc, uint64_t a, uint64_t b, uint64_t c);
/* value from a double that must be finite, >= 0 and below 2^64; rounds to nearest */
uint64_t acc_from_double(bytes_acc *acc, double v);

#endif
