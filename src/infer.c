/*
** infer.c: inference with transformers' generate() (and plain PyTorch): weights, the KV
** cache as the cache class allocates it (DynamicCache grown by torch.cat, StaticCache and
** Gemma's HybridCache allocated whole up front, offloading to pinned CPU memory with two
** layers on the GPU, QuantizedCache's packed K/V), the larger of the prefill's live
** activations and a decode step's transients (repeat_kv, the torch.cat copy), the 4D
** attention mask, logits. Version knobs: scripts/runtimes/transformers.lua. Uses
** estimate_int.h.
*/
#include <stdio.h>
#include <string.h>

#include "estimate_int.h"

#define TF_NEWEST 4057 /* major x 1000 + minor: 4.57 */

/* cache_implementation: DynamicCache, StaticCache, offloading either, QuantizedCache */
typedef enum tf_cache { TF_DYNAMIC, TF_STATIC, TF_OFFLOADED, TF_OFFLOADED_STATIC, TF_QUANTIZED } tf_cache;

/* How generate() caches, by version (transformers.version) and the cache knob. */
typedef struct tf_mode {
  uint64_t version;
  tf_cache cache;
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
  t->cache = strcmp(cache, "offloaded") == 0          ? TF_OFFLOADED
             : strcmp(cache, "offloaded_static") == 0 ? TF_OFFLOADED_STATIC
             : strcmp(cache, "quantized") == 0        ? TF_QUANTIZED
             : s->static_cache                        ? TF_STATIC
                                                      : TF_DYNAMIC;
  bool hybrid_default = t->version < 4054 && strcmp(cache, "default") == 0 && tf_windowed_arch(c->m) &&
                        (strcmp(c->m->arch, "gemma") == 0 || strcmp(c->m->arch, "llama4") == 0);
  t->upfront = s->static_cache || t->cache == TF_OFFLOADED_STATIC || hybrid_default;
  /* QuantizedCache makes every layer a QuantizedLayer at full length (no sliding layers),
  ** before and after 4.54; OffloadedStaticCache before 4.54 gave every layer max_cache_len */
  t->windows = (t->version >= 4054 || hybrid_default) && t->cache != TF_QUANTIZED;
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

/* One layer of group g on this rank at `tokens` for every sequence, cut to the group's
** window (or encoder tokens) when `windowed`. */
static uint64_t group_layer_bytes(ectx *c, const kv_group *g, uint64_t tokens, bool windowed) {
  uint64_t n = windowed ? est_kv_group_tokens(g, tokens) : tokens;
  if (g->bytes) return acc_mul3(&c->acc, n, c->s->concurrency, g->bytes); /* whatever the KV dtype */
  uint64_t e = acc_mul3(&c->acc, acc_mul(&c->acc, n, c->s->concurrency), est_kv_heads_rank(g->kv_heads, c->s->tp),
                        g->k_dim + g->v_dim);
  return est_elems_bytes(c, e, c->s->kv_dtype);
}

/* One attention layer's K + V at `tokens` for every sequence (the largest group), cut to
** windows only when the cache keeps them (cross-attention too: else at full length). */
static uint64_t layer_kv_bytes(ectx *c, const tf_mode *t, uint64_t tokens) {
  uint64_t best = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind == KV_STATE) continue;
    uint64_t b = group_layer_bytes(c, g, tokens, t->windows);
    best = b > best ? b : best;
  }
  return best;
}

/* generate() threads a DynamicCache instance from 4.42 (use_dynamic_cache_by_default: "This
** will avoid back and forth from legacy format that keeps copying the cache thus using much
** more memory", generation/utils.py). Before, the legacy tuple of K/V stayed referenced by
** model_kwargs while each layer's torch.cat built the longer one (4.36-4.41:
** DynamicCache.from_legacy_cache wraps the same tensors), so at a decode step the whole
** previous cache lives beside the new. 4.42 assumed (read from the source, not bisected). */
#define TF_DYNAMIC_INSTANCE 4042

/* A decode step runs (a token after the prompt's) on the legacy tuple cache. */
static bool legacy_tuple_cache(ectx *c, const tf_mode *t, uint64_t prompt) {
  return t->cache == TF_DYNAMIC && !t->upfront && t->version < TF_DYNAMIC_INSTANCE && c->s->context > prompt;
}

