/*
** estimate.c: the budget of one scenario on one device (see estimate.h).
** Inference follows transformers' generate(): weights, a KV cache of context x
** concurrency, the prefill's largest live activations, last-token logits.
** Training follows PyTorch autograd: weights, gradients, optimizer states, saved
** activations per layer (Korthikanti et al. 2022, arXiv 2205.05198, adapted to GQA,
** gated MLPs and RMSNorm), logits and loss; the peak is the largest phase.
** Uses budget.c, inventory.c, bytes.c; no Lua.
*/
#include "estimate.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"

#define MIB (1024ull * 1024ull)

typedef struct ectx {
  const model_desc *m;
  const scenario *s;
  estimate *e;
  bytes_acc acc;
} ectx;

static uint64_t bits_of(vf_dtype dt) {
  return dtype_get(dt)->bits;
}

/* bytes of n elements of dt */
static uint64_t elems_bytes(ectx *c, uint64_t n, vf_dtype dt) {
  return bytes_ceildiv(acc_mul(&c->acc, n, bits_of(dt)), 8);
}

static bool tp_sharded(inv_role r) {
  return r == ROLE_ATTN || r == ROLE_MLP || r == ROLE_EXPERT || r == ROLE_SHARED_EXPERT ||
         r == ROLE_EMBED || r == ROLE_LM_HEAD;
}

uint64_t estimate_round_alloc(uint64_t bytes) {
  uint64_t r = bytes;
  if (!bytes_align(bytes, 512, &r)) return bytes;
  if (r > MIB && !bytes_align(r, 2 * MIB, &r)) return bytes;
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
    if (tp > 1 && tp_sharded(t->role)) b = bytes_ceildiv(b, tp);
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

/* Weight bytes with PyTorch's per-tensor allocation rounding. */
static uint64_t reserved_weights(ectx *c, uint64_t tp) {
  uint64_t total = 0;
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *t = &c->m->inv.t[i];
    uint64_t one = 0, n = 0;
    if (!inv_tensor_elements(t, &n)) c->acc.overflow = true;
    one = t->stored_bytes ? t->stored_bytes : elems_bytes(c, n, t->dtype);
    if (tp > 1 && tp_sharded(t->role)) one = bytes_ceildiv(one, tp);
    total = acc_add(&c->acc, total, acc_mul(&c->acc, estimate_round_alloc(one), t->count));
  }
  return total;
}

/* KV heads one tensor-parallel rank holds: split when there are at least tp heads,
** replicated otherwise. */
static uint64_t kv_heads_rank(uint64_t heads, uint64_t tp) {
  return heads >= tp ? bytes_ceildiv(heads, tp) : 1;
}

static uint64_t kv_cache_bytes(ectx *c, uint64_t tokens, uint64_t seqs) {
  const scenario *s = c->s;
  uint64_t total = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    uint64_t t = g->window && g->window < tokens ? g->window : tokens;
    uint64_t layers = bytes_ceildiv(g->layers, s->pp);
    uint64_t per_tok = acc_mul(&c->acc, kv_heads_rank(g->kv_heads, s->tp),
                               acc_add(&c->acc, g->k_dim, g->v_dim));
    uint64_t elems = acc_mul3(&c->acc, acc_mul(&c->acc, per_tok, layers), t, seqs);
    total = acc_add(&c->acc, total, elems_bytes(c, elems, s->kv_dtype));
  }
  return total;
}

/* Largest live activation of one decoder layer's forward without autograd, per token,
** in bytes: the residual stream and norm output plus the larger of attention (q, k, v,
** the K/V that repeat_kv expands for grouped-query attention, output) and the MLP
** (gate, up and their product live together in a gated MLP). */
static uint64_t infer_layer_bytes_per_token(ectx *c, uint64_t a) {
  const block_spec *b = &c->m->block;
  uint64_t tp = c->s->tp, h = c->m->hidden;
  uint64_t q = bytes_ceildiv(b->q_dim, tp), kv = bytes_ceildiv(b->kv_dim, tp);
  uint64_t expand = b->kv_dim < b->q_dim ? 2 * q : 0;
  uint64_t attn = q + 2 * kv + expand + q;
  uint64_t ffn = bytes_ceildiv(b->ffn_dim, tp);
  uint64_t mlp = (b->gated ? 3 : 2) * ffn;
  uint64_t widest = attn > mlp ? attn : mlp;
  return acc_mul(&c->acc, acc_add(&c->acc, 2 * h, widest), a);
}

