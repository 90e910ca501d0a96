/*
** sweep.c: batch evaluation (vf_batch_* in include/vramfit.h). A sweep's points are
** grouped by the values of their "slow" axes (anything but workload.context,
** concurrency, micro_batch, seq_len and gpu); a group is normalized through Lua once,
** verified by probes, and its points are then evaluated in C alone: patch the numeric
** fields of a device scenario, estimate_run, verdict. Uses lua_sweep.c, estimate.c, fit.c.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "estimate.h"
#include "fit.h"
#include "lua_sweep.h"
#include "vramfit.h"

#define GROUP_CACHE 16
#define MAX_AXES 32

/* The GPUs one value of the gpu axis names, resolved against the catalog once: a
** point's rows are g[0 .. rows), the default GPU when the scenario names none (n = 0). */
typedef struct gchoice {
  gpu g[SCN_MAX_GPUS];
  int n;
  size_t rows;
  char *err; /* set: this value's scenarios fail with it */
} gchoice;

typedef struct group {
  size_t seg;
  uint64_t key, used; /* slow-axis combination; last use, for eviction */
  bool fast, formula_name;
  scenario base; /* the group's first point, normalized, GPUs unresolved */
  model_desc m;
  gchoice *ch;
  size_t n_ch;
} group;

struct vf_batch {
  host *h;
  catalog cat;
  int ref;
  sw_plan plan;
  char **sets, **gpus;
  size_t n_sets, n_gpus;
  bool fit;
  char *path;
  char err[2048];
  group *groups[GROUP_CACHE];
  uint64_t clock;
  scenario ps, work; /* a probe or a slow point; the source of the device scenarios */
  model_desc pm;
  gchoice slow_ch;
  const void *dev_key; /* which (group choice) dev[] was built from; NULL: none */
  scenario *dev;       /* per row: the scenario as it runs on that GPU */
  estimate *est;
  vf_point *rows;
  vf_category *cats; /* BUDGET_MAX per row */
  size_t cap;
  char name[sizeof((scenario *)0)->name], axes[4096];
  size_t fast_count;
};

static vf_status bfail(vf_batch *b, vf_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static vf_status bfail(vf_batch *b, vf_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->err, sizeof b->err, fmt, ap);
  va_end(ap);
  return st;
}

static const char *where(const vf_batch *b) {
  return strcmp(b->path, "-") ? b->path : "<stdin>";
}

/* ---------------------------------------------------------------- lifetime */

static char **copy_strings(const char *const *v, size_t n, bool *ok) {
  char **out = calloc(n ? n : 1, sizeof *out);
  if (!out) return *ok = false, NULL;
  for (size_t i = 0; i < n; i++)
    if (!(out[i] = strdup(v[i]))) *ok = false;
  return out;
}

static void free_strings(char **v, size_t n) {
  for (size_t i = 0; v && i < n; i++) free(v[i]);
  free(v);
}

static void group_free(group *g) {
  if (!g) return;
  model_free(&g->m);
  for (size_t i = 0; g->ch && i < g->n_ch; i++) free(g->ch[i].err);
  free(g->ch);
  free(g);
}

void vf_batch_free(vf_batch *b) {
  if (!b) return;
  for (int i = 0; i < GROUP_CACHE; i++) group_free(b->groups[i]);
  lsweep_plan_free(&b->plan);
  free_strings(b->sets, b->n_sets);
  free_strings(b->gpus, b->n_gpus);
  free(b->slow_ch.err);
  model_free(&b->pm);
  free(b->dev);
  free(b->est);
  free(b->rows);
  free(b->cats);
  free(b->path);
  host_free(b->h);
  catalog_free(&b->cat);
  free(b);
}

static bool batch_load(vf_batch *b, const vf_options *opt, const char *path, char *err, size_t errlen) {
  size_t n = 0;
  while (opt->script_dirs && opt->script_dirs[n]) n++;
  host_options ho = {opt->script_dirs,
                     n,
                     opt->data_dir ? opt->data_dir : VF_DATADIR,
                     opt->instruction_limit,
                     opt->memory_limit,
                     opt->alloc,
                     opt->alloc_ud};
  if (!catalog_init(&b->cat)) return snprintf(err, errlen, "out of memory"), false;
  if (!(b->h = host_new(&ho, err, errlen))) return false;
  if (!host_load_catalog(b->h, &b->cat, err, errlen)) return false;
  if (!lsweep_load(b->h, path, NULL, 0, &b->ref, err, errlen)) return false;
  return lsweep_plan(b->h, b->ref, &b->plan, err, errlen);
}

