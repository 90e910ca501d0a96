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
** in the share the fraction leaves. Speculative decoding (runtime.speculative, see
** sg_spec below) adds the draft's weights and its own token pool. Uses estimate_int.h.
*/
#include <math.h>
#include <stdio.h>
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

/* The defaults server_args.py picks by GPU memory (MiB, nvidia-smi's total there, the torch
** total here) when not given: chunked prefill size and the largest CUDA-graph batch. By
** release (scripts/runtimes/sglang.lua sglang.release: 0.4.9.post3 is 400903), read in
** sgl-project/sglang at the version-bump commits:
** - before 0.4.5.post3 (server_args.py __post_init__, checked at 0.4.3 e0b9a423c and 0.4.5
**   57f99608f): chunk 2048 below 25,000 MiB, else 8192; graphs to 8 (tp < 4) or 80 below
**   25,000 MiB, else 160;
** - 0.4.5.post3 to 0.4.7: server_args leaves the batch unset above 25,000 MiB (PR #5604,
**   e69a21907, first in 0.4.5.post3 b9c87e781) and cuda_graph_runner.py
**   get_batch_sizes_to_capture captures [1, 2, 4, 8, 16 .. 160 by 8], plus 160 .. 256 above
**   81,920 MiB (0.4.5.post3; dp 1 from 0.4.6 84022c0e5), above 96 GiB from 0.4.6.post2
**   (PR #5893); 0.4.7 (4f723edd3) adds 256 .. 512 above 180,000 MiB and chunk 16384 there;
** - 0.4.7.post1 to 0.5.2 (PR #7054 server_args.py, PR #7053 cuda_graph_runner.py): chunk
**   2048 below 35 GiB, 8192 below 160 GiB, else 16384; graphs to 8 / 80 below 35 GiB, else
**   160, 256 above 90 GiB, 512 above 160,000 MiB;
** - 0.5.3 and later: the GPU-size table below (_handle_gpu_memory_settings, PRs #10372 and
**   #10975, merged 2025-09-27 / 29 between 0.5.3rc0 and 0.5.3; as at 0.5.6 7ae368efd). */
typedef struct sg_cfg {
  double gpu_mib;
  uint64_t chunk, graph_bs, page;
  double fraction, reserved_mib; /* reserved_mib 0 when the fraction was given or flat */
  double vlm;           /* the multimodal factor (adjust_mem_fraction_for_vlm and before), 0 when not applied */
  double piecewise_mib; /* the piecewise CUDA graph reserve */
  bool aiter;           /* the aiter backend's x 0.85 applied (aiter_derate) */
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
  uint64_t rel = scn_u64(s, "sglang.release", 99999999), chunk, bs;
  double m = g->gpu_mib;
  uint64_t small = s->tp < 4 ? 8 : 80;
  if (rel < 400701) {
    chunk = m < 25000 ? 2048 : 8192;
    bs = m < 25000 ? small : 160;
    if (rel >= 400503 && m >= 25000) {
      if (rel < 400602 ? m > 81920 : m > 96 * 1024) bs = 256;
      if (rel >= 400700 && m > 180000) chunk = 16384, bs = 512;
    }
  } else if (rel < 500300) {
    chunk = m < 35 * 1024 ? 2048 : m < 160 * 1024 ? 8192 : 16384;
    bs = m < 35 * 1024 ? small : m > 160000 ? 512 : m > 90 * 1024 ? 256 : 160;
  } else {
    size_t i = 0;
    while (m >= tier[i].below_gib * 1024) i++;
    chunk = tier[i].chunk;
    bs = s->tp < 4 ? tier[i].bs_small_tp : tier[i].bs_large_tp;
  }
  g->chunk = scn_u64(s, "runtime.chunked_prefill_size", chunk);
  g->graph_bs = scn_u64(s, "runtime.cuda_graph_max_bs", bs);
}

/* The pools SGLang sizes from rest, and what it prints about them. */
typedef struct sg_pool {
  bool hybrid;          /* hybrid SWA pool */
  uint64_t k_full, v_full, k_swa, v_swa; /* bytes of K / V per token over the layers of each pool */
  uint64_t full_layers; /* the full pool's attention layers, not split by pp (spec_cell) */
  double ratio;         /* swa_full_tokens_ratio */
  double cell;          /* bytes per token of max_total_num_tokens */
  uint64_t conv_req, ssm_req; /* Mamba state bytes per request slot on this rank */
  uint64_t mamba;       /* max_mamba_cache_size (state slots, the padding slot not counted) */
  uint64_t tokens, swa_tokens;
  uint64_t window;      /* the SWA layers' window (their largest; SGLang has one sliding_window_size) */
} sg_pool;

/* Attention's tensor-parallel size. With --enable-dp-attention --dp-size D SGLang splits the tp
** ranks into D attention groups of tp / D ranks (layers/dp_attention.py
** compute_dp_attention_world_info: attn_tp_size = tp_size // attn_dp_size), and sizes its pools
** by that group: the token pool holds model_config.get_num_kv_heads(get_attention_tp_size())
** heads (model_runner.py / model_runner_kv_cache_mixin.py, MHATokenToKVPool head_num), the
** Mamba state its get_attention_tp_size() share (configs/qwen3_next.py mamba2_cache_params:
** Mamba2StateShape.create(tp_world_size=get_attention_tp_size(), ...)). An MLA latent is not
** split by heads either way. scripts/runtimes/sglang.lua checks that D divides tp. Hold-out
** round 25: sgl-project/sglang PR #10622, Qwen3-Next-80B-A3B-Instruct-FP8 at tp 4, dp 4:
** "#tokens: 2786325, K size: 31.89 GB" = 12 layers x 2 heads x 256 x 2 B a token (tp 4's one
** head: 15.94). The attention layers' weights follow the same group (sg_dp_attn_weight_bytes). */
uint64_t est_sglang_attn_tp(const scenario *s, uint64_t tp) {
  /* a tp that dp_size does not divide (fit's other GPU counts) runs without DP attention */
  uint64_t dp = scn_u64(s, "runtime.dp_size", 1);
  if (!scn_bool(s, "runtime.enable_dp_attention", false) || dp < 2 || tp % dp) return tp;
  return tp / dp;
}
static uint64_t sg_attn_tp(const scenario *s) {
  return est_sglang_attn_tp(s, s->tp);
}

/* K (k) and V (v) bytes of one token in a group's layers on this rank (attention tp, pp split). */
static void group_kv(ectx *c, const kv_group *g, uint64_t *k, uint64_t *v) {
  uint64_t per =
      acc_mul(&c->acc, est_kv_heads_rank(g->kv_heads, sg_attn_tp(c->s)), bytes_ceildiv(g->layers, c->s->pp));
  /* DeepSeek-V3.2's indexer keys (description bytes 132): NSATokenToKVPool's
  ** index_k_with_scale_buffer, uint8 whatever --kv-cache-dtype, and the cell size adds
  ** index_head_dim + index_head_dim // 128 x 4 a layer (model_runner.py profile_max_num_token,
  ** "Add indexer KV cache overhead for NSA models"). The MLA latent keeps k_dim x the KV
  ** dtype in the cell size, fp8 too (the pool's 656-byte fp8 rows are not in it). */
  if (g->bytes) {
    *k = acc_add(&c->acc, *k, acc_mul(&c->acc, g->bytes, bytes_ceildiv(g->layers, c->s->pp)));
    return;
  }
  *k = acc_add(&c->acc, *k, est_elems_bytes(c, acc_mul(&c->acc, per, g->k_dim), c->s->kv_dtype));
  *v = acc_add(&c->acc, *v, est_elems_bytes(c, acc_mul(&c->acc, per, g->v_dim), c->s->kv_dtype));
}

/* Speculative decoding (scripts/runtimes/sglang.lua, scripts/speculative.lua: the draft's
** tensors tagged component "draft", its attention layers as spec.kv<i>.*). What SGLang does,
** by era (version bounds approximate, from PR merge dates):
** - the draft is a second ModelRunner that shares the target's req_to_token_pool and
**   token allocator and allocates its own token_to_kv_pool of the same max_total_num_tokens
**   (+ the padding page) over its own layers (mem_cache/kv_cache_configurator.py _init_pools,
**   main at 003fca80); NGRAM has no draft runner;
** - before 0.5.11: the target profiles its pool alone, then adds headroom for draft and
**   verify tokens, max_total_num_tokens += reqs x (steps x topk + num_draft_tokens) + 100
**   (model_runner.py init_memory_pool, draft_runner_cache_size), and the draft's weights,
**   pool and graphs come out of what mem_fraction_static leaves, for which the 0.5.3 rule
**   reserves 2 GiB more (EAGLE, EAGLE3, NEXTN) or 6 GiB (STANDALONE) after its 10 GiB floor
**   (server_args.py _handle_gpu_memory_settings);
** - from PR #23862 (0.5.11 here): no flat reserve; the target's bytes per token grow by the
**   draft's layers, cell = int(cell x (1 + draft layers / target layers))
**   (model_executor/pool_configurator.py DefaultPoolConfigurator; HybridSWAPoolConfigurator
**   adds full-layer bytes x draft layers), main at 003fca80;
** - from PR #28855 (0.5.14 here): the draft's weights are loaded before the target's pool is
**   profiled and count against the fraction, with the draft model's own embedding (and head
**   for EAGLE / NextN) still resident: they are swapped for the target's after the pool is
**   sized (EagleDraftWorker.alloc_memory_pool -> init_lm_head; sglang issue #36452).
** max_running_requests is reset to 48 (server_args.py _handle_speculative_decoding), the
** request table is context + 4 + num_draft_tokens wide (mem_cache/allocation_sizing.py
** get_req_to_token_extra_context_len) and CUDA graphs are captured up to the request table's
** size (cuda_graph_runner.py). No calibration case measures any of it. */
typedef struct sg_spec {
  bool on, drafts;      /* drafts: a draft model runs (not ngram) */
  const char *method;
  int era;              /* 0: before 0.5.11, 1: cell scaled, 2: draft weights counted too */
  uint64_t steps, topk, ndraft, layers; /* layers: the draft's attention layers */
  uint64_t k_tok, v_tok; /* the draft pool's K / V bytes per token on this rank */
  uint64_t weights, copies; /* draft tensors; duplicate embedding / head at profile time */
} sg_spec;

static void spec_read(ectx *c, sg_spec *sp) {
  const scenario *s = c->s;
  memset(sp, 0, sizeof *sp);
  sp->method = scn_str(s, "spec.method", "");
  if (!sp->method[0]) return;
  sp->on = true;
  sp->drafts = strcmp(sp->method, "ngram") != 0;
  uint64_t v = scn_u64(s, "sglang.version", 999999);
  sp->era = v >= 5014 ? 2 : v >= 5011 ? 1 : 0;
  sp->steps = scn_u64(s, "spec.tokens", 1);
  sp->topk = scn_u64(s, "spec.topk", 1);
  sp->ndraft = scn_u64(s, "spec.draft_tokens", sp->steps + 1);
  uint64_t n = sp->drafts ? scn_u64(s, "spec.kv_groups", 0) : 0;
  for (uint64_t i = 1; i <= n && i <= 2; i++) {
    kv_group g;
    if (!est_spec_kv_group(s, i, &g)) continue;
    g.window = 0; /* the draft pool has a row per token of the target's pool, window or not */
    sp->layers += g.layers;
    group_kv(c, &g, &sp->k_tok, &sp->v_tok);
  }
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *t = &c->m->inv.t[i];
    uint64_t b = 0;
    if (!est_is_draft(t)) continue;
    if (!inv_tensor_bytes(t, &b)) c->acc.overflow = true;
    if (s->tp > 1 && est_tp_sharded(t->role)) b = bytes_ceildiv(b, s->tp);
    sp->weights = acc_add(&c->acc, sp->weights, b);
  }
  /* the draft model's embedding / lm_head copies (VocabParallelEmbedding, unquantized, in the
  ** model dtype, vocabulary padded to 64 and split by tp) */
  uint64_t rows = scn_u64(s, "spec.copy_rows", 0), copies = scn_u64(s, "spec.copy_count", 0);
  uint64_t per = acc_mul(&c->acc, bytes_ceildiv((rows + 63) / 64 * 64, s->tp), scn_u64(s, "spec.copy_hidden", 0));
  if (sp->era == 2) sp->copies = est_elems_bytes(c, acc_mul(&c->acc, per, copies), s->dtype);
}

/* a CUDA GPU: not AMD Instinct (ROCm / HIP) nor Intel Gaudi (HPU) */
static bool sg_on_cuda(const scenario *s) {
  return strncmp(s->gpu_arch, "cdna", 4) != 0 && strncmp(s->gpu_arch, "gaudi", 5) != 0;
}

