/*
** lc_graph.c: llama.cpp's worst-case decoder graph (n_ubatch tokens, n_out of them
** outputs: from the last layer's get_rows on, the ops run on those rows) as
** the allocator sees it, in the order ggml_build_forward_expand leaves it: the inputs
** of llm_graph_context (tokens, the unused embeddings input, positions, KV row indices,
** the KQ mask, output ids), then per layer the tensors of src/models/llama.cpp with
** build_attn, build_ffn and build_moe_ffn of src/llama-graph.cpp (commit 80fb11a),
** then the output norm and the f32 logits. Views of weights and of the KV cache take no
** compute memory and are left out. Also the llm_build_context graph of older builds
** (b4385, src/llama.cpp) for llama's and GPT-NeoX's layers, and both on GPUs: weights and
** caches per device, scheduled by gs_sched: there each weight an op reads and each
** layer's K and V are tensors of their own, sized as a GPU copy of them, since a split on
** the first GPU copies the host ones it reads. Uses ggml_alloc_sim.h.
*/
#include "ggml_alloc_sim.h"

/* a Mamba-2 mixer's expanded part: in_proj's product, the scan, x */
typedef struct { int zx, scan, x; } lg_m2_part;

typedef struct lg {
  gs_graph *g;
  const lc_graph_spec *sp;
  bytes_acc a;
  int w;                    /* the current layer's weights (external memory) */
  int wbk;                  /* ... their backend */
  int kc, vc;               /* the current layer's K and V cache */
  int wb[GS_MAX_BACKENDS], cb[GS_MAX_BACKENDS]; /* weights and caches per backend */
  long il;                  /* the layer being built; -1 outside the layers */
  uint64_t T;               /* the rows the ops process: n_tok, then n_out from the last
                            ** layer's get_rows of the output rows on */
  int pos, k_rot[2], v_rot[2], out_ids, attn_scale; /* rotations per cache (base, SWA) */
  int s_copy, s_main, s_extra; /* the recurrent states' row indices and their two views */
  int sc_rs;                /* a short-conv layer's state rows, got ahead of its layer (-1: none) */
  lg_m2_part fh_m2;         /* Falcon-H1: the layer's Mamba-2 head, built inside its attention */
  int sa_in, sa_rows;       /* res_first: the layer's input, and the last layer's output rows of it */
  bool defer_wo;            /* lg_attn returns kqv_out, the caller applies the output projection */
  int k_idx[2], v_idx[2], mask[2];
  int mask_swa[2];           /* legacy graph: KQ_mask_swa and its f16 cast (legacy_swa_period) */
  int mask_f16[2];          /* mask_cast: each cache's f16 cast of its mask, made at its first use */
  int g4_tok;               /* Gemma 4: build_inp_per_layer's own tokens input (-1: none) */
} lg;

static bool lg_sc_layer(const lc_graph_spec *sp, uint64_t il);
static void lg_next_rs(lg *l);
static void lg_next_rs_at(lg *l, bool after_moe);
static int lg_m2(lg *l, int an, int rs);
static lg_m2_part lg_m2_head(lg *l, int an, int rs);
static int lg_norm(lg *l, int x, int kind);
static uint64_t lg_conv_row(const lc_graph_spec *sp);
static int lg_rs(lg *l, int cache, uint64_t width);

/* an op; on fewer than 32 rows (the output rows after the last layer's get_rows) the
** CUDA backend does not take it from host weights (get_op_batch_size) */
static int lg_op(lg *l, uint64_t bytes, unsigned how, int s0, int s1) {
  int src[2] = {s0, s1};
  return gs_node(l->g, bytes, how | (l->T < 32 ? GS_NOOFFLOAD : 0), -1, src, s1 < 0 ? 1 : 2);
}

/* a view of `bytes` (ggml_nbytes of the view, what a copy of it takes: a split on
** another backend that reads it copies it) */
static int lg_view_n(lg *l, int of, uint64_t bytes) {
  int src[1] = {of};
  return gs_node(l->g, bytes, 0, of, src, 1);
}

/* a reshape, permute or transpose of all of `of` */
static int lg_view(lg *l, int of) {
  return lg_view_n(l, of, gs_bytes(l->g, of));
}

/* ggml_nbytes of a 2-D f32 view of ne0 x ne1 with a row stride of nb1 */
static uint64_t lg_view2(lg *l, uint64_t ne0, uint64_t ne1, uint64_t nb1) {
  return ne1 ? acc_add(&l->a, ne0 * 4, acc_mul(&l->a, ne1 - 1, nb1)) : 0;
}

/* the backend of device d (-1: the host, the last backend) */
static int lg_backend(const lg *l, int d) {
  return d < 0 || l->sp->n_gpu == 0 ? l->sp->n_gpu : d;
}

/* the cache of layer il: 1 the sliding-window one (set_swa_pattern's period, else the last
** n_swa layers) */
static int lg_cache_of(const lc_graph_spec *sp, uint64_t il) {
  if (sp->swa_period) return il % sp->swa_period < sp->swa_period - 1 ? 1 : 0;
  return il >= sp->n_layer - sp->n_swa && sp->n_swa ? 1 : 0;
}

/* Llama 4's layers without RoPE (n_no_rope_layer_step) */
static bool lg_nope(const lc_graph_spec *sp, uint64_t il) {
  return sp->nope_step && (il + 1) % sp->nope_step == 0;
}

/* layer il's weights and cache (il == n_layer: the output layer); on GPUs the layer's K
** and V are tensors of their own, sized as a copy of their views */
static void lg_at_layer(lg *l, long il) {
  const lc_graph_spec *sp = l->sp;
  l->il = il < (long)sp->n_layer ? il : -1;
  if (!sp->layer_dev) return;
  l->wbk = lg_backend(l, sp->layer_dev[il]);
  l->w = l->wb[l->wbk];
  if (il >= (long)sp->n_layer) return;
  int kb = lg_backend(l, sp->kv_dev[il]), c = lg_cache_of(sp, (uint64_t)il);
  l->kc = gs_ext_sized(l->g, kb, false, sp->kv_bytes[c][0]);
  l->vc = gs_ext_sized(l->g, kb, false, sp->kv_bytes[c][1]);
}

/* a view of the layer's K or V as the attention reads it (legacy graph) */
static int lg_cache_view(lg *l, int cache, int kv) {
  const lc_graph_spec *sp = l->sp;
  int src[1] = {cache};
  uint64_t b = sp->layer_dev && l->il >= 0 ? sp->kv_bytes[lg_cache_of(sp, (uint64_t)l->il)][kv] : 0;
  return gs_node(l->g, b, 0, cache, src, 1);
}

/* the current layer's weight of a kind (LW_*): on GPUs a tensor of its own, so that an op
** the first GPU takes from the host copies exactly it; one external tensor on the CPU */
static int lg_w(lg *l, int kind) {
  const lc_graph_spec *sp = l->sp;
  if (!sp->layer_dev) return l->w;
  uint64_t row = l->il >= 0 ? (uint64_t)l->il : sp->n_layer;
  int bk = l->wbk;
  int base = kind & ~LW_BIAS;
  bool exps = base == LW_GATE_EXPS || base == LW_UP_EXPS || base == LW_DOWN_EXPS;
  if (sp->exps_dev && l->il >= 0 && exps)
    bk = lg_backend(l, sp->exps_dev[l->il]); /* experts kept on the host (--n-cpu-moe) */
  if (sp->part_cls && l->il >= 0 && sp->part_cls[l->il]) { /* --fit's partial layers */
    unsigned cls = base == LW_ROUTER || base == LW_SH_GATE_INP                     ? LC_PART_R
                   : base == LW_GATE || base == LW_GATE_EXPS || base == LW_SH_GATE ? LC_PART_G
                   : base == LW_UP || base == LW_UP_EXPS || base == LW_SH_UP       ? LC_PART_U
                   : base == LW_DOWN || base == LW_DOWN_EXPS || base == LW_SH_DOWN ? LC_PART_D
                                                                                  : 0;
    if (exps) cls |= LC_PART_X;
    if (cls & sp->part_cls[l->il]) bk = lg_backend(l, sp->part_dev[l->il]);
  }
  return gs_ext_sized(l->g, bk, true, sp->wbytes ? sp->wbytes[row * LW_N + (uint64_t)kind] : 0);
}

/* the graph callback's "norm": pinned to the layer's device */
static int lg_named_norm(lg *l, int id) {
  if (l->sp->force_norm && l->il >= 0 && l->sp->layer_dev) gs_set_backend(l->g, id, lg_backend(l, l->sp->layer_dev[l->il]));
  return id;
}

/* f32 activations of `width` per token */
static uint64_t lg_f32(lg *l, uint64_t width, uint64_t tokens) {
  return acc_mul3(&l->a, width, tokens, 4);
}

/* ggml_set_rows into the cache: a view of the cache fed by the new rows and indices */
static void lg_store(lg *l, int rows, int idx, int cache) {
  int src[3] = {lg_view(l, rows), idx, cache};
  if (idx < 0) src[1] = cache; /* cpy_store: ggml_cpy into a view of the cache, no indices */
  gs_node(l->g, 0, GS_WRITES, cache, src, idx < 0 ? 2 : 3);
}

/* build_input_k_rot / v_rot: Hadamard rotation of quantized-cache rows */
static int lg_rot(lg *l, int x, int rot, uint64_t bytes) {
  if (rot < 0) return x;
  int r = lg_op(l, bytes, 0, rot, lg_view(l, x));
  return lg_view(l, r);
}

/* build_qkv's projection of a kind, and its bias added in place (glm4moe's attention) */
static int lg_proj(lg *l, int x, uint64_t bytes, int kind) {
  int p = lg_op(l, bytes, 0, lg_w(l, kind), x);
  return l->sp->qkv_bias ? lg_op(l, bytes, GS_INPLACE, p, lg_w(l, kind + LW_BIAS)) : p;
}

/* Q or K: the projection reshaped, RoPE in place, then Llama 4's weightless RMS norm; on the
** no-RoPE layers (nope_step) Q multiplied by the attn_scale input instead (Llama 4: nope_scale)
** and K left as it is */
static int lg_qk(lg *l, int an, uint64_t bytes, int kind) {
  const lc_graph_spec *sp = l->sp;
  int x = lg_view(l, lg_proj(l, an, bytes, kind));
  if (l->il >= 0 && lg_nope(sp, (uint64_t)l->il)) /* AFMoE: Q and K as they are (normed in place before) */
    return kind == LW_Q && sp->nope_scale ? lg_op(l, bytes, GS_INPLACE, x, l->attn_scale) : x;
  if (sp->no_rope || sp->learned_pos) return x; /* Granite 4.0-H, learned positions: Q and K the projections reshaped */
  x = lg_op(l, bytes, GS_INPLACE | GS_ROPE, x, l->pos);
  if (sp->attn_temp && kind == LW_Q) x = lg_op(l, bytes, GS_INPLACE, x, l->attn_scale);
  return sp->kq_norm ? lg_op(l, bytes, GS_INPLACE, x, -1) : x;
}

/* Q, K, V projections, RoPE, the cache stores (build_qkv, build_attn's expands: Q, V, K
** with one cache, Q, K, V with llama_kv_cache_iswa's) */
/* ggml_nbytes of a 3-D f32 view of ne0 x ne1 x ne2 with row strides nb1, nb2 */
static uint64_t lg_view3(lg *l, uint64_t ne0, uint64_t ne1, uint64_t ne2, uint64_t nb1, uint64_t nb2) {
  if (!ne1 || !ne2) return 0;
  return acc_add(&l->a, acc_add(&l->a, ne0 * 4, acc_mul(&l->a, ne1 - 1, nb1)), acc_mul(&l->a, ne2 - 1, nb2));
}

/* the DeltaNet hybrids' gated attention (build_layer_attn of qwen3next.cpp / qwen35.cpp):
** Q and its gate in one projection of twice the width, Q a strided view of it; Q and K
** RMS-normed (not in place: a view, or a reshape), times their norms' weights, then RoPE */
static int lg_qk_gated(lg *l, int an, uint64_t bytes, int kind, int *full) {
  const lc_graph_spec *sp = l->sp;
  int p = lg_op(l, kind == LW_Q ? acc_mul(&l->a, bytes, 2) : bytes, 0, lg_w(l, kind), an), x;
  if (kind == LW_Q) {
    uint64_t hd = sp->head_k, row = acc_mul(&l->a, 2 * hd, 4);
    uint64_t vb = lg_view3(l, hd, sp->heads, sp->n_tok, row, acc_mul(&l->a, row, sp->heads));
    *full = p;
    x = lg_view_n(l, sp->dn_split ? p : lg_view(l, p), vb); /* qwen3next: reshape_4d, then the view */
  } else {
    x = lg_view(l, p);
  }
  /* the norm weights (attn_q_norm / attn_k_norm, head_dim wide) stand in as the layer's
  ** attn_norm: on one device, never copied */
  x = lg_op(l, bytes, GS_INPLACE, lg_named_norm(l, lg_op(l, bytes, GS_INPLACE, x, -1)), lg_w(l, LW_ATTN_NORM));
  return lg_op(l, bytes, GS_INPLACE | GS_ROPE, x, l->pos);
}