vf_status vf_batch_open(const vf_options *opt, const char *path, const vf_request *req, vf_batch **out,
                        char *err, size_t errlen) {
  vf_options dflt;
  if (!opt) vf_options_init(&dflt), opt = &dflt;
  static const vf_request none = {NULL, 0, NULL, 0, VF_FORMAT_CSV, 0};
  if (!req) req = &none;
  char own[1024]; /* err may be NULL (errlen 0): the status and opt->message still say */
  if (!err || errlen == 0) err = own, errlen = sizeof own;
  err[0] = '\0';
  if (!out || !path) {
    snprintf(err, errlen, "vf_batch_open: a required argument is NULL");
    if (out) *out = NULL;
    return VF_EINVAL;
  }
  *out = NULL;
  if (!request_lists_ok(req, err, errlen)) return VF_EINVAL;
  vf_batch *b = calloc(1, sizeof *b);
  if (!b) return VF_ENOMEM;
  bool ok = true;
  model_init(&b->pm);
  b->sets = copy_strings(req->sets, req->n_sets, &ok);
  b->gpus = copy_strings(req->gpus, req->n_gpus, &ok);
  b->n_sets = req->n_sets, b->n_gpus = req->n_gpus, b->fit = req->fit != 0;
  if (!ok || !(b->path = strdup(path))) {
    vf_batch_free(b);
    return snprintf(err, errlen, "out of memory"), VF_ENOMEM;
  }
  if (!batch_load(b, opt, path, err, errlen)) {
    vf_batch_free(b);
    if (opt->message) opt->message(opt->message_ud, "error", err);
    return strstr(err, "out of memory") ? VF_ENOMEM : script_status(err);
  }
  *out = b;
  return VF_OK;
}

size_t vf_batch_count(const vf_batch *b) {
  return b ? b->plan.total : 0;
}

size_t vf_batch_fast_count(const vf_batch *b) {
  return b ? b->fast_count : 0;
}

const char *vf_batch_error(const vf_batch *b) {
  return b ? b->err : "no batch";
}

/* ---------------------------------------------------------------- points */

static const sw_seg *find_seg(const vf_batch *b, size_t index) {
  size_t lo = 0, hi = b->plan.n_segs - 1;
  while (lo < hi) {
    size_t mid = (lo + hi + 1) / 2;
    if (b->plan.segs[mid].first <= index)
      lo = mid;
    else
      hi = mid - 1;
  }
  return &b->plan.segs[lo];
}

/* Axis value indices of point k of a sweep (the last axis varies fastest). */
static void decode(const sw_seg *sg, size_t k, size_t *idx) {
  for (int a = sg->n_axes - 1; a >= 0; a--) {
    idx[a] = k % sg->axes[a].n;
    k /= sg->axes[a].n;
  }
}

static size_t encode(const sw_seg *sg, const size_t *idx) {
  size_t k = 0;
  for (int a = 0; a < sg->n_axes; a++) k = k * sg->axes[a].n + idx[a];
  return sg->first + k;
}

static bool is_numeric(sw_field f) {
  return f == AX_CONTEXT || f == AX_CONCURRENCY || f == AX_MICRO_BATCH || f == AX_SEQ_LEN;
}

static uint64_t *field_ptr(scenario *s, sw_field f) {
  switch (f) {
    case AX_CONTEXT:
      return &s->context;
    case AX_CONCURRENCY:
      return &s->concurrency;
    case AX_MICRO_BATCH:
      return &s->micro_batch;
    default:
      return &s->seq_len;
  }
}

/* The label of a point ("gpu=L40S,workload.context=4096") into out. */
static void join_labels(const sw_seg *sg, const size_t *idx, char *out, size_t size) {
  size_t len = 0;
  out[0] = '\0';
  for (int a = 0; a < sg->n_axes && len < size; a++) {
    int n = snprintf(out + len, size - len, "%s%s", a ? "," : "", sg->axes[a].labels[idx[a]]);
    if (n < 0) break;
    len += (size_t)n;
  }
}

