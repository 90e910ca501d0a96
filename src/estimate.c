/*
** estimate.c: the budget of one scenario on one device (see estimate.h): the helpers
** every runtime shares (estimate_int.h) and the dispatch from (runtime, workload kind)
** to the module that models it (infer.c, train.c, rt_*.c). Uses budget.c,
** inventory.c, bytes.c; no Lua.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate_int.h"

uint64_t est_bits(vf_dtype dt) {
  return dtype_get(dt)->bits;
}

/* bytes of n elements of dt (dtype_bytes), overflow recorded in c */
uint64_t est_elems_bytes(ectx *c, uint64_t n, vf_dtype dt) {
  uint64_t b = 0;
  if (!dtype_bytes(dt, n, &b)) c->acc.overflow = true;
  return b;
}

bool est_tp_sharded(inv_role r) {
  return r == ROLE_ATTN || r == ROLE_MLP || r == ROLE_EXPERT || r == ROLE_SHARED_EXPERT ||
         r == ROLE_EMBED || r == ROLE_LM_HEAD;
}

/* A long-lived tensor's share of the caching allocator's segments (c10/cuda/
** CUDACachingAllocator.cpp): a request is rounded to 512 B; one of at most 1 MiB (kSmallSize)
** is split from the small pool's shared segments; one under 10 MiB (kMinLargeAlloc) is split
** from a 20 MiB segment (kLargeBuffer, get_allocation_size) that the next requests of its
** size share (a block splits while the rest is over kSmallSize), so floor(20 MiB / r) of them
** fill one and each takes that fraction of it; a larger one gets a segment of its own rounded
** to 2 MiB (kRoundLarge). */
uint64_t estimate_round_alloc(uint64_t bytes) {
  uint64_t r = bytes;
  if (!bytes_align(bytes, 512, &r)) return bytes;
  if (r > MIB && r < 10 * MIB) return bytes_ceildiv(20 * MIB, (20 * MIB) / r);
  if (r >= 10 * MIB && !bytes_align(r, 2 * MIB, &r)) return bytes;
  return r;
}

typedef struct weight_split {
  uint64_t layers, embed, head; /* per-layer groups, input embeddings, the rest */
} weight_split;

static bool split_weights(const model_desc *m, uint64_t tp, weight_split *w) {
  bytes_acc acc = {0, false};
  memset(w, 0, sizeof *w);
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    uint64_t b;
    if (!inv_tensor_bytes(t, &b)) return false;
    if (tp > 1 && est_tp_sharded(t->role)) b = bytes_ceildiv(b, tp);
    uint64_t *slot = strchr(t->name, '*') ? &w->layers
                     : (t->role == ROLE_EMBED || t->role == ROLE_POS_EMBED) ? &w->embed
                                                                             : &w->head;
    *slot = acc_add(&acc, *slot, b);
  }
  return !acc.overflow;
}

bool estimate_device_weights(const model_desc *m, uint64_t tp, uint64_t pp, uint64_t *out) {
  weight_split w;
  if (tp == 0 || pp == 0 || !split_weights(m, tp, &w)) return false;
  uint64_t total;
  if (pp == 1) {
    if (!bytes_add(w.layers, w.embed, &total) || !bytes_add(total, w.head, &total)) return false;
  } else {
    /* the heaviest stage: a share of the layers plus the embeddings (first stage) or
    ** the final norm and head (last stage) */
    uint64_t ends = w.embed > w.head ? w.embed : w.head;
    if (!bytes_add(bytes_ceildiv(w.layers, pp), ends, &total)) return false;
  }
  *out = total;
  return true;
}