static int lg_qkv(lg *l, int an, int c, int *qfull) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok;
  uint64_t qb = lg_f32(l, sp->heads * sp->head_k, T);
  uint64_t kb = lg_f32(l, sp->kv_heads * sp->head_k, T), vb = lg_f32(l, sp->kv_heads * sp->head_v, T);
  if (sp->fused_qkv) { /* build_qkv's wqkv: Q, K, V strided views of one product */
    uint64_t all = qb + kb + vb, row = all / T;
    int qkv = lg_op(l, all, 0, lg_w(l, LW_QKV), an);
    if (sp->qkv_bias) qkv = lg_op(l, all, GS_INPLACE, qkv, lg_w(l, LW_QKV + LW_BIAS));
    /* no RoPE: learned positions (starcoder.cpp, gpt2.cpp) or ALiBi (bloom.cpp) */
    bool rope = !sp->learned_pos && !sp->no_rope;
    int q = lg_view_n(l, qkv, lg_view2(l, qb / T / 4, T, row));
    if (rope) q = lg_op(l, qb, GS_INPLACE | GS_ROPE, q, l->pos);
    else if (l->k_rot[c] >= 0) q = lg_op(l, qb, 0, q, -1); /* ggml_mul_mat_aux: ggml_cont_2d of a strided view */
    q = lg_rot(l, q, l->k_rot[c], qb);
    int kv = lg_view_n(l, qkv, lg_view2(l, kb / T / 4, T, row)), k = -1;
    if (!rope) k = lg_rot(l, l->k_rot[c] >= 0 ? lg_op(l, kb, 0, kv, -1) : kv, l->k_rot[c], kb);
    else if (sp->iswa) k = lg_rot(l, lg_op(l, kb, GS_INPLACE | GS_ROPE, kv, l->pos), l->k_rot[c], kb);
    int v = lg_view_n(l, qkv, lg_view2(l, vb / T / 4, T, row));
    /* the strided V made contiguous: for the rotation's mul_mat, or by cpy_v's cont_2d when
    ** the cache keeps V transposed (no flash attention) */
    if (l->v_rot[c] >= 0) v = lg_rot(l, lg_op(l, vb, 0, v, -1), l->v_rot[c], vb);
    else if (!sp->fa) v = lg_op(l, vb, 0, v, -1);
    if (!sp->iswa && rope) k = lg_rot(l, lg_op(l, kb, GS_INPLACE | GS_ROPE, kv, l->pos), l->k_rot[c], kb);
    lg_store(l, k, l->k_idx[c], l->kc);
    lg_store(l, sp->fa ? v : lg_view(l, v), l->v_idx[c], l->vc);
    return lg_view(l, lg_view(l, q));
  }
  if (sp->mla_expanded) { /* minicpm3.cpp: Q, V, K in build_attn's order (GGML_SCHED_DEBUG=2 on a generated file) */
    uint64_t H = sp->heads, dk = sp->head_k, dv = sp->head_v, dr = sp->mla_rope, dn = dk - dr, r = sp->mla_kv_lora;
    uint64_t ab = lg_f32(l, sp->mla_q_lora, T);
    int q = lg_op(l, ab, 0, lg_w(l, LW_Q_A), an);
    q = lg_op(l, ab, GS_INPLACE, lg_named_norm(l, lg_op(l, ab, GS_INPLACE, q, -1)), lg_w(l, LW_Q_A_NORM));
    q = lg_op(l, qb, 0, lg_w(l, LW_Q_B), q);
    q = lg_rot(l, lg_op(l, qb, GS_INPLACE | GS_ROPE, lg_view(l, q), l->pos), l->k_rot[c], qb);
    /* kv_pe = wkv_a_mqa x; the latent's view RMS-normed into a new tensor (kv_pe has a second
    ** view, k_pe), times its weight; kv = wkv_b x latent; V its per-head columns made contiguous */
    uint64_t kvrow = acc_mul(&l->a, r + dr, 4), rb = lg_f32(l, r, T);
    int kvpe = lg_op(l, lg_f32(l, r + dr, T), 0, lg_w(l, LW_KV_A), an);
    int lat = lg_view_n(l, kvpe, lg_view2(l, r, T, kvrow));
    lat = lg_op(l, rb, GS_INPLACE, lg_named_norm(l, lg_op(l, rb, 0, lat, -1)), lg_w(l, LW_KV_A_NORM));
    uint64_t row = acc_mul(&l->a, dn + dv, 4);
    int kv = lg_op(l, lg_f32(l, acc_mul(&l->a, H, dn + dv), T), 0, lg_w(l, LW_K_B), lat);
    int v = lg_op(l, vb, 0, lg_view_n(l, kv, lg_view3(l, dv, H, T, row, acc_mul(&l->a, row, H))), -1);
    int vr = lg_rot(l, v, l->v_rot[c], vb);
    /* K: k_nope (a view of kv) and k_pe (a view of kv_pe, roped into a new tensor, repeated) */
    int kn = lg_view_n(l, kv, lg_view3(l, dn, H, T, row, acc_mul(&l->a, row, H)));
    int kr = lg_op(l, lg_f32(l, dr, T), GS_ROPE, lg_view_n(l, kvpe, lg_view3(l, dr, 1, T, kvrow, kvrow)), l->pos);
    int k = lg_op(l, kb, 0, kn, lg_op(l, lg_f32(l, acc_mul(&l->a, H, dr), T), 0, kr, -1));
    k = lg_rot(l, k, l->k_rot[c], kb);
    lg_store(l, k, l->k_idx[c], l->kc);
    lg_store(l, sp->fa ? vr : lg_view(l, vr), l->v_idx[c], l->vc);
    return lg_view(l, lg_view(l, q));
  }
  if (sp->dn_period) { /* Q, V, K, each rotated for a quantized cache (real graph: node_200/205/213) */
    int q = lg_rot(l, lg_qk_gated(l, an, qb, LW_Q, qfull), l->k_rot[c], qb);
    int v = lg_rot(l, lg_view(l, lg_proj(l, an, vb, LW_V)), l->v_rot[c], vb);
    int k = lg_rot(l, lg_qk_gated(l, an, kb, LW_K, 0), l->k_rot[c], kb);
    lg_store(l, k, l->k_idx[c], l->kc);
    lg_store(l, sp->fa ? v : lg_view(l, v), l->v_idx[c], l->vc);
    return lg_view(l, lg_view(l, q));
  }
  int q = lg_rot(l, lg_qk(l, an, qb, LW_Q), l->k_rot[c], qb), k = -1;
  if (sp->iswa) k = lg_rot(l, lg_qk(l, an, kb, LW_K), l->k_rot[c], kb);
  int v = lg_proj(l, an, vb, LW_V);
  int vr = lg_rot(l, lg_view(l, v), l->v_rot[c], vb);
  if (!sp->iswa) k = lg_rot(l, lg_qk(l, an, kb, LW_K), l->k_rot[c], kb);
  lg_store(l, k, l->k_idx[c], l->kc);
  lg_store(l, sp->fa ? vr : lg_view(l, vr), l->v_idx[c], l->vc); /* V is stored transposed without FA */
  return lg_view(l, lg_view(l, q));                       /* Q permuted per head */
}

/* ggml_flash_attn_ext of q over the cache views k and v (kel, vel elements; vel 0: V a view
** of K) with cache c's mask: before PR #23764 the mask is the f32 input cast to f16 where
** the first layer reads it (mask_cast); on a GPU the CUDA buffer type gives the output f16
** copies of a non-f16 K and V (fattn.cu ggml_cuda_flash_attn_ext_get_alloc_size: end of the
** output, padded to 128, + K's elements x 2, padded, + V's) for the tile and MMA kernels,
** which take 3 or more tokens per stream */
static int lg_fa(lg *l, uint64_t ob, int q, int k, int v, int c, uint64_t kel, uint64_t vel) {
  const lc_graph_spec *sp = l->sp;
  int mask = l->mask[c];
  if (sp->mask_cast) { /* one cast per mask (one cache: both indices share it) */
    int *f16 = &l->mask_f16[c == 1 && l->mask[1] == l->mask[0] ? 0 : c];
    if (*f16 < 0) *f16 = lg_op(l, acc_mul3(&l->a, sp->n_kv[c], sp->n_tok, 2), 0, mask, -1);
    mask = *f16;
  }
  int src[4] = {q, k, v, mask};
  int fa = gs_node(l->g, ob, 0, -1, src, 4);
  bool tile = lc_fa_tile(sp->n_tok, sp->n_stream);
  uint64_t end = ob;
  if (tile && sp->fa_f16_k) end = acc_add(&l->a, (end + 127) / 128 * 128, acc_mul(&l->a, kel, 2));
  if (tile && sp->fa_f16_v && vel) end = acc_add(&l->a, (end + 127) / 128 * 128, acc_mul(&l->a, vel, 2));
  if (end > ob) gs_set_gpu_extra(l->g, fa, end - ob);
  return fa;
}

/* build_attn_mha: flash attention, or KQ = K x Q, softmax in place, KQV, merged heads */
static int lg_attn(lg *l, int an, int c) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, ob = lg_f32(l, sp->heads * sp->head_v, T);
  int qfull = -1, q = lg_qkv(l, an, c, &qfull), o;
  if (sp->fa) {
    uint64_t cells = acc_mul3(&l->a, sp->n_kv[c], sp->n_stream ? sp->n_stream : 1, sp->kv_heads);
    o = lg_view(l, lg_fa(l, ob, q, l->kc, l->vc, c, acc_mul(&l->a, cells, sp->head_k), acc_mul(&l->a, cells, sp->head_v)));
  } else {
    uint64_t kq = acc_mul(&l->a, lg_f32(l, sp->n_kv[c], T), sp->heads);
    int sm = lg_op(l, kq, GS_INPLACE, lg_op(l, kq, 0, l->kc, q), l->mask[c]);
    o = lg_op(l, ob, 0, lg_view(l, lg_op(l, ob, 0, l->vc, sm)), -1);
  }
  lg_next_rs(l); /* build_attn expands kqv_out before V's inverse rotation and the output projection */
  if (sp->falcon) /* Falcon-H1: the layer's Mamba-2 (its rows, a second norm of the input, its
                  ** expanded part) comes before the attention's output projection */
    l->fh_m2 = lg_m2_head(l, lg_norm(l, l->sa_in, LW_ATTN_NORM), lg_rs(l, l->kc, lg_conv_row(sp)));
  /* falcon (ffn_first): V's inverse rotation and wo are reached after the FFN (lg_shared_norm_layer) */
  if (l->defer_wo) return o;
  o = lg_rot(l, o, l->v_rot[c], ob);
  if (qfull >= 0) { /* the output gate: the gate's view made contiguous, sigmoid, times it */
    uint64_t hd = sp->head_k, row = acc_mul(&l->a, 2 * hd, 4);
    int gv = lg_view_n(l, qfull, lg_view3(l, hd, sp->heads, T, row, acc_mul(&l->a, row, sp->heads)));
    int gate = lg_op(l, ob, GS_INPLACE, lg_op(l, ob, 0, gv, -1), -1);
    o = lg_op(l, ob, GS_INPLACE, o, gate);
  }
  if (sp->attn_out_gate) { /* afmoe.cpp: gate = attn_gate x (x the attention's input), sigmoid, cur x gate */
    int gate = lg_op(l, ob, GS_INPLACE, lg_op(l, ob, 0, lg_w(l, LW_DN_Z), an), -1);
    o = lg_op(l, ob, GS_INPLACE, o, gate);
  }
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, lg_w(l, LW_O), o);
}

