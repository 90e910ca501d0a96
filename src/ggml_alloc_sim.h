/*
** ggml_alloc_sim.h: a model of ggml-alloc's graph allocator (ggml/src/ggml-alloc.c,
** ggml_gallocr_alloc_graph_impl over one ggml_dyn_tallocr chunk) run on a graph that
** holds only what the allocator looks at: sizes, sources, views, in-place ops and the
** input/output flags; and the llama.cpp decoder graph built for it (lc_graph.c).
** Plain C; no Lua. Uses bytes.h.
*/
#ifndef VF_GGML_ALLOC_SIM_H
#define VF_GGML_ALLOC_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "bytes.h"

#define GS_MAX_SRC 4
enum { GS_INPUT = 1, GS_OUTPUT = 2 }; /* GGML_TENSOR_FLAG_INPUT / _OUTPUT */
enum { GS_INPLACE = 1 };              /* ggml_op_can_inplace(op) */

typedef struct gs_graph gs_graph;

gs_graph *gs_new(void);
void gs_free(gs_graph *g); /* NULL is a no-op */
/* a tensor in another buffer (weights, the KV cache): never allocated here */
int gs_ext(gs_graph *g);
/* a graph input leaf (allocated first, in creation order) */
int gs_leaf(gs_graph *g, uint64_t bytes);
/* a node computed in graph order; view_src >= 0 makes it a view (no memory) of that
** tensor's own source; returns its id, -1 once the graph ran out of memory */
int gs_node(gs_graph *g, uint64_t bytes, unsigned how, int view_src, const int *src, int nsrc);
void gs_set_output(gs_graph *g, int id);
/* the buffer ggml_gallocr_reserve would allocate (alignment: the buffer type's);
** false when the graph could not be built (out of memory) */
bool gs_plan(gs_graph *g, uint64_t align, uint64_t *size);

/* llama.cpp's decoder graph for the worst-case reserve (llama_context::graph_reserve:
** n_ubatch tokens, every one an output), the shape of src/models/llama.cpp with
** build_attn / build_ffn / build_moe_ffn of src/llama-graph.cpp */
typedef struct lc_graph_spec {
  uint64_t n_tok, n_stream, n_layer, hidden, vocab;
  uint64_t heads, kv_heads, head_k, head_v, ffn, experts, experts_used;
  uint64_t n_kv[2];  /* cells per stream: full-attention cache, sliding-window cache */
  uint64_t n_swa;    /* layers that use the sliding-window cache (the last ones) */
  bool fa, gated, rot_k, rot_v;
  uint64_t rot_k_n;  /* side of the K Hadamard rotation (build_input_k_rot) */
} lc_graph_spec;

/* the CPU compute buffer of that graph; false on out of memory or overflow */
bool lc_graph_compute_buffer(const lc_graph_spec *sp, uint64_t align, uint64_t *size);

#endif