/* One pipeline stage's weights and parameter elements on one tp rank: `layers` of the
** model's `all_layers` repeated layers (the per-layer groups' bytes in that proportion),
** the input embeddings on the first stage, the final norm and head on the last. A tied
** output head that has no tensor of its own is a second copy of the word embedding on the
** last stage when that is not the first: Megatron's setup_embeddings_and_output_layer
** (megatron/core/models/common/language_module/language_module.py) creates the last
** stage's output_layer.weight, fills it with zeros and all-reduces it with the first
** stage's embedding over the embedding group, and the module-splitting frameworks
** (torchtitan's per-stage deep copy with the other stages' modules deleted, DeepSpeed's
** TiedLayerSpec) keep the shared tensor on every stage that uses it. */
bool estimate_stage_weights(const model_desc *m, uint64_t tp, uint64_t layers, uint64_t all_layers, bool first,
                            bool last, uint64_t *bytes, uint64_t *elems) {
  bytes_acc acc = {0, false};
  uint64_t lb = 0, le = 0, b_out = 0, e_out = 0, word_b = 0, word_e = 0;
  bool head = false;
  if (tp == 0 || all_layers == 0) return false;
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    uint64_t b, n, one;
    if (!inv_tensor_bytes(t, &b) || !inv_tensor_elements(t, &one)) return false;
    n = acc_mul(&acc, one, t->count);
    if (tp > 1 && est_tp_sharded(t->role)) b = bytes_ceildiv(b, tp), n = bytes_ceildiv(n, tp);
    if (t->role == ROLE_LM_HEAD) head = true;
    if (strchr(t->name, '*')) {
      lb = acc_add(&acc, lb, b), le = acc_add(&acc, le, n);
      continue;
    }
    bool embed = t->role == ROLE_EMBED || t->role == ROLE_POS_EMBED;
    if (t->role == ROLE_EMBED) word_b = acc_add(&acc, word_b, b), word_e = acc_add(&acc, word_e, n);
    if (embed ? first : last) b_out = acc_add(&acc, b_out, b), e_out = acc_add(&acc, e_out, n);
  }
  if (last && !first && m->tied_embeddings && !head)
    b_out = acc_add(&acc, b_out, word_b), e_out = acc_add(&acc, e_out, word_e);
  uint64_t sb = 0, se = 0;
  if (!bytes_muldiv(lb, layers, all_layers, &sb) || !bytes_muldiv(le, layers, all_layers, &se)) return false;
  *bytes = acc_add(&acc, sb, b_out);
  *elems = acc_add(&acc, se, e_out);
  return !acc.overflow;
}

static bool name_has(const char *name, const char *a, const char *b) {
  return strstr(name, a) != NULL || strstr(name, b) != NULL;
}

/* Routed experts as the caching allocator sees them. The inventory lists them per expert
** (count = MoE layers x E, the checkpoint's and vLLM's / llama.cpp's reading), but a
** transformers model holds:
** - a tensor named without an expert index (one '*', the layer) as one 3-D nn.Parameter
**   per layer in every release: GraniteMoe / GraniteMoeHybrid ParallelExperts
**   (nn.Parameter(torch.empty(num_experts, output_size, input_size))), GptOssExperts and
**   Llama4TextExperts (gate_up_proj {E, h, 2I}, down_proj {E, I, h});
** - per-expert modules (experts.* : nn.ModuleList of nn.Linear, one allocation per expert
**   matrix) up to 4.x, and from 5.0 (huggingface/transformers 8598421b, the unified MoE
**   "Experts" classes, e.g. Qwen3MoeExperts, MixtralExperts) one gate_up_proj
**   {E, 2I, h} (gate and up concatenated) and one down_proj {E, h, I} per layer:
**   transformers.fused_experts (scripts/runtimes/transformers.lua, runtime.version >= 5);
**   the pytorch runtime's fused_experts knob for a loop whose model holds them so (the
**   HF 5.x classes, torchtitan's GroupedExperts w1/w2/w3 {E, ., .}).
** Returns false for a tensor kept as listed; else *one and *count become the fused
** parameter's bytes and how many; an up projection adds what concatenating it to its
** gate (same shape, gated_mlp) adds to the fused tensor, so the pair rounds as one. */
static bool fused_expert(ectx *c, const inv_tensor *t, uint64_t tp, bool fused_layout, uint64_t *one, uint64_t *count) {
  uint64_t E = c->m->block.experts;
  if (t->role != ROLE_EXPERT || E == 0 || t->count % E != 0) return false;
  const char *star = strchr(t->name, '*');
  bool per_expert = star && strchr(star + 1, '*');
  if (per_expert && !fused_layout) return false;
  uint64_t f = acc_mul(&c->acc, *one, E);
  if (tp > 1 && est_tp_sharded(t->role)) f = bytes_ceildiv(f, tp);
  *count = t->count / E;
  if (per_expert && name_has(t->name, ".up_proj.", ".w3.")) {
    uint64_t pair = estimate_round_alloc(acc_mul(&c->acc, f, 2)), gate = estimate_round_alloc(f);
    *one = pair > gate ? pair - gate : 0;
    return true;
  }
  *one = estimate_round_alloc(f);
  return true;
}