/* deepseek2's MLA attention, k_b and v_b absorbed (src/models/deepseek2.cpp and build_attn
** with llm_graph_input_attn_k, llama.cpp 80fb11a), in the graph's order: build_attn expands
** Qcur (q_a, its norm, q_b; q_nope permuted times wk_b and permuted back, q_pe roped (a
** strided view: not in place), concatenated), then Vcur (wkv_a_mqa, the latent's norm,
** reshaped) and Kcur (the latent and the roped k_pe concatenated); the K store; flash
** attention over the cache's latent rows (V a view of K's first kv_lora columns), or
** without it the transposed V made contiguous, KQ, the softmax in place and KQV; then wv_b
** per head, the heads made contiguous, and wo */
static int lg_mla(lg *l, int an, int c) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, H = sp->heads, dk = sp->mla_hk, dr = sp->mla_rope, dn = dk - dr, r = sp->mla_kv_lora;
  uint64_t qb = lg_f32(l, H * dk, T), row = acc_mul(&l->a, dk, 4);
  int q;
  if (sp->mla_q_lora) {
    uint64_t ab = lg_f32(l, sp->mla_q_lora, T);
    q = lg_op(l, ab, 0, lg_w(l, LW_Q_A), an);
    q = lg_op(l, ab, GS_INPLACE, lg_named_norm(l, lg_op(l, ab, GS_INPLACE, q, -1)), lg_w(l, LW_Q_A_NORM));
    q = lg_op(l, qb, 0, lg_w(l, LW_Q_B), q);
  } else {
    q = lg_op(l, qb, 0, lg_w(l, LW_Q), an);
  }
  int q3 = lg_view(l, q);
  uint64_t nope = lg_view3(l, dn, H, T, row, acc_mul(&l->a, row, H));
  int qn = lg_view_n(l, lg_view_n(l, q3, nope), nope); /* q_nope, permuted */
  uint64_t ab = acc_mul(&l->a, lg_f32(l, r, T), H);
  int qa = lg_view(l, lg_op(l, ab, 0, lg_w(l, LW_K_B), qn)); /* q_nope_absorbed, permuted */
  int qpe = lg_view_n(l, q3, lg_view3(l, dr, H, T, row, acc_mul(&l->a, row, H)));
  int qr = lg_op(l, acc_mul(&l->a, lg_f32(l, dr, T), H), GS_ROPE, qpe, l->pos);
  uint64_t qcb = acc_mul(&l->a, lg_f32(l, r + dr, T), H);
  int qcur = lg_op(l, qcb, 0, qa, qr); /* CONCAT */
  uint64_t kvb = lg_f32(l, r + dr, T), kvrow = acc_mul(&l->a, r + dr, 4), rb = lg_f32(l, r, T);
  int kvpe = lg_op(l, kvb, 0, lg_w(l, LW_KV_A), an);
  int kv = lg_view_n(l, kvpe, lg_view2(l, r, T, kvrow));
  kv = lg_op(l, rb, GS_INPLACE, lg_named_norm(l, lg_op(l, rb, 0, kv, -1)), lg_w(l, LW_KV_A_NORM));
  int vcur = lg_view(l, kv);
  int kpe = lg_view_n(l, kvpe, lg_view3(l, dr, 1, T, kvrow, kvrow));
  int kr = lg_op(l, lg_f32(l, dr, T), GS_ROPE, kpe, l->pos);
  lg_store(l, lg_op(l, kvb, 0, vcur, kr), l->k_idx[c], l->kc); /* Kcur: CONCAT */
  int qp = lg_view(l, lg_view(l, qcur)); /* Q split per stream, permuted */
  int k = lg_view(l, l->kc), kp = lg_view(l, k), vp = lg_view(l, lg_view(l, k));
  uint64_t ob = acc_mul(&l->a, lg_f32(l, r, T), H);
  int o;
  if (sp->fa) {
    uint64_t lat = acc_mul3(&l->a, sp->n_kv[c], sp->n_stream ? sp->n_stream : 1, r + dr);
    o = lg_view(l, lg_fa(l, ob, qp, kp, vp, c, lat, 0)); /* permuted for wv_b; V is K's view */
  } else {
    /* kqv = mul_mat(v, kq): ggml's depth-first expansion visits src0 first, so the
    ** contiguous transposed V precedes KQ (real graph, GGML_SCHED_DEBUG=2: v_cont-0 is
    ** node 29, kq-0 node 33); in the other order the 512-cell reserve planned 11,560,960 B
    ** against the real 9,963,569 */
    uint64_t vc = acc_mul3(&l->a, acc_mul(&l->a, sp->n_kv[c], sp->n_stream ? sp->n_stream : 1), r,
                           sp->mla_k_elem ? sp->mla_k_elem : 2); /* every stream's rows (V's ne[3]) */
    int vt = lg_op(l, vc, 0, lg_view(l, vp), -1); /* ggml_cont(ggml_transpose(v)) */
    uint64_t kq = acc_mul(&l->a, lg_f32(l, sp->n_kv[c], T), H);
    int sm = lg_op(l, kq, GS_INPLACE, lg_op(l, kq, 0, kp, qp), l->mask[c]);
    o = lg_op(l, ob, 0, vt, sm);
  }
  uint64_t vb = acc_mul(&l->a, lg_f32(l, sp->mla_hv, T), H);
  int mla = lg_op(l, vb, 0, lg_w(l, LW_V_B), o);
  int heads = sp->fa ? lg_view(l, lg_op(l, vb, 0, lg_view(l, mla), -1)) /* permute, cont, reshape */
                     : lg_op(l, vb, 0, lg_view(l, mla), -1);           /* permute, cont_2d */
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, lg_w(l, LW_O), heads);
}

/* build_rs (llama-graph.cpp): the cache reshaped to rows of `width`, the cleared row scaled
** by 0 in place (a view), the rows of the ubatch's sequences got by s_copy_main, the other
** sequences' rows (none in the reserve: n_rs == n_seqs, 0 bytes) got and copied back */
static int lg_rs(lg *l, int cache, uint64_t width) {
  uint64_t ns = l->sp->dn_seqs && l->sp->dn_seqs < l->sp->n_tok ? l->sp->dn_seqs : l->sp->n_tok;
  int states = lg_view_n(l, cache, 0);
  lg_view_n(l, lg_view_n(l, states, 0), 0); /* SCALE in place of the state_zero view */
  if (l->s_main < 0) l->s_main = lg_view_n(l, l->s_copy, 0);
  int rows = lg_op(l, acc_mul3(&l->a, width, ns, 4), 0, states, l->s_main);
  if (l->s_extra < 0) l->s_extra = lg_view_n(l, l->s_copy, 0);
  int src[2] = {lg_op(l, 0, 0, states, l->s_extra), lg_view_n(l, cache, 0)};
  gs_node(l->g, 0, GS_WRITES, cache, src, 2);
  return rows;
}

/* a gated DeltaNet layer (build_layer_attn_linear of qwen3next.cpp / qwen35.cpp with
** build_conv_state, build_recurrent_attn and the fused GATED_DELTA_NET of
** delta-net-base.cpp, llama.cpp 80fb11a; the CPU backend takes the fused op for chunks and
** single tokens: fused_gdn_ch / fused_gdn_ar), in the graph's order: the conv states' rows,
** the QKV projection transposed and concatenated after them, the last K - 1 columns copied
** back; the SSM states' rows; then what GATED_DELTA_NET reads: SSM_CONV, SiLU in place, Q and
** K views L2-normed (and on qwen3next repeated to the V heads), V a view, the decay gate
** (alpha + dt_bias, softplus, times A, in place) and beta (sigmoid), the state; its output
** (the tokens' outputs, then the new states) copied to the cache; RMS norm of the output
** (a view: not in place) times its weight, times SiLU(z), the output projection. On GPUs
** each op reads its own weight (LW_DN_*), so that a host layer's copies are sized */
static int lg_dn(lg *l, int an) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, ns = sp->dn_seqs && sp->dn_seqs < T ? sp->dn_seqs : T, nt = ns ? T / ns : 0;
  uint64_t S = sp->dn_sk, Hk = sp->dn_hk, Hv = sp->dn_hv, Sv = sp->dn_sv, K = sp->dn_conv;
  uint64_t C = 2 * S * Hk + Sv * Hv, row = acc_mul(&l->a, C, 4), nss = Sv * Sv * Hv;
  int cs = lg_view(l, lg_rs(l, l->kc, (K - 1) * C)); /* conv_states reshaped */
  int qkv = lg_op(l, lg_f32(l, C, T), 0, lg_w(l, LW_QKV), an);
  int ci = lg_op(l, acc_mul3(&l->a, K - 1 + nt, row, ns), 0, cs, lg_view(l, lg_view(l, qkv))); /* CONCAT */
  int last = lg_view_n(l, ci, lg_view3(l, K - 1, C, ns, acc_mul(&l->a, K - 1 + nt, 4), acc_mul(&l->a, K - 1 + nt, row)));
  int csrc[2] = {last, lg_view_n(l, l->kc, 0)};
  gs_node(l->g, 0, GS_WRITES, l->kc, csrc, 2);
  int st = lg_rs(l, l->vc, nss);
  int conv = lg_op(l, lg_f32(l, C, T), 0, ci, lg_w(l, LW_DN_CONV)); /* SSM_CONV */
  int x = lg_op(l, lg_f32(l, C, T), GS_INPLACE, conv, -1);
  uint64_t qkb = lg_view3(l, S, Hk, T, acc_mul(&l->a, S, 4), row);
  int qk[2];
  for (int i = 0; i < 2; i++) {
    qk[i] = lg_op(l, lg_f32(l, S * Hk, T), 0, lg_view_n(l, x, qkb), -1); /* L2_NORM */
    if (!sp->dn_split && Hk != Hv) qk[i] = lg_view(l, lg_op(l, lg_f32(l, S * Hv, T), 0, lg_view(l, qk[i]), -1));
  }
  int v = lg_view_n(l, x, lg_view3(l, Sv, Hv, T, acc_mul(&l->a, Sv, 4), row));
  uint64_t hb = lg_f32(l, Hv, T);
  int g, b;
  if (sp->dn_split) { /* ssm_alpha, ssm_beta */
    g = lg_view(l, lg_op(l, hb, 0, lg_w(l, LW_DN_ALPHA), an));
    g = lg_op(l, hb, GS_INPLACE, lg_op(l, hb, GS_INPLACE, lg_op(l, hb, GS_INPLACE, g, lg_w(l, LW_DN_ALPHA + LW_BIAS)), -1),
              lg_w(l, LW_DN_A));
    g = lg_view(l, g);
    b = lg_op(l, hb, GS_INPLACE, lg_view(l, lg_op(l, hb, 0, lg_w(l, LW_DN_BETA), an)), -1);
  } else { /* ssm_ba: beta and alpha interleaved per K head, each made contiguous */
    int ba = lg_view(l, lg_op(l, acc_mul(&l->a, hb, 2), 0, lg_w(l, LW_DN_ALPHA), an));
    g = lg_op(l, hb, 0, lg_view_n(l, ba, 0), -1);
    g = lg_op(l, hb, GS_INPLACE, lg_op(l, hb, GS_INPLACE, lg_op(l, hb, GS_INPLACE, g, lg_w(l, LW_DN_ALPHA + LW_BIAS)), -1),
              lg_w(l, LW_DN_A));
    g = lg_view(l, g);
    b = lg_view(l, lg_op(l, hb, GS_INPLACE, lg_op(l, hb, 0, lg_view_n(l, ba, 0), -1), -1));
  }
  uint64_t ob = lg_f32(l, Sv * Hv, T);
  int src[6] = {qk[0], qk[1], v, g, b, lg_view(l, st)};
  /* ggml_gated_delta_net's result: the tokens' outputs, then K state snapshots per sequence
  ** ({S_v x H, n_tokens x n_seqs + K x S_v x n_seqs}, ggml.c; K = n_rs_seq + 1 in
  ** build_recurrent_attn, 1 without rollback snapshots) */
  uint64_t snap = sp->dn_snap ? sp->dn_snap : 1;
  int gdn =
      gs_node(l->g, acc_add(&l->a, ob, acc_mul(&l->a, acc_mul3(&l->a, nss, ns, 4), snap)), 0, -1, src, 6);
  int ssrc[2] = {lg_view_n(l, gdn, acc_mul3(&l->a, nss, ns, 4)), lg_view_n(l, l->vc, 0)};
  gs_node(l->g, 0, GS_WRITES, l->vc, ssrc, 2);
  int o = lg_op(l, ob, GS_INPLACE, lg_named_norm(l, lg_op(l, ob, GS_INPLACE, lg_view_n(l, gdn, ob), -1)),
                lg_w(l, LW_DN_NORM));
  int z = lg_op(l, ob, GS_INPLACE, lg_view(l, lg_op(l, ob, 0, lg_w(l, LW_DN_Z), an)), -1);
  o = lg_view(l, lg_op(l, ob, GS_INPLACE, o, z));
  return lg_view(l, lg_op(l, lg_f32(l, sp->hidden, T), 0, lg_w(l, LW_O), o));
}

/* is layer il a short-conv layer of an LFM2-style hybrid (attention layers spread evenly) */
static bool lg_sc_layer(const lc_graph_spec *sp, uint64_t il) {
  if (!sp->sc_conv) return false;
  if (sp->sc_ids) return sp->sc_ids[il / 64] >> (il % 64) & 1; /* set for n_layer <= KV_MAX_IDS */
  return (il + 1) * sp->sc_attn / sp->n_layer == il * sp->sc_attn / sp->n_layer;
}

/* what comes between a mixer's expanded part and the rest of it (the short conv's SSM_CONV,
** the attention's output projection), which only the layer's residual add reaches. Of a
** short-conv hybrid: the next layer's conv state rows when it is a short-conv layer, whose
** build_rs expands them at once (real graph, GGML_SCHED_DEBUG=2 on a generated lfm2 file:
** cache_r_l1's SCALE and GET_ROWS are nodes 25-29, layer 0's SSM_CONV node 32); in the last
** layer, the output rows of the layer input, the residual add's first source there
** (ggml_add(prev_cur, cur): node 196 GET_ROWS of l_out-4, then 197 the output projection) */
/* the conv state row of a recurrent layer: (K - 1) x its conv channels (LFM2: hidden; Mamba-2:
** d_inner + 2 x groups x state, llama-hparams.cpp n_embd_r) */
static uint64_t lg_conv_row(const lc_graph_spec *sp) {
  uint64_t ch = sp->m2_inner ? sp->m2_inner + 2 * sp->m2_groups * sp->m2_state : sp->hidden;
  return (sp->sc_conv - 1) * ch;
}

static bool lg_moe_layer(const lg *l);

/* a Nemotron-H MLP layer */
static bool lg_mlp_layer(const lc_graph_spec *sp, uint64_t il) {
  return sp->nemo && il < 1024 && (sp->mlp_ids[il / 64] >> (il % 64) & 1);
}

static void lg_next_rs_at(lg *l, bool after_moe) {
  const lc_graph_spec *sp = l->sp;
  if (!sp->sc_conv || l->il < 0 || sp->falcon) return; /* Falcon-H1: each layer gets its own rows */
  /* a MoE layer's build_moe_ffn expands its weights, experts and output at once, pulling the
  ** mixer's tail in first: the next layer's rows follow the routed experts' output, before the
  ** shared experts (real graph, granitehybrid-moe: ffn_moe_out node 74, cache_r_l1's SCALE 77,
  ** ffn_gate of the shared expert 83) */
  if (lg_moe_layer(l) != after_moe) return;
  uint64_t il = (uint64_t)l->il, nx = il + 1;
  /* Nemotron-H's MLP layers expand nothing: the next recurrent layer's build_rs, past them,
  ** lands here, after this layer's expanded part */
  /* (Nemotron 3's MoE layers do expand: build_moe_ffn's weights, experts and sum; their next
  ** recurrent layer's rows come after their routed experts, lg_ffn's lg_next_rs_at) */
  while (nx < sp->n_layer && lg_mlp_layer(sp, nx) && !sp->experts) nx++;
  if (nx < sp->n_layer && lg_sc_layer(sp, nx)) l->sc_rs = lg_rs(l, l->kc, lg_conv_row(sp));
  if (il + 1 == sp->n_layer && sp->res_first) {
    uint64_t n = sp->n_out ? sp->n_out : sp->n_tok;
    l->sa_rows = lg_op(l, lg_f32(l, sp->hidden, n), 0, l->sa_in, l->out_ids);
  }
}

