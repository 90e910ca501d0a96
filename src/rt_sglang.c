/*
** rt_sglang.c: SGLang's token pool. mem_fraction_static is the share of the GPU's
** free memory at start that weights and the KV pool may take; the pool gets what the
** weights leave of it (python/sglang/srt/model_executor/model_runner.py
** profile_max_num_token) and holds rest // cell_size tokens. Uses estimate_int.h.
*/
#include <string.h>

#include "estimate_int.h"


/* SGLang's default mem_fraction_static by tensor-parallel size (server_args.py,
** releases of 2024-2025 before the reserved-memory rule): 0.88 on one GPU down to
** 0.79 at tp >= 16. */
static double default_fraction(uint64_t tp) {
  static const struct { uint64_t tp; double f; } rule[] = {{16, 0.79}, {8, 0.81}, {4, 0.85}, {2, 0.87}};
  for (size_t i = 0; i < sizeof rule / sizeof *rule; i++)
    if (tp >= rule[i].tp) return rule[i].f;
  return 0.88;
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
  /* cell_size: one token's K and V over all layers on this rank, in kv_cache_dtype
  ** (scripts/runtimes/sglang.lua sets the scenario's kv_dtype from it) */
  uint64_t cell = est_kv_token_bytes(c);
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
  est_add_context(c, b, "CUDA context and loaded kernels");
  est_fig(c, "weights_bytes", w);
  est_fig(c, "kv_cache_bytes", kv);
  est_fig(c, "kv_cache_tokens", tokens);
  est_fig_real(c, "max_concurrency", (double)tokens / (double)(s->context ? s->context : 1));
  c->e->peak_phase = "serving (token pool filled)";
  est_finish(c, b);
}