static uint64_t est_reserved_weights(ectx *c, uint64_t tp) {
  uint64_t total = 0;
  /* read once per estimate, not per tensor (this runs for every sweep point) */
  bool fused_layout = c->m->block.experts && (scn_u64(c->s, "transformers.fused_experts", 0) != 0 ||
                                              scn_bool(c->s, "runtime.fused_experts", false));
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *t = &c->m->inv.t[i];
    uint64_t one = 0, n = 0, count = t->count;
    if (!inv_tensor_elements(t, &n)) c->acc.overflow = true;
    one = t->stored_bytes ? t->stored_bytes : est_elems_bytes(c, n, t->dtype);
    if (!fused_expert(c, t, tp, fused_layout, &one, &count)) {
      if (tp > 1 && est_tp_sharded(t->role)) one = bytes_ceildiv(one, tp);
      one = estimate_round_alloc(one);
    }
    total = acc_add(&c->acc, total, acc_mul(&c->acc, one, count));
  }
  return total;
}

uint64_t est_kv_heads_rank(uint64_t heads, uint64_t tp) {
  return heads >= tp ? bytes_ceildiv(heads, tp) : 1;
}

/* Tokens one layer of g caches for a sequence of `tokens`: the window (sliding or chunked)
** when shorter, the encoder tokens for cross-attention. */
uint64_t est_kv_group_tokens(const kv_group *g, uint64_t tokens) {
  if (g->kind == KV_CROSS) return g->tokens;
  return g->window && g->window < tokens ? g->window : tokens;
}

/* A recurrent state group holds a constant per sequence: state_elems per layer, split by
** tp, in the model dtype (vLLM's mamba_ssm_cache_dtype "auto", transformers' cache). */
static uint64_t kv_state_bytes(ectx *c, const kv_group *g, uint64_t seqs) {
  uint64_t layers = bytes_ceildiv(g->layers, c->s->pp);
  uint64_t per = bytes_ceildiv(g->state_elems, c->s->tp);
  return est_elems_bytes(c, acc_mul3(&c->acc, per, layers, seqs), c->s->dtype);
}

/* K and V elements of one token in every layer of g on one rank (tp, pp split). */
static uint64_t group_token_elems(ectx *c, const kv_group *g) {
  uint64_t layers = bytes_ceildiv(g->layers, c->s->pp);
  uint64_t per_tok = acc_mul(&c->acc, est_kv_heads_rank(g->kv_heads, c->s->tp), acc_add(&c->acc, g->k_dim, g->v_dim));
  return acc_mul(&c->acc, per_tok, layers);
}

uint64_t est_kv_cache_bytes(ectx *c, uint64_t tokens, uint64_t seqs, bool windows) {
  uint64_t total = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind == KV_STATE) {
      total = acc_add(&c->acc, total, kv_state_bytes(c, g, seqs));
      continue;
    }
    uint64_t t = windows || g->kind == KV_CROSS ? est_kv_group_tokens(g, tokens) : tokens;
    if (g->bytes) { /* bytes a token whatever the KV dtype (DeepSeek-V3.2's indexer keys) */
      total = acc_add(&c->acc, total, acc_mul3(&c->acc, acc_mul(&c->acc, g->bytes, bytes_ceildiv(g->layers, c->s->pp)), t, seqs));
      continue;
    }
    uint64_t elems = acc_mul3(&c->acc, group_token_elems(c, g), t, seqs);
    total = acc_add(&c->acc, total, est_elems_bytes(c, elems, c->s->kv_dtype));
  }
  return total;
}

uint64_t est_kv_token_bytes(ectx *c) {
  uint64_t elems = 0, fixed = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind != KV_ATTN && g->kind != KV_CHUNKED) continue;
    if (g->bytes)
      fixed = acc_add(&c->acc, fixed, acc_mul(&c->acc, g->bytes, bytes_ceildiv(g->layers, c->s->pp)));
    else
      elems = acc_add(&c->acc, elems, group_token_elems(c, g));
  }
  return acc_add(&c->acc, est_elems_bytes(c, elems, c->s->kv_dtype), fixed);
}

/* The largest transient of one decoder layer's forward over `tokens` tokens on this rank,
** a bytes per element: the residual, hidden and norm output beside the wider of attention
** (fused qkv, output) and the dense MLP (gate_up, activation); pipeline stages also keep
** the intermediate hidden/residual buffers. MoE layers add the fused-MoE workspaces (the
** gate/up output, the activation and the per-expert outputs of every routed copy, in
** chunks of 32768 tokens: vLLM's VLLM_FUSED_MOE_CHUNK_SIZE) and fp32 router logits. The
** arithmetic of vLLM's profile run (src/rt_vllm.c cites its calibration); SGLang's chunked
** prefill runs the same layers. */
uint64_t est_forward_dense_bytes(ectx *c, uint64_t tokens, uint64_t a) {
  const model_desc *m = c->m;
  const block_spec *b = &m->block;
  uint64_t tp = c->s->tp;
  uint64_t q = bytes_ceildiv(b->q_dim, tp), kv = bytes_ceildiv(b->kv_dim, tp);
  uint64_t attn = 2 * q + 2 * kv;
  uint64_t dense = b->experts ? 0 : b->ffn_dim; /* MoE layers: est_forward_moe_bytes */
  uint64_t mlp = (b->gated ? 3 : 2) * bytes_ceildiv(dense, tp);
  uint64_t per = acc_add(&c->acc, 3 * m->hidden, attn > mlp ? attn : mlp);
  if (c->s->pp > 1) per = acc_add(&c->acc, per, 2 * m->hidden);
  return acc_mul3(&c->acc, tokens, per, a);
}

