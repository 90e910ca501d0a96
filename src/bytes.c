/*
** bytes.c: checked 64-bit arithmetic for byte and element counts (see bytes.h).
** Uses the compiler's overflow builtins; no other dependency.
*/
#include "bytes.h"

#include <math.h>

bool bytes_add(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_add_overflow(a, b, out);
}

bool bytes_mul(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

bool bytes_muldiv(uint64_t a, uint64_t num, uint64_t den, uint64_t *out) {
  __extension__ typedef unsigned __int128 u128;
  u128 p = (u128)a * num / den;
  if (p > UINT64_MAX) return false;
  *out = (uint64_t)p;
  return true;
}

bool bytes_align(uint64_t a, uint64_t align, uint64_t *out) {
  uint64_t r = a % align;
  if (r == 0) {
    *out = a;
    return true;
  }
  return bytes_add(a, align - r, out);
}

uint64_t bytes_ceildiv(uint64_t a, uint64_t b) {
  return a / b + (a % b != 0);
}

uint64_t acc_add(bytes_acc *acc, uint64_t a, uint64_t b) {
  uint64_t r = 0;
  if (!bytes_add(a, b, &r)) acc->overflow = true;
  return r;
}

uint64_t acc_mul(bytes_acc *acc, uint64_t a, uint64_t b) {
  uint64_t r = 0;
  if (!bytes_mul(a, b, &r)) acc->overflow = true;
  return r;
}

uint64_t acc_mul3(bytes_acc *acc, uint64_t a, uint64_t b, uint64_t c) {
  return acc_mul(acc, acc_mul(acc, a, b), c);
}

uint64_t acc_from_double(bytes_acc *acc, double v) {
  /* 18446744073709551616.0 is 2^64: anything at or above it cannot be a count */
  double r = floor(v + 0.5);
  if (!(r >= 0.0) || !(r < 18446744073709551616.0)) {
    acc->overflow = true;
    return 0;
  }
  return (uint64_t)r;
}
