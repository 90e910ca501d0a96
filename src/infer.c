/*
** infer.c: inference with transformers' generate() (and plain PyTorch): weights, a
** KV cache of context x concurrency (static cache: allocated whole up front; dynamic:
** grown per token), the prefill's largest live activations, last-token logits.
** Uses estimate_int.h.
*/
#include <string.h>

#include "estimate_int.h"

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

void infer_transformers(ectx *c) {
  const scenario *s = c->s;
  const model_desc *m = c->m;
  estimate *e = c->e;
  budget *b = &e->b;
  uint64_t a = est_bits(s->prec.activations) / 8;
  uint64_t w = 0;
  if (!estimate_device_weights(m, s->tp, s->pp, &w)) c->acc.overflow = true;
  budget_add(b, "weights", w, BASIS_EXACT, true, "%zu tensor groups; tp %llu, pp %llu",
             m->inv.n, (unsigned long long)s->tp, (unsigned long long)s->pp);
  uint64_t kv = est_kv_cache_bytes(c, s->context, s->concurrency);
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
  est_add_common(c, b);
  est_add_slack(c, b, est_reserved_weights(c, s->tp) / s->pp, act + logits);
  e->peak_phase = "prefill";
  est_fig(c, "weights_bytes", w);
  est_fig(c, "kv_cache_bytes", kv);
  est_finish(c, b);
}