uint64_t est_forward_moe_bytes(ectx *c, uint64_t tokens, uint64_t a) {
  const block_spec *b = &c->m->block;
  if (!b->experts) return 0;
  uint64_t t = tokens < EST_FUSED_MOE_CHUNK ? tokens : EST_FUSED_MOE_CHUNK;
  uint64_t ffn = bytes_ceildiv(b->ffn_dim, c->s->tp);
  uint64_t per = acc_add(&c->acc, 3 * ffn, b->experts_per_tok * c->m->hidden);
  uint64_t ws = acc_mul3(&c->acc, t, per, a);
  return acc_add(&c->acc, ws, acc_mul3(&c->acc, tokens, b->experts, 4));
}

/* est_forward_dense_bytes of a layer shaped as `d` (the model's description with other
** widths) with a dense gated MLP, its overflow carried back into c. */
uint64_t est_forward_as_dense(ectx *c, model_desc d, uint64_t tokens, uint64_t a) {
  d.block.experts = 0;
  d.block.gated = true;
  ectx dc = *c;
  dc.m = &d;
  uint64_t f = est_forward_dense_bytes(&dc, tokens, a);
  c->acc.overflow = c->acc.overflow || dc.acc.overflow;
  return f;
}

/* A speculative-decoding drafter's own layer forward over `tokens` (a bytes per element):
** the target's layer shape with the drafter's widths (scripts/speculative.lua spec.hidden,
** spec.heads, spec.kv_dim, spec.ffn), a dense gated MLP. vLLM's and SGLang's draft runners. */
uint64_t est_drafter_forward_bytes(ectx *c, uint64_t tokens, uint64_t a) {
  const scenario *s = c->s;
  model_desc d = *c->m;
  d.hidden = scn_u64(s, "spec.hidden", d.hidden);
  d.block.q_dim = scn_u64(s, "spec.heads", d.block.q_dim);
  d.block.kv_dim = scn_u64(s, "spec.kv_dim", d.block.kv_dim);
  d.block.ffn_dim = scn_u64(s, "spec.ffn", d.block.ffn_dim);
  return est_forward_as_dense(c, d, tokens, a);
}

/* The rotary cos/sin cache's elements (vLLM's and SGLang's get_rope): rope_rows x the rotary
** width. None for a model without RoPE (rope_positions 0: Granite 4.0-H's position_embedding_type
** "nope", whose attention builds no rotary_emb: vllm/model_executor/models/granitemoehybrid.py
** GraniteMoeHybridAttention; rope_rows 0 says the same for Jamba and Nemotron-H). */
uint64_t est_rope_elems(ectx *c) {
  const model_desc *m = c->m;
  if (m->rope_positions == 0) return 0;
  for (size_t i = 0; i < m->inv.n; i++)
    if (m->inv.t[i].role == ROLE_POS_EMBED && !est_vision_tensor(&m->inv.t[i])) return 0; /* a ViT's are its own */
  return acc_mul(&c->acc, m->rope_rows, m->rotary_dim ? m->rotary_dim : m->head_dim);
}

bool est_model_mla(const model_desc *m) {
  for (int i = 0; i < m->n_kv; i++)
    if (m->kv[i].kind == KV_ATTN && m->kv[i].v_dim == 0 && m->kv[i].k_dim) return true;
  return false;
}

/* MLA's down projections, whole on every tensor-parallel rank in vLLM and SGLang alike:
** DeepseekV2's MLA attention builds q_a_proj and kv_a_proj_with_mqa (fused as
** fused_qkv_a_proj(_with_mqa)) as a ReplicatedLinear, where the description's attention role
** splits them over tp (rt_vllm.c rank_tensor_bytes, rt_sglang.c sg_mla_replicated_bytes). */
bool est_mla_replicated(const model_desc *m, const inv_tensor *t) {
  return est_model_mla(m) && (strstr(t->name, "q_a_proj") || strstr(t->name, "kv_a_proj_with_mqa"));
}

bool est_model_recurrent(const model_desc *m) {
  for (int i = 0; i < m->n_kv; i++)
    if (m->kv[i].kind == KV_STATE) return true;
  return false;
}

