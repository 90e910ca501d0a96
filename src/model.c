/*
** model.c: helpers on model descriptions and scenarios (see model.h).
*/
#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"

void model_init(model_desc *m) {
  memset(m, 0, sizeof *m);
  inv_init(&m->inv);
}

void model_free(model_desc *m) {
  inv_free(&m->inv);
}

bool model_kv_bytes_per_token(const model_desc *m, vf_dtype dt, uint64_t *out) {
  bytes_acc acc = {0, false};
  uint64_t elems = 0;
  for (int i = 0; i < m->n_kv; i++) {
    const kv_group *g = &m->kv[i];
    uint64_t per_layer = acc_mul(&acc, g->kv_heads, acc_add(&acc, g->k_dim, g->v_dim));
    elems = acc_add(&acc, elems, acc_mul(&acc, per_layer, g->layers));
  }
  if (acc.overflow || !dtype_bytes(dt, elems, out)) return false;
  return true;
}

void scenario_note(scenario *s, const char *fmt, ...) {
  if (s->n_notes >= SCN_MAX_NOTES) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->notes[s->n_notes++], SCN_NOTE, fmt, ap);
  va_end(ap);
}
