/*
** ggml_alloc_sim.c: replays ggml-alloc's graph allocation (ggml/src/ggml-alloc.c of the
** llama.cpp bundled with node-llama-cpp 3.x, commit 80fb11a) on a graph of sizes and
** lifetimes: inputs first, then each node in order, reusing a parent's memory in place
** when the op allows and the parent has no other consumer, freeing a tensor after its
** last consumer; best-fit free blocks with merging; the buffer is the highest offset.
** With several backends, ggml_backend_sched_split_graph (ggml/src/ggml-backend.cpp, the
** same in b4385 and 80fb11a) first assigns each node a backend, splits the graph and
** copies split inputs; then one such allocator per backend (ggml_gallocr_reserve_n with
** per-node buffer ids). Uses bytes.h; checked against the real allocator by
** tests/conformance (CPU) and the llama.cpp CI's CUDA log of shared/calibration.
*/
#include <stdlib.h>
#include <string.h>

#include "ggml_alloc_sim.h"

typedef struct gs_tensor {
  uint64_t bytes, off;
  uint64_t gpu_extra;       /* gs_set_gpu_extra: more bytes when allocated in a GPU's buffer */
  uint64_t asize;           /* the bytes its block took (bytes, plus gpu_extra on a GPU) */
  int src[GS_MAX_SRC], nsrc, view_src, n_children, n_views;
  unsigned how, flags;
  bool ext, leaf, own, weight, fixed, dep;
  int backend, buf;         /* the scheduler's backend; the buffer it was allocated in */
  int keep_src_of;          /* gs_keep_until: a node whose sources stay allocated until this one ran */
  int split;                /* gs_relayout: the split the node was laid out in */
  int cp[GS_MAX_BACKENDS];  /* the first of the copies of this tensor in a backend */
  int gcp;                  /* pipeline copies of a graph input in its own backend */
} gs_tensor;

typedef struct gs_block {
  uint64_t off, size;
} gs_block;

/* ggml_dyn_tallocr: free blocks by offset, the last one the open end */
typedef struct gs_talloc {
  gs_block *fb;
  int n_fb, cap_fb;
  uint64_t align, max;
} gs_talloc;

struct gs_graph {
  gs_tensor *t;
  int n, cap;
  int *order; /* nodes in graph order */
  int n_order, cap_order, n_graph; /* n_graph: the nodes the graph itself holds */
  int *leaves; /* gs_sched: the leaf order of the scheduler's graph copy */
  int n_leaves, cap_leaves, n_backends;
  gs_talloc ta[GS_MAX_BACKENDS]; /* one dynamic allocator per buffer */
  bool failed;
};

gs_graph *gs_new(void) {
  return calloc(1, sizeof(gs_graph));
}

void gs_free(gs_graph *g) {
  if (!g) return;
  free(g->t);
  free(g->order);
  free(g->leaves);
  for (int b = 0; b < GS_MAX_BACKENDS; b++) free(g->ta[b].fb);
  free(g);
}

static bool gs_grow(void **p, int *cap, int need, size_t elem) {
  if (need <= *cap) return true;
  int nc = *cap ? *cap * 2 : 64;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, (size_t)nc * elem);
  if (!q) return false;
  *p = q, *cap = nc;
  return true;
}

static int gs_new_tensor(gs_graph *g, uint64_t bytes) {
  if (g->failed || !gs_grow((void **)&g->t, &g->cap, g->n + 1, sizeof(gs_tensor))) {
    g->failed = true;
    return -1;
  }
  gs_tensor *t = &g->t[g->n];
  memset(t, 0, sizeof *t);
  t->bytes = bytes, t->view_src = -1, t->backend = -1, t->gcp = -1, t->keep_src_of = -1, t->split = -1;
  for (int b = 0; b < GS_MAX_BACKENDS; b++) t->cp[b] = -1;
  return g->n++;
}

int gs_ext(gs_graph *g) {
  int id = gs_new_tensor(g, 0);
  if (id >= 0) g->t[id].ext = true;
  return id;
}

int gs_leaf(gs_graph *g, uint64_t bytes) {
  int id = gs_new_tensor(g, bytes);
  if (id >= 0) g->t[id].leaf = true, g->t[id].flags = GS_INPUT;
  return id;
}