bool est_model_attention_free(const model_desc *m) {
  for (int i = 0; i < m->n_kv; i++)
    if (m->kv[i].kind != KV_STATE) return false;
  return m->n_kv > 0;
}

/* A multimodal model's vision tower or projector tensor (inv_vision_name). */
bool est_vision_tensor(const inv_tensor *t) { return inv_vision_name(t->name); }

bool est_is_draft(const inv_tensor *t) { return strcmp(t->component, "draft") == 0; }

/* The drafter's KV group i (1-based) as scripts/speculative.lua sets it (spec.kv<i>.layers,
** heads, k_dim, v_dim, window), an attention group; false when it has no layers or heads. */
bool est_spec_kv_group(const scenario *s, uint64_t i, kv_group *g) {
  static const char *const names[] = {"layers", "heads", "k_dim", "v_dim", "window"};
  uint64_t *fields[] = {&g->layers, &g->kv_heads, &g->k_dim, &g->v_dim, &g->window};
  char key[48];
  memset(g, 0, sizeof *g);
  for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
    snprintf(key, sizeof key, "spec.kv%llu.%s", (unsigned long long)i, names[f]);
    *fields[f] = scn_u64(s, key, 0);
  }
  g->kind = KV_ATTN;
  return g->layers && g->kv_heads;
}

void est_add_common(ectx *c, budget *b) {
  const scenario *s = c->s;
  /* a quantization's runtime buffers (dequantization, repacking workspaces), set by
  ** its script in scripts/quant/ as extras */
  uint64_t q = scn_u64(s, "quant.overhead_bytes", 0);
  if (q)
    budget_add(b, "quant_overhead", q, BASIS_MODELLED, true, "%s",
               scn_str(s, "quant.overhead_detail", "quantization runtime buffers"));
  budget_add(b, "workspace", s->workspace, BASIS_MODELLED, true,
             "cuBLAS workspace of PyTorch's default handle (CUBLAS_WORKSPACE_CONFIG)");
  est_add_context(c, b, "CUDA context and loaded kernels, outside PyTorch's allocator");
}

void est_add_context(ectx *c, budget *b, const char *detail) {
  budget_add(b, "cuda_context", c->s->cuda_context, BASIS_ASSUMED, false, "%s", detail);
}

uint64_t est_weight_rounding(ectx *c, uint64_t weights) {
  uint64_t rw = est_reserved_weights(c, c->s->tp);
  if (c->s->pp > 1) rw = bytes_ceildiv(rw, c->s->pp);
  return rw > weights ? rw - weights : 0;
}

void est_add_slack(ectx *c, budget *b, uint64_t rounding, uint64_t transient, double frag, vf_basis basis) {
  uint64_t slack = acc_add(&c->acc, rounding, acc_from_double(&c->acc, (double)transient * frag));
  budget_add(b, "allocator_slack", slack, basis, true,
             "caching allocator: block rounding of long-lived tensors, %.0f%% of the peak's transient tensors",
             frag * 100.0);
}

/* Expandable segments (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; c10/cuda/
** CUDACachingAllocator.cpp Note [Expandable Segments], pytorch/pytorch#96995, torch >= 2.1;
** read at 001074d2): alloc_block maps the request's own size (round_size, 512 B) into the
** stream's one large-pool segment (try_allocate_expandable_block) instead of a segment of
** get_allocation_size (2 / 20 MiB, estimate_round_alloc), in physical pages of kLargeBuffer
** (20 MiB) at the segment's lowest free address; should_split splits any block leaving
** kMinBlockSize and free_block merges free neighbours. Reserved is then the allocated peak
** rounded to a page: no per-tensor rounding and no fragmentation share (holes that no later
** request fits are not modelled). */
uint64_t est_add_slack_expandable_kept(ectx *c, budget *b, uint64_t kept, const char *detail) {
  const uint64_t page = 20 * MIB; /* kLargeBuffer: the large pool's segment_size */
  uint64_t top = acc_add(&c->acc, budget_total(b, true), kept), mapped = top;
  if (!bytes_align(top, page, &mapped)) c->acc.overflow = true;
  uint64_t slack = acc_add(&c->acc, kept, mapped - top);
  budget_add(b, "allocator_slack", slack, BASIS_MODELLED, true, "%s", detail);
  return slack;
}

void est_add_slack_expandable(ectx *c, budget *b) {
  est_add_slack_expandable_kept(c, b, 0, "caching allocator with expandable segments: the peak rounded to its 20 MiB pages "
                                         "(no per-tensor rounding, no fragmentation share)");
}

