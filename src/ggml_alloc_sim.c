/*
** ggml_alloc_sim.c: replays ggml-alloc's graph allocation (ggml/src/ggml-alloc.c of the
** llama.cpp bundled with node-llama-cpp 3.x, commit 80fb11a) on a graph of sizes and
** lifetimes: inputs first, then each node in order, reusing a parent's memory in place
** when the op allows and the parent has no other consumer, freeing a tensor after its
** last consumer; best-fit free blocks with merging; the buffer is the highest offset.
** Uses bytes.h; checked against the real allocator by tests/conformance.
*/
#include <stdlib.h>
#include <string.h>

#include "ggml_alloc_sim.h"

typedef struct gs_tensor {
  uint64_t bytes, off;
  int src[GS_MAX_SRC], nsrc, view_src, n_children, n_views;
  unsigned how, flags;
  bool ext, leaf, own;
} gs_tensor;

typedef struct gs_block {
  uint64_t off, size;
} gs_block;

struct gs_graph {
  gs_tensor *t;
  int n, cap;
  int *order; /* nodes in graph order */
  int n_order, cap_order;
  gs_block *fb; /* free blocks by offset; the last one is the open end */
  int n_fb, cap_fb;
  uint64_t align, max;
  bool failed;
};

gs_graph *gs_new(void) {
  return calloc(1, sizeof(gs_graph));
}

void gs_free(gs_graph *g) {
  if (!g) return;
  free(g->t);
  free(g->order);
  free(g->fb);
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
  t->bytes = bytes, t->view_src = -1;
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
  return id;
}

void gs_set_output(gs_graph *g, int id) {
  if (id >= 0 && id < g->n) g->t[id].flags |= GS_OUTPUT;
}

/* ---------------------------------------------------------------- free blocks */

static uint64_t gs_pad(const gs_graph *g, uint64_t b) {
  return bytes_ceildiv(b, g->align) * g->align;
}

static void gs_remove_block(gs_graph *g, int i) {
  memmove(&g->fb[i], &g->fb[i + 1], (size_t)(g->n_fb - i - 1) * sizeof(gs_block));
  g->n_fb--;
}

/* ggml_dyn_tallocr_alloc: the best fit among the blocks before the last, else the last */
static uint64_t gs_alloc(gs_graph *g, uint64_t bytes) {
  uint64_t size = gs_pad(g, bytes), best_size = UINT64_MAX;
  int best = -1;
  for (int i = 0; i < g->n_fb - 1; i++)
    if (g->fb[i].size >= size && g->fb[i].size <= best_size) best = i, best_size = g->fb[i].size;
  if (best < 0) best = g->n_fb - 1;
  gs_block *b = &g->fb[best];
  uint64_t off = b->off;
  b->off += size, b->size -= size;
  if (b->size == 0) gs_remove_block(g, best);
  if (off + size > g->max) g->max = off + size;
  return off;
}

/* ggml_dyn_tallocr_free_bytes: merge with a neighbour, else insert in address order */
static void gs_release(gs_graph *g, uint64_t off, uint64_t bytes) {
  uint64_t size = gs_pad(g, bytes);
  for (int i = 0; i < g->n_fb; i++) {
    gs_block *b = &g->fb[i];
    if (b->off + b->size == off) {
      b->size += size;
      if (i < g->n_fb - 1 && b->off + b->size == g->fb[i + 1].off) {
        b->size += g->fb[i + 1].size;
        gs_remove_block(g, i + 1);
      }
      return;
    }
    if (off + size == b->off) {
      b->off = off, b->size += size;
      if (i > 0 && g->fb[i - 1].off + g->fb[i - 1].size == b->off) {
        g->fb[i - 1].size += b->size;
        gs_remove_block(g, i);
      }
      return;
    }
  }
  if (!gs_grow((void **)&g->fb, &g->cap_fb, g->n_fb + 1, sizeof(gs_block))) {
    g->failed = true;
    return;
  }
  int at = 0;
  while (at < g->n_fb && g->fb[at].off < off) at++;
  memmove(&g->fb[at + 1], &g->fb[at], (size_t)(g->n_fb - at) * sizeof(gs_block));
  g->fb[at] = (gs_block){off, size};
  g->n_fb++;
}

/* ---------------------------------------------------------------- graph */

/* ggml_gallocr_allocate_node: views and external tensors take no memory; an in-place
** op takes over a parent it owns with the same size, no other consumer and no views */
static void gs_allocate(gs_graph *g, int id) {
  gs_tensor *t = &g->t[id];
  if (t->ext || t->own || t->view_src >= 0) return;
  t->own = true;
  for (int i = 0; (t->how & GS_INPLACE) && i < t->nsrc; i++) {
    gs_tensor *p = &g->t[t->src[i]];
    if (!p->own || (p->flags & GS_OUTPUT) || p->bytes != t->bytes) continue;
    if (p->n_children == 1 && p->n_views == 0) {
      t->off = p->off;
      p->own = false;
      return;
    }
  }
  t->off = gs_alloc(g, t->bytes);
}

static void gs_release_tensor(gs_graph *g, gs_tensor *t) {
  if (t->flags & GS_OUTPUT) return; /* graph outputs are never freed */
  gs_release(g, t->off, t->bytes);
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

bool gs_plan(gs_graph *g, uint64_t align, uint64_t *size) {
  if (g->failed || !align || !gs_grow((void **)&g->fb, &g->cap_fb, 1, sizeof(gs_block))) return false;
  g->align = align, g->max = 0, g->n_fb = 1;
  g->fb[0] = (gs_block){0, UINT64_MAX / 2};
  for (int i = 0; i < g->n; i++)
    if (g->t[i].leaf) gs_allocate(g, i);
  for (int i = 0; i < g->n_order; i++) {
    const gs_tensor *n = &g->t[g->order[i]];
    if (n->view_src >= 0) g->t[n->view_src].n_views++;
    for (int j = 0; j < n->nsrc; j++) g->t[n->src[j]].n_children++;
  }
  for (int i = 0; i < g->n_order && !g->failed; i++) {
    gs_allocate(g, g->order[i]);
    gs_after(g, &g->t[g->order[i]]);
  }
  *size = g->max;
  return !g->failed;
}