static void lg_next_rs(lg *l) { lg_next_rs_at(l, false); }

/* a gated short-convolution layer (build_shortconv_block of src/models/lfm2.cpp, llama.cpp
** 80fb11a), in the graph's order: the conv state's rows (build_rs, got ahead: rs), then
** what the state write-back pulls in: in_proj (B, C, x: three strided views of one product
** of 3 x hidden), B x x (not in place: its sources are views of a product with three),
** transposed and concatenated after the K - 1 state columns; the last K - 1 columns copied
** back (n_rs_seq 0: one slot); the next layer's state rows; SSM_CONV of the concatenation
** (hidden x tokens), C times it (in place on the conv output), out_proj */
static int lg_sc(lg *l, int an, int rs) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, ns = sp->dn_seqs && sp->dn_seqs < T ? sp->dn_seqs : T, nt = ns ? T / ns : 0;
  uint64_t h = sp->hidden, K = sp->sc_conv, hb = lg_f32(l, h, T);
  int cs = lg_view(l, rs); /* conv_rs reshaped to (K - 1, h, n_seqs) */
  int bcx = lg_op(l, acc_mul(&l->a, hb, 3), 0, lg_w(l, LW_QKV), lg_view(l, an));
  uint64_t vb = lg_view3(l, h, nt, ns, acc_mul(&l->a, 3 * h, 4), acc_mul3(&l->a, 3 * h, nt, 4));
  int b = lg_view_n(l, bcx, vb), x = lg_view_n(l, bcx, vb);
  int bx = lg_view(l, lg_op(l, hb, 0, b, x)); /* ggml_mul, transposed */
  uint64_t w = K - 1 + nt;
  int ci = lg_op(l, acc_mul3(&l->a, w, acc_mul(&l->a, h, 4), ns), 0, cs, bx); /* CONCAT along dim 0 */
  int last = lg_view_n(l, ci, lg_view3(l, K - 1, h, ns, acc_mul(&l->a, w, 4), acc_mul3(&l->a, w, h, 4)));
  int csrc[2] = {last, lg_view_n(l, l->kc, 0)};
  gs_node(l->g, 0, GS_WRITES, l->kc, csrc, 2);
  lg_next_rs(l);
  int conv = lg_op(l, hb, 0, ci, lg_w(l, LW_DN_CONV)); /* SSM_CONV */
  int c = lg_view_n(l, bcx, vb);
  int y = lg_op(l, hb, GS_INPLACE, c, conv); /* C x conv: in place on the conv output */
  return lg_view(l, lg_op(l, hb, 0, lg_w(l, LW_O), y));
}

/* a Mamba-2 layer (build_mamba2_layer of src/models/mamba-base.cpp, llama.cpp 80fb11a), in the
** graph's order: the conv state's rows (build_rs, got ahead: rs); what the conv state's write-back
** pulls in: ssm_in's product zxBCdt {2 d_inner + 2 G N + H, T}, xBC (a strided view) transposed
** and concatenated after the K - 1 state columns; the last K - 1 columns copied back; then the SSM
** state's build_rs, whose get-rows is SSM_SCAN: its sources in order (the states, x of
** SSM_CONV + bias + SiLU, dt made contiguous + dt_bias, A, B, C, the row ids), its output the
** tokens' y (d_inner x T) then the new states (N x d_inner per sequence), the states copied to
** the cache; the next layer's rows; y + x D, SwiGLU(z made contiguous, y), the grouped RMS norm
** times its weight, ssm_out */
/* the Mamba-2 layer's state rows and expanded part (to the SSM states' write-back), then its tail */

/* SSM_SCAN as the SSM state's get-rows (build_rs) and the states' write-back: its sources in
** order (the states, x, dt, A, B, C, the row ids), its output the tokens' y (db bytes) then the new
** states (N x d_inner per sequence, f32), those copied to the cache after the cleared extra rows;
** shared by the Mamba-1 and Mamba-2 layers (mamba-base.cpp build_mamba_layer / build_mamba2_layer) */
static int lg_ssm_scan(lg *l, int states, int ssm, int x, int dt, int B, int Cv, uint64_t db, uint64_t N,
                       uint64_t di, uint64_t ns) {
  if (l->s_main < 0) l->s_main = lg_view_n(l, l->s_copy, 0);
  uint64_t sb = acc_mul3(&l->a, acc_mul(&l->a, N, di), ns, 4);
  int src[7] = {ssm, x, dt, lg_w(l, LW_DN_A), B, Cv, l->s_main};
  int scan = gs_node(l->g, acc_add(&l->a, db, sb), 0, -1, src, 7);
  if (l->s_extra < 0) l->s_extra = lg_view_n(l, l->s_copy, 0);
  int esrc[2] = {lg_op(l, 0, 0, states, l->s_extra), lg_view_n(l, l->vc, 0)};
  gs_node(l->g, 0, GS_WRITES, l->vc, esrc, 2);
  int ssrc[2] = {lg_view_n(l, scan, sb), lg_view_n(l, l->vc, 0)};
  gs_node(l->g, 0, GS_WRITES, l->vc, ssrc, 2);
  return scan;
}

static lg_m2_part lg_m2_head(lg *l, int an, int rs) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, ns = sp->dn_seqs && sp->dn_seqs < T ? sp->dn_seqs : T, nt = ns ? T / ns : 0;
  uint64_t di = sp->m2_inner, H = sp->m2_heads, GN = sp->m2_groups * sp->m2_state, K = sp->sc_conv;
  uint64_t C = di + 2 * GN, P = 2 * di + 2 * GN + H, prow = acc_mul(&l->a, P, 4);
  uint64_t db = lg_f32(l, di, T), cb = lg_f32(l, C, T), hb = lg_f32(l, H, T);
  int cs = lg_view(l, rs); /* conv reshaped to (K - 1, C, n_seqs) */
  int zx = lg_view(l, lg_op(l, lg_f32(l, P, T), 0, lg_w(l, LW_QKV), an)); /* ssm_in, reshaped 3-D */
  int xbc = lg_view_n(l, zx, lg_view3(l, C, nt, ns, prow, acc_mul(&l->a, prow, nt)));
  uint64_t w = K - 1 + nt;
  int ci = lg_op(l, acc_mul3(&l->a, w, acc_mul(&l->a, C, 4), ns), 0, cs, lg_view(l, xbc)); /* CONCAT */
  int last = lg_view_n(l, ci, lg_view3(l, K - 1, C, ns, acc_mul(&l->a, w, 4), acc_mul3(&l->a, w, C, 4)));
  int csrc[2] = {last, lg_view_n(l, l->kc, 0)};
  gs_node(l->g, 0, GS_WRITES, l->kc, csrc, 2);
  /* the SSM state's build_rs: the cleared row scaled, then SSM_SCAN as its get-rows */
  int states = lg_view_n(l, l->vc, 0);
  lg_view_n(l, lg_view_n(l, states, 0), 0);
  int ssm = lg_view(l, states);
  int conv = lg_op(l, cb, 0, ci, lg_w(l, LW_DN_CONV));                     /* SSM_CONV */
  conv = lg_op(l, cb, GS_INPLACE, conv, lg_w(l, LW_DN_CONV + LW_BIAS));    /* + conv1d bias */
  conv = lg_op(l, cb, GS_INPLACE, conv, -1);                               /* SiLU */
  int x = lg_view_n(l, conv, db);
  int dt = lg_op(l, hb, 0, lg_view_n(l, zx, hb), -1);                      /* cont(dt) */
  dt = lg_op(l, hb, GS_INPLACE, dt, lg_w(l, LW_DN_ALPHA + LW_BIAS));       /* + dt_bias */
  int B = lg_view_n(l, conv, 0), Cv = lg_view_n(l, conv, 0);
  int scan = lg_ssm_scan(l, states, ssm, x, dt, B, Cv, db, sp->m2_state, di, ns);
  return (lg_m2_part){zx, scan, x};
}

static int lg_m2_tail(lg *l, lg_m2_part p) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, db = lg_f32(l, sp->m2_inner, T);
  /* SWIGLU's sources in order: z made contiguous, then y + x D (a view parent is never reused in
  ** place: ggml-alloc allocates no view, so the add takes x D's block) */
  int z = lg_op(l, db, 0, lg_view_n(l, p.zx, db), -1);                     /* cont(z) */
  int y = lg_view_n(l, p.scan, db);
  int xd = lg_op(l, db, 0, p.x, lg_w(l, LW_DN_A));                         /* x D */
  y = lg_op(l, db, GS_INPLACE, y, xd);                                     /* y + x D */
  y = lg_op(l, db, 0, z, y);                                               /* SWIGLU split: not in place */
  if (!sp->m2_no_norm) {                                                   /* the grouped RMS norm */
    y = lg_view(l, y);
    y = lg_op(l, db, GS_INPLACE, lg_named_norm(l, lg_op(l, db, GS_INPLACE, y, -1)), lg_w(l, LW_DN_NORM));
  }
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, lg_w(l, LW_O), lg_view(l, y));
}

static int lg_m2(lg *l, int an, int rs) {
  lg_m2_part p = lg_m2_head(l, an, rs);
  lg_next_rs(l);
  return lg_m2_tail(l, p);
}

/* a Mamba-1 layer (build_mamba_layer of src/models/mamba-base.cpp, llama.cpp 80fb11a; Jamba), in
** the graph's order: the conv state's rows (build_rs, got ahead: rs); ssm_in's product xz {2 d_inner,
** T} of the input reshaped, x (a view) transposed and concatenated after the K - 1 state columns,
** the last K - 1 columns copied back; SSM_CONV + bias + SiLU; x_db = ssm_x x {dt_rank + 2 N, T};
** the SSM state's build_rs, whose get-rows is SSM_SCAN: its sources in order (the states, x, dt's
** RMS norm times its weight then ssm_dt and its bias, A, B's and C's norms), its output y (d_inner
** x T) then the new states; the states copied to the cache; the next layer's rows; y + x D,
** SwiGLU(z made contiguous, y), ssm_out */
/* build_mamba_layer's RMS norm of dt, B or C (a view of x_db: the norm is not in place), times
** its weight in place (Jamba); FalconMamba's ssm_dt_b_c_rms: the norm alone; plain Mamba-1
** (neither): the view itself (mamba-base.cpp, llama.cpp 80fb11a) */
static int lg_m1_norm(lg *l, int v, uint64_t bytes) {
  if (l->sp->m1_norms == 1) return v;
  int n = lg_named_norm(l, lg_op(l, bytes, 0, v, -1));
  return l->sp->m1_norms == 2 ? n : lg_op(l, bytes, GS_INPLACE, n, lg_w(l, LW_DN_NORM));
}

static int lg_m1(lg *l, int an, int rs) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, ns = sp->dn_seqs && sp->dn_seqs < T ? sp->dn_seqs : T, nt = ns ? T / ns : 0;
  uint64_t di = sp->m2_inner, N = sp->m2_state, R = sp->m1_dt_rank, K = sp->sc_conv;
  uint64_t db = lg_f32(l, di, T);
  int cs = lg_view(l, rs); /* conv reshaped to (K - 1, d_inner, n_seqs) */
  int xz = lg_op(l, acc_mul(&l->a, db, 2), 0, lg_w(l, LW_QKV), lg_view(l, an)); /* ssm_in */
  int x = lg_view_n(l, xz, db), z = lg_view_n(l, xz, db);
  uint64_t w = K - 1 + nt;
  int ci = lg_op(l, acc_mul3(&l->a, w, acc_mul(&l->a, di, 4), ns), 0, cs, lg_view(l, x)); /* CONCAT */
  int last = lg_view_n(l, ci, lg_view3(l, K - 1, di, ns, acc_mul(&l->a, w, 4), acc_mul3(&l->a, w, di, 4)));
  int csrc[2] = {last, lg_view_n(l, l->kc, 0)};
  gs_node(l->g, 0, GS_WRITES, l->kc, csrc, 2);
  int conv = lg_op(l, db, 0, ci, lg_w(l, LW_DN_CONV));                     /* SSM_CONV */
  conv = lg_op(l, db, GS_INPLACE, conv, lg_w(l, LW_DN_CONV + LW_BIAS));    /* + conv1d bias */
  conv = lg_op(l, db, GS_INPLACE, conv, -1);                               /* SiLU */
  int xdb = lg_op(l, lg_f32(l, R + 2 * N, T), 0, lg_w(l, LW_DN_Z), conv);  /* ssm_x */
  /* the SSM state's build_rs: the cleared row scaled, then SSM_SCAN as its get-rows */
  int states = lg_view_n(l, l->vc, 0);
  lg_view_n(l, lg_view_n(l, states, 0), 0);
  int ssm = lg_view(l, states);
  int xs = lg_view(l, conv);
  uint64_t rb = lg_f32(l, R, T), nb = lg_f32(l, N, T);
  int dt = lg_m1_norm(l, lg_view_n(l, xdb, rb), rb);
  dt = lg_op(l, db, 0, lg_w(l, LW_DN_ALPHA), dt);                          /* ssm_dt */
  dt = lg_op(l, db, GS_INPLACE, dt, lg_w(l, LW_DN_ALPHA + LW_BIAS));       /* + its bias */
  int B = lg_m1_norm(l, lg_view_n(l, xdb, nb), nb);
  int Cv = lg_m1_norm(l, lg_view_n(l, xdb, nb), nb);
  int scan = lg_ssm_scan(l, states, ssm, xs, dt, B, Cv, db, N, di, ns);
  lg_next_rs(l);
  int zc = lg_op(l, db, 0, z, -1);                                         /* cont(z) */
  int y = lg_view_n(l, scan, db);
  int xd = lg_op(l, db, 0, conv, lg_w(l, LW_DN_A));                        /* x D */
  y = lg_op(l, db, GS_INPLACE, y, xd);                                     /* y + x D */
  y = lg_op(l, db, 0, zc, y);                                              /* SWIGLU split */
  return lg_view(l, lg_op(l, lg_f32(l, sp->hidden, T), 0, lg_w(l, LW_O), y));
}

