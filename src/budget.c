/*
** budget.c: categories of a memory budget with basis and detail (see budget.h).
*/
#include "budget.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const basis_names[] = {"exact", "modelled", "calibrated", "assumed"};

void budget_init(budget *b) {
  memset(b, 0, sizeof *b);
}

budget_item *budget_add(budget *b, const char *name, uint64_t bytes, vf_basis basis,
                        bool in_torch, const char *fmt, ...) {
  if (b->n >= BUDGET_MAX) {
    b->full = true;
    return NULL;
  }
  budget_item *it = &b->items[b->n++];
  memset(it, 0, sizeof *it);
  it->name = name;
  it->bytes = bytes;
  it->basis = basis;
  it->in_torch = in_torch;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(it->detail, sizeof it->detail, fmt, ap);
  va_end(ap);
  return it;
}

uint64_t budget_total(budget *b, bool torch_only) {
  bytes_acc acc = {0, false};
  uint64_t total = 0;
  for (int i = 0; i < b->n; i++)
    if (!torch_only || b->items[i].in_torch) total = acc_add(&acc, total, b->items[i].bytes);
  if (acc.overflow) b->overflow = true;
  return total;
}

uint64_t budget_get(const budget *b, const char *name) {
  uint64_t v = 0;
  for (int i = 0; i < b->n; i++)
    if (strcmp(b->items[i].name, name) == 0) v += b->items[i].bytes;
  return v;
}

const char *basis_name(vf_basis basis) {
  return (unsigned)basis < 4 ? basis_names[basis] : "assumed";
}