void est_finish(ectx *c, budget *b) {
  estimate *e = c->e;
  uint64_t all = budget_total(b, false), torch = budget_total(b, true);
  e->peak_reserved = torch;
  e->peak_allocated = torch - budget_get(b, "allocator_slack");
  e->total = all;
  e->required = all;
}


void est_fig(ectx *c, const char *name, uint64_t value) {
  estimate *e = c->e;
  if (e->n_figs >= EST_MAX_FIGS) {
    est_fail(c, "internal: more than %d runtime figures (figure %s)", EST_MAX_FIGS, name);
    return;
  }
  e->figs[e->n_figs++] = (est_figure){name, value, 0.0, false};
}

void est_fig_real(ectx *c, const char *name, double value) {
  estimate *e = c->e;
  if (e->n_figs >= EST_MAX_FIGS) {
    est_fail(c, "internal: more than %d runtime figures (figure %s)", EST_MAX_FIGS, name);
    return;
  }
  e->figs[e->n_figs++] = (est_figure){name, 0, value, true};
}

void est_fail(ectx *c, const char *fmt, ...) {
  if (c->failed) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, c->errlen, fmt, ap);
  va_end(ap);
  c->failed = true;
}

/* Which module models a runtime for a workload kind; "*" matches any runtime. */
static const struct {
  const char *runtime;
  wl_kind kind;
  est_fn fn;
} modules[] = {
    {"transformers", WL_INFERENCE, infer_transformers},
    {"pytorch", WL_INFERENCE, infer_transformers},
    {"vllm", WL_INFERENCE, vllm_estimate},
    {"sglang", WL_INFERENCE, sglang_estimate},
    {"llamacpp", WL_INFERENCE, llamacpp_estimate},
    {"deepspeed", WL_TRAIN, train_deepspeed},
    {"torchtune", WL_TRAIN, train_torchtune},
    {"*", WL_TRAIN, train_pytorch},
    {"*", WL_IMAGE, gen_estimate}, /* diffusers and the video models' reference scripts */
    {"*", WL_VIDEO, gen_estimate},
};

static est_fn find_module(const scenario *s) {
  for (size_t i = 0; i < sizeof modules / sizeof *modules; i++)
    if (modules[i].kind == s->kind && (strcmp(modules[i].runtime, "*") == 0 || strcmp(modules[i].runtime, s->runtime) == 0))
      return modules[i].fn;
  return NULL;
}

/* The KV layout a serving runtime caches where a kv group names it in expanded_by (model.h):
** the group's expanded per-head K and V in place of its own (transformers always takes them:
** src/infer.c tf_cache_layout). MiniCPM3: llama.cpp's minicpm3 graph (src/llama-model.cpp
** LLM_ARCH_MINICPM3) stores K of n_embd_head_k = qk_nope + qk_rope and V of n_embd / n_head per
** head; vLLM's minicpm3.py builds Attention(num_heads, qk_head_dim, num_kv_heads=num_heads), one
** head size for K and V, and pads V to qk_head_dim (F.pad before self.attn): its V is the K width.
** SGLang's minicpm3.py caches the latent (RadixAttention with num_kv_heads 1, kv_lora_rank +
** qk_rope_head_dim), the group's own layout. Returns whether out differs from in. */
static bool est_runtime_layout(const model_desc *in, const char *runtime, model_desc *out) {
  unsigned bit = strcmp(runtime, "vllm") == 0 ? KV_BY_VLLM
                 : strcmp(runtime, "sglang") == 0 ? KV_BY_SGLANG
                 : strcmp(runtime, "llamacpp") == 0 ? KV_BY_LLAMACPP : 0;
  bool any = false;
  for (int i = 0; i < in->n_kv && bit; i++) any = any || (in->kv[i].expanded_by & bit);
  if (!any) return false;
  *out = *in;
  for (int i = 0; i < out->n_kv; i++) {
    kv_group *g = &out->kv[i];
    if (!(g->expanded_by & bit)) continue;
    g->kv_heads = g->expanded_heads, g->k_dim = g->expanded_k_dim, g->v_dim = g->expanded_v_dim;
    if (bit == KV_BY_VLLM && g->v_dim && g->v_dim < g->k_dim) g->v_dim = g->k_dim;
    g->bytes = g->fp8_bytes = 0; /* in the KV dtype */
  }
  return true;
}