/* build_moe_ffn: the router's logits, softmax or sigmoid in place, the selection bias
** (exp_probs_b) added beside them, top-k (argsort and its view), the weights got from the
** probabilities (ffn_moe_probs reshaped) and, with norm_w, divided by their clamped row
** sums (views, sum_rows, clamp and div in place); then the expert matmuls on x reshaped, the
** activation, and the weighted sum. ggml_build_forward_expand(gf, weights) comes first, so
** the graph holds them in the order of that walk */
static int lg_experts(lg *l, int x, int topk, int wn);

static int lg_moe(lg *l, int x) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = l->T, k = sp->experts_used ? sp->experts_used : 1;
  uint64_t eb = lg_f32(l, sp->experts, T);
  int logits = lg_op(l, eb, 0, lg_w(l, LW_ROUTER), x);
  if (sp->moe_softmax_w) { /* the logits (biased in place) select; softmax over the k of them */
    logits = lg_op(l, eb, GS_INPLACE, logits, lg_w(l, LW_ROUTER + LW_BIAS));
    int tk = lg_view_n(l, lg_op(l, eb, 0, logits, -1), lg_view2(l, k, T, sp->experts * 4));
    int w = lg_op(l, lg_f32(l, k, T), 0, lg_view(l, logits), tk);
    int wsm = lg_view(l, lg_op(l, lg_f32(l, k, T), GS_INPLACE, lg_view(l, w), -1));
    return lg_experts(l, x, tk, wsm);
  }
  int probs = lg_op(l, eb, GS_INPLACE, logits, -1);
  int pr = lg_view(l, probs);
  int sel = sp->probs_b ? lg_op(l, eb, GS_INPLACE, probs, lg_w(l, LW_ROUTER + LW_BIAS)) : probs;
  if (sp->moe_w_before) sel = logits; /* llama4: selected by the logits, sigmoid only on the weights */
  int topk = lg_view_n(l, lg_op(l, eb, 0, sel, -1), lg_view2(l, k, T, sp->experts * 4));
  int wn = lg_op(l, lg_f32(l, k, T), 0, pr, topk);
  if (!sp->moe_unnorm && !sp->moe_w_before) {
    int wts = lg_view(l, wn);
    int sum = lg_op(l, lg_f32(l, 1, T), GS_INPLACE, lg_op(l, lg_f32(l, 1, T), 0, wts, -1), -1);
    wn = lg_view(l, lg_op(l, lg_f32(l, k, T), GS_INPLACE, wts, sum));
  }
  if (sp->moe_scaled) wn = lg_op(l, lg_f32(l, k, T), GS_INPLACE, wn, -1); /* w_scale: of a view, not in place */
  return lg_experts(l, x, topk, wn);
}

/* an expert product biased per selected expert (gpt-oss: ggml_add_id, which ggml-alloc runs in
** place); its bias read from the weights (a copy where the experts stay on the host) */
static int lg_exps_bias(lg *l, int x, int kind, uint64_t bytes) {
  return l->sp->exps_bias ? lg_op(l, bytes, GS_INPLACE, x, lg_w(l, kind + LW_BIAS)) : x;
}

/* the selected experts over x (MUL_MAT_ID on the top-k ids), weighted by wn, their outputs
** summed over the k views */
static int lg_experts(lg *l, int x, int topk, int wn) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = l->T, k = sp->experts_used ? sp->experts_used : 1;
  unsigned no = T < 32 ? GS_NOOFFLOAD : 0; /* MUL_MAT_ID's batch: its rows (ne[2]) */
  int xr = lg_view(l, x);
  uint64_t hb = lg_f32(l, sp->hidden, T);
  if (sp->moe_w_before) /* ggml_repeat_4d of x to k rows per token, times the weights (in place) */
    xr = lg_op(l, acc_mul(&l->a, hb, k), GS_INPLACE, lg_op(l, acc_mul(&l->a, hb, k), 0, xr, -1), wn);
  uint64_t fb = acc_mul(&l->a, lg_f32(l, sp->ffn, T), k);
  int src[3] = {-1, xr, topk};
  int gate = -1, up;
  if (sp->gate_up_exps) { /* build_moe_ffn's merged path: gate and up are views of one product */
    src[0] = lg_w(l, LW_GATE_EXPS);
    uint64_t fb2 = acc_mul(&l->a, fb, 2);
    int gu = lg_exps_bias(l, gs_node(l->g, fb2, no, -1, src, 3), LW_GATE_EXPS, fb2);
    gate = lg_view_n(l, gu, fb), up = lg_view_n(l, gu, fb);
  } else {
    if (sp->gated) src[0] = lg_w(l, LW_GATE_EXPS), gate = lg_exps_bias(l, gs_node(l->g, fb, no, -1, src, 3), LW_GATE_EXPS, fb);
    src[0] = lg_w(l, LW_UP_EXPS);
    up = lg_exps_bias(l, gs_node(l->g, fb, no, -1, src, 3), LW_UP_EXPS, fb);
  }
  int act = sp->gated || sp->gate_up_exps ? lg_op(l, fb, 0, gate, up) : lg_op(l, fb, GS_INPLACE, up, -1);
  int dsrc[3] = {lg_w(l, LW_DOWN_EXPS), act, topk};
  int down = lg_exps_bias(l, gs_node(l->g, acc_mul(&l->a, hb, k), no, -1, dsrc, 3), LW_DOWN_EXPS, acc_mul(&l->a, hb, k));
  int weighted = sp->moe_w_before ? down : lg_op(l, acc_mul(&l->a, hb, k), GS_INPLACE, down, wn);
  int views[64];
  uint64_t nv = k < 64 ? k : 64;
  for (uint64_t i = 0; i < nv; i++) views[i] = lg_view_n(l, weighted, lg_view2(l, sp->hidden, T, acc_mul(&l->a, hb / T, k)));
  int out = nv == 1 ? lg_op(l, hb, 0, views[0], -1) : lg_op(l, hb, GS_INPLACE, views[0], views[1]);
  for (uint64_t i = 2; i < nv; i++) out = lg_op(l, hb, GS_INPLACE, out, views[i]);
  /* ggml_backend_cuda_graph_optimize (llama.cpp 80fb11a) matches MUL, k views, k - 1 adds
  ** for 2 <= k <= 15 (MOE_WEIGHTED_REDUCTION_MAX_EXPERTS) and keeps the MUL's sources
  ** until the last add: the MUL no longer takes its experts' buffer in place */
  if (sp->moe_reduce_dep && !sp->moe_w_before && nv >= 2 && nv <= 15) gs_keep_until(l->g, weighted, out);
  return out;
}

/* build_ffn of `width`: gate and up, SwiGLU (not in place) or an in-place activation, down;
** its weights the dense FFN's (gate LW_GATE) or the shared experts' (LW_SH_GATE), up and down
** the next two kinds */
static int lg_dense(lg *l, int x, uint64_t width, int gate_kind) {
  const int up_kind = gate_kind + 2, down_kind = gate_kind + 4;
  const lc_graph_spec *sp = l->sp;
  uint64_t T = l->T, fb = lg_f32(l, width, T);
  int act;
  if (sp->fused_up) { /* one up of 2 x width, SwiGLU over its halves */
    act = lg_op(l, fb, 0, lg_op(l, acc_mul(&l->a, fb, 2), 0, lg_w(l, up_kind), x), -1);
  } else if (sp->gated) {
    int gate = lg_op(l, fb, 0, lg_w(l, gate_kind), x);
    act = lg_op(l, fb, 0, gate, lg_op(l, fb, 0, lg_w(l, up_kind), x));
  } else {
    act = lg_op(l, fb, GS_INPLACE, lg_op(l, fb, 0, lg_w(l, up_kind), x), -1);
  }
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, lg_w(l, down_kind), act);
}

/* the layer's FFN: dense; or a MoE model's leading dense layers (n_layer_dense_lead), its
** routed experts and, beside them, the shared experts' FFN added to their output
** (llama.cpp's deepseek2 / glm4moe builds: cur = ggml_add(moe_out, ffn_shexp)) */
/* the current layer's FFN is routed experts (not a dense one) */
static bool lg_moe_layer(const lg *l) {
  const lc_graph_spec *sp = l->sp;
  if (!sp->experts) return false;
  /* Nemotron 3 (nemotron_h_moe): its 'E' layers, the MLP places (nemotron-h.cpp build_ffn_layer
  ** with ffn_gate_inp) */
  if (sp->nemo) return l->il >= 0 && lg_mlp_layer(sp, (uint64_t)l->il);
  bool dense = sp->moe_step ? l->il >= 0 && ((uint64_t)l->il + 1) % sp->moe_step != 0 /* llama4's interleave */
                            : l->il >= 0 && (uint64_t)l->il < sp->dense_lead;
  return !dense;
}

static int lg_ffn(lg *l, int x) {
  const lc_graph_spec *sp = l->sp;
  if (!sp->experts) return lg_dense(l, x, sp->ffn, LW_GATE);
  if (!lg_moe_layer(l)) return lg_dense(l, x, sp->dense_ffn ? sp->dense_ffn : sp->ffn, LW_GATE);
  int moe = lg_moe(l, x);
  lg_next_rs_at(l, true);
  if (!sp->shexp_ffn) return moe;
  int sh = lg_dense(l, x, sp->shexp_ffn, LW_SH_GATE);
  if (sp->shexp_gate && sp->shexp_gate_silu) {
    /* qwen2moe (src/models/qwen2moe.cpp, llama.cpp 80fb11a): g = ffn_gate_inp_shexp x, the gate
    ** ggml_div(ggml_silu(g), g), then ggml_mul(ffn, gate). Built before the shared FFN in the
    ** source but reached after it by the graph's depth-first walk from ggml_mul (no
    ** ggml_build_forward_expand between them). The SILU cannot take g's memory (g has a second
    ** reader, the DIV); the DIV runs in place on the SILU, the MUL on the FFN's output */
    uint64_t gb = lg_f32(l, 1, l->T);
    int g = lg_op(l, gb, 0, lg_w(l, LW_SH_GATE_INP), x);
    int gate = lg_op(l, gb, GS_INPLACE, lg_op(l, gb, GS_INPLACE, g, -1), g);
    sh = lg_op(l, lg_f32(l, sp->hidden, l->T), GS_INPLACE, sh, gate);
  } else if (sp->shexp_gate) { /* qwen3next: times sigmoid(ffn_gate_inp_shexp x), in place */
    uint64_t gb = lg_f32(l, 1, l->T);
    int gate = lg_op(l, gb, GS_INPLACE, lg_op(l, gb, 0, lg_w(l, LW_SH_GATE_INP), x), -1);
    sh = lg_op(l, lg_f32(l, sp->hidden, l->T), GS_INPLACE, sh, gate);
  }
  return lg_op(l, lg_f32(l, sp->hidden, l->T), GS_INPLACE, moe, sh); /* ADD: in place */
}

/* build_norm: RMS norm, or LLM_NORM's ggml_norm (a LayerNorm: GGML_OP_NORM is not among
** ggml-alloc's ggml_op_can_inplace ops, so never in place), then the weight (and a LayerNorm's
** bias) in place */
static int lg_norm(lg *l, int x, int kind) {
  uint64_t b = lg_f32(l, l->sp->hidden, l->T);
  int n = lg_named_norm(l, lg_op(l, b, l->sp->layer_norm ? 0 : GS_INPLACE, x, -1));
  return lg_op(l, b, GS_INPLACE, n, lg_w(l, kind));
}

/* an attention-free mamba / mamba2 layer (llama_model_mamba::graph, src/models/mamba.cpp at
** llama.cpp 80fb11a): the conv state's rows (build_rs expands them at once: layer 0's here,
** before its norm, the others' inside the layer before, lg_next_rs), attn_norm, the mixer; in
** the last layer the output rows of cur, then of inpL (ggml_get_rows each, cur's first: the
** add's first source); cur + inpL, in place on cur. No FFN */
static int lg_ssm_layer(lg *l, int in, uint64_t il) {
  const lc_graph_spec *sp = l->sp;
  int rs = l->sc_rs >= 0 ? l->sc_rs : lg_rs(l, l->kc, lg_conv_row(sp));
  l->sc_rs = -1;
  int an = lg_norm(l, in, LW_ATTN_NORM);
  int cur = sp->m1_dt_rank ? lg_m1(l, an, rs) : lg_m2(l, an, rs);
  if (il == sp->n_layer - 1) {
    l->T = sp->n_out ? sp->n_out : sp->n_tok;
    uint64_t ho = lg_f32(l, sp->hidden, l->T);
    cur = lg_op(l, ho, 0, cur, l->out_ids);
    in = lg_op(l, ho, 0, in, l->out_ids);
  }
  return lg_op(l, lg_f32(l, sp->hidden, l->T), GS_INPLACE, cur, in);
}

