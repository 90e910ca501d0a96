/*
** rt_sglang.c: SGLang's memory pools. mem_fraction_static is the share of the GPU's
** free memory at start that weights and the KV pool may take; the pool gets what the
** weights leave of it (python/sglang/srt/model_executor/model_runner.py
** profile_max_num_token: rest = available after loading - total x (1 - fraction)) and
** holds rest // cell_size tokens, rounded down to whole pages. The request-to-token
** table ((max_num_reqs + 1) x (context_len + 4) int32) and the activations and CUDA
** graphs live in the share the fraction leaves. Uses estimate_int.h.
*/
#include <math.h>
#include <string.h>

#include "estimate_int.h"


/* SGLang's default mem_fraction_static by tensor-parallel size (server_args.py,
** releases before 0.5.3): 0.88 on one GPU down to 0.79 at tp >= 16. */
static double tp_fraction(uint64_t tp) {
  static const struct { uint64_t tp; double f; } rule[] = {{16, 0.79}, {8, 0.81}, {4, 0.85}, {2, 0.87}};
  for (size_t i = 0; i < sizeof rule / sizeof *rule; i++)
    if (tp >= rule[i].tp) return rule[i].f;
  return 0.88;
}

/* The defaults server_args.py picks by GPU memory (MiB) when not given: chunked prefill
** size and the largest CUDA-graph batch (PR #10975, 0.5.3 and later; the tiers go back to
** PR #2044). */
typedef struct sg_cfg {
  double gpu_mib;
  uint64_t chunk, graph_bs, page;
  double fraction, reserved_mib; /* reserved_mib 0 when the fraction was given or tp-based */
} sg_cfg;

static void tier_defaults(const scenario *s, sg_cfg *g) {
  static const struct { double below_gib; uint64_t chunk, bs_small_tp, bs_large_tp; } tier[] = {
      {20, 2048, 8, 8},        /* T4, 4080 */
      {35, 2048, 24, 80},      /* A10, 4090, 5090 */
      {60, 4096, 32, 160},     /* A100 40GB, L40 */
      {90, 8192, 256, 512},    /* H100, A100 80GB */
      {160, 8192, 256, 512},   /* H20, H200 */
      {INFINITY, 16384, 512, 512}, /* B200, MI300 */
  };
  size_t i = 0;
  while (g->gpu_mib >= tier[i].below_gib * 1024) i++;
  g->chunk = scn_u64(s, "runtime.chunked_prefill_size", tier[i].chunk);
  g->graph_bs = scn_u64(s, "runtime.cuda_graph_max_bs", s->tp < 4 ? tier[i].bs_small_tp : tier[i].bs_large_tp);
}

/* mem_fraction_static: given, or SGLang's default for the version. The reserved-memory
** rule (MiB): 512 of attention-backend metadata, 1.5 per prefill-chunk token (at least
** 2048) for activations, 2 per CUDA-graph batch slot, 1024 per 8 ranks (tp x pp), at
** least 10 GiB on GPUs above 60 GiB; fraction = (gpu - reserved) / gpu rounded to 3
** decimals. gpu is nvidia-smi's total, about 0.6% above the torch total used here (H100:
** 81559 vs 81090 MiB, scripts/gpus.lua): the fraction moves by under 0.001. */
static void fraction(const scenario *s, sg_cfg *g) {
  g->fraction = scn_real(s, "runtime.mem_fraction_static", 0);
  g->reserved_mib = 0;
  if (g->fraction > 0) return;
  if (scn_u64(s, "sglang.version", 999999) < 5003) {
    g->fraction = tp_fraction(s->tp);
    return;
  }
  double r = 512 + 1.5 * (double)(g->chunk > 2048 ? g->chunk : 2048) + 2.0 * (double)g->graph_bs +
             (double)(s->tp * s->pp) / 8.0 * 1024;
  if (g->gpu_mib > 60 * 1024 && r < 10 * 1024) r = 10 * 1024;
  g->reserved_mib = r;
  g->fraction = round((g->gpu_mib - r) / g->gpu_mib * 1000) / 1000;
}