/* A decode step at full context: DynamicCache.update's torch.cat holds one layer's old
** and new K/V together (before TF_DYNAMIC_INSTANCE every layer's: the previous cache whole);
** eager (and sdpa without enable_gqa) repeat_kv expands the whole cached K and V of the
** layer to all query heads: sequences x context x 2 x q_dim. */
static uint64_t decode_bytes(ectx *c, const tf_mode *t, uint64_t prompt) {
  const scenario *s = c->s;
  const block_spec *b = &c->m->block;
  uint64_t total = t->upfront ? 0 : layer_kv_bytes(c, t, s->context);
  if (legacy_tuple_cache(c, t, prompt)) total = est_kv_cache_bytes(c, s->context - 1, s->concurrency, t->windows);
  /* QuantizedLayer.update: the dequantized K/V beside the torch.cat of dequantized, residual
  ** and new states, both at full length in the model dtype */
  if (t->cache == TF_QUANTIZED) total = acc_mul(&c->acc, total, 2);
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
/* The logits live at the peak. From 4.45 generate() asks the forward for the last position
** only (num_logits_to_keep): per sequence vocab in the activation dtype, its fp32 copy and the
** sampling probabilities, beside the phase's activations. Before, the prefill computes all
** prompt positions' logits and their fp32 copy (LlamaForCausalLM: logits.float()) after the
** last layer's transient is freed: the prefill peaks at the larger of the two; a decode
** step's logits are one position per sequence. */
static uint64_t logits_bytes(ectx *c, const tf_mode *t, uint64_t prompt, bool prefill) {
  const scenario *s = c->s;
  if (t->version >= 4045) return acc_mul3(&c->acc, s->concurrency, c->m->vocab, t->a + 4 + 4);
  return acc_mul3(&c->acc, acc_mul(&c->acc, s->concurrency, prefill ? prompt : 1), c->m->vocab, t->a + 4);
}

/* The GPT-NeoX attention refactor onto the shared attention interface drops _init_bias;
** 4.48 assumed (read from the source before and after, not bisected). */
#define TF_NEOX_NO_MASK_BUFFER 4048

/* Non-persistent buffers the model class registers per attention layer and moves to the
** GPU with the weights (not in the checkpoint, so not in the inventory): the boolean
** causal mask `bias` of 1 x 1 x max_positions x max_positions. GPT2Attention.__init__
** registers it in every version (its eager path reads module.bias; modeling_gpt2.py);
** GPTNeoXAttention._init_bias before the refactor, and _attn regrows it to the key length
** when longer (modeling_gpt_neox.py, transformers 4.42: "dynamically increase the causal
** mask with the key length": `keys` at the peak's phase). GPT-2 large: 36 x 1024^2 B =
** 37.7 MB; Pythia-410M: 24 x 2048^2 B = 100.7 MB. GPTBigCode registers one such `bias`
** (bool max_positions^2, persistent=False) in GPTBigCodeModel.__init__, not per layer, and
** slices its self-attention mask from it (models/gpt_bigcode/modeling_gpt_bigcode.py,
** huggingface/transformers@00574544, the 4.3x source before the attention-class split; later
** releases not checked, so every version is given it): StarCoder's 8192 positions, 64 MiB.
** Held out by round 25 (test_holdout25_tf: the octocoder runs of "Optimizing LLMs for Speed
** and Memory"). */
static uint64_t mask_buffer_bytes(ectx *c, const tf_mode *t, uint64_t keys) {
  const model_desc *m = c->m;
  uint64_t n = m->max_position;
  if (strcmp(m->arch, "gpt_bigcode") == 0) return acc_mul(&c->acc, n, n);
  if (strcmp(m->arch, "gpt_neox") == 0 && t->version < TF_NEOX_NO_MASK_BUFFER)
    n = keys > n ? keys : n;
  else if (strcmp(m->arch, "gpt2") != 0)
    return 0;
  return acc_mul3(&c->acc, n, n, bytes_ceildiv(m->layers, c->s->pp));
}

/* The per-layer RoPE cos/sin tables of the Llama-family attention classes before 4.39:
** LlamaRotaryEmbedding.__init__ (and its "Copied from" Mistral / Qwen2 classes) built
** cos_cached and sin_cached of max_position_embeddings x rotary dim in the default dtype
** (from_pretrained sets it to torch_dtype) and registered them as non-persistent buffers,
** one module per attention layer (modeling_llama.py / modeling_mistral.py, 4.31-4.37:
** _set_cos_sin_cache; 4.38 kept them as _cos_cached / _sin_cached "for BC"; 4.39 dropped
** them and computes cos/sin per forward). Mistral-7B (32768 positions, dim 128, 32 layers,
** fp16): 32 x 2 x 32768 x 128 x 2 B = 536,870,912 B. */
#define TF_NO_ROPE_CACHE_BUFFERS 4039

static uint64_t rope_buffer_bytes(ectx *c, const tf_mode *t) {
  const model_desc *m = c->m;
  if (strcmp(m->arch, "llama") != 0 || t->version >= TF_NO_ROPE_CACHE_BUFFERS) return 0;
  uint64_t dim = m->rotary_dim ? m->rotary_dim : m->head_dim;
  uint64_t per_layer = acc_mul3(&c->acc, 2, m->max_position, acc_mul(&c->acc, dim, bytes_ceildiv(dtype_get(c->s->prec.activations)->bits, 8)));
  return acc_mul(&c->acc, per_layer, bytes_ceildiv(m->layers, c->s->pp));
}

/* Where the cache lives: gpu (kv_cache) and pinned host memory (kv_cache_host_bytes). */
typedef struct tf_kv {
  uint64_t gpu, host;
  uint64_t on_gpu, layers; /* offloading: layers held on the GPU, layers offloaded */
} tf_kv;

/* Offloading. Cache.update prefetches layer i+1 on a side stream, updates layer i, then
** offloads it with .to("cpu", non_blocking=True) (a pinned copy): two layers on the GPU, the
** computed one and the prefetched next (DynamicCache / StaticCache offloading=True from the
** 4.54 layer refactor; OffloadedCache's prefetch_layer / evict_previous_layer before).
** StaticCache keeps its sliding layers on the GPU (offload_only_non_sliding=True), DynamicCache
** offloads them too. Before 4.54 OffloadedStaticCache allocated layer 0 on the GPU, two
** device buffers it alternates the others through, and layers 1.. in pinned CPU memory, all
** at max_cache_len (transformers src/transformers/cache_utils.py, 4.45-4.53 and 4.54+). */
static void offloaded_kv(ectx *c, const tf_mode *t, uint64_t full, tf_kv *kv) {
  bool keep_sliding = t->cache == TF_OFFLOADED_STATIC && t->version >= 4054;
  bool legacy_static = t->cache == TF_OFFLOADED_STATIC && t->version < 4054;
  uint64_t off = 0, largest = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind == KV_STATE || (keep_sliding && g->window && g->kind != KV_CROSS)) continue;
    /* windowed as the whole cache is (est_kv_cache_bytes: cross-attention always) */
    bool windowed = t->windows || g->kind == KV_CROSS;
    uint64_t lb = group_layer_bytes(c, g, c->s->context, windowed), nl = bytes_ceildiv(g->layers, c->s->pp);
    off = acc_add(&c->acc, off, acc_mul(&c->acc, lb, nl));
    kv->layers += nl;
    largest = lb > largest ? lb : largest;
  }
  uint64_t resident = full > off ? full - off : 0;
  if (legacy_static) {
    kv->on_gpu = 3;
    kv->gpu = acc_add(&c->acc, resident, acc_mul(&c->acc, 3, largest));
    kv->host = kv->layers ? off - largest : 0;
    return;
  }
  kv->on_gpu = kv->layers < 2 ? kv->layers : 2;
  uint64_t on = acc_mul(&c->acc, kv->on_gpu, largest);
  if (on > off) on = off;
  kv->gpu = acc_add(&c->acc, resident, on);
  kv->host = off - on;
}

