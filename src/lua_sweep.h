/*
** lua_sweep.h: the Lua side of batch evaluation (src/sweep.c): loads a scenario file
** into a lazily expanded list (scripts/engine.lua), reads its plan (segments, sweep
** axes with their values and labels) into C, and normalizes one scenario by index.
*/
#ifndef VF_LUA_SWEEP_H
#define VF_LUA_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "lua_host.h"
#include "model.h"

/* What an axis sets: a numeric workload field or the GPU list may take the fast path
** (src/sweep.c); any other path is normalized through Lua at every point. */
typedef enum sw_field {
  AX_SLOW = 0,
  AX_CONTEXT,
  AX_CONCURRENCY,
  AX_MICRO_BATCH,
  AX_SEQ_LEN,
  AX_GPU
} sw_field;

typedef struct sw_axis {
  char *path;
  size_t n;
  sw_field field;
  uint64_t *vals;        /* numeric fast axes: every value (a non-negative integer) */
  char **labels;         /* "path=value", as the scenario name shows it */
  size_t argmin, argmax; /* numeric fast axes: where the smallest / largest value is */
} sw_axis;

typedef struct sw_seg {
  size_t first, n; /* scenario indices [first, first + n), 0-based */
  char *prefix;    /* a sweep: its base's name ("sweep" if none); NULL: one scenario */
  sw_axis *axes;   /* outermost first; the last varies fastest */
  int n_axes;
} sw_seg;

typedef struct sw_plan {
  sw_seg *segs;
  size_t n_segs, total;
} sw_plan;

/* Loads and expands a file ("-": standard input); *ref holds the list in the registry. */
bool lsweep_load(host *h, const char *path, const char *text, size_t len, int *ref, char *err, size_t errlen);
/* Reads the plan of the list at ref. */
bool lsweep_plan(host *h, int ref, sw_plan *p, char *err, size_t errlen);
void lsweep_plan_free(sw_plan *p);
/* Normalizes scenario index (0-based) of the list with --set overrides ("key=value")
** and --gpu names applied, into s and m (m: model_init'ed, emptied here first). */
bool lsweep_prepare(host *h, int ref, size_t index, const char *const *sets, size_t n_sets,
                    const char *const *gpus, size_t n_gpus, scenario *s, model_desc *m, char *err,
                    size_t errlen);
/* The name scenario index (0-based) of the list at ref goes by, read off the raw point (its
** name, else its model id), for a point that fails to normalize; "" when it has neither. */
void lsweep_name(host *h, int ref, size_t index, char *name, size_t len);

#endif