/* SGLang's default mem_fraction_static before 0.5.3 (server_args.py __post_init__, by
** release, sglang.release; gpu is nvidia-smi's total there, the torch total here), read in
** sgl-project/sglang at the version-bump commits; *reserved_mib: what the formula keeps out
** (gpu x (1 - fraction)), 0 for a flat fraction:
** - before 0.4.5.post3: by tp alone (tp_fraction);
** - 0.4.5.post3 to 0.4.6.post1 (PR #5604, e69a21907; first in 0.4.5.post3 b9c87e781, as at
**   0.4.6.post1 dcae1fb2c): tp_fraction up to 81,920 MiB, above it (gpu - 13 GiB) / gpu;
** - 0.4.6.post2 to 0.4.7 (PR #5893 e4b6133b7, first in 0.4.6.post2 9858113c3; PR #5724
**   11383cec3 makes the table's size tp x pp): tp_fraction(tp x pp) up to 81,920 MiB, else
**   0.88; above 96 GiB min(f + 48 GiB x (1 - f) / gpu, (gpu - 18 GiB) / gpu); 0.4.7 (PR
**   #6718 f2bd3515f, first in 0.4.7 4f723edd3): 0.79 above 180,000 MiB on CUDA (is_cuda():
**   not on ROCm, where the formula stays). Speculative decoding's 20 GiB / x 0.95 (PR #6726)
**   does not arise: it is modelled from 0.5.3 only;
** - 0.4.7.post1 to 0.5.2 (PR #7054 6b12d6a8d, first in 0.4.7.post1 f9dc9dd28, as at 0.5.2
**   b0d25e72c): reserved (2.8 + tp x pp / 10) GiB below 35 GiB, (9.5 + tp x pp / 2) GiB
**   below 90 GiB, (12 + tp x pp / 2) GiB below 160 GiB, else 32 GiB; fraction = (gpu -
**   reserved) / gpu rounded to 3 decimals (dp attention's + 4 GiB not modelled). */
static double fraction_before_053(const scenario *s, double gpu_mib, double *reserved_mib) {
  uint64_t rel = scn_u64(s, "sglang.release", 99999999), ps = s->tp * s->pp;
  double f, r;
  *reserved_mib = 0;
  if (rel < 400503) return tp_fraction(s->tp);
  if (rel < 400602) {
    if (gpu_mib <= 81920) return tp_fraction(s->tp);
    *reserved_mib = 13 * 1024;
    return (gpu_mib - 13 * 1024) / gpu_mib;
  }
  if (rel < 400701) {
    f = gpu_mib <= 81920 ? tp_fraction(ps) : 0.88;
    bool cuda = sg_on_cuda(s);
    if (rel >= 400700 && gpu_mib > 180000 && cuda) return 0.79;
    if (gpu_mib > 96 * 1024) {
      double a = f + 48 * 1024 * (1 - f) / gpu_mib, b = (gpu_mib - 18 * 1024) / gpu_mib;
      f = a < b ? a : b;
      *reserved_mib = gpu_mib * (1 - f);
    }
    return f;
  }
  r = gpu_mib < 35 * 1024 ? (2.8 + (double)ps / 10) * 1024
    : gpu_mib < 90 * 1024 ? (9.5 + (double)ps / 2) * 1024
    : gpu_mib < 160 * 1024 ? (12 + (double)ps / 2) * 1024 : 32 * 1024;
  *reserved_mib = r;
  return round((gpu_mib - r) / gpu_mib * 1000) / 1000;
}

/* AMD's aiter attention backend takes 15% off mem_fraction_static, given or default, when the
** context is longer than 8192 tokens: `if attention_backend == "aiter": if context_len > 8192:
** mem_fraction_static *= 0.85` (sgl-project/sglang PR #6564 "Fix GPU OOM", merged 2025-05-24, in
** model_runner.py; server_args.py since the backend selection moved there, PR #12136; PRs #18263
** and #25199 proposing its removal were not merged). The backend is runtime.attention_backend
** when given (scripts/runtimes/sglang.lua), else SGLang's default: on a ROCm (CDNA) GPU "aiter" for
** an MHA model (model_runner.py `elif _is_hip: server_args.attention_backend = "aiter"`, later
** server_args.py _get_default_attn_backend, quoted in PR #31259), from 0.5.0 here (copies of that
** model_runner.py in the code index: ids 562710086, 51824532752; the first release with it is not
** pinned); an MLA model's HIP default is aiter when its heads per rank are 16 or 128
** (DeepSeek-V3/R1 at tp 8 or 1; PR #11161), another backend otherwise.
** Hold-out: SGLang 0.5.17 on an MI355X, Qwen3-Reranker-0.6B (context 40960),
** --mem-fraction-static 0.5: 1,131,687 tokens, K 60.44 GB = (286.05 - 287.26 x (1 - 0.425)) GiB;
** at 0.5 it would be 1,333,000; its EmbeddingGemma-300m run (context
** 2048) keeps 0.5. */
static bool aiter_derate(const scenario *s, const model_desc *m, uint64_t ctx) {
  if (ctx <= 8192) return false;
  const char *be = scn_str(s, "runtime.attention_backend", "");
  if (be[0]) return strcmp(be, "aiter") == 0;
  uint64_t per_rank = m->heads / (s->tp ? s->tp : 1);
  bool mla_aiter = per_rank == 16 || per_rank == 128;
  return strncmp(s->gpu_arch, "cdna", 4) == 0 && (!est_model_mla(m) || mla_aiter) &&
         scn_u64(s, "sglang.version", 999999) >= 5000;
}

/* mem_fraction_static: given, or SGLang's default for the version. The reserved-memory
** rule of 0.5.3 and later (MiB): 512 of attention-backend metadata, 1.5 per prefill-chunk token (at least
** 2048) for activations, 2 per CUDA-graph batch slot, 1024 per 8 ranks (tp x pp), at
** least 10 GiB on GPUs above 60 GiB; fraction = (gpu - reserved) / gpu rounded to 3
** decimals. gpu is nvidia-smi's total, about 0.6% above the torch total used here (H100:
** 81559 vs 81090 MiB, scripts/gpus.lua): the fraction moves by under 0.001. A multimodal
** model's factor (scripts/runtimes/sglang.lua vlm_factor: 0.95 from 0.3.5, 0.90 from
** 0.4.4.post4, adjust_mem_fraction_for_vlm from 0.4.9.post3) scales the default after
** rounding; before 0.4.9 model_runner.py applies it, to a given fraction too (sglang.lua
** sets the factor only where it applies). From PR #15927 ("Piecewise Cuda Graph Memory Usage",
** merged 2026-01-10, 0.5.7 here) the rule also keeps 8 MiB per captured piecewise token size out,
** before the 10 GiB floor (server_args.py _handle_gpu_memory_settings: `if
** self.enable_piecewise_cuda_graph: reserved_mem += len(self.piecewise_cuda_graph_tokens) * 8`,
** for the graphs' non-torch memory); n_pw is that count (piecewise_sizes), 0 when they are off.
** Hold-out round 8: Qwen3-30B-A3B-FP8 on an H100 (chunk 8192, 58 sizes) printed 0.83, not 0.835. */
#define SG_PIECEWISE_PER_SIZE 500700 /* PR #15927's release here (0.5.7): sizes and their 8 MiB */

static void fraction(const scenario *s, const sg_spec *sp, uint64_t n_pw, sg_cfg *g) {
  g->fraction = scn_real(s, "runtime.mem_fraction_static", 0);
  g->reserved_mib = 0;
  double vlm = scn_real(s, "sglang.vlm_factor", 0);
  g->vlm = vlm > 0 ? vlm : 0;
  double k = g->vlm > 0 ? g->vlm : 1;
  if (g->fraction > 0) {
    g->fraction *= k;
    return;
  }
  if (scn_u64(s, "sglang.version", 999999) < 5003) {
    g->fraction = fraction_before_053(s, g->gpu_mib, &g->reserved_mib) * k;
    return;
  }
  double r = 512 + 1.5 * (double)(g->chunk > 2048 ? g->chunk : 2048) + 2.0 * (double)g->graph_bs +
             (double)(s->tp * s->pp) / 8.0 * 1024;
  if (scn_u64(s, "sglang.release", 99999999) >= SG_PIECEWISE_PER_SIZE) r += 8.0 * (double)n_pw;
  if (g->gpu_mib > 60 * 1024 && r < 10 * 1024) r = 10 * 1024;
  /* speculative decoding before 0.5.11 (sg_spec): the draft's weights, pool and graphs */
  if (sp->on && sp->era == 0)
    r += strcmp(sp->method, "draft_model") == 0 ? 6 * 1024 : sp->drafts ? 2 * 1024 : 0;
  /* --enable-piecewise-cuda-graph, 0.5.5.post1 to 0.5.6 (sglang.lua piecewise) */
  g->piecewise_mib = scn_real(s, "sglang.piecewise_reserve_mib", 0);
  r += g->piecewise_mib;
  g->reserved_mib = r;
  g->fraction = round((g->gpu_mib - r) / g->gpu_mib * 1000) / 1000 * k;
}

/* A recurrent-state group's bytes per request slot (configs/mamba_utils.py
** mamba_cache_per_req): the conv window in bf16 (SGLANG_MAMBA_CONV_DTYPE default) and the
** SSM state in mamba_ssm_dtype, both split by the attention tp (sg_attn_tp). Without
** conv_elems the whole state is counted in the SSM dtype. */
static void group_state(ectx *c, const kv_group *g, sg_pool *p) {
  uint64_t layers = bytes_ceildiv(g->layers, c->s->pp), tp = sg_attn_tp(c->s);
  uint64_t ssm_b = scn_u64(c->s, "sglang.ssm_bytes", 4);
  uint64_t conv = acc_mul3(&c->acc, bytes_ceildiv(g->conv_elems, tp), layers, 2);
  uint64_t ssm = acc_mul3(&c->acc, bytes_ceildiv(g->state_elems - g->conv_elems, tp), layers, ssm_b);
  p->conv_req = acc_add(&c->acc, p->conv_req, conv);
  p->ssm_req = acc_add(&c->acc, p->ssm_req, ssm);
}

/* The KV-shared layers of Gemma 4 E2B / E4B (num_kv_shared_layers: the last layers read an earlier
** layer's K / V and compute none) still get their buffers in SGLang's hybrid SWA pool: SWAKVPool
** is built over model_config's swa_attention_layer_ids / full_attention_layer_ids, which
** get_hybrid_layer_ids enumerates over every one of num_hidden_layers by layer_types
** (configs/model_config.py), so a token holds K / V in all of them. scripts/runtimes/sglang.lua
** counts the shared layers of each kind (sglang.kv_shared_full / _swa); each costs what a layer of
** the model's own group of that kind does. Hold-out round 25: google/gemma-4-E4B-it on a GB10
** (SGLang dev of 2026-09), "SWAKVPool mem usage: 79.94 GB, swa size: 798276, full size: 997846" =
** 997,846 x 7 x 4,096 B + 798,276 x 35 x 2,048 B: all 42 layers, where the 24 that own their K / V
** give 45.68 GiB. With disable_hybrid_swa_memory the one MHATokenToKVPool is built with
** layer_num = num_effective_layers (end_layer - start_layer, every one of num_hidden_layers:
** model_executor/model_runner.py), so the shared layers of both kinds take a full-length slot
** there too (mend25). */
static void pool_shared_layers(ectx *c, sg_pool *p) {
  uint64_t nf = scn_u64(c->s, "sglang.kv_shared_full", 0), ns = scn_u64(c->s, "sglang.kv_shared_swa", 0);
  bool done_f = nf == 0, done_s = ns == 0;
  for (int i = 0; i < c->m->n_kv && !(done_f && done_s); i++) {
    kv_group g = c->m->kv[i];
    if (g.kind == KV_STATE || g.kind == KV_CROSS || g.layers == 0) continue;
    bool swa = g.window != 0;
    if (swa ? done_s : done_f) continue;
    g.layers = swa ? ns : nf;
    if (swa && p->hybrid)
      group_kv(c, &g, &p->k_swa, &p->v_swa), done_s = true;
    else /* disable_hybrid_swa_memory: the sliding ones too, at full length in the one pool */
      group_kv(c, &g, &p->k_full, &p->v_full), p->full_layers += g.layers, *(swa ? &done_s : &done_f) = true;
  }
}

/* Bytes per token of each pool, and of max_total_num_tokens: the full layers plus ratio x
** the SWA layers (all-SWA models: the SWA layers alone). Cross-attention layers are pooled like
** the full ones: SGLang's token pool has a K / V buffer for every one of the text model's
** num_hidden_layers, and Llama 3.2 Vision's cross-attention layers are RadixAttention(layer_id,
** is_cross_attention=True) over the same token slots, the image tokens placed in them
** (pad_input_ids prepends num_image_tokens pads to the request): models/mllama.py
** MllamaTextCrossAttention, MllamaTextModel (sgl-project/sglang@013902a8). Hold-out round 21:
** the docs' CI run of Llama-3.2-11B-Vision-Instruct (2025-03-28) printed "#tokens: 20480, K
** size: 1.56 GB" = 40 layers x 8 x 128 x 2 B x 20480; the self-attention layers alone gave 1.25. */
static void pool_cells(ectx *c, sg_pool *p) {
  const scenario *s = c->s;
  p->hybrid = scn_bool(s, "sglang.hybrid_swa", false);
  p->ratio = scn_real(s, "runtime.swa_full_tokens_ratio", 0.8); /* server_args.py default */
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *g = &c->m->kv[i];
    if (g->kind == KV_STATE) group_state(c, g, p);
    else if (p->hybrid && g->window && g->kind != KV_CROSS) {
      group_kv(c, g, &p->k_swa, &p->v_swa);
      if (g->window > p->window) p->window = g->window;
    } else {
      group_kv(c, g, &p->k_full, &p->v_full);
      p->full_layers += g->layers;
    }
  }
  pool_shared_layers(c, p);
  double full = (double)(p->k_full + p->v_full), swa = (double)(p->k_swa + p->v_swa);
  p->cell = !p->hybrid ? full : full > 0 ? full + p->ratio * swa : swa;
}