/* The name engine.lua gives a sweep point: "prefix[labels]", cut as lua_read.c cuts it. */
static void formula_name(const sw_seg *sg, const size_t *idx, char *out, size_t size) {
  char labels[4096];
  join_labels(sg, idx, labels, sizeof labels);
  if (snprintf(out, size, "%s[%s]", sg->prefix, labels) < 0) out[0] = '\0'; /* longer: cut */
}

static void point_name(vf_batch *b, const group *g) {
  if (g->formula_name) {
    if (snprintf(b->name, sizeof b->name, "%s[%s]", b->plan.segs[g->seg].prefix, b->axes) < 0)
      b->name[0] = '\0';
  } else
    memcpy(b->name, g->base.name, sizeof b->name);
}

/* ---------------------------------------------------------------- verification */

static bool prepare(vf_batch *b, size_t index, scenario *s, model_desc *m) {
  char msg[2048];
  if (lsweep_prepare(b->h, b->ref, index, (const char *const *)b->sets, b->n_sets,
                     (const char *const *)b->gpus, b->n_gpus, s, m, msg, sizeof msg))
    return true;
  /* the error row keeps the scenario's name (or model id), read off the raw point */
  lsweep_name(b->h, b->ref, index, b->name, sizeof b->name);
  if (b->plan.total > 1)
    bfail(b, script_status(msg), "%s: scenario %zu: %s", where(b), index + 1, msg);
  else
    bfail(b, script_status(msg), "%s: %s", where(b), msg);
  return false;
}

static bool model_equal(const model_desc *a, const model_desc *b) {
  model_desc x = *a, y = *b;
  memset(&x.inv, 0, sizeof x.inv);
  memset(&y.inv, 0, sizeof y.inv);
  if (memcmp(&x, &y, sizeof x) != 0 || a->inv.n != b->inv.n) return false;
  for (size_t i = 0; i < a->inv.n; i++) {
    const inv_tensor *s = &a->inv.t[i], *t = &b->inv.t[i];
    if (strcmp(s->name, t->name) || memcmp(s->shape, t->shape, sizeof s->shape) || s->ndim != t->ndim ||
        s->count != t->count || s->role != t->role || s->dtype != t->dtype ||
        s->stored_bytes != t->stored_bytes || strcmp(s->qtype, t->qtype) ||
        strcmp(s->component, t->component))
      return false;
  }
  return true;
}

/* Probe point pidx: normalized through Lua, it must equal the group's base with the
** axis fields and the name patched; a gpu-axis probe leaves its GPU list in b->ps. */
static bool probe(vf_batch *b, group *g, const sw_seg *sg, const size_t *pidx) {
  scenario *p = &b->ps;
  if (!prepare(b, encode(sg, pidx), p, &b->pm)) return false;
  for (int a = 0; a < sg->n_axes; a++) {
    const sw_axis *ax = &sg->axes[a];
    if (!is_numeric(ax->field)) continue;
    if (*field_ptr(p, ax->field) != ax->vals[pidx[a]]) return false;
    *field_ptr(p, ax->field) = *field_ptr(&g->base, ax->field);
  }
  char want[sizeof p->name];
  if (g->formula_name)
    formula_name(sg, pidx, want, sizeof want);
  else
    memcpy(want, g->base.name, sizeof want);
  if (strcmp(want, p->name) != 0) return false;
  memcpy(p->name, g->base.name, sizeof p->name);
  gpu saved[SCN_MAX_GPUS];
  int n_saved = p->n_gpus;
  memcpy(saved, p->gpus, sizeof saved);
  memcpy(p->gpus, g->base.gpus, sizeof p->gpus);
  p->n_gpus = g->base.n_gpus;
  bool same = memcmp(p, &g->base, sizeof *p) == 0 && model_equal(&b->pm, &g->m);
  memcpy(p->gpus, saved, sizeof saved);
  p->n_gpus = n_saved;
  return same;
}

