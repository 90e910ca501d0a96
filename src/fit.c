/*
** fit.c: verdicts and solvers per GPU (see fit.h). Each probe is a full estimate_run
** on a copy of the scenario; every quantity searched is monotone (more sequences,
** tokens or batch never need less memory), so bisection finds the largest that fits.
*/
#include "fit.h"
#include "estimate_int.h"

#include "gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* cuBLAS workspace of PyTorch's default handle: CUBLAS_WORKSPACE_CONFIG ":4096:8"
** (8 x 4 MiB) on Hopper and later, ":4096:2:16:8" (2 x 4 MiB + 8 x 16 KiB) before
** (torch/csrc/cuda/CublasHandlePool.cpp, getChainedWorkspaceSize). */
static uint64_t workspace_for(const gpu *g) {
  bool hopper_plus = strcmp(g->arch, "hopper") == 0 || strcmp(g->arch, "blackwell") == 0;
  return hopper_plus ? 8 * 4 * MIB : 2 * 4 * MIB + 8 * 16 * 1024;
}

/* CUDA context and kernels loaded outside PyTorch's allocator. Assumed, not measured
** per GPU: 1343 MiB was measured on a V100 by the transformers docs ("Model training
** anatomy", shared/calibration/training_diffusion_README.md), before CUDA 11.7 loaded
** modules lazily; later stacks load far less, and 500 MiB is assumed for them. */
static uint64_t context_for(const gpu *g) {
  bool old = strcmp(g->arch, "pascal") == 0 || strcmp(g->arch, "volta") == 0;
  return old ? 1343 * MIB : 500 * MIB;
}

void fit_device_scenario(const scenario *s, const gpu *g, scenario *out) {
  *out = *s;
  if (!s->cuda_context) out->cuda_context = context_for(g);
  if (!s->workspace) out->workspace = workspace_for(g);
  out->gpu_memory = g->memory;
  out->gpu_smi_memory = g->smi_memory;
  snprintf(out->gpu_arch, sizeof out->gpu_arch, "%s", g->arch);
  snprintf(out->gpu_name, sizeof out->gpu_name, "%s", g->name);
  snprintf(out->gpu_link, sizeof out->gpu_link, "%s", g->interconnect);
  snprintf(out->gpu_compute, sizeof out->gpu_compute, "%s", g->compute);
}

typedef struct probe {
  const model_desc *m;
  scenario s; /* modified per probe */
  uint64_t usable;
} probe;

/* what the host must hold beside the GPUs fits its memory less the headroom (only where the
** scenario gives it: runtime.host_memory) */
static bool host_fits(const estimate *e, const scenario *s) {
  return !e->host_limit || e->host_required <= (uint64_t)((double)e->host_limit * (1.0 - s->headroom));
}

static bool probe_fits(probe *p) {
  estimate e;
  char err[8];
  if (estimate_run(p->m, &p->s, &e, err, sizeof err) != 0) return false; /* overflow: too big */
  if (e.refused[0]) return false; /* a fixed pool no GPU can change */
  return e.required <= p->usable && host_fits(&e, &p->s); /* fit_verdict with the probe's usable bytes */
}

/* Largest v in [1, hi] with fits(v), where *field is the probed quantity; 0 if none. */
static uint64_t bisect(probe *p, uint64_t *field, uint64_t hi) {
  uint64_t saved = *field, lo = 0;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    *field = mid;
    if (probe_fits(p))
      lo = mid;
    else
      hi = mid - 1;
  }
  *field = saved;
  return lo;
}

