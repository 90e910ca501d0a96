/*
** catalog.c: GPU entries and their name resolution (see catalog.h).
** Uses rules.c (PCRE2) for aliases.
*/
#include "catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool catalog_init(catalog *c) {
  memset(c, 0, sizeof *c);
  c->aliases = rules_new();
  return c->aliases != NULL;
}

void catalog_free(catalog *c) {
  rules_free(c->aliases);
  free(c->v);
  memset(c, 0, sizeof *c);
}

bool catalog_add(catalog *c, const gpu *g) {
  if (c->n == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 64;
    gpu *v = realloc(c->v, cap * sizeof *v);
    if (!v) return false;
    c->v = v;
    c->cap = cap;
  }
  c->v[c->n++] = *g;
  return true;
}

bool catalog_alias(catalog *c, size_t idx, const char *pattern, char *err, size_t errlen) {
  return rules_add(c->aliases, pattern, (int)idx, RULES_CASELESS, err, errlen);
}

const gpu *catalog_find(const catalog *c, const char *name, char *err, size_t errlen) {
  for (size_t i = 0; i < c->n; i++)
    if (strcasecmp(c->v[i].name, name) == 0) return &c->v[i];
  int idx = -1;
  int m = rules_match(c->aliases, name, &idx, NULL, err, errlen);
  if (m == 1 && idx >= 0 && (size_t)idx < c->n) return &c->v[idx];
  if (m == 0) snprintf(err, errlen, "unknown GPU '%s' (see 'vramfit list gpus')", name);
  return NULL;
}

bool catalog_resolve(const catalog *c, gpu *g, char *err, size_t errlen) {
  const gpu *found = catalog_find(c, g->name, err, errlen);
  if (g->memory) {
    uint64_t mem = g->memory;
    if (found) *g = *found;
    g->memory = mem;
    if (!g->arch[0]) snprintf(g->arch, sizeof g->arch, "unknown");
    return true;
  }
  if (found) *g = *found;
  return found != NULL;
}