/* one LayerNorm output feeding the attention and the FFN (phi2.cpp, falcon.cpp: no ffn_norm), alive
** across the attention; the layer's output (attn + ffn) + inpL. phi2 adds ggml_add(cur, ffn_output):
** the depth-first walk reaches the output projection (and the last layer's rows of it), then the
** norm's rows and the FFN; falcon adds ggml_add(ffn_out, attn_out): the FFN first, the output
** projection of kqv_out (expanded by build_attn) after it. Then the rows of inpL, + inpL */
static int lg_shared_norm_layer(lg *l, int in, int an, int c, uint64_t il) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T0 = l->T;
  l->defer_wo = sp->ffn_first;
  int att = lg_attn(l, an, c), cur;
  l->defer_wo = false;
  bool last = il == sp->n_layer - 1;
  if (last) l->T = sp->n_out ? sp->n_out : sp->n_tok;
  uint64_t hb = lg_f32(l, sp->hidden, l->T);
  if (!sp->ffn_first) {
    cur = last ? lg_op(l, hb, 0, att, l->out_ids) : att;
    int ffn = lg_ffn(l, last ? lg_op(l, hb, 0, an, l->out_ids) : an);
    cur = lg_op(l, hb, GS_INPLACE, cur, ffn);
  } else {
    int ffn = lg_ffn(l, last ? lg_op(l, hb, 0, an, l->out_ids) : an);
    /* the deferred attention output: a quantized cache's inverse V rotation (build_attn's
    ** llama_mul_mat_hadamard), then wo, both after the FFN (real graph, GGML_SCHED_DEBUG=2 on the
    ** falcon file at 8192 q8_0 cells: the rotation's matmul is node 35, after ffn_out at 33). Taken
    ** before the FFN, the rotated copy moved the FFN's up product above the attention's peak:
    ** +262,144 B at 512-token ubatches, +1,048,576 at 2048 */
    att = lg_rot(l, att, l->v_rot[c], lg_f32(l, sp->heads * sp->head_v, T0));
    cur = lg_op(l, lg_f32(l, sp->hidden, T0), 0, lg_w(l, LW_O), att);
    if (last) cur = lg_op(l, hb, 0, cur, l->out_ids);
    cur = lg_op(l, hb, GS_INPLACE, ffn, cur);
  }
  return lg_op(l, hb, GS_INPLACE, cur, last ? lg_op(l, hb, 0, in, l->out_ids) : in);
}

static int lg_layer(lg *l, int in, uint64_t il) {
  const lc_graph_spec *sp = l->sp;
  lg_at_layer(l, (long)il);
  if (sp->ssm_only) return lg_ssm_layer(l, in, il);
  int c = lg_cache_of(sp, il);
  if (sp->falcon) {
    /* falcon-h1.cpp: attention and Mamba-2 on two norms of the input, attn_out + ssm_out,
    ** + inpSA; in the last layer only inpSA's rows reach the graph (cur's get_rows is
    ** overwritten unused); then ffn_norm, the SwiGLU FFN, ffn + inpSA */
    l->sa_in = in;
    int an = lg_norm(l, in, LW_ATTN_NORM);
    int att = lg_attn(l, an, c);
    int ssm = lg_m2_tail(l, l->fh_m2);
    uint64_t hb = lg_f32(l, sp->hidden, l->T);
    int sa = lg_op(l, hb, GS_INPLACE, lg_op(l, hb, GS_INPLACE, att, ssm), in);
    if (il == sp->n_layer - 1) {
      l->T = sp->n_out ? sp->n_out : sp->n_tok;
      sa = lg_op(l, lg_f32(l, sp->hidden, l->T), 0, sa, l->out_ids);
      hb = lg_f32(l, sp->hidden, l->T);
    }
    int ffn = lg_ffn(l, lg_norm(l, sa, LW_FFN_NORM));
    return lg_op(l, hb, GS_INPLACE, ffn, sa);
  }
  bool sc = lg_sc_layer(sp, il);
  int rs = sc ? l->sc_rs : -1;
  if (sc && rs < 0) rs = lg_rs(l, l->kc, lg_conv_row(sp)); /* the first layer's, before its norm */
  if (sc || !sp->nemo) l->sc_rs = -1; /* Nemotron-H: rows got before MLP layers wait for theirs */
  if (sp->nemo) { /* nemotron-h.cpp: norm, one mixer, cur + inpSA (in place on cur) */
    int an = lg_norm(l, in, LW_ATTN_NORM);
    /* an MLP layer: the squared-ReLU MLP; Nemotron 3's MoE layer (build_ffn_layer with
    ** ffn_gate_inp): the router's logits, build_moe_ffn (sigmoid, exp_probs_b, up experts only,
    ** squared ReLU), the shared squared-ReLU expert beside it, moe_out + ffn_shexp (lg_ffn) */
    int cur = sc ? lg_m2(l, an, rs) : lg_mlp_layer(sp, il) ? (sp->experts ? lg_ffn(l, an) : lg_dense(l, an, sp->ffn, LW_GATE)) : lg_attn(l, an, c);
    return lg_op(l, lg_f32(l, sp->hidden, l->T), GS_INPLACE, cur, in);
  }
  int an = sp->post_norms ? in : lg_norm(l, in, LW_ATTN_NORM);
  if (sp->shared_norm) return lg_shared_norm_layer(l, in, an, c, il);
  bool recr = sp->dn_period && (il + 1) % sp->dn_period != 0;
  l->sa_in = in, l->sa_rows = -1;
  int cur = recr ? lg_dn(l, an) : sc ? (sp->m1_dt_rank ? lg_m1(l, an, rs) : sp->m2_inner ? lg_m2(l, an, rs) : lg_sc(l, an, rs)) : sp->mla ? lg_mla(l, an, c) : lg_attn(l, an, c), sa = in;
  /* inp_out_ids: the rows that produce outputs, from here on (the hybrids of MTP's graph take
  ** them after the output norm, gpt-oss after the last layer) */
  if (il == sp->n_layer - 1 && (!sp->dn_period || !sp->nextn_out) && !sp->rows_late) {
    l->T = sp->n_out ? sp->n_out : sp->n_tok;
    uint64_t ho = lg_f32(l, sp->hidden, l->T);
    cur = lg_op(l, ho, 0, cur, l->out_ids);
    sa = l->sa_rows >= 0 ? l->sa_rows : lg_op(l, ho, 0, sa, l->out_ids);
  }
  uint64_t hb = lg_f32(l, sp->hidden, l->T);
  if (sp->post_norms) { /* olmo2.cpp: attn_post_norm, + inpSA, the FFN on that sum, ffn_post_norm, + the sum */
    int fi = lg_op(l, hb, GS_INPLACE, lg_norm(l, cur, LW_ATTN_NORM), sa);
    return lg_op(l, hb, GS_INPLACE, lg_norm(l, lg_ffn(l, fi), LW_FFN_NORM), fi);
  }
  /* lfm2 adds the branch to the residual (ggml_add(prev_cur, cur)): in place on the residual */
  int ffn_inp = sp->res_first ? lg_op(l, hb, GS_INPLACE, sa, cur) : lg_op(l, hb, GS_INPLACE, cur, sa);
  int ffn = lg_ffn(l, lg_norm(l, ffn_inp, LW_FFN_NORM));
  return sp->fused_up || sp->res_first ? lg_op(l, hb, GS_INPLACE, ffn_inp, ffn) : lg_op(l, hb, GS_INPLACE, ffn, ffn_inp);
}

/* the inputs, allocated first in the order the graph reaches them */
static int lg_inputs(lg *l) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, kvv = sp->kv_heads * sp->head_v;
  int tokens = gs_leaf(l->g, acc_mul(&l->a, T, 4));
  /* inp_embd: since PR #18898 both inputs are in the graph and ggml_build_forward_select
  ** keeps the tokens' path (build_inp_embd, llama.cpp 80fb11a): an input leaf with no
  ** consumer, allocated on the host and never freed; before, only the tokens' path */
  if (!sp->no_embd_leaf) gs_leaf(l->g, lg_f32(l, sp->hidden, T));
  if (sp->ssm_only) { /* mamba.cpp: build_inp_embd, build_rs_inp (s_copy, n_rs rows), build_inp_out_ids */
    l->s_copy = gs_leaf(l->g, acc_mul(&l->a, sp->dn_seqs ? sp->dn_seqs : 1, 4));
    l->s_main = l->s_extra = l->sc_rs = -1, l->pos = l->attn_scale = -1;
    l->out_ids = gs_leaf(l->g, acc_mul(&l->a, sp->n_out ? sp->n_out : T, 4));
    return lg_op(l, lg_f32(l, sp->hidden, T), GS_NOOFFLOAD, lg_w(l, LW_TOKEN_EMBD), tokens);
  }
  /* Gemma 4's per-layer embeddings: their tokens, reached next (build_inp_per_layer is expanded
  ** before the layers) */
  l->g4_tok = sp->g4 && sp->g4_ple ? gs_leaf(l->g, acc_mul(&l->a, T, 4)) : -1;
  if (sp->g4) kvv = sp->g4_vmax; /* v_idxs without flash attention: n_embd_v_gqa_max() rows */
  /* the quantized caches' Hadamard rotations (llama_kv_cache::build_input_k_rot / v_rot),
  ** one pair per cache (llama_kv_cache_iswa: base and SWA); the first layer's pair around
  ** pos (Q's rotation is reached before its RoPE's positions, V's after), the other cache's
  ** before its indices */
  bool two = sp->n_swa || sp->iswa;
  int c0 = two ? lg_cache_of(sp, 0) : 0;
  l->k_rot[0] = l->k_rot[1] = l->v_rot[0] = l->v_rot[1] = -1;
  /* n_rs rows; a short-conv first layer reaches them before any attention input (the leaf
  ** order ggml_gallocr_alloc_graph_impl allocates in), a DeltaNet one after K's rotation */
  bool rs_first = sp->sc_conv && lg_sc_layer(sp, 0) && !sp->falcon;
  uint64_t rs_rows = acc_mul(&l->a, sp->dn_seqs ? sp->dn_seqs : 1, 4);
  l->s_copy = rs_first ? gs_leaf(l->g, rs_rows) : -1;
  /* the rotation's side per cache: Gemma 4's caches have their own head size (n_embd_head_k_all) */
#define LG_ROT_N(c) (sp->g4 ? sp->g4_rot_n[c] : sp->rot_k_n)
  if (sp->rot_k) l->k_rot[c0] = gs_leaf(l->g, lg_f32(l, LG_ROT_N(c0), LG_ROT_N(c0)));
  if (!rs_first) l->s_copy = (sp->dn_period || sp->sc_conv) && !sp->falcon ? gs_leaf(l->g, rs_rows) : -1;
  l->s_main = l->s_extra = -1, l->sc_rs = -1;
  l->pos = sp->no_rope ? -1 : gs_leaf(l->g, acc_mul3(&l->a, T, sp->n_pos ? sp->n_pos : 1, 4));
  /* mistral3's attn_scale ([1, 1, n_tokens]): reached by layer 0's Q right after its RoPE */
  l->attn_scale = sp->attn_temp ? gs_leaf(l->g, acc_mul(&l->a, T, 4)) : -1;
  if (sp->rot_v) l->v_rot[c0] = gs_leaf(l->g, lg_f32(l, 64, 64));
  /* each cache's indices and mask, and Llama 4's attn_scale ([1, 1, n_tokens]), in the order
  ** the layers first read them (the graph's leaf order) */
  l->k_idx[0] = l->k_idx[1] = l->v_idx[0] = l->v_idx[1] = l->mask[0] = l->mask[1] = -1;
  l->mask_f16[0] = l->mask_f16[1] = -1;
  for (uint64_t il = 0; il < sp->n_layer; il++) {
    if (sp->nope_scale && lg_nope(sp, il) && l->attn_scale < 0) l->attn_scale = gs_leaf(l->g, acc_mul(&l->a, T, 4));
    int c = two ? lg_cache_of(sp, il) : 0;
    if (l->mask[c] >= 0) continue;
    if (c != c0 && sp->rot_k) l->k_rot[c] = gs_leaf(l->g, lg_f32(l, LG_ROT_N(c), LG_ROT_N(c)));
    if (c != c0 && sp->rot_v) l->v_rot[c] = gs_leaf(l->g, lg_f32(l, 64, 64));
    /* cpy_store (LLAMA_SET_ROWS=0): no k_idxs / v_idxs inputs (a view of the cache at head instead) */
    l->k_idx[c] = sp->cpy_store ? -1 : gs_leaf(l->g, acc_mul(&l->a, T, 8));
    l->v_idx[c] = sp->mla || sp->cpy_store
                      ? -1
                      : gs_leaf(l->g, acc_mul3(&l->a, T, sp->fa ? 1 : kvv, 8)); /* MLA: K only */
    l->mask[c] = gs_leaf(l->g, acc_mul3(&l->a, sp->n_kv[c], T, sp->fa && !sp->mask_cast ? 2 : 4));
  }
#undef LG_ROT_N
  if (!two) l->k_idx[1] = l->k_idx[0], l->v_idx[1] = l->v_idx[0], l->mask[1] = l->mask[0], l->k_rot[1] = l->k_rot[0], l->v_rot[1] = l->v_rot[0];
  /* Falcon-H1: the rows' first reader is layer 0's build_rs, after its attention's inputs */
  if (sp->falcon) l->s_copy = gs_leaf(l->g, rs_rows);
  l->out_ids = gs_leaf(l->g, acc_mul(&l->a, sp->n_out ? sp->n_out : T, 4));
  int embd = lg_op(l, lg_f32(l, sp->hidden, T), GS_NOOFFLOAD, lg_w(l, LW_TOKEN_EMBD),
                   tokens); /* get_rows from token_embd, a host tensor */
  /* bloom.cpp: the embeddings' LayerNorm (tok_norm, tok_norm_b: input-layer tensors, on the host
  ** with token_embd; its MUL is offloaded to the first GPU, which copies tok_norm, not token_embd),
  ** reached first by layer 0 */
  if (sp->embd_norm) return lg_norm(l, embd, LW_TOK_NORM);
  if (!sp->learned_pos) return embd;
  /* starcoder.cpp: pos = get_rows(pos_embd, inp_pos), then inpL + pos (in place on inpL) */
  int pos = lg_op(l, lg_f32(l, sp->hidden, T), GS_NOOFFLOAD, lg_w(l, LW_TOKEN_EMBD), l->pos);
  return lg_op(l, lg_f32(l, sp->hidden, T), GS_INPLACE, embd, pos);
}

