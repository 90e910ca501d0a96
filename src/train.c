/*
** train.c: training and fine-tuning as PyTorch autograd runs it: weights, gradients,
** optimizer states and master weights per precision policy and sharding strategy;
** saved activations per layer (Korthikanti et al. 2022, arXiv 2205.05198, adapted to
** GQA, gated MLPs and RMSNorm); logits and loss. The peak is the largest of the
** forward, backward and optimizer-step phases. Uses estimate_int.h.
*/
#include <string.h>

#include "estimate_int.h"

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
  p->weights = shard(est_elems_bytes(c, P, pr->weights), dp, p_shard);
  p->grads = shard(est_elems_bytes(c, Pt, pr->grads), dp, g_shard);
  p->master = pr->master ? shard(est_elems_bytes(c, Pt, pr->master_dtype), dp, o_shard) : 0;
  p->states = shard(bytes_ceildiv(acc_mul(&c->acc, Pt, s->opt.state_bits), 8), dp, o_shard);
  p->step_temp = shard(bytes_ceildiv(acc_mul(&c->acc, Pt, s->opt.step_temp_bits), 8), dp, o_shard);
  if (st == STRAT_DDP && dp > 1)
    /* DDP's reducer keeps flat bucket copies of every gradient unless
    ** gradient_as_bucket_view=True (torch.nn.parallel.DistributedDataParallel docs) */
    p->comm = est_elems_bytes(c, Pt, pr->grads);
  else if (p_shard && dp > 1)
    /* the all-gathered unit (one layer) and the prefetched next one */
    p->comm = est_elems_bytes(c, acc_mul(&c->acc, bytes_ceildiv(P, c->m->layers ? c->m->layers : 1), 2),
                          pr->weights);
}

static void train_activations(ectx *c, train_parts *p) {
  const scenario *s = c->s;
  const model_desc *m = c->m;
  uint64_t a = est_bits(s->prec.activations) / 8;
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

void train_pytorch(ectx *c) {
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
  est_add_common(c, &c->e->b);
  uint64_t transient = peak == 0 ? p.act + p.logits : peak == 1 ? p.act_layer : p.step_temp;
  est_add_slack(c, &c->e->b, 0, transient);
  est_finish(c, &c->e->b);
}