int gs_node(gs_graph *g, uint64_t bytes, unsigned how, int view_src, const int *src, int nsrc) {
  for (int i = 0; i < nsrc; i++)
    if (src[i] < 0 || src[i] >= g->n) g->failed = true;
  if (nsrc > GS_MAX_SRC || (view_src >= g->n)) g->failed = true;
  int id = gs_new_tensor(g, bytes);
  if (id < 0 || !gs_grow((void **)&g->order, &g->cap_order, g->n_order + 1, sizeof(int))) {
    g->failed = true;
    return -1;
  }
  gs_tensor *t = &g->t[id];
  t->how = how, t->nsrc = nsrc;
  memcpy(t->src, src, (size_t)nsrc * sizeof(int));
  if (view_src >= 0) /* ggml_view_impl: a view of a view points at the first source */
    t->view_src = g->t[view_src].view_src >= 0 ? g->t[view_src].view_src : view_src;
  g->order[g->n_order++] = id;
  g->n_graph = g->n_order;
  return id;
}

int gs_ext_at(gs_graph *g, int backend, bool weight) {
  int id = gs_ext(g);
  if (id >= 0) g->t[id].backend = backend, g->t[id].weight = weight, g->t[id].fixed = true;
  return id;
}

int gs_ext_sized(gs_graph *g, int backend, bool weight, uint64_t bytes) {
  int id = gs_ext_at(g, backend, weight);
  if (id >= 0) g->t[id].bytes = bytes; /* never allocated itself: only its copies take it */
  return id;
}

int gs_unsized_copies(const gs_graph *g) {
  int n = 0;
  for (int i = 0; i < g->n; i++) {
    const gs_tensor *t = &g->t[i];
    bool copied = false;
    for (int b = 0; b < g->n_backends && !copied; b++) copied = t->cp[b] >= 0;
    if (t->bytes == 0 && copied) n++; /* an external tensor or a view left unsized */
  }
  return n;
}

void gs_set_gpu_extra(gs_graph *g, int id, uint64_t extra) {
  if (id < 0 || id >= g->n) {
    g->failed = true;
    return;
  }
  g->t[id].gpu_extra = extra;
}

void gs_keep_until(gs_graph *g, int keep_src_of, int until) {
  if (keep_src_of < 0 || keep_src_of >= g->n || until < 0 || until >= g->n) {
    g->failed = true;
    return;
  }
  g->t[until].keep_src_of = keep_src_of;
}

void gs_set_backend(gs_graph *g, int id, int backend) {
  if (id >= 0 && id < g->n) g->t[id].backend = backend, g->t[id].fixed = true;
}

uint64_t gs_bytes(const gs_graph *g, int id) {
  return id >= 0 && id < g->n ? g->t[id].bytes : 0;
}

int gs_n_nodes(const gs_graph *g) {
  return g->n_graph;
}

void gs_set_output(gs_graph *g, int id) {
  if (id >= 0 && id < g->n) g->t[id].flags |= GS_OUTPUT;
}

/* ---------------------------------------------------------------- free blocks */

static uint64_t gs_pad(const gs_talloc *a, uint64_t b) {
  return bytes_ceildiv(b, a->align) * a->align;
}

static void gs_remove_block(gs_talloc *a, int i) {
  memmove(&a->fb[i], &a->fb[i + 1], (size_t)(a->n_fb - i - 1) * sizeof(gs_block));
  a->n_fb--;
}

/* ggml_dyn_tallocr_alloc: the best fit among the blocks before the last, else the last */
static uint64_t gs_alloc(gs_talloc *a, uint64_t bytes) {
  uint64_t size = gs_pad(a, bytes), best_size = UINT64_MAX;
  int best = -1;
  for (int i = 0; i < a->n_fb - 1; i++)
    if (a->fb[i].size >= size && a->fb[i].size <= best_size) best = i, best_size = a->fb[i].size;
  if (best < 0) best = a->n_fb - 1;
  gs_block *b = &a->fb[best];
  uint64_t off = b->off;
  b->off += size, b->size -= size;
  if (b->size == 0) gs_remove_block(a, best);
  if (off + size > a->max) a->max = off + size;
  return off;
}