/* QuantizedCache's knobs (runtime.cache_*: scripts/runtimes/transformers.lua). */
typedef struct tf_quant {
  uint64_t nbits, group, residual;
  bool hqq;
} tf_quant;

/* One quantized K or V tensor of n elements, axis 0 (the default axis_key/axis_value):
** n / q_group_size groups, each with a scale and a shift/zero in the model dtype (quanto's
** MaxOptimizer returns both in the base dtype; HQQ casts scale and zero to compute_dtype).
** quanto groups to (groups, q_group_size) and packs 8/nbits rows per uint8 (PackedTensor);
** HQQ groups to (q_group_size, groups) and packs its rows the same way. */
static uint64_t quant_tensor_bytes(ectx *c, const tf_quant *q, uint64_t n) {
  uint64_t groups = bytes_ceildiv(n, q->group), per = 8 / q->nbits;
  uint64_t packed = q->hqq ? acc_mul(&c->acc, bytes_ceildiv(q->group, per), groups)
                           : acc_mul(&c->acc, bytes_ceildiv(groups, per), q->group);
  return acc_add(&c->acc, packed, est_elems_bytes(c, acc_mul(&c->acc, 2, groups), c->s->kv_dtype));
}

/* QuantizedCache (KIVI-style; QuantizedLayer from 4.54, QuantizedCache(DynamicCache) from
** 4.42): the prefill's K/V are quantized whole; decode tokens gather in a residual in the
** model dtype until it holds residual_length - 1 and the next update re-quantizes
** everything. At `context` tokens the cache holds at most min(residual_length - 1, decoded
** tokens) residual tokens and the rest quantized, every layer at full length. */
static void quantized_kv(ectx *c, const tf_quant *q, uint64_t prompt, tf_kv *kv) {
  const scenario *s = c->s;
  uint64_t decoded = s->context - prompt, r = q->residual - 1 < decoded ? q->residual - 1 : decoded;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind == KV_STATE) {
      est_fail(c, "runtime.cache = \"quantized\": QuantizedCache has no layers for recurrent state (%s)", c->m->arch);
      return;
    }
    uint64_t n = g->kind == KV_CROSS ? g->tokens : s->context, res = r < n ? r : n;
    uint64_t rows = acc_mul(&c->acc, s->concurrency, est_kv_heads_rank(g->kv_heads, s->tp));
    uint64_t qk = acc_mul3(&c->acc, rows, n - res, g->k_dim), qv = acc_mul3(&c->acc, rows, n - res, g->v_dim);
    uint64_t layer = acc_add(&c->acc, quant_tensor_bytes(c, q, qk), quant_tensor_bytes(c, q, qv));
    layer = acc_add(&c->acc, layer, est_elems_bytes(c, acc_mul3(&c->acc, rows, res, g->k_dim + g->v_dim), s->kv_dtype));
    kv->gpu = acc_add(&c->acc, kv->gpu, acc_mul(&c->acc, layer, bytes_ceildiv(g->layers, s->pp)));
  }
}