/* The state pool's slots (_handle_max_mamba_cache): max_mamba_cache_size when given; with
** the radix cache off, max_running_requests; else the slots the budget
** mamba_full_memory_ratio / (1 + ratio) x rest holds. MambaPool allocates one padding slot beyond
** them (size + 1: the "Mamba Cache is allocated" sizes). Versions differ in who pays for it:
** - before SG_MAMBA_PAD_CHARGED, int(budget // per_req) slots, and rest loses those slots alone
**   (v0.5.9's model_runner_kv_cache_mixin.py handle_max_mamba_cache as a public backport copies it,
**   `mamba_state_memory = max_mamba_cache_size * mamba_cache_per_req`): the padding slot comes out
**   of the share the fraction leaves. sgl-project/sglang PR #18040's granite-4.0-h-micro run (main
**   of 2026-01-31) prints 38 slots and "ssm_state size: 2.74GB" = 39 x 72 MiB, where the newer
**   arithmetic gives 37 (test_holdout19_sglang.c);
** - from it (main at 59ef3b15, mem_cache/kv_cache_configurator.py _handle_max_mamba_cache as a
**   public code walkthrough quotes it: `int((mamba_budget_bytes - per_req) // per_req)` and
**   `(max_mamba_cache_size + 1) * mamba_cache_per_req`, "+1: the pool's padding slot"), one slot
**   less and rest loses the padding slot too. The token pool is the same either way for the
**   computed size; a given size (or max_running_requests) leaves one slot's bytes more to it
**   before.
** None left: SGLang refuses to start; here the token pool is empty and the fit check reports the
** shortfall. Releases before MambaRadixCache turned the radix cache off for hybrid GDN models and
** took max_running_requests or 512 slots (not modelled by release). */
#define SG_MAMBA_PAD_CHARGED 501000 /* inferred: the first release after v0.5.9 (the change not located) */
static void mamba_slots(ectx *c, sg_pool *p, uint64_t *rest) {
  const scenario *s = c->s;
  uint64_t per = p->conv_req + p->ssm_req;
  if (!per) return;
  bool pad = scn_u64(s, "sglang.release", 99999999) >= SG_MAMBA_PAD_CHARGED;
  p->mamba = scn_u64(s, "runtime.max_mamba_cache_size", 0);
  uint64_t reqs = scn_u64(s, "runtime.max_running_requests", 0);
  if (!p->mamba && scn_bool(s, "runtime.disable_radix_cache", false) && reqs) p->mamba = reqs;
  if (!p->mamba) {
    double r = scn_real(s, "runtime.mamba_full_memory_ratio", 0.9); /* server_args.py default */
    double k = floor(((double)*rest * r / (1 + r) - (pad ? (double)per : 0)) / (double)per);
    p->mamba = k > 0 ? (uint64_t)k : 0;
  }
  uint64_t state = acc_mul(&c->acc, pad ? p->mamba + 1 : p->mamba, per);
  *rest = *rest > state ? *rest - state : 0;
}

/* From 0.5.11 the target's bytes per token count the draft's layers (sg_spec): the one
** pool's cell x (1 + draft layers / target layers) truncated, the hybrid SWA pool's full-layer
** bytes per layer x draft layers more. */
static void spec_cell(const sg_spec *sp, sg_pool *p) {
  if (!sp->drafts || sp->era == 0 || !sp->layers || !p->full_layers) return;
  if (p->hybrid)
    p->cell += (double)(p->k_full + p->v_full) / (double)p->full_layers * (double)sp->layers;
  else
    p->cell = floor(p->cell * (1.0 + (double)sp->layers / (double)p->full_layers));
}

/* max_total_num_tokens and the SWA pool's tokens: rest // cell (+ extra: the speculative
** headroom before 0.5.11), the max_total_tokens cap, whole pages; the SWA pool
** int(full x ratio) in whole pages. */
static void pool_tokens(ectx *c, sg_pool *p, uint64_t rest, uint64_t page, uint64_t extra) {
  uint64_t t = p->cell > 0 ? (uint64_t)floor((double)rest / p->cell) : 0;
  if (t) t = acc_add(&c->acc, t, extra);
  uint64_t cap = scn_u64(c->s, "runtime.max_total_tokens", 0);
  if (cap && cap < t) t = cap;
  p->tokens = t / page * page;
  if (!p->hybrid) return;
  bool full = p->k_full + p->v_full > 0;
  p->swa_tokens = full ? (uint64_t)floor((double)p->tokens * p->ratio) / page * page : p->tokens;
  if (!full) p->tokens = 0;
}

/* What the workload needs of each hybrid-SWA pool, in tokens. The full pool keeps every token of
** every request: context x concurrency (all-SWA models: none). The SWA pool keeps, a request,
** only what SGLang has not yet freed behind the window (sgl-project/sglang
** python/sglang/srt/managers/schedule_batch.py ScheduleBatch.maybe_evict_swa / _evict_swa and
** mem_cache/common.py, the out-of-window free, as on main in 2026): a request's SWA slots below
** pre_len - sliding_window_size - page_size are freed (the page margin: PR #22469), in decode
** only every sliding_window_size x SGLANG_SWA_EVICTION_INTERVAL_MULTIPLIER (default 1.0) steps
** (decode_batch_idx % interval == 1; PR #17220 moved the decode eviction there, PR #22645 added
** the knob: "between evictions, each request holds up to 2 * sliding_window_size SWA tokens"),
** so a decoding request holds up to 2 x window + page; in chunked prefill the overlap scheduler
** allocates chunk N + 1 while chunk N still runs (maybe_evict_swa subtracts
** chunked_prefill_size from pre_len under enable_overlap; schedule_policy.py
** _swa_budget_for_req: chunk N + window + chunk N + 1), so the one request mid-prefill holds up
** to window + page + 2 x chunk. Each capped by the context. Need = concurrency x decode hold +
** the prefilling request's excess over it (one chunked request at a time: Scheduler.chunked_req).
** Releases before PR #17220 (merged 2026-01-16) with the radix cache on kept a request's decoded
** tokens in the SWA pool until it finished: not modelled by release (Gemma 4 postdates it). */
static void swa_hold(ectx *c, const sg_pool *p, uint64_t chunk, uint64_t page, uint64_t *dec, uint64_t *excess) {
  uint64_t ctx = c->s->context, w = p->window;
  uint64_t d = acc_add(&c->acc, acc_mul(&c->acc, w, 2), page);
  uint64_t pre = acc_add(&c->acc, acc_add(&c->acc, w, page), acc_mul(&c->acc, chunk, 2));
  if (d > ctx) d = ctx;
  if (pre > ctx) pre = ctx;
  *dec = d;
  *excess = pre > d ? pre - d : 0;
}

static void swa_need(ectx *c, const sg_pool *p, uint64_t chunk, uint64_t page, uint64_t *full_t, uint64_t *swa_t) {
  const scenario *s = c->s;
  uint64_t n = s->concurrency, dec, excess;
  *full_t = p->k_full + p->v_full > 0 ? acc_mul(&c->acc, s->context, n) : 0;
  swa_hold(c, p, chunk, page, &dec, &excess);
  *swa_t = acc_add(&c->acc, acc_mul(&c->acc, dec, n), n ? excess : 0);
}