/* ggml_dyn_tallocr_free_bytes: merge with a neighbour, else insert in address order */
static bool gs_release(gs_talloc *a, uint64_t off, uint64_t bytes) {
  uint64_t size = gs_pad(a, bytes);
  for (int i = 0; i < a->n_fb; i++) {
    gs_block *b = &a->fb[i];
    if (b->off + b->size == off) {
      b->size += size;
      if (i < a->n_fb - 1 && b->off + b->size == a->fb[i + 1].off) {
        b->size += a->fb[i + 1].size;
        gs_remove_block(a, i + 1);
      }
      return true;
    }
    if (off + size == b->off) {
      b->off = off, b->size += size;
      if (i > 0 && a->fb[i - 1].off + a->fb[i - 1].size == b->off) {
        a->fb[i - 1].size += b->size;
        gs_remove_block(a, i);
      }
      return true;
    }
  }
  if (!gs_grow((void **)&a->fb, &a->cap_fb, a->n_fb + 1, sizeof(gs_block))) return false;
  int at = 0;
  while (at < a->n_fb && a->fb[at].off < off) at++;
  memmove(&a->fb[at + 1], &a->fb[at], (size_t)(a->n_fb - at) * sizeof(gs_block));
  a->fb[at] = (gs_block){off, size};
  a->n_fb++;
  return true;
}

/* ---------------------------------------------------------------- graph */

/* ggml_gallocr_allocate_node: views and external tensors take no memory; an in-place
** op takes over a parent it owns with the same size, no other consumer and no views;
** else the tensor goes to buffer `buf` (the backend of the node that needs it) */
static void gs_allocate(gs_graph *g, int id, int buf) {
  gs_tensor *t = &g->t[id];
  if (t->ext || t->own || t->view_src >= 0) return;
  t->own = true;
  for (int i = 0; (t->how & GS_INPLACE) && i < t->nsrc; i++) {
    gs_tensor *p = &g->t[t->src[i]];
    if (!p->own || (p->flags & GS_OUTPUT) || p->bytes != t->bytes) continue;
    if (p->n_children == 1 && p->n_views == 0) {
      t->off = p->off, t->buf = p->buf, t->asize = p->asize;
      p->own = false;
      return;
    }
  }
  t->buf = buf;
  /* ggml_backend_buft_get_alloc_size: a GPU's buffer type may take more (the host is the
  ** last backend) */
  bool gpu = g->n_backends > 1 && buf < g->n_backends - 1;
  t->asize = gpu ? t->bytes + t->gpu_extra : t->bytes;
  t->off = gs_alloc(&g->ta[buf], t->asize);
}

static void gs_release_tensor(gs_graph *g, gs_tensor *t) {
  if (t->flags & GS_OUTPUT) return; /* graph outputs are never freed */
  if (!gs_release(&g->ta[t->buf], t->off, t->asize)) g->failed = true;
  t->own = false;
}

/* after a node ran: a parent with no consumer left is freed (a view frees its source
** once the source has neither consumers nor views) */
static void gs_after(gs_graph *g, const gs_tensor *n) {
  for (int j = 0; j < n->nsrc; j++) {
    gs_tensor *p = &g->t[n->src[j]];
    if (--p->n_children != 0 || p->n_views != 0) continue;
    if (p->view_src >= 0) {
      gs_tensor *v = &g->t[p->view_src];
      if (--v->n_views == 0 && v->n_children == 0 && v->own) gs_release_tensor(g, v);
    } else if (p->own) {
      gs_release_tensor(g, p);
    }
  }
}

static int gs_buf(const gs_graph *g, int id) {
  int b = g->n_backends ? g->t[id].backend : 0;
  return b < 0 ? 0 : b;
}

