/*
** rt_sglang.c: SGLang's memory pools. mem_fraction_static is the share of the GPU's
** free memory at start that weights and the KV pools may take; the pools get what the
** weights leave of it (rest = available after loading - total x (1 - fraction)). The
** arithmetic follows sgl-project/sglang main at 003fca80 (mem_cache/kv_cache_configurator.py
** _profile_available_bytes, _handle_max_mamba_cache, resolve_max_num_reqs;
** model_executor/pool_configurator.py DefaultPoolConfigurator, HybridSWAPoolConfigurator;
** configs/mamba_utils.py; mem_cache/memory_pool.py ReqToTokenPool, MambaPool):
** - one token pool: rest // cell_size tokens, cell_size one token's K and V over the
**   attention layers (MLA: one latent of kv_lora_rank + qk_rope_head_dim per layer, the
**   description's k_dim with kv_heads 1), rounded down to whole pages;
** - hybrid SWA (scripts/runtimes/sglang.lua names the architectures): the full-attention
**   layers' pool of N tokens and the sliding-window layers' pool of swa_full_tokens_ratio x N,
**   N = rest // (full bytes + ratio x SWA bytes per token);
** - models with recurrent-state layers (Mamba, gated DeltaNet): mamba_full_memory_ratio /
**   (1 + ratio) of rest goes to a per-request state pool of max_mamba_cache_size + 1 slots
**   (conv state in bf16, SSM state in mamba_ssm_dtype, fp32 by default), the token pool
**   gets the remainder, and the running requests are capped at the state slots / 3.
** Every pool allocates one padding page (slot) beyond its size. The request-to-token table
** ((max_num_reqs + 1) x (context_len + 4) int32) and the activations and CUDA graphs live
** in the share the fraction leaves. Uses estimate_int.h.
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

/* The pools SGLang sizes from rest, and what it prints about them. */
typedef struct sg_pool {
  bool hybrid;          /* hybrid SWA pool */
  uint64_t k_full, v_full, k_swa, v_swa; /* bytes of K / V per token over the layers of each pool */
  double ratio;         /* swa_full_tokens_ratio */
  double cell;          /* bytes per token of max_total_num_tokens */
  uint64_t conv_req, ssm_req; /* Mamba state bytes per request slot on this rank */
  uint64_t mamba;       /* max_mamba_cache_size (state slots, the padding slot not counted) */
  uint64_t tokens, swa_tokens;
} sg_pool;

/* K (k) and V (v) bytes of one token in a group's layers on this rank (tp, pp split). */
static void group_kv(ectx *c, const kv_group *g, uint64_t *k, uint64_t *v) {
  uint64_t per = acc_mul(&c->acc, est_kv_heads_rank(g->kv_heads, c->s->tp), bytes_ceildiv(g->layers, c->s->pp));
  *k = acc_add(&c->acc, *k, est_elems_bytes(c, acc_mul(&c->acc, per, g->k_dim), c->s->kv_dtype));
  *v = acc_add(&c->acc, *v, est_elems_bytes(c, acc_mul(&c->acc, per, g->v_dim), c->s->kv_dtype));
}

/* A recurrent-state group's bytes per request slot (configs/mamba_utils.py
** mamba_cache_per_req): the conv window in bf16 (SGLANG_MAMBA_CONV_DTYPE default) and the
** SSM state in mamba_ssm_dtype, both split by tp. Without conv_elems the whole state is
** counted in the SSM dtype. */
static void group_state(ectx *c, const kv_group *g, sg_pool *p) {
  uint64_t layers = bytes_ceildiv(g->layers, c->s->pp), tp = c->s->tp;
  uint64_t ssm_b = scn_u64(c->s, "sglang.ssm_bytes", 4);
  uint64_t conv = acc_mul3(&c->acc, bytes_ceildiv(g->conv_elems, tp), layers, 2);
  uint64_t ssm = acc_mul3(&c->acc, bytes_ceildiv(g->state_elems - g->conv_elems, tp), layers, ssm_b);
  p->conv_req = acc_add(&c->acc, p->conv_req, conv);
  p->ssm_req = acc_add(&c->acc, p->ssm_req, ssm);
}