static void add_common(ectx *c, budget *b) {
  const scenario *s = c->s;
  budget_add(b, "workspace", s->workspace, BASIS_MODELLED, true,
             "cuBLAS workspace of PyTorch's default handle (CUBLAS_WORKSPACE_CONFIG)");
  budget_add(b, "cuda_context", s->cuda_context, BASIS_ASSUMED, false,
             "CUDA context and loaded kernels, outside PyTorch's allocator");
}

/* Rounds and fragmentation of the caching allocator: reserved minus allocated. */
static void add_slack(ectx *c, budget *b, uint64_t weights_reserved, uint64_t transient) {
  uint64_t weights = budget_get(b, "weights");
  uint64_t slack = weights_reserved > weights ? weights_reserved - weights : 0;
  uint64_t frag = acc_from_double(&c->acc, (double)transient * c->s->fragmentation);
  slack = acc_add(&c->acc, slack, frag);
  budget_add(b, "allocator_slack", slack, BASIS_MODELLED, true,
             "caching allocator: 512 B / 2 MiB rounding of weights, %.0f%% of transient tensors",
             c->s->fragmentation * 100.0);
}

static void finish(ectx *c, budget *b) {
  estimate *e = c->e;
  uint64_t all = budget_total(b, false), torch = budget_total(b, true);
  e->peak_reserved = torch;
  e->peak_allocated = torch - budget_get(b, "allocator_slack");
  e->total = all;
}

static void run_inference(ectx *c) {
  const scenario *s = c->s;
  const model_desc *m = c->m;
  estimate *e = c->e;
  budget *b = &e->b;
  uint64_t a = bits_of(s->prec.activations) / 8;
  uint64_t w = 0;
  if (!estimate_device_weights(m, s->tp, s->pp, &w)) c->acc.overflow = true;
  budget_add(b, "weights", w, BASIS_EXACT, true, "%zu tensor groups; tp %llu, pp %llu",
             m->inv.n, (unsigned long long)s->tp, (unsigned long long)s->pp);
  uint64_t kv = kv_cache_bytes(c, s->context, s->concurrency);
  budget_add(b, "kv_cache", kv, s->static_cache ? BASIS_EXACT : BASIS_MODELLED, true,
             "%llu tokens x %llu sequences, %s cache, %s",
             (unsigned long long)s->context, (unsigned long long)s->concurrency,
             s->static_cache ? "static" : "dynamic", dtype_get(s->kv_dtype)->name);
  uint64_t prompt = s->prompt_tokens ? s->prompt_tokens : s->context;
  uint64_t tokens = acc_mul(&c->acc, prompt, s->concurrency);
  uint64_t act = acc_mul(&c->acc, tokens, infer_layer_bytes_per_token(c, a));
  if (s->attention == ATTN_EAGER) {
    /* eager attention: scores (activation dtype), fp32 softmax, and the cast back */
    uint64_t heads = bytes_ceildiv(m->heads, s->tp);
    uint64_t sc = acc_mul3(&c->acc, acc_mul(&c->acc, prompt, prompt), heads, s->concurrency);
    act = acc_add(&c->acc, act, acc_mul(&c->acc, sc, 2 * a + 4));
  }
  budget_add(b, "activations", act, BASIS_MODELLED, true,
             "prefill of %llu tokens x %llu sequences, one layer live, %s attention",
             (unsigned long long)prompt, (unsigned long long)s->concurrency,
             s->attention == ATTN_EAGER ? "eager" : "sdpa/flash");
  /* generate() computes logits for the last position only, then upcasts to fp32 */
  uint64_t logits = acc_mul3(&c->acc, s->concurrency, m->vocab, a + 4 + 4);
  budget_add(b, "logits", logits, BASIS_MODELLED, true,
             "last-token logits x %llu sequences: %s, fp32 copy, sampling probabilities",
             (unsigned long long)s->concurrency, dtype_get(s->prec.activations)->name);
  add_common(c, b);
  add_slack(c, b, reserved_weights(c, s->tp) / s->pp, act + logits);
  e->peak_phase = "prefill";
  finish(c, b);
}

