/*
** budget.h: a memory budget as named categories, each with its basis and a one-line
** detail saying how it was derived. Category names are DESIGN.md's fixed vocabulary.
*/
#ifndef VF_BUDGET_H
#define VF_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "bytes.h"

typedef enum vf_basis { BASIS_EXACT = 0, BASIS_MODELLED, BASIS_CALIBRATED, BASIS_ASSUMED } vf_basis;

#define BUDGET_MAX 32
#define BUDGET_DETAIL 200

typedef struct budget_item {
  const char *name;      /* static: "weights", "kv_cache", ... */
  const char *component; /* static or NULL: "denoiser", "text_encoder", ... */
  uint64_t bytes;
  vf_basis basis;
  bool in_torch;         /* counted by PyTorch's allocator (else CUDA context / NCCL) */
  char detail[BUDGET_DETAIL];
} budget_item;

typedef struct budget {
  budget_item items[BUDGET_MAX];
  int n;
  bool overflow; /* sticky: some figure overflowed 64 bits */
  bool full;     /* sticky: more than BUDGET_MAX items were added */
} budget;

void budget_init(budget *b);
/* Adds a category; detail is printf-formatted. Zero-byte items are kept (they show
** a category that was considered). Returns the item or NULL when full. */
budget_item *budget_add(budget *b, const char *name, uint64_t bytes, vf_basis basis,
                        bool in_torch, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Sum over items, optionally only those in torch's allocator. Sets overflow. */
uint64_t budget_total(budget *b, bool torch_only);
uint64_t budget_get(const budget *b, const char *name);
const char *basis_name(vf_basis basis);

#endif
