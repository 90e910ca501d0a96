/*
** infer.c: inference with transformers' generate() (and plain PyTorch): weights, the KV
** cache as the cache class allocates it (DynamicCache grown by torch.cat, StaticCache and
** Gemma's HybridCache allocated whole up front), the larger of the prefill's live
** activations and a decode step's transients (repeat_kv, the torch.cat copy), the 4D
** attention mask, logits. Version knobs: scripts/runtimes/transformers.lua. Uses
** estimate_int.h.
*/
#include <string.h>

#include "estimate_int.h"

#define TF_NEWEST 4057 /* major x 1000 + minor: 4.57 */

/* How generate() caches, by version (transformers.version) and the cache knob. */
typedef struct tf_mode {
  uint64_t version;
  bool upfront;  /* StaticCache / HybridCache: allocated at max_cache_len before decoding */
  bool windows;  /* sliding-window / chunked layers keep only their window */
  bool gqa_sdpa; /* sdpa gets enable_gqa: no repeat_kv */
  bool mask;     /* a 4D attention mask is materialised */
  uint64_t a;    /* activation bytes */
} tf_mode;

static bool tf_windowed_arch(const model_desc *m) {
  for (int i = 0; i < m->n_kv; i++)
    if (m->kv[i].window) return true;
  return false;
}

/* Before 4.54 DynamicCache kept every layer at full length; Gemma 2/3 (HybridCache) and
** Llama 4 (HybridChunkedCache) defaulted to a windowed cache allocated up front. From
** 4.54 the cache layers follow the config's layer types (DynamicSlidingWindowLayer,
** StaticSlidingWindowLayer). sdpa passes enable_gqa without a mask from 4.48 (torch 2.5).
** sdpa skips the mask for unpadded prompts (is_causal; equal-length prompts assumed) but
** not against a cache allocated up front, whose key length is max_cache_len; eager always
** builds one. */
static void tf_mode_init(ectx *c, tf_mode *t) {
  const scenario *s = c->s;
  const char *cache = scn_str(s, "transformers.cache", "default");
  t->version = scn_u64(s, "transformers.version", TF_NEWEST);
  bool hybrid_default = t->version < 4054 && strcmp(cache, "default") == 0 && tf_windowed_arch(c->m) &&
                        (strcmp(c->m->arch, "gemma") == 0 || strcmp(c->m->arch, "llama4") == 0);
  t->upfront = s->static_cache || hybrid_default;
  t->windows = t->version >= 4054 || hybrid_default;
  t->mask = s->attention == ATTN_EAGER || (s->attention == ATTN_SDPA && t->upfront);
  t->gqa_sdpa = s->attention == ATTN_SDPA && t->version >= 4048 && !t->mask;
  t->a = est_bits(s->prec.activations) / 8;
}

/* repeat_kv expands grouped K/V to every query head: eager, and sdpa without enable_gqa */
static bool tf_repeats_kv(const ectx *c, const tf_mode *t) {
  const block_spec *b = &c->m->block;
  return b->kv_dim < b->q_dim && c->s->attention != ATTN_FLASH && !t->gqa_sdpa;
}

/* Largest live activation of one decoder layer's prefill without autograd, per token:
** the residual stream and norm output plus the larger of attention (q, k, v, the K/V
** that repeat_kv expands for grouped-query attention unless sdpa's enable_gqa or flash
** attention, output) and the MLP (gate, up and their product live in a gated MLP). */
static uint64_t prefill_bytes_per_token(ectx *c, const tf_mode *t) {
  const block_spec *b = &c->m->block;
  uint64_t tp = c->s->tp, h = c->m->hidden;
  uint64_t q = bytes_ceildiv(b->q_dim, tp), kv = bytes_ceildiv(b->kv_dim, tp);
  uint64_t attn = q + 2 * kv + (tf_repeats_kv(c, t) ? 2 * q : 0) + q;
  uint64_t mlp = (b->gated ? 3 : 2) * bytes_ceildiv(b->ffn_dim, tp);
  return acc_mul(&c->acc, acc_add(&c->acc, 2 * h, attn > mlp ? attn : mlp), t->a);
}

/* One attention layer's K + V at `tokens` for every sequence (the largest group). */
static uint64_t layer_kv_bytes(ectx *c, const tf_mode *t, uint64_t tokens) {
  uint64_t best = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind == KV_STATE) continue;
    uint64_t n = t->windows ? est_kv_group_tokens(g, tokens) : tokens;
    uint64_t e = acc_mul3(&c->acc, acc_mul(&c->acc, n, c->s->concurrency),
                          est_kv_heads_rank(g->kv_heads, c->s->tp), g->k_dim + g->v_dim);
    uint64_t b = est_elems_bytes(c, e, c->s->kv_dtype);
    best = b > best ? b : best;
  }
  return best;
}

/* A decode step at full context: DynamicCache.update's torch.cat holds one layer's old
** and new K/V together; eager (and sdpa without enable_gqa) repeat_kv expands the whole
** cached K and V of the layer to all query heads: sequences x context x 2 x q_dim. */
static uint64_t decode_bytes(ectx *c, const tf_mode *t) {
  const scenario *s = c->s;
  const block_spec *b = &c->m->block;
  uint64_t total = t->upfront ? 0 : layer_kv_bytes(c, t, s->context);
  if (tf_repeats_kv(c, t)) {
    uint64_t q = bytes_ceildiv(b->q_dim, s->tp);
    uint64_t e = acc_mul3(&c->acc, acc_mul(&c->acc, s->concurrency, s->context), 2 * q, t->a);
    total = acc_add(&c->acc, total, e);
  }
  return total;
}