/* The numeric probes: each numeric axis alone at its smallest and largest value, then
** all of them at their smallest and at their largest (docs/BATCH.md: why this finds a
** field that Lua derives something from, or validates against another). */
static bool probe_numeric(vf_batch *b, group *g, const sw_seg *sg, const size_t *bidx) {
  size_t pidx[MAX_AXES], lo[MAX_AXES], hi[MAX_AXES];
  int numeric = 0;
  memcpy(lo, bidx, sizeof lo);
  memcpy(hi, bidx, sizeof hi);
  for (int a = 0; a < sg->n_axes; a++) {
    const sw_axis *ax = &sg->axes[a];
    if (!is_numeric(ax->field)) continue;
    numeric++;
    lo[a] = ax->argmin, hi[a] = ax->argmax;
    size_t ends[2] = {ax->argmin, ax->argmax};
    for (int e = 0; e < 2; e++) {
      if (ends[e] == 0 || (e == 1 && ends[1] == ends[0])) continue;
      memcpy(pidx, bidx, sizeof pidx);
      pidx[a] = ends[e];
      if (!probe(b, g, sg, pidx)) return false;
    }
  }
  if (numeric < 2) return true;
  bool lo_new = memcmp(lo, bidx, sizeof lo) != 0, hi_new = memcmp(hi, bidx, sizeof hi) != 0;
  return (!lo_new || probe(b, g, sg, lo)) && (!hi_new || probe(b, g, sg, hi));
}

/* One value's GPU list resolved against the catalog, as engine.c resolves it (its
** resolve_gpus and report_gpu). */
static void resolve_choice(vf_batch *b, gchoice *c, const scenario *s) {
  char msg[512];
  c->n = s->n_gpus;
  c->rows = c->n ? (size_t)c->n : 1;
  memcpy(c->g, s->gpus, sizeof c->g);
  free(c->err);
  c->err = NULL;
  if (!c->n) {
    const gpu *g = catalog_find(&b->cat, CATALOG_DEFAULT_GPU, msg, sizeof msg);
    char full[1024];
    snprintf(full, sizeof full, "catalog: %s", msg); /* as engine.c's report_gpu says it */
    if (g) c->g[0] = *g;
    else c->err = strdup(full);
  }
  for (int i = 0; i < c->n; i++) {
    if (catalog_resolve(&b->cat, &c->g[i], msg, sizeof msg)) continue;
    char full[1024];
    snprintf(full, sizeof full, "%s: gpu: %s", where(b), msg);
    c->err = strdup(full);
    return;
  }
}

static int gpu_axis(const sw_seg *sg) {
  for (int a = 0; a < sg->n_axes; a++)
    if (sg->axes[a].field == AX_GPU) return a;
  return -1;
}

static bool group_verify(vf_batch *b, group *g, const sw_seg *sg, const size_t *idx) {
  size_t bidx[MAX_AXES];
  memcpy(bidx, idx, sizeof bidx);
  for (int a = 0; a < sg->n_axes; a++)
    if (sg->axes[a].field != AX_SLOW) bidx[a] = 0;
  if (!prepare(b, encode(sg, bidx), &g->base, &g->m)) return false;
  char want[sizeof g->base.name];
  formula_name(sg, bidx, want, sizeof want);
  g->formula_name = strcmp(want, g->base.name) == 0;
  for (int a = 0; a < sg->n_axes; a++)
    if (is_numeric(sg->axes[a].field) && *field_ptr(&g->base, sg->axes[a].field) != sg->axes[a].vals[0])
      return false;
  if (!probe_numeric(b, g, sg, bidx)) return false;
  int ga = gpu_axis(sg);
  g->n_ch = ga < 0 ? 1 : sg->axes[ga].n;
  if (!(g->ch = calloc(g->n_ch, sizeof *g->ch))) return false;
  resolve_choice(b, &g->ch[0], &g->base);
  for (size_t j = 1; j < g->n_ch; j++) {
    bidx[ga] = j;
    if (!probe(b, g, sg, bidx)) return false;
    resolve_choice(b, &g->ch[j], &b->ps);
  }
  return true;
}

static uint64_t slow_key(const sw_seg *sg, const size_t *idx) {
  uint64_t k = 0;
  for (int a = 0; a < sg->n_axes; a++)
    if (sg->axes[a].field == AX_SLOW) k = k * sg->axes[a].n + idx[a];
  return k;
}