static const char *cache_name(const tf_mode *t) {
  switch (t->cache) {
  case TF_OFFLOADED: return "offloaded dynamic";
  case TF_OFFLOADED_STATIC: return "offloaded static";
  case TF_QUANTIZED: return "quantized";
  case TF_STATIC: return "static";
  default: return t->upfront ? "hybrid (windowed, allocated up front)" : "dynamic";
  }
}

static void add_kv(ectx *c, const tf_mode *t, budget *b, const tf_kv *kv, const tf_quant *q) {
  const scenario *s = c->s;
  char where[200] = "";
  if (t->cache == TF_OFFLOADED || t->cache == TF_OFFLOADED_STATIC)
    snprintf(where, sizeof where, "; on the GPU %s%llu of %llu offloaded layers, %llu B in pinned CPU memory",
             t->cache == TF_OFFLOADED_STATIC && t->version < 4054 ? "layer 0 and 2 device buffers: "
             : t->cache == TF_OFFLOADED_STATIC && tf_windowed_arch(c->m) ? "the sliding layers and " : "",
             (unsigned long long)kv->on_gpu, (unsigned long long)kv->layers, (unsigned long long)kv->host);
  else if (t->cache == TF_QUANTIZED)
    snprintf(where, sizeof where, "; %s %llu-bit, groups of %llu with scale and shift, residual up to %llu tokens",
             q->hqq ? "HQQ" : "quanto", (unsigned long long)q->nbits, (unsigned long long)q->group,
             (unsigned long long)(q->residual - 1));
  if (est_model_attention_free(c->m)) { /* attention-free (architectures/mamba.lua) */
    /* transformers MambaCache / Mamba2Cache (models/mamba/modeling_mamba.py, models/mamba2/
    ** modeling_mamba2.py): conv and SSM states of every layer per sequence, whatever the context */
    budget_add(b, "kv_cache", kv->gpu, BASIS_MODELLED, true,
               "recurrent state (conv window + SSM state of every layer) of %llu sequences, constant in the context, %s%s",
               (unsigned long long)s->concurrency, dtype_get(s->dtype)->name, where);
    return;
  }
  budget_add(b, "kv_cache", kv->gpu, t->upfront ? BASIS_EXACT : BASIS_MODELLED, true,
             "%llu tokens x %llu sequences, %s cache%s, %s%s", (unsigned long long)s->context,
             (unsigned long long)s->concurrency, cache_name(t),
             t->windows || !tf_windowed_arch(c->m) ? "" : ", sliding layers at full length",
             dtype_get(s->kv_dtype)->name, where);
}