int estimate_run(const model_desc *m, const scenario *s, estimate *out, char *err, size_t errlen) {
  model_desc served; /* on the stack, as infer_transformers keeps its layout */
  if (s->kind == WL_INFERENCE && est_runtime_layout(m, s->runtime, &served)) m = &served;
  ectx c = {m, s, out, {0, false}, err, errlen, false};
  memset(out, 0, sizeof *out);
  budget_init(&out->b);
  if (!inv_params(&m->inv, &out->params) || !inv_bytes(&m->inv, &out->weight_bytes) ||
      !model_kv_bytes_per_token(m, s->kv_dtype, &out->kv_bytes_per_token)) {
    snprintf(err, errlen, "model '%s': parameter or byte count overflows 64 bits", m->id);
    return -1;
  }
  out->trainable_params = out->params;
  out->devices = acc_mul3(&c.acc, s->tp, s->pp, s->kind == WL_TRAIN ? s->dp : 1);
  if (s->kind == WL_TRAIN) out->devices = acc_mul(&c.acc, out->devices, scn_u64(s, "train.cp", 1)); /* context parallel */
  est_fn fn = find_module(s);
  if (!fn) {
    snprintf(err, errlen, "runtime '%s' has no model for %s workloads yet", s->runtime, wl_kind_name(s->kind));
    return -1;
  }
  fn(&c);
  if (c.failed) return -1;
  if (c.acc.overflow || out->b.overflow || out->total > (uint64_t)INT64_MAX) {
    if (s->kind == WL_TRAIN) /* name the inputs that scale the figures of this workload */
      snprintf(err, errlen, "scenario '%s': a byte figure overflows 64 bits (micro_batch %llu, seq_len %llu)",
               s->name, (unsigned long long)s->micro_batch, (unsigned long long)s->seq_len);
    else
      snprintf(err, errlen, "scenario '%s': a byte figure overflows 64 bits (context %llu, concurrency %llu)",
               s->name, (unsigned long long)s->context, (unsigned long long)s->concurrency);
    return -1;
  }
  return 0;
}

/* NCCL's NVLink-SHARP (NVLS) buffers exist on NVSwitch systems of Hopper and later
** (NVLink 4/5 without a bridge). A GPU given only by name and memory has no catalog
** interconnect: one of 70 GiB or more is assumed to sit on an NVSwitch baseboard (the
** llm-d H100 runs, "NVIDIA H100 80GB" with 79.19 GiB). Whether NCCL gets multicast there is the
** host's (NCCL_NVLS_ENABLE, the fabric manager's multicast, a container's devices), not the
** board's: parallel.nvls says it. The Red Hat H200 runs (ashishkamra/vllm-memory-estimator
** test_data/validation_db.json, tests/test_holdout25_vllm.c) keep the same pool at tp 4 on 0.11.2,
** 0.14.1, 0.18.0 and 0.19.0 (Llama-3.3-70B: 90.23 / 90.30 / 91.57 / 91.57 GiB), none 1.82 GiB
** lower, where the llm-d v0.19.0 H100 sweep prints 2.07 GiB non-torch at tp 2. */
static bool nvswitch_board(const scenario *s) {
  if (!s->gpu_link[0]) return s->gpu_memory >= 70ull * 1024 * 1024 * 1024;
  bool link = strncmp(s->gpu_link, "NVLink 4", 8) == 0 || strncmp(s->gpu_link, "NVLink 5", 8) == 0;
  return link && !strstr(s->gpu_link, "bridge");
}

bool est_nvls(const scenario *s) {
  /* parallel.nvls: the scenario says whether NCCL gets multicast there (scripts/scenario.lua) */
  return scn_bool(s, "parallel.nvls", nvswitch_board(s));
}

/* CUDA memory outside PyTorch that tensor parallelism's communicators take on a rank when
** the distributed group starts (vLLM's non-torch memory; SGLang's free memory is measured
** after it): on NVSwitch Hopper systems NCCL's NVLS multicast buffers, 1.82 GiB
** (llmd-v019-llama31-8b-tp2-8k 2.07 GiB non-torch against 0.25 at tp 1, -tp4-8k 2.13,
** mixtral-8x7b-tp2 2.07, gpt-oss-20b-tp2 2.07); over PCIe or A100 NVLink ring buffers and
** custom all-reduce, 0.10 GiB (vllm-13061-*: 0.25 at tp 2; vllm-16570-*: 0.34-0.43 at tp 4). An
** NVSwitch board whose NCCL gets no multicast (parallel.nvls = false) keeps NCCL's NVLink P2P
** channels and custom all-reduce: 0.41 GiB, the llm-d-benchmark empirical H100 runs' "non-torch"
** at tp 2 on vLLM 0.11.0 (llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md:
** Llama-3.3-70B-FP8 0.55, Qwen3-32B 0.54, against 0.13 at tp 1: no NVLS there either). */
double est_tp_comm_gib(const scenario *s) {
  if (s->tp <= 1) return 0;
  if (est_nvls(s)) return 1.82;
  return nvswitch_board(s) ? 0.41 : 0.10;
}