/* The group of a point: cached, else built and verified (evicting the least used). */
static group *group_get(vf_batch *b, const sw_seg *sg, const size_t *idx) {
  size_t seg = (size_t)(sg - b->plan.segs);
  uint64_t key = slow_key(sg, idx);
  int slot = -1;
  for (int i = 0; i < GROUP_CACHE; i++) {
    group *g = b->groups[i];
    if (g && g->seg == seg && g->key == key) return g->used = ++b->clock, g;
    const group *best = slot < 0 ? NULL : b->groups[slot];
    if (slot < 0 || (best && (!g || g->used < best->used))) slot = i; /* an empty slot, else the oldest */
  }
  group *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  model_init(&g->m);
  g->seg = seg, g->key = key, g->used = ++b->clock;
  g->fast = group_verify(b, g, sg, idx);
  b->dev_key = NULL; /* dev[] may come from the group evicted here */
  group_free(b->groups[slot]);
  b->groups[slot] = g;
  return g;
}

/* ---------------------------------------------------------------- rows */

static bool reserve_rows(vf_batch *b, size_t n) {
  if (n <= b->cap) return true;
  scenario *dev = realloc(b->dev, n * sizeof *dev);
  if (dev) b->dev = dev;
  estimate *est = realloc(b->est, n * sizeof *est);
  if (est) b->est = est;
  vf_point *rows = realloc(b->rows, n * sizeof *rows);
  if (rows) b->rows = rows;
  vf_category *cats = realloc(b->cats, n * BUDGET_MAX * sizeof *cats);
  if (cats) b->cats = cats;
  if (!dev || !est || !rows || !cats) return false;
  b->cap = n;
  return true;
}

/* dev[r] = src on GPU r of the choice (the default GPU when it names none). */
static bool build_dev(vf_batch *b, const scenario *src, const gchoice *c) {
  if (!reserve_rows(b, c->rows)) return false;
  memcpy(&b->work, src, sizeof b->work);
  memcpy(b->work.gpus, c->g, sizeof c->g);
  b->work.n_gpus = c->n;
  for (size_t r = 0; r < c->rows; r++) fit_device_scenario(&b->work, &c->g[r], &b->dev[r]);
  b->dev_key = c;
  return true;
}

static void fill_row(vf_batch *b, size_t r, const model_desc *m, const gpu *g) {
  const scenario *s = &b->dev[r];
  const estimate *e = &b->est[r];
  vf_point *p = &b->rows[r];
  vf_category *cats = &b->cats[r * BUDGET_MAX];
  for (int i = 0; i < e->b.n; i++) {
    const budget_item *it = &e->b.items[i];
    cats[i] = (vf_category){it->name, it->component, it->bytes, basis_name(it->basis), it->detail};
  }
  *p = (vf_point){.index = 0,
                  .scenario = b->name,
                  .axes = b->axes,
                  .model_id = m->id,
                  .arch = m->arch,
                  .runtime = s->runtime,
                  .kind = wl_kind_name(s->kind),
                  .params = e->params,
                  .weight_bytes = e->weight_bytes,
                  .context = s->context,
                  .concurrency = s->concurrency,
                  .micro_batch = s->micro_batch,
                  .seq_len = s->seq_len,
                  .tp = s->tp,
                  .pp = s->pp,
                  .dp = s->dp,
                  .gpu = g->name,
                  .memory_bytes = g->memory,
                  .devices = e->devices,
                  .fits = fit_verdict(e, s, g),
                  .used_fraction = g->memory ? (double)e->total / (double)g->memory : 0.0,
                  .total_bytes = e->total,
                  .peak_allocated_bytes = e->peak_allocated,
                  .peak_reserved_bytes = e->peak_reserved,
                  .categories = cats,
                  .n_categories = (size_t)e->b.n};
}

static vf_status solve_row(vf_batch *b, size_t r, const model_desc *m, const gpu *g) {
  fit_row f;
  char msg[512];
  if (fit_gpu_from(m, &b->dev[r], &b->est[r], g, &f, msg, sizeof msg) != 0)
    return bfail(b, VF_EOVERFLOW, "%s", msg);
  vf_point *p = &b->rows[r];
  p->solved = 1;
  p->count = f.count, p->max_concurrency = f.max_concurrency, p->max_context = f.max_context;
  p->max_micro_batch = f.max_micro_batch, p->max_seq_len = f.max_seq_len;
  return VF_OK;
}