/* The 4D causal mask of the prefill: batch x q x k (k: max_cache_len for a cache allocated
** up front), in the activation dtype for eager (and sdpa before the boolean masks of
** 4.53), one byte for sdpa after. */
static uint64_t mask_bytes(ectx *c, const tf_mode *t, uint64_t prompt) {
  if (!t->mask) return 0;
  uint64_t per = c->s->attention == ATTN_SDPA && t->version >= 4053 ? 1 : t->a;
  uint64_t k = t->upfront ? c->s->context : prompt;
  return acc_mul3(&c->acc, acc_mul(&c->acc, prompt, k), c->s->concurrency, per);
}

static uint64_t prefill_bytes(ectx *c, const tf_mode *t, uint64_t prompt) {
  const scenario *s = c->s;
  uint64_t tokens = acc_mul(&c->acc, prompt, s->concurrency);
  uint64_t act = acc_mul(&c->acc, tokens, prefill_bytes_per_token(c, t));
  if (s->attention == ATTN_EAGER) {
    /* eager attention: scores (activation dtype), fp32 softmax, and the cast back */
    uint64_t heads = bytes_ceildiv(c->m->heads, s->tp);
    uint64_t sc = acc_mul3(&c->acc, acc_mul(&c->acc, prompt, prompt), heads, s->concurrency);
    act = acc_add(&c->acc, act, acc_mul(&c->acc, sc, 2 * t->a + 4));
  }
  return act;
}

/* generate() computes logits for the last position only since 4.45 (logits_to_keep),
** then upcasts to fp32 and samples; before, the prefill produced every position's logits
** and upcast them all to fp32. */
static void add_logits(ectx *c, const tf_mode *t, budget *b, uint64_t prompt, uint64_t *out) {
  const scenario *s = c->s;
  if (t->version >= 4045) {
    *out = acc_mul3(&c->acc, s->concurrency, c->m->vocab, t->a + 4 + 4);
    budget_add(b, "logits", *out, BASIS_MODELLED, true,
               "last-token logits x %llu sequences: %s, fp32 copy, sampling probabilities",
               (unsigned long long)s->concurrency, dtype_get(s->prec.activations)->name);
    return;
  }
  *out = acc_mul3(&c->acc, acc_mul(&c->acc, s->concurrency, prompt), c->m->vocab, t->a + 4);
  budget_add(b, "logits", *out, BASIS_MODELLED, true,
             "prefill logits of all %llu prompt tokens x %llu sequences in %s and fp32 (before 4.45)",
             (unsigned long long)prompt, (unsigned long long)s->concurrency,
             dtype_get(s->prec.activations)->name);
}

static void add_kv(ectx *c, const tf_mode *t, budget *b, uint64_t kv) {
  const scenario *s = c->s;
  budget_add(b, "kv_cache", kv, t->upfront ? BASIS_EXACT : BASIS_MODELLED, true,
             "%llu tokens x %llu sequences, %s cache%s, %s", (unsigned long long)s->context,
             (unsigned long long)s->concurrency,
             s->static_cache ? "static" : t->upfront ? "hybrid (windowed, allocated up front)" : "dynamic",
             t->windows ? "" : ", sliding layers at full length", dtype_get(s->kv_dtype)->name);
}

void infer_transformers(ectx *c) {
  const scenario *s = c->s;
  const model_desc *m = c->m;
  budget *b = &c->e->b;
  tf_mode t;
  tf_mode_init(c, &t);
  uint64_t w = 0;
  if (!estimate_device_weights(m, s->tp, s->pp, &w)) c->acc.overflow = true;
  budget_add(b, "weights", w, BASIS_EXACT, true, "%zu tensor groups; tp %llu, pp %llu", m->inv.n,
             (unsigned long long)s->tp, (unsigned long long)s->pp);
  uint64_t kv = est_kv_cache_bytes(c, s->context, s->concurrency, t.windows);
  add_kv(c, &t, b, kv);
  uint64_t prompt = s->prompt_tokens ? s->prompt_tokens : s->context;
  uint64_t mask = mask_bytes(c, &t, prompt), logits = 0;
  uint64_t pre = acc_add(&c->acc, prefill_bytes(c, &t, prompt), mask), dec = decode_bytes(c, &t);
  uint64_t act = pre > dec ? pre : dec;
  budget_add(b, "activations", act, BASIS_MODELLED, true,
             pre >= dec ? "prefill of %llu tokens x %llu sequences, one layer live, %s attention%s"
                        : "decode step at %llu tokens x %llu sequences: K/V copies, %s attention%s",
             (unsigned long long)(pre >= dec ? prompt : s->context), (unsigned long long)s->concurrency,
             s->attention == ATTN_EAGER ? "eager" : s->attention == ATTN_FLASH ? "flash" : "sdpa",
             mask && pre >= dec ? ", 4D causal mask" : "");
  add_logits(c, &t, b, prompt, &logits);
  est_add_common(c, b);
  uint64_t transient = acc_add(&c->acc, act, logits);
  est_add_slack(c, b, est_weight_rounding(c, budget_get(b, "weights")), transient, s->fragmentation,
                BASIS_MODELLED);
  c->e->peak_phase = pre >= dec ? "prefill" : "decode";
  est_fig(c, "weights_bytes", w);
  est_fig(c, "kv_cache_bytes", kv);
  est_finish(c, b);
}
