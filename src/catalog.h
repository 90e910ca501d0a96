/*
** catalog.h: the GPU catalog (loaded from scripts/gpus.lua by the Lua host) and name
** resolution: canonical names first, then PCRE2 aliases in catalog order, so the
** names nvidia-smi, rocm-smi and torch print resolve to an entry. A name that states a
** memory size ("RTX 3060 8GB") must agree with the size of the entry it resolves to.
*/
#ifndef VF_CATALOG_H
#define VF_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

typedef struct gpu {
  char name[48];
  char vendor[16];
  char arch[16];
  char nominal[16];
  char memory_type[16];
  char interconnect[64];
  char compute[16];
  uint64_t memory;       /* bytes the runtime sees as total */
  bool memory_measured;  /* from a printed figure, else nominal */
  uint64_t smi_memory;   /* nvidia-smi's memory.total where recorded (0: unknown), which SGLang's
                         ** server_args.py sizes its defaults by (src/rt_sglang.c) */
  double bandwidth_gbs;
  double link_gbs;
  bool bf16, fp8, fp4;
} gpu;

typedef struct catalog {
  gpu *v;
  size_t n, cap;
  rules *aliases; /* value = index into v; the alias that matched a name is asked alone
                  ** (rules_match_at) whether it still matches without the stated size */
} catalog;

/* The GPU figures are computed for when a scenario names none (DESIGN.md). */
#define CATALOG_DEFAULT_GPU "H100-SXM-80GB"

bool catalog_init(catalog *c);
void catalog_free(catalog *c);
/* Appends a copy of g. False on out-of-memory. */
bool catalog_add(catalog *c, const gpu *g);
/* Adds an alias pattern for entry idx; false with err on a bad pattern. */
bool catalog_alias(catalog *c, size_t idx, const char *pattern, char *err, size_t errlen);
/* Resolves a name: exact canonical name (case-insensitive), then the first alias that
** matches. NULL if none (err says so, listing near names is left to the caller).
** A size the name states ("8GB", "24 GB", "141GiB", "144G") that the matching alias
** does not itself require (nvidia-smi's "GH200 480GB" counts the Grace CPU's memory,
** and its alias spells it out) must equal the entry's nominal size (or the size its
** name ends in), else NULL with "unknown GPU 'RTX 4090 48GB': the catalog's RTX 4090 is
** RTX-4090-24GB (24GB); give its memory: gpu = { name = "RTX 4090 48GB", memory = "48GB" }":
** the aliases cannot tell variants apart that print the same device name, and a
** silently different size would be a wrong answer. */
const gpu *catalog_find(const catalog *c, const char *name, char *err, size_t errlen);

/* A scenario's GPU entry resolved in place: a name alone takes the catalog entry; a
** name with its own memory (a MIG slice, a measured total) keeps that memory and, when
** the name is in the catalog, the entry's architecture and interconnect (the entry's
** name too, unless the name states a size that differs from the entry's: then the
** name as given stays). False with err ("unknown GPU ...") when a name alone is not
** found or states a size its entry does not have. */
bool catalog_resolve(const catalog *c, gpu *g, char *err, size_t errlen);

#endif