/* The cache on the GPU and the host by cache_implementation. */
static void kv_split(ectx *c, const tf_mode *t, uint64_t prompt, tf_kv *kv, tf_quant *q) {
  const scenario *s = c->s;
  uint64_t full = est_kv_cache_bytes(c, s->context, s->concurrency, t->windows);
  q->nbits = scn_u64(s, "runtime.cache_nbits", 4);
  /* transformers QuantizedCacheConfig defaults: q_group_size 64, residual_length 128 */
  q->group = scn_u64(s, "runtime.cache_q_group_size", 64);
  q->residual = scn_u64(s, "runtime.cache_residual_length", 128);
  q->hqq = strcmp(scn_str(s, "runtime.cache_backend", "quanto"), "hqq") == 0;
  if (t->cache == TF_OFFLOADED || t->cache == TF_OFFLOADED_STATIC)
    offloaded_kv(c, t, full, kv);
  else if (t->cache == TF_QUANTIZED)
    quantized_kv(c, q, prompt, kv);
  else
    kv->gpu = full;
}

/* The cache layout transformers keeps where a kv group gives one (expanded_heads: model.h).
** MLA models: DeepseekV2Attention / DeepseekV3Attention.forward (transformers models/deepseek_v2,
** models/deepseek_v3/modeling_deepseek_v3.py, e.g. 00b676f8) and GlmMoeDsaAttention.forward
** (models/glm_moe_dsa) up-project the latent through kv_b_proj, expand k_rot to every head, and
** pass past_key_values.update key_states {batch, num_heads, seq, qk_nope + qk_rope} and
** value_states {batch, num_heads, seq, v_head_dim} (flash_attention_2 pads V to qk_head_dim only
** after the update: not cached). GLM-5's indexer keeps its keys {batch, seq, index_head_dim} in
** the model dtype (GlmMoeDsaIndexer._cached_keys), not vLLM's 132-byte fp8 rows. KimiLinearAttention
** caches the latent (kv_nope, k_rot) itself: no expanded layout. vLLM, SGLang and llama.cpp keep
** the group as it is. */
static void tf_cache_layout(const model_desc *in, model_desc *out) {
  *out = *in;
  for (int i = 0; i < out->n_kv; i++) {
    kv_group *g = &out->kv[i];
    if (!g->expanded_heads) continue;
    g->kv_heads = g->expanded_heads, g->k_dim = g->expanded_k_dim, g->v_dim = g->expanded_v_dim;
    g->bytes = g->fp8_bytes = 0; /* in the KV dtype */
  }
}

static void tf_infer(ectx *c);

void infer_transformers(ectx *c) {
  const model_desc *m = c->m;
  model_desc tf;
  tf_cache_layout(m, &tf);
  c->m = &tf;
  tf_infer(c);
  c->m = m;
}