/* Smallest power-of-two split that fits: tp for inference, dp for sharded training. */
static void fit_count(probe *p, fit_row *row) {
  bool train = p->s.kind == WL_TRAIN;
  /* FSDP's NO_SHARD splits nothing over dp (scripts/scenario.lua fsdp_sharding) */
  bool sharded = (p->s.strategy == STRAT_FSDP && !scn_bool(&p->s, "train.fsdp_no_shard", false)) ||
                 p->s.strategy >= STRAT_ZERO1;
  uint64_t *field = train ? &p->s.dp : &p->s.tp;
  uint64_t saved = *field;
  uint64_t cp = train ? scn_u64(&p->s, "train.cp", 1) : 1; /* context-parallel ranks per replica */
  if (train && !sharded) {
    row->count = row->fits ? p->s.tp * p->s.pp * p->s.dp * cp : 0;
    snprintf(row->layout, sizeof row->layout, "%s", row->fits ? "as given" : "needs a sharded strategy");
    return;
  }
  for (uint64_t n = 1; n <= FIT_MAX_COUNT; n *= 2) {
    *field = n;
    if (probe_fits(p)) {
      row->count = n * (train ? p->s.tp * p->s.pp * cp : p->s.pp);
      if (p->s.pp > 1)
        snprintf(row->layout, sizeof row->layout, "%s=%llu pp=%llu", train ? "dp" : "tp", (unsigned long long)n,
                 (unsigned long long)p->s.pp);
      else
        snprintf(row->layout, sizeof row->layout, "%s=%llu", train ? "dp" : "tp", (unsigned long long)n);
      break;
    }
  }
  *field = saved;
}

uint64_t fit_margin_bytes(const scenario *s) {
  if (!scn_bool(s, "runtime.fit_ctx", false) && !scn_bool(s, "runtime.fit_ngl", false)) return 0;
  return scn_u64(s, "runtime.fit_target_mib", 1024) * 1048576; /* --fit-target, common/common.h */
}

uint64_t fit_usable_bytes(const scenario *s, uint64_t memory) {
  /* llama.cpp's --fit keeps its own margin free on each GPU: a run it sizes (-c 0 or -ngl
  ** auto) is judged, and fit's flags are searched, by that margin */
  uint64_t margin = fit_margin_bytes(s);
  if (margin && memory > margin) return memory - margin;
  return (uint64_t)((double)memory * (1.0 - s->headroom));
}

uint64_t fit_usable(const scenario *s, const gpu *g) { return fit_usable_bytes(s, g->memory); }

bool fit_verdict(const estimate *e, const scenario *s, const gpu *g) {
  return !e->refused[0] && e->required <= fit_usable(s, g) && host_fits(e, s);
}

int fit_gpu(const model_desc *m, const scenario *s, const gpu *g, fit_row *row, char *err, size_t errlen) {
  scenario dev;
  estimate e;
  fit_device_scenario(s, g, &dev);
  if (estimate_run(m, &dev, &e, err, errlen) != 0) return -1;
  return fit_gpu_from(m, &dev, &e, g, row, err, errlen);
}

static const est_figure *fig_find(const estimate *e, const char *name) {
  for (int i = 0; i < e->n_figs; i++)
    if (strcmp(e->figs[i].name, name) == 0) return &e->figs[i];
  return NULL;
}

/* A runtime figure of e by name (0 when absent). */
static double fig(const estimate *e, const char *name) {
  const est_figure *f = fig_find(e, name);
  return !f ? 0 : f->is_real ? f->real : (double)f->value;
}

static bool has_fig(const estimate *e, const char *name) { return fig_find(e, name) != NULL; }

/* llama.cpp's --fit layout in the figures (fit_auto_split_<g>, and for a MoE model
** fit_auto_part_<g>, _ov_<g>, _ov_next_<g>: rt_llamacpp.c lc_fit_ngl) kept for the probes
** as runtime.fit_layout, "n_layer:n_part:classes:next" per GPU (a dense model's GPUs have no
** partial blocks, so their classes do not matter) */
static void fit_llamacpp_layout(const estimate *e, scenario *s) {
  enum { PER_GPU = 4 * 21 + 4 }; /* four numbers and separators */
  char out[LC_MAX_GPU * PER_GPU] = "", name[40];
  size_t len = 0;
  for (int g = 0; g < LC_MAX_GPU; g++) {
    snprintf(name, sizeof name, "fit_auto_split_%d", g);
    if (!has_fig(e, name)) break;
    double v[4];
    static const char *const part[4] = {"split", "part", "ov", "ov_next"};
    for (int k = 0; k < 4; k++) {
      snprintf(name, sizeof name, "fit_auto_%s_%d", part[k], g);
      v[k] = fig(e, name);
    }
    int n = snprintf(out + len, sizeof out - len, "%s%.0f:%.0f:%.0f:%.0f", g ? "," : "", v[0], v[1], v[2], v[3]);
    if (n < 0 || (size_t)n >= sizeof out - len) return;
    len += (size_t)n;
  }
  if (len) scn_set_str(s, "runtime.fit_layout", out);
}

