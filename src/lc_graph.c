/*
** lc_graph.c: llama.cpp's worst-case decoder graph (n_ubatch tokens, each an output) as
** the allocator sees it, in the order ggml_build_forward_expand leaves it: the inputs
** of llm_graph_context (tokens, the unused embeddings input, positions, KV row indices,
** the KQ mask, output ids), then per layer the tensors of src/models/llama.cpp with
** build_attn, build_ffn and build_moe_ffn of src/llama-graph.cpp (commit 80fb11a),
** then the output norm and the f32 logits. Views of weights and of the KV cache take no
** compute memory and are left out. Uses ggml_alloc_sim.h.
*/
#include "ggml_alloc_sim.h"

typedef struct lg {
  gs_graph *g;
  const lc_graph_spec *sp;
  bytes_acc a;
  int w;                    /* any weight or cache tensor: external memory */
  int pos, k_rot, v_rot, out_ids;
  int k_idx[2], v_idx[2], mask[2];
} lg;

static int lg_op(lg *l, uint64_t bytes, unsigned how, int s0, int s1) {
  int src[2] = {s0, s1};
  return gs_node(l->g, bytes, how, -1, src, s1 < 0 ? 1 : 2);
}

static int lg_view(lg *l, int of) {
  int src[1] = {of};
  return gs_node(l->g, 0, 0, of, src, 1);
}

/* f32 activations of `width` per token */
static uint64_t lg_f32(lg *l, uint64_t width, uint64_t tokens) {
  return acc_mul3(&l->a, width, tokens, 4);
}

/* ggml_set_rows into the cache: a view of the cache fed by the new rows and indices */
static void lg_store(lg *l, int rows, int idx) {
  int src[3] = {lg_view(l, rows), idx, l->w};
  gs_node(l->g, 0, 0, l->w, src, 3);
}

/* build_input_k_rot / v_rot: Hadamard rotation of quantized-cache rows */
static int lg_rot(lg *l, int x, int rot, uint64_t bytes) {
  if (rot < 0) return x;
  int r = lg_op(l, bytes, 0, rot, lg_view(l, x));
  return lg_view(l, r);
}

/* Q, K, V projections, RoPE, the cache stores (build_qkv, build_attn's expands) */
static int lg_qkv(lg *l, int an, int c) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok;
  uint64_t qb = lg_f32(l, sp->heads * sp->head_k, T);
  uint64_t kb = lg_f32(l, sp->kv_heads * sp->head_k, T), vb = lg_f32(l, sp->kv_heads * sp->head_v, T);
  int q = lg_op(l, qb, GS_INPLACE, lg_view(l, lg_op(l, qb, 0, l->w, an)), l->pos);
  q = lg_rot(l, q, l->k_rot, qb);
  int v = lg_op(l, vb, 0, l->w, an);
  int vr = lg_rot(l, lg_view(l, v), l->v_rot, vb);
  int k = lg_op(l, kb, GS_INPLACE, lg_view(l, lg_op(l, kb, 0, l->w, an)), l->pos);
  k = lg_rot(l, k, l->k_rot, kb);
  lg_store(l, k, l->k_idx[c]);
  lg_store(l, sp->fa ? vr : lg_view(l, vr), l->v_idx[c]); /* V is stored transposed without FA */
  return lg_view(l, lg_view(l, q));                       /* Q permuted per head */
}

/* build_attn_mha: flash attention, or KQ = K x Q, softmax in place, KQV, merged heads */
static int lg_attn(lg *l, int an, int c) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, ob = lg_f32(l, sp->heads * sp->head_v, T);
  int q = lg_qkv(l, an, c), o;
  if (sp->fa) {
    int src[4] = {q, l->w, l->w, l->mask[c]};
    o = lg_view(l, gs_node(l->g, ob, 0, -1, src, 4));
  } else {
    uint64_t kq = acc_mul(&l->a, lg_f32(l, sp->n_kv[c], T), sp->heads);
    int sm = lg_op(l, kq, GS_INPLACE, lg_op(l, kq, 0, l->w, q), l->mask[c]);
    o = lg_op(l, ob, 0, lg_view(l, lg_op(l, ob, 0, l->w, sm)), -1);
  }
  o = lg_rot(l, o, l->v_rot, ob);
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, l->w, o);
}