/* max_running_requests (resolve_max_num_reqs): given, or min(max(tokens / context x 512,
** 2048), 4096); at most tokens / 2; with a state pool at most its slots / 3 (one running
** slot and the radix cache's, no extra buffer: mamba_scheduler_strategy no_buffer), / 1
** with the radix cache off. */
static uint64_t max_reqs(ectx *c, const sg_pool *p, uint64_t ctx) {
  const scenario *s = c->s;
  uint64_t tokens = p->hybrid && !p->tokens ? p->swa_tokens : p->tokens;
  uint64_t reqs = scn_u64(s, "runtime.max_running_requests", scn_u64(s, "sglang.spec_max_reqs", 0));
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

/* The max_running_requests SGLang prints: TpModelWorker's min(tokens // 2 or the given value,
** req_to_token_pool.size). Before 0.4.7 the pool held max_num_reqs + 1 rows (model_runner.py
** init_memory_pool: ReqToTokenPool(size=max_num_reqs + 1), row 0 the padding slot), so the
** default printed one more than max_num_reqs wherever tokens // 2 allowed it: 2049 in 0.4.2
** (jerryzsj/my-deepseek-r1), 0.4.3.post4 (didier-durand/llms-in-clouds docs/sglang.md) and
** 0.4.6.post2 (a public SGLang notes file of 2025-05-02, Qwen3-0.6B under WSL2); 2048 from
** 0.4.9.post2 (a Docker Desktop README of 2025-07-14), where the pool is max_num_reqs rows and
** the worker takes its size. The first release without the extra row (0.4.7 to 0.4.9.post2) is
** not located: gated at 0.4.7, after the last release seen printing it (inferred). */
static uint64_t printed_reqs(ectx *c, const sg_pool *p, uint64_t reqs) {
  const scenario *s = c->s;
  uint64_t tokens = p->hybrid && !p->tokens ? p->swa_tokens : p->tokens;
  bool given = scn_u64(s, "runtime.max_running_requests", scn_u64(s, "sglang.spec_max_reqs", 0)) > 0;
  if (given || p->conv_req + p->ssm_req || scn_u64(s, "sglang.release", 99999999) >= 400700) return reqs;
  return reqs + 1 <= tokens / 2 ? reqs + 1 : reqs;
}

/* The request table's row width: context + 4, with speculative decoding + num_draft_tokens,
** and on pages of more than one token at least the double decode reserve + page - 1
** (allocation_sizing.py get_req_to_token_extra_context_len, get_alloc_len_per_decode). */
static uint64_t req_width(const sg_spec *sp, uint64_t ctx, uint64_t page) {
  if (!sp->on) return ctx + 4;
  uint64_t extra = 4 + sp->ndraft;
  uint64_t alloc = sp->steps * sp->topk > sp->ndraft ? sp->steps * sp->topk : sp->ndraft;
  if (page > 1 && 2 * alloc + page - 1 > extra) extra = 2 * alloc + page - 1;
  return ctx + extra;
}

/* One decoder layer's largest forward transient over `tokens` tokens in SGLang (a bytes per
** element). Dense models: est_forward_dense_bytes. MoE layers: SGLang's triton fused MoE
** (python/sglang/srt/layers/moe/fused_moe_triton/fused_moe.py fused_experts_impl) allocates
** one `cache` of M x topk x max(N, hidden) that intermediate_cache1 (the gate/up output, N =
** w13's rows on the rank, 2 x the expert width / tp) and intermediate_cache3 (the per-copy
** down outputs) share, and intermediate_cache2 (the activation, M x topk x N / 2); M is the
** tokens up to its CHUNK_SIZE of 64 x 1024. Beside them the router logits (tokens x experts,
** the gate's output in the model dtype) and the top-k weights and ids (fp32, int32). The
** attention's q/k/v and output are dead by the time the experts run (o_proj has consumed
** them) and the experts' caches are freed before the next layer's qkv_proj, so the layer's
** peak is the residual stream plus the larger of the two, not their sum. N is twice one routed
** expert's width (block expert_ffn: w13 holds the routed experts only, a shared expert is its
** own MLP beside them, e.g. models/qwen2_moe.py Qwen2MoeSparseMoeBlock.shared_expert); without a
** shared expert that is ffn_dim / experts_per_tok. vLLM's calibrated profile keeps
** est_forward_moe_bytes (estimate.c). A MoE model's dense layers (block dense_ffn: DeepSeek's and
** GLM-4.5's first_k_dense_replace layers, models/deepseek_v2.py DeepseekV2DecoderLayer builds
** DeepseekV2MLP of intermediate_size there; glm4_moe.py Glm4MoeDecoderLayer likewise) run the
** dense gated MLP (gate_up output 2 x intermediate / tp, the activation intermediate / tp) in the
** same forward, so the layer peak is the larger of the two kinds: the dense one is larger where
** intermediate_size is wide beside top_k x max(hidden, expert width), e.g. DeepSeek-V2-Lite
** (10944 vs 6 x 2048). */
#define SG_FUSED_MOE_CHUNK (64 * 1024) /* fused_moe.py CHUNK_SIZE */
static uint64_t sg_dense_layer_bytes(ectx *c, uint64_t tokens, uint64_t a) {
  model_desc d = *c->m;
  d.block.ffn_dim = c->m->block.dense_ffn;
  return est_forward_as_dense(c, d, tokens, a);
}

static uint64_t sg_layer_bytes(ectx *c, uint64_t tokens, uint64_t a) {
  uint64_t dense = est_forward_dense_bytes(c, tokens, a);
  const block_spec *b = &c->m->block;
  if (!b->experts) return dense;
  uint64_t dl = b->dense_ffn ? sg_dense_layer_bytes(c, tokens, a) : 0;
  uint64_t tp = c->s->tp ? c->s->tp : 1, k = b->experts_per_tok ? b->experts_per_tok : 1;
  uint64_t attn = acc_mul3(&c->acc, tokens, 2 * bytes_ceildiv(b->q_dim, tp) + 2 * bytes_ceildiv(b->kv_dim, tp), a);
  uint64_t base = dense > attn ? dense - attn : 0; /* the residual stream (est_forward_dense_bytes) */
  uint64_t width = b->expert_ffn ? b->expert_ffn : b->ffn_dim / k; /* one routed expert's */
  uint64_t n = bytes_ceildiv(2 * width, tp), h = c->m->hidden;
  uint64_t m = tokens < SG_FUSED_MOE_CHUNK ? tokens : SG_FUSED_MOE_CHUNK;
  uint64_t cache = acc_mul3(&c->acc, acc_mul(&c->acc, m, k), (n > h ? n : h) + n / 2, a);
  uint64_t router = acc_add(&c->acc, acc_mul3(&c->acc, tokens, b->experts, a), acc_mul3(&c->acc, tokens, k, 8));
  uint64_t moe = acc_add(&c->acc, cache, router);
  uint64_t ml = acc_add(&c->acc, base, moe > attn ? moe : attn);
  return ml > dl ? ml : dl;
}

/* The drafter's forward over `tokens` (its own widths, speculative.lua spec.hidden/heads/
** kv_dim/ffn; a NextN layer is shaped like the target's own, MoE included). */
static uint64_t drafter_forward(ectx *c, const sg_spec *sp, uint64_t tokens, uint64_t a) {
  if (strcmp(sp->method, "mtp") == 0) return sg_layer_bytes(c, tokens, a);
  return est_drafter_forward_bytes(c, tokens, a);
}

/* The decode graphs' pool: one batch's forward and its fp32 logits at the largest captured
** batch. With speculative decoding the target's graphs verify num_draft_tokens per request
** (TARGET_VERIFY) and the draft's graphs (eagle_draft_cuda_graph_runner.py,
** eagle_draft_extend_cuda_graph_runner.py) run up to num_draft_tokens per request through
** the drafter with logits over its vocabulary; batches are captured up to the request
** table's size (cuda_graph_runner.py get_batch_sizes_to_capture). */
static uint64_t graph_bytes(ectx *c, const sg_spec *sp, uint64_t graph_bs, uint64_t reqs, uint64_t a) {
  if (!sp->on)
    return acc_add(&c->acc, est_forward_dense_bytes(c, graph_bs, a), acc_mul3(&c->acc, graph_bs, c->m->vocab, 4));
  uint64_t bs = graph_bs < reqs ? graph_bs : reqs, t = acc_mul(&c->acc, bs, sp->ndraft);
  uint64_t g = acc_add(&c->acc, est_forward_dense_bytes(c, t, a), acc_mul3(&c->acc, t, c->m->vocab, 4));
  if (!sp->drafts) return g;
  uint64_t dv = scn_u64(c->s, "spec.draft_vocab", c->m->vocab);
  return acc_add(&c->acc, g, acc_add(&c->acc, drafter_forward(c, sp, t, a), acc_mul3(&c->acc, t, dv, 4)));
}

/* ------------------------------------------------------------ CUDA-graph capture */

/* "Capture cuda graph end ... mem usage=X GB" is the drop in free memory (after empty_cache)
** across CudaGraphRunner(model_runner) (model_runner.py init_cuda_graphs), and "Capture
** piecewise CUDA graph end ... mem usage" the same across the piecewise runner. What the
** runners hold, from sgl-project/sglang's python/sglang/srt/model_executor/cuda_graph_runner.py,
** piecewise_cuda_graph_runner.py and the attention backends' init_cuda_graph_state (layers/attention):
** - one CUDA-graph memory pool shared by every runner ("Reuse this memory pool across all cuda
**   graph runners. global_graph_memory_pool"; captures run from the largest size down "to
**   enable better memory sharing across cuda graphs"): the transient tensors of the largest
**   capture, i.e. one forward of the largest decode batch with its logits in the model dtype,
**   or one layer's forward of the largest piecewise token count, whichever is larger;
** - the captured outputs: each decode graph's fp32 next-token logits (bs x vocab x 4,
**   output_buffers[bs], the `.float()` in logits_processor.py _get_logits) until PR #8579
**   (merged 2025-07-30, "save cuda graph memory by using next_token_logits_buffer": GLM-4.5-Air
**   tp 4 5.16 -> 2.89 GB), from it one max_bs x vocab fp32 buffer that every graph writes;
** - the attention backend's graph state (init_cuda_graph_state, init_forward_metadata_capture_
**   cuda_graph): FlashInfer a cuda_graph_kv_indices of max_bs x context_len int32 and, per
**   captured batch, a BatchDecodeWithPagedKVCacheWrapper whose __init__ allocates an 8 MiB
**   _int_workspace_buffer (flashinfer/decode.py); the caching allocator serves requests of
**   1-10 MiB from 20 MiB segments (c10/cuda/CUDACachingAllocator.cpp kLargeBuffer), two such
**   buffers a segment; triton the same kv_indices plus fp32 split-KV logits and LSE
**   (max_bs x heads x num_kv_splits (8, server_args.py triton_attention_num_kv_splits) x
**   v_head_dim); FA3, TRT-LLM MHA and the others a page table of max_bs x
**   ceil(context_len / page_size) int32;
** - piecewise graphs: the torch.compile backend splits the model at each attention op and
**   captures every piece at every token size (compilation/cuda_piecewise_backend.py, adapted
**   from vLLM's); their graph and static-output memory is taken at 0.228 MiB a layer and a size
**   (EST_GRAPH_UNIT_MIB, vLLM's unit with FlashAttention 3's split-KV accumulators held apart:
**   those are vLLM's FULL decode graphs' own, and SGLang's piecewise graphs run attention between
**   the pieces; no SGLang log chose it). The MoE layer is a custom op inside its piece
**   (fused_moe_triton/layer.py FusedMoE.forward: moe_forward_piecewise_cuda_graph_impl), a split op
**   only with the DeepEP / Mooncake all-to-all backends (piecewise_cuda_graph_runner.py
**   add_split_op), so its workspaces are in the pool (sg_layer_bytes).
** - NCCL all-reduces captured into the graphs when custom all-reduce is off (est_custom_ar_off,
**   vLLM's rule, which SGLang's custom_all_reduce.py copies; --disable-custom-all-reduce is
**   runtime.disable_custom_all_reduce): GroupCoordinator.all_reduce then falls back to pynccl,
**   whose ncclAllReduce is captured on the graph's stream in the decode graphs; each is an NCCL
**   persistent plan, EST_GRAPH_NCCL_MIB per collective (2 x layers + 1 a forward,
**   est_graph_collectives) and captured size, vLLM's constant (estimate.c est_graph_nccl_bytes),
**   not refitted here. Not in the piecewise graphs: compilation/compilation_config.py lists
**   "sglang.inplace_all_reduce" among the split ops beside the attention op, and
**   GroupCoordinator.all_reduce (distributed/parallel_state.py) takes that op whenever custom
**   all-reduce does not, and always under torch.compile (issue #16102), so the pieces end at
**   each all-reduce and it runs live between them.
** Not modelled: with custom all-reduce on, messages of max_size (8 MiB) and more that go to NCCL
** (should_custom_ar), the decode graphs' own per-node memory, lazily loaded kernels. */

/* SGLang's default attention backend on NVIDIA GPUs when not given: FA3 on Hopper from 0.4.6
** (issue #6066 of 2025-05-07 calls it the latest release's default; PR #6379 keeps a model
** allowlist, not modelled), TRT-LLM MHA on sm_100 from PR #14291 (merged 2025-12-02; taken as
** 0.5.7 here, inferred from the date; sm_120 keeps FlashInfer, PR #14842), FlashInfer
** otherwise. On CDNA: aiter (aiter_derate), whose graph state is taken as a page table; on
** Gaudi not FlashInfer (no 384 MiB FlashInfer workspace). */
static const char *sg_backend(const scenario *s) {
  const char *be = scn_str(s, "runtime.attention_backend", "");
  if (be[0]) return be;
  uint64_t rel = scn_u64(s, "sglang.release", 99999999);
  if (strncmp(s->gpu_arch, "cdna", 4) == 0) return "aiter";
  /* Gaudi: FlashInfer's kernels are CUDA-only; the HPU path's graph state is not modelled and
  ** taken as a page table, as for the other backends */
  if (strncmp(s->gpu_arch, "gaudi", 5) == 0) return "torch_native";
  if (strcmp(s->gpu_arch, "hopper") == 0 && rel >= 400600) return "fa3";
  if (strcmp(s->gpu_arch, "blackwell") == 0 && rel >= 500700 &&
      (!s->gpu_compute[0] || strncmp(s->gpu_compute, "10.", 3) == 0))
    return "trtllm_mha";
  return "flashinfer";
}

typedef struct sg_graphs {
  const char *backend;
  uint64_t n_decode, sum_bs, max_bs; /* decode batches captured, their sum and largest */
  uint64_t n_pw, pw_max;              /* piecewise token sizes captured and the largest */
  const char *pf_backend;             /* the prefill graphs' backend (sg_prefill_backend) */
  const char *pf_off;                 /* why SGLang's auto-disable ladder left none, or NULL */
  uint64_t pool, outputs, attn, wrappers, pw_nodes;
  uint64_t pw_out;                    /* breakable / full: the body's shared output buffer */
  uint64_t nccl_decode, nccl_pw;      /* NCCL all-reduces captured (custom all-reduce off) */
  const char *car_off;                /* why custom all-reduce is off, NULL when on */
  uint64_t decode, piecewise;         /* what each runner's "mem usage" would show alone */
} sg_graphs;

/* Captured decode batch sizes from .. to by step (closed form: a huge cuda_graph_max_bs costs
** nothing), those above the last one taken. */
static void decode_run(ectx *c, sg_graphs *gr, uint64_t from, uint64_t to, uint64_t step, uint64_t *last) {
  if (from <= *last) from += ((*last - from) / step + 1) * step;
  if (from > to) return;
  uint64_t n = (to - from) / step + 1, hi = from + (n - 1) * step;
  gr->n_decode += n;
  /* n x (from + hi) / 2, halving the even factor */
  uint64_t s2 = from + hi;
  gr->sum_bs = acc_add(&c->acc, gr->sum_bs, n % 2 == 0 ? acc_mul(&c->acc, n / 2, s2) : acc_mul(&c->acc, n, s2 / 2));
  gr->max_bs = *last = hi;
}

/* The decode batch sizes, up to cuda_graph_max_bs and the request table's size (reqs):
** - before 0.5.3 cuda_graph_runner.py get_batch_sizes_to_capture: [1, 2, 4, 8] + 16 .. 160 by 8
**   (more above 160 on large GPUs, by 8 here), cut at cuda_graph_max_bs, and when the list
**   falls short, max .. cuda_graph_max_bs by 16 (as at 0.4.9, 13 sizes to 80);
** - 0.5.3 and later server_args.py _generate_cuda_graph_batch_sizes: [1, 2, 4, 8, 12] + 16 .. 256
**   by 8 + 272 .. 496 by 16 + 512 .. max by 32 (52 sizes to 512; taken with the GPU-size table of
**   PRs #10372 / #10975, which moved the defaults there; inferred). */
static void decode_sizes(ectx *c, uint64_t graph_bs, uint64_t reqs, sg_graphs *gr) {
  uint64_t max = graph_bs < reqs ? graph_bs : reqs, last = 0;
  if (max == 0) return;
  bool nw = scn_u64(c->s, "sglang.release", 99999999) >= 500300;
  static const uint64_t head_old[] = {1, 2, 4, 8}, head_new[] = {1, 2, 4, 8, 12};
  const uint64_t *h = nw ? head_new : head_old;
  size_t nh = nw ? 5 : 4;
  for (size_t i = 0; i < nh && h[i] <= max; i++) decode_run(c, gr, h[i], h[i], 1, &last);
  uint64_t top = nw ? 256 : 160;
  decode_run(c, gr, 16, max < top ? max : top, 8, &last);
  if (nw) {
    decode_run(c, gr, 272, max < 496 ? max : 496, 16, &last);
    decode_run(c, gr, 512, max, 32, &last);
  } else {
    decode_run(c, gr, 168, max < 256 ? max : 256, 8, &last);
    if (last < max) decode_run(c, gr, last + 16, max, 16, &last);
  }
  /* a request table smaller than the list: its size - 1 and its size are added */
  if (reqs < graph_bs) {
    if (reqs > 1) decode_run(c, gr, reqs - 1, reqs - 1, 1, &last);
    decode_run(c, gr, reqs, reqs, 1, &last);
  }
}

/* The prefill CUDA-graph backend (--cuda-graph-backend-prefill; runtime.cuda_graph_backend_prefill,
** validated in sglang.lua): "tc_piecewise" is the torch.compile piecewise runner this file first
** modelled; "breakable" (BreakableCudaGraphBackend, model_executor/cuda_graph_backend/
** breakable_cudagraph_backend.py, added as the breakable piecewise backend in PR #22218) captures
** the transformer body as one torch.cuda.CUDAGraph segment per stretch between eager breaks at the
** attention / mamba ops, without torch.compile; "full" one graph per token size (experimental);
** "disabled" none. Default: breakable on CUDA from PR #29458 ("Enable Breakable Cuda Graph as
** Default", merged 2026-06-26, after v0.5.13 of 2026-06-17: 0.5.14 here, inferred from the dates;
** elsewhere default_prefill_backend() keeps tc_piecewise, cuda_graph_config.py), the torch.compile
** runner from 0.5.10 (PR #16331) or with --enable-piecewise-cuda-graph, else none;
** --disable-piecewise-cuda-graph turns them off, and so does SGLang's auto-disable ladder (below:
** on AMD Instinct GPUs its non-CUDA rule leaves none by default from 0.5.10). */
#define SG_BREAKABLE_DEFAULT 501400
#define SG_PIECEWISE_DEFAULT 501000 /* PR #16331's release here (0.5.10): piecewise graphs on by default */

/* A multimodal model: a vision tower or projector among its tensors (est_vision_tensor; SGLang's
** own test is ModelConfig.is_multimodal, an architecture list, configs/model_config.py
** multimodal_model_archs). */
static bool sg_multimodal(const model_desc *m) {
  for (size_t i = 0; i < m->inv.n; i++)
    if (est_vision_tensor(&m->inv.t[i])) return true;
  return false;
}

/* The auto-disable ladder (--enforce-piecewise-cuda-graph, runtime.enforce_piecewise_cuda_graph,
** skips it). PR #16331, which turned the torch.compile runner on by default (0.5.10 here), added
** server_args.py _handle_piecewise_cuda_graph: `if self.enforce_piecewise_cuda_graph:
** self.disable_piecewise_cuda_graph = False; return`, then one rule after another sets
** disable_piecewise_cuda_graph = True. The runner / backend split (PR #23906) and the breakable default
** (PR #29458, 0.5.14 here) moved it to _apply_cuda_graph_compatibility, which is skipped when the
** prefill backend is given explicitly (--cuda-graph-backend-prefill, "the old
** --enforce-piecewise-cuda-graph contract") and runs one list a backend: tc_piecewise keeps the whole
** ladder (_disable_tc_piecewise_cudagraph_if_incompatible), breakable a short list of its own
** (_disable_breakable_cudagraph_if_incompatible); sgl-project/sglang server_args.py@001067ff. The
** rules a scenario can express; the others (DP attention, --enable-torch-compile, the MoE all-to-all
** backends, LoRA, GGUF, DLLM, CPU offload / hierarchical cache, deterministic inference, PD
** disaggregation, symmetric memory, EPLB / the expert-distribution recorder, context parallel,
** --debug-cuda-graph) have no knob here. */

/* Rule 1: the architectures ModelConfig.is_piecewise_cuda_graph_disabled_model lists
** (configs/model_config.py piecewise_cuda_graph_disabled_model_archs). DeepseekV32ForCausalLM and
** GlmMoeDsaForCausalLM left it with PR #23351 ("Support piecewise CUDA graph with NSA", merged
** 2026-05-22, after v0.5.12.post1's branch: 0.5.13 here, inferred from the dates); DeepSeek-V4 was
** added with its support (model_config.py@001adf56). `until` is the first release without the entry. */
static const struct { const char *arch; uint64_t until; } SG_PCG_OFF_ARCHS[] = {
    {"DeepseekV32ForCausalLM", 501300}, {"GlmMoeDsaForCausalLM", 501300}, {"Qwen3NextForCausalLM", UINT64_MAX},
    {"BailingMoeV2_5ForCausalLM", UINT64_MAX}, {"LLaDAModelLM", UINT64_MAX},
    {"DeepseekV4ForCausalLM", UINT64_MAX}, {"DeepseekV4ForCausalLMNextN", UINT64_MAX}};

/* The breakable backend's multimodal rule exempts multimodal_breakable_cuda_graph_supported_model_archs:
** Qwen3.5 dense and MoE from PR #30620 (merged 2026-07-14, after v0.5.15 of about 2026-07-13: 0.5.16
** here, inferred from the dates). */
#define SG_BCG_MM_ALLOW 501600
static const char *const SG_BCG_MM_ARCHS[] = {"Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"};

/* PR #22128 ("Allow piecewise CUDA graph with speculative decoding", merged 2026-04-17, after v0.5.10 of
** 2026-04-06: 0.5.11 here) dropped the speculative-decoding rule that PR #16331 had added. */
#define SG_PCG_SPEC_OK 501100

/* The tc_piecewise ladder (from 0.5.10): the reason it turns the graphs off, NULL when none does. */
static const char *sg_tc_ladder(const ectx *c, uint64_t rel) {
  const scenario *s = c->s;
  const char *arch = scn_str(s, "sglang.hf_arch", "");
  for (size_t i = 0; i < sizeof SG_PCG_OFF_ARCHS / sizeof *SG_PCG_OFF_ARCHS; i++)
    if (strcmp(arch, SG_PCG_OFF_ARCHS[i].arch) == 0 && rel < SG_PCG_OFF_ARCHS[i].until)
      return "disabled model arch";
  /* "Speculative decoding", 0.5.10 only (PR #16331 to PR #22128) */
  if (rel < SG_PCG_SPEC_OK && scn_str(s, "spec.method", "")[0]) return "speculative decoding (0.5.10)";
  /* "4. Pipeline parallelism: if self.pp_size > 1" */
  if (s->pp > 1) return "pp_size > 1";
  /* "5. Non-CUDA hardware": is_hip() or is_npu() ... (HIP/NPU/CPU/MPS/XPU) */
  if (!sg_on_cuda(s)) return "non-CUDA hardware";
  /* "8. Multimodal / VLM models: if self.get_model_config().is_multimodal". Hold-out round 12:
  ** Qwen3.5-9B (Qwen3_5ForConditionalGeneration) on SGLang main of 2026-04-14 logs "Disable piecewise
  ** CUDA graph because --disable-piecewise-cuda-graph is set" without the flag and captures decode
  ** graphs only. Before the default (PR #11830's Qwen2.5-VL with --enable-piecewise-cuda-graph, Nov
  ** 2025) the explicit flag captured them. The architectures on
  ** multimodal_piecewise_cuda_graph_supported_model_archs (PR #30889 and later: Kimi K2.5, Cohere2
  ** Vision, MiniMax-M3) are exempt in newer source; none is a model here. */
  if (sg_multimodal(c->m)) return "multimodal model";
  return NULL;
}

/* The breakable backend's own list (from 0.5.14): of DeepSeek-V4, context parallel, decode context
** parallel, two-batch overlap, an unvalidated all-to-all backend and "multimodal model" only the last
** two are expressible here (DeepSeek-V4 is not a model here). PR #30620's description: "Since #29458,
** breakable CUDA graph (BCG) is the default prefill CUDA graph backend on CUDA, but the generic
** 'multimodal model' rule in _disable_breakable_cudagraph_if_incompatible turns it off for every arch in
** multimodal_model_archs". */
static const char *sg_breakable_ladder(const ectx *c, uint64_t rel) {
  if (!sg_multimodal(c->m)) return NULL;
  const char *arch = scn_str(c->s, "sglang.hf_arch", "");
  if (rel >= SG_BCG_MM_ALLOW)
    for (size_t i = 0; i < sizeof SG_BCG_MM_ARCHS / sizeof *SG_BCG_MM_ARCHS; i++)
      if (strcmp(arch, SG_BCG_MM_ARCHS[i]) == 0) return NULL;
  return "multimodal model (breakable)";
}

/* The prefill backend and, when it is "disabled" by SGLang's own rules, why (*why, else NULL). */
static const char *sg_prefill_backend_why(const ectx *c, const char **why) {
  const scenario *s = c->s;
  *why = NULL;
  uint64_t rel = scn_u64(s, "sglang.release", 99999999);
  /* enforce came with the ladder and the default (PR #16331, 0.5.10 here): before it, it changes
  ** nothing (scripts/runtimes/sglang.lua notes so) */
  bool enforce = scn_bool(s, "runtime.enforce_piecewise_cuda_graph", false) && rel >= SG_PIECEWISE_DEFAULT;
  /* under enforce _handle_piecewise_cuda_graph sets disable_piecewise_cuda_graph = False */
  if (!enforce && scn_bool(s, "runtime.disable_piecewise_cuda_graph", false)) return "disabled";
  const char *be = scn_str(s, "runtime.cuda_graph_backend_prefill", "");
  if (be[0]) return be; /* locked: _apply_cuda_graph_compatibility returns at once */
  /* default_prefill_backend(): "BCG (breakable) is the prefill default on CUDA only; other platforms
  ** (HIP/NPU/...) keep tc_piecewise", which the non-CUDA rule then turns off (cuda_graph_config.py) */
  if (rel >= SG_BREAKABLE_DEFAULT && sg_on_cuda(s)) be = "breakable";
  /* enforce keeps the release's default backend */
  else if (rel >= SG_PIECEWISE_DEFAULT || scn_bool(s, "runtime.enable_piecewise_cuda_graph", false))
    be = "tc_piecewise";
  else return "disabled";
  /* the ladder came with the default (PR #16331); before it the explicit flag captured them */
  if (enforce || rel < SG_PIECEWISE_DEFAULT) return be;
  *why = strcmp(be, "breakable") == 0 ? sg_breakable_ladder(c, rel) : sg_tc_ladder(c, rel);
  return *why ? "disabled" : be;
}

static const char *sg_prefill_backend(const ectx *c) {
  const char *why;
  return sg_prefill_backend_why(c, &why);
}

/* Piecewise (prefill) graphs: on with --enable-piecewise-cuda-graph (PR #10062), on by default
** from PR #16331 (merged 2026-03-02; taken as 0.5.10 here, the first release known here to
** capture them by default: the 2026-04-27 clean-startup log), off with
** --disable-piecewise-cuda-graph. Token sizes (server_args.py _generate_piecewise_cuda_graph_
** tokens): from PR #15927 (2026-01-10, 0.5.7 here) 4 .. 32 by 4, 48 .. 256 by 16, 288 .. 512 by
** 32, 576 .. 1024 by 64, 1280 .. 4096 by 256, 4608 .. max by 512 with max = chunked_prefill_size
** (MLA: 2048); before it 4 .. 32 by 4, 48 .. 256 by 16, 288 .. 512 by 32, 640 .. 4096 by 128,
** 4352 .. max by 256 with max 4096 (piecewise_cuda_graph_max_tokens). */
static void piecewise_sizes(ectx *c, uint64_t chunk, sg_graphs *gr) {
  const scenario *s = c->s;
  uint64_t rel = scn_u64(s, "sglang.release", 99999999);
  if (strcmp(sg_prefill_backend(c), "disabled") == 0) return;
  bool nw = rel >= SG_PIECEWISE_PER_SIZE;
  uint64_t dflt = nw ? (est_model_mla(c->m) ? 2048 : chunk) : 4096;
  uint64_t max = scn_u64(s, "runtime.piecewise_cuda_graph_max_tokens", dflt);
  static const struct { uint64_t from, to, step; } seg_new[] = {
      {4, 32, 4}, {48, 256, 16}, {288, 512, 32}, {576, 1024, 64}, {1280, 4096, 256}, {4608, UINT64_MAX, 512}};
  static const struct { uint64_t from, to, step; } seg_old[] = {
      {4, 32, 4}, {48, 256, 16}, {288, 512, 32}, {640, 4096, 128}, {4352, UINT64_MAX, 256}};
  size_t n = nw ? 6 : 5;
  for (size_t i = 0; i < n; i++) {
    uint64_t from = nw ? seg_new[i].from : seg_old[i].from, to = nw ? seg_new[i].to : seg_old[i].to;
    uint64_t step = nw ? seg_new[i].step : seg_old[i].step;
    if (to > max) to = max;
    if (from > to) break;
    uint64_t k = (to - from) / step + 1;
    gr->n_pw += k;
    gr->pw_max = from + (k - 1) * step;
  }
}

/* The attention backend's decode-graph state for the largest batch, and the per-size
** FlashInfer wrappers' workspaces (see above). */
static void attn_state(ectx *c, uint64_t ctx, uint64_t page, sg_graphs *gr) {
  uint64_t bs = gr->max_bs;
  if (!bs) return;
  const char *be = gr->backend;
  uint64_t heads = bytes_ceildiv(c->m->heads ? c->m->heads : 1, c->s->tp);
  uint64_t vdim = c->m->n_kv ? c->m->kv[0].v_dim : 128;
  if (strcmp(be, "flashinfer") == 0) {
    gr->attn = acc_mul3(&c->acc, bs, ctx, 4);
    gr->wrappers = acc_mul(&c->acc, (gr->n_decode + 1) / 2, 20 * MIB);
  } else if (strcmp(be, "triton") == 0) {
    uint64_t kvi = acc_mul3(&c->acc, bs, ctx, 4);
    uint64_t logits = acc_mul3(&c->acc, acc_mul(&c->acc, bs, heads), 8, acc_mul(&c->acc, vdim + 1, 4));
    gr->attn = acc_add(&c->acc, kvi, logits);
  } else {
    gr->attn = acc_mul3(&c->acc, bs, bytes_ceildiv(ctx, page ? page : 1), 4);
  }
}

/* SGLang's MLA attention keeps kv_b_proj (the prefill path's up-projection) and, after loading,
** two more per-rank tensors cut from it for the absorbed decode path:
** models/deepseek_v2.py DeepseekV2ForCausalLM.post_load_weights splits w = kv_b_proj.weight into
** w_kc and w_vc and stores `w_kc.transpose(1, 2).contiguous().transpose(1, 2)` and
** `w_vc.contiguous().transpose(1, 2)`: both new storage, together one more copy of the rank's
** kv_b_proj slice (its heads split by tp). Their dtype is w's after the dequantization there:
** the model dtype for an unquantized kv_b_proj; bf16 for block FP8 128 x 128 on CUDA
** (block_quant_dequant) and for int8 / AWQ weights (dequantized to bf16); FP8 elsewhere
** (block_quant_to_tensor_quant on ROCm, per-tensor FP8 as stored). The DeepGEMM bmm path
** (SGL_USE_DEEPGEMM_BMM, off by default) is not modelled. Hold-out round 12 (nvidia
** DeepSeek-R1-FP4 at tp 4, sgl-project/sglang PR #9162): 0.48 GiB a rank. */
static uint64_t sg_mla_absorb_bytes(ectx *c) {
  const model_desc *m = c->m;
  const scenario *s = c->s;
  if (!est_model_mla(m)) return 0;
  bool cuda = sg_on_cuda(s);
  uint64_t sum = 0;
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    if (!strstr(t->name, "kv_b_proj") || est_is_draft(t) || t->buffer) continue;
    uint64_t one = 0;
    if (!inv_tensor_elements(t, &one)) { c->acc.overflow = true; return 0; }
    /* a rank's heads (the attention tp: sg_attn_tp) of its stage's layers (pp) */
    uint64_t atp = sg_attn_tp(s) ? sg_attn_tp(s) : 1;
    uint64_t n = bytes_ceildiv(acc_mul(&c->acc, one, t->count), acc_mul(&c->acc, atp, s->pp ? s->pp : 1));
    uint64_t b;
    if (!t->qtype[0]) b = est_elems_bytes(c, n, t->dtype);
    else if (strncmp(t->qtype, "fp8", 3) == 0 && !(cuda && strcmp(t->qtype, "fp8-b128") == 0)) b = n;
    else b = acc_mul(&c->acc, n, 2);
    sum = acc_add(&c->acc, sum, b);
  }
  return sum;
}