/* Rounds a memory fraction up to `places` decimals, never below what the scenario set. */
static double frac_up(double need, double set, double scale) {
  double f = ceil(need * scale - 1e-9) / scale;
  return f > set ? f : set;
}

/* The serving runtime's launch flags that realise the workload at the row's count: vLLM's
** --tensor-parallel-size, --max-model-len and the --gpu-memory-utilization the KV of the
** requested sequences needs; SGLang's --tp, --context-length and --mem-fraction-static;
** llama.cpp's -ngl (the most layers that fit this GPU, output layer counted: the rest runs
** on the host, so it has flags even where the whole model does not fit) and -c. */
static void fit_launch(const model_desc *m, const scenario *s, const estimate *e0, fit_row *row) {
  bool lc = strcmp(s->runtime, "llamacpp") == 0, vl = strcmp(s->runtime, "vllm") == 0;
  row->launch[0] = '\0';
  if (!lc && !vl && strcmp(s->runtime, "sglang") != 0) return; /* no flags to give */
  if (!row->count && !lc) return;
  /* llama.cpp's flags are for this GPU alone; the others at the row's count, which is often
  ** the scenario's own layout: then its estimate serves */
  uint64_t tp = lc ? s->tp : row->count / (s->pp ? s->pp : 1);
  scenario *at = NULL;
  estimate *e1 = NULL;
  const estimate *e = e0;
  if (tp != s->tp) {
    char err[8];
    at = malloc(sizeof *at);
    e1 = malloc(sizeof *e1);
    if (!at || !e1) goto done;
    *at = *s;
    at->tp = tp;
    if (estimate_run(m, at, e1, err, sizeof err) != 0) goto done;
    e = e1;
  }
  unsigned long long ctx = s->context;
  if (vl) {
    unsigned long long mml = scn_u64(s, "runtime.max_model_len", ctx);
    unsigned long long pool = scn_u64(s, "runtime.kv_cache_memory_bytes", 0);
    int k;
    if (pool) /* the fixed pool: vLLM sizes the KV by it, not by the utilization (gpu_worker.py
              ** determine_available_memory), so the utilization is no flag of this workload */
      k = snprintf(row->launch, sizeof row->launch, "--tensor-parallel-size %llu --max-model-len %llu --kv-cache-memory-bytes %llu",
                   (unsigned long long)tp, mml, pool);
    else {
      double u = frac_up(fig(e, "gpu_memory_utilization_needed"), scn_real(s, "runtime.gpu_memory_utilization", 0.9), 100);
      k = snprintf(row->launch, sizeof row->launch, "--tensor-parallel-size %llu --max-model-len %llu --gpu-memory-utilization %.2f",
                   (unsigned long long)tp, mml, u);
    }
    /* the row's count is tp x pp: a pipeline-parallel layout needs its flag too */
    if (s->pp > 1 && k > 0 && (size_t)k < sizeof row->launch)
      k += snprintf(row->launch + k, sizeof row->launch - (size_t)k, " --pipeline-parallel-size %llu", (unsigned long long)s->pp);
    unsigned long long loras = scn_u64(s, "vllm.lora.max_loras", 0); /* multi-LoRA serving: its flags too */
    if (loras && k > 0 && (size_t)k < sizeof row->launch)
      snprintf(row->launch + k, sizeof row->launch - (size_t)k, " --enable-lora --max-loras %llu --max-lora-rank %llu%s", loras,
               (unsigned long long)scn_u64(s, "vllm.lora.rank", 16),
               scn_bool(s, "vllm.lora.fully_sharded", false) ? " --fully-sharded-loras" : "");
  } else if (!lc) {
    /* SGLang multiplies a given fraction by the aiter derate and, before 0.4.9, a multimodal
    ** model's factor (rt_sglang.c mem_fraction_static_flag_factor): the flag is the fraction
    ** over it, below 1 (the estimate's required memory made the row need more GPUs otherwise) */
    double k = has_fig(e, "mem_fraction_static_flag_factor") ? fig(e, "mem_fraction_static_flag_factor") : 1;
    double f = frac_up(fig(e, "mem_fraction_static_needed") / k, fig(e, "mem_fraction_static") / k, 1000);
    if (f > 0.999) f = 0.999;
    int n = snprintf(row->launch, sizeof row->launch, "--tp %llu --context-length %llu --mem-fraction-static %.3f",
                     (unsigned long long)tp, (unsigned long long)scn_u64(s, "runtime.context_length", ctx), f);
    unsigned long long cap = scn_u64(s, "runtime.max_total_tokens", 0); /* the scenario's cap on the pool */
    if (cap && n > 0 && (size_t)n < sizeof row->launch)
      n += snprintf(row->launch + n, sizeof row->launch - (size_t)n, " --max-total-tokens %llu", cap);
    /* DP attention where dp_size divides this tp, the shared-expert fusion at this tp
    ** (est_sglang_attn_tp, rt_sglang.c sg_shared_fusion_bytes) */
    if (est_sglang_attn_tp(s, tp) != tp && n > 0 && (size_t)n < sizeof row->launch)
      n += snprintf(row->launch + n, sizeof row->launch - (size_t)n, " --enable-dp-attention --dp-size %llu",
                    (unsigned long long)scn_u64(s, "runtime.dp_size", 0));
    if (scn_u64(s, "runtime.n_share_experts_fusion", 0) && n > 0 && (size_t)n < sizeof row->launch)
      snprintf(row->launch + n, sizeof row->launch - (size_t)n, " --n-share-experts-fusion %llu",
               (unsigned long long)tp);
  } else if (has_fig(e, "fit_auto_moe_gpu_layers") && fig(e, "fit_auto_n_gpu_layers") >= 1) {
    /* --fit placed a MoE model: the flags that give the same memory by hand (--n-cpu-moe moves
    ** the first layers' experts where --fit moves the last ones'; the layers are alike) */
    double keep = fig(e, "fit_auto_moe_gpu_layers");
    if (keep < 1)
      snprintf(row->launch, sizeof row->launch, "-ngl %.0f --cpu-moe -c %.0f", fig(e, "fit_auto_n_gpu_layers"), fig(e, "n_ctx"));
    else
      snprintf(row->launch, sizeof row->launch, "-ngl %.0f --n-cpu-moe %.0f -c %.0f", fig(e, "fit_auto_n_gpu_layers"),
               (double)m->layers - keep, fig(e, "n_ctx"));
  } else if (tp > 1 && has_fig(e, "fit_auto_part_0")) {
    /* --fit spread a MoE model's experts over the GPUs and the host, layer by layer: no -ngl,
    ** --tensor-split or --n-cpu-moe writes that; --fit itself (on by default) does */
    snprintf(row->launch, sizeof row->launch, "--fit on -c %.0f", fig(e, "n_ctx"));
  } else if (fig(e, "fit_n_cpu_moe") >= 1 && fig(e, "fit_n_cpu_moe") <= m->layers) {
    /* a MoE model that fits with its attention, KV and some layers' experts on the GPU:
    ** every layer offloaded (llama.cpp's -ngl counts a GGUF's MTP blocks, n_layer_nextn, and
    ** the output layer), the experts of the first N on the host */
    unsigned long long all = (unsigned long long)m->layers + scn_u64(s, "runtime.n_layer_nextn", 0) + 1;
    snprintf(row->launch, sizeof row->launch, "-ngl %llu --n-cpu-moe %.0f -c %.0f", all,
             fig(e, "fit_n_cpu_moe"), fig(e, "n_ctx"));
  } else if (tp > 1 && has_fig(e, "fit_auto_split_0")) {
    /* --fit split a dense model over the GPUs: its -ngl and tensor_split by hand */
    char split[160] = "";
    size_t len = 0;
    for (uint64_t g = 0; g < tp && g < LC_MAX_GPU && len < sizeof split; g++) {
      char name[32];
      snprintf(name, sizeof name, "fit_auto_split_%llu", (unsigned long long)g);
      int k = snprintf(split + len, sizeof split - len, "%s%.0f", g ? "," : "", fig(e, name));
      if (k < 0) break;
      len += (size_t)k;
    }
    snprintf(row->launch, sizeof row->launch, "-ngl %.0f --tensor-split %s -c %.0f", fig(e, "fit_auto_n_gpu_layers"), split,
             fig(e, "n_ctx"));
  } else if (e->host_backend) {
    /* llama.cpp's CPU backend: no layer on a GPU (a build with GPUs would offload by default) */
    snprintf(row->launch, sizeof row->launch, "-ngl 0 -c %.0f", fig(e, "n_ctx"));
  } else if (fig(e, "fit_n_gpu_layers") > 0) {
    /* the scenario's own -ngl where this GPU holds it (the row was judged at it), else the
    ** most layers that fit (scripts/runtimes/llamacpp.lua leaves 999 where none is given) */
    double ngl = fig(e, "fit_n_gpu_layers"), given = (double)scn_u64(s, "runtime.n_gpu_layers", 999);
    snprintf(row->launch, sizeof row->launch, "-ngl %.0f -c %.0f", given < ngl ? given : ngl, fig(e, "n_ctx"));
  }
  /* llama-server's -np auto is 4 sequences on one unified cache: the scenario's sequences
  ** stated (--kv-unified when they share one stream) */
  size_t used = strlen(row->launch);
  if (lc && used > 0 && used < sizeof row->launch)
    snprintf(row->launch + used, sizeof row->launch - used, " -np %llu%s",
             (unsigned long long)(s->concurrency ? s->concurrency : 1),
             scn_bool(s, "runtime.kv_unified", false) ? " -kvu" : "");
done:
  free(at);
  free(e1);
}