/* ---------------------------------------------------------------- Gemma 4 */

/* Gemma 4's graph (llama_model_gemma4::graph::graph, src/models/gemma4.cpp; build_attn with
** llm_graph_input_attn_kv_iswa, build_ffn and build_moe_ffn of src/llama-graph.cpp; llama.cpp
** 80fb11a), in the order ggml_build_forward_expand leaves it. embeddings_nextn_masked is off by
** default (llama-context.cpp), so no layer takes the output rows: they are taken after the output
** norm (t_h_nextn, an output), then the logits (soft-capping: scale, tanh, scale in place). On the
** CPU one external tensor stands for every weight; the weights LW_* has no kind for (the norms
** after attention and FFN, the router's scale, the per-layer embeddings' tensors) take spare
** kinds (LW_* + LW_BIAS), which a GPU split does not size: reported not exact on a GPU.
** Measured against the real llama.cpp 80fb11a (CPU, make conformance gemma4, gemma4-ple,
** gemma4-moe): 72 of 72 settings within 64 B */

/* an RMS norm with no weight (ggml_rms_norm: Vcur, the router's input), then the weighted one
** (build_norm: ggml_rms_norm, ggml_mul) of `bytes` */
static int lg_g4_rms(lg *l, int x, uint64_t bytes) {
  return lg_named_norm(l, lg_op(l, bytes, GS_INPLACE, x, -1));
}

static int lg_g4_norm(lg *l, int x, uint64_t bytes, int kind) {
  return lg_op(l, bytes, GS_INPLACE, lg_g4_rms(l, x, bytes), lg_w(l, kind));
}

/* project_per_layer_inputs, reached by layer 0's ggml_mul(cur, inp_this_layer): mul_mat of
** per_layer_model_proj over the scaled embeddings (ggml_scale in place), reshaped, RMS-normed
** (a new tensor: its source is a view), times per_layer_proj_norm, + inp_per_layer (in place),
** scaled, permuted and made contiguous: [n_embd_per_layer, n_tokens, n_layer], read per layer
** through 2-D views until the last layer */
static int lg_g4_ple_project(lg *l, int embd, int sel) {
  const lc_graph_spec *sp = l->sp;
  uint64_t pb = acc_mul(&l->a, lg_f32(l, sp->g4_ple, sp->n_tok), sp->n_layer);
  int p = lg_op(l, pb, GS_INPLACE, lg_op(l, pb, 0, lg_w(l, LW_UP), embd), -1);
  int n = lg_g4_norm(l, lg_view(l, p), pb, LW_FFN_NORM);
  n = lg_op(l, pb, GS_INPLACE, lg_op(l, pb, GS_INPLACE, n, sel), -1);
  return lg_op(l, pb, 0, lg_view(l, n), -1); /* ggml_cont of the permute */
}

/* the layer's attention: Q (projection, its norm, RoPE), and on a layer that holds KV, K (the
** same) and V (its projection, or K's where the layer has no attn_v, normed without a weight),
** expanded Q, K, V with their cache stores; the attention over the layer's cache (a KV-shared
** layer's: an earlier layer's), the output projection */
static int lg_g4_attn(lg *l, int an, uint64_t il) {
  const lc_graph_spec *sp = l->sp;
  int c = lg_cache_of(sp, il);
  uint64_t T = sp->n_tok, hk = sp->g4_hk[c], kvh = sp->g4_kvh[c];
  uint64_t qb = lg_f32(l, sp->heads * hk, T), kb = lg_f32(l, kvh * hk, T), ob = qb;
  int q = lg_op(l, qb, 0, lg_w(l, LW_Q), an);
  q = lg_op(l, qb, GS_INPLACE | GS_ROPE, lg_g4_norm(l, lg_view(l, q), qb, LW_ATTN_NORM), l->pos);
  q = lg_rot(l, q, l->k_rot[c], qb);
  if (il < sp->g4_kv_layers) {
    int kp = lg_op(l, kb, 0, lg_w(l, LW_K), an);
    int kv = lg_view(l, kp);
    int k = lg_op(l, kb, GS_INPLACE | GS_ROPE, lg_g4_norm(l, kv, kb, LW_ATTN_NORM), l->pos);
    k = lg_rot(l, k, l->k_rot[c], kb);
    int vp = c == 0 && sp->g4_k_eq_v ? kp : lg_op(l, kb, 0, lg_w(l, LW_V), an);
    int v = lg_rot(l, lg_g4_rms(l, lg_view(l, vp), kb), l->v_rot[c], kb);
    lg_store(l, k, l->k_idx[c], l->kc);
    if (sp->fa) {
      lg_store(l, v, l->v_idx[c], l->vc);
    } else {
      /* cpy_v: the V rows reshaped, padded to n_embd_v_gqa_max when the layers' V widths differ
      ** ([TAG_V_CACHE_VARIABLE], llama-kv-cache.cpp), stored transposed */
      int vr = lg_view(l, v);
      if (kvh * hk < sp->g4_vmax) vr = lg_op(l, lg_f32(l, sp->g4_vmax, T), 0, vr, -1);
      lg_store(l, lg_view(l, vr), l->v_idx[c], l->vc);
    }
  }
  int o;
  q = lg_view(l, lg_view(l, q));
  if (sp->fa) {
    uint64_t cells = acc_mul3(&l->a, sp->n_kv[c], sp->n_stream ? sp->n_stream : 1, kvh);
    o = lg_view(l, lg_fa(l, ob, q, l->kc, l->vc, c, acc_mul(&l->a, cells, hk), acc_mul(&l->a, cells, hk)));
  } else {
    uint64_t kq = acc_mul(&l->a, lg_f32(l, sp->n_kv[c], T), sp->heads);
    int sm = lg_op(l, kq, GS_INPLACE, lg_op(l, kq, 0, l->kc, q), l->mask[c]);
    o = lg_op(l, ob, 0, lg_view(l, lg_op(l, ob, 0, l->vc, sm)), -1);
  }
  o = lg_rot(l, o, l->v_rot[c], ob);
  return lg_op(l, lg_f32(l, sp->hidden, T), 0, lg_w(l, LW_O), o);
}

/* the MoE block's router and experts, expanded inside build_moe_ffn (the weights, then the
** experts) before the dense FFN beside them: the router's input RMS-normed from attn_out (no
** weight), scaled and times ffn_gate_inp.scale (in place), its logits, softmax, top-k, the
** weights renormalized (norm_w true); the experts (GELU, gate and up fused or not) on
** ffn_pre_norm_2 of attn_out, their down product times the per-expert scale
** (ffn_down_exps.scale: reshaped, ggml_repeat_4d over the tokens, get_rows of the selected),
** times the weights, summed over the k views */
static int lg_g4_moe(lg *l, int attn_out) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, k = sp->experts_used ? sp->experts_used : 1, E = sp->experts;
  uint64_t hb = lg_f32(l, sp->hidden, T), eb = lg_f32(l, E, T), kb = lg_f32(l, k, T);
  int tmp = lg_op(l, hb, GS_INPLACE, lg_op(l, hb, GS_INPLACE, lg_g4_rms(l, attn_out, hb), -1), lg_w(l, LW_ROUTER + LW_BIAS));
  int logits = lg_op(l, eb, 0, lg_w(l, LW_ROUTER), tmp);
  int probs = lg_op(l, eb, GS_INPLACE, logits, -1);
  int pr = lg_view(l, probs);
  int topk = lg_view_n(l, lg_op(l, eb, 0, probs, -1), lg_view2(l, k, T, E * 4));
  int wts = lg_view(l, lg_op(l, kb, 0, pr, topk));
  int sum = lg_op(l, lg_f32(l, 1, T), GS_INPLACE, lg_op(l, lg_f32(l, 1, T), 0, wts, -1), -1);
  int wn = lg_view(l, lg_op(l, kb, GS_INPLACE, wts, sum));
  int x = lg_view(l, lg_norm(l, attn_out, LW_FFN_NORM + LW_BIAS));
  uint64_t fb = acc_mul(&l->a, lg_f32(l, sp->ffn, T), k);
  int src[3] = {-1, x, topk}, gate, up;
  if (sp->gate_up_exps) {
    src[0] = lg_w(l, LW_GATE_EXPS);
    int gu = gs_node(l->g, acc_mul(&l->a, fb, 2), 0, -1, src, 3);
    gate = lg_view_n(l, gu, fb), up = lg_view_n(l, gu, fb);
  } else {
    src[0] = lg_w(l, LW_GATE_EXPS); /* ggml_geglu_split(gate, up): the walk reaches gate first */
    gate = gs_node(l->g, fb, 0, -1, src, 3);
    src[0] = lg_w(l, LW_UP_EXPS);
    up = gs_node(l->g, fb, 0, -1, src, 3);
  }
  int act = lg_op(l, fb, 0, gate, up); /* ggml_geglu_split */
  int dsrc[3] = {lg_w(l, LW_DOWN_EXPS), act, topk};
  uint64_t db = acc_mul(&l->a, hb, k);
  int down = gs_node(l->g, db, 0, -1, dsrc, 3);
  int rep = lg_op(l, eb, 0, lg_view(l, lg_w(l, LW_DOWN_EXPS + LW_BIAS)), -1);
  int s = lg_op(l, kb, 0, rep, topk);
  down = lg_op(l, db, GS_INPLACE, down, s);
  int weighted = lg_op(l, db, GS_INPLACE, down, wn);
  int views[64];
  uint64_t nv = k < 64 ? k : 64;
  for (uint64_t i = 0; i < nv; i++) views[i] = lg_view_n(l, weighted, lg_view2(l, sp->hidden, T, acc_mul(&l->a, hb / T, k)));
  int out = nv == 1 ? lg_op(l, hb, 0, views[0], -1) : lg_op(l, hb, GS_INPLACE, views[0], views[1]);
  for (uint64_t i = 2; i < nv; i++) out = lg_op(l, hb, GS_INPLACE, out, views[i]);
  return out;
}

static int lg_g4_layer(lg *l, int in, uint64_t il, int ple_sel, int *ple) {
  const lc_graph_spec *sp = l->sp;
  lg_at_layer(l, (long)il);
  uint64_t T = sp->n_tok, hb = lg_f32(l, sp->hidden, T);
  int an = lg_norm(l, in, LW_ATTN_NORM);
  int cur = lg_g4_norm(l, lg_g4_attn(l, an, il), hb, LW_O + LW_BIAS); /* attn_post_norm */
  int attn_out = lg_op(l, hb, GS_INPLACE, cur, in);
  uint64_t width = il >= sp->g4_kv_layers && sp->g4_ffn_shared ? sp->g4_ffn_shared : sp->g4_ffn;
  int moe = sp->experts ? lg_g4_moe(l, attn_out) : -1;
  cur = lg_dense(l, lg_norm(l, attn_out, LW_FFN_NORM), width, LW_GATE);
  if (moe >= 0) { /* ffn_post_norm_1 of the dense FFN, + ffn_post_norm_2 of the experts' */
    cur = lg_g4_norm(l, cur, hb, LW_SH_GATE);
    cur = lg_op(l, hb, GS_INPLACE, cur, lg_g4_norm(l, moe, hb, LW_SH_UP));
  }
  cur = lg_op(l, hb, GS_INPLACE, lg_g4_norm(l, cur, hb, LW_SH_DOWN), attn_out); /* ffn_post_norm, + attn_out */
  if (sp->g4_ple) { /* the per-layer embedding: gate (GELU in place) times this layer's slice, projected, normed, + pe_in */
    uint64_t pb = lg_f32(l, sp->g4_ple, T);
    int g = lg_op(l, pb, GS_INPLACE, lg_op(l, pb, 0, lg_w(l, LW_GATE + LW_BIAS), cur), -1);
    if (*ple < 0) *ple = lg_g4_ple_project(l, in, ple_sel);
    g = lg_op(l, pb, GS_INPLACE, g, lg_view_n(l, *ple, pb));
    int pe = lg_g4_norm(l, lg_op(l, hb, 0, lg_w(l, LW_DOWN + LW_BIAS), g), hb, LW_UP + LW_BIAS);
    cur = lg_op(l, hb, GS_INPLACE, cur, pe);
  }
  return lg_op(l, hb, GS_INPLACE, cur, lg_w(l, LW_ATTN_NORM + LW_BIAS)); /* layer_output_scale */
}

/* the output norm and head: the norm an output of the graph; with rows_after (a graph whose output
** rows are taken after the norm: the MTP hybrids' h_nextn, Nemotron-H, Gemma 4) the rows of
** out_ids taken from it, also an output; then the logits */
static int lg_head(lg *l, int cur, bool rows_after) {
  const lc_graph_spec *sp = l->sp;
  int norm = lg_norm(l, cur, LW_OUT_NORM);
  gs_set_output(l->g, norm);
  if (rows_after) {
    l->T = sp->n_out ? sp->n_out : sp->n_tok;
    norm = lg_op(l, lg_f32(l, sp->hidden, l->T), 0, norm, l->out_ids);
    gs_set_output(l->g, norm);
  }
  if (sp->head_scale) norm = lg_op(l, lg_f32(l, sp->hidden, l->T), GS_INPLACE, norm, -1); /* not in place: an output */
  int out = lg_op(l, lg_f32(l, sp->vocab, l->T), 0, lg_w(l, LW_OUTPUT), norm);
  gs_set_output(l->g, out);
  return out;
}