/* Saved activations of one transformer layer for backward, bytes per token (a bytes
** per activation element). Korthikanti et al.'s 34·h + 5·a·s per token, re-derived
** for what autograd keeps in today's blocks: both norm inputs and their fp32
** statistics; the q/k/v input and q, k, v; the attention output (o_proj input); the
** MLP input, and for a gated MLP gate, up, act(gate) and their product (plain: the
** fc1 output and the activation output). No dropout masks (dropout 0 in fine-tuning).
** SDPA/flash keep the fp32 log-sum-exp per head instead of the s² score matrix. */
static uint64_t train_layer_bytes_per_token(ectx *c, uint64_t a, uint64_t seq) {
  const block_spec *b = &c->m->block;
  const scenario *s = c->s;
  uint64_t tp = s->tp, h = c->m->hidden;
  uint64_t heads = bytes_ceildiv(c->m->heads ? c->m->heads : 1, tp);
  uint64_t q = bytes_ceildiv(b->q_dim, tp), kv = bytes_ceildiv(b->kv_dim, tp);
  uint64_t ffn = bytes_ceildiv(b->ffn_dim, tp);
  uint64_t elems = 2 * h                  /* norm inputs */
                   + h + 2 * q + 2 * kv    /* attention input, q, k, v, output */
                   + h + (b->gated ? 4 : 2) * ffn; /* MLP input and intermediates */
  if (b->experts) elems += b->experts_per_tok * h; /* tokens gathered per expert */
  uint64_t bytes = acc_mul(&c->acc, elems, a);
  bytes += (b->rms ? 4 : 8) * 2; /* fp32 rstd (and mean) per token, per norm */
  if (s->attention == ATTN_EAGER && s->gc != GC_SELECTIVE)
    /* fp32 softmax output and the probabilities cast back, per head and key */
    bytes = acc_add(&c->acc, bytes, acc_mul3(&c->acc, heads, seq, 4 + a));
  else
    bytes = acc_add(&c->acc, bytes, heads * 4); /* log-sum-exp */
  return bytes;
}

typedef struct train_parts {
  uint64_t weights, master, grads, states, act, act_layer, logits, comm, step_temp;
} train_parts;

static uint64_t shard(uint64_t bytes, uint64_t dp, bool sharded) {
  return sharded && dp > 1 ? bytes_ceildiv(bytes, dp) : bytes;
}

static void train_model_states(ectx *c, train_parts *p) {
  const scenario *s = c->s;
  const precision_spec *pr = &s->prec;
  uint64_t dp = s->dp, P = c->e->params, Pt = c->e->trainable_params;
  uint64_t mp = s->tp * s->pp; /* model-parallel split of every model state */
  P = bytes_ceildiv(P, mp);
  Pt = bytes_ceildiv(Pt, mp);
  strategy_kind st = s->strategy;
  bool p_shard = st == STRAT_FSDP || st == STRAT_ZERO3;
  bool g_shard = p_shard || st == STRAT_ZERO2;
  bool o_shard = g_shard || st == STRAT_ZERO1;
  p->weights = shard(elems_bytes(c, P, pr->weights), dp, p_shard);
  p->grads = shard(elems_bytes(c, Pt, pr->grads), dp, g_shard);
  p->master = pr->master ? shard(elems_bytes(c, Pt, pr->master_dtype), dp, o_shard) : 0;
  p->states = shard(bytes_ceildiv(acc_mul(&c->acc, Pt, s->opt.state_bits), 8), dp, o_shard);
  p->step_temp = shard(bytes_ceildiv(acc_mul(&c->acc, Pt, s->opt.step_temp_bits), 8), dp, o_shard);
  if (st == STRAT_DDP && dp > 1)
    /* DDP's reducer keeps flat bucket copies of every gradient unless
    ** gradient_as_bucket_view=True (torch.nn.parallel.DistributedDataParallel docs) */
    p->comm = elems_bytes(c, Pt, pr->grads);
  else if (p_shard && dp > 1)
    /* the all-gathered unit (one layer) and the prefetched next one */
    p->comm = elems_bytes(c, acc_mul(&c->acc, bytes_ceildiv(P, c->m->layers ? c->m->layers : 1), 2),
                          pr->weights);
}

static void train_activations(ectx *c, train_parts *p) {
  const scenario *s = c->s;
  const model_desc *m = c->m;
  uint64_t a = bits_of(s->prec.activations) / 8;
  uint64_t tokens = acc_mul(&c->acc, s->micro_batch, s->seq_len);
  uint64_t layers = m->layers;
  if (m->family == FAM_ENCDEC) layers *= 2; /* encoder and decoder stacks */
  layers = bytes_ceildiv(layers, s->pp);
  uint64_t per_layer = acc_mul(&c->acc, tokens, train_layer_bytes_per_token(c, a, s->seq_len));
  p->act_layer = per_layer;
  uint64_t kept = s->gc == GC_FULL ? acc_mul3(&c->acc, tokens, m->hidden, a) : per_layer;
  p->act = acc_mul(&c->acc, kept, layers);
  if (s->gc == GC_FULL) p->act = acc_add(&c->acc, p->act, per_layer); /* recomputed layer */
  if (s->pp > 1) /* 1F1B: the first stage holds pp micro-batches in flight */
    p->act = acc_mul(&c->acc, p->act, s->pp < s->grad_accum ? s->pp : s->grad_accum);
  /* LM head output, its fp32 upcast, log-softmax kept for backward, and its gradient */
  uint64_t vocab = bytes_ceildiv(m->vocab, s->tp);
  p->logits = m->family == FAM_ENCODER ? 0 : acc_mul3(&c->acc, tokens, vocab, a + 12);
}