/* The sum over the target's stored tensors of one role that keep accepts (NULL: every one) of
** per(c, tensor bytes): the inventory walk the three weight adjustments below share (a draft's
** tensors and registered buffers are never weights here). */
typedef bool (*sg_keep_fn)(const model_desc *m, const inv_tensor *t);
typedef uint64_t (*sg_per_fn)(ectx *c, uint64_t bytes);
static uint64_t sg_rank_sum(ectx *c, inv_role role, sg_keep_fn keep, sg_per_fn per) {
  const model_desc *m = c->m;
  uint64_t sum = 0;
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    if (t->role != role || est_is_draft(t) || t->buffer || (keep && !keep(m, t))) continue;
    uint64_t b = 0;
    if (!inv_tensor_bytes(t, &b)) {
      c->acc.overflow = true;
      return 0;
    }
    sum = acc_add(&c->acc, sum, per(c, b));
  }
  return sum;
}

static uint64_t sg_tp_pp(ectx *c) {
  return acc_mul(&c->acc, c->s->tp ? c->s->tp : 1, c->s->pp ? c->s->pp : 1);
}

/* a replicated tensor's stage share less the 1 / tp estimate_device_weights counted */
static uint64_t sg_replicated_extra(ectx *c, uint64_t b) {
  uint64_t whole = bytes_ceildiv(b, c->s->pp ? c->s->pp : 1), part = bytes_ceildiv(b, sg_tp_pp(c));
  return whole - part;
}