/* build_inp_per_layer, expanded before the layers: get_rows of per_layer_token_embd by the
** tokens (an input of its own), reshaped and scaled (a new tensor: its source is a view) */
static int lg_g4_build(lg *l) {
  const lc_graph_spec *sp = l->sp;
  int cur = lg_inputs(l), ple_sel = -1, ple = -1;
  if (sp->g4_ple) {
    uint64_t pb = acc_mul(&l->a, lg_f32(l, sp->g4_ple, sp->n_tok), sp->n_layer);
    int rows = lg_op(l, pb, GS_NOOFFLOAD, lg_w(l, LW_DOWN), l->g4_tok);
    ple_sel = lg_op(l, pb, GS_INPLACE, lg_view(l, rows), -1);
  }
  for (uint64_t il = 0; il < sp->n_layer; il++) cur = lg_g4_layer(l, cur, il, ple_sel, &ple);
  lg_at_layer(l, (long)sp->n_layer);
  return lg_head(l, cur, true); /* t_h_nextn, then t_embd: its output rows */
}

/* ---------------------------------------------------------------- legacy graph */

/* the llm_build_context graph (src/llama.cpp of b4385, build_llama / build_gptneox with
** llm_build_norm, llm_build_kv, llm_build_kqv and llm_build_ffn): ggml_build_forward_expand
** adds a layer's Q, K, V, the cache copies and the attention when llm_build_kv runs, and
** the rest of the layer (output projection, FFN, residuals) only when the next layer's
** norm reaches it, in depth-first order from the layer output */

/* llm_build_norm: LLM_NORM (not in place) or LLM_NORM_RMS, then the weight and a bias */
static int lo_norm(lg *l, int x, int kind) {
  const lc_graph_spec *sp = l->sp;
  uint64_t b = lg_f32(l, sp->hidden, sp->n_tok);
  int n = lg_named_norm(l, lg_op(l, b, sp->layer_norm ? 0 : GS_INPLACE, x, -1));
  n = lg_op(l, b, GS_INPLACE, n, lg_w(l, kind));
  return sp->biases ? lg_op(l, b, GS_INPLACE, n, lg_w(l, kind + LW_BIAS)) : n;
}

static int lo_bias(lg *l, int x, uint64_t bytes, int kind) {
  return l->sp->biases ? lg_op(l, bytes, GS_INPLACE, x, lg_w(l, kind + LW_BIAS)) : x;
}

/* a projection (and its bias) */
static int lo_mm(lg *l, int x, uint64_t bytes, int kind) {
  return lo_bias(l, lg_op(l, bytes, 0, lg_w(l, kind), x), bytes, kind);
}

static int lo_rope(lg *l, int x, uint64_t bytes) {
  return lg_op(l, bytes, GS_INPLACE | GS_ROPE, lg_view(l, x), l->pos);
}

/* Q, K, V: wqkv + bqkv and three contiguous copies (GPT-NeoX), or three projections */
static void lo_qkv(lg *l, int an, int *q, int *k, int *v) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok;
  uint64_t qb = lg_f32(l, sp->heads * sp->head_k, T);
  uint64_t kb = lg_f32(l, sp->kv_heads * sp->head_k, T), vb = lg_f32(l, sp->kv_heads * sp->head_v, T);
  if (sp->fused_qkv) {
    int qkv = lo_mm(l, an, qb + kb + vb, LW_QKV);
    uint64_t row = (qb + kb + vb) / T; /* the views of Q, K and V in the rows of QKV */
    *q = lo_rope(l, lg_op(l, qb, 0, lg_view_n(l, qkv, lg_view2(l, qb / T / 4, T, row)), -1), qb);
    *k = lo_rope(l, lg_op(l, kb, 0, lg_view_n(l, qkv, lg_view2(l, kb / T / 4, T, row)), -1), kb);
    *v = lg_op(l, vb, 0, lg_view_n(l, qkv, lg_view2(l, vb / T / 4, T, row)), -1);
  } else {
    *q = lo_rope(l, lo_mm(l, an, qb, LW_Q), qb);
    *k = lo_rope(l, lo_mm(l, an, kb, LW_K), kb);
    *v = lo_mm(l, an, vb, LW_V);
  }
}

/* llm_build_kv_store: ggml_cpy into views of the cache (V transposed without FA) */
static void lo_store(lg *l, int k, int v) {
  int src[2] = {k, lg_view(l, l->kc)};
  gs_node(l->g, 0, GS_WRITES, l->kc, src, 2);
  int vt = l->sp->fa ? v : lg_view(l, v);
  int vsrc[2] = {vt, lg_view(l, l->vc)};
  gs_node(l->g, 0, GS_WRITES, l->vc, vsrc, 2);
}

/* llm_build_kqv up to the merged heads (expanded there) */
static int lo_kqv(lg *l, int q) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok, ob = lg_f32(l, sp->heads * sp->head_v, T);
  uint64_t p = sp->legacy_swa_period;
  int *mask = p && l->il >= 0 && (uint64_t)l->il % p < p - 1 ? l->mask_swa : l->mask; /* sliding layer */
  if (sp->fa) {
    int qp = lg_view(l, q), kv = lg_cache_view(l, l->kc, 0), vv = lg_cache_view(l, l->vc, 1);
    if (mask[1] < 0) /* ggml_cast of the f32 mask to f16, reached at the first use */
      mask[1] = lg_op(l, acc_mul3(&l->a, sp->n_kv[0], bytes_ceildiv(T, 32) * 32, 2), 0, mask[0], -1);
    int src[4] = {qp, kv, vv, mask[1]};
    return lg_view(l, gs_node(l->g, ob, 0, -1, src, 4));
  }
  int vv = lg_cache_view(l, l->vc, 1), kv = lg_cache_view(l, l->kc, 0), qp = lg_view(l, q);
  uint64_t kq = acc_mul(&l->a, lg_f32(l, sp->n_kv[0], T), sp->heads);
  int sm = lg_op(l, kq, GS_INPLACE, lg_op(l, kq, 0, kv, qp), mask[0]);
  return lg_op(l, ob, 0, lg_view(l, lg_op(l, ob, 0, vv, sm)), -1);
}

/* llm_build_ffn: GELU after up (+ bias), or SiLU(gate) x up; then down (+ bias) */
static int lo_ffn(lg *l, int x) {
  const lc_graph_spec *sp = l->sp;
  uint64_t fb = lg_f32(l, sp->ffn, sp->n_tok), hb = lg_f32(l, sp->hidden, sp->n_tok);
  int act;
  if (sp->gated) {
    int gate = lg_op(l, fb, GS_INPLACE, lo_mm(l, x, fb, LW_GATE), -1);
    act = lg_op(l, fb, GS_INPLACE, gate, lo_mm(l, x, fb, LW_UP));
  } else {
    act = lg_op(l, fb, GS_INPLACE, lo_mm(l, x, fb, LW_UP), -1);
  }
  return lo_mm(l, act, hb, LW_DOWN);
}

/* the rows that produce outputs (the last layer): inp_out_ids is made here */
static int lo_rows(lg *l, int x) {
  if (l->out_ids < 0) l->out_ids = gs_leaf(l->g, acc_mul(&l->a, l->sp->n_tok, 4));
  return lg_op(l, lg_f32(l, l->sp->hidden, l->sp->n_tok), 0, x, l->out_ids);
}

/* the rest of layer il, as the depth-first walk from its output adds it */
static int lo_tail(lg *l, int in, int an, int attn, uint64_t il) {
  const lc_graph_spec *sp = l->sp;
  uint64_t hb = lg_f32(l, sp->hidden, sp->n_tok);
  bool last = il == sp->n_layer - 1;
  if (sp->par_res && sp->shared_norm) { /* (attn(ln(x)) + ffn(ln(x))) + x */
    int a = lo_bias(l, lg_op(l, hb, 0, lg_w(l, LW_O), attn), hb, LW_O);
    int x = in, nx = an;
    if (last) a = lo_rows(l, a), x = lo_rows(l, in), nx = lo_rows(l, an);
    return lg_op(l, hb, GS_INPLACE, lg_op(l, hb, GS_INPLACE, a, lo_ffn(l, nx)), x);
  }
  if (sp->par_res) { /* x + attn(ln1(x)) + ffn(ln2(x)) */
    int x = last ? lo_rows(l, in) : in;
    int ffn = lg_op(l, hb, GS_INPLACE, lo_ffn(l, lo_norm(l, x, LW_FFN_NORM)), x);
    int a = lg_op(l, hb, 0, lg_w(l, LW_O), attn);
    a = lo_bias(l, a, hb, LW_O);
    if (last) a = lo_rows(l, a);
    return lg_op(l, hb, GS_INPLACE, ffn, a);
  }
  int a = lo_bias(l, lg_op(l, hb, 0, lg_w(l, LW_O), attn), hb, LW_O);
  int x = in;
  if (last) a = lo_rows(l, a), x = lo_rows(l, in);
  int ffn_inp = lg_op(l, hb, GS_INPLACE, a, x);
  return lg_op(l, hb, GS_INPLACE, lo_ffn(l, lo_norm(l, ffn_inp, LW_FFN_NORM)), ffn_inp);
}

static int lo_layer(lg *l, int in, uint64_t il) {
  lg_at_layer(l, (long)il);
  int q, k, v, an = lo_norm(l, in, LW_ATTN_NORM);
  lo_qkv(l, an, &q, &k, &v);
  lo_store(l, k, v);
  return lo_tail(l, in, an, lo_kqv(l, q), il);
}

static int lo_build(lg *l) {
  const lc_graph_spec *sp = l->sp;
  uint64_t T = sp->n_tok;
  int tokens = gs_leaf(l->g, acc_mul(&l->a, T, 4));
  int cur = lg_op(l, lg_f32(l, sp->hidden, T), GS_NOOFFLOAD, lg_w(l, LW_TOKEN_EMBD), tokens);
  l->pos = gs_leaf(l->g, acc_mul(&l->a, T, 4));
  l->mask[0] = gs_leaf(l->g, acc_mul3(&l->a, sp->n_kv[0], bytes_ceildiv(T, 32) * 32, 4)); /* GGML_KQ_MASK_PAD 32 */
  l->mask[1] = l->out_ids = -1;
  /* build_inp_KQ_mask_swa right after it: the same shape, f32 */
  l->mask_swa[0] = sp->legacy_swa_period ? gs_leaf(l->g, acc_mul3(&l->a, sp->n_kv[0], bytes_ceildiv(T, 32) * 32, 4)) : -1;
  l->mask_swa[1] = -1;
  for (uint64_t il = 0; il < sp->n_layer; il++) cur = lo_layer(l, cur, il);
  lg_at_layer(l, (long)sp->n_layer);
  return lg_op(l, lg_f32(l, sp->vocab, T), 0, lg_w(l, LW_OUTPUT), lo_norm(l, cur, LW_OUT_NORM));
}

/* ---------------------------------------------------------------- buffers */

static int lg_build(lg *l) {
  const lc_graph_spec *sp = l->sp;
  if (sp->g4) return lg_g4_build(l);
  int cur = lg_inputs(l);
  for (uint64_t il = 0; il < sp->n_layer; il++) cur = lg_layer(l, cur, il);
  lg_at_layer(l, (long)sp->n_layer);
  if (sp->rows_late) { /* the last layer's output is t_h_nextn, a graph output: never freed */
    gs_set_output(l->g, cur);
    l->T = sp->n_out ? sp->n_out : sp->n_tok;
    cur = lg_op(l, lg_f32(l, sp->hidden, l->T), 0, cur, l->out_ids);
  }
  /* h_nextn, then result_norm: its output rows */
  return lg_head(l, cur, (sp->dn_period && sp->nextn_out) || sp->nemo);
}

bool lc_graph_buffers(const lc_graph_spec *sp, uint64_t gpu_align, uint64_t cpu_align, uint64_t *sizes,
                      int *n_nodes, int *n_splits, int *n_unsized) {
  if (!sp->layer_dev || !sp->kv_dev || sp->n_gpu < 1 || sp->n_gpu >= GS_MAX_BACKENDS) return false;
  lg l = {.g = gs_new(), .sp = sp, .a = {0, false}};
  if (!l.g) return false;
  for (int b = 0; b <= sp->n_gpu; b++) l.wb[b] = gs_ext_at(l.g, b, true), l.cb[b] = gs_ext_at(l.g, b, false);
  l.w = l.wb[sp->n_gpu], l.wbk = sp->n_gpu, l.kc = l.vc = l.cb[sp->n_gpu], l.il = -1, l.T = sp->n_tok;
  if (sp->legacy)
    lo_build(&l);
  else
    lg_build(&l);
  uint64_t align[GS_MAX_BACKENDS];
  for (int b = 0; b <= sp->n_gpu; b++) align[b] = b < sp->n_gpu ? gpu_align : cpu_align;
  *n_nodes = gs_n_nodes(l.g);
  /* ggml_backend_cuda_device_offload_op: a batch of 32 rows or more (get_rows never) */
  *n_splits = gs_sched(l.g, sp->n_gpu + 1, sp->n_copies, sp->op_offload && sp->n_tok >= 32);
  *n_unsized = gs_unsized_copies(l.g);
  bool ok = *n_splits > 0 && gs_plan_n(l.g, align, sizes) && !l.a.overflow;
  gs_free(l.g);
  return ok;
}

bool lc_graph_compute_buffer(const lc_graph_spec *sp, uint64_t align, uint64_t *size) {
  lg l = {.g = gs_new(), .sp = sp, .a = {0, false}};
  if (!l.g) return false;
  l.w = l.kc = l.vc = gs_ext(l.g), l.il = -1, l.T = sp->n_tok;
  lg_build(&l);
  bool ok = gs_plan(l.g, align, size) && !l.a.overflow;
  gs_free(l.g);
  return ok;
}
