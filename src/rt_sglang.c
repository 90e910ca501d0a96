/*
** rt_sglang.c: SGLang's token pool. mem_fraction_static is the share of the GPU's
** free memory at start that weights and the KV pool may take; the pool gets what the
** weights leave of it (python/sglang/srt/model_executor/model_runner.py
** profile_max_num_token) and holds rest // cell_size tokens. Uses estimate_int.h.
*/
#include <string.h>

#include "estimate_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* SGLang's default mem_fraction_static by tensor-parallel size (server_args.py,
** releases of 2024-2025 before the reserved-memory rule): 0.88 on one GPU down to
** 0.79 at tp >= 16. */
static double default_fraction(uint64_t tp) {
  static const struct { uint64_t tp; double f; } rule[] = {{16, 0.79}, {8, 0.81}, {4, 0.85}, {2, 0.87}};
  for (size_t i = 0; i < sizeof rule / sizeof *rule; i++)
    if (tp >= rule[i].tp) return rule[i].f;
  return 0.88;
}

/* Bytes of one token of KV on one rank over all layers (cell_size): K and V heads per
** rank x head_dim, or the MLA latent (kv_lora_rank + rope dims) once. */
static uint64_t cell_size(ectx *c, uint64_t kvb) {
  uint64_t cell = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    uint64_t heads = est_kv_heads_rank(g->kv_heads, c->s->tp);
    uint64_t layers = bytes_ceildiv(g->layers, c->s->pp);
    cell = acc_add(&c->acc, cell, acc_mul3(&c->acc, heads, g->k_dim + g->v_dim, acc_mul(&c->acc, layers, kvb)));
  }
  return cell;
}

static uint64_t sglang_kv_bytes(ectx *c) {
  const char *kvd = scn_str(c->s, "runtime.kv_cache_dtype", "auto");
  if (strncmp(kvd, "fp8", 3) == 0) return 1;
  return est_bits(c->s->kv_dtype) / 8;
}

void sglang_estimate(ectx *c) {
  const scenario *s = c->s;
  budget *b = &c->e->b;
  if (s->gpu_memory == 0) {
    est_fail(c, "sglang: the GPU's memory is unknown");
    return;
  }
  double f = scn_real(s, "runtime.mem_fraction_static", default_fraction(s->tp));
  uint64_t w = 0;
  if (!estimate_device_weights(c->m, s->tp, s->pp, &w)) c->acc.overflow = true;
  /* free memory when the runner starts: the total less the CUDA context */
  uint64_t free0 = s->gpu_memory > s->cuda_context ? s->gpu_memory - s->cuda_context : 0;
  uint64_t share = acc_from_double(&c->acc, f * (double)free0);
  uint64_t pool = share > w ? share - w : 0;
  uint64_t cell = cell_size(c, sglang_kv_bytes(c));
  uint64_t tokens = cell ? pool / cell : 0;
  uint64_t cap = scn_u64(s, "runtime.max_total_tokens", 0);
  if (cap && cap < tokens) tokens = cap;
  uint64_t need = acc_mul3(&c->acc, s->context, s->concurrency, cell);
  uint64_t kv = acc_mul(&c->acc, tokens, cell);
  budget_add(b, "weights", w, BASIS_EXACT, true, "per rank (tp %llu, pp %llu)", (unsigned long long)s->tp,
             (unsigned long long)s->pp);
  budget_add(b, "kv_cache", need > kv ? need : kv, BASIS_MODELLED, true,
             "token pool: %llu tokens x %llu B (mem_fraction_static %.3f of %.2f GiB free)",
             (unsigned long long)tokens, (unsigned long long)cell, f, (double)free0 / GIB);
  budget_add(b, "activations", 0, BASIS_ASSUMED, true,
             "inside the %.2f GiB that mem_fraction_static leaves for activations and CUDA graphs",
             (1.0 - f) * (double)free0 / GIB);
  budget_add(b, "cuda_context", s->cuda_context, BASIS_ASSUMED, false, "CUDA context and loaded kernels");
  est_fig(c, "weights_bytes", w);
  est_fig(c, "kv_cache_bytes", kv);
  est_fig(c, "kv_cache_tokens", tokens);
  est_fig_real(c, "max_concurrency", (double)tokens / (double)(s->context ? s->context : 1));
  c->e->peak_phase = "serving (token pool filled)";
  est_finish(c, b);
}