/* Every row of the point from dev[] (already patched). */
static vf_status eval_rows(vf_batch *b, const model_desc *m, const gchoice *c, size_t *n_rows) {
  char msg[1024];
  for (size_t r = 0; r < c->rows; r++) {
    const gpu *g = &c->g[r];
    if (estimate_run(m, &b->dev[r], &b->est[r], msg, sizeof msg) != 0)
      return bfail(b, VF_EOVERFLOW, "%s: %s", b->path, msg);
    fill_row(b, r, m, g);
    vf_status st = b->fit ? solve_row(b, r, m, g) : VF_OK;
    if (st != VF_OK) return st;
  }
  *n_rows = c->rows;
  return VF_OK;
}

static vf_status eval_slow(vf_batch *b, size_t index, size_t *n_rows) {
  b->dev_key = NULL;
  if (!prepare(b, index, &b->ps, &b->pm)) return script_status(b->err);
  memcpy(b->name, b->ps.name, sizeof b->name);
  resolve_choice(b, &b->slow_ch, &b->ps);
  if (b->slow_ch.err) return bfail(b, VF_EINVAL, "%s", b->slow_ch.err);
  if (!build_dev(b, &b->ps, &b->slow_ch)) return bfail(b, VF_ENOMEM, "out of memory");
  b->dev_key = NULL; /* dev[] holds this one point */
  return eval_rows(b, &b->pm, &b->slow_ch, n_rows);
}

static vf_status eval_fast(vf_batch *b, group *g, const sw_seg *sg, const size_t *idx, size_t *n_rows) {
  int ga = gpu_axis(sg);
  const gchoice *c = &g->ch[ga < 0 ? 0 : idx[ga]];
  if (c->err) return bfail(b, VF_EINVAL, "%s", c->err);
  if (b->dev_key != c && !build_dev(b, &g->base, c)) return bfail(b, VF_ENOMEM, "out of memory");
  point_name(b, g);
  for (size_t r = 0; r < c->rows; r++) {
    memcpy(b->dev[r].name, b->name, sizeof b->name);
    for (int a = 0; a < sg->n_axes; a++)
      if (is_numeric(sg->axes[a].field)) *field_ptr(&b->dev[r], sg->axes[a].field) = sg->axes[a].vals[idx[a]];
  }
  b->fast_count++;
  return eval_rows(b, &g->m, c, n_rows);
}

static vf_status eval_point(vf_batch *b, size_t index, size_t *n_rows) {
  const sw_seg *sg = find_seg(b, index);
  size_t idx[MAX_AXES] = {0};
  b->axes[0] = b->name[0] = '\0';
  if (!sg->prefix || sg->n_axes > MAX_AXES) return eval_slow(b, index, n_rows);
  decode(sg, index - sg->first, idx);
  join_labels(sg, idx, b->axes, sizeof b->axes);
  bool any_fast = false;
  for (int a = 0; a < sg->n_axes; a++) any_fast |= sg->axes[a].field != AX_SLOW;
  group *g = any_fast ? group_get(b, sg, idx) : NULL;
  if (any_fast && !g) return bfail(b, VF_ENOMEM, "out of memory");
  if (!g || !g->fast) return eval_slow(b, index, n_rows);
  return eval_fast(b, g, sg, idx, n_rows);
}

vf_status vf_batch_eval(vf_batch *b, size_t index, const vf_point **rows, size_t *n_rows) {
  if (!b || !rows || !n_rows) return VF_EINVAL;
  *n_rows = 0;
  if (index >= b->plan.total)
    return bfail(b, VF_EINVAL, "%s: scenario %zu: the file has %zu scenarios", where(b), index + 1,
                 b->plan.total);
  if (!reserve_rows(b, 1)) return bfail(b, VF_ENOMEM, "out of memory");
  vf_status st = eval_point(b, index, n_rows);
  if (st != VF_OK) {
    b->rows[0] = (vf_point){.scenario = b->name, .axes = b->axes, .error = b->err};
    *n_rows = 1;
  } else {
    b->err[0] = '\0';
  }
  for (size_t r = 0; r < *n_rows; r++) b->rows[r].index = index;
  *rows = b->rows;
  return st;
}