/* ggml_gallocr_alloc_graph_impl: leafs first, then graph inputs in node order (counting
** consumers and views: a dependency node, op NONE, counts no view), then every node */
static bool gs_run(gs_graph *g, const uint64_t *align, int n_buf) {
  for (int b = 0; b < n_buf; b++) {
    gs_talloc *a = &g->ta[b];
    if (!align[b] || !gs_grow((void **)&a->fb, &a->cap_fb, 1, sizeof(gs_block))) return false;
    a->align = align[b], a->max = 0, a->n_fb = 1;
    a->fb[0] = (gs_block){0, UINT64_MAX / 2};
  }
  if (g->leaves) {
    for (int i = 0; i < g->n_leaves; i++) gs_allocate(g, g->leaves[i], gs_buf(g, g->leaves[i]));
  } else {
    for (int i = 0; i < g->n; i++)
      if (g->t[i].leaf) gs_allocate(g, i, gs_buf(g, i));
  }
  for (int i = 0; i < g->n_order; i++) {
    const gs_tensor *n = &g->t[g->order[i]];
    if (n->view_src >= 0 && !n->dep) g->t[n->view_src].n_views++;
    if (n->flags & GS_INPUT) gs_allocate(g, g->order[i], gs_buf(g, g->order[i]));
    for (int j = 0; j < n->nsrc; j++) {
      g->t[n->src[j]].n_children++;
      if (g->t[n->src[j]].flags & GS_INPUT) gs_allocate(g, n->src[j], gs_buf(g, g->order[i]));
    }
  }
  for (int i = 0; i < g->n_order && !g->failed; i++) {
    int id = g->order[i], b = gs_buf(g, id);
    for (int j = 0; j < g->t[id].nsrc; j++) gs_allocate(g, g->t[id].src[j], b);
    gs_allocate(g, id, b);
    gs_after(g, &g->t[id]);
  }
  return !g->failed;
}

bool gs_plan(gs_graph *g, uint64_t align, uint64_t *size) {
  if (g->failed || g->n_backends) return false;
  bool ok = gs_run(g, &align, 1);
  *size = g->ta[0].max;
  return ok;
}

bool gs_plan_n(gs_graph *g, const uint64_t *align, uint64_t *sizes) {
  if (g->failed || !g->n_backends) return false;
  bool ok = gs_run(g, align, g->n_backends);
  for (int b = 0; b < g->n_backends; b++) sizes[b] = g->ta[b].max;
  return ok;
}

/* ---------------------------------------------------------------- scheduler */

/* ggml_is_view_op: VIEW, RESHAPE, PERMUTE, TRANSPOSE (not CPY / SET_ROWS, which write) */
static bool gs_view_op(const gs_tensor *t) {
  return t->view_src >= 0 && !(t->how & GS_WRITES) && !t->dep;
}

static int gs_bk(const gs_graph *g, int id) {
  const gs_tensor *t = &g->t[id];
  if (t->backend < 0 && t->view_src >= 0) return g->t[t->view_src].backend;
  return t->backend;
}

/* ggml_backend_sched_buffer_supported: every buffer type belongs to one backend here
** (a GPU's own; the host's for the host tensors and the pinned compute buffer) */
static bool gs_supported(const gs_graph *g, int id, int b) {
  return gs_bk(g, id) == b;
}

/* pass 1: pre-allocated views, graph inputs (the host), ops on weights (their backend;
** ops on host weights go to the first GPU when it takes them: ggml_backend_offload_op) */
static int gs_from_cur(const gs_graph *g, const gs_tensor *t, int cpu, bool offload) {
  if (t->view_src >= 0 && g->t[t->view_src].ext) return g->t[t->view_src].backend;
  if (t->flags & GS_INPUT) return cpu;
  for (int j = 0; j < t->nsrc && !(t->how & GS_ROPE); j++) {
    const gs_tensor *s = &g->t[t->src[j]];
    if (!s->ext || !s->weight) continue;
    if (s->backend == cpu && offload && cpu > 0 && !(t->how & GS_NOOFFLOAD)) return 0;
    return s->backend;
  }
  return -1;
}

/* pass 2: spread the assignments to neighbours, GPUs first (skipping the host), then all */
static void gs_expand(gs_graph *g, int cpu, bool up, bool gpu_only) {
  int cur = -1;
  for (int k = 0; k < g->n_order; k++) {
    gs_tensor *t = &g->t[g->order[up ? g->n_order - 1 - k : k]];
    if (gs_view_op(t)) continue;
    if (t->backend != -1)
      cur = gpu_only && t->backend == cpu ? -1 : t->backend;
    else if (cur != -1)
      t->backend = cur;
  }
}

/* pass 3: a node still unassigned goes where most of its inputs are */
static void gs_best(gs_graph *g, gs_tensor *t, int nb) {
  int best = -1;
  for (int b = 0; b < nb; b++) {
    int n = 0;
    for (int j = 0; j < t->nsrc; j++)
      if (gs_bk(g, t->src[j]) != -1 && gs_supported(g, t->src[j], b)) n++;
    if (n > best) best = n, t->backend = b;
  }
}

