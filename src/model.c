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
  uint64_t elems = 0, fixed = 0;
  for (int i = 0; i < m->n_kv; i++) {
    const kv_group *g = &m->kv[i];
    /* cross-attention and recurrent state are fixed per sequence, not per token */
    if (g->kind == KV_CROSS || g->kind == KV_STATE) continue;
    if (g->bytes) { /* whatever the KV dtype (DeepSeek-V3.2's indexer keys) */
      fixed = acc_add(&acc, fixed, acc_mul(&acc, g->bytes, g->layers));
      continue;
    }
    uint64_t per_layer = acc_mul(&acc, g->kv_heads, acc_add(&acc, g->k_dim, g->v_dim));
    elems = acc_add(&acc, elems, acc_mul(&acc, per_layer, g->layers));
  }
  if (acc.overflow || !dtype_bytes(dt, elems, out)) return false;
  *out = acc_add(&acc, *out, fixed);
  return !acc.overflow;
}

void scenario_note(scenario *s, const char *fmt, ...) {
  if (s->n_notes >= SCN_MAX_NOTES) return;
  va_list ap;
  va_start(ap, fmt);
  char *note = s->notes[s->n_notes++];
  int len = vsnprintf(note, SCN_NOTE, fmt, ap);
  va_end(ap);
  /* a note longer than its slot says it was cut, rather than ending mid-word */
  if (len >= SCN_NOTE) {
    size_t cut = SCN_NOTE - 4;
    while (cut > 0 && ((unsigned char)note[cut] & 0xC0) == 0x80) cut--; /* not inside a UTF-8 sequence */
    memcpy(note + cut, "...", 4);
  }
}

const scn_value *scn_find(const scenario *s, const char *key) {
  for (int i = 0; i < s->n_extra; i++)
    if (strcmp(s->extra[i].key, key) == 0) return &s->extra[i];
  return NULL;
}

scn_value *scn_slot(scenario *s, const char *key) {
  for (int i = 0; i < s->n_extra; i++)
    if (strcmp(s->extra[i].key, key) == 0) return &s->extra[i];
  if (s->n_extra >= SCN_MAX_EXTRA) return NULL;
  scn_value *v = &s->extra[s->n_extra++];
  memset(v, 0, sizeof *v);
  snprintf(v->key, sizeof v->key, "%s", key);
  return v;
}

void scn_set_u64(scenario *s, const char *key, uint64_t v) {
  scn_value *x = scn_slot(s, key);
  if (x) x->type = SCN_INT, x->i = v;
}

void scn_set_str(scenario *s, const char *key, const char *v) {
  scn_value *x = scn_slot(s, key);
  if (x) x->type = SCN_STR, snprintf(x->s, sizeof x->s, "%s", v);
}

uint64_t scn_u64(const scenario *s, const char *key, uint64_t dflt) {
  const scn_value *v = scn_find(s, key);
  if (!v) return dflt;
  if (v->type == SCN_INT) return v->i;
  if (v->type == SCN_BOOL) return v->i != 0;
  return dflt;
}

double scn_real(const scenario *s, const char *key, double dflt) {
  const scn_value *v = scn_find(s, key);
  if (!v) return dflt;
  if (v->type == SCN_REAL) return v->d;
  if (v->type == SCN_INT) return (double)v->i;
  return dflt;
}

const char *scn_str(const scenario *s, const char *key, const char *dflt) {
  const scn_value *v = scn_find(s, key);
  return v && v->type == SCN_STR ? v->s : dflt;
}

bool scn_bool(const scenario *s, const char *key, bool dflt) {
  const scn_value *v = scn_find(s, key);
  return v && v->type == SCN_BOOL ? v->i != 0 : dflt;
}

const char *wl_kind_name(wl_kind k) {
  static const char *const names[] = {[WL_INFERENCE] = "inference", [WL_TRAIN] = "train", [WL_IMAGE] = "image",
                                      [WL_VIDEO] = "video"};
  return (unsigned)k < sizeof names / sizeof *names && names[k] ? names[k] : "inference";
}