static void train_budget(ectx *c, const train_parts *p, int phase) {
  static const char *const names[] = {"forward", "backward", "optimizer step"};
  budget *b = &c->e->b;
  const scenario *s = c->s;
  bool grads_live = phase > 0 || s->grad_accum > 1;
  budget_add(b, "weights", p->weights, BASIS_EXACT, true, "%s weights%s",
             dtype_get(s->prec.weights)->name,
             s->strategy == STRAT_FSDP || s->strategy == STRAT_ZERO3 ? ", sharded over dp" : "");
  budget_add(b, "master_weights", p->master, BASIS_EXACT, true, "fp32 master copy of trainable weights");
  budget_add(b, "gradients", grads_live ? p->grads : 0, BASIS_EXACT, true, "%s gradients%s",
             dtype_get(s->prec.grads)->name, grads_live ? "" : " (freed by zero_grad before forward)");
  budget_add(b, "optimizer_states", p->states, BASIS_EXACT, true, "%s: %llu bits per trainable parameter",
             s->opt.name, (unsigned long long)s->opt.state_bits);
  uint64_t act = phase == 0 ? p->act : phase == 1 ? p->act_layer : 0;
  budget_add(b, "activations", act, BASIS_MODELLED, true, "%s: micro-batch %llu x %llu tokens, checkpointing %s",
             names[phase], (unsigned long long)s->micro_batch, (unsigned long long)s->seq_len,
             s->gc == GC_FULL ? "full" : s->gc == GC_SELECTIVE ? "selective" : "off");
  budget_add(b, "logits", phase == 0 ? p->logits : 0, BASIS_MODELLED, true,
             "vocabulary x tokens: head output, fp32 upcast, log-softmax, gradient");
  budget_add(b, "optimizer_step", phase == 2 ? p->step_temp : 0, BASIS_MODELLED, true,
             "temporaries of %s's step()", s->opt.name);
  budget_add(b, "comm_buffers", p->comm, BASIS_MODELLED, true, "%s buffers",
             s->strategy == STRAT_DDP ? "DDP gradient bucket" : "gathered parameter");
  c->e->peak_phase = names[phase];
}

static void run_training(ectx *c) {
  train_parts p;
  memset(&p, 0, sizeof p);
  train_model_states(c, &p);
  train_activations(c, &p);
  uint64_t base = acc_add(&c->acc, acc_add(&c->acc, p.weights, p.master),
                          acc_add(&c->acc, p.states, p.comm));
  uint64_t g_fwd = c->s->grad_accum > 1 ? p.grads : 0;
  uint64_t phase_bytes[3] = {
      acc_add(&c->acc, base, acc_add(&c->acc, g_fwd, acc_add(&c->acc, p.act, p.logits))),
      acc_add(&c->acc, base, acc_add(&c->acc, p.grads, p.act_layer)),
      acc_add(&c->acc, base, acc_add(&c->acc, p.grads, p.step_temp)),
  };
  int peak = 0;
  for (int i = 1; i < 3; i++)
    if (phase_bytes[i] > phase_bytes[peak]) peak = i;
  train_budget(c, &p, peak);
  add_common(c, &c->e->b);
  uint64_t transient = peak == 0 ? p.act + p.logits : peak == 1 ? p.act_layer : p.step_temp;
  add_slack(c, &c->e->b, 0, transient);
  finish(c, &c->e->b);
}

int estimate_run(const model_desc *m, const scenario *s, estimate *out, char *err, size_t errlen) {
  ectx c = {m, s, out, {0, false}};
  memset(out, 0, sizeof *out);
  budget_init(&out->b);
  if (!inv_params(&m->inv, &out->params) || !inv_bytes(&m->inv, &out->weight_bytes) ||
      !model_kv_bytes_per_token(m, s->kv_dtype, &out->kv_bytes_per_token)) {
    snprintf(err, errlen, "model '%s': parameter or byte count overflows 64 bits", m->id);
    return -1;
  }
  out->trainable_params = out->params;
  out->devices = s->tp * s->pp * (s->kind == WL_TRAIN ? s->dp : 1);
  if (s->kind == WL_TRAIN)
    run_training(&c);
  else
    run_inference(&c);
  if (c.acc.overflow || out->b.overflow) {
    snprintf(err, errlen, "scenario '%s': a byte figure overflows 64 bits (context %llu, concurrency %llu)",
             s->name, (unsigned long long)s->context, (unsigned long long)s->concurrency);
    return -1;
  }
  return 0;
}