/* Bytes per token of each pool, and of max_total_num_tokens: the full layers plus ratio x
** the SWA layers (all-SWA models: the SWA layers alone); cross-attention is not pooled. */
static void pool_cells(ectx *c, sg_pool *p) {
  const scenario *s = c->s;
  p->hybrid = scn_bool(s, "sglang.hybrid_swa", false);
  p->ratio = scn_real(s, "runtime.swa_full_tokens_ratio", 0.8); /* server_args.py default */
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind == KV_STATE) group_state(c, g, p);
    else if (g->kind == KV_CROSS) continue;
    else if (p->hybrid && g->window) group_kv(c, g, &p->k_swa, &p->v_swa);
    else group_kv(c, g, &p->k_full, &p->v_full);
  }
  double full = (double)(p->k_full + p->v_full), swa = (double)(p->k_swa + p->v_swa);
  p->cell = !p->hybrid ? full : full > 0 ? full + p->ratio * swa : swa;
}

/* The state pool's slots (_handle_max_mamba_cache): max_mamba_cache_size when given; with
** the radix cache off, max_running_requests; else mamba_full_memory_ratio / (1 + ratio) of
** rest, less one padding slot, over the bytes per slot. rest loses the slots plus the padding
** slot (none left: SGLang refuses to start; here the token pool is empty and the fit check
** reports the shortfall). Versions differ: releases before the padding slot took
** budget // per_req slots and charged them alone; those before MambaRadixCache turned the
** radix cache off for hybrid GDN models and took max_running_requests or 512 slots
** (model_runner.py handle_max_mamba_cache). The newest arithmetic is followed for all. */
static void mamba_slots(ectx *c, sg_pool *p, uint64_t *rest) {
  const scenario *s = c->s;
  uint64_t per = p->conv_req + p->ssm_req;
  if (!per) return;
  p->mamba = scn_u64(s, "runtime.max_mamba_cache_size", 0);
  uint64_t reqs = scn_u64(s, "runtime.max_running_requests", 0);
  if (!p->mamba && scn_bool(s, "runtime.disable_radix_cache", false) && reqs) p->mamba = reqs;
  if (!p->mamba) {
    double r = scn_real(s, "runtime.mamba_full_memory_ratio", 0.9); /* server_args.py default */
    double k = floor(((double)*rest * r / (1 + r) - (double)per) / (double)per);
    p->mamba = k > 0 ? (uint64_t)k : 0;
  }
  uint64_t state = acc_mul(&c->acc, p->mamba + 1, per);
  *rest = *rest > state ? *rest - state : 0;
}

/* max_total_num_tokens and the SWA pool's tokens: rest // cell, the max_total_tokens cap,
** whole pages; the SWA pool int(full x ratio) in whole pages. */
static void pool_tokens(ectx *c, sg_pool *p, uint64_t rest, uint64_t page) {
  uint64_t t = p->cell > 0 ? (uint64_t)floor((double)rest / p->cell) : 0;
  uint64_t cap = scn_u64(c->s, "runtime.max_total_tokens", 0);
  if (cap && cap < t) t = cap;
  p->tokens = t / page * page;
  if (!p->hybrid) return;
  bool full = p->k_full + p->v_full > 0;
  p->swa_tokens = full ? (uint64_t)floor((double)p->tokens * p->ratio) / page * page : p->tokens;
  if (!full) p->tokens = 0;
}

