/*
** catalog.c: GPU entries and their name resolution (see catalog.h).
** Uses rules.c (PCRE2) for aliases.
*/
#include "catalog.h"

#include <ctype.h>
#include <math.h>
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

/* A memory size stated in a GPU name: where it is and what it says. */
typedef struct stated {
  size_t at, len; /* its text in the name, unit included */
  double gb;      /* its number, in the unit the name gives (GB and GiB alike) */
  char text[32];  /* "8GB", "24GiB": as a scenario's gpu.memory would take it */
} stated;

/* A number ("8", "23.5") at s followed by an optional space and GB, GiB or G (caseless)
** that no letter, digit or dot follows; its length (0 if none) and value. The unit's
** length goes to *unit, its start to *unit_at. */
static size_t size_at(const char *s, double *gb, size_t *unit_at, size_t *unit) {
  size_t j = 0;
  double v = 0;
  while (isdigit((unsigned char)s[j])) v = v * 10 + (s[j++] - '0');
  if (j == 0 || j > 6) return 0; /* more digits than any memory size in GB */
  if (s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
    double scale = 1;
    for (j++; isdigit((unsigned char)s[j]); j++) v += (s[j] - '0') * (scale /= 10);
  }
  size_t k = j + (s[j] == ' ');
  size_t u = strncasecmp(s + k, "gib", 3) == 0  ? 3
             : strncasecmp(s + k, "gb", 2) == 0 ? 2
                                                : (s[k] == 'g' || s[k] == 'G');
  char after = s[k + u];
  if (!u || isalnum((unsigned char)after) || after == '.') return 0;
  *gb = v;
  *unit_at = k;
  *unit = u;
  return k + u;
}

/* The next size name states at or after from. A number glued to a word or a dot is part
** of a model or a profile, not a size: "A10G", "H100", the "3g.40gb" of a MIG slice. */
static bool next_size(const char *name, size_t from, stated *t) {
  for (size_t i = from; name[i]; i++) {
    if (!isdigit((unsigned char)name[i])) continue;
    if (i > 0 && (isalnum((unsigned char)name[i - 1]) || name[i - 1] == '.')) {
      while (isdigit((unsigned char)name[i + 1])) i++;
      continue;
    }
    size_t unit_at, unit;
    size_t len = size_at(name + i, &t->gb, &unit_at, &unit);
    if (!len) continue;
    size_t digits = strspn(name + i, "0123456789.");
    if (digits > unit_at) digits = unit_at;
    t->at = i;
    t->len = len;
    snprintf(t->text, sizeof t->text, "%.*s%s", (int)digits, name + i, unit == 3 ? "GiB" : "GB");
    return true;
  }
  return false;
}

/* A size that is the whole of s ("16GB", "64GB") or, when !whole, its start ("128GB per
** package"); 0 if none. */
static double size_of(const char *s, bool whole) {
  double gb;
  size_t unit_at, unit;
  size_t len = size_at(s, &gb, &unit_at, &unit);
  if (!len || (whole && s[len])) return 0;
  return gb;
}

/* The entry's sizes: its nominal label and the size its name ends in ("MI250X-GCD-64GB":
** 64, while its nominal counts the 128GB package). 0 where there is none. */
static void entry_sizes(const gpu *g, double *nominal, double *named) {
  *nominal = size_of(g->nominal, false);
  const char *dash = strrchr(g->name, '-');
  *named = dash ? size_of(dash + 1, true) : 0;
}

static bool same_size(double a, double b) {
  return a > 0 && fabs(a - b) < 0.005;
}

/* The typed name without its stated size, for the message: "RTX 3060". */
static void short_name(const char *name, const stated *t, char *out, size_t size) {
  size_t o = 0;
  for (size_t i = 0; name[i] && o + 1 < size; i++) {
    if (i == t->at) i += t->len;
    if (!name[i]) break;
    if (name[i] == ' ' && (o == 0 || out[o - 1] == ' ')) continue;
    out[o++] = name[i];
  }
  while (o > 0 && strchr(" -_", out[o - 1])) o--;
  out[o] = '\0';
}