static bool gs_push(gs_graph *g, int **arr, int *n, int *cap, int v) {
  if (!gs_grow((void **)arr, cap, *n + 1, sizeof(int))) {
    g->failed = true;
    return false;
  }
  (*arr)[(*n)++] = v;
  return true;
}

/* n copies of tensor src (ggml_dup_tensor_layout), kept apart when pipelined */
static int gs_copies(gs_graph *g, int src, int backend, int n, bool pipelined) {
  int first = -1;
  for (int c = 0; c < n; c++) {
    int id = gs_new_tensor(g, g->t[src].bytes);
    if (id < 0) return -1;
    if (c == 0) first = id;
    g->t[id].backend = backend, g->t[id].fixed = true;
    if (pipelined) g->t[id].flags = GS_INPUT | GS_OUTPUT;
  }
  return first;
}

typedef struct gs_split {
  int start, end, backend, in0, n_in; /* inputs: ins[in0 .. in0 + n_in) */
} gs_split;

typedef struct gs_sp {
  gs_split *s;
  int n, cap;
  int *ins, n_ins, cap_ins;
  int *gin, n_gin, cap_gin; /* graph inputs copied for the pipeline */
} gs_sp;

/* pass 5 for one node: its split, and copies of the sources that live elsewhere */
static void gs_split_node(gs_graph *g, gs_sp *sp, int i, int n_copies) {
  gs_tensor *t = &g->t[g->order[i]];
  gs_split *cur = &sp->s[sp->n - 1];
  bool fresh = false;
  if (t->backend == cur->backend && cur->n_in > 0)
    for (int j = 0; j < t->nsrc && !fresh; j++) {
      const gs_tensor *s = &g->t[t->src[j]];
      fresh = s->ext && s->weight && s->backend != cur->backend;
    }
  if (t->backend != cur->backend || fresh) {
    cur->end = i;
    if (!gs_grow((void **)&sp->s, &sp->cap, sp->n + 1, sizeof(gs_split))) {
      g->failed = true;
      return;
    }
    cur = &sp->s[sp->n++];
    *cur = (gs_split){i, g->n_order, t->backend, sp->n_ins, 0};
  }
  int nsrc = t->nsrc; /* gs_copies may move g->t: t is not read below */
  for (int j = 0; j < nsrc; j++) {
    int src = g->t[g->order[i]].src[j], sb = gs_bk(g, src);
    if ((g->t[src].flags & GS_INPUT) && n_copies > 1 && g->t[src].gcp < 0 && !g->t[src].ext) {
      int first = gs_copies(g, src, sb, n_copies - 1, true);
      if (first < 0 || !gs_push(g, &sp->gin, &sp->n_gin, &sp->cap_gin, src)) return;
      g->t[src].gcp = first, g->t[src].flags |= GS_OUTPUT;
    }
    if (sb == cur->backend || gs_supported(g, src, cur->backend)) continue;
    if (g->t[src].cp[cur->backend] < 0) {
      int first = gs_copies(g, src, cur->backend, n_copies, n_copies > 1);
      if (first < 0 || !gs_push(g, &sp->ins, &sp->n_ins, &sp->cap_ins, src)) return;
      g->t[src].cp[cur->backend] = first;
      cur->n_in++;
    }
    g->t[g->order[i]].src[j] = g->t[src].cp[cur->backend];
  }
}