/* What the replicated MLA down projections add to a rank's tp share (est_mla_replicated:
** SGLang's DeepseekV2AttentionMLA builds fused_qkv_a_proj_with_mqa (q_a_proj + kv_a_proj_with_mqa,
** with q_lora_rank; the indexer's wk on DeepSeek-V3.2) or kv_a_proj_with_mqa alone as a
** ReplicatedLinear, models/deepseek_v2.py "For tensor parallel attention"): the
** whole tensor less its 1 / tp. DeepSeek-V3/R1 at tp 8, FP8: 61 x (1536 + 576) x 7168 B and block
** scales, 0.75 GiB a rank. Hold-out round 25: sgl-project/sglang#6001 (R1 at tp 8 on MI308X,
** 81.66 GB): -1.05 % -> -0.13 %; round 12's R1 NVFP4 at tp 4 (PR #9162, bf16 attention, 94.50 GB):
** 93.09 -> 94.38 GiB (-1.5 % -> -0.13 %); round 22's Kimi-K2.5 on MI355X -5.3 % -> -3.3 %. */
static uint64_t sg_mla_replicated_bytes(ectx *c) {
  if ((c->s->tp ? c->s->tp : 1) == 1) return 0;
  return sg_rank_sum(c, ROLE_ATTN, est_mla_replicated, sg_replicated_extra);
}

static bool sg_not_replicated(const model_desc *m, const inv_tensor *t) {
  return !est_mla_replicated(m, t); /* whole anyway: sg_mla_replicated_bytes */
}

/* an attention tensor's share at the attention tp less its share at tp */
static uint64_t sg_dp_attn_extra(ectx *c, uint64_t b) {
  uint64_t at_atp = bytes_ceildiv(b, acc_mul(&c->acc, sg_attn_tp(c->s), c->s->pp ? c->s->pp : 1)),
           at_tp = bytes_ceildiv(b, sg_tp_pp(c));
  return at_atp > at_tp ? at_atp - at_tp : 0;
}

/* The attention layers' weights under DP attention: SGLang builds their projections over the
** attention group (QKVParallelLinear / RowParallelLinear with tp_rank=attn_tp_rank,
** tp_size=attn_tp_size in the attention modules, the gated DeltaNet's in_proj_qkvz / in_proj_ba /
** out_proj likewise in models/qwen3_next.py), so each rank keeps 1 / (tp / dp_size) of them where
** plain tp keeps 1 / tp: the description's attention tensors at the attention tp, less what
** estimate_device_weights counted at tp. Replicated and MoE tensors do not move. No log of round 25
** prints a DP-attention weights line (PR #10622's excerpt has none): the arithmetic only. */
static uint64_t sg_dp_attn_weight_bytes(ectx *c) {
  if (sg_attn_tp(c->s) == (c->s->tp ? c->s->tp : 1)) return 0;
  return sg_rank_sum(c, ROLE_ATTN, sg_not_replicated, sg_dp_attn_extra);
}

static uint64_t sg_rank_share(ectx *c, uint64_t b) {
  return bytes_ceildiv(b, sg_tp_pp(c));
}

/* DeepSeek-V3/R1's shared expert fused into the routed MoE (--n-share-experts-fusion N,
** sgl-project/sglang PR #4918; models/deepseek_v2.py load_weights: "Cloning N replicas of the
** shared expert into MoE" appends N copies of each MoE layer's shared_experts as experts
** n_routed_experts .. n_routed_experts + N - 1 of the FusedMoE and drops the shared_experts
** module, and DeepseekV2MoE builds its FusedMoE with n_routed_experts + N experts). The FusedMoE
** splits every expert's intermediate dimension over tp, so a rank keeps N / tp of the shared
** expert where the unfused module kept 1 / tp: (N - 1) x its shared-expert slice more. SGLang
** asserts N == tp_size; whether 0.4.6 turned it on by default off CUDA was not read (the
** scenario gives it). Hold-out round 25: sgl-project/sglang#6001, DeepSeek-R1 at tp 8 on
** 8 x MI308X (0.4.6): "Cloning 8 replicas of the shared expert into MoE", "mem usage=81.66 GB";
** 78.72 GiB without the replicas, 80.80 with them (7/8 of 58 layers' 44 MB FP8 shared experts). */
static uint64_t sg_shared_fusion_bytes(ectx *c) {
  /* N is tp whenever it is on (scripts/runtimes/sglang.lua checks the scenario's; fit's other GPU
  ** counts keep the rule) */
  uint64_t n = scn_u64(c->s, "runtime.n_share_experts_fusion", 0) ? c->s->tp : 0;
  if (n < 2) return 0;
  return acc_mul(&c->acc, sg_rank_sum(c, ROLE_SHARED_EXPERT, NULL, sg_rank_share), n - 1);
}

/* The graphs' memory: the shared pool, the outputs, the backend's state and the piecewise
** graphs; decode and piecewise are also given apart, each as if captured first. */
static void sg_graph_bytes(ectx *c, const sg_spec *sp, uint64_t graph_bs, uint64_t reqs, uint64_t chunk,
                           uint64_t ctx, uint64_t page, uint64_t a, sg_graphs *gr) {
  const scenario *s = c->s;
  uint64_t rel = scn_u64(s, "sglang.release", 99999999);
  gr->backend = sg_backend(s);
  if (!scn_bool(s, "runtime.disable_cuda_graph", false)) decode_sizes(c, graph_bs, reqs, gr);
  gr->pf_backend = sg_prefill_backend_why(c, &gr->pf_off);
  piecewise_sizes(c, chunk, gr);
  uint64_t v = c->m->vocab;
  uint64_t dpool = 0;
  if (gr->max_bs) {
    if (sp->on) {
      dpool = graph_bytes(c, sp, graph_bs, reqs, a); /* speculative: the verify / draft forward */
    } else {
      dpool = acc_add(&c->acc, sg_layer_bytes(c, gr->max_bs, a), acc_mul3(&c->acc, gr->max_bs, v, a));
    }
    uint64_t rows = rel >= 401001 ? gr->max_bs : gr->sum_bs; /* PR #8579 */
    if (sp->on) rows = 0; /* counted in graph_bytes' fp32 logits */
    gr->outputs = acc_mul3(&c->acc, rows, v, 4);
    attn_state(c, ctx, page, gr);
  }
  uint64_t ppool = 0;
  if (gr->n_pw) {
    ppool = sg_layer_bytes(c, gr->pw_max, a);
    uint64_t layers = bytes_ceildiv(c->m->layers ? c->m->layers : 1, s->pp);
    gr->pw_nodes = acc_from_double(&c->acc, EST_GRAPH_UNIT_MIB * MIB * (double)layers * (double)gr->n_pw);
    /* breakable (and full): the runner captures only the transformer body (layer_model.forward;
    ** the LM head and logits run eagerly after it, runner/prefill_cuda_graph_runner.py) and the
    ** backend keeps one output buffer of the largest size that every size's capture copies into
    ** and slices ("One output buffer across capture sizes", SGLang's blog of 2026-08-15; capture_one
    ** _shared_output_buffer, sized from the warmup output since PR #30834 of 2026-07-11): the final
    ** hidden states, largest size x hidden in the model dtype. The segments are one a layer and a
    ** size, as the torch.compile pieces (breaks at each attention op), at the same unit; the
    ** layer's transients share the one pool (BreakableCUDAGraphCapture: every segment captures
    ** into the runner's pool, captured largest first), as sg_layer_bytes prices them. */
    if (strcmp(gr->pf_backend, "tc_piecewise") != 0)
      gr->pw_out = acc_mul3(&c->acc, gr->pw_max, c->m->hidden, a);
  }
  gr->car_off = est_custom_ar_off(s);
  if (gr->car_off) {
    gr->nccl_decode = est_graph_nccl_bytes(c, gr->n_decode);
    /* none in the piecewise graphs: their all-reduces are torch.ops.sglang.inplace_all_reduce,
    ** a split op run between the pieces (below) */
    gr->nccl_pw = 0;
  }
  gr->pool = dpool > ppool ? dpool : ppool;
  uint64_t dstate = acc_add(&c->acc, gr->outputs, acc_add(&c->acc, gr->attn, gr->wrappers));
  gr->decode = gr->max_bs ? acc_add(&c->acc, acc_add(&c->acc, dpool, dstate), gr->nccl_decode) : 0;
  gr->piecewise = gr->n_pw ? acc_add(&c->acc, acc_add(&c->acc, ppool, acc_add(&c->acc, gr->pw_nodes, gr->pw_out)),
                                     gr->nccl_pw)
                           : 0;
}