void sglang_estimate(ectx *c) {
  const scenario *s = c->s;
  budget *b = &c->e->b;
  if (s->gpu_memory == 0) {
    est_fail(c, "sglang: the GPU's memory is unknown");
    return;
  }
  sg_cfg g = {.gpu_mib = (double)s->gpu_memory / MIB};
  tier_defaults(s, &g);
  fraction(s, &g);
  if (g.fraction <= 0) {
    est_fail(c, "sglang: the reserved memory (%.0f MiB) exceeds the GPU's %.0f MiB", g.reserved_mib, g.gpu_mib);
    return;
  }
  g.page = scn_u64(s, "runtime.page_size", 1);
  uint64_t w = 0;
  if (!estimate_device_weights(c->m, s->tp, s->pp, &w)) c->acc.overflow = true;
  /* free memory when the runner starts: the total less the CUDA context */
  uint64_t free0 = s->gpu_memory > s->cuda_context ? s->gpu_memory - s->cuda_context : 0;
  uint64_t share = acc_from_double(&c->acc, g.fraction * (double)free0);
  uint64_t pool = share > w ? share - w : 0;
  /* cell_size: one token's K and V over all layers on this rank, in kv_cache_dtype
  ** (scripts/runtimes/sglang.lua sets the scenario's kv_dtype from it) */
  uint64_t cell = est_kv_token_bytes(c);
  uint64_t tokens = cell ? pool / cell : 0;
  uint64_t cap = scn_u64(s, "runtime.max_total_tokens", 0);
  if (cap && cap < tokens) tokens = cap;
  tokens = tokens / g.page * g.page;
  /* the request pool: max_running_requests, or min(max(tokens / context x 512, 2048), 4096) */
  uint64_t ctx = scn_u64(s, "runtime.context_length", s->context ? s->context : 1);
  uint64_t reqs = scn_u64(s, "runtime.max_running_requests", 0);
  if (!reqs) {
    double r = floor((double)tokens / (double)ctx * 512);
    reqs = (uint64_t)(r < 2048 ? 2048 : r > 4096 ? 4096 : r);
  }
  uint64_t req_pool = acc_mul3(&c->acc, reqs + 1, ctx + 4, 4);
  uint64_t need = acc_mul3(&c->acc, s->context, s->concurrency, cell);
  uint64_t kv = acc_mul(&c->acc, tokens, cell);
  budget_add(b, "weights", w, BASIS_EXACT, true, "per rank (tp %llu, pp %llu)", (unsigned long long)s->tp,
             (unsigned long long)s->pp);
  budget_add(b, "kv_cache", need > kv ? need : kv, BASIS_MODELLED, true,
             "token pool: %llu tokens x %llu B (mem_fraction_static %.3f of %.2f GiB free)",
             (unsigned long long)tokens, (unsigned long long)cell, g.fraction, (double)free0 / GIB);
  budget_add(b, "workspace", req_pool, BASIS_EXACT, true,
             "req_to_token table: (%llu requests + 1) x (context %llu + 4) x int32", (unsigned long long)reqs,
             (unsigned long long)ctx);
  /* what the reserve must hold: one prefill chunk's forward through a layer, and the decode
  ** graphs' pool (the forward of cuda_graph_max_bs tokens and their fp32 logits) */
  uint64_t a = est_bits(s->dtype) / 8;
  uint64_t act = acc_add(&c->acc, est_forward_dense_bytes(c, g.chunk, a), est_forward_moe_bytes(c, g.chunk, a));
  uint64_t graphs = acc_add(&c->acc, est_forward_dense_bytes(c, g.graph_bs, a),
                            acc_mul3(&c->acc, g.graph_bs, c->m->vocab, 4));
  budget_add(b, "activations", act, BASIS_MODELLED, true,
             "prefill chunk of %llu tokens through one layer (SGLang's own reserve for it: %.2f GiB)",
             (unsigned long long)g.chunk, 1.5 * (double)(g.chunk > 2048 ? g.chunk : 2048) / 1024);
  budget_add(b, "cuda_graphs", graphs, BASIS_ASSUMED, true,
             "decode graphs up to batch %llu: one batch's forward and fp32 logits", (unsigned long long)g.graph_bs);
  if (g.reserved_mib > 0)
    est_fig(c, "reserved_bytes", acc_from_double(&c->acc, g.reserved_mib * MIB));
  est_add_context(c, b, "CUDA context and loaded kernels");
  est_fig(c, "weights_bytes", w);
  est_fig(c, "kv_cache_bytes", kv);
  est_fig(c, "kv_cache_tokens", tokens);
  est_fig(c, "max_running_requests", reqs);
  est_fig_real(c, "mem_fraction_static", g.fraction);
  est_fig(c, "chunked_prefill_size", g.chunk);
  est_fig(c, "cuda_graph_max_bs", g.graph_bs);
  est_fig_real(c, "max_concurrency", (double)tokens / (double)(s->context ? s->context : 1));
  est_fig(c, "context_length_fit", tokens); /* one request of at most the whole pool */
  c->e->peak_phase = "serving (token pool filled)";
  est_finish(c, b);
  /* SGLang takes mem_fraction_static of the free memory whatever the workload needs; for fit
  ** the workload needs its non-KV memory plus the KV of the requested sequences, and the
  ** fraction that would give the pool that KV is the launch flag that realises it */
  uint64_t kv_all = budget_get(b, "kv_cache"); /* part of total: no underflow */
  c->e->required = acc_add(&c->acc, c->e->total - kv_all, need);
  est_fig_real(c, "mem_fraction_static_needed",
               free0 ? (double)acc_add(&c->acc, w, need) / (double)free0 : 0.0);
}