/* max_running_requests (resolve_max_num_reqs): given, or min(max(tokens / context x 512,
** 2048), 4096); at most tokens / 2; with a state pool at most its slots / 3 (one running
** slot and the radix cache's, no extra buffer: mamba_scheduler_strategy no_buffer), / 1
** with the radix cache off. */
static uint64_t max_reqs(ectx *c, const sg_pool *p, uint64_t ctx) {
  const scenario *s = c->s;
  uint64_t tokens = p->hybrid && !p->tokens ? p->swa_tokens : p->tokens;
  uint64_t reqs = scn_u64(s, "runtime.max_running_requests", 0);
  if (!reqs) {
    double r = floor((double)tokens / (double)ctx * 512);
    reqs = (uint64_t)(r < 2048 ? 2048 : r > 4096 ? 4096 : r);
  }
  if (reqs > tokens / 2) reqs = tokens / 2;
  if (p->conv_req + p->ssm_req) {
    uint64_t per_req = scn_bool(s, "runtime.disable_radix_cache", false) ? 1 : 3;
    if (reqs > p->mamba / per_req) reqs = p->mamba / per_req;
  }
  return reqs;
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
  /* the pools (scripts/runtimes/sglang.lua sets the scenario's kv_dtype from kv_cache_dtype) */
  sg_pool p = {0};
  pool_cells(c, &p);
  mamba_slots(c, &p, &pool);
  pool_tokens(c, &p, pool, g.page);
  uint64_t ctx = scn_u64(s, "runtime.context_length", s->context ? s->context : 1);
  uint64_t reqs = max_reqs(c, &p, ctx);
  uint64_t req_pool = acc_mul3(&c->acc, reqs + 1, ctx + 4, 4);
  /* what SGLang allocates: each pool its size plus one padding page */
  uint64_t full_rows = p.tokens + g.page, swa_rows = p.hybrid ? p.swa_tokens + g.page : 0;
  uint64_t k = acc_add(&c->acc, acc_mul(&c->acc, full_rows, p.k_full), acc_mul(&c->acc, swa_rows, p.k_swa));
  uint64_t v = acc_add(&c->acc, acc_mul(&c->acc, full_rows, p.v_full), acc_mul(&c->acc, swa_rows, p.v_swa));
  uint64_t kv = acc_add(&c->acc, k, v);
  uint64_t per_req = p.conv_req + p.ssm_req;
  uint64_t conv = per_req ? acc_mul(&c->acc, p.mamba + 1, p.conv_req) : 0;
  uint64_t ssm = per_req ? acc_mul(&c->acc, p.mamba + 1, p.ssm_req) : 0;
  uint64_t state = acc_add(&c->acc, conv, ssm);
  /* what the workload needs: its sequences' tokens at the pool's bytes per token, and the
  ** state slots for its requests (3 per request with the radix cache, and the padding slot) */
  uint64_t slots = scn_bool(s, "runtime.disable_radix_cache", false) ? 1 : 3;
  uint64_t need = acc_add(&c->acc, acc_from_double(&c->acc, (double)s->context * (double)s->concurrency * p.cell),
                          per_req ? acc_mul(&c->acc, acc_mul(&c->acc, slots, s->concurrency) + 1, per_req) : 0);
  uint64_t pools = acc_add(&c->acc, kv, state);
  budget_add(b, "weights", w, BASIS_EXACT, true, "per rank (tp %llu, pp %llu)", (unsigned long long)s->tp,
             (unsigned long long)s->pp);
  if (per_req)
    budget_add(b, "kv_cache", need > pools ? need : pools, BASIS_MODELLED, true,
               "token pool %llu tokens x %.0f B + Mamba state %llu slots x %llu B (mem_fraction_static %.3f "
               "of %.2f GiB free)", (unsigned long long)p.tokens, p.cell, (unsigned long long)p.mamba + 1,
               (unsigned long long)per_req, g.fraction, (double)free0 / GIB);
  else if (p.hybrid)
    budget_add(b, "kv_cache", need > pools ? need : pools, BASIS_MODELLED, true,
               "full pool %llu tokens x %llu B + SWA pool %llu tokens x %llu B (mem_fraction_static %.3f of "
               "%.2f GiB free)", (unsigned long long)p.tokens, (unsigned long long)(p.k_full + p.v_full),
               (unsigned long long)p.swa_tokens, (unsigned long long)(p.k_swa + p.v_swa), g.fraction,
               (double)free0 / GIB);
  else
    budget_add(b, "kv_cache", need > pools ? need : pools, BASIS_MODELLED, true,
               "token pool: %llu tokens x %.0f B (mem_fraction_static %.3f of %.2f GiB free)",
               (unsigned long long)p.tokens, p.cell, g.fraction, (double)free0 / GIB);
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
  /* "KV Cache is allocated. #tokens: N, K size, V size" (per sub-pool for hybrid SWA) and
  ** "Mamba Cache is allocated. max_mamba_cache_size: K, conv_state size, ssm_state size" */
  uint64_t tokens = p.hybrid && !p.tokens ? p.swa_tokens : p.tokens;
  est_fig(c, "kv_cache_bytes", kv);
  est_fig(c, "k_size_bytes", k);
  est_fig(c, "v_size_bytes", v);
  est_fig(c, "kv_cache_tokens", tokens);
  if (p.hybrid) est_fig(c, "swa_kv_cache_tokens", p.swa_tokens);
  if (per_req) {
    est_fig(c, "max_mamba_cache_size", p.mamba);
    est_fig(c, "mamba_conv_state_bytes", conv);
    est_fig(c, "mamba_ssm_state_bytes", ssm);
    est_fig(c, "mamba_state_bytes_per_request", per_req);
  }
  est_fig(c, "max_running_requests", reqs);
  est_fig_real(c, "mem_fraction_static", g.fraction);
  est_fig(c, "chunked_prefill_size", g.chunk);
  est_fig(c, "cuda_graph_max_bs", g.graph_bs);
  double conc = (double)tokens / (double)(s->context ? s->context : 1);
  est_fig_real(c, "max_concurrency", conc < (double)reqs ? conc : (double)reqs);
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