/* Custom all-reduce, vLLM's (vllm/distributed/device_communicators/custom_all_reduce.py,
** CustomAllreduce.__init__) and SGLang's (python/sglang/srt/distributed/device_communicators/
** custom_all_reduce.py, "Adapted from" vLLM v0.6.4.post1, the same checks and messages): off with
** --disable-custom-all-reduce (runtime.disable_custom_all_reduce, a flag of both), for a world size
** outside _SUPPORTED_WORLD_SIZES = [2, 4, 6, 8] ("unsupported world size"), and above two GPUs that
** are not fully NVLink-connected ("not supported on more than two PCIe-only GPUs": world_size > 2
** and not fully connected, NVML's NVLink check: vLLM's current_platform.is_fully_connected,
** SGLang's is_full_nvlink); read here from the catalog's interconnect: NVLink without "bridge" is
** the SXM boards' all-to-all fabric, bridge pairs and PCIe are not. A failed P2P test (_can_p2p:
** "lacks GPU P2P capability", e.g. two Ada cards in a container without P2P) cannot be seen from
** the scenario: say disable_custom_all_reduce = true. ROCm and Gaudi keep their own all-reduce
** paths: not modelled, taken as on. NULL when custom all-reduce runs, else why it is off. */
const char *est_custom_ar_off(const scenario *s) {
  if (s->tp <= 1) return NULL;
  if (scn_bool(s, "runtime.disable_custom_all_reduce", false)) return "disable_custom_all_reduce = true";
  if (strncmp(s->gpu_arch, "cdna", 4) == 0 || strncmp(s->gpu_arch, "gaudi", 5) == 0) return NULL;
  if (s->tp != 2 && s->tp != 4 && s->tp != 6 && s->tp != 8) return "a tensor-parallel size outside 2, 4, 6, 8";
  bool connected = !s->gpu_link[0] || (strncmp(s->gpu_link, "NVLink", 6) == 0 && !strstr(s->gpu_link, "bridge"));
  if (s->tp > 2 && !connected) return "more than two GPUs without full NVLink";
  return NULL;
}

/* All-reduces one captured forward runs on a rank: the attention output and the MLP / MoE
** output of each of the stage's layers (vLLM's RowParallelLinear / FusedMoE reduce_results,
** SGLang's the same layers), and the vocabulary-parallel embedding's on the first stage. */
uint64_t est_graph_collectives(const ectx *c) {
  if (c->s->tp <= 1) return 0;
  uint64_t l = c->m->layers ? c->m->layers : 1;
  return 2 * bytes_ceildiv(l, c->s->pp ? c->s->pp : 1) + 1;
}

/* NCCL collectives captured in a CUDA graph. NCCL makes a collective enqueued during stream
** capture a persistent plan (src/enqueue.cc: planner->persistent =
** ncclCudaGraphValid(capturingGraph)): its work descriptors get a device buffer of their own
** (ncclCudaMalloc in 2.19-2.21, cudaMallocAsync from the communicator's pool from 2.26:
** "Persistent cudaMallocAsync work buf") released only when the graph is destroyed
** (ncclCudaGraphAddDestructor(..., persistentDestructor)), and the kernel node keeps its arguments
** (up to NCCL's kernel-argument size) in the instantiated graph. What a captured collective costs
** on the device is therefore the driver's allocation granularity, not a size in the source:
** vllm#5517 measured the same TP graphs at 3.81 GiB on CUDA 12.2 / 12.3 drivers and 1.14 GiB on
** 12.4; vLLM sets NCCL_CUMEM_ENABLE=0 because cuMem's rounding made it worse (NVIDIA/nccl#1234,
** vllm#5091). EST_GRAPH_NCCL_MIB (estimate_int.h), the mean of two vLLM logs' excess over the
** per-layer unit: Qwen3-8B-AWQ tp 2 without P2P on 0.17.0 (1.65 GiB for 51 + 51 sizes x 73
** collectives: 0.084) and Qwen3-235B-A22B-FP8 tp 8 on eight PCIe L40S on 0.10.2 (3.45 GiB for
** 67 sizes x 189: 0.135). The same NCCL under SGLang (its pynccl is vLLM's) is taken at the same
** cost, not fitted on SGLang's logs. */
uint64_t est_graph_nccl_bytes(ectx *c, uint64_t sizes) {
  return acc_from_double(&c->acc, EST_GRAPH_NCCL_MIB * MIB * (double)est_graph_collectives(c) * (double)sizes);
}