void sglang_estimate(ectx *c) {
  const scenario *s = c->s;
  budget *b = &c->e->b;
  if (s->gpu_memory == 0) {
    est_fail(c, "sglang: the GPU's memory is unknown");
    return;
  }
  sg_spec sp;
  spec_read(c, &sp);
  if (sp.on && s->pp > 1) {
    est_fail(c, "sglang: speculative decoding with pipeline parallelism is not supported by SGLang");
    return;
  }
  /* server_args.py sizes its defaults (tier_defaults, fraction) by get_device_memory_capacity:
  ** on CUDA utils get_nvgpu_memory_capacity, `nvidia-smi --query-gpu=memory.total` (MiB), the
  ** least over the visible GPUs, not the torch total the pool is carved from. Where the catalog
  ** records that total (scripts/gpus.lua smi_memory) it is used; else the torch total, about
  ** 0.6% under it (the H100's 81,090 against 81,559 MiB). Hold-out round 22: the docs' CI run of
  ** 2026-02-04 (Qwen2.5-0.5B, H100, chunk 8192, graphs to 4) printed mem_fraction_static=0.841:
  ** (81,559 - 12,936) / 81,559 = 0.8414; at the torch total 0.8405, printed 0.840. */
  uint64_t cap_mem = s->gpu_smi_memory && sg_on_cuda(s) ? s->gpu_smi_memory : s->gpu_memory;
  sg_cfg g = {.gpu_mib = (double)cap_mem / MIB};
  tier_defaults(s, &g);
  /* Llama 3.2 Vision turns chunked prefill off, given or not (scripts/runtimes/sglang.lua sets
  ** sglang.chunked_off for the releases with ModelRunner.model_specific_adjustment's rule,
  ** "Automatically turn off --chunked-prefill-size for mllama": chunked_prefill_size = -1). The
  ** scheduler then admits a request's whole prompt in one prefill (schedule_policy.py
  ** PrefillAdder: no rem_chunk_tokens; the first request passes max_prefill_tokens), so the
  ** forward the reserve must hold is the longest request, not a chunk. */
  bool chunk_off = scn_bool(s, "sglang.chunked_off", false);
  sg_graphs pw = {0}; /* the piecewise token sizes alone, for the reserved-memory rule */
  piecewise_sizes(c, g.chunk, &pw);
  fraction(s, &sp, pw.n_pw, &g);
  g.aiter = aiter_derate(s, c->m, scn_u64(s, "runtime.context_length", s->context ? s->context : 1));
  if (g.aiter) g.fraction *= 0.85;
  if (g.fraction <= 0) {
    est_fail(c, "sglang: the reserved memory (%.0f MiB) exceeds the GPU's %.0f MiB", g.reserved_mib, g.gpu_mib);
    return;
  }
  g.page = scn_u64(s, "runtime.page_size", 1);
  /* --max-total-tokens caps the token pool in whole pages (pool_tokens). A cap below one page
  ** leaves no tokens: "Not enough memory. Please try to increase --mem-fraction-static"
  ** (model_runner.py init_memory_pool); one of 6 tokens or fewer fails the scheduler's
  ** assertion "Memory pool size is too small" (max_req_len = min(context_len - 1,
  ** max_total_num_tokens - 1), max_req_input_len = max_req_len - 5, both must be positive:
  ** managers/scheduler.py / tp_worker.py). Both stop SGLang at start: errors here. */
  uint64_t cap = scn_u64(s, "runtime.max_total_tokens", 0), cap_pool = cap / (g.page ? g.page : 1) * g.page;
  if (scn_find(s, "runtime.max_total_tokens") && cap_pool <= 6) {
    est_fail(c, "sglang: runtime.max_total_tokens (%llu) leaves %llu tokens in pages of %llu: SGLang refuses a pool "
             "of 6 tokens or fewer",
             (unsigned long long)cap, (unsigned long long)cap_pool, (unsigned long long)g.page);
    return;
  }
  /* every tensor on a rank, the draft's included (spec_read summed those: sp.weights) */
  uint64_t all = 0;
  if (!estimate_device_weights(c->m, s->tp, s->pp, &all)) c->acc.overflow = true;
  /* the rotary cos/sin cache (est_rope_elems, as in rt_vllm.c stage_weights): SGLang's RotaryEmbedding keeps it in fp32 on CUDA and casts it to the model
  ** dtype elsewhere (python/sglang/srt/layers/rotary_embedding.py RotaryEmbedding.__init__:
  ** "NOTE(ByronHsu): cache needs to be in FP32 for numerical stability", `if not _is_cuda:
  ** cache = cache.to(dtype)`). It is registered in load_model, so "Load weight end ... mem
  ** usage" counts it and the pool profile subtracts it: Llama-3.1-8B 131072 x 128 x 4 B =
  ** 64 MiB, 15.02 GiB printed with SGLang 0.4.9 against 14.96 GiB of parameters (hold-out
  ** round 3, tests/test_vllm.c test_sglang_holdout3) */
  {
    bool cuda = sg_on_cuda(s);
    uint64_t pos = est_rope_elems(c);
    all = acc_add(&c->acc, all, cuda ? acc_mul(&c->acc, pos, 4) : est_elems_bytes(c, pos, s->dtype));
  }
  /* MLA's absorbed kv_b_proj copies (sg_mla_absorb_bytes): made in load_model's post_load_weights,
  ** so counted by "mem usage" as the parameters are */
  uint64_t absorb = sg_mla_absorb_bytes(c);
  all = acc_add(&c->acc, all, absorb);
  /* the shared expert's replicas in the fused MoE (sg_shared_fusion_bytes), loaded with it */
  uint64_t fused = sg_shared_fusion_bytes(c);
  all = acc_add(&c->acc, all, fused);
  /* the attention weights kept at the attention group's split (sg_dp_attn_weight_bytes) */
  uint64_t dp_attn = sg_dp_attn_weight_bytes(c);
  all = acc_add(&c->acc, all, dp_attn);
  /* MLA's replicated down projections (sg_mla_replicated_bytes) */
  uint64_t mla_rep = sg_mla_replicated_bytes(c);
  all = acc_add(&c->acc, all, mla_rep);
  /* "mem usage" is the drop in free memory across load_model, after empty_cache(): the caching
  ** allocator's segment tails count (est_reserved_slack). Hold-out round 5: Qwen3-14B at tp 4
  ** on 4 x RTX 4090 printed 7.08 GB against 6.90 GiB of parameters and rotary cache (0.178 GiB
  ** of 2 MiB segment tails), QwQ-32B at tp 4 on L4s 15.54 against 15.32 (0.220 GiB) */
  uint64_t reserve = est_reserved_slack(c);
  all = acc_add(&c->acc, all, reserve);
  uint64_t w = all > sp.weights ? all - sp.weights : 0; /* the target's own; the draft's apart */
  /* free memory when the runner starts: the total less the CUDA context and, at tp > 1, the
  ** communicators' buffers (ModelRunner measures it after init_torch_distributed:
  ** est_tp_comm_gib) */
  uint64_t comm = acc_from_double(&c->acc, est_tp_comm_gib(s) * (double)GIB);
  uint64_t taken = acc_add(&c->acc, s->cuda_context, comm);
  uint64_t free0 = s->gpu_memory > taken ? s->gpu_memory - taken : 0;
  uint64_t share = acc_from_double(&c->acc, g.fraction * (double)free0);
  /* what the share holds when the pool is sized: the target's weights, from 0.5.14 the
  ** draft's and its embedding / head copies too */
  uint64_t loaded = sp.era == 2 ? acc_add(&c->acc, all, sp.copies) : w;
  uint64_t pool = share > loaded ? share - loaded : 0;
  /* the pools (scripts/runtimes/sglang.lua sets the scenario's kv_dtype from kv_cache_dtype) */
  sg_pool p = {0};
  pool_cells(c, &p);
  if (sp.on && (p.conv_req + p.ssm_req)) {
    est_fail(c, "sglang: speculative decoding with a Mamba state pool is not modelled");
    return;
  }
  /* arch-mamba: an attention-free model (python/sglang/srt/models/mamba.py, mamba2.py,
  ** falcon_mamba.py: every layer a Mamba mixer) has no token pool to size: the pool arithmetic here
  ** (rest // bytes per token of the full-attention layers, max_running_requests at most tokens / 2)
  ** would give it 0 requests. How SGLang sizes its state pool and request limit without any
  ** attention layer was not read, so it is refused rather than guessed. */
  if (est_model_attention_free(c->m)) {
    est_fail(c, "sglang: an attention-free model (%s: Mamba layers only, no attention layer) is not modelled; "
                "use runtime vllm, llamacpp or transformers", c->m->arch);
    return;
  }
  double cell_t = p.cell; /* the target's own bytes per token */
  spec_cell(&sp, &p);
  mamba_slots(c, &p, &pool);
  uint64_t ctx = scn_u64(s, "runtime.context_length", s->context ? s->context : 1);
  /* before 0.5.11: headroom of the given (or 48) requests' draft and verify tokens + 100 */
  uint64_t head = 0;
  if (sp.on && sp.era == 0) {
    uint64_t r0 = scn_u64(s, "runtime.max_running_requests", scn_u64(s, "sglang.spec_max_reqs", 48));
    head = acc_add(&c->acc, acc_mul(&c->acc, r0, sp.steps * sp.topk + sp.ndraft), 100);
  }
  pool_tokens(c, &p, pool, g.page, head);
  uint64_t reqs = max_reqs(c, &p, ctx);
  uint64_t width = req_width(&sp, ctx, g.page);
  uint64_t req_pool = acc_mul3(&c->acc, reqs + 1, width, 4);
  /* what SGLang allocates: each pool its size plus one padding page */
  uint64_t full_rows = p.tokens + g.page, swa_rows = p.hybrid ? p.swa_tokens + g.page : 0;
  uint64_t k = acc_add(&c->acc, acc_mul(&c->acc, full_rows, p.k_full), acc_mul(&c->acc, swa_rows, p.k_swa));
  /* DeepSeek-V3.2 with an fp8 KV: NSATokenToKVPool allocates rows of kv_cache_dim 656 (the
  ** description's fp8_bytes: model_runner_kv_cache_mixin.py calculate_mla_kv_cache_dim, the
  ** FlashMLA fp8 layout) while the cell size above divides by kv_lora_rank + rope = 576 a layer:
  ** the pool takes 80 B a token and layer more than the profile counted. PR #11309's 8 x B200 log
  ** (V3.2-Exp, fp8_e4m3 by default on Blackwell): "#tokens: 975424, KV size: 43.67 GB" =
  ** (975,424 + 64) x 61 x (656 + 132) B = 43.67 GiB. */
  if (est_bits(s->kv_dtype) == 8)
    for (int i = 0; i < c->m->n_kv; i++) {
      const kv_group *kg = &c->m->kv[i];
      if (kg->fp8_bytes > kg->k_dim + kg->v_dim && kg->kind == KV_ATTN)
        k = acc_add(&c->acc, k, acc_mul3(&c->acc, full_rows, kg->fp8_bytes - kg->k_dim - kg->v_dim, bytes_ceildiv(kg->layers, s->pp)));
    }
  uint64_t v = acc_add(&c->acc, acc_mul(&c->acc, full_rows, p.v_full), acc_mul(&c->acc, swa_rows, p.v_swa));
  uint64_t kv = acc_add(&c->acc, k, v);
  /* the draft's pool: as many rows, its own layers (full attention) */
  uint64_t dk = sp.drafts ? acc_mul(&c->acc, full_rows, sp.k_tok) : 0;
  uint64_t dvb = sp.drafts ? acc_mul(&c->acc, full_rows, sp.v_tok) : 0;
  uint64_t dkv = acc_add(&c->acc, dk, dvb);
  uint64_t per_req = p.conv_req + p.ssm_req;
  uint64_t conv = per_req ? acc_mul(&c->acc, p.mamba + 1, p.conv_req) : 0;
  uint64_t ssm = per_req ? acc_mul(&c->acc, p.mamba + 1, p.ssm_req) : 0;
  uint64_t state = acc_add(&c->acc, conv, ssm);
  /* what the workload needs: its sequences' tokens at the pool's bytes per token, and the
  ** state slots for its requests (3 per request with the radix cache, and the padding slot) */
  uint64_t slots = scn_bool(s, "runtime.disable_radix_cache", false) ? 1 : 3;
  double seq_tokens = (double)s->context * (double)s->concurrency;
  uint64_t need = acc_add(&c->acc, acc_from_double(&c->acc, seq_tokens * cell_t),
                          per_req ? acc_mul(&c->acc, acc_mul(&c->acc, slots, s->concurrency) + 1, per_req) : 0);
  uint64_t need_d = sp.drafts ? acc_from_double(&c->acc, seq_tokens * (double)(sp.k_tok + sp.v_tok)) : 0;
  uint64_t pools = acc_add(&c->acc, kv, state);
  /* hybrid SWA: each pool against its own need (swa_need). SGLang sizes the SWA pool at
  ** int(ratio x N) for a full pool of N (pool_tokens), so the pools that hold the workload are
  ** N = max(full need, SWA need / ratio) tokens of cell_t bytes (all-SWA models: the SWA need) */
  uint64_t full_need_t = 0, swa_need_t = 0;
  if (p.hybrid) {
    swa_need(c, &p, g.chunk, g.page, &full_need_t, &swa_need_t);
    double nt = (double)swa_need_t;
    if (full_need_t) {
      nt = p.ratio > 0 ? ceil((double)swa_need_t / p.ratio) : (double)full_need_t;
      if (nt < (double)full_need_t) nt = (double)full_need_t;
    }
    need = acc_from_double(&c->acc, nt * cell_t);
  }
  budget_add(b, "weights", w, BASIS_EXACT, true, "per rank (tp %llu, pp %llu), %.3f GiB of it allocator segment tails",
             (unsigned long long)s->tp, (unsigned long long)s->pp, (double)reserve / GIB);
  if (sp.drafts) {
    budget_item *d = budget_add(b, "weights", sp.weights, BASIS_EXACT, true,
                                "speculative decoding draft (%s): the tensors SGLang's draft model keeps, embedding / "
                                "lm_head shared with the target where it shares them", sp.method);
    if (d) d->component = "draft";
  }
  /* the row holds the workload's need where it is more than the pool SGLang allocates: said
  ** first, as vLLM's row says it, since the pool's tokens x bytes that follow are less */
  char needed[96] = "";
  if (need > pools)
    snprintf(needed, sizeof needed, "needed by %llu sequences x %llu tokens, more than the ",
             (unsigned long long)s->concurrency, (unsigned long long)s->context);
  if (per_req)
    budget_add(b, "kv_cache", need > pools ? need : pools, BASIS_MODELLED, true,
               "%stoken pool %llu tokens x %.0f B + Mamba state %llu slots x %llu B (mem_fraction_static %.3f "
               "of %.2f GiB free)", needed, (unsigned long long)p.tokens, p.cell, (unsigned long long)p.mamba + 1,
               (unsigned long long)per_req, g.fraction, (double)free0 / GIB);
  else if (p.hybrid)
    budget_add(b, "kv_cache", need > pools ? need : pools, BASIS_MODELLED, true,
               "%sfull pool %llu tokens x %llu B + SWA pool %llu tokens x %llu B (mem_fraction_static %.3f of "
               "%.2f GiB free)", needed, (unsigned long long)p.tokens, (unsigned long long)(p.k_full + p.v_full),
               (unsigned long long)p.swa_tokens, (unsigned long long)(p.k_swa + p.v_swa), g.fraction,
               (double)free0 / GIB);
  else
    budget_add(b, "kv_cache", need > pools ? need : pools, BASIS_MODELLED, true,
               "%stoken pool: %llu tokens x %.0f B (mem_fraction_static %.3f of %.2f GiB free)", needed,
               (unsigned long long)p.tokens, cell_t, g.fraction, (double)free0 / GIB);
  if (sp.drafts) {
    budget_item *d = budget_add(b, "kv_cache", need_d > dkv ? need_d : dkv, BASIS_MODELLED, true,
                                "draft token pool: %llu tokens x %llu B (%llu draft layer(s)%s)",
                                (unsigned long long)p.tokens, (unsigned long long)(sp.k_tok + sp.v_tok),
                                (unsigned long long)sp.layers,
                                sp.era ? ", budgeted in the target's bytes per token" : ", outside mem_fraction_static");
    if (d) d->component = "draft";
  }
  budget_add(b, "workspace", req_pool, BASIS_EXACT, true,
             "req_to_token table: (%llu requests + 1) x (context %llu + %llu) x int32", (unsigned long long)reqs,
             (unsigned long long)ctx, (unsigned long long)(width - ctx));
  /* what the reserve must hold: one prefill chunk's forward through a layer, the CUDA graphs
  ** (sg_graph_bytes) and, with FlashInfer, its workspace */
  uint64_t a = est_bits(s->dtype) / 8;
  uint64_t pre =
      chunk_off ? (p.tokens < ctx ? p.tokens : ctx) : g.chunk; /* tokens one prefill forward holds */
  uint64_t act = sg_layer_bytes(c, pre, a);
  sg_graphs gr = {0};
  sg_graph_bytes(c, &sp, g.graph_bs, reqs, g.chunk, ctx, g.page, a, &gr);
  uint64_t nccl = acc_add(&c->acc, gr.nccl_decode, gr.nccl_pw);
  uint64_t graphs = acc_add(&c->acc, gr.pool,
                            acc_add(&c->acc, acc_add(&c->acc, gr.outputs, gr.attn), acc_add(&c->acc, gr.wrappers, gr.pw_nodes)));
  graphs = acc_add(&c->acc, graphs, gr.pw_out);
  graphs = acc_add(&c->acc, graphs, nccl);
  /* a prefill chunk that the piecewise graphs cover runs in their pool (counted there) */
  bool in_graphs = gr.n_pw && gr.pw_max >= g.chunk;
  if (chunk_off)
    budget_add(
        b, "activations", act, BASIS_MODELLED, true,
        "prefill of a whole request of %llu tokens through one layer (chunked prefill off for this model)",
        (unsigned long long)pre);
  else
    budget_add(b, "activations", in_graphs ? 0 : act, BASIS_MODELLED, true,
               "prefill chunk of %llu tokens through one layer%s (SGLang's own reserve for it: %.2f GiB)",
               (unsigned long long)g.chunk, in_graphs ? ": inside the piecewise CUDA graphs' pool" : "",
               1.5 * (double)(g.chunk > 2048 ? g.chunk : 2048) / 1024);
  char ncs[192] = "";
  if (gr.car_off && (gr.max_bs || gr.n_pw))
    snprintf(ncs, sizeof ncs, ", NCCL all-reduces captured %.2f (%llu a forward; custom all-reduce off: %s)",
             (double)nccl / GIB, (unsigned long long)est_graph_collectives(c), gr.car_off);
  char pws[64] = "";
  if (gr.pw_out) snprintf(pws, sizeof pws, ", their output buffer %.2f", (double)gr.pw_out / GIB);
  char pfs[96];
  if (gr.n_pw)
    snprintf(pfs, sizeof pfs, "%llu %s prefill size(s) to %llu tokens", (unsigned long long)gr.n_pw, gr.pf_backend,
             (unsigned long long)gr.pw_max);
  else /* sg_prefill_backend_why: the auto-disable rule that fired */
    snprintf(pfs, sizeof pfs, "no prefill graphs%s%s%s", gr.pf_off ? " (SGLang: " : "", gr.pf_off ? gr.pf_off : "",
             gr.pf_off ? ")" : "");
  if (gr.max_bs || gr.n_pw)
    budget_add(b, "cuda_graphs", graphs, BASIS_MODELLED, true,
               "%llu decode graph(s) to batch %llu%s, %s: shared pool %.2f GiB, "
               "logits outputs %.2f, %s graph state %.2f, prefill graphs %.2f%s%s",
               (unsigned long long)gr.n_decode, (unsigned long long)gr.max_bs,
               sp.on ? (sp.drafts ? " (target verify and draft)" : " (target verify)") : "", pfs,
               (double)gr.pool / GIB, (double)gr.outputs / GIB, gr.backend, (double)(gr.attn + gr.wrappers) / GIB,
               (double)gr.pw_nodes / GIB, pws, ncs);
  /* FlashInfer's global workspace, allocated with the backend after the token pool:
  ** python/sglang/global_config.py flashinfer_workspace_size, 384 MiB unless FLASHINFER_WORKSPACE_SIZE
  ** is set; the backend's own prefill / decode wrappers' 8 MiB int workspaces are not counted.
  ** Outside mem_fraction_static: it moves the required total, not the pool. Hold-out round 3
  ** saw free memory drop by 0.64 and 0.53 GiB between "Memory pool end" and "Capture cuda graph
  ** begin" with FlashInfer (QwQ-32B tp 4 on L4s, Llama-3.1-8B on a 24 GB card), 0.09 with FA3. */
  uint64_t attn_ws = strcmp(gr.backend, "flashinfer") == 0 ? 384 * MIB : 0;
  if (attn_ws)
    budget_add(b, "workspace", attn_ws, BASIS_ASSUMED, true, "FlashInfer attention workspace (global_config.py, 384 MiB)");
  est_fig(c, "attention_workspace_bytes", attn_ws);
  if (g.reserved_mib > 0)
    est_fig(c, "reserved_bytes", acc_from_double(&c->acc, g.reserved_mib * MIB));
  if (comm)
    budget_add(b, "comm_buffers", comm, BASIS_CALIBRATED, false, "NCCL%s and custom all-reduce buffers (tp %llu)",
               est_nvls(s) ? " NVLS" : "", (unsigned long long)s->tp);
  est_add_context(c, b, "CUDA context and loaded kernels");
  est_fig(c, "weights_bytes", w);
  est_fig(c, "weights_reserve_bytes", reserve);
  if (absorb) est_fig(c, "mla_absorbed_copy_bytes", absorb);
  if (fused) est_fig(c, "shared_expert_fusion_bytes", fused);
  if (mla_rep) est_fig(c, "mla_replicated_bytes", mla_rep);
  if (sg_attn_tp(s) != s->tp) {
    est_fig(c, "attention_tp_size", sg_attn_tp(s));
    est_fig(c, "dp_attention_weights_bytes", dp_attn);
  }
  /* "KV Cache is allocated. #tokens: N, K size, V size" (per sub-pool for hybrid SWA) and
  ** "Mamba Cache is allocated. max_mamba_cache_size: K, conv_state size, ssm_state size" */
  uint64_t tokens = p.hybrid && !p.tokens ? p.swa_tokens : p.tokens;
  est_fig(c, "kv_cache_bytes", kv);
  est_fig(c, "k_size_bytes", k);
  est_fig(c, "v_size_bytes", v);
  est_fig(c, "kv_cache_tokens", tokens);
  if (p.hybrid) {
    est_fig(c, "swa_kv_cache_tokens", p.swa_tokens);
    est_fig(c, "kv_tokens_needed", full_need_t);
    est_fig(c, "swa_kv_tokens_needed", swa_need_t);
    /* the --swa-full-tokens-ratio whose SWA pool just holds the SWA need beside the full need */
    if (full_need_t) est_fig_real(c, "swa_full_tokens_ratio_needed", (double)swa_need_t / (double)full_need_t);
  }
  if (per_req) {
    est_fig(c, "max_mamba_cache_size", p.mamba);
    est_fig(c, "mamba_conv_state_bytes", conv);
    est_fig(c, "mamba_ssm_state_bytes", ssm);
    est_fig(c, "mamba_state_bytes_per_request", per_req);
  }
  if (sp.on) {
    /* the draft worker's own "KV Cache is allocated" line: the same #tokens, its K / V sizes */
    est_fig(c, "draft_weights_bytes", sp.weights);
    est_fig(c, "draft_kv_cache_bytes", dkv);
    est_fig(c, "draft_k_size_bytes", dk);
    est_fig(c, "draft_v_size_bytes", dvb);
    est_fig(c, "kv_cell_bytes", (uint64_t)p.cell); /* bytes per token the profile divides by */
    if (sp.copies) est_fig(c, "draft_embed_copy_bytes", sp.copies);
    if (head) est_fig(c, "speculative_headroom_tokens", head);
    est_fig(c, "num_speculative_tokens", sp.steps);
    est_fig(c, "speculative_eagle_topk", sp.topk);
    est_fig(c, "speculative_num_draft_tokens", sp.ndraft);
  }
  est_fig(c, "max_running_requests", printed_reqs(c, &p, reqs));
  est_fig_real(c, "mem_fraction_static", g.fraction);
  if (g.vlm > 0) est_fig_real(c, "vlm_mem_fraction_factor", g.vlm);
  if (g.aiter) est_fig_real(c, "aiter_mem_fraction_factor", 0.85);
  if (g.piecewise_mib > 0) est_fig(c, "piecewise_reserved_bytes", (uint64_t)(g.piecewise_mib * MIB));
  if (chunk_off)
    est_fig_real(c, "chunked_prefill_size", -1); /* as SGLang prints it */
  else
    est_fig(c, "chunked_prefill_size", g.chunk);
  est_fig(c, "cuda_graph_max_bs", g.graph_bs);
  /* the capture: the two runners' "mem usage" lines, each as if captured first (the second
  ** one pays only what the shared pool's blocks cannot hold), and the sizes captured */
  est_fig(c, "cuda_graph_bytes", graphs);
  est_fig(c, "cuda_graph_decode_bytes", gr.decode);
  est_fig(c, "cuda_graph_piecewise_bytes", gr.piecewise);
  est_fig(c, "cuda_graph_decode_sizes", gr.n_decode);
  est_fig(c, "cuda_graph_piecewise_sizes", gr.n_pw);
  est_fig(c, "cuda_graph_prefill_output_bytes", gr.pw_out);
  if (s->tp > 1) {
    est_fig(c, "custom_all_reduce", gr.car_off ? 0 : 1);
    /* vLLM's figures: the captured sizes whose all-reduces NCCL runs, and the collectives a forward */
    est_fig(c, "cuda_graph_nccl_sizes", gr.car_off ? gr.n_decode : 0); /* none in the piecewise graphs */
    est_fig(c, "cuda_graph_nccl_collectives", est_graph_collectives(c));
  }
  double conc = (double)tokens / (double)(s->context ? s->context : 1);
  if (p.hybrid && p.tokens) { /* the SWA pool holds (its tokens - the prefill excess) / the decode hold requests */
    uint64_t dec, excess;
    swa_hold(c, &p, g.chunk, g.page, &dec, &excess);
    double cs = dec && p.swa_tokens > excess ? (double)(p.swa_tokens - excess) / (double)dec : 0.0;
    if (cs < conc) conc = cs;
  }
  est_fig_real(c, "max_concurrency", conc < (double)reqs ? conc : (double)reqs);
  est_fig(c, "context_length_fit", tokens); /* one request of at most the whole pool */
  c->e->peak_phase = "serving (token pool filled)";
  est_finish(c, b);
  /* SGLang takes mem_fraction_static of the free memory whatever the workload needs; for fit
  ** the workload needs its non-KV memory plus the KV of the requested sequences, and the
  ** fraction that would give the pool that KV is the launch flag that realises it (from 0.5.11
  ** the draft's KV is in the pool's bytes per token; from 0.5.14 its weights in the share) */
  uint64_t kv_all = budget_get(b, "kv_cache"); /* part of total: no underflow */
  c->e->required = acc_add(&c->acc, c->e->total - kv_all, acc_add(&c->acc, need, need_d));
  uint64_t need_share = sp.era && sp.drafts ? acc_from_double(&c->acc, seq_tokens * p.cell) : need;
  uint64_t static_need = acc_add(&c->acc, loaded, need_share);
  est_fig_real(c, "mem_fraction_static_needed", free0 ? (double)static_need / (double)free0 : 0.0);
  /* what SGLang multiplies a given --mem-fraction-static by (the aiter derate; before 0.4.9 a
  ** multimodal model's factor): the launch flag is the needed fraction over it, and a flag
  ** must stay below 1 (server_args.py), so the static share can reach at most 0.999 x factor of
  ** the free memory; a workload that needs more needs that much more GPU */
  double vg = scn_real(s, "sglang.vlm_factor_given", 0), kf = (g.aiter ? 0.85 : 1.0) * (vg > 0 ? vg : 1.0);
  est_fig_real(c, "mem_fraction_static_flag_factor", kf);
  uint64_t reach = acc_from_double(&c->acc, (double)static_need / (0.999 * kf));
  uint64_t req = acc_add(&c->acc, reach, s->gpu_memory > free0 ? s->gpu_memory - free0 : 0);
  if (req > c->e->required) c->e->required = req;
  /* the cap holds the same tokens on every GPU: a request longer than max_req_len (the pool's
  ** tokens - 1, above) is refused when it arrives ("Input length (N tokens) exceeds the maximum
  ** allowed length", managers/utils.py validate_input_length, unless --allow-auto-truncate cuts
  ** it), and sequences beyond the pool's tokens wait: no count of GPUs serves them */
  if (cap_pool && cap_pool - 1 < s->context)
    snprintf(c->e->refused, sizeof c->e->refused, "token cap < 1 request");
  else if (cap_pool && seq_tokens > (double)cap_pool)
    snprintf(c->e->refused, sizeof c->e->refused, "token cap < %llu seqs", (unsigned long long)s->concurrency);
}