static void tf_infer(ectx *c) {
  const scenario *s = c->s;
  const model_desc *m = c->m;
  budget *b = &c->e->b;
  tf_mode t;
  tf_mode_init(c, &t);
  uint64_t w = 0;
  if (!estimate_device_weights(m, s->tp, s->pp, &w)) c->acc.overflow = true;
  budget_add(b, "weights", w, BASIS_EXACT, true, "%zu tensor groups; tp %llu, pp %llu", m->inv.n,
             (unsigned long long)s->tp, (unsigned long long)s->pp);
  uint64_t prompt = s->prompt_tokens ? s->prompt_tokens : s->context;
  tf_kv kv = {0};
  tf_quant q;
  kv_split(c, &t, prompt, &kv, &q);
  if (c->failed) return;
  add_kv(c, &t, b, &kv, &q);
  uint64_t mask = mask_bytes(c, &t, prompt);
  uint64_t pre = acc_add(&c->acc, prefill_bytes(c, &t, prompt), mask), dec = decode_bytes(c, &t, prompt);
  uint64_t plog = logits_bytes(c, &t, prompt, true), dlog = logits_bytes(c, &t, prompt, false);
  bool sequential = t.version < 4045; /* the prefill's logits after its layers' transient */
  uint64_t pre_peak = sequential ? (pre > plog ? pre : plog) : acc_add(&c->acc, pre, plog);
  bool prefill = pre_peak >= acc_add(&c->acc, dec, dlog);
  uint64_t act = prefill ? (sequential && plog > pre ? 0 : pre) : dec;
  uint64_t logits = prefill ? (sequential && plog <= pre ? 0 : plog) : dlog;
  budget_add(b, "activations", act, BASIS_MODELLED, true,
             prefill ? "prefill of %llu tokens x %llu sequences, one layer live, %s attention%s%s"
                     : "decode step at %llu tokens x %llu sequences: K/V copies, %s attention%s%s",
             (unsigned long long)(prefill ? prompt : s->context), (unsigned long long)s->concurrency,
             est_model_attention_free(c->m) ? "no" /* attention-free */
             : s->attention == ATTN_EAGER ? "eager" : s->attention == ATTN_FLASH ? "flash" : "sdpa",
             mask && prefill ? ", 4D causal mask" : "",
             !act                                                ? " (freed before the logits)"
             : !prefill && legacy_tuple_cache(c, &t, prompt) ? " (legacy tuple cache: the previous cache whole)"
                                                             : "");
  if (t.version >= 4045)
    budget_add(b, "logits", logits, BASIS_MODELLED, true, "last-token logits x %llu sequences: %s, fp32 copy, sampling probabilities",
               (unsigned long long)s->concurrency, dtype_get(s->prec.activations)->name);
  else if (prefill)
    budget_add(b, "logits", logits, BASIS_MODELLED, true,
               "prefill logits of all %llu prompt tokens x %llu sequences in %s and fp32 (before 4.45)%s",
               (unsigned long long)prompt, (unsigned long long)s->concurrency, dtype_get(s->prec.activations)->name,
               logits ? "" : ": smaller than the layers' transient, after it");
  else
    budget_add(b, "logits", logits, BASIS_MODELLED, true, "a decode step's logits x %llu sequences in %s and fp32",
               (unsigned long long)s->concurrency, dtype_get(s->prec.activations)->name);
  uint64_t mbuf = mask_buffer_bytes(c, &t, prefill ? prompt : s->context);
  if (mbuf)
    budget_add(
        b, "model_buffers", mbuf, BASIS_EXACT, true,
        strcmp(m->arch, "gpt_bigcode") == 0
            ? "causal-mask buffer (bool, max_positions^2) the %s model registers once"
            : "causal-mask buffers (bool, max_positions^2 per attention layer) the %s attention registers",
        m->arch);
  uint64_t rbuf = rope_buffer_bytes(c, &t); /* llama arch only: never with mbuf */
  if (rbuf)
    budget_add(b, "model_buffers", rbuf, BASIS_EXACT, true,
               "RoPE cos/sin caches (max_positions x rotary dim, %s) each attention layer registers (before 4.39)",
               dtype_get(s->prec.activations)->name);
  est_add_common(c, b);
  uint64_t transient = acc_add(&c->acc, act, logits);
  if (scn_bool(s, "runtime.expandable_segments", false))
    est_add_slack_expandable(c, b);
  else
    est_add_slack(c, b, est_weight_rounding(c, budget_get(b, "weights")), transient, s->fragmentation,
                  BASIS_MODELLED);
  c->e->peak_phase = prefill ? "prefill" : "decode";
  est_fig(c, "weights_bytes", w);
  est_fig(c, "kv_cache_bytes", kv.gpu);
  if (t.cache == TF_OFFLOADED || t.cache == TF_OFFLOADED_STATIC) est_fig(c, "kv_cache_host_bytes", kv.host);
  est_finish(c, b);
}