/* 1 if name states a size that entry g does not have and that alias (its index in the
** ordered set) matches without, *t that size; 0 if not; -1 on a failed match (err set).
** A size the alias needs in order to match is the catalog's own word for the device. */
static int size_conflict(const catalog *c, size_t alias, const char *name, const gpu *g, stated *t, char *err,
                         size_t errlen) {
  double nominal, named;
  entry_sizes(g, &nominal, &named);
  if (nominal == 0 && named == 0) return 0; /* nothing to compare with */
  size_t n = strlen(name);
  char *rest = NULL;
  int res = 0;
  for (size_t from = 0; res == 0 && next_size(name, from, t); from = t->at + t->len) {
    if (same_size(nominal, t->gb) || same_size(named, t->gb)) continue;
    if (!rest && !(rest = malloc(n + 1))) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    memcpy(rest, name, t->at);
    memcpy(rest + t->at, name + t->at + t->len, n - t->at - t->len + 1);
    int m = rules_match_at(c->aliases, alias, rest, err, errlen);
    res = m < 0 ? -1 : m;
  }
  free(rest);
  return res;
}

/* The entry name resolves to, NULL if none (err says why): the first alias in catalog order
** whose entry has every size the name states. When aliases match only entries of another
** size, *differs is set, the first of them is returned and err has the message. */
static const gpu *lookup(const catalog *c, const char *name, bool *differs, char *err, size_t errlen) {
  *differs = false;
  for (size_t i = 0; i < c->n; i++)
    if (strcasecmp(c->v[i].name, name) == 0) return &c->v[i];
  const gpu *first = NULL; /* the first entry matched whose size the name contradicts */
  stated t0;
  size_t alias = 0;
  for (size_t from = 0;; from = alias + 1) {
    int idx = -1;
    int m = rules_match_from(c->aliases, from, name, &idx, &alias, err, errlen);
    if (m < 0) return NULL;
    if (m == 0 || idx < 0 || (size_t)idx >= c->n) break;
    const gpu *g = &c->v[idx];
    stated t;
    int k = size_conflict(c, alias, name, g, &t, err, errlen);
    if (k < 0) return NULL;
    if (k == 0) return g;
    if (!first) first = g, t0 = t;
  }
  if (!first) {
    snprintf(err, errlen, "unknown GPU '%s' (see 'vramfit list gpus')", name);
    return NULL;
  }
  *differs = true;
  double nominal, named;
  entry_sizes(first, &nominal, &named);
  char shortn[128];
  short_name(name, &t0, shortn, sizeof shortn);
  char whose[160] = "";
  if (shortn[0])
    snprintf(whose, sizeof whose, "the catalog's %s is ", shortn);
  else
    snprintf(whose, sizeof whose, "it resolves to ");
  snprintf(err, errlen,
           "unknown GPU '%s': %s%s (%gGB); give its memory: gpu = { name = \"%s\", memory = \"%s\" }", name,
           whose, first->name, named > 0 ? named : nominal, name, t0.text);
  return first;
}

const gpu *catalog_find(const catalog *c, const char *name, char *err, size_t errlen) {
  bool differs;
  const gpu *g = lookup(c, name, &differs, err, errlen);
  return differs ? NULL : g;
}

bool catalog_resolve(const catalog *c, gpu *g, char *err, size_t errlen) {
  bool differs;
  const gpu *found = lookup(c, g->name, &differs, err, errlen);
  if (g->memory) {
    /* the memory given wins; the entry still knows the architecture, bandwidth and
    ** number formats, but its name would claim the size the name contradicts */
    uint64_t mem = g->memory;
    char name[sizeof g->name];
    memcpy(name, g->name, sizeof name);
    if (found) *g = *found;
    g->memory = mem;
    g->smi_memory = 0; /* a device of another size: its nvidia-smi total is not the entry's */
    if (differs) {
      memcpy(g->name, name, sizeof name);
      g->nominal[0] = '\0';
    }
    if (!g->arch[0]) snprintf(g->arch, sizeof g->arch, "unknown");
    return true;
  }
  if (found && !differs) *g = *found;
  return found != NULL && !differs;
}