/* the scheduler's graph copy: per split, a dependency on each input and its copy, then
** the split's nodes; leaves: pipeline copies, then the graph's own */
static void gs_relayout(gs_graph *g, gs_sp *sp, int n_copies) {
  int *order = NULL, n = 0, cap = 0;
  for (int k = 0; k < sp->n && !g->failed; k++) {
    const gs_split *s = &sp->s[k];
    for (int j = 0; j < s->n_in; j++) {
      int in = sp->ins[s->in0 + j], dep = gs_new_tensor(g, 0);
      if (dep < 0) break;
      gs_tensor *d = &g->t[dep];
      d->dep = true, d->nsrc = 1, d->src[0] = in, d->backend = gs_bk(g, in);
      d->view_src = g->t[in].view_src >= 0 ? g->t[in].view_src : in;
      gs_push(g, &order, &n, &cap, dep);
      gs_push(g, &order, &n, &cap, g->t[in].cp[s->backend]);
    }
    for (int i = s->start; i < s->end; i++) {
      gs_tensor *t = &g->t[g->order[i]];
      t->split = k;
      gs_push(g, &order, &n, &cap, g->order[i]);
      /* a GPU backend's graph_optimize asked that a node's sources outlive it until this
      ** node (ggml_backend_graph_optimize_params.add_alloc_dep): a dependency node, op
      ** NONE, after it reading them; only when both sit in this split, which the backend
      ** sees whole */
      int m = t->keep_src_of;
      if (m < 0 || s->backend == g->n_backends - 1 || g->t[m].split != k) continue;
      int dep = gs_new_tensor(g, 0);
      if (dep < 0) break;
      gs_tensor *d = &g->t[dep], *mt = &g->t[m];
      d->dep = true, d->nsrc = mt->nsrc, d->backend = s->backend;
      memcpy(d->src, mt->src, (size_t)mt->nsrc * sizeof(int));
      d->view_src = g->t[mt->src[0]].view_src >= 0 ? g->t[mt->src[0]].view_src : mt->src[0];
      gs_push(g, &order, &n, &cap, dep);
    }
  }
  free(g->order);
  g->order = order, g->n_order = n, g->cap_order = cap;
  for (int k = 0; n_copies > 1 && k < sp->n_gin; k++) {
    int in = sp->gin[k];
    gs_push(g, &g->leaves, &g->n_leaves, &g->cap_leaves, in);
    for (int c = 1; c < n_copies; c++) gs_push(g, &g->leaves, &g->n_leaves, &g->cap_leaves, g->t[in].gcp + c - 1);
  }
  for (int k = 0; n_copies > 1 && k < sp->n; k++)
    for (int j = 0; j < sp->s[k].n_in; j++)
      for (int c = 0; c < n_copies; c++)
        gs_push(g, &g->leaves, &g->n_leaves, &g->cap_leaves, g->t[sp->ins[sp->s[k].in0 + j]].cp[sp->s[k].backend] + c);
  for (int i = 0; i < g->n; i++)
    if (g->t[i].leaf) gs_push(g, &g->leaves, &g->n_leaves, &g->cap_leaves, i);
}

int gs_sched(gs_graph *g, int n_backends, int n_copies, bool op_offload) {
  if (g->failed || g->n_backends || n_backends < 1 || n_backends > GS_MAX_BACKENDS || n_copies < 1) return 0;
  int cpu = n_backends - 1;
  g->n_backends = n_backends;
  for (int i = 0; i < g->n; i++)
    if (g->t[i].leaf && g->t[i].backend < 0) g->t[i].backend = cpu;
  for (int i = 0; i < g->n_order; i++) {
    gs_tensor *t = &g->t[g->order[i]];
    if (!t->fixed) t->backend = gs_from_cur(g, t, cpu, op_offload);
  }
  gs_expand(g, cpu, false, true), gs_expand(g, cpu, true, true);
  gs_expand(g, cpu, false, false), gs_expand(g, cpu, true, false);
  for (int i = 0; i < g->n_order; i++) {
    gs_tensor *t = &g->t[g->order[i]];
    if (!gs_view_op(t) && t->backend == -1) gs_best(g, t, n_backends);
  }
  for (int i = 0; i < g->n_order; i++) { /* pass 4: views and leftover sources */
    gs_tensor *t = &g->t[g->order[i]];
    if (t->view_src >= 0 && t->backend == -1) t->backend = g->t[t->view_src].backend;
    for (int j = 0; j < t->nsrc; j++) {
      gs_tensor *s = &g->t[t->src[j]];
      if (s->backend == -1) s->backend = s->view_src >= 0 ? g->t[s->view_src].backend : t->backend;
    }
  }
  gs_sp sp = {0};
  int i = 0;
  while (i < g->n_order && gs_view_op(&g->t[g->order[i]])) i++;
  if (gs_grow((void **)&sp.s, &sp.cap, 1, sizeof(gs_split))) {
    sp.s[sp.n++] = (gs_split){0, g->n_order, i < g->n_order ? g->t[g->order[i]].backend : cpu, 0, 0};
    for (; i < g->n_order && !g->failed; i++)
      if (!gs_view_op(&g->t[g->order[i]])) gs_split_node(g, &sp, i, n_copies);
    gs_relayout(g, &sp, n_copies);
  } else {
    g->failed = true;
  }
  int n_splits = sp.n;
  free(sp.s), free(sp.ins), free(sp.gin);
  return g->failed ? 0 : n_splits;
}