int fit_gpu_from(const model_desc *m, const scenario *s, const estimate *e, const gpu *g, fit_row *row, char *err,
                 size_t errlen) {
  probe p;
  memset(&p, 0, sizeof p);
  p.m = m;
  p.s = *s;
  p.s.fit_probe = true; /* a probe needs the total, not the runtime's own -ngl / -c search */
  memset(row, 0, sizeof *row);
  row->g = *g;
  row->usable = fit_usable(s, g);
  p.usable = row->usable;
  row->total = e->total;
  row->fits = fit_verdict(e, s, g);
  row->used_fraction = (double)e->total / (double)g->memory;
  if (s->kind == WL_IMAGE || s->kind == WL_VIDEO) {
    /* generation: the least offload mode that fits, then how large and how long */
    gen_fit gf;
    if (!gen_fit_gpu(m, &p.s, row->usable, &gf)) {
      snprintf(err, errlen, "fit on %s: an estimate failed", g->name);
      return -1;
    }
    row->count = gf.offload ? 1 : 0;
    /* "-": no offload mode the runtime offers fits this GPU at the scenario's size */
    snprintf(row->layout, sizeof row->layout, "%s%s", gf.offload ? "offload=" : "-", gf.offload ? gf.offload : "");
    row->max_width = gf.max_width;
    row->max_height = gf.max_height;
    row->max_frames = gf.max_frames;
    return 0;
  }
  if (s->kind == WL_TRAIN && scn_str(s, "train.fp8", NULL) && !g->fp8 && strcmp(g->arch, "unknown") != 0) {
    /* fp8 training on a GPU without fp8 tensor cores (scripts/gpus.lua fp8 = false): it
    ** does not run there at any size (a named GPU is refused by scripts/scenario.lua) */
    row->fits = false;
    snprintf(row->layout, sizeof row->layout, "%s", "no fp8 support");
    return 0;
  }
  /* llama.cpp's --fit: the probes take the context (-c 0) and the layers (-ngl auto) the
  ** estimate resolved on this GPU */
  if (scn_bool(s, "runtime.fit_ctx", false) && fig(e, "n_ctx") >= 1)
    p.s.context = (uint64_t)fig(e, "n_ctx") / (s->concurrency ? s->concurrency : 1);
  /* (the fit_auto_* figures exist only where runtime.fit_ngl searched: rt_llamacpp.c lc_fit_ngl) */
  if (has_fig(e, "fit_auto_n_gpu_layers")) {
    scn_set_u64(&p.s, "runtime.n_gpu_layers", (uint64_t)fig(e, "fit_auto_n_gpu_layers"));
    fit_llamacpp_layout(e, &p.s);
  }
  fit_count(&p, row);
  if (!row->count && !host_fits(e, s)) /* the GPUs would hold it; the host cannot hold the rest */
    snprintf(row->layout, sizeof row->layout, "%s", "host memory");
  /* the runtime's fixed pool, not the GPU, at the scenario's layout: said where no count serves
  ** it. vLLM's kv_cache_memory_bytes is each worker's pool, so more tensor-parallel ranks (each
  ** holding kv_heads / tp of every token) can hold what one cannot; fit_count's probes re-estimate
  ** every count, and a count they found is the row's layout */
  if (e->refused[0] && !row->count)
    snprintf(row->layout, sizeof row->layout, "%s", e->refused);
  if (e->host_backend) /* llama.cpp's CPU backend: the host, no GPUs to count */
    snprintf(row->layout, sizeof row->layout, "%s", row->fits ? "CPU backend" : "-");
  if (s->kind == WL_INFERENCE) {
    uint64_t max_ctx = m->max_position ? m->max_position : 1ull << 30;
    row->max_concurrency = bisect(&p, &p.s.concurrency, 1ull << 24);
    /* SGLang runs at most max_running_requests at once (48 with speculative decoding) */
    double reqs = strcmp(s->runtime, "sglang") == 0 ? fig(e, "max_running_requests") : 0;
    if (reqs >= 1 && (double)row->max_concurrency > reqs) row->max_concurrency = (uint64_t)reqs;
    /* arch-mamba: vLLM before the hybrid allocator (V0) with an attention-free model caches no
    ** blocks (CacheEngine: 0 attention layers, 0 blocks) and holds the state of max_num_seqs slots in
    ** its MambaCacheManager whatever the load, so memory bounds nothing: at most max_num_seqs run */
    double v0_seqs = strcmp(s->runtime, "vllm") == 0 && has_fig(e, "mamba_cache_bytes") && fig(e, "num_gpu_blocks") == 0
                         ? fig(e, "max_num_seqs") : 0;
    if (v0_seqs >= 1 && (double)row->max_concurrency > v0_seqs) row->max_concurrency = (uint64_t)v0_seqs;
    uint64_t saved_prompt = p.s.prompt_tokens;
    p.s.prompt_tokens = 0;
    row->max_context = bisect(&p, &p.s.context, max_ctx);
    p.s.prompt_tokens = saved_prompt;
    fit_launch(m, s, e, row);
  } else {
    row->max_micro_batch = bisect(&p, &p.s.micro_batch, 1ull << 16);
    row->max_seq_len = bisect(&p, &p.s.seq_len, m->max_position ? m->max_position : 1ull << 24);
  }
  return 0;
}