/* build_moe_ffn: softmax router, top-k, normalized weights, expert matmuls, weighted sum */
static int lg_moe(lg *l, int x) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, k = sp->experts_used ? sp->experts_used : 1;
  int probs = lg_op(l, lg_f32(l, sp->experts, T), GS_INPLACE, lg_op(l, lg_f32(l, sp->experts, T), 0, l->w, x), -1);
  int pr = lg_view(l, probs);
  int topk = lg_view(l, lg_op(l, lg_f32(l, sp->experts, T), 0, probs, -1));
  int wts = lg_view(l, lg_op(l, lg_f32(l, k, T), 0, pr, topk));
  int sum = lg_op(l, lg_f32(l, 1, T), GS_INPLACE, lg_op(l, lg_f32(l, 1, T), 0, wts, -1), -1);
  int wn = lg_view(l, lg_op(l, lg_f32(l, k, T), GS_INPLACE, wts, sum));
  int xr = lg_view(l, x);
  uint64_t fb = acc_mul(&l->a, lg_f32(l, sp->ffn, T), k);
  int src[3] = {l->w, xr, topk};
  int gate = sp->gated ? gs_node(l->g, fb, 0, -1, src, 3) : -1;
  int up = gs_node(l->g, fb, 0, -1, src, 3);
  int act = sp->gated ? lg_op(l, fb, 0, gate, up) : lg_op(l, fb, GS_INPLACE, up, -1);
  int dsrc[3] = {l->w, act, topk};
  uint64_t hb = lg_f32(l, sp->hidden, T);
  int down = gs_node(l->g, acc_mul(&l->a, hb, k), 0, -1, dsrc, 3);
  int weighted = lg_op(l, acc_mul(&l->a, hb, k), GS_INPLACE, down, wn);
  int views[64];
  uint64_t nv = k < 64 ? k : 64;
  for (uint64_t i = 0; i < nv; i++) views[i] = lg_view(l, weighted);
  int out = nv == 1 ? lg_op(l, hb, 0, views[0], -1) : lg_op(l, hb, GS_INPLACE, views[0], views[1]);
  for (uint64_t i = 2; i < nv; i++) out = lg_op(l, hb, GS_INPLACE, out, views[i]);
  return out;
}

/* build_ffn: gate and up, SwiGLU (not in place) or an in-place activation, down */
static int lg_ffn(lg *l, int x) {
  const lc_graph_spec *sp = l->sp;
  if (sp->experts) return lg_moe(l, x);
  uint64_t T = sp->n_tok, fb = lg_f32(l, sp->ffn, T);
  int act;
  if (sp->gated) {
    int gate = lg_op(l, fb, 0, l->w, x);
    act = lg_op(l, fb, 0, gate, lg_op(l, fb, 0, l->w, x));
  } else {
    act = lg_op(l, fb, GS_INPLACE, lg_op(l, fb, 0, l->w, x), -1);
  }
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, l->w, act);
}

/* RMS norm then the weight, both in place */
static int lg_norm(lg *l, int x) {
  uint64_t b = lg_f32(l, l->sp->hidden, l->sp->n_tok);
  return lg_op(l, b, GS_INPLACE, lg_op(l, b, GS_INPLACE, x, -1), l->w);
}

static int lg_layer(lg *l, int in, uint64_t il) {
  const lc_graph_spec *sp = l->sp;
  int c = il >= sp->n_layer - sp->n_swa && sp->n_swa ? 1 : 0;
  uint64_t hb = lg_f32(l, sp->hidden, sp->n_tok);
  int cur = lg_attn(l, lg_norm(l, in), c), sa = in;
  if (il == sp->n_layer - 1) { /* inp_out_ids: the rows that produce outputs */
    cur = lg_op(l, hb, 0, cur, l->out_ids);
    sa = lg_op(l, hb, 0, sa, l->out_ids);
  }
  int ffn_inp = lg_op(l, hb, GS_INPLACE, cur, sa);
  return lg_op(l, hb, GS_INPLACE, lg_ffn(l, lg_norm(l, ffn_inp)), ffn_inp);
}

/* the inputs, allocated first in the order the graph reaches them */
static int lg_inputs(lg *l) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, kvv = sp->kv_heads * sp->head_v;
  int tokens = gs_leaf(l->g, acc_mul(&l->a, T, 4));
  gs_leaf(l->g, lg_f32(l, sp->hidden, T)); /* inp_embd: selected away, never freed */
  l->k_rot = sp->rot_k ? gs_leaf(l->g, lg_f32(l, sp->rot_k_n, sp->rot_k_n)) : -1;
  l->pos = gs_leaf(l->g, acc_mul(&l->a, T, 4));
  l->v_rot = sp->rot_v ? gs_leaf(l->g, lg_f32(l, 64, 64)) : -1;
  for (int c = 0; c < (sp->n_swa ? 2 : 1); c++) {
    l->k_idx[c] = gs_leaf(l->g, acc_mul(&l->a, T, 8));
    l->v_idx[c] = gs_leaf(l->g, acc_mul3(&l->a, T, sp->fa ? 1 : kvv, 8));
    l->mask[c] = gs_leaf(l->g, acc_mul3(&l->a, sp->n_kv[c], T, sp->fa ? 2 : 4));
  }
  if (!sp->n_swa) l->k_idx[1] = l->k_idx[0], l->v_idx[1] = l->v_idx[0], l->mask[1] = l->mask[0];
  l->out_ids = gs_leaf(l->g, acc_mul(&l->a, T, 4));
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, l->w, tokens); /* get_rows */
}

bool lc_graph_compute_buffer(const lc_graph_spec *sp, uint64_t align, uint64_t *size) {
  lg l = {.g = gs_new(), .sp = sp, .a = {0, false}};
  if (!l.g) return false;
  l.w = gs_ext(l.g);
  int cur = lg_inputs(&l);
  for (uint64_t il = 0; il < sp->n_layer; il++) cur = lg_layer(&l, cur, il);
  int norm = lg_norm(&l, cur);
  gs_set_output(l.g, norm);
  gs_set_output(l.g, lg_op(&l, lg_f32(&l, sp->vocab, sp->n_tok), 0, l.w, norm));
  bool ok = gs_plan(l.g, align, size) && !l.a.overflow;
  gs_free(l.g);
  return ok;
}
