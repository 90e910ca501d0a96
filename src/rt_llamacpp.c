/*
** rt_llamacpp.c: llama.cpp's backend buffers for one scenario: the model buffers per
** device as its loader assigns tensors (src/llama-model.cpp load_tensors), the KV buffer
** (src/llama-kv-cache.cpp), the compute buffers of the worst-case graph reserve
** (src/llama-context.cpp) and the host output buffer; the -ngl and -c that fit the
** scenario's GPU. Knobs arrive as extras "runtime.*" (scripts/runtimes/llamacpp.lua).
** Uses estimate_int.h and ggml_types.h.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate_int.h"
#include "fit.h"
#include "ggml_alloc_sim.h"
#include "ggml_types.h"
#include "rules.h"

#define LC_CPU_ALIGN 32   /* TENSOR_ALIGNMENT of the CPU buffer types (ggml-cpu) */
#define LC_CUDA_ALIGN 128 /* ggml_backend_cuda_buffer_type_get_alignment */
#define LC_ROW_PAD 512    /* MATRIX_ROW_PADDING of ggml-cuda (quantized rows) */
#define LC_N_COPIES 4     /* GGML_SCHED_MAX_COPIES: pipeline parallelism over GPUs */
#define LC_MAX_LAYERS 1024
/* Builds where behaviour changed. Approximate release numbers (assumed, not bisected):
** the iSWA cache with its own SWA size (PR #13194, May 2025), per-sequence KV streams
** with kv_unified off by default (PR #14363, July 2025), n_ctx padded to 256 whatever
** flash attention (the late-2025 llama_context constructor; b4385 pads 256 with flash
** attention, else 32: llama_kv_cache_get_padding). 0 means the newest. */
#define LC_B_ISWA 5300
/* the SWA cache's cells hold n_ubatch new tokens, not n_batch (PR #13833, lc_cells): b5452
** (2025-05-22, issue #13703) predates it; the first build with it assumed, not bisected */
#define LC_B_SWA_UBATCH 5560
#define LC_B_STREAMS 5900
#define LC_B_PAD256 6500
#define LC_B_REPACK_Q4K 4700 /* the CPU backend repacks Q4_K (Q4_0 since b4300) */
/* the compute buffers are replayed through ggml-alloc (ggml_alloc_sim.c) over the late-2025
** graph (llm_graph_context with the fused GLU ops of PR #14158 "ggml : implement
** REGLU/GEGLU/SWIGLU ops", reviewed 2025-06-13, its follow-ups #14456 and #14483 of 2025-06-30
** and 2025-07-01: https://github.com/ggml-org/llama.cpp/pull/14158) from this build; before it
** the b4385 graph (llama / neox layers) or the formula. A b6168 (092fd845) llama-server log of
** GLM-4.5-Air (-c 131072 -ub 4096 -fa, one GPU) prints this graph's buffers to the 0.01 MiB
** (CUDA0 3584.09, CUDA_Host 2112.11; the formula gave 2496.00), while a b5622 log (Qwen3-30B-A3B
** with its experts on the host) was 2.01 MiB under it on both, and is exact since the
** ggml_cpy stores of LC_B_SET_ROWS (round 23). The first build assumed, not
** bisected. The Hadamard rotation of quantized K/V rows (PR #21038, 2026) from LC_B_ATTN_ROT
** (assumed, not bisected) */
#define LC_B_GRAPH_SIM 5780
#define LC_B_ATTN_ROT 8500
/* the fused GATED_DELTA_NET op (PR #19504, merged 2026-02-11, a week after b7841:
** https://github.com/ggml-org/llama.cpp/pull/19504; build assumed, not bisected): before it
** the DeltaNet layers ran the chunked scan's ops, which the replay does not build */
#define LC_B_FUSED_GDN 8000
/* PR #23861 (commit de6f727aa, 2026-06-01; tag b9442 = d4c8e2c29 lacks it, b9479 =
** 0b7154066 has it: https://github.com/ggml-org/llama.cpp/pull/23861): sched_reserve
** reserves the prompt graph for min(n_ubatch, n_outputs_max) output rows instead of every
** token (n_outputs_max: 0 = n_batch in llama_context_params), and llama-server sets
** n_outputs_max to n_parallel x (1 + draft tokens), n_batch with embeddings or pooling
** (server_output_limits). The first tag after b9442 assumed: not bisected. */
#define LC_B_OUTPUTS_MAX 9443
/* PR #25952 "cuda: fuse MoE weighted expert reduction" (merged 2026-09-01:
** https://github.com/ggml-org/llama.cpp/pull/25952): the CUDA backend's graph_optimize keeps
** a MoE layer's expert outputs and weights allocated until the reduction's last add, so the
** weighting MUL takes a buffer of its own. A fork's allocator count (Qwen3.6-35B-A3B, ctx
** 65536, ubatch 8192: +537,427,968 B of CUDA compute buffer, GGML_CUDA_DISABLE_FUSION=1
** restores it, https://github.com/GenerelSchwerz/llama.cpp/issues/80) is what the replay
** gives, to the byte (tests/test_llamacpp.c test_cuda_moe_reduce).
** Build 10621 is of 2026-08-30 (llama.cpp issue #28018): the first build with the PR is
** assumed, not bisected */
#define LC_B_MOE_REDUCE 10640
/* MTP support: the hybrids take their output rows after the output norm, which stays whole
** as t_h_nextn; before, in the last layer as llama does. Two May 2026 CUDA logs of
** Qwen3.6-27B at the 512-row logits moment print 495 MiB (one of 2026-05-16 already makes an
** MTP draft context), 10 MiB (the norm's rows) under the 505 of the later graph (an August
** 2026 print, and 80fb11a on the CPU). qwen35 / qwen35moe: at b9180, the release that
** carried the updated MTP support (lmstudio-ai/lmstudio-bug-tracker#1924, 2026-05-17),
** assumed; qwen3next with its MTP (PR #25589, about 2026-07-12), assumed. Not bisected */
#define LC_B_MTP_QWEN35 9180
#define LC_B_MTP_QWEN3NEXT 9900
/* PR #23764 "use f16 mask for FA" (opened 2026-05-27; #23864 of 2026-05-29 builds on it:
** https://github.com/ggml-org/llama.cpp/pull/23764): before it the graph reserved the KQ
** mask in f32 and cast it to f16 for flash attention. b9293 (2026-05-22, issue #23546)
** predates it; the first build with it is assumed, not bisected */
#define LC_B_F16_MASK 9380
/* PR #23907 "cuda: reserve space for quantize kv-cache at startup" (f8f0a47a5, opened
** 2026-05-30, its parent 06938ac12; issue #24166 of 2026-06-05 reports it:
** https://github.com/ggml-org/llama.cpp/pull/23907): the CUDA flash-attention output reserves
** f16 copies of a non-f16 K/V cache in the compute buffer; before it they came from the CUDA
** pool at run time, outside ggml's buffers. The first build with it is assumed, not bisected */
#define LC_B_FA_F16 9461
/* PR #14959 "llama : enable LLAMA_SET_ROWS=1 by default" (opened 2025-07-30, merged in early
** August 2025: https://github.com/ggml-org/llama.cpp/pull/14959; PR #14285 of 2025-06-20 had
** added the ggml_set_rows path behind the variable, PR #15505 of 2025-08-22 removed the old
** one). Before it the cache stores were ggml_cpy into a view of the cache at head, with no
** k_idxs / v_idxs graph inputs: without flash attention v_idxs is n_ubatch x n_embd_v_gqa
** int64 in the host's compute buffer (4 MiB for Qwen3 at -ub 512). Build 6019 (8ad7b3e6,
** 2025-07-28) still prints "LLAMA_SET_ROWS=0, using old ggml_cpy() method"
** (ROCm/legacy-rocm-build#5104); the first build with the PR is assumed, not bisected */
#define LC_B_SET_ROWS 6070
/* PR #14208 "llama : rework embeddings logic" (opened 2025-06-16, between b5622 of 2025-06-10
** and b5699 of 2025-06-19: https://github.com/ggml-org/llama.cpp/pull/14208, "Support logits +
** embeddings output"): llama_context::output_reserve reserves logits always and, with
** cparams.embeddings, n_embd floats per row as well (has_logits = true, has_embd =
** cparams.embeddings); before, has_logits = !cparams.embeddings and has_embd =
** cparams.embeddings && pooling_type == NONE. The first build with it assumed, not bisected */
#define LC_B_EMBD_LOGITS 5690
/* ollama's "embeddings" patch (output_reserve: has_logits = cparams.causal_attn, where mainline
** had !cparams.embeddings until LC_B_EMBD_LOGITS) came with ollama/ollama 8f8e736 ("update
** llama.cpp submodule to `d7fd29f`", PR #5475, 2024-07-05: llm/patches/07-embeddings.diff),
** whose llama.cpp d7fd29f is b3305 (ggml-org/ci's logs of that commit print "build = 3305
** (d7fd29ff)"). It stayed through the renames: llm/patches/0006-embeddings.patch (7bd7b02,
** 2024-09-16, at llama.cpp 8962422 = b3661), llama/patches/05-embeddings.diff when the llama
** package came back (96efd90, 2024-10-08), 0005-embeddings.patch, 0003-embeddings.patch
** (527cc97, 2024-12-10), until mainline had both (1a19df1, 2025-08-14). An ollama build before
** b3305 keeps mainline's rule. */
#define LC_B_OLLAMA_EMBD 3305
/* PR #18898 "graph : utilize ggml_build_forward_select() to avoid reallocations" (opened
** 2026-01-17, reviewed 2026-01-18: https://github.com/ggml-org/llama.cpp/pull/18898; b7770 is
** of 2026-01-18, b7779 of 2026-01-20): build_inp_embd (src/llama-graph.cpp) makes both the
** tokens and the f32 embeddings input (inp_embd, n_embd x n_ubatch) graph inputs and selects
** the tokens' get_rows with ggml_build_forward_select, so the unused inp_embd is a leaf in the
** host's compute buffer. Before, it built one path: `if (ubatch.token) { tokens, get_rows }
** else { inp->embd }` (llama.cpp ec98e2002 of 2025-12-16 as vendored by ollama 0.20.2,
** llama/llama.cpp/src/llama-graph.cpp). The first build with it is assumed, not bisected */
#define LC_B_EMBD_SELECT 7775
/* "llama: offload output layer to GPU first" (PR #18148, merged 2025-12-17): -ngl N puts the
** output layer and the last N - 1 repeating layers on the GPUs, where it was the last N
** repeating layers and the output layer only from N > n_layer. b7470 assumed (ollama's pin of
** 2025-12-16 is b7440), not bisected. A Qwen3.5-27B log of b8586 (-ngl 26) holds every
** buffer to the printed MiB with it (tests/test_llamacpp.c test_hybrid_partial_offload). */
#define LC_B_OUTPUT_FIRST 7470
/* PR #19067 "kv-cache : support V-less cache" (ggerganov, merged 2026-01-24:
** https://github.com/ggml-org/llama.cpp/pull/19067): an MLA model's (deepseek2, glm4moe-lite)
** cache holds only the K rows (kv_lora_rank + rope) and V is a view of them. Before it, from
** PR #12801 (MLA in mainline, April 2025), llama_kv_cache allocated a V cache of
** n_embd_v_gqa = kv_lora_rank (the file's attention.value_length) per cell and layer beside
** K: DeepSeek-V3-0324 at b5331, 16384 cells, 61 layers prints K (f16) 1098.00 MiB and
** V (f16) 976.00 MiB (tests/test_llamacpp.c test_mla_v_cache). b7770 is of 2026-01-18 and
** b7841 of early February: the first build with the PR is assumed, not bisected */
#define LC_B_VLESS 7810

/* model: the device's own model buffer ("CUDA<g> model buffer size"); split: with split_mode
** row the split buffer of the layers on it ("CUDA<g>_Split model buffer size", whose rows sit on
** every GPU); split_rows: the rows of every split buffer this GPU holds */
typedef struct lc_dev {
  uint64_t model, split, split_rows, kv, rs, compute;
} lc_dev;

/* One GPU's share under llama.cpp's --fit (common/fit.cpp ngl_t): n_layer blocks in order
** (the last GPU's include the output layer), of which the last n_part are partial: the
** first of them overflows the FFN classes in ov (LC_PART_*) to the next GPU when ov_next,
** else to the host; the others their routed experts (LC_PART_X) to the host. */
typedef struct lc_ngl {
  uint64_t n_layer, n_part;
  unsigned ov;
  bool ov_next;
} lc_ngl;

typedef struct lc_layout {
  lc_ngl d[LC_MAX_GPU];
} lc_layout;

typedef struct lc {
  ectx *c;
  const scenario *s;
  const model_desc *m;
  uint64_t build, n_layer, n_ctx, n_seq, n_stream, n_ctx_seq, n_ub, ngl;
  uint64_t n_b;       /* n_batch, at most n_ctx (lc_set_ctx) */
  uint64_t n_vocab;   /* the GGUF's vocabulary: its token_embd rows (lc_vocab) */
  uint64_t n_nextn;   /* a GGUF's MTP blocks after the n_layer trunk (runtime.n_layer_nextn) */
  uint64_t n_rs_seq;  /* recurrent-state snapshots per sequence for rollback (runtime.n_rs_seq, lc_rs) */
  uint64_t n_layer_all; /* n_layer + n_nextn: the blocks -ngl counts (all + 1 with the output layer) */
  uint64_t n_cpu_moe; /* --n-cpu-moe: the expert weights of layers below it stay on the host */
  bool moe;               /* the model has routed experts (ROLE_EXPERT tensors) */
  bool exps_bias;         /* ... with biases (gpt-oss: ADD_ID after each expert product) */
  bool qkv_bias, probs_b; /* the other weights the graph's optional ops read: Q/K/V biases, the
                          ** experts' selection bias */
  bool gate_up_exps;     /* a GGUF's fused ffn_gate_up_exps (one MUL_MAT_ID, then gate and up views) */
  bool laid;              /* --fit's per-GPU layout (lay) places the layers */
  lc_layout lay;
  unsigned ov_cls[LC_MAX_LAYERS]; /* per layer: the FFN classes lay moves (LC_PART_*; 0 none) */
  int ov_dev[LC_MAX_LAYERS];      /* ... to this device (-1 the host) */
  rules *ot;                      /* -ot / --override-tensor: PCRE2 patterns in order, each rule's value
                                  ** the device of its buffer type (-1 the host); NULL without */
  bool ot_other;                  /* ... one matched a tensor that is no routed expert of a trunk layer */
  signed char ot_x[LC_MAX_LAYERS]; /* per layer: 1 its routed experts matched (to ot_xdev), 2 to
                                   ** several devices */
  int ot_xdev[LC_MAX_LAYERS];
  bool mmproj_on;     /* the vision tower and projector as llama-server --mmproj loads them */
  uint32_t mmproj;    /* ... in this ggml type (the mmproj file's) */
  bool fa, mmap, cpu, offload_kqv, amx, avx2, embeddings, ollama;
  bool metal;             /* runtime.gpu_backend "metal": the GPU's weights are mapped from the file (lc_weights) */
  bool legacy_swa;        /* sliding-window layers before the iSWA cache (LC_B_ISWA): the graph's
                          ** second mask, KQ_mask_swa (lc_graph_shape, lc_compute_gpu) */
  const ggml_type_info *tk, *tv;
  int n_gpu;
  double cum[LC_MAX_GPU]; /* cumulative tensor_split fractions */
  bool row;               /* split_mode row: 2-D matmul weights in the layer device's split buffer */
  float row_split[LC_MAX_GPU]; /* ... whose rows start at these fractions on each GPU (ggml-cuda's
                               ** tensor_split array: float, exclusive prefix sums) */
  int64_t row_round;      /* ... at multiples of this many rows (get_row_rounding) */
  lc_dev gpu[LC_MAX_GPU];
  uint64_t host_mapped, host_repack, host_amx, host_kv, host_rs, host_compute, output, mmproj_bytes;
  uint64_t host_plain; /* the host tensors read in place (mapped or not), not their mapped range */
  bool replayed;   /* the compute buffers come from the allocator replay */
  bool exact;      /* ... and nothing the replay leaves out applies (see lc_compute_replay) */
  const char *inexact; /* why a replay is not exact */
  int graph_nodes, graph_splits;
} lc;

static bool lc_newer(const lc *l, uint64_t b) {
  return l->build == 0 || l->build >= b;
}

/* ---------------------------------------------------------------- options */

static const ggml_type_info *lc_cache_type(lc *l, const char *key) {
  const char *name = scn_str(l->s, key, "f16");
  const ggml_type_info *t = ggml_type_by_name(name);
  if (!t) est_fail(l->c, "%s: unknown cache type '%s' (f32, f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1)", key, name);
  return t;
}

/* the GPUs' cumulative fractions of proportions v (sum > 0), llama.cpp's splits */
static void lc_cum(lc *l, const double *v, int n, double sum) {
  double acc = 0;
  for (int i = 0; i < n; i++) l->cum[i] = (acc += v[i]) / sum;
  l->n_gpu = n;
}

/* the tensor_split --fit writes: the layers of each GPU (llama.cpp places them in order, the
** last GPU the last layers and the output), -ngl their sum */
static void lc_set_counts(lc *l, const uint64_t *n) {
  double v[LC_MAX_GPU], sum = 0;
  for (int g = 0; g < l->n_gpu; g++) v[g] = (double)n[g], sum += v[g];
  l->ngl = (uint64_t)sum;
  if (sum > 0) lc_cum(l, v, l->n_gpu, sum);
}

static uint64_t lc_gpu_start(const lc *l);

/* --fit's layout applied (common/fit.cpp set_ngl_tensor_split_tbo): -ngl the GPUs' blocks,
** tensor_split their counts, and the overrides of the partial layers by position: from
** block n_layer_all + 1 - ngl, each GPU's full blocks, then its partial ones. On the last GPU
** that range ends at the output layer's index, which has no FFN: one real partial layer
** fewer than n_part, so a dense-only fill (step 3) leaves that GPU's first block its experts. */
static void lc_apply_layout(lc *l) {
  memset(l->ov_cls, 0, sizeof l->ov_cls);
  if (!l->laid) return;
  uint64_t n[LC_MAX_GPU];
  for (int g = 0; g < l->n_gpu; g++) n[g] = l->lay.d[g].n_layer;
  lc_set_counts(l, n);
  uint64_t il = lc_gpu_start(l);
  for (int g = 0; g < l->n_gpu; g++) {
    const lc_ngl *d = &l->lay.d[g];
    il += d->n_layer - d->n_part;
    for (uint64_t k = 0; k < d->n_part; k++, il++) {
      if (il >= LC_MAX_LAYERS) continue;
      l->ov_cls[il] = k == 0 ? d->ov : LC_PART_X;
      l->ov_dev[il] = k == 0 && d->ov_next && g + 1 < l->n_gpu ? g + 1 : -1;
    }
  }
}

/* runtime.fit_layout, how fit's probes keep the layout --fit chose: per GPU
** "n_layer:n_part:ov:next" (ov LC_PART_* classes, next 1 when they go to the next GPU). A
** layout for another number of GPUs (fit's count search tries fewer) places nothing. */
static void lc_read_layout(lc *l) {
  const char *t = scn_str(l->s, "runtime.fit_layout", "");
  lc_layout y;
  memset(&y, 0, sizeof y);
  int g = 0;
  for (const char *p = t; *p; g++) {
    unsigned long long nl, np;
    unsigned ov;
    int next, len = 0;
    if (g >= LC_MAX_GPU || sscanf(p, "%llu:%llu:%u:%d%n", &nl, &np, &ov, &next, &len) != 4 || np > nl) {
      est_fail(l->c, "runtime.fit_layout: expected n_layer:n_part:classes:next per GPU, got '%s'", t);
      return;
    }
    y.d[g] = (lc_ngl){nl, np, ov, next != 0};
    p += len;
    if (*p == ',') p++;
  }
  l->laid = g > 0 && g == l->n_gpu;
  if (l->laid) l->lay = y;
}

/* tensor_split "3,1" -> cumulative fractions; the GPU count comes from it, else from
** parallel.tp x pp (equal shares: llama.cpp splits by free memory by default) */
static void lc_split(lc *l) {
  const char *ts = scn_str(l->s, "runtime.tensor_split", "");
  double v[LC_MAX_GPU], sum = 0;
  int n = 0;
  for (const char *p = ts; *p && n < LC_MAX_GPU;) {
    char *end;
    double x = strtod(p, &end);
    if (end == p || x < 0) {
      est_fail(l->c, "runtime.tensor_split: expected comma-separated proportions such as \"3,1\", got '%s'", ts);
      return;
    }
    v[n++] = x, sum += x;
    p = *end == ',' ? end + 1 : end;
  }
  if (n == 0) {
    uint64_t g = l->s->tp * l->s->pp;
    n = g > LC_MAX_GPU ? LC_MAX_GPU : (int)g;
    for (int i = 0; i < n; i++) v[i] = 1, sum += 1;
  }
  if (sum <= 0) {
    est_fail(l->c, "runtime.tensor_split: the proportions sum to zero");
    return;
  }
  lc_cum(l, v, n, sum);
}

/* ---------------------------------------------------------------- split_mode row */

static uint64_t lc_pad(uint64_t b, uint64_t a);

/* get_mmq_y_host (ggml-cuda/mmq.cuh) of GPU g: 128 rows on NVIDIA from Volta and on AMD but
** RDNA1, 64 before Volta (Pascal, Kepler) and on RDNA1; by the catalog's compute capability or
** architecture, 128 when neither is known */
static int64_t lc_mmq_y(const lc *l, int g) {
  const scenario *s = l->s;
  bool own = g < s->n_gpus;
  const char *arch = own ? s->gpus[g].arch : s->gpu_arch, *cc = own ? s->gpus[g].compute : s->gpu_compute;
  if (strncmp(arch, "rdna", 4) == 0 || strncmp(arch, "cdna", 4) == 0) return strcmp(arch, "rdna1") == 0 ? 64 : 128;
  if (cc[0]) return atof(cc) < 7.0 ? 64 : 128;
  return strcmp(arch, "pascal") == 0 || strcmp(arch, "maxwell") == 0 || strcmp(arch, "kepler") == 0 ? 64 : 128;
}

/* split_mode row (llama-model.cpp make_gpu_buft_list, b5261): each GPU's list of buffer types
** starts with ggml_backend_split_buffer_type(its index, tensor_split), so a weight of a layer on
** GPU g goes to g's split buffer ("CUDA<g>_Split") when the split type takes its op, else to g's
** own buffer. ggml_backend_cuda_split_buffer_type (ggml-cuda.cu) turns tensor_split into each
** GPU's first-row fraction: float exclusive prefix sums over their total; all zero (no -ts)
** takes ggml_cuda_init's default_tensor_split, the GPUs' total memory. Its rows are rounded by
** get_row_rounding: the largest get_mmq_y_host of the GPUs with a share (runtime.row_rounding
** overrides it). */
static void lc_row_setup(lc *l) {
  const scenario *s = l->s;
  l->row = !l->cpu && l->n_gpu >= 1 && strcmp(scn_str(s, "runtime.split_mode", "layer"), "row") == 0;
  if (!l->row) return;
  float v[LC_MAX_GPU] = {0};
  const char *ts = scn_str(s, "runtime.tensor_split", "");
  bool mem = !ts[0] && s->n_gpus >= l->n_gpu;
  for (int g = 0; mem && g < l->n_gpu; g++) mem = s->gpus[g].memory > 0;
  for (int g = 0; g < l->n_gpu; g++) v[g] = (float)(l->cum[g] - (g ? l->cum[g - 1] : 0));
  for (int g = 0; mem && g < l->n_gpu; g++) v[g] = (float)s->gpus[g].memory;
  float sum = 0.0f;
  for (int g = 0; g < l->n_gpu; g++) l->row_split[g] = sum, sum += v[g];
  for (int g = 0; g < l->n_gpu; g++) l->row_split[g] /= sum;
  l->row_round = (int64_t)scn_u64(s, "runtime.row_rounding", 0);
  for (int g = 0; l->row_round == 0 && g < l->n_gpu; g++) {
    float next = g + 1 < l->n_gpu ? l->row_split[g + 1] : 1.0f;
    if (l->row_split[g] >= next) continue;
    int64_t y = lc_mmq_y(l, g);
    if (y > l->row_round) l->row_round = y;
  }
  if (l->row_round == 0) l->row_round = 128;
}

/* get_row_split: GPU id's rows [lo, hi) of a split tensor of nrows rows */
static void lc_row_range(const lc *l, int64_t nrows, int id, int64_t *lo, int64_t *hi) {
  int64_t r = l->row_round;
  *lo = id == 0 ? 0 : (int64_t)((float)nrows * l->row_split[id]);
  *lo -= *lo % r;
  if (id == l->n_gpu - 1) {
    *hi = nrows;
  } else {
    *hi = (int64_t)((float)nrows * l->row_split[id + 1]);
    *hi -= *hi % r;
  }
}

/* the types ggml_backend_cuda_device_supports_op runs a MUL_MAT of */
static bool lc_row_type(uint32_t id) {
  return id <= GGML_T_Q8_0 ? id != 4 && id != 5 : (id >= GGML_T_Q2_K && id <= GGML_T_IQ4_XS) || id == 29 /* IQ1_M */ ||
                                                      id == GGML_T_BF16 || id == GGML_T_MXFP4;
}

static int lc_weight_kind(const inv_tensor *t);

/* Gemma 3n's per-layer embeddings (GGUF per_layer_token_embd, Hugging Face
** model.embed_tokens_per_layer): an input-layer tensor read with GET_ROWS (src/llama-arch.cpp
** LLM_TENSOR_INFOS: LLM_TENSOR_PER_LAYER_TOKEN_EMBD, {LLM_TENSOR_LAYER_INPUT, GGML_OP_GET_ROWS}) */
static bool lc_per_layer_embd(const inv_tensor *t) {
  return strstr(t->name, "per_layer_token_embd") != NULL || strstr(t->name, "embed_tokens_per_layer") != NULL;
}

/* An input-layer tensor (LLM_TENSOR_LAYER_INPUT), which llama-model.cpp's create_tensor gives
** dev_input's buffer types (the host: CPU_Mapped with mmap) whatever -ngl: token_embd,
** position_embd and Gemma 3n's per_layer_token_embd */
static bool lc_input_tensor(const inv_tensor *t) {
  return t->role == ROLE_EMBED || t->role == ROLE_POS_EMBED || lc_per_layer_embd(t);
}

/* a weight llama.cpp creates for a MUL_MAT (llm_tensor_info_mapping: the attention and dense FFN
** projections, shared experts, routers, MLA's low-rank projections, a DeltaNet layer's
** projections, the output), not for MUL_MAT_ID (routed experts: ne[2] > 1), ADD (biases,
** exp_probs_b, ssm_dt), MUL (norms) or GET_ROWS (token_embd) */
static bool lc_matmul_weight(const inv_tensor *t) {
  if (t->role == ROLE_EXPERT || lc_input_tensor(t) || t->ndim > 2) return false;
  int kind = lc_weight_kind(t);
  if (kind < 0 || (kind & LW_BIAS)) return false;
  switch (kind) {
  case LW_Q: case LW_K: case LW_V: case LW_QKV: case LW_O: case LW_GATE: case LW_UP: case LW_DOWN:
  case LW_SH_GATE: case LW_SH_UP: case LW_SH_DOWN: case LW_SH_GATE_INP: case LW_Q_A: case LW_Q_B:
  case LW_KV_A: case LW_OUTPUT: case LW_DN_Z:
    return true;
  case LW_K_B: case LW_V_B: /* a 2-D attn_kv_b; attn_k_b / attn_v_b are 3-D */
    return strstr(t->name, "kv_b") != NULL;
  case LW_ROUTER:
    return !strstr(t->name, "exp_probs_b") && !strstr(t->name, "e_score_correction") && !strstr(t->name, "expert_bias");
  case LW_DN_ALPHA: case LW_DN_BETA:
    return !strstr(t->name, "dt");
  default:
    return false;
  }
}

/* n instances of weight t (b bytes, type g) in GPU dev's split buffer, if llama.cpp puts it
** there: weight_buft_supported asks ggml_backend_cuda_device_supports_op, which takes a MUL_MAT
** of a split weight of a supported type with ne[2] = ne[3] = 1 only when dev itself gets rows
** of it ("for small weight matrices the active device can end up without any rows", PR #10185):
** so a 128-row router is split on the GPUs whose share holds rows of it. Each GPU with rows
** cudaMallocs them plus, when ne0 is not a multiple of MATRIX_ROW_PADDING, the row bytes of the
** padding (ggml_backend_cuda_split_buffer_init_tensor: for every type); the split buffer
** counts their sum, aligned to 128 (get_alloc_size, ggml_backend_alloc_ctx_tensors_from_buft). */
static bool lc_row_place(lc *l, const inv_tensor *t, const ggml_type_info *g, uint64_t b, int dev, uint64_t n,
                         bool output) {
  if (!l->row || dev < 0 || !(output || lc_matmul_weight(t)) || !lc_row_type(g->id)) return false;
  uint64_t ne0 = t->shape[t->ndim - 1], el = 0;
  if (!ne0 || !inv_tensor_elements(t, &el) || el % ne0) return false;
  int64_t nrows = (int64_t)(el / ne0), lo, hi;
  lc_row_range(l, nrows, dev, &lo, &hi);
  if (lo == hi) return false;
  bytes_acc *a = &l->c->acc;
  uint64_t rb = b / (uint64_t)nrows, total = 0;
  uint64_t pad = ne0 % LC_ROW_PAD ? (LC_ROW_PAD - ne0 % LC_ROW_PAD) / g->block * g->type_size : 0;
  for (int id = 0; id < l->n_gpu; id++) {
    lc_row_range(l, nrows, id, &lo, &hi);
    if (lo == hi) continue;
    uint64_t part = acc_add(a, acc_mul(a, (uint64_t)(hi - lo), rb), pad);
    l->gpu[id].split_rows = acc_add(a, l->gpu[id].split_rows, acc_mul(a, part, n));
    total = acc_add(a, total, part);
  }
  l->gpu[dev].split = acc_add(a, l->gpu[dev].split, acc_mul(a, lc_pad(total, LC_CUDA_ALIGN), n));
  return true;
}

/* The cache types llama_init_from_model refuses (llama-context.cpp, llama.cpp 80fb11a):
** an MLA model's K and V of different types, and with flash attention a quantized K or V
** whose block does not divide a layer's head size (conformance: a deepseek2 file with a
** 136-wide latent row and type_k q8_0, "K cache type q8_0 with block size 32 does not
** divide n_embd_head_k=136"). The quantized-V-without-flash-attention refusal is
** scripts/runtimes/llamacpp.lua's. */
static void lc_cache_refusals(lc *l) {
  const model_desc *m = l->m;
  const ggml_type_info *t[2] = {l->tk, l->tv};
  const char *name[2] = {scn_str(l->s, "runtime.type_k", "f16"), scn_str(l->s, "runtime.type_v", "f16")};
  for (int i = 0; i < m->n_kv; i++) {
    const kv_group *g = &m->kv[i];
    if (g->kind == KV_STATE || g->kind == KV_CROSS) continue;
    if (g->kind == KV_ATTN && g->v_dim == 0 && t[0] != t[1]) {
      est_fail(l->c, "runtime.type_v: llama.cpp gives an MLA model's K and V caches one type (type_k %s, type_v %s)",
               name[0], name[1]);
      return;
    }
    if (!l->fa) continue;
    uint64_t dim[2] = {g->k_dim, g->v_dim};
    for (int j = 0; j < 2; j++) {
      if (t[j]->block > 1 && dim[j] % t[j]->block) {
        est_fail(l->c, "runtime.%s: llama.cpp refuses a %s cache of %s: its block of %u does not divide the %s head size %llu",
                 j ? "type_v" : "type_k", j ? "V" : "K", name[j], (unsigned)t[j]->block, j ? "V" : "K",
                 (unsigned long long)dim[j]);
        return;
      }
    }
  }
}

/* n_ctx cells in all, their share per stream (n_ctx_seq) and the reserve's ubatch: n_ubatch
** (at most n_batch) and at most n_ctx */
static void lc_set_ctx(lc *l, uint64_t n_ctx) {
  l->n_ctx = n_ctx;
  l->n_ctx_seq = l->n_stream > 1 ? n_ctx / l->n_stream : n_ctx;
  uint64_t ub = scn_u64(l->s, "runtime.n_ubatch", 512), b = scn_u64(l->s, "runtime.n_batch", 2048);
  l->n_b = b < l->n_ctx ? b : l->n_ctx;
  l->n_ub = ub < b ? ub : b;
  if (l->n_ub > l->n_ctx) l->n_ub = l->n_ctx;
}

static int lc_weight_kind(const inv_tensor *t);
static void lc_ot_setup(lc *l);

/* llama.cpp's n_vocab: the GGUF's vocabulary, the rows its conversion wrote to token_embd,
** which can be fewer than the config's vocab_size (a Gemma 3 GGUF keeps its tokenizer's
** 262,144 of 262,208: architectures/gemma.lua); the logits and the output buffer follow it */
static uint64_t lc_vocab(const lc *l) {
  const model_desc *m = l->m;
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    if (t->role == ROLE_EMBED && t->ndim == 2 && t->shape[1] == m->hidden && t->shape[0] < m->vocab &&
        !est_vision_tensor(t))
      return t->shape[0];
  }
  return m->vocab;
}

static void lc_options(lc *l) {
  const scenario *s = l->s;
  l->build = scn_u64(s, "runtime.build", 0);
  l->n_layer = l->m->layers;
  l->n_nextn = scn_u64(s, "runtime.n_layer_nextn", 0);
  l->n_layer_all = l->n_layer + l->n_nextn;
  l->n_rs_seq = scn_u64(s, "runtime.n_rs_seq", 0);
  l->n_vocab = lc_vocab(l);
  l->n_seq = s->concurrency ? s->concurrency : 1;
  l->cpu = strcmp(scn_str(s, "runtime.device", "gpu"), "cpu") == 0;
  l->fa = scn_bool(s, "runtime.flash_attn", lc_newer(l, LC_B_PAD256));
  l->mmap = scn_bool(s, "runtime.use_mmap", true);
  l->metal = strcmp(scn_str(s, "runtime.gpu_backend", "cuda"), "metal") == 0;
  const char *isa = scn_str(s, "runtime.cpu_features", "avx2");
  l->amx = strcmp(isa, "amx") == 0;
  l->avx2 = l->amx || strcmp(isa, "avx2") == 0;
  l->offload_kqv = !scn_bool(s, "runtime.no_kv_offload", false);
  l->embeddings = scn_bool(s, "runtime.embeddings", false);
  l->ollama = scn_bool(s, "runtime.ollama", false);
  l->ngl = l->cpu ? 0 : scn_u64(s, "runtime.n_gpu_layers", 999);
  uint64_t n_sliding = 0;
  for (int i = 0; i < l->m->n_kv; i++)
    if (l->m->kv[i].window && l->m->kv[i].kind == KV_ATTN) n_sliding += l->m->kv[i].layers;
  l->legacy_swa = n_sliding && n_sliding < l->n_layer && !lc_newer(l, LC_B_ISWA);
  /* --cpu-moe's pattern matches every block, a GGUF's MTP blocks too */
  l->n_cpu_moe = scn_bool(s, "runtime.cpu_moe", false) ? l->n_layer_all : scn_u64(s, "runtime.n_cpu_moe", 0);
  for (size_t i = 0; i < l->m->inv.n; i++) { /* the model's facts the graph's shape reads */
    const inv_tensor *t = &l->m->inv.t[i];
    const char *nm = t->name;
    int kind = t->role == ROLE_EXPERT ? lc_weight_kind(t) : -1;
    l->moe = l->moe || t->role == ROLE_EXPERT;
    l->exps_bias = l->exps_bias || (kind >= 0 && (kind & LW_BIAS));
    l->qkv_bias = l->qkv_bias || strstr(nm, "attn_q.bias") || strstr(nm, "q_proj.bias");
    l->probs_b = l->probs_b || strstr(nm, "exp_probs_b") || strstr(nm, "e_score_correction_bias") ||
                 strstr(nm, "gate.expert_bias") || /* Ling 2.0's selection bias (bailingmoe2: exp_probs_b) */
                 strstr(nm, "mlp.expert_bias"); /* AFMoE's (afmoe: exp_probs_b) */
    l->gate_up_exps = l->gate_up_exps || strstr(nm, "ffn_gate_up_exps");
  }
  const char *mp = scn_str(s, "runtime.mmproj", "");
  const ggml_type_info *mt = mp[0] ? ggml_type_by_name(mp) : NULL;
  if (mp[0] && !mt) est_fail(l->c, "runtime.mmproj: unknown type '%s' (f16, bf16, f32, q8_0)", mp);
  l->mmproj_on = mt != NULL;
  l->mmproj = mt ? mt->id : 0;
  l->tk = lc_cache_type(l, "runtime.type_k");
  l->tv = lc_cache_type(l, "runtime.type_v");
  if (l->tk && l->tv) lc_cache_refusals(l);
  if (!l->cpu) lc_split(l);
  /* ggml-metal registers one device, and lc_weights maps the whole GPU range onto it */
  if (l->metal && !l->cpu && l->n_gpu > 1)
    est_fail(l->c, "runtime.gpu_backend: \"metal\" has one GPU device, but runtime.tensor_split or parallel.tp x pp "
                   "asks for %d", l->n_gpu);
  if (!l->c->failed) lc_ot_setup(l);
  if (!l->cpu && !l->c->failed) lc_read_layout(l);
  lc_apply_layout(l);
  lc_row_setup(l);
  uint64_t n_ctx = acc_mul(&l->c->acc, s->context, l->n_seq);
  uint64_t pad = lc_newer(l, LC_B_PAD256) || l->fa ? 256 : 32;
  /* --kv-unified (llama-server's default with -np auto: 4 sequences): one stream of every
  ** cell, as all builds before the per-sequence streams */
  /* until set_rows was the default (LC_B_SET_ROWS) the llama_context constructor forced a unified
  ** cache: "non-unified KV cache requires ggml_set_rows() - forcing unified KV cache", kv_unified =
  ** true (an LM Studio log of 2025-07-22, DeepSeek-R1-0528-Qwen3-8B; tests/test_holdout23_llamacpp.c) */
  l->n_stream =
      lc_newer(l, LC_B_STREAMS) && lc_newer(l, LC_B_SET_ROWS) && !scn_bool(s, "runtime.kv_unified", false)
          ? l->n_seq
          : 1;
  lc_set_ctx(l, bytes_ceildiv(n_ctx, pad) * pad);
  if (l->n_ub == 0) est_fail(l->c, "runtime.n_ubatch: must be at least 1");
}

/* ---------------------------------------------------------------- placement */

/* The first block on a GPU: from PR #18148 the output layer is offloaded first, i_gpu_start =
** n_layer_all + 1 - ngl (llama-model.cpp load_tensors), before it n_layer_all - ngl. */
static uint64_t lc_gpu_start(const lc *l) {
  uint64_t top = lc_newer(l, LC_B_OUTPUT_FIRST) ? l->n_layer_all + 1 : l->n_layer_all;
  return l->ngl >= top ? 0 : top - l->ngl;
}

/* device of block il of llama.cpp's n_layer_all (the trunk, then a GGUF's MTP blocks;
** il == n_layer_all: the output layer): -1 the host, else a GPU (load_tensors:
** i_gpu_start, act_gpu_layers and the upper bound in the splits, all over n_layer_all) */
static int lc_block_dev(const lc *l, uint64_t il) {
  if (l->cpu || l->n_gpu == 0) return -1;
  uint64_t all = l->n_layer_all, start = lc_gpu_start(l);
  uint64_t act = l->ngl < all + 1 ? l->ngl : all + 1;
  if (il < start || il - start >= act) return -1;
  double x = (double)(il - start) / (double)act;
  for (int g = 0; g < l->n_gpu; g++)
    if (l->cum[g] > x) return g;
  return l->n_gpu - 1;
}

/* device of trunk layer il (il == n_layer: the output layer) */
static int lc_layer_dev(const lc *l, uint64_t il) {
  return lc_block_dev(l, il < l->n_layer ? il : l->n_layer_all);
}

/* --cpu-moe / --n-cpu-moe N (common/arg.cpp): a tensor-buffer override of
** "blk\\.<i>\\.ffn_(up|down|gate|gate_up)_(ch|)exps" to the CPU buffer type for the layers
** i < N (all with --cpu-moe): the routed experts' weights and biases, not the shared
** experts or the router. llama-model-loader.cpp picks the first buffer type of the CPU list
** that takes the op (the pinned host type of the GPU, which mmap turns into the plain CPU
** type), so they are host weights like a host layer's: from 32 rows the first GPU runs their
** MUL_MAT_ID and copies them (ggml_backend_sched_backend_id_from_cur, op_offload). */
/* the FFN class (LC_PART_*) of a tensor by its role and name, 0 for none: GGUF's ffn_gate*,
** ffn_up*, ffn_down* (a fused gate_up is a gate: --fit's UP pattern moves it), Hugging
** Face's gate_proj / up_proj / down_proj (w1 / w3 / w2), a router */
static unsigned lc_ffn_class(const inv_tensor *t) {
  if (t->role == ROLE_ROUTER) return LC_PART_R;
  if (t->role != ROLE_EXPERT && t->role != ROLE_SHARED_EXPERT && t->role != ROLE_MLP) return 0;
  const char *n = t->name;
  if (strstr(n, "gate") || strstr(n, ".w1.")) return LC_PART_G;
  if (strstr(n, "up") || strstr(n, ".w3.")) return LC_PART_U;
  if (strstr(n, "down") || strstr(n, ".w2.")) return LC_PART_D;
  return 0;
}

/* layer il's routed experts stay on the host: --n-cpu-moe's leading layers */
static bool lc_exps_on_host(const lc *l, uint64_t il) { return il < l->n_cpu_moe; }

/* the device of FFN tensor t of layer il, whose layer is on dev: --fit's partial layers move
** the classes of their pattern (common/fit.cpp get_overflow_pattern) to the host or the next
** GPU, --n-cpu-moe the routed experts of its layers to the host */
static int lc_ffn_dev(const lc *l, const inv_tensor *t, uint64_t il, int dev) {
  unsigned ov = il < LC_MAX_LAYERS ? l->ov_cls[il] : 0;
  if (ov && ((lc_ffn_class(t) & ov) || (t->role == ROLE_EXPERT && (ov & LC_PART_X)))) return l->ov_dev[il];
  return t->role == ROLE_EXPERT && lc_exps_on_host(l, il) ? -1 : dev;
}

/* -ot / --override-tensor (common/arg.cpp parse_tensor_buffer_overrides; llama-model-loader.cpp
** create_tensor checks the overrides before the layer's buffer list: the first pattern
** std::regex_search finds in the tensor's name gives its buffer type). runtime.override_tensor
** holds PATTERN=BUFFER_TYPE a line, the form and patterns checked by scripts/runtimes/llamacpp.lua;
** each pattern is compiled once (PCRE2, unanchored search: the ECMAScript patterns -ot takes read
** the same), its rule's value the device: -1 for "CPU", else the GPU of the name's index (CUDA0 ..,
** ROCm0 .., a backend numbers its devices from 0). An override to "CPU" is a host weight as a
** --n-cpu-moe one is: select_weight_buft over the CPU list takes the GPU's pinned host type first,
** which mmap turns into the plain CPU type (lc_host_buft). Taken before --n-cpu-moe's and --fit's
** patterns: -ot first on the command line. */
static void lc_ot_setup(lc *l) {
  const char *t = scn_str(l->s, "runtime.override_tensor", "");
  if (!t[0]) return;
  if (!(l->ot = rules_new())) {
    est_fail(l->c, "out of memory");
    return;
  }
  char pat[1024], err[256];
  for (const char *p = t; *p && !l->c->failed;) {
    const char *end = strchr(p, '\n'), *eq;
    if (!end) end = p + strlen(p);
    eq = memchr(p, '=', (size_t)(end - p));
    if (!eq || (size_t)(eq - p) >= sizeof pat) {
      est_fail(l->c, "runtime.override_tensor: expected PATTERN=BUFFER_TYPE of under %zu bytes a line",
               sizeof pat);
      return;
    }
    memcpy(pat, p, (size_t)(eq - p));
    pat[eq - p] = 0;
    const char *b = eq + 1, *d = b;
    while (d < end && !isdigit((unsigned char)*d)) d++;
    long g = d < end ? strtol(d, NULL, 10) : -1;
    if (strncmp(b, "CPU", (size_t)(end - b)) == 0 && end - b == 3)
      g = -1;
    else if (d == end || g >= l->n_gpu)
      est_fail(l->c,
               "runtime.override_tensor: buffer type '%.*s' names no device of the scenario's %d GPU%s "
               "(CPU, or a GPU from index 0)",
               (int)(end - b), b, l->n_gpu, l->n_gpu == 1 ? "" : "s");
    if (!l->c->failed && !rules_add(l->ot, pat, (int)g, 0, err, sizeof err))
      est_fail(l->c, "runtime.override_tensor: %s", err);
    p = *end ? end + 1 : end;
  }
}

/* -ot's device for the tensor called `name`: the first matching pattern's, else dflt */
static int lc_ot_dev(lc *l, const char *name, int dflt) {
  char err[256];
  int v = dflt;
  if (!l->ot || l->c->failed) return dflt;
  if (rules_match(l->ot, name, &v, NULL, err, sizeof err) < 0)
    est_fail(l->c, "runtime.override_tensor: %s", err);
  return v;
}

/* the device of one placed tensor (t in block `layer`, -1 outside the blocks; key its GGUF name
** after the block prefix for a built-in model) under -ot, by its GGUF name: a .gguf file's own,
** a built-in model's "blk.<layer>." + key. Which trunk layers' routed experts it moves is kept
** for the compute replay (ot_x bits: 1 matched, 2 not matched, 4 to several devices), any
** other trunk or outer tensor it moves in ot_other; an MTP block's are outside the graph. */
static int lc_ot_place(lc *l, const inv_tensor *t, const char *key, long layer, int dev, bool file) {
  if (!l->ot) return dev;
  char name[256];
  if (file)
    snprintf(name, sizeof name, "%s", t->name);
  else if (layer >= 0)
    snprintf(name, sizeof name, "blk.%ld.%s", layer, key);
  else
    snprintf(name, sizeof name, "%s", key);
  int v = lc_ot_dev(l, name, -2);
  bool trunk = layer >= 0 && (uint64_t)layer < l->n_layer && layer < LC_MAX_LAYERS;
  if (trunk && t->role == ROLE_EXPERT) {
    if (v != -2 && (l->ot_x[layer] & 1) && l->ot_xdev[layer] != v) l->ot_x[layer] |= 4;
    if (v != -2) l->ot_xdev[layer] = v;
    l->ot_x[layer] |= v != -2 ? 1 : 2;
  } else if (v != -2 && (trunk || layer < 0)) {
    l->ot_other = true;
  }
  return v != -2 ? v : dev;
}

/* the layer index in a tensor name: blk.N. (GGUF) or the first .N. (Hugging Face);
** -1 for none, -2 for a '*' group spread over the layers */
static long lc_layer_of(const char *name) {
  for (const char *p = name; *p; p++) {
    if (p != name && p[-1] != '.') continue;
    if (*p == '*') return -2; /* a group over the layers (a later '*' is the expert index) */
    if (isdigit((unsigned char)*p)) {
      char *end;
      long v = strtol(p, &end, 10);
      if (*end == '.') return v;
    }
  }
  return -1;
}

static const ggml_type_info *lc_tensor_type(const inv_tensor *t) {
  const ggml_type_info *g = t->qtype[0] ? ggml_type_by_name(t->qtype) : NULL;
  if (g) return g;
  if (t->ndim == 1 && !t->stored_bytes) return ggml_type_get(GGML_T_F32);
  if (t->dtype == DT_FP32) return ggml_type_get(GGML_T_F32);
  return ggml_type_get(t->dtype == DT_BF16 ? GGML_T_BF16 : GGML_T_F16);
}

/* bytes of one tensor as llama.cpp stores it: the file's, else the ggml type's rows
** (1-D tensors are F32 in every GGUF convert_hf_to_gguf writes) */
static uint64_t lc_tensor_bytes(lc *l, const inv_tensor *t, const ggml_type_info *g) {
  if (t->stored_bytes) return t->stored_bytes;
  uint64_t n = 0;
  if (!inv_tensor_elements(t, &n)) l->c->acc.overflow = true;
  return acc_mul(&l->c->acc, bytes_ceildiv(n, g->block), g->type_size);
}

/* Host weight buffers besides the plain (mapped) one, chosen in this order for a matmul
** weight (input-layer tensors, token_embd, position_embd and per_layer_token_embd, are read with
** get_rows and stay plain):
** AMX (cpu_features "amx", ggml-cpu/amx): 2-D weights with out-features a multiple of
**   32 in F16, Q4_0, Q4_1, Q8_0 and the K-quants/IQ4_XS; the packed rows of Q8_0 and of
**   the 256-blocks carry 4 more bytes per block (measured with the conformance run of
**   tests/conformance on a Sapphire Rapids CPU: Q8_0 38/34, Q4_K 148/144; Q4_0, F16 as
**   stored); 3-D expert stacks are not AMX's.
** CPU_REPACK (ggml-cpu/repack.cpp, AVX2 8x8 interleaving): Q4_0 and Q4_K with rows a
**   multiple of 8, experts included; the same bytes. */
typedef enum lc_buft { LC_PLAIN = 0, LC_REPACK, LC_AMX } lc_buft;

static bool lc_amx_type(uint32_t id) {
  return id == GGML_T_F16 || id == GGML_T_Q4_0 || id == GGML_T_Q4_1 || id == GGML_T_Q8_0 ||
         id == GGML_T_Q4_K || id == GGML_T_Q5_K || id == GGML_T_Q6_K || id == GGML_T_IQ4_XS;
}

static lc_buft lc_host_buft(const lc *l, const inv_tensor *t, const ggml_type_info *g, bool as_output) {
  /* input-layer tensors (token_embd, position_embd, per_layer_token_embd) are read with get_rows,
  ** which no extra buffer type supports; a tied token_embd duplicated as the output is a matmul */
  if (!l->cpu || t->ndim < 2 || (lc_input_tensor(t) && !(as_output && t->role == ROLE_EMBED)))
    return LC_PLAIN;
  uint64_t ne1 = t->shape[t->ndim - 2];
  if (l->amx && t->ndim == 2 && ne1 % 32 == 0 && lc_amx_type(g->id)) return LC_AMX;
  if (!l->avx2) return LC_PLAIN;
  bool q4k = g->id == GGML_T_Q4_K && (l->build == 0 || l->build >= LC_B_REPACK_Q4K);
  return (g->id == GGML_T_Q4_0 || q4k) && ne1 % 8 == 0 ? LC_REPACK : LC_PLAIN;
}

static uint64_t lc_amx_size(lc *l, const ggml_type_info *g, uint64_t b) {
  bool extra = g->id == GGML_T_Q8_0 || g->block == 256;
  return extra ? acc_add(&l->c->acc, b, b / g->type_size * 4) : b;
}

/* ggml_backend_cuda_buffer_type_get_alloc_size: quantized rows padded to 512 */
static uint64_t lc_cuda_size(lc *l, const inv_tensor *t, const ggml_type_info *g, uint64_t b) {
  uint64_t ne0 = t->shape[t->ndim - 1];
  if (g->block > 1 && ne0 % LC_ROW_PAD)
    b = acc_add(&l->c->acc, b, (LC_ROW_PAD - ne0 % LC_ROW_PAD) / g->block * g->type_size);
  return bytes_ceildiv(b, LC_CUDA_ALIGN) * LC_CUDA_ALIGN;
}

static uint64_t lc_pad(uint64_t b, uint64_t a) {
  return bytes_ceildiv(b, a) * a;
}

/* the mapped range: file order, from the first to the last tensor of the host group */
typedef struct lc_range {
  bool open;
  uint64_t pos, first, last_end;
} lc_range;

static void lc_range_add(lc *l, lc_range *r, uint64_t bytes, uint64_t n, bool mapped) {
  bytes_acc *a = &l->c->acc;
  uint64_t step = lc_pad(bytes, LC_CPU_ALIGN);
  if (mapped && n) {
    if (!r->open) r->first = r->pos, r->open = true;
    r->last_end = acc_add(a, acc_add(a, r->pos, acc_mul(a, step, n - 1)), bytes);
  }
  r->pos = acc_add(a, r->pos, acc_mul(a, step, n));
}

/* n instances in a GPU buffer (dev >= 0) or a host AMX/repack buffer; false for the
** plain host buffer, which the caller accounts */
static bool lc_add_buffer(lc *l, const inv_tensor *t, const ggml_type_info *g, uint64_t b, int dev,
                          lc_buft bt, uint64_t n, bool output) {
  bytes_acc *a = &l->c->acc;
  if (lc_row_place(l, t, g, b, dev, n, output))
    ;
  else if (dev >= 0) /* Metal: ggml_nbytes at its buffer type's 32-byte alignment, no row padding */
    l->gpu[dev].model = acc_add(a, l->gpu[dev].model,
                                acc_mul(a, l->metal ? lc_pad(b, LC_CPU_ALIGN) : lc_cuda_size(l, t, g, b), n));
  else if (bt == LC_AMX)
    l->host_amx = acc_add(a, l->host_amx, acc_mul(a, lc_pad(lc_amx_size(l, g, b), LC_CPU_ALIGN), n));
  else if (bt == LC_REPACK)
    l->host_repack = acc_add(a, l->host_repack, acc_mul(a, lc_pad(b, LC_CPU_ALIGN), n));
  else
    return false;
  return true;
}

/* one tensor instance placed on dev (-1 host): AMX/repack, GPU buffer or mapped/host; rg the
** GPU's mapped range on Metal (lc_weights), which the GPU's tensors join instead of a buffer */
static void lc_place(lc *l, lc_range *r, lc_range *rg, const inv_tensor *t, const ggml_type_info *g,
                     uint64_t b, int dev, uint64_t n, bool gpu_too) {
  bytes_acc *a = &l->c->acc;
  lc_buft bt = dev < 0 ? lc_host_buft(l, t, g, false) : LC_PLAIN;
  bool gpu_mapped = l->metal && l->mmap && dev >= 0;
  if (!gpu_mapped && !lc_add_buffer(l, t, g, b, dev, bt, n, t->role == ROLE_LM_HEAD))
    l->host_plain = acc_add(a, l->host_plain, acc_mul(a, lc_pad(b, LC_CPU_ALIGN), n));
  lc_range_add(l, r, b, n, dev < 0 && bt == LC_PLAIN);
  lc_range_add(l, rg, b, n, gpu_mapped || gpu_too);
}

/* a tied output layer: llama.cpp duplicates token_embd as output.weight, and
** create_tensor copies it when the output's buffer type differs from the input's; on Metal
** with mmap the duplicate (named token_embd.weight, TENSOR_DUPLICATED) is read in place,
** inside the GPU's mapped range (lc_weights) */
static void lc_tied_output(lc *l, const inv_tensor *t, const ggml_type_info *g, uint64_t b) {
  int dev = lc_ot_place(l, t, "output.weight", -1, lc_layer_dev(l, l->n_layer), false);
  if (l->metal && l->mmap && dev >= 0) return;
  if (lc_add_buffer(l, t, g, b, dev, lc_host_buft(l, t, g, true), 1, true)) return;
  /* the output in token_embd's (host, plain) buffer type: create_tensor's TENSOR_DUPLICATED returns
  ** token_embd itself when ggml_get_tensor finds it in that context already, but Gemma 4's
  ** load_arch_tensors (src/models/gemma4.cpp, 80fb11a) creates the output before tok_embd, so the
  ** output is a tensor of its own and tok_embd a second one of the same name: without mmap both are
  ** allocated in the CPU buffer (make conformance gemma4 with mmap off: 2.00 MiB, the 4096 x 256 F16
  ** token_embd, above vramfit before); with mmap both are views of the mapping */
  if (!l->mmap && strcmp(l->m->arch, "gemma4") == 0)
    l->host_plain = acc_add(&l->c->acc, l->host_plain, lc_pad(b, LC_CPU_ALIGN));
}

/* A gated DeltaNet hybrid (Qwen3-Next, Qwen3.5 / 3.6: full_attention_interval p) has its
** attention layers (and their KV) at il % p == p - 1 and DeltaNet at the others
** (hparams.is_recurrent); a description's "*" group of either kind counts only its own
** layers. p = n_layer / the attention layers; 0 for a model without recurrent layers. */
static uint64_t lc_hybrid_period(const lc *l, uint64_t *n_state) {
  for (int gi = 0; gi < l->m->n_kv; gi++) {
    const kv_group *g = &l->m->kv[gi];
    if (g->kind == KV_STATE && g->layers && g->layers < l->n_layer && l->n_layer % (l->n_layer - g->layers) == 0) {
      *n_state = g->layers;
      return l->n_layer / (l->n_layer - g->layers);
    }
  }
  return 0;
}

/* The layer of the j-th of a group of n layers, recurrent (DeltaNet's) or not: the j-th
** recurrent or attention layer of a hybrid when n is their count, dflt otherwise. */
static uint64_t lc_hybrid_layer(const lc *l, uint64_t n, uint64_t j, bool recurrent, uint64_t dflt) {
  uint64_t ns = 0, p = lc_hybrid_period(l, &ns);
  if (!p) return dflt;
  if (recurrent && n == ns) return (j / (p - 1)) * p + j % (p - 1);
  if (!recurrent && n == l->n_layer - ns) return j * p + p - 1;
  return dflt;
}

/* The layer of the k-th instance of a "*" group spanning layers first .. first + nl - 1
** (lc_group_span): a hybrid's group of its recurrent (a preset's linear_attn.*) or attention
** layers sits at them. */
static uint64_t lc_group_layer(const lc *l, const inv_tensor *t, uint64_t first, uint64_t nl, uint64_t per,
                               uint64_t k) {
  if (nl >= l->n_layer || first != 0 || per != 1) return k;
  return lc_hybrid_layer(l, nl, k, strstr(t->name, "linear_attn") != NULL, k);
}

/* The layers a '*' tensor group of a preset spreads over: every layer when its count
** divides by them; else a first_k_dense_replace model's (DeepSeek, GLM-4.5): the routed
** and shared experts and routers in the last layers (count / experts per layer of them),
** the dense FFN in the first. MoE every k-th layer (Llama 4 Maverick) is placed as if
** its MoE layers were the last ones. */
static bool lc_group_span(const lc *l, const inv_tensor *t, uint64_t *first, uint64_t *layers, uint64_t *per) {
  uint64_t L = l->n_layer, n = t->count, E = l->m->block.experts;
  if (L == 0 || n == 0) return false;
  if (n % L == 0) {
    *first = 0, *layers = L, *per = n / L;
    return true;
  }
  bool moe = t->role == ROLE_EXPERT || t->role == ROLE_SHARED_EXPERT || t->role == ROLE_ROUTER;
  uint64_t unit = t->role == ROLE_EXPERT && E && n % E == 0 ? E : 1;
  if (n % unit || n / unit >= L) return false;
  *per = unit, *layers = n / unit;
  *first = moe ? L - *layers : 0;
  return true;
}

/* A built-in model (no .gguf: no data offsets) is laid out as a quantized GGUF is:
** llama-quantize writes the tensors in the order of llama_model_loader's weights_map, a
** std::map with weight_name_comparer (src/llama-model-loader.h): by the "blk.%d." layer,
** the tensors outside the blocks (-1) first, then by name. So output.weight,
** output_norm.weight and token_embd.weight lead, then blk.0.* ... blk.<n-1>.* in numeric
** order, each block's tensors sorted by GGUF name (qwen3moe: attn_k, attn_k_norm,
** attn_norm, attn_output, attn_q, attn_q_norm, attn_v, ffn_down_exps, ffn_gate_exps,
** ffn_gate_inp, ffn_norm, ffn_up_exps). convert_hf_to_gguf's own order (an F16, BF16 or
** Q8_0 file written by it directly) is the checkpoint's and is not modelled: the same
** order is assumed. A preset's Hugging Face names are given their GGUF names here (the
** common llama / qwen / mistral / deepseek ones; any other keeps its own name, which sorts
** near, not exactly, where the GGUF name would). */
static const struct {
  const char *hf, *gguf;
} LC_GGUF_NAMES[] = {
    {"self_attn.q_proj.", "attn_q"}, {"self_attn.k_proj.", "attn_k"}, {"self_attn.v_proj.", "attn_v"},
    {"self_attn.o_proj.", "attn_output"}, {"self_attn.q_norm.", "attn_q_norm"}, {"self_attn.k_norm.", "attn_k_norm"},
    {"self_attn.qkv_proj.", "attn_qkv"}, {"self_attn.q_a_proj.", "attn_q_a"}, {"self_attn.q_a_layernorm.", "attn_q_a_norm"},
    {"self_attn.q_b_proj.", "attn_q_b"}, {"self_attn.kv_a_proj_with_mqa.", "attn_kv_a_mqa"},
    {"self_attn.kv_a_layernorm.", "attn_kv_a_norm"}, {"self_attn.kv_b_proj.", "attn_kv_b"},
    {"self_attn.k_b_proj.", "attn_k_b"}, {"self_attn.v_b_proj.", "attn_v_b"},
    {"input_layernorm.", "attn_norm"}, {"post_attention_layernorm.", "ffn_norm"},
    {"mlp.experts.*.gate_proj.", "ffn_gate_exps"}, {"mlp.experts.*.up_proj.", "ffn_up_exps"},
    {"mlp.experts.*.down_proj.", "ffn_down_exps"}, {"mlp.experts.gate_up_proj", "ffn_gate_up_exps"},
    {"mlp.experts.down_proj", "ffn_down_exps"}, {"mlp.shared_expert.gate_proj.", "ffn_gate_shexp"},
    {"mlp.shared_expert.up_proj.", "ffn_up_shexp"}, {"mlp.shared_expert.down_proj.", "ffn_down_shexp"},
    {"mlp.shared_experts.gate_proj.", "ffn_gate_shexp"}, {"mlp.shared_experts.up_proj.", "ffn_up_shexp"},
    {"mlp.shared_experts.down_proj.", "ffn_down_shexp"}, {"mlp.shared_expert_gate.", "ffn_gate_inp_shexp"},
    {"mlp.gate.e_score_correction_bias", "exp_probs_b"}, {"mlp.gate.expert_bias", "exp_probs_b"},
    {"mlp.gate.", "ffn_gate_inp"}, {"mlp.router.", "ffn_gate_inp"},
    /* Ling 2.0 (bailingmoe2: attention.query_key_value / dense / query_layernorm / key_layernorm) */
    {"attention.query_key_value.", "attn_qkv"}, {"attention.dense.", "attn_output"},
    {"attention.query_layernorm.", "attn_q_norm"}, {"attention.key_layernorm.", "attn_k_norm"},
    /* DBRX (transformer.blocks.N: norm_attn_norm.*, ffn.router.layer, ffn.experts.mlp.w1 / v1 / w2) */
    {"norm_attn_norm.attn.Wqkv.", "attn_qkv"}, {"norm_attn_norm.attn.out_proj.", "attn_output"},
    {"norm_attn_norm.norm_1.", "attn_norm"}, {"norm_attn_norm.norm_2.", "attn_output_norm"},
    {"ffn.router.layer.", "ffn_gate_inp"}, {"ffn.experts.mlp.w1", "ffn_gate_exps"},
    {"ffn.experts.mlp.v1", "ffn_up_exps"}, {"ffn.experts.mlp.w2", "ffn_down_exps"},
    {"mlp.gate_proj.", "ffn_gate"}, {"mlp.up_proj.", "ffn_up"}, {"mlp.down_proj.", "ffn_down"},
};

/* the GGUF name of a preset's tensor after its block prefix ("attn_q.weight"), or the
** tensors outside the blocks' */
static void lc_gguf_name(const inv_tensor *t, char *out, size_t cap) {
  const char *nm = t->name;
  if (t->role == ROLE_LM_HEAD) { snprintf(out, cap, "output.weight"); return; }
  if (t->role == ROLE_EMBED) { snprintf(out, cap, "token_embd.weight"); return; }
  if (t->role == ROLE_POS_EMBED) { snprintf(out, cap, "position_embd.weight"); return; }
  const char *rest = strstr(nm, "layers.");
  if (!rest) rest = strstr(nm, "blocks."); /* DBRX's transformer.blocks.N */
  if (!rest) {
    snprintf(out, cap, "%s", strstr(nm, "norm") ? "output_norm.weight" : nm);
    return;
  }
  rest = strchr(rest + 7, '.'); /* past the layer index (or '*') */
  rest = rest ? rest + 1 : nm;
  const char *suffix = strlen(nm) > 5 && strcmp(nm + strlen(nm) - 5, ".bias") == 0 ? ".bias" : ".weight";
  for (size_t i = 0; i < sizeof LC_GGUF_NAMES / sizeof LC_GGUF_NAMES[0]; i++)
    if (strncmp(rest, LC_GGUF_NAMES[i].hf, strlen(LC_GGUF_NAMES[i].hf)) == 0) {
      snprintf(out, cap, "%s%s", LC_GGUF_NAMES[i].gguf, suffix);
      return;
    }
  snprintf(out, cap, "%s", rest);
}

/* one placement of lc_weights: n instances of tensor t in block `layer` (-1: outside the
** blocks) on dev, in the order the mapped range walks them */
typedef struct lc_inst {
  const inv_tensor *t;
  const ggml_type_info *g;
  uint64_t bytes, n, skip;
  long layer;
  int dev;
  size_t seq;
  char key[64];
} lc_inst;

static int lc_inst_cmp(const void *pa, const void *pb) {
  const lc_inst *a = pa, *b = pb;
  if (a->layer != b->layer) return a->layer < b->layer ? -1 : 1;
  int c = strcmp(a->key, b->key);
  if (c) return c;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static bool lc_inst_push(lc *l, lc_inst **v, size_t *n, size_t *cap, lc_inst x) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 256;
    lc_inst *p = realloc(*v, nc * sizeof *p);
    if (!p) {
      est_fail(l->c, "out of memory");
      return false;
    }
    *v = p, *cap = nc;
  }
  x.seq = *n;
  (*v)[(*n)++] = x;
  return true;
}

static void lc_weights(lc *l) {
  const inventory *inv = &l->m->inv;
  lc_range r = {false, 0, 0, 0}, rg = {false, 0, 0, 0};
  bool has_head = false, file = scn_bool(l->s, "runtime.gguf_file", false);
  lc_inst *v = NULL;
  size_t nv = 0, cap = 0;
  for (size_t i = 0; i < inv->n; i++) has_head = has_head || inv->t[i].role == ROLE_LM_HEAD;
  memset(l->ot_x, 0, sizeof l->ot_x);
  l->ot_other = false;
  for (size_t i = 0; i < inv->n && !l->c->failed; i++) {
    const inv_tensor *t = &inv->t[i];
    if (est_vision_tensor(t)) {
      /* the mmproj file's tensors: --mmproj's type for the matrices, F32 vectors (clip.cpp
      ** loads them into one buffer on the first GPU unless --no-mmproj-offload) */
      if (l->mmproj_on) {
        uint64_t n = 0;
        if (!inv_tensor_elements(t, &n)) l->c->acc.overflow = true;
        const ggml_type_info *g = t->ndim < 2 ? ggml_type_get(GGML_T_F32) : ggml_type_get(l->mmproj);
        uint64_t b = acc_mul(&l->c->acc, bytes_ceildiv(n, g->block), g->type_size);
        l->mmproj_bytes = acc_add(&l->c->acc, l->mmproj_bytes, acc_mul(&l->c->acc, lc_pad(b, LC_CUDA_ALIGN), t->count));
      }
      continue;
    }
    const ggml_type_info *g = lc_tensor_type(t);
    uint64_t b = lc_tensor_bytes(l, t, g);
    long il = lc_layer_of(t->name);
    bool input = lc_input_tensor(t);
    lc_inst x = {.t = t, .g = g, .skip = t->skipped_before, .layer = il >= 0 ? il : -1}; /* unread tensors before it */
    if (!file) lc_gguf_name(t, x.key, sizeof x.key);
    /* a preset's experts, one 2-D tensor per expert, are one 3-D ffn_*_exps tensor per
    ** layer in a GGUF file: one buffer allocation (its row padding and alignment once) */
    bool stack = t->role == ROLE_EXPERT && strchr(t->name, '*');
    uint64_t first, nl, per;
    if (il == -2 && lc_group_span(l, t, &first, &nl, &per)) {
      for (uint64_t k0 = first; k0 < first + nl; k0++) {
        uint64_t k = lc_group_layer(l, t, first, nl, per, k0);
        x.bytes = stack ? acc_mul(&l->c->acc, b, per) : b, x.n = stack ? 1 : per;
        x.dev = lc_ffn_dev(l, t, k, lc_layer_dev(l, k)), x.layer = (long)k;
        x.dev = lc_ot_place(l, t, x.key, x.layer, x.dev, file);
        if (!lc_inst_push(l, &v, &nv, &cap, x)) break;
        x.skip = 0;
      }
    } else {
      uint64_t layer = input ? UINT64_MAX : il >= 0 && (uint64_t)il < l->n_layer ? (uint64_t)il : l->n_layer;
      int dev = input ? -1 : lc_layer_dev(l, layer);
      /* an MTP block's tensor llama.cpp loads (a fused ffn_gate_up_exps): its block's device,
      ** moved as the trunk's experts are (--n-cpu-moe / --cpu-moe, --fit's patterns) */
      if (!input && il >= 0 && (uint64_t)il >= l->n_layer && (uint64_t)il < l->n_layer_all)
        dev = lc_ffn_dev(l, t, (uint64_t)il, lc_block_dev(l, (uint64_t)il));
      if (!input && layer < l->n_layer) dev = lc_ffn_dev(l, t, layer, dev);
      dev = lc_ot_place(l, t, x.key, il >= 0 ? il : -1, dev, file);
      bool one = stack && il >= 0;
      x.bytes = one ? acc_mul(&l->c->acc, b, t->count) : b, x.n = one ? 1 : t->count, x.dev = dev;
      lc_inst_push(l, &v, &nv, &cap, x);
    }
    if (t->role == ROLE_EMBED && !has_head && l->m->tied_embeddings) lc_tied_output(l, t, g, b);
  }
  /* a .gguf's tensors in the file's order; a built-in model's in llama-quantize's */
  if (!file && nv > 1) qsort(v, nv, sizeof *v, lc_inst_cmp);
  /* the tied output's duplicate of token_embd, on a Metal GPU */
  bool tied_gpu = !has_head && l->m->tied_embeddings && l->metal && l->mmap && lc_layer_dev(l, l->n_layer) >= 0;
  for (size_t i = 0; i < nv; i++) {
    r.pos = acc_add(&l->c->acc, r.pos, v[i].skip);
    rg.pos = acc_add(&l->c->acc, rg.pos, v[i].skip);
    lc_place(l, &r, &rg, v[i].t, v[i].g, v[i].bytes, v[i].dev, v[i].n, tied_gpu && v[i].t->role == ROLE_EMBED);
  }
  free(v);
  /* CPU_Mapped: the file's range from the first to the last tensor read in place; without
  ** mmap a plain host buffer of those tensors */
  l->host_mapped = !l->mmap ? l->host_plain : r.open ? r.last_end - r.first : 0;
  /* Metal_Mapped (MTL0_Mapped): a device whose buffers can wrap host memory
  ** (caps.buffer_from_host_ptr: Metal; not CUDA / ROCm / Vulkan) gets, with mmap, one buffer
  ** per file over the mapped range from its first to its last tensor (src/llama-model.cpp
  ** load_tensors, ggml_backend_dev_buffer_from_host_ptr over
  ** llama_model_loader::get_mapping_range), the host tensors between them included: with
  ** every layer offloaded the whole file but token_embd's place in it. gpt-oss-20b MXFP4 on
  ** an Apple M5 (b7217) prints 11536.18 MiB; a split file prints a buffer per file (only
  ** their sum is modelled). One GPU: Metal exposes one device. */
  if (l->metal && l->mmap && rg.open && l->n_gpu > 0)
    l->gpu[0].model = acc_add(&l->c->acc, l->gpu[0].model, rg.last_end - rg.first);
}

/* ---------------------------------------------------------------- weight copies */

/* A tensor's place in the graph (LW_* of ggml_alloc_sim.h) by its GGUF or Hugging Face
** name, first match; what the graph does not read (shared experts, q/k norms) is none. */
typedef struct lc_wname {
  const char *part;
  int kind;
} lc_wname;

static const lc_wname LC_WNAMES[] = {
    /* LFM2's short conv (GGUF shortconv.*, Hugging Face conv.*): in_proj the fused B/C/x product,
    ** the depthwise kernel SSM_CONV reads, out_proj (matched below) */
    {"shortconv.in_proj", LW_QKV}, {"conv.in_proj", LW_QKV}, {"shortconv.conv", LW_DN_CONV}, {"conv.conv.", LW_DN_CONV},
    /* Mamba-2 (GGUF ssm_*, Hugging Face mamba.*): D read by its MUL (the A slot is SSM_SCAN's) */
    {"ssm_d", LW_DN_A}, {"mamba.D", LW_DN_A},
    /* gated DeltaNet, GGUF then Hugging Face names (a longer name before its prefix) */
    {"ssm_beta_alpha", LW_DN_ALPHA}, {"in_proj_ba.", LW_DN_ALPHA}, {"ssm_alpha", LW_DN_ALPHA}, {"in_proj_a.", LW_DN_ALPHA},
    {"ssm_beta", LW_DN_BETA}, {"in_proj_b.", LW_DN_BETA}, {"ssm_a", LW_DN_A}, {"A_log", LW_DN_A},
    {"ssm_dt", LW_DN_ALPHA}, {"dt_bias", LW_DN_ALPHA}, /* named biases: the decay's */
    {"conv1d", LW_DN_CONV}, {"ssm_norm", LW_DN_NORM}, {"linear_attn.norm", LW_DN_NORM}, {"attn_gate.", LW_DN_Z},
    {"self_attn.gate_proj", LW_DN_Z}, /* AFMoE's attention output gate (GGUF attn_gate) */
    {"in_proj_z", LW_DN_Z}, {"ssm_out", LW_O}, {"in_proj_qkv", LW_QKV}, /* in_proj_qkvz: lc_wadd_split */
    {"ssm_in.", LW_QKV}, /* the legacy fused qkvz, read whole */
    {"attn_q_a_norm", LW_Q_A_NORM}, {"q_a_layernorm", LW_Q_A_NORM}, {"attn_q_a.", LW_Q_A}, {"q_a_proj", LW_Q_A},
    {"attn_q_b.", LW_Q_B}, {"q_b_proj", LW_Q_B}, {"attn_kv_a_norm", LW_KV_A_NORM}, {"kv_a_layernorm", LW_KV_A_NORM},
    {"attn_kv_a_mqa", LW_KV_A}, {"kv_a_proj_with_mqa", LW_KV_A}, {"attn_k_b.", LW_K_B}, {"attn_v_b.", LW_V_B},
    {".k_b_proj.", LW_K_B}, {".v_b_proj.", LW_V_B}, /* a preset's kv_b_proj split as a GGUF holds it */
    {"attn_kv_b.", LW_K_B}, /* MiniCPM3's wkv_b, whole (minicpm3.cpp) */
    {".kv_b_proj.", LW_K_B}, /* ... or whole (no gguf: quant): lc_weight_table shares it out */
    {"attn_qkv", LW_QKV}, {"query_key_value", LW_QKV}, {"qkv_proj", LW_QKV}, {"c_attn", LW_QKV},
    {"attn.Wqkv", LW_QKV}, /* DBRX's fused projection (norm_attn_norm.attn.Wqkv) */
    /* DBRX's norms: norm_1 (GGUF attn_norm) and norm_2 before the MoE (GGUF attn_output_norm, not attn_output) */
    {"attn_output_norm", LW_FFN_NORM}, {"norm_attn_norm.norm_1", LW_ATTN_NORM}, {"norm_attn_norm.norm_2", LW_FFN_NORM},
    {"attn_q.", LW_Q}, {"q_proj", LW_Q}, {"attn_k.", LW_K}, {"k_proj", LW_K}, {"attn_v.", LW_V}, {"v_proj", LW_V},
    {"attn_output", LW_O}, {"o_proj", LW_O}, {"attention.dense", LW_O}, {"out_proj", LW_O}, {"attn.c_proj", LW_O},
    {"self_attn.dense", LW_O}, /* phi2's output projection (transformers PhiAttention.dense) */
    {"ffn_gate_inp", LW_ROUTER}, {"exp_probs_b", LW_ROUTER}, {"ffn_gate_up_exps", LW_GATE_EXPS}, /* fused: the gate's slot */
    {"ffn_gate_exps", LW_GATE_EXPS}, {"ffn_up_exps", LW_UP_EXPS},
    {"ffn_gate_shexp", LW_GATE}, {"ffn_up_shexp", LW_UP}, {"ffn_down_shexp", LW_DOWN},
    {"ffn_down_exps", LW_DOWN_EXPS}, {"gate_up_proj", LW_UP}, {"ffn_gate.", LW_GATE}, {"gate_proj", LW_GATE},
    {".w1.", LW_GATE}, {"experts.mlp.w1", LW_GATE}, {"experts.mlp.v1", LW_UP}, {"experts.mlp.w2", LW_DOWN}, /* DBRX */
    {"ffn_up.", LW_UP}, {"up_proj", LW_UP}, {"dense_h_to_4h", LW_UP},
    {"c_fc_0", LW_GATE}, {"c_fc_1", LW_UP}, /* EXAONE 3.x's gate and up (ExaoneGatedMLP) */ {"c_fc", LW_UP},
    {".w3.", LW_UP}, {"ffn_down.", LW_DOWN}, {"down_proj", LW_DOWN}, {"dense_4h_to_h", LW_DOWN},
    {"mlp.c_proj", LW_DOWN}, {"mlp.fc1", LW_UP}, {"mlp.fc2", LW_DOWN}, /* phi2's PhiMLP */ {".w2.", LW_DOWN}, {"attn_norm", LW_ATTN_NORM}, {"input_layernorm", LW_ATTN_NORM},
    /* Apertus's pre-norms (the leading dot keeps post_attention_layernorm and Gemma's / OLMo 2's
    ** pre_ / post_feedforward_layernorm out) */
    {".attention_layernorm", LW_ATTN_NORM}, {".feedforward_layernorm", LW_FFN_NORM},
    {"ln_1.", LW_ATTN_NORM}, {"ffn_norm", LW_FFN_NORM}, {"post_attention_layernorm", LW_FFN_NORM},
    {"ln_2.", LW_FFN_NORM}, {"output_norm", LW_OUT_NORM}, {"final_layer_norm", LW_OUT_NORM},
    {"word_embeddings_layernorm", LW_TOK_NORM}, {"token_embd_norm", LW_TOK_NORM},
    {"model.norm.", LW_OUT_NORM}, {"ln_f.", LW_OUT_NORM},
};

static int lc_weight_kind(const inv_tensor *t) {
  size_t n = strlen(t->name);
  /* GGUF's and most Hugging Face biases are "<weight>.bias"; gpt-oss's expert biases
  ** (gate_up_proj_bias) and DeepSeek-V3's selection bias (e_score_correction_bias) "_bias" */
  bool bias = n > 5 && (strcmp(t->name + n - 5, ".bias") == 0 || strcmp(t->name + n - 5, "_bias") == 0);
  if (!bias && strstr(t->name, "bias")) return -1;
  int kind = -1;
  bool shared = strstr(t->name, "shexp") || strstr(t->name, "shared_expert");
  if (t->role == ROLE_EMBED) kind = LW_TOKEN_EMBD;
  else if (t->role == ROLE_LM_HEAD) kind = LW_OUTPUT;
  else if (t->role == ROLE_ROUTER) kind = shared ? LW_SH_GATE_INP : LW_ROUTER; /* ffn_gate_inp_shexp */
  else if (t->role == ROLE_POS_EMBED) return -1;
  for (size_t i = 0; kind < 0 && i < sizeof LC_WNAMES / sizeof LC_WNAMES[0]; i++)
    if (strstr(t->name, LC_WNAMES[i].part)) kind = LC_WNAMES[i].kind;
  if (kind < 0) return -1;
  if (t->role == ROLE_EXPERT && (kind == LW_GATE || kind == LW_UP || kind == LW_DOWN))
    kind += LW_GATE_EXPS - LW_GATE; /* per-expert tensors merge into ffn_*_exps */
  if (t->role == ROLE_SHARED_EXPERT && (kind == LW_GATE || kind == LW_UP || kind == LW_DOWN))
    kind += LW_SH_GATE - LW_GATE; /* the shared experts' own FFN */
  else if (t->role == ROLE_SHARED_EXPERT)
    return -1;
  return bias ? kind + LW_BIAS : kind;
}

/* the first numeric component of a name (its layer), -1 for none */
static long lc_first_index(const char *name) {
  for (const char *p = name; *p; p++)
    if ((p == name || p[-1] == '.') && isdigit((unsigned char)*p)) return strtol(p, NULL, 10);
  return -1;
}

/* n instances of a tensor into slot (row, kind): ggml_nbytes, and once per ggml tensor the
** padding ggml_backend_cuda_buffer_type_get_alloc_size adds to quantized rows (a copy in
** the first GPU's compute buffer takes exactly that, aligned by ggml-alloc) */
static void lc_wadd(lc *l, uint64_t *wb, uint64_t row, int kind, const inv_tensor *t, const ggml_type_info *g,
                    uint64_t b, uint64_t n) {
  bytes_acc *a = &l->c->acc;
  uint64_t *slot = &wb[row * LW_N + (uint64_t)kind], ne0 = t->shape[t->ndim - 1];
  if (*slot == 0 && g->block > 1 && ne0 % LC_ROW_PAD) *slot = (LC_ROW_PAD - ne0 % LC_ROW_PAD) / g->block * g->type_size;
  *slot = acc_add(a, *slot, acc_mul(a, b, n));
}

/* n instances of weight t into slot (row, kind), or into the two slots of the GGUF tensors
** convert_hf_to_gguf splits it into:
** - a Hugging Face expert gate_up (gpt-oss's [E, h, 2 I] gate_up_proj and its bias):
**   ffn_gate_exps and ffn_up_exps, half each;
** - Qwen3-Next's in_proj_qkvz {2 key + 2 value, h}: attn_qkv and attn_gate, the gate's
**   z_rows (value) rows of it;
** - a DeepSeek preset's whole kv_b_proj {heads x (qk_nope + v_head), kv_lora} (no gguf:
**   quant): attn_k_b and attn_v_b, qk_nope (head_dim - the rope dims) and v_head rows a head */
static void lc_wadd_split(lc *l, uint64_t *wb, uint64_t row, int kind, const inv_tensor *t, const ggml_type_info *g,
                          uint64_t b, uint64_t n, uint64_t z_rows) {
  const model_desc *m = l->m;
  if (t->role == ROLE_EXPERT && (kind & ~LW_BIAS) == LW_UP_EXPS && strstr(t->name, "gate_up")) {
    lc_wadd(l, wb, row, kind - LW_UP_EXPS + LW_GATE_EXPS, t, g, b / 2, n);
    lc_wadd(l, wb, row, kind, t, g, b / 2, n);
    return;
  }
  if (kind == LW_QKV && strstr(t->name, "in_proj_qkvz") && t->ndim == 2 && z_rows && z_rows < t->shape[0]) {
    uint64_t zb = b / t->shape[0] * z_rows;
    lc_wadd(l, wb, row, LW_DN_Z, t, g, zb, n);
    lc_wadd(l, wb, row, LW_QKV, t, g, b - zb, n);
    return;
  }
  uint64_t per = m->heads && t->ndim == 2 ? t->shape[0] / m->heads : 0, nope = m->head_dim - m->rotary_dim;
  if (kind != LW_K_B || !strstr(t->name, "kv_b_proj") || !per || nope >= per || m->rotary_dim >= m->head_dim) {
    lc_wadd(l, wb, row, kind, t, g, b, n);
    return;
  }
  uint64_t kb = b / per * nope;
  lc_wadd(l, wb, row, LW_K_B, t, g, kb, n);
  lc_wadd(l, wb, row, LW_V_B, t, g, b - kb, n);
}

/* the bytes of a GPU copy of every weight the graph reads, per layer (row n_layer: the
** output layer and token_embd); a tied output is token_embd duplicated (create_tensor
** with TENSOR_DUPLICATED). NULL on out of memory. */
static uint64_t *lc_weight_table(lc *l, const lc_graph_spec *sp) {
  uint64_t z_rows = sp->dn_sv * sp->dn_hv; /* a DeltaNet layer's value width: its gate's rows */
  const inventory *inv = &l->m->inv;
  uint64_t rows = l->n_layer + 1, *wb = calloc((size_t)rows * LW_N, sizeof *wb);
  if (!wb) return NULL;
  bool has_head = false;
  for (size_t i = 0; i < inv->n; i++) has_head = has_head || inv->t[i].role == ROLE_LM_HEAD;
  for (size_t i = 0; i < inv->n; i++) {
    const inv_tensor *t = &inv->t[i];
    int kind = est_vision_tensor(t) ? -1 : lc_weight_kind(t);
    if (kind < 0 || t->ndim < 1) continue;
    const ggml_type_info *g = lc_tensor_type(t);
    uint64_t b = lc_tensor_bytes(l, t, g);
    long il = lc_first_index(t->name);
    if ((kind >= LW_OUT_NORM && kind <= LW_TOKEN_EMBD + LW_BIAS) || (kind & ~LW_BIAS) == LW_TOK_NORM) {
      lc_wadd(l, wb, l->n_layer, kind, t, g, b, 1);
      if (kind == LW_TOKEN_EMBD && !has_head && l->m->tied_embeddings) lc_wadd(l, wb, l->n_layer, LW_OUTPUT, t, g, b, 1);
    } else if (il >= 0 && (uint64_t)il < l->n_layer) {
      lc_wadd_split(l, wb, (uint64_t)il, kind, t, g, b, t->count, z_rows);
    } else if (il < 0 && strchr(t->name, '*')) {
      uint64_t first, nl, per;
      if (lc_group_span(l, t, &first, &nl, &per))
        for (uint64_t k = first; k < first + nl; k++)
          lc_wadd_split(l, wb, lc_group_layer(l, t, first, nl, per, k), kind, t, g, b, per, z_rows);
    }
  }
  return wb;
}

static uint64_t lc_row(lc *l, const ggml_type_info *t, uint64_t n);

/* a GPU copy of one layer's K or V view over all cells (the worst-case reserve): the
** cache's bytes, the CUDA padding of a quantized row of head size */
static uint64_t lc_kv_copy(lc *l, const ggml_type_info *t, uint64_t heads, uint64_t head, uint64_t cells) {
  uint64_t b = acc_mul(&l->c->acc, lc_row(l, t, heads * head), cells);
  if (t->block > 1 && head % LC_ROW_PAD) b = acc_add(&l->c->acc, b, lc_row(l, t, LC_ROW_PAD - head % LC_ROW_PAD));
  return b;
}

/* ---------------------------------------------------------------- KV cache */

static uint64_t lc_row(lc *l, const ggml_type_info *t, uint64_t n) { /* bytes of n elements' rows */
  return acc_mul(&l->c->acc, bytes_ceildiv(n, t->block), t->type_size);
}

/* cells per stream of a group: the iSWA cache keeps min(n_ctx_seq, pad(n_swa x
** sequences sharing the stream + n_ubatch, 256)) for sliding-window layers. Before PR #13833
** ("llama : use n_swa + n_ubatch cells for SWA cache", opened 2025-05-27:
** https://github.com/ggml-org/llama.cpp/pull/13833) the new tokens' share was the whole
** batch: GGML_PAD(n_swa x n_seq_max + n_batch, n_pad) (llama_kv_cache_unified_iswa, n_batch
** the context's, at most n_ctx; n_pad 256 with flash attention, else 32). A b5452 log of
** gemma-3-27b with -np 16 -c 49152 -fa (llama.cpp issue #13703) prints "creating SWA KV
** cache, size = 18432 cells" = 1024 x 16 + 2048, where n_ubatch 128 would give 16640 */
static uint64_t lc_cells(const lc *l, const kv_group *g) {
  if (!g->window || !lc_newer(l, LC_B_ISWA) || scn_bool(l->s, "runtime.swa_full", false)) return l->n_ctx_seq;
  uint64_t share = l->n_stream == 1 ? l->n_seq : 1;
  uint64_t swa = lc_pad(g->window * share + l->n_ub, 256);
  if (!lc_newer(l, LC_B_SWA_UBATCH)) swa = lc_pad(g->window * share + l->n_b, l->fa ? 256 : 32);
  return swa < l->n_ctx_seq ? swa : l->n_ctx_seq;
}

/* The recurrent layers' states (llama_memory_recurrent, "RS buffer"): per layer the conv
** state r (n_embd_r) and the SSM state s (n_embd_s), type_r and type_s F32, for
** max(1, n_seq_max) sequences, on the layer's device when K/V are offloaded. The model
** description gives r + s per layer and sequence (state_elems, of which conv_elems is r):
** r and s are two tensors, each padded to the buffer's alignment
** (ggml_backend_alloc_ctx_tensors_from_buft); without conv_elems, one.
** With n_rs_seq rollback snapshots (cparams.n_rs_seq: llama-server sets it to the draft's
** --spec-draft-n-max for a draft-mtp target with recurrent memory, --rs-seq otherwise) both
** tensors have mem_size x (1 + n_rs_seq) rows (llama_memory_recurrent's constructor,
** src/llama-memory-recurrent.cpp: `n_rows = mem_size * (1 + n_rs_seq)`, as a public
** reading of that file quotes it; the resize path of a stored copy allocates the same). A
** b9849 Vulkan log of a Qwen3.6-27B-shaped file prints "size = 1795.50 MiB (4 cells, 64
** layers, 4 seqs  2 rs_seq)": 48 layers x 12 rows x (120 KiB + 3 MiB), to the MiB
** (tests/test_holdout21_llamacpp.c) */
static void lc_rs(lc *l, const kv_group *g) {
  bytes_acc *a = &l->c->acc;
  uint64_t rows = acc_mul(a, l->n_seq > 1 ? l->n_seq : 1, acc_add(a, l->n_rs_seq, 1));
  uint64_t r = acc_mul3(a, g->conv_elems, 4, rows), st = acc_mul3(a, g->state_elems - g->conv_elems, 4, rows);
  for (uint64_t i = 0; i < g->layers; i++) {
    uint64_t il = lc_hybrid_layer(l, g->layers, i, true, i * l->n_layer / g->layers);
    int dev = l->offload_kqv ? lc_layer_dev(l, il) : -1;
    uint64_t al = dev < 0 ? LC_CPU_ALIGN : LC_CUDA_ALIGN;
    uint64_t b = acc_add(a, lc_pad(r, al), lc_pad(st, al));
    if (dev < 0)
      l->host_rs = acc_add(&l->c->acc, l->host_rs, b);
    else
      l->gpu[dev].rs = acc_add(&l->c->acc, l->gpu[dev].rs, b);
  }
}

/* A GGUF's MTP blocks (nextn_predict_layers) in the KV cache of the main context: the plain
** llama_kv_cache walks every block of n_layer_all without a layer filter (GLM4_MOE,
** DEEPSEEK2: llama_model::create_memory, default branch), a full-attention layer each; the
** hybrid memory of the DeltaNet models filters them out (il < n_layer()). Their tensors are
** not loaded (TENSOR_SKIP without MTP drafting): scripts/model_files.lua drops them.
** Source: llama.cpp 80fb11ac73e6 (2026-09, node-llama-cpp 3.21.1); older builds set
** n_layer_kv_from_start = n_layer - nextn_predict_layers for GLM4_MOE (no KV for them). */
static const kv_group *lc_nextn_group(const lc *l) {
  if (l->n_nextn == 0) return NULL;
  for (int gi = 0; gi < l->m->n_kv; gi++)
    if (l->m->kv[gi].kind == KV_STATE) return NULL;
  for (int gi = 0; gi < l->m->n_kv; gi++)
    if (l->m->kv[gi].kind != KV_CROSS && !l->m->kv[gi].window) return &l->m->kv[gi];
  return NULL;
}

/* the V row of an attention group: an MLA group's (v_dim 0: V is K's view) is kv_lora_rank
** wide before LC_B_VLESS, the width of its attn_kv_a_norm */
static uint64_t lc_v_dim(const lc *l, const kv_group *g) {
  if (g->v_dim || g->kind != KV_ATTN || lc_newer(l, LC_B_VLESS)) return g->v_dim;
  for (size_t i = 0; i < l->m->inv.n; i++) {
    uint64_t n = 0;
    if (lc_weight_kind(&l->m->inv.t[i]) == LW_KV_A_NORM && inv_tensor_elements(&l->m->inv.t[i], &n)) return n;
  }
  return 0;
}

/* set_swa_pattern's period from the count of full layers (il % period == period - 1):
** n_layer / full, the largest period with that count. Gemma 2 and gpt-oss 2, Gemma 3 6
** (26, 34, 48 and 62 layers: 4, 5, 8 and 10 full), Llama 4 4 (48 layers, 12 full); the
** smallest such period would give 4 for a 6-layer Gemma 3 and misplace the caches (make
** conformance, gemma3: 42.03 MiB real, 36.01 replayed with period 4) */
static uint64_t lc_swa_period(uint64_t n_layer, uint64_t full) {
  uint64_t p = full ? n_layer / full : n_layer;
  return p < 2 ? 2 : p;
}

/* lc_swa_period, but from where the full-attention layers sit when the description lists them
** (a KV_ATTN group without a window, with layer_ids) and they follow set_swa_pattern(p): layer il
** full exactly when il % p == p - 1, p the first full layer + 1. A count that p does not divide
** needs it: AFMoE's 3:1 pattern over 5 layers has its full layer at 3 (period 4), where 5 / 1
** gave 5 (make conformance afmoe: 0.5-6 MiB low at a 513-token ubatch before) */
static uint64_t lc_swa_period_of(const model_desc *m, uint64_t n_layer, uint64_t full) {
  for (int i = 0; i < m->n_kv && full && n_layer <= KV_MAX_IDS; i++) {
    const kv_group *g = &m->kv[i];
    if (g->kind != KV_ATTN || g->window || !g->has_ids || g->layers != full) continue;
    uint64_t p = 0;
    for (uint64_t il = 0; il < n_layer && !p; il++) if (g->ids[il / 64] >> (il % 64) & 1) p = il + 1;
    bool fits = p >= 2;
    for (uint64_t il = 0; il < n_layer && fits; il++)
      fits = (bool)(g->ids[il / 64] >> (il % 64) & 1) == (il % p == p - 1);
    if (fits) return p;
  }
  return lc_swa_period(n_layer, full);
}

/* The layer of the j-th of group g's layers in a model with sliding-window (or chunked) and
** full-attention layers in a pattern: hparams.set_swa_pattern(period) (llama.cpp
** src/llama-hparams.cpp; gemma2, gemma3, cohere2, gpt-oss, llama4) makes layer il sliding unless
** il % period == period - 1, so the j-th full layer is j x period + period - 1 and the sliding
** ones fill the rest. dflt for other models (no pattern, or every layer sliding). The layers'
** devices place their KV: gpt-oss-20b over 8 devices (4, 3, ..., 3, 2 layers) puts 2 full and 2
** sliding layers on the first and 1 full and 2 sliding on the second (a b6100-era log on
** 8 Ascend NPUs: KV 512.00 + 3.00 then 256.00 + 3.00 MiB), where spreading each group evenly
** gave both groups the even layers (515.00 and 515.00) */
static uint64_t lc_swa_layer(const lc *l, const kv_group *g, uint64_t j, uint64_t dflt) {
  uint64_t w = 0;
  for (int i = 0; i < l->m->n_kv; i++)
    if (l->m->kv[i].window && (l->m->kv[i].kind == KV_ATTN || l->m->kv[i].kind == KV_CHUNKED)) w += l->m->kv[i].layers;
  if (!w || w >= l->n_layer || g->kind == KV_STATE || g->kind == KV_CROSS) return dflt;
  uint64_t p = lc_swa_period_of(l->m, l->n_layer, l->n_layer - w);
  if (g->window && g->layers == w) return (j / (p - 1)) * p + j % (p - 1);
  if (!g->window && g->layers == l->n_layer - w) return j * p + p - 1;
  return dflt;
}

static void lc_kv(lc *l) {
  const kv_group *nx = lc_nextn_group(l);
  /* without flash attention (V stored transposed) a model whose layers' V widths differ pads
  ** every layer's V cache to n_embd_v_gqa_max() ([TAG_V_CACHE_VARIABLE], llama_kv_cache's
  ** constructor, llama-kv-cache.cpp at 80fb11a: "padding V cache"). Applied to Gemma 4, where
  ** it was measured (make conformance gemma4-ple: sliding 2 x 64, full 2 x 128, 1.25 MiB of KV
  ** at 512 cells where the unpadded rows give 1.00) */
  uint64_t v_pad = 0;
  if (!l->fa && strcmp(l->m->arch, "gemma4") == 0)
    for (int gi = 0; gi < l->m->n_kv; gi++)
      if (l->m->kv[gi].kind == KV_ATTN && l->m->kv[gi].kv_heads * lc_v_dim(l, &l->m->kv[gi]) > v_pad)
        v_pad = l->m->kv[gi].kv_heads * lc_v_dim(l, &l->m->kv[gi]);
  for (int gi = 0; gi < l->m->n_kv + (nx != NULL); gi++) {
    const kv_group *g = gi < l->m->n_kv ? &l->m->kv[gi] : nx;
    if (g->kind == KV_STATE) {
      lc_rs(l, g);
      continue;
    }
    uint64_t cells = acc_mul(&l->c->acc, lc_cells(l, g), l->n_stream);
    uint64_t k = acc_mul(&l->c->acc, lc_row(l, l->tk, g->kv_heads * g->k_dim), cells);
    uint64_t v = acc_mul(&l->c->acc, lc_row(l, l->tv, v_pad && g->kind == KV_ATTN ? v_pad : g->kv_heads * lc_v_dim(l, g)), cells);
    uint64_t n = gi < l->m->n_kv ? g->layers : l->n_nextn;
    for (uint64_t i = 0; i < n; i++) {
      /* a hybrid's or a sliding-window pattern's layers where they sit, other groups' layers
      ** spread evenly over the model's layers for placement; MTP blocks last */
      uint64_t il = gi == l->m->n_kv ? l->n_layer + i
                    : g->layers      ? lc_hybrid_layer(l, g->layers, i, false, lc_swa_layer(l, g, i, i * l->n_layer / g->layers))
                                     : 0;
      int dev = l->offload_kqv ? lc_block_dev(l, il) : -1;
      uint64_t a = dev < 0 ? LC_CPU_ALIGN : LC_CUDA_ALIGN;
      uint64_t b = acc_add(&l->c->acc, lc_pad(k, a), lc_pad(v, a));
      if (dev < 0)
        l->host_kv = acc_add(&l->c->acc, l->host_kv, b);
      else
        l->gpu[dev].kv = acc_add(&l->c->acc, l->gpu[dev].kv, b);
    }
  }
}

/* ---------------------------------------------------------------- compute */

/* The worst-case graph reserve (n_ubatch tokens, logits for every one, the full KV)
** is a peak over three phases of ggml-alloc's plan, each with the tensors live then:
** attention: the KQ mask (an input alive over every layer; f32, f16 with flash
**   attention), without flash attention the f32 KQ scores n_head x n_kv x n_ub (the
**   softmax runs in place), with it one f16 K/V view made contiguous (n_kv x kv dim),
**   and per token 5 hidden + 2 KV-width f32 vectors (residual, norm, q, k, v, kqv,
**   projection);
** FFN: the mask, 3 FFN-width vectors per token (gate, up, product; MoE: per used
**   expert, plus its down projections) and 2 hidden;
** output: the f32 logits n_vocab x n_ub and 2 hidden vectors.
** Fitted to shared/peers/llamacpp/results.jsonl (CPU backend, 6 models) and
** llamacpp-b4385-pythia28b-f16-v100 (CUDA0 162.00 MiB). Only a fallback now, where the
** allocator replay (lc_compute_cpu, lc_compute_replay) does not apply. */

typedef struct lc_phase {
  uint64_t attn, ffn, out, mask;
} lc_phase;

static lc_phase lc_phases(lc *l, bool mask_f16) {
  const model_desc *m = l->m;
  const block_spec *b = &m->block;
  bytes_acc *a = &l->c->acc;
  uint64_t ub = l->n_ub, kv = l->n_ctx_seq, h = m->hidden;
  uint64_t kvd = b->kv_dim ? b->kv_dim : h;
  lc_phase p;
  p.mask = acc_mul3(a, kv, lc_pad(ub, 64), mask_f16 ? 2 : 4);
  uint64_t attn = l->fa ? acc_mul(a, kv, kvd * 2) : acc_mul3(a, acc_mul(a, m->heads, kv), ub, 4);
  uint64_t per_tok = l->fa ? 4 * h : 5 * h + 2 * kvd;
  p.attn = acc_add(a, acc_add(a, attn, p.mask), acc_mul(a, ub, per_tok * 4));
  uint64_t used = b->experts_per_tok ? b->experts_per_tok : 1; /* ffn_dim counts every used expert */
  uint64_t ff = b->experts ? b->ffn_dim / used * used : b->ffn_dim;
  uint64_t ffw = acc_add(a, acc_mul(a, 3, ff), b->experts ? (b->experts_per_tok + 2) * h : 2 * h);
  p.ffn = acc_add(a, p.mask, acc_mul3(a, ub, ffw, 4));
  p.out = acc_add(a, acc_mul3(a, l->n_vocab, ub, 4), acc_mul(a, ub, 2 * h * 4));
  return p;
}

static uint64_t lc_max3(uint64_t x, uint64_t y, uint64_t z) {
  uint64_t m = x > y ? x : y;
  return m > z ? m : z;
}

/* small graph inputs: token ids, positions, output ids (int32 per token) */
static uint64_t lc_inputs(lc *l) {
  return acc_mul(&l->c->acc, l->n_ub, 3 * 4);
}

/* the prompt reserve's output rows: every token before LC_B_OUTPUTS_MAX, then
** min(n_ubatch, n_outputs_max) (llama_context::sched_reserve), n_outputs_max 0 meaning
** n_batch (the library default: node-llama-cpp, llama-cpp-python); unset, llama-server's
** cap min(-b, -np) (server_output_limits without a draft model) */
static uint64_t lc_outputs(const lc *l) {
  if (!lc_newer(l, LC_B_OUTPUTS_MAX)) return l->n_ub;
  uint64_t cap = scn_u64(l->s, "runtime.n_outputs_max", UINT64_MAX);
  if (cap == UINT64_MAX && l->embeddings) cap = 0; /* server_output_limits: n_batch with embeddings */
  if (cap == UINT64_MAX) cap = l->n_seq; /* -b caps it too, but n_ubatch <= n_batch */
  if (cap == 0) return l->n_ub;           /* n_batch, never below n_ubatch */
  return cap < l->n_ub ? cap : l->n_ub;
}

/* build_input_k_rot: the largest power of two from 64 up that divides the head size */
static uint64_t lc_rot_side(uint64_t head) {
  uint64_t n = 64;
  while (head % (n * 2) == 0) n *= 2;
  return n;
}

/* the input width of the first down projection of `role` (its FFN width), and in `layers`
** how many layers carry one (a 3-D expert stack or a '*' group counts its layers); 0: none */
static uint64_t lc_down_width(const lc *l, int role, uint64_t *layers) {
  uint64_t w = 0, n = 0;
  for (size_t i = 0; i < l->m->inv.n; i++) {
    const inv_tensor *t = &l->m->inv.t[i];
    if ((int)t->role != role || t->ndim < 2 || !strstr(t->name, "down")) continue;
    if (strstr(t->name, ".bias")) continue;
    if (!w) w = t->shape[t->ndim - 1];
    n += t->count;
  }
  if (layers) *layers = n;
  return w;
}

/* attention-free mamba / mamba2 (architectures/mamba.lua: one state group over every layer):
** src/models/mamba.cpp llama_model_mamba::graph with build_mamba_layer / build_mamba2_layer of
** mamba-base.cpp (llama.cpp 80fb11a). Mamba-1 when the inventory has x_proj (GGUF ssm_x
** {d_inner, dt_rank + 2 N}): conv1d [d_inner, 1, K], N from the SSM state (N x d_inner); no dt /
** B / C norms unless ssm_dt_b_c_rms (FalconMamba: the norms without weights, set by
** scripts/runtimes/llamacpp.lua). Mamba-2: conv1d [d_inner + 2 G N, 1, K], dt_bias [H], the
** grouped norm [d_inner] (mamba2.cpp load_arch_tensors: ssm_norm {d_inner / G, G}, required) */
static void lc_mamba_shape(const lc *l, const kv_group *g, lc_graph_spec *sp) {
  const model_desc *m = l->m;
  uint64_t ch = 0, kern = 0, xr = 0, H = 0, di = 0;
  for (size_t t = 0; t < m->inv.n; t++) {
    const inv_tensor *it = &m->inv.t[t];
    uint64_t el = 0;
    if (strstr(it->name, "conv1d.weight") && it->ndim >= 2) ch = it->shape[0], kern = it->shape[it->ndim - 1];
    if ((strstr(it->name, "ssm_x.") || strstr(it->name, "x_proj.weight")) && it->ndim == 2) xr = it->shape[0];
    if ((strstr(it->name, "ssm_dt.bias") || strstr(it->name, ".dt_bias")) && it->ndim >= 1) H = it->shape[0];
    if ((strstr(it->name, "ssm_norm") || strstr(it->name, "mixer.norm")) && inv_tensor_elements(it, &el)) di = el;
  }
  uint64_t n_s = g->state_elems > g->conv_elems ? g->state_elems - g->conv_elems : 0;
  if (!ch || kern < 2 || !n_s) return;
  if (xr) { /* Mamba-1: d_inner = the conv channels */
    uint64_t N = n_s % ch ? 0 : n_s / ch;
    if (!N || xr <= 2 * N) return;
    sp->m2_inner = sp->m2_heads = ch, sp->m2_state = N, sp->m2_groups = 0, sp->m1_dt_rank = xr - 2 * N;
    sp->m1_norms = scn_bool(l->s, "llamacpp.mamba_dt_b_c_rms", false) ? 2 : 1;
  } else { /* Mamba-2 */
    uint64_t gn2 = ch > di ? ch - di : 0;
    if (!H || !di || gn2 % 2 || n_s % di) return;
    uint64_t N = n_s / di;
    if (!N || (gn2 / 2) % N) return;
    sp->m2_inner = di, sp->m2_heads = H, sp->m2_state = N, sp->m2_groups = gn2 / 2 / N;
  }
  sp->sc_conv = kern, sp->sc_attn = 0, sp->dn_seqs = l->n_seq > 1 ? l->n_seq : 1;
  sp->ssm_only = sp->no_rope = true;
}

/* Gemma 4's graph shape (src/models/gemma4.cpp, llama.cpp 80fb11a; lc_graph.c lg_g4_build). The
** caches' groups give each kind's head size and KV heads and, summed, the layers that hold KV
** (n_layer_kv_from_start). The rest from the tensors: a GGUF's blk.<il>.* (a full layer's attn_q
** of heads x the full head size; attn_k without attn_v: K used as V; ffn_down's width before and
** from the KV-shared layers, use_double_wide_mlp; inp_gate's rows, the per-layer embedding), or the
** description's (architectures/gemma4.lua: the full layers' attention tagged "[global", the
** double-wide MLP "[w", per_layer_input_gate) */
static void lc_g4_shape(const lc *l, lc_graph_spec *sp) {
  const model_desc *m = l->m;
  uint64_t heads = sp->heads ? sp->heads : 1, full = 0, n_k = 0, n_v = 0, full_kv = 0;
  bool gguf = false;
  sp->g4 = true;
  /* ffn_gate and ffn_up apart on every layer (load_arch_tensors): the double-wide layers' up of
  ** 2 x feed_forward_length is not phi3's fused gate|up */
  sp->fused_up = false;
  sp->g4_ffn = sp->g4_ffn_shared = sp->g4_ple = sp->g4_kv_layers = 0;
  sp->g4_kvh[0] = sp->g4_kvh[1] = m->kv_heads ? m->kv_heads : heads;
  sp->g4_hk[0] = sp->g4_hk[1] = sp->head_k;
  for (int i = 0; i < m->n_kv; i++) {
    const kv_group *g = &m->kv[i];
    if (g->kind != KV_ATTN) continue;
    int c = g->window ? 1 : 0;
    sp->g4_kv_layers += g->layers, sp->g4_kvh[c] = g->kv_heads, sp->g4_hk[c] = g->k_dim;
    if (!c) full_kv = g->layers;
  }
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    unsigned il = 0;
    int end = 0;
    if (sscanf(t->name, "blk.%u.%n", &il, &end) == 1 && end > 0) {
      const char *k = t->name + end;
      gguf = true;
      if (strncmp(k, "attn_q.", 7) == 0 && t->ndim == 2 && t->shape[0] == heads * sp->g4_hk[0] && sp->g4_hk[0] != sp->g4_hk[1]) full++;
      if (strncmp(k, "attn_k.", 7) == 0) n_k++;
      if (strncmp(k, "attn_v.", 7) == 0) n_v++;
      if (strncmp(k, "ffn_down.", 9) == 0 && t->ndim == 2) *(il < sp->g4_kv_layers ? &sp->g4_ffn : &sp->g4_ffn_shared) = t->shape[1];
      if (strncmp(k, "inp_gate.", 9) == 0 && t->ndim == 2) sp->g4_ple = t->shape[0];
      continue;
    }
    if (strstr(t->name, "vision") || strstr(t->name, "audio")) continue; /* the towers' own MLPs */
    bool glob = strstr(t->name, "[global") != NULL;
    if (strstr(t->name, "experts.gate_up_proj")) sp->gate_up_exps = true; /* ffn_gate_up_exps (tensor_mapping.py) */
    if (glob && strstr(t->name, ".q_proj.")) full += t->count;
    if (glob && strstr(t->name, ".k_proj.")) n_k += t->count;
    if (glob && strstr(t->name, ".v_proj.")) n_v += t->count;
    if (strstr(t->name, ".mlp") && strstr(t->name, "down_proj") && !strstr(t->name, "experts") && t->ndim == 2)
      *(strstr(t->name, "[w") ? &sp->g4_ffn_shared : &sp->g4_ffn) = t->shape[1];
    if (strstr(t->name, "per_layer_input_gate") && t->ndim == 2) sp->g4_ple = t->shape[0];
  }
  /* a GGUF whose two head sizes are equal: the full layers among the KV-shared ones in the
  ** proportion of those that hold KV */
  if (gguf && sp->g4_hk[0] == sp->g4_hk[1] && sp->g4_kv_layers)
    full = full_kv + (sp->n_layer - sp->g4_kv_layers) * full_kv / sp->g4_kv_layers;
  sp->g4_k_eq_v = n_k > n_v;
  if (sp->g4_ffn_shared == sp->g4_ffn) sp->g4_ffn_shared = 0;
  /* hparams.set_swa_pattern: the layer kinds over all layers, the KV-shared ones included */
  sp->swa_period = lc_swa_period(sp->n_layer, full);
  sp->iswa = full && full < sp->n_layer;
  /* n_embd_v_gqa_max() over every layer (llama-hparams.cpp) */
  sp->g4_vmax = sp->g4_kvh[0] * sp->g4_hk[0];
  if (sp->g4_kvh[1] * sp->g4_hk[1] > sp->g4_vmax) sp->g4_vmax = sp->g4_kvh[1] * sp->g4_hk[1];
  /* build_input_k_rot per cache: the largest power of two from 64 up dividing its head size */
  sp->g4_rot_n[0] = lc_rot_side(sp->g4_hk[0]), sp->g4_rot_n[1] = lc_rot_side(sp->g4_hk[1]);
}

/* MLA's widths off the weights (deepseek2.cpp, minicpm3.cpp): q_lora attn_q_a_norm's, kv_lora
** attn_kv_a_norm's; with heads, V heads the output projection's input over the heads (mla_hv);
** with kva, wkv_a_mqa's rows (kv_lora + the rope columns) */
static void lc_mla_widths(const lc *l, lc_graph_spec *sp, uint64_t heads, uint64_t *kva) {
  const model_desc *m = l->m;
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    int kind = lc_weight_kind(t);
    uint64_t n = 0;
    if (!inv_tensor_elements(t, &n)) l->c->acc.overflow = true;
    if (kind == LW_Q_A_NORM && !sp->mla_q_lora) sp->mla_q_lora = n;
    if (kind == LW_KV_A_NORM && !sp->mla_kv_lora) sp->mla_kv_lora = n;
    if (heads && kind == LW_O && !sp->mla_hv && m->hidden) sp->mla_hv = n / m->hidden / heads;
    if (kva && kind == LW_KV_A && !*kva && t->ndim == 2) *kva = t->shape[0];
  }
}

static void lc_graph_shape(const lc *l, lc_graph_spec *sp) {
  const model_desc *m = l->m;
  const block_spec *b = &m->block;
  const kv_group *g0 = m->n_kv ? &m->kv[0] : NULL;
  uint64_t heads = m->heads ? m->heads : 1;
  uint64_t hk = g0 && g0->k_dim ? g0->k_dim : m->head_dim ? m->head_dim : (b->q_dim ? b->q_dim : m->hidden) / heads;
  uint64_t used = b->experts_per_tok ? b->experts_per_tok : 1;
  *sp = (lc_graph_spec){.n_tok = l->n_ub,
                        .n_out = lc_outputs(l),
                        .n_stream = l->n_stream,
                        .n_layer = l->n_layer,
                        .hidden = m->hidden,
                        .vocab = l->n_vocab,
                        .heads = heads,
                        .kv_heads = m->kv_heads ? m->kv_heads : heads,
                        .head_k = hk,
                        .head_v = g0 && g0->v_dim ? g0->v_dim : hk,
                        .ffn = b->experts ? b->ffn_dim / used : b->ffn_dim,
                        .experts = b->experts,
                        .experts_used = b->experts ? used : 0,
                        .fa = l->fa,
                        .gated = b->gated,
                        .layer_norm = !b->rms,
                        .mask_cast = l->fa && !lc_newer(l, LC_B_F16_MASK),
                        .no_embd_leaf = !lc_newer(l, LC_B_EMBD_SELECT)};
  if (b->experts) {
    uint64_t ew = lc_down_width(l, ROLE_EXPERT, NULL), lead = 0, dw = lc_down_width(l, ROLE_MLP, &lead);
    if (ew) sp->ffn = ew;
    sp->dense_lead = dw ? lead : 0, sp->dense_ffn = dw;
    sp->shexp_ffn = lc_down_width(l, ROLE_SHARED_EXPERT, NULL);
    sp->moe_unnorm = b->moe_unnormalized;
    sp->moe_scaled = b->moe_scaled;
  }
  /* gpt-oss (openai-moe.cpp): SOFTMAX_WEIGHT gating with the router's bias, the output rows
  ** taken after the last layer (make conformance: a generated gpt-oss file, every setting
  ** within 64 B; -5.3% and -17% before) */
  sp->moe_softmax_w = sp->rows_late = strcmp(m->arch, "gpt_oss") == 0;
  /* Qwen2-MoE (src/models/qwen2moe.cpp, llama.cpp 80fb11a; of architectures/moe.lua's model
  ** types the only one with a gated shared expert): build_moe_ffn(..., LLM_FFN_SILU, false, ...)
  ** never renormalizes the top-k weights, whatever the config's norm_topk_prob, and gates the
  ** shared expert by silu(g) / g of g = ffn_gate_inp_shexp x */
  if (strcmp(m->arch, "moe") == 0 && sp->shexp_ffn)
    for (size_t t = 0; t < m->inv.n; t++)
      if (strstr(m->inv.t[t].name, "gate_inp_shexp") || strstr(m->inv.t[t].name, "shared_expert_gate"))
        sp->shexp_gate = sp->shexp_gate_silu = sp->moe_unnorm = true;
  sp->exps_bias = l->exps_bias, sp->gate_up_exps = l->gate_up_exps;
  /* phi3's fused wqkv (a "qkv" weight of Q + 2 KV rows; not a gated Q of twice the rows, nor
  ** a DeltaNet mixer's attn_qkv) and fused gate|up (an "up" weight of 2 x the FFN's rows) */
  uint64_t qkv_rows = (b->q_dim ? b->q_dim : m->hidden) + 2 * (b->kv_dim ? b->kv_dim : m->hidden);
  bool recurrent = est_model_recurrent(m);
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    if (t->ndim != 2) continue;
    /* (GPT-2 / GPTBigCode's c_attn, Ling 2.0's query_key_value: llama.cpp's wqkv; GPT-2's c_attn is a
    ** Conv1D, stored {in, out}: its output rows are shape[1], which llama.cpp's converter transposes) */
    bool conv1d = strstr(t->name, "c_attn") && t->shape[0] == m->hidden && t->shape[1] == qkv_rows;
    if (t->role == ROLE_ATTN && !recurrent && (t->shape[0] == qkv_rows || conv1d) &&
        (strstr(t->name, "qkv") || strstr(t->name, "c_attn") || strstr(t->name, "query_key_value")))
      sp->fused_qkv = true;
    if (t->role == ROLE_MLP && b->gated && !b->experts && t->shape[0] == 2 * b->ffn_dim && strstr(t->name, "up"))
      sp->fused_up = true;
  }
  sp->qkv_bias = l->qkv_bias, sp->probs_b = l->probs_b;
  /* an attention output gate of its own projection (AFMoE's attn_gate / self_attn.gate_proj) in a
  ** model without recurrent layers (the DeltaNet hybrids' attn_gate is their mixer's z) */
  for (size_t i = 0; i < m->inv.n && !recurrent; i++)
    sp->attn_out_gate = sp->attn_out_gate || lc_weight_kind(&m->inv.t[i]) == LW_DN_Z;
  /* Arcee AFMoE (src/models/afmoe.cpp, llama.cpp 80fb11a): use_rope is n_no_rope_layer_step > 0 &&
  ** (il + 1) % step != 0, a step load_arch_hparams never reads: llama-hparams.h's default 4 (the
  ** global layers of the released 3:1 pattern; no ROPE node there, GGML_SCHED_DEBUG=2) */
  if (strcmp(m->arch, "afmoe") == 0) sp->nope_step = 4;
  for (size_t i = 0; i < m->inv.n; i++) /* the decoder's own (not a vision tower's: the mmproj file's) */
    sp->learned_pos = sp->learned_pos || (m->inv.t[i].role == ROLE_POS_EMBED && !inv_vision_name(m->inv.t[i].name) &&
                                          !strstr(m->inv.t[i].name, "audio"));
  sp->post_norms = strcmp(m->arch, "olmo") == 0 && !b->experts; /* OLMo 2 / 3, not OLMoE */
  /* phi2.cpp, falcon.cpp (Falcon-7B: one input_layernorm): the parallel attention and FFN read one
  ** LayerNorm output; falcon's FFN is reached first (ggml_add(ffn_out, attn_out)) */
  bool ffn_norm = false;
  for (size_t i = 0; i < m->inv.n; i++)
    ffn_norm = ffn_norm || lc_weight_kind(&m->inv.t[i]) == LW_FFN_NORM;
  sp->shared_norm = b->parallel_residual && !b->rms && !ffn_norm && !b->experts && !recurrent;
  sp->ffn_first = sp->shared_norm && strcmp(m->arch, "falcon") == 0;
  /* bloom.cpp: ALiBi (no RoPE, no positions input: the bias is flash attention's / the softmax's
  ** max_bias) and the embeddings' LayerNorm */
  sp->embd_norm = strcmp(m->arch, "bloom") == 0;
  sp->no_rope = sp->no_rope || sp->embd_norm;
  if (g0 && g0->kind == KV_ATTN && g0->v_dim == 0) {
    /* MLA (deepseek2.cpp): the cache row is kv_lora (attn_kv_a_norm's width) + rope; Q
    ** heads of nope + rope (head_dim); q_lora attn_q_a_norm's width (none: wq); V heads the
    ** output projection's input over the heads */
    lc_mla_widths(l, sp, heads, NULL);
    sp->mla_hk = m->head_dim;
    sp->mla_rope = sp->mla_kv_lora < g0->k_dim ? g0->k_dim - sp->mla_kv_lora : 0;
    sp->mla = sp->mla_rope && sp->mla_rope < sp->mla_hk && sp->mla_hv;
    sp->mla_k_elem = l->tk->block == 1 ? l->tk->type_size : 2;
  }
  if (g0 && g0->kind == KV_ATTN && g0->v_dim && !sp->mla && strcmp(m->arch, "minicpm3") == 0) {
    /* MiniCPM3 (src/models/minicpm3.cpp, llama.cpp 80fb11a): its MLA projections before a plain
    ** per-head cache; q_lora attn_q_a_norm's width, kv_lora attn_kv_a_norm's, the rope columns
    ** wkv_a_mqa's rows beyond kv_lora; and the lm-head scaling of the output norm */
    uint64_t kva = 0;
    lc_mla_widths(l, sp, 0, &kva);
    sp->mla_rope = kva > sp->mla_kv_lora ? kva - sp->mla_kv_lora : 0;
    sp->mla_expanded = sp->mla_q_lora && sp->mla_kv_lora && sp->mla_rope && sp->mla_rope < sp->head_k;
    sp->head_scale = true;
  }
  sp->n_kv[0] = sp->n_kv[1] = l->n_ctx_seq;
  uint64_t n_chunked = 0;
  for (int i = 0; i < m->n_kv; i++) {
    if (m->kv[i].window && m->kv[i].kind == KV_ATTN) sp->n_kv[1] = lc_cells(l, &m->kv[i]), sp->n_swa += m->kv[i].layers;
    if (m->kv[i].window && m->kv[i].kind == KV_CHUNKED) sp->n_kv[1] = lc_cells(l, &m->kv[i]), n_chunked += m->kv[i].layers;
  }
  uint64_t n_sliding = sp->n_swa;
  if (sp->n_swa >= sp->n_layer || sp->n_kv[1] == sp->n_kv[0]) sp->n_swa = 0;
  if (l->legacy_swa) sp->legacy_swa_period = lc_swa_period_of(m, sp->n_layer, sp->n_layer - n_sliding);
  if (n_sliding && n_sliding < sp->n_layer && lc_newer(l, LC_B_ISWA)) {
    /* sliding-window layers in a pattern (gemma2/gemma3, gpt-oss: hparams.set_swa_pattern,
    ** llama.cpp 80fb11a): llama_kv_cache_iswa, layer il sliding unless il % period ==
    ** period - 1, Q, K, V expanded in that order (whatever the two caches' sizes: each has
    ** its inputs) */
    sp->iswa = true, sp->swa_period = lc_swa_period_of(m, sp->n_layer, sp->n_layer - n_sliding), sp->n_swa = n_sliding;
  }
  if (n_chunked && n_chunked < sp->n_layer && lc_newer(l, LC_B_ISWA)) {
    /* Llama 4's chunked attention (src/models/llama4.cpp, llama.cpp 80fb11a): an iSWA cache
    ** whatever its sizes, set_swa_pattern(period) (3 chunked layers, then a full one), the
    ** full layers without RoPE (n_no_rope_layer_step, the same 4), the MoE layers every
    ** n_moe_layer_step-th (the rest dense), QK norm (use_kq_norm) unless 128 experts, and
    ** build_moe_ffn's weight_before_ffn */
    uint64_t p = lc_swa_period(sp->n_layer, sp->n_layer - n_chunked);
    sp->iswa = true, sp->swa_period = sp->nope_step = p, sp->nope_scale = true;
    sp->kq_norm = sp->experts != 128;
    sp->moe_w_before = sp->experts > 0;
    uint64_t n_moe = sp->n_layer - sp->dense_lead; /* the dense layers' count */
    if (b->experts && sp->dense_lead && n_moe) sp->moe_step = sp->n_layer / n_moe, sp->dense_lead = 0;
  }
  for (int i = 0; i < m->n_kv; i++) {
    const kv_group *g = &m->kv[i];
    /* Falcon-H1's state group covers every layer, beside its attention group */
    bool nemo = strcmp(m->arch, "nemotron_h") == 0, falcon = strcmp(m->arch, "falcon_h1") == 0;
    if (g->kind == KV_STATE && strcmp(m->arch, "mamba") == 0 && g->layers >= sp->n_layer) {
      lc_mamba_shape(l, g, sp);
      break;
    }
    if (g->kind != KV_STATE || !g->layers || (g->layers >= sp->n_layer && !falcon)) continue;
    if (strcmp(m->arch, "granitemoehybrid") == 0 || nemo || falcon) {
      /* Granite 4.0 hybrid's Mamba-2 layers (src/models/granite-hybrid.cpp, mamba-base.cpp at
      ** 80fb11a): in_proj {2 d_inner + 2 G N + H, h}, conv1d [d_inner + 2 G N, 1, K], dt_bias
      ** [H], the grouped norm [d_inner] (GGUF: ssm_in, ssm_conv1d {K, C}, ssm_dt.bias, ssm_norm
      ** {d_inner / G, G}); G N from the conv channels, N from the SSM state, d_inner x N */
      uint64_t ch = 0, kern = 0, H = 0, di = 0, di_out = 0;
      for (size_t t = 0; t < m->inv.n; t++) {
        const inv_tensor *it = &m->inv.t[t];
        uint64_t el = 0;
        if (strstr(it->name, "conv1d.weight") && it->ndim >= 2)
          ch = it->shape[0], kern = it->shape[it->ndim - 1];
        if ((strstr(it->name, "ssm_dt.bias") || strstr(it->name, ".dt_bias")) && it->ndim >= 1) H = it->shape[0];
        if ((strstr(it->name, "ssm_norm") || strstr(it->name, "mamba.norm") || strstr(it->name, "mixer.norm")) &&
            inv_tensor_elements(it, &el))
          di = el;
        /* Nemotron-H's MLP layers: a GGUF's blk.<il>.ffn_up (nemotron-h.cpp: n_ff(il) != 0) */
        /* without the grouped norm (Falcon-H1's mamba_rms_norm false) d_inner is ssm_out's input */
        if ((strstr(it->name, "ssm_out") || strstr(it->name, "mamba.out_proj.weight")) && it->ndim == 2) di_out = it->shape[1];
        unsigned il;
        int end = 0;
        if (nemo && sscanf(it->name, "blk.%u.ffn_up.%n", &il, &end) == 1 && end > 0 && il < 1024)
          sp->mlp_ids[il / 64] |= 1ull << (il % 64);
      }
      if (!di) di = di_out, sp->m2_no_norm = true;
      uint64_t gn2 = ch > di ? ch - di : 0, n_s = g->state_elems > g->conv_elems ? g->state_elems - g->conv_elems : 0;
      if (!ch || kern < 2 || !H || !di || gn2 % 2 || n_s % di) break;
      uint64_t N = n_s / di;
      if (!N || (gn2 / 2) % N) break;
      sp->sc_conv = kern, sp->m2_inner = di, sp->m2_heads = H, sp->m2_state = N, sp->m2_groups = gn2 / 2 / N;
      sp->sc_attn = sp->n_layer - g->layers, sp->dn_seqs = l->n_seq > 1 ? l->n_seq : 1;
      sp->sc_ids = g->has_ids && sp->n_layer <= KV_MAX_IDS ? g->ids : NULL;
      sp->falcon = falcon;
      sp->nemo = nemo, sp->no_rope = sp->no_rope || nemo; /* build_attention_layer: no RoPE, no positions */
      /* a description's layers (no blk.<il> names): MLP the layers neither Mamba nor attention */
      bool named = false;
      for (int w = 0; w < 16; w++) named = named || sp->mlp_ids[w];
      const kv_group *ag = NULL;
      for (int k = 0; k < m->n_kv; k++) if (m->kv[k].kind == KV_ATTN && m->kv[k].has_ids) ag = &m->kv[k];
      if (nemo && !named && ag && sp->sc_ids)
        for (uint64_t il = 0; il < sp->n_layer && il < 1024; il++)
          if (!(g->ids[il / 64] >> (il % 64) & 1) && !(ag->ids[il / 64] >> (il % 64) & 1)) sp->mlp_ids[il / 64] |= 1ull << (il % 64);
      break;
    }
    if (strcmp(m->arch, "jamba") == 0) {
      /* Jamba's Mamba-1 layers (src/models/jamba.cpp, build_mamba_layer of mamba-base.cpp at
      ** 80fb11a): conv1d [d_inner, 1, K] (GGUF ssm_conv1d {K, d_inner}), x_proj {dt_rank + 2 N,
      ** d_inner} (ssm_x); N from the SSM state (N x d_inner); attention without RoPE, the
      ** residual adds residual-first (ggml_add(inpL, cur), ggml_add(ffn_inp, cur)), the routed
      ** experts softmax-gated and not renormalized (build_moe_ffn's norm_w false) every second
      ** layer from layer 1 (expert_layer_period 2, offset 1: the released models' layout) */
      uint64_t ch = 0, kern = 0, xr = 0;
      bool other = false; /* a GGUF's routed layer off that layout (blk.<even>.ffn_gate_inp): not replayed */
      for (size_t t = 0; t < m->inv.n; t++) {
        const inv_tensor *it = &m->inv.t[t];
        if (strstr(it->name, "conv1d.weight") && it->ndim >= 2) ch = it->shape[0], kern = it->shape[it->ndim - 1];
        if ((strstr(it->name, "ssm_x.") || strstr(it->name, "x_proj.weight")) && it->ndim == 2) xr = it->shape[0];
        unsigned il;
        int end = 0;
        if (sscanf(it->name, "blk.%u.ffn_gate_inp.%n", &il, &end) == 1 && end > 0 && il % 2 == 0) other = true;
      }
      /* a description's experts off that layout (expert_layer_period / offset other than 2 / 1:
      ** scripts/runtimes/llamacpp.lua reads the config) are not replayed either */
      if (other || scn_bool(l->s, "llamacpp.jamba_moe_other", false)) break;
      uint64_t n_s = g->state_elems > g->conv_elems ? g->state_elems - g->conv_elems : 0;
      if (!ch || kern < 2 || !n_s || n_s % ch) break;
      uint64_t N = n_s / ch;
      if (xr <= 2 * N) break;
      sp->sc_conv = kern, sp->m2_inner = sp->m2_heads = ch, sp->m2_state = N, sp->m2_groups = 0;
      sp->m1_dt_rank = xr - 2 * N;
      sp->sc_attn = sp->n_layer - g->layers, sp->dn_seqs = l->n_seq > 1 ? l->n_seq : 1;
      sp->sc_ids = g->has_ids && sp->n_layer <= KV_MAX_IDS ? g->ids : NULL;
      sp->res_first = sp->no_rope = true;
      if (sp->experts) sp->moe_unnorm = true, sp->moe_step = 2, sp->dense_lead = 0;
      break;
    }
    if (strcmp(m->arch, "lfm2") == 0) {
      /* LFM2's short-conv layers (src/models/lfm2.cpp, llama.cpp 80fb11a): a depthwise conv
      ** kernel [hidden, 1, L_cache] (HF conv.conv.weight) or {L_cache, hidden}
      ** (shortconv.conv); the state's conv window (L_cache - 1) x hidden says it too */
      uint64_t kern = m->hidden && g->conv_elems % m->hidden == 0 ? g->conv_elems / m->hidden + 1 : 0;
      for (size_t t = 0; t < m->inv.n; t++) {
        const inv_tensor *it = &m->inv.t[t];
        if (strstr(it->name, "conv.conv.weight") && it->ndim >= 2) kern = it->shape[it->ndim - 1];
        if (strstr(it->name, "shortconv.conv") && it->ndim == 2) kern = it->shape[1];
      }
      if (kern < 2) break;
      sp->sc_conv = kern, sp->sc_attn = sp->n_layer - g->layers, sp->dn_seqs = l->n_seq > 1 ? l->n_seq : 1;
      sp->res_first = true;
      sp->sc_ids = g->has_ids && sp->n_layer <= KV_MAX_IDS ? g->ids : NULL;
      break;
    }
    /* the gated DeltaNet hybrids (qwen3next, qwen35, qwen35moe; llama.cpp 80fb11a): conv1d
    ** [channels, 1, kernel], dt_bias [V heads], the gated norm [V head size]; K heads of the
    ** V head size (ssm_d_state serves both); the attention layers every n_layer / n_full-th
    ** (full_attention_interval); qwen35 (in_proj_b / in_proj_a apart) ropes 4 positions per
    ** token (IMROPE: n_pos_per_embd 4) */
    uint64_t ch = 0, kern = 0;
    for (size_t t = 0; t < m->inv.n; t++) {
      const inv_tensor *it = &m->inv.t[t];
      bool hf = strstr(it->name, "linear_attn.") != NULL; /* a config's names, else the GGUF's */
      if (strstr(it->name, "conv1d.weight") && it->ndim >= 2) ch = it->shape[0], kern = it->shape[it->ndim - 1];
      if ((hf ? strstr(it->name, ".dt_bias") : strstr(it->name, "ssm_dt.")) && it->ndim >= 1) sp->dn_hv = it->shape[0];
      if ((hf ? strstr(it->name, "linear_attn.norm") : strstr(it->name, "ssm_norm")) && it->ndim >= 1) sp->dn_sv = it->shape[0];
      if (strstr(it->name, hf ? "in_proj_b." : "ssm_beta.")) sp->dn_split = true;
      if (strstr(it->name, "shared_expert_gate") || strstr(it->name, "gate_inp_shexp")) sp->shexp_gate = true;
    }
    uint64_t full = sp->n_layer - g->layers, v = sp->dn_sv * sp->dn_hv;
    if (!ch || !kern || !v || ch <= v || (ch - v) % (2 * sp->dn_sv)) break;
    sp->dn_conv = kern, sp->dn_sk = sp->dn_sv, sp->dn_hk = (ch - v) / (2 * sp->dn_sv);
    sp->dn_period = sp->n_layer / full, sp->dn_seqs = l->n_seq > 1 ? l->n_seq : 1;
    sp->dn_snap = l->n_rs_seq + 1; /* build_recurrent_attn: ggml_gated_delta_net(..., K = n_rs_seq + 1) */
    sp->n_pos = strncmp(m->arch, "qwen3_5", 7) == 0 ? 4 : 1;
    /* MTP support: rows after the output norm, t_h_nextn (src/models/qwen35.cpp) */
    sp->nextn_out = lc_newer(l, sp->n_pos == 4 ? LC_B_MTP_QWEN35 : LC_B_MTP_QWEN3NEXT);
    break;
  }
  /* multimodal RoPE (Qwen2-VL's rope_multi; llama.cpp's n_pos_per_embd): 4 positions a token */
  if (m->rope_positions > 1) sp->n_pos = m->rope_positions;
  /* no positions at all (rope_positions 0): Granite 4.0-H (granite-hybrid.cpp builds inp_pos
  ** only if hparams.has_rope; its GGUF says rope.scaling.finetuned false). Replayed for
  ** granitehybrid only, the one architecture checked against llama.cpp without RoPE */
  sp->no_rope = sp->no_rope || (m->rope_positions == 0 && strcmp(m->arch, "granitemoehybrid") == 0);
  sp->attn_temp = m->attn_temp;
  /* graph_reserve rounds the prompt reserve's tokens up to a multiple of n_seq_max (its
  ** equal-split ubatch; llama-context.cpp at 80fb11a): 513 for 512 tokens and 3 sequences.
  ** Measured with the real llama.cpp on this CPU (llama-mha-f16, 3 sequences: 18,878,496 B) */
  if (lc_newer(l, LC_B_PAD256) && l->n_seq > 1) sp->n_tok = bytes_ceildiv(sp->n_tok, l->n_seq) * l->n_seq;
  bool rot = lc_newer(l, LC_B_ATTN_ROT);
  sp->rot_k = rot && l->tk->block > 1 && hk % 64 == 0;
  sp->rot_v = rot && l->tv->block > 1 && sp->head_v % 64 == 0;
  sp->rot_k_n = lc_rot_side(hk);
  if (strcmp(m->arch, "gemma4") == 0) lc_g4_shape(l, sp);
}

/* why the replayed graph (lc_graph.c: llama's layer, its MoE FFN with the shared experts
** of glm4moe / deepseek2 beside it, Llama 4's layers, deepseek2's MLA, the gated DeltaNet
** hybrids, the Mamba-2 of Granite 4.0-H, Nemotron-H and Falcon-H1, Jamba's Mamba-1, qwen2moe's
** gated shared expert) is not the model's, NULL when it is: other recurrent layers, DeltaNet before the fused op, MLA in the legacy graph and deepseek2
** without MLA (wkv_b decompressed) are not in it. Measured against the real llama.cpp
** (node-llama-cpp 3.21.1, llama.cpp 80fb11a, CPU backend) on generated files by make
** conformance and tests/test_llamacpp.c: llama, mistral3, qwen2, qwen2vl, qwen3, qwen3moe,
** phi3, gemma2, gemma3, gpt-oss, glm4moe, qwen3next, qwen35, qwen35moe, llama4, deepseek2
** (MLA), lfm2, granitehybrid (with and without RoPE), qwen2moe, nemotron_h, nemotron_h_moe, falcon-h1, jamba,
** mamba, mamba2, hunyuan-moe, gemma4 (two head sizes, K as V, KV-shared layers, per-layer embeddings, the MoE
** block: lg_g4_build), minicpm3 (MLA with wkv_b whole) and afmoe (its output gate) within the 64-byte figure in every setting of its matrix (qwen3next was -8.7%
** before its DeltaNet layers were replayed, gemma3 -15% before its iSWA cache, gpt-oss -17%
** before its gating, gemma4 -17% to +11% walked as gemma3's layer) */
static const char *lc_unmodelled(const lc *l, const lc_graph_spec *sp) {
  const model_desc *m = l->m;
  bool mla = est_model_mla(m);
  if (mla && !lc_newer(l, LC_B_GRAPH_SIM)) return "MLA attention is not in the replayed legacy graph";
  if (!mla && strcmp(m->arch, "deepseek") == 0) return "deepseek2 without MLA (wkv_b) is not in the replayed graph";
  for (int i = 0; i < m->n_kv; i++) {
    if (m->kv[i].kind == KV_STATE && !sp->dn_period && !sp->sc_conv)
      return "recurrent layers (other than gated DeltaNet, LFM2's short conv, the Mamba-2 of Granite 4.0-H, Nemotron-H and Falcon-H1, Jamba's Mamba-1 with its experts on odd layers, and attention-free Mamba / Mamba-2) are not in the replayed graph";
    if (m->kv[i].kind == KV_STATE && sp->dn_period && !lc_newer(l, LC_B_FUSED_GDN))
      return "gated DeltaNet before the fused GATED_DELTA_NET op: the chunked scan is not replayed";
    /* chunked attention without flash attention and a chunk cache smaller than the full one is
    ** within 64 B too: a generated llama4 file against the real llama.cpp 80fb11a, 187,187,174 B
    ** at 16384 cells (1 or 4 sequences), 354,959,334 at 32768; 761,331,712 and 1,432,420,352 with
    ** 2048-token ubatches (tests/test_llamacpp.c test_chunked_nofa_exact). It was reported about
    ** 1% high (189,571,072 B replayed at 16384 cells when that note was written) */
  }
  /* attention-free mamba / mamba2: replayed whole (make conformance mamba, mamba2). FalconMamba's
  ** weightless dt / B / C norms are replayed but were not checked against llama.cpp */
  if (strcmp(m->arch, "mamba") == 0 && !sp->ssm_only) return "this Mamba model's mixer shape is not in the replayed graph";
  if (sp->ssm_only && sp->m1_norms == 2) return "FalconMamba's dt / B / C norms (ssm_dt_b_c_rms) are replayed but not checked against llama.cpp";
  if (sp->nemo) { /* each layer's kind known: Mamba-2 (layer_ids), MLP (blk.<il>.ffn_up), attention */
    uint64_t kinds = 0;
    for (int w = 0; w < 16; w++) kinds += (uint64_t)__builtin_popcountll(sp->mlp_ids[w]);
    for (int i = 0; i < m->n_kv; i++) kinds += m->kv[i].layers;
    if (kinds != sp->n_layer || !sp->sc_ids)
      return "Nemotron-H: the places of its MLP layers are not known (no layer_ids, no blk.<il> names)";
    /* Nemotron 3's 'E' (MoE) layers are replayed as build_ffn_layer's MoE branch (nemotron-h.cpp,
    ** llama.cpp 80fb11a): make conformance nemotron_h_moe, 24 of 24 settings within 64 B. Walked
    ** as dense MLP layers before, it was within 64 B with flash attention but 0.6-2.2% high without
    ** (one hidden-wide activation too many at the attention's peak). Nemotron 3 Super's latent
    ** projections around the experts (moe_latent_size: ffn_latent_down / ffn_latent_up, two more
    ** matmuls) are not in it */
    for (size_t i = 0; i < m->inv.n && m->block.experts; i++)
      if (strstr(m->inv.t[i].name, "latent_proj") || strstr(m->inv.t[i].name, "ffn_latent_"))
        return "Nemotron 3's latent MoE projections (moe_latent_size) are not in the replayed graph";
  }
  return NULL;
}

/* the CPU backend's one compute buffer: the graph replayed through ggml-alloc for
** recent builds (measured byte-exact by tests/conformance), else the phase peaks */
static void lc_compute_cpu(lc *l) {
  lc_graph_spec sp;
  uint64_t size = 0;
  if (lc_newer(l, LC_B_GRAPH_SIM)) {
    lc_graph_shape(l, &sp);
    if (!lc_graph_compute_buffer(&sp, LC_CPU_ALIGN, &size)) {
      est_fail(l->c, "llama.cpp compute graph: out of memory or byte overflow while replaying its allocation");
      return;
    }
    l->host_compute = size;
    l->replayed = true;
    l->inexact = lc_unmodelled(l, &sp);
    l->exact = l->inexact == NULL;
    return;
  }
  lc_phase p = lc_phases(l, l->fa && lc_newer(l, LC_B_PAD256));
  l->host_compute = acc_add(&l->c->acc, lc_max3(p.attn, p.ffn, p.out), lc_inputs(l));
}

/* tensor-buffer overrides (llama_model::has_tensor_overrides): --n-cpu-moe / --cpu-moe, or
** --fit's partial layers (set_ngl_tensor_split_tbo writes a pattern for each, the last GPU's
** output index included) */
static bool lc_overrides(const lc *l) {
  bool parts = false;
  for (int g = 0; l->laid && g < l->n_gpu; g++) parts = parts || l->lay.d[g].n_part > 0;
  return l->n_cpu_moe > 0 || parts || l->ot != NULL;
}

/* pipeline parallelism (llama-context.cpp, llama.cpp 80fb11a): several GPUs hold every block
** and the output, split by layer, K/V offloaded, no tensor overrides */
static bool lc_pipeline(const lc *l) {
  return l->n_gpu > 1 && l->ngl > l->n_layer_all && l->offload_kqv && !lc_overrides(l) &&
         strcmp(scn_str(l->s, "runtime.split_mode", "layer"), "layer") == 0;
}

/* the layer shape the legacy graph knows: llama's (RMS norm, SwiGLU, no biases) or
** GPT-NeoX's (LayerNorm with bias, fused wqkv with bias, biased projections, GELU) */
static bool lc_legacy_shape(const lc *l, lc_graph_spec *sp) {
  const model_desc *m = l->m;
  const block_spec *b = &m->block;
  uint64_t qkv = (b->q_dim ? b->q_dim : m->hidden) + 2 * (b->kv_dim ? b->kv_dim : m->hidden);
  bool bias = false, fused = false, ffn_norm = false;
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    size_t n = strlen(t->name);
    ffn_norm = ffn_norm || strstr(t->name, "post_attention_layernorm") || strstr(t->name, "ffn_norm");
    if (t->role != ROLE_ATTN) continue;
    bias = bias || (n > 5 && strcmp(t->name + n - 5, ".bias") == 0);
    fused = fused || (t->ndim == 2 && t->shape[0] == qkv);
  }
  sp->layer_norm = !b->rms, sp->biases = bias, sp->fused_qkv = fused, sp->par_res = b->parallel_residual;
  /* phi2 (build_phi2): GPT-NeoX's layer with separate biased q/k/v (or wqkv) and one
  ** LayerNorm for the parallel attention and FFN */
  sp->shared_norm = b->parallel_residual && !ffn_norm;
  bool llama = b->rms && b->gated && !bias && !fused && !b->parallel_residual;
  bool neox = !b->rms && !b->gated && bias && (fused || sp->shared_norm);
  return (llama || neox) && !b->experts && sp->n_swa == 0 && l->n_stream == 1 && !sp->rot_k && !sp->rot_v;
}

/* GPU backends, replayed: the graph of the build, each node on the backend
** ggml_backend_sched gives it (the layers' devices; token_embd's get_rows and the
** inputs on the host; from 32 tokens the ops on host weights on the first GPU), the
** copies of each split's inputs in its backend (n_copies of them with pipeline
** parallelism; the host weights and K/V views that offloaded ops read, at their stored
** size), one ggml-alloc buffer per backend (CUDA's 128-byte alignment, no maximum size:
** ggml_backend_cuda_buffer_type). Not replayed: K/V kept on the host (-nkvo), recurrent
** layers, and legacy graphs of other layer shapes. */
static bool lc_replay_buffers(lc *l, lc_graph_spec *sp, uint64_t *wb, int *unsized) {
  uint64_t sizes[GS_MAX_BACKENDS], tg[GS_MAX_BACKENDS];
  int nodes, splits, un_pp, un_tg;
  sp->wbytes = wb;
  if (!lc_graph_buffers(sp, LC_CUDA_ALIGN, LC_CPU_ALIGN, sizes, &l->graph_nodes, &l->graph_splits, &un_pp)) return false;
  /* the token-generation reserve between the two prompt ones (n_seq tokens; one before
  ** llama-graph.cpp): the buffers keep the larger size */
  sp->n_tok = sp->n_out = sp->legacy ? 1 : (l->n_seq < l->n_ub ? l->n_seq : l->n_ub);
  sp->force_norm = sp->force_norm || sp->n_tok < 32;
  if (!lc_graph_buffers(sp, LC_CUDA_ALIGN, LC_CPU_ALIGN, tg, &nodes, &splits, &un_tg)) return false;
  for (int g = 0; g < l->n_gpu; g++) l->gpu[g].compute = sizes[g] > tg[g] ? sizes[g] : tg[g];
  l->host_compute = sizes[l->n_gpu] > tg[l->n_gpu] ? sizes[l->n_gpu] : tg[l->n_gpu];
  *unsized = un_pp + un_tg;
  return true;
}

/* CUDA flash attention copies cache type t (the other cache being o) to f16 for its tile
** and MMA kernels: any type but f16 of the ones it runs without GGML_CUDA_FA_ALL_QUANTS
** (ggml_cuda_fattn_kv_type_supported: f32, q4_0, q8_0, bf16; K and V of one type), else it
** has no kernel for the pair */
static bool lc_fa_copies(const ggml_type_info *t, const ggml_type_info *o) {
  bool ok = t->id == GGML_T_F32 || t->id == GGML_T_Q4_0 || t->id == GGML_T_Q8_0 || t->id == GGML_T_BF16;
  return ok && t->id == o->id;
}

/* The gated DeltaNet layers on GPUs: the replay is their graph as make conformance checks it
** on the CPU backend (byte-exact), placed and split as the other layers are; what it does
** not know is said. A layer left on the host has each weight an op reads (the projections,
** conv kernel, decay terms, gated norm: LW_DN_*) copied to the GPU by op_offload, as every
** op there has 32 rows or more (get_op_batch_size: ggml_nrows, the ubatch's tokens over all
** its sequences for the per-sequence conv and state ops too); the CUDA backend takes
** SSM_CONV only for a channel count that is a multiple of 128
** (ggml_backend_cuda_device_supports_op), else the op and its neighbours fall back to the
** host. The graph is the CPU-checked one with the scheduler's
** copies; the MoE part of it (CUDA's fused reduction) matches a CUDA measurement to the
** byte (LC_B_MOE_REDUCE), the whole has not been held against a CUDA log. */
static const char *lc_dn_gpu(const lc_graph_spec *sp) {
  if ((2 * sp->dn_sk * sp->dn_hk + sp->dn_sv * sp->dn_hv) % 128)
    return "gated DeltaNet conv channels not a multiple of 128: CUDA's SSM_CONV falls back to the host";
  return "gated DeltaNet on a GPU: the graph checked against llama.cpp on the CPU backend, not a CUDA log";
}

static bool lc_compute_replay(lc *l) {
  lc_graph_spec sp;
  int dev[LC_MAX_LAYERS + 1], kvd[LC_MAX_LAYERS];
  if (!l->offload_kqv || l->n_layer > LC_MAX_LAYERS || l->n_gpu >= GS_MAX_BACKENDS) return false;
  lc_graph_shape(l, &sp);
  for (int i = 0; i < l->m->n_kv; i++)
    if (l->m->kv[i].kind == KV_STATE && !sp.dn_period && !sp.sc_conv) return false; /* other recurrent layers */
  bool legacy = !lc_newer(l, LC_B_GRAPH_SIM), early = false;
  if (legacy && !lc_legacy_shape(l, &sp)) {
    /* A model whose layers the b4385 graph lacks, before the fused GLU ops, is replayed as the
    ** later graph (the GLU as one op, not its activation then MUL). MoE: build_moe_ffn, which
    ** the phase formula misses most when the output layer stays on the host and op_offload runs
    ** its matmul on the first GPU. Qwen3-235B-A22B Q3_K_S at b5398 on Vulkan, -ngl 93 (blocks
    ** 1..93, output on the host), FA off, 4096 cells: GPU compute 791.61 printed, 791.61
    ** replayed (formula 562.00), host 16.01 (18.01; formula 890.76); Qwen3-30B-A3B Q4_K_M at
    ** b5622 with its experts on the host: 1080.00 / 36.01 printed, 1082.01 / 38.01 replayed
    ** (formula 1078.00 / 36.01). The other shapes (sliding-window layers, biases, a fused qkv,
    ** GeGLU) too: gemma-3-27b-it Q4_K_M at b5452 on an L40S, -np 16 -c 49152 -ub 128 -fa
    ** (llama.cpp issue #13703): CUDA0 compute "130." MiB printed, 130.66 replayed, where the
    ** formula's contiguous K/V copy (49152 cells x 2048 x 2 B) gave 214.50. Not exact */
    lc_graph_shape(l, &sp); /* the later graph's shape again (lc_legacy_shape set its own) */
    legacy = false, early = true;
  }
  int xd[LC_MAX_LAYERS];
  for (uint64_t il = 0; il <= l->n_layer; il++) dev[il] = lc_layer_dev(l, il);
  bool ot_whole = !l->ot_other; /* -ot moved whole layers' routed experts only, each to one device */
  for (uint64_t il = 0; il < l->n_layer; il++) {
    kvd[il] = dev[il], xd[il] = lc_exps_on_host(l, il) ? -1 : dev[il];
    if (l->ot_x[il] & 1) xd[il] = l->ot_xdev[il];
    ot_whole = ot_whole && (l->ot_x[il] & 3) != 3 && !(l->ot_x[il] & 4); /* all or none, one device */
  }
  sp.legacy = legacy, sp.n_gpu = l->n_gpu, sp.layer_dev = dev, sp.kv_dev = kvd, sp.exps_dev = xd;
  sp.part_cls = l->laid ? l->ov_cls : NULL, sp.part_dev = l->ov_dev;
  sp.n_copies = lc_pipeline(l) ? LC_N_COPIES : 1;
  sp.force_norm = l->ngl > l->n_layer_all || l->n_ub < 32; /* full_offload: n_gpu_layers > n_layer_all */
  sp.op_offload = scn_bool(l->s, "runtime.op_offload", true);
  sp.moe_reduce_dep = lc_newer(l, LC_B_MOE_REDUCE);
  sp.cpy_store = !lc_newer(l, LC_B_SET_ROWS);
  sp.fa_f16_k = sp.fa && lc_newer(l, LC_B_FA_F16) && lc_fa_copies(l->tk, l->tv);
  sp.fa_f16_v = sp.fa && lc_newer(l, LC_B_FA_F16) && lc_fa_copies(l->tv, l->tk);
  if (legacy) sp.n_kv[0] = sp.n_kv[1] = l->n_ctx; /* the whole cache: kv_self.size */
  for (int c = 0; c < 2; c++) {
    uint64_t cells = acc_mul(&l->c->acc, sp.n_kv[c], legacy ? 1 : sp.n_stream);
    sp.kv_bytes[c][0] = lc_kv_copy(l, l->tk, sp.kv_heads, sp.head_k, cells);
    sp.kv_bytes[c][1] = lc_kv_copy(l, l->tv, sp.kv_heads, sp.head_v, cells);
  }
  uint64_t *wb = lc_weight_table(l, &sp);
  int unsized = 0;
  bool ok = wb && lc_replay_buffers(l, &sp, wb, &unsized);
  /* the late-2025 graph has no bias adds: a host layer's biases would be copied too */
  bool unread = false;
  for (uint64_t il = 0; ok && !legacy && sp.op_offload && l->n_ub >= 32 && il < l->n_layer; il++)
    for (int k = LW_Q; k <= LW_DOWN && dev[il] < 0; k += 2) {
      bool read = sp.qkv_bias && (k == LW_Q || k == LW_K || k == LW_V || k == LW_QKV); /* build_attn's bias adds */
      unread = unread || (!read && wb[il * LW_N + (uint64_t)k + LW_BIAS]);
    }
  free(wb);
  if (!ok) return false;
  l->replayed = true;
  /* exact unless a copy the split needs was left unsized (a weight the tensor names do
  ** not place). With split_mode row each GPU's nodes are the same (the scheduler runs a split
  ** weight's MUL_MAT on its buffer type's device, the layer's), but ggml_cuda_op_mul_mat takes
  ** every GPU's slice of the input and of the result from that GPU's CUDA pool, outside these
  ** buffers: not modelled, so not exact */
  bool layer_split = l->n_gpu == 1 || strcmp(scn_str(l->s, "runtime.split_mode", "layer"), "layer") == 0;
  const char *graph = lc_unmodelled(l, &sp);
  if (!graph && !ot_whole)
    graph =
        "-ot moves tensors other than whole layers' routed experts: the replay places them by their layer";
  if (!graph && early)
    graph =
        "a layer shape the b4385 graph lacks, before the fused GLU ops (PR #14158), replayed as the later "
        "graph";
  if (!graph && sp.dn_period) graph = lc_dn_gpu(&sp);
  /* Gemma 4's graph (lg_g4_build) is checked on the CPU backend only; on a GPU its norms' weights
  ** are not placed by kind (their copies are not sized) */
  if (!graph && sp.g4) graph = "Gemma 4 on a GPU: the graph checked against llama.cpp on the CPU backend, not a GPU log";
  if (!graph && sp.sc_conv) { /* CUDA takes SSM_CONV for a multiple of 128 channels (supports_op) */
    uint64_t ch = sp.m2_inner ? sp.m2_inner + 2 * sp.m2_groups * sp.m2_state : sp.hidden;
    graph = ch % 128 ? "conv channels not a multiple of 128: CUDA's SSM_CONV falls back to the host"
                     : "short-conv / Mamba layers on a GPU: the graph checked against llama.cpp on the CPU backend, not a GPU log";
  }
  l->exact = unsized == 0 && !unread && layer_split && !graph;
  l->inexact = !layer_split ? "split_mode row's per-GPU matmul slices (CUDA pool) not modelled"
               : unread    ? "the host layers' projection biases and their copies left out"
               : graph     ? graph
                           : "copies of host tensors of unknown size left out";
  return true;
}

/* GPU backends: the first GPU runs the first offloaded layers (and the output layer
** when it is the only one); inputs (embeddings looked up on the host, the mask) sit in
** the host compute buffer and are copied, n_copies times with pipeline parallelism */
static void lc_compute_gpu(lc *l) {
  if (lc_compute_replay(l)) return;
  lc_phase p = lc_phases(l, l->fa);
  bytes_acc *a = &l->c->acc;
  uint64_t h_in = acc_mul3(a, l->n_ub, l->m->hidden, 4);
  uint64_t mask32 = acc_mul3(a, l->n_ctx_seq, lc_pad(l->n_ub, 64), 4);
  bool pipeline = lc_pipeline(l);
  int out_dev = lc_layer_dev(l, l->n_layer);
  bool any_host_layer = lc_layer_dev(l, 0) < 0;
  for (int g = 0; g < l->n_gpu; g++) {
    bool has_layers = false;
    for (uint64_t il = 0; il < l->n_layer && !has_layers; il++) has_layers = lc_layer_dev(l, il) == g;
    uint64_t c = has_layers ? (p.attn > p.ffn ? p.attn : p.ffn) : 0;
    if (out_dev == g && p.out > c) c = p.out;
    if (pipeline) c = acc_add(a, c, acc_mul(a, LC_N_COPIES - 1, acc_add(a, h_in, p.mask)));
    l->gpu[g].compute = c;
  }
  uint64_t host = acc_add(a, acc_add(a, h_in, mask32), lc_inputs(l));
  if (l->legacy_swa) host = acc_add(a, host, mask32); /* KQ_mask_swa: lc_graph_spec.legacy_swa_period */
  if (any_host_layer) host = acc_add(a, host, p.attn > p.ffn ? p.attn : p.ffn);
  if (out_dev < 0) host = acc_add(a, host, p.out);
  l->host_compute = host;
}

/* ---------------------------------------------------------------- report */

/* the memory of the GPU the estimate runs on (fit sets it per catalog GPU), 0 when none */
static uint64_t lc_gpu_memory(const lc *l) {
  const scenario *s = l->s;
  return s->gpu_memory ? s->gpu_memory : s->n_gpus ? s->gpus[0].memory : 0;
}

/* what --fit lets one GPU's buffers use: its free memory (the total less the assumed CUDA
** context) less the margin */
static int64_t lc_fit_target(const lc *l) {
  return (int64_t)lc_gpu_memory(l) - (int64_t)l->s->cuda_context - (int64_t)fit_margin_bytes(l->s);
}

static uint64_t lc_gpu_total(lc *l, int g) {
  const lc_dev *d = &l->gpu[g];
  uint64_t w = acc_add(&l->c->acc, d->model, d->split_rows); /* its own buffer and its rows of the split ones */
  uint64_t t = acc_add(&l->c->acc, acc_add(&l->c->acc, w, acc_add(&l->c->acc, d->kv, d->rs)), d->compute);
  return g == 0 ? acc_add(&l->c->acc, t, l->mmproj_bytes) : t; /* clip.cpp's buffer: the first GPU */
}

static int lc_heaviest(lc *l) {
  int best = 0;
  for (int g = 1; g < l->n_gpu; g++)
    if (lc_gpu_total(l, g) > lc_gpu_total(l, best)) best = g;
  return best;
}

/* the host output buffer: llama_context's constructor calls output_reserve(n_seq_max), whose
** n_outputs_max = max(n_outputs, n_seq_max) rows hold n_vocab f32 logits each and, with
** cparams.embeddings (runtime.embeddings; ollama 0.20.2's llama/llama.go NewContextParams
** sets it for every model), n_embd f32 more (src/llama-context.cpp; n_embd_out() in 2026 builds,
** n_embd for every model vramfit reads). Before LC_B_EMBD_LOGITS embeddings replaced the
** logits, for a model without pooling (a generative model's pooling type is NONE), except
** under ollama from LC_B_OLLAMA_EMBD, whose "embeddings" patch sets has_logits =
** cparams.causal_attn: both (Phi-4 Q4_K_M under ollama in January 2025: CPU output 0.40 MiB =
** (100352 + 5120) x 4 B) */
static bool lc_logits_with_embd(const lc *l) {
  return (l->ollama && lc_newer(l, LC_B_OLLAMA_EMBD)) || lc_newer(l, LC_B_EMBD_LOGITS);
}

static uint64_t lc_output_bytes(const lc *l) {
  uint64_t row = l->n_vocab;
  if (l->embeddings) row = lc_logits_with_embd(l) ? row + l->m->hidden : l->m->hidden;
  return acc_mul3(&l->c->acc, row, l->n_seq, 4);
}

static void lc_run(lc *l) {
  memset(l->gpu, 0, sizeof l->gpu);
  l->host_mapped = l->host_repack = l->host_amx = l->host_kv = l->host_rs = l->host_compute = l->mmproj_bytes = 0;
  l->host_plain = 0;
  l->replayed = l->exact = false;
  lc_weights(l);
  lc_kv(l);
  if (l->cpu)
    lc_compute_cpu(l);
  else
    lc_compute_gpu(l);
  l->output = lc_output_bytes(l);
}

static uint64_t lc_host_weights(lc *l) {
  return acc_add(&l->c->acc, acc_add(&l->c->acc, l->host_mapped, l->host_repack), l->host_amx);
}

/* The host memory the CPU backend's weights hold: the CPU_REPACK / AMX copies and the tensors
** read in place. With mmap the CPU_Mapped buffer llama.cpp prints is the file's range from
** the first to the last such tensor; the pages of the repacked tensors in it are read once
** while loading and stay only as evictable page cache. */
static uint64_t lc_host_resident(lc *l) {
  return acc_add(&l->c->acc, acc_add(&l->c->acc, l->host_plain, l->host_repack), l->host_amx);
}

/* what the host holds: its weights, the mmproj on the CPU backend (clip.cpp's buffer goes to
** the first GPU otherwise), and the host's K/V, RS, compute and output buffers */
static uint64_t lc_host_total(lc *l) {
  bytes_acc *a = &l->c->acc;
  uint64_t w = acc_add(a, lc_host_resident(l), l->cpu ? l->mmproj_bytes : 0);
  return acc_add(a, acc_add(a, w, acc_add(a, l->host_kv, l->host_rs)), acc_add(a, l->host_compute, l->output));
}

/* Builds before PR #23907: CUDA flash attention takes its f16 copies of a quantized (or
** bf16) cache from the CUDA pool when it runs, outside ggml's buffers; at a full context
** the pool grows to the largest layer's K and V views (tile and MMA kernels: a prompt's
** ubatch). 0 when the compute buffer reserves them (later builds) or nothing is copied. */
static uint64_t lc_fa_pool(const lc *l, int g) {
  if (l->cpu || !l->fa || lc_newer(l, LC_B_FA_F16) || !l->gpu[g].kv || !lc_fa_tile(l->n_ub, l->n_stream)) return 0;
  bool ck = lc_fa_copies(l->tk, l->tv), cv = lc_fa_copies(l->tv, l->tk);
  uint64_t most = 0;
  for (int i = 0; (ck || cv) && i < l->m->n_kv; i++) {
    const kv_group *kg = &l->m->kv[i];
    if (kg->kind != KV_ATTN && kg->kind != KV_CHUNKED) continue;
    uint64_t cells = lc_cells(l, kg) * l->n_stream * kg->kv_heads;
    uint64_t b = (ck ? cells * kg->k_dim : 0) + (cv ? cells * lc_v_dim(l, kg) : 0); /* MLA: V is K's view from LC_B_VLESS */
    if (2 * b > most) most = 2 * b;
  }
  return most;
}

static void lc_budget(lc *l) {
  budget *b = &l->c->e->b;
  int g = lc_heaviest(l);
  uint64_t w = l->cpu ? lc_host_resident(l) : acc_add(&l->c->acc, l->gpu[g].model, l->gpu[g].split_rows);
  uint64_t kv = l->cpu ? l->host_kv : l->gpu[g].kv;
  uint64_t rs = l->cpu ? l->host_rs : l->gpu[g].rs;
  uint64_t act = l->cpu ? l->host_compute : l->gpu[g].compute;
  if (l->cpu)
    budget_add(b, "weights", w, BASIS_EXACT, false,
               "llama.cpp weights in host memory: repacked copies and the tensors read in place (CPU_Mapped prints %.2f GiB%s)",
               (double)l->host_mapped / 1073741824.0, l->mmap ? ", the mapped range" : "");
  else
    budget_add(b, "weights", w, BASIS_EXACT, false, "llama.cpp model buffer (GPU %d, the fullest%s); %llu of %llu layers offloaded (the output layer counted)",
               g, l->row ? ", with its rows of every GPU's split buffer" : "",
               (unsigned long long)(l->ngl > l->n_layer_all + 1 ? l->n_layer_all + 1 : l->ngl),
               (unsigned long long)(l->n_layer_all + 1));
  if (l->mmproj_bytes && (l->cpu || g == 0))
    budget_add(b, "weights", l->mmproj_bytes, BASIS_MODELLED, false,
               "mmproj: the vision tower and projector clip.cpp loads (%s matrices, F32 vectors); its compute buffer not modelled",
               ggml_type_get(l->mmproj)->name);
  budget_add(b, "kv_cache", kv, BASIS_EXACT, false, "KV buffer: %llu cells x %llu streams, K %s, V %s",
             (unsigned long long)l->n_ctx_seq, (unsigned long long)l->n_stream, l->tk->name, l->tv->name);
  if (rs)
    budget_add(b, "kv_cache", rs, BASIS_EXACT, false,
               "RS buffer: recurrent conv and SSM states (F32) of %llu sequences x %llu (n_rs_seq %llu)",
               (unsigned long long)l->n_seq, (unsigned long long)(l->n_rs_seq + 1),
               (unsigned long long)l->n_rs_seq);
  if (l->exact)
    budget_add(b, "activations", act, BASIS_EXACT, false,
               "compute buffer: ggml-alloc replayed over the graph reserve of %llu tokens, flash attention %s",
               (unsigned long long)l->n_ub, l->fa ? "on" : "off");
  else
    budget_add(b, "activations", act, BASIS_CALIBRATED, false, "compute buffer: graph reserve of %llu tokens, flash attention %s%s%s%s",
               (unsigned long long)l->n_ub, l->fa ? "on" : "off",
               l->replayed ? " (replayed; " : "", l->replayed ? l->inexact : "", l->replayed ? ")" : "");
  if (l->cpu)
    budget_add(b, "logits", l->output, BASIS_EXACT, false, "output buffer: %llu x %s f32 %s", (unsigned long long)l->n_seq,
               !l->embeddings ? "n_vocab" : lc_logits_with_embd(l) ? "(n_vocab + n_embd)" : "n_embd",
               !l->embeddings ? "logits" : lc_logits_with_embd(l) ? "logits and embeddings" : "embeddings");
  uint64_t pool = lc_fa_pool(l, g);
  if (pool)
    budget_add(b, "workspace", pool, BASIS_MODELLED, false,
               "CUDA pool at a full context: flash attention's f16 copies of the %s cache (builds before PR #23907 "
               "take them at run time, outside ggml's buffers)", l->tk->name);
  if (!l->cpu) est_add_context(l->c, b, "CUDA context and kernels");
}

/* per-GPU figure names, <prefix><g> for the LC_MAX_GPU GPUs */
#define LC_FIG16(p) \
  {p "0", p "1", p "2", p "3", p "4", p "5", p "6", p "7", p "8", p "9", p "10", p "11", p "12", p "13", p "14", p "15"}

static void lc_figures(lc *l) {
  static const char *const per_gpu[LC_MAX_GPU] = LC_FIG16("gpu_buffers_bytes_");
  static const char *const per_kv[LC_MAX_GPU] = LC_FIG16("gpu_kv_buffer_bytes_");
  static const char *const per_rs[LC_MAX_GPU] = LC_FIG16("gpu_rs_buffer_bytes_");
  static const char *const per_model[LC_MAX_GPU] = LC_FIG16("gpu_model_buffer_bytes_");
  static const char *const per_compute[LC_MAX_GPU] = LC_FIG16("gpu_compute_buffer_bytes_");
  static const char *const per_split[LC_MAX_GPU] = LC_FIG16("gpu_split_buffer_bytes_");
  static const char *const per_rows[LC_MAX_GPU] = LC_FIG16("gpu_split_rows_bytes_");
  uint64_t gm = 0, gs = 0, kv = l->host_kv, rs = l->host_rs;
  /* several GPUs: each one's buffers (model, KV/RS, compute, mmproj), as
  ** llama_memory_breakdown prints them per device, and each one's "CUDA<g> model buffer
  ** size", "CUDA<g> KV buffer size", "CUDA<g> RS buffer size" and "CUDA<g> compute buffer
  ** size" lines */
  for (int g = 0; l->n_gpu > 1 && g < l->n_gpu; g++) {
    est_fig(l->c, per_gpu[g], lc_gpu_total(l, g));
    est_fig(l->c, per_kv[g], l->gpu[g].kv);
    est_fig(l->c, per_rs[g], l->gpu[g].rs);
    est_fig(l->c, per_model[g], l->gpu[g].model);
    est_fig(l->c, per_compute[g], l->gpu[g].compute);
  }
  /* split_mode row: each GPU's "CUDA<g>_Split model buffer size" (the split buffer of the
  ** layers on it, whose rows are on every GPU) and the rows of all of them it holds */
  for (int g = 0; l->row && g < l->n_gpu; g++) {
    est_fig(l->c, per_split[g], l->gpu[g].split);
    est_fig(l->c, per_rows[g], l->gpu[g].split_rows);
  }
  for (int g = 0; g < l->n_gpu; g++) {
    gs = acc_add(&l->c->acc, gs, l->gpu[g].split);
    gm = acc_add(&l->c->acc, gm, l->gpu[g].model);
    kv = acc_add(&l->c->acc, kv, l->gpu[g].kv);
    rs = acc_add(&l->c->acc, rs, l->gpu[g].rs);
  }
  est_fig(l->c, "gpu_model_buffer_bytes", gm);
  if (l->row) est_fig(l->c, "gpu_split_buffer_bytes", gs);
  est_fig(l->c, "cpu_model_buffer_bytes", lc_host_weights(l));
  est_fig(l->c, "cpu_repack_buffer_bytes", l->host_repack);
  /* what the host holds: with GPUs, the weights left there (a MoE model's experts) and the
  ** host's compute, output and K/V buffers; on the CPU backend everything */
  est_fig(l->c, "host_resident_weights_bytes", lc_host_resident(l));
  est_fig(l->c, "host_memory_bytes", lc_host_total(l));
  est_fig(l->c, "cpu_amx_buffer_bytes", l->host_amx);
  if (l->mmproj_on) est_fig(l->c, "mmproj_buffer_bytes", l->mmproj_bytes);
  est_fig(l->c, "kv_buffer_bytes", kv);
  est_fig(l->c, "rs_buffer_bytes", rs);
  /* with GPUs, the layers left on the host keep their K/V and recurrent states there: the
  ** "CPU KV buffer size" and "CPU RS buffer size" lines (in kv / rs above as well) */
  if (!l->cpu) est_fig(l->c, "host_kv_buffer_bytes", l->host_kv);
  if (!l->cpu) est_fig(l->c, "host_rs_buffer_bytes", l->host_rs);
  if (!l->cpu) est_fig(l->c, "compute_buffer_bytes", l->n_gpu ? l->gpu[0].compute : 0);
  est_fig(l->c, "host_compute_buffer_bytes", l->host_compute);
  est_fig(l->c, "output_buffer_bytes", l->output);
  est_fig(l->c, "n_ctx", l->n_ctx);
  est_fig(l->c, "n_ubatch", l->n_ub);
  if (l->graph_nodes) est_fig(l->c, "graph_nodes", (uint64_t)l->graph_nodes);
  if (l->graph_splits) est_fig(l->c, "graph_splits", (uint64_t)l->graph_splits);
}

/* ---------------------------------------------------------------- fit */

/* some GPU of the last run holds more than limit bytes */
static bool lc_over(lc *l, int64_t limit) {
  for (int g = 0; g < l->n_gpu; g++)
    if ((int64_t)lc_gpu_total(l, g) > limit) return true;
  return false;
}

static bool lc_fits(lc *l, uint64_t usable) {
  lc_run(l);
  return !lc_over(l, (int64_t)usable - (int64_t)l->s->cuda_context);
}

/* the knobs fit searches: -ngl, --n-cpu-moe, -c in units of 256 cells per sequence */
typedef void (*lc_knob)(lc *l, uint64_t v);
static void lc_knob_ngl(lc *l, uint64_t v) { l->ngl = v; }
static void lc_knob_cpu_moe(lc *l, uint64_t v) { l->n_cpu_moe = v; }
static void lc_knob_ctx(lc *l, uint64_t v) { lc_set_ctx(l, v * 256 * l->n_seq); }

/* largest: the largest value in [lo, hi] whose run fits usable (memory grows with the knob;
** lo when none fits); else the smallest (memory shrinks with it; hi when none fits). The
** knob is left at the answer. */
static uint64_t lc_bisect(lc *l, lc_knob set, uint64_t lo, uint64_t hi, bool largest, uint64_t usable) {
  while (lo < hi) {
    uint64_t mid = largest ? lo + (hi - lo + 1) / 2 : lo + (hi - lo) / 2;
    set(l, mid);
    bool fits = lc_fits(l, usable);
    if (largest && fits) lo = mid;
    else if (largest) hi = mid - 1;
    else if (fits) hi = mid;
    else lo = mid + 1;
  }
  set(l, lo);
  return lo;
}

/* -ngl: the most layers that fit the first GPU the estimate runs on (fit puts each catalog
** GPU there), counted as llama.cpp counts them: over n_layer_all (the trunk, then a GGUF's
** MTP blocks, runtime.n_layer_nextn) with the output layer, so all of them is
** n_layer_all + 1 (lc_block_dev); -c: the largest context (cells, a multiple of 256) at
** that -ngl */
static void lc_fit(lc *l) {
  const scenario *s = l->s;
  uint64_t mem = lc_gpu_memory(l);
  if (l->cpu || l->n_gpu == 0 || s->fit_probe || !mem) return;
  uint64_t usable = fit_usable_bytes(s, mem);
  uint64_t all = l->n_layer_all;
  lc saved = *l;
  /* the flags answer without --fit's own placement: -ngl / --n-cpu-moe set by hand stop
  ** --fit's layer search, so they must realize the memory themselves (-ngl alone: the
  ** scenario's split) */
  if (l->laid) {
    l->laid = false;
    lc_split(l);
    lc_apply_layout(l);
  }
  lc saved_flags = *l;
  /* every layer, else the most below: fewer layers on the GPU never take more of it once
  ** one layer is on the host (its weights' copies are in the compute buffer from then on),
  ** so [0, n_layer_all] is bisected */
  l->ngl = all + 1;
  bool whole = lc_fits(l, usable);
  if (!whole) lc_bisect(l, lc_knob_ngl, 0, all, true, usable);
  est_fig(l->c, "fit_n_gpu_layers", l->ngl);
  *l = saved_flags;
  if (l->moe) {
    /* --n-cpu-moe: with every layer on the GPU, the fewest layers whose experts stay on the
    ** host (n_layer + 1: none fits). Past the first (which adds its weights' copies to the
    ** compute buffer) each more layer frees GPU memory, so the search bisects from 1. */
    /* every layer with its experts: the -ngl search's first run, unless that had the
    ** scenario's own --n-cpu-moe */
    bool fits = whole, own = l->n_cpu_moe > 0;
    l->ngl = all + 1, l->n_cpu_moe = 0;
    if (own) fits = lc_fits(l, usable);
    uint64_t n = fits ? 0 : lc_bisect(l, lc_knob_cpu_moe, 1, l->n_layer + 1, false, usable);
    est_fig(l->c, "fit_n_cpu_moe", n);
  }
  *l = saved;
  /* -c at the placement the estimate has */
  est_fig(l->c, "fit_n_ctx", lc_bisect(l, lc_knob_ctx, 0, (1ull << 22) / 256, true, usable) * 256 * l->n_seq);
  *l = saved;
  lc_run(l);
}

/* -c 0 under llama.cpp's --fit (on by default; common/fit.cpp common_params_fit_impl, step 2,
** llama.cpp 80fb11a): the context starts at the trained one for every sequence (n_ctx_train x
** n_streams); when a GPU would keep less than its margin (--fit-target, 1024 MiB) of its free
** memory, the context is interpolated linearly between the memory measured there and at the
** minimum (--fit-ctx, 4096 x n_streams) to use all the free memory less the margins (less
** (n + 1) half layers, a sixth for MoE, with n > 1 GPUs), rounded down to 256 x n_streams and
** kept at least the minimum. Measured per GPU: model + KV/RS + compute buffers, as
** llama_memory_breakdown counts them; free memory is taken as the GPU's total less the CUDA
** context (assumed: cudaMemGetInfo sees nothing else). Step 3 is lc_fit_ngl's. True when l is
** left as its last run. */
static bool lc_fit_ctx(lc *l) {
  const scenario *s = l->s;
  /* fit's probes set the context themselves */
  if (!scn_bool(s, "runtime.fit_ctx", false) || s->fit_probe || l->cpu || l->n_gpu == 0 || !lc_gpu_memory(l)) return false;
  int64_t nd = l->n_gpu, per_gpu = lc_fit_target(l); /* free less margin */
  uint64_t n_max = l->n_ctx, n_min = scn_u64(s, "runtime.fit_ctx_min", 4096) * l->n_stream;
  int64_t used_max = 0, model = 0;
  bool short_of = false;
  lc_run(l);
  for (int g = 0; g < l->n_gpu; g++) {
    int64_t used = (int64_t)lc_gpu_total(l, g);
    used_max += used, model += (int64_t)acc_add(&l->c->acc, l->gpu[g].model, l->gpu[g].split);
    short_of = short_of || used > per_gpu;
  }
  est_fig(l->c, "fit_ctx_from", n_max);
  int64_t target = per_gpu * nd;
  if (!short_of || n_max <= n_min || used_max <= target) return true;
  if (nd > 1) {
    uint64_t all = l->n_layer_all, layers = l->ngl < all ? l->ngl : all; /* hp_ngl: MTP blocks in */
    int64_t per_layer = layers ? model / (int64_t)layers : 0;
    target -= (nd + 1) * per_layer / (l->moe ? 6 : 2);
  }
  lc_set_ctx(l, n_min);
  lc_run(l);
  int64_t used_min = 0;
  for (int g = 0; g < l->n_gpu; g++) used_min += (int64_t)lc_gpu_total(l, g);
  uint64_t n = n_min;
  if (target > used_min && used_max > used_min) {
    n += (uint64_t)((int64_t)(n_max - n_min) * (target - used_min) / (used_max - used_min));
    uint64_t align = 256 * l->n_stream;
    n -= n % align;
    if (n < n_min) n = n_min;
  }
  lc_set_ctx(l, n);
  return false;
}

/* memory per GPU (model, KV/RS and compute buffers, as llama_memory_breakdown counts them)
** with layout y: common/fit.cpp get_memory_for_layers */
typedef struct lc_mem {
  int64_t b[LC_MAX_GPU];
} lc_mem;

static lc_mem lc_layout_mem(lc *l, const lc_layout *y) {
  lc_mem m;
  l->lay = *y, l->laid = true;
  lc_apply_layout(l);
  lc_run(l);
  for (int g = 0; g < l->n_gpu; g++) m.b[g] = (int64_t)lc_gpu_total(l, g);
  return m;
}

static uint64_t lc_full(const lc_ngl *n) { return n->n_layer - n->n_part; }

/* the next guess of the false position between a bound that fits (mem) and one that does not
** (high), delta layers apart: common/fit.cpp's step_size, its uint32_t conversion included
** (a low bound already over the target guesses delta - 1) */
static uint64_t lc_false_position(uint64_t delta, int64_t target, int64_t mem, int64_t high) {
  if (high == mem) return 1; /* no slope (fit.cpp would divide by zero): one block at a time */
  uint32_t step = (uint32_t)((int64_t)delta * (target - mem) / (high - mem));
  uint64_t st = step < 1 ? 1 : step;
  return st < delta - 1 ? st : delta - 1;
}

/* step 3 of common_params_fit_impl: from the last GPU back, each GPU gets the most of the
** blocks not yet placed (the output layer first) that keep it within target, by false
** position from what it has towards all of them. A MoE model's blocks come "dense-only",
** their routed experts on the host (n_part: all of a GPU's blocks, on the last all but one). */
static void lc_fill_dense(lc *l, lc_layout *y, lc_mem *mem, int64_t target) {
  int nd = l->n_gpu;
  for (int id = nd - 1; id >= 0; id--) {
    uint64_t un = l->n_layer_all + 1;
    for (int jd = id + 1; jd < nd; jd++) un -= y->d[jd].n_layer;
    if (un == 0) continue;
    lc_layout high = *y;
    high.d[id].n_layer = un;
    if (l->moe) high.d[id].n_part = id < nd - 1 ? un : un - 1;
    lc_mem mh = lc_layout_mem(l, &high);
    if (mh.b[id] <= target) {
      *y = high, *mem = mh;
      continue;
    }
    for (uint64_t delta = un - y->d[id].n_layer; delta > 1; delta = high.d[id].n_layer - y->d[id].n_layer) {
      uint64_t step = lc_false_position(delta, target, mem->b[id], mh.b[id]);
      lc_layout t = *y;
      t.d[id].n_layer += step;
      if (l->moe) t.d[id].n_part += id == nd - 1 && t.d[id].n_part == 0 ? step - 1 : step;
      lc_mem mt = lc_layout_mem(l, &t);
      if (mt.b[id] <= target)
        *y = t, *mem = mt;
      else
        high = t, mh = mt;
    }
  }
}

/* the first n of the partial blocks from GPU *ds on become GPU id's full blocks (a GPU left
** without partial blocks passes the rest on to the next) */
static void lc_convert(lc_layout *y, int id, int *ds, int nd, uint64_t n) {
  for (uint64_t done = 0; *ds < nd; (*ds)++) {
    lc_ngl *d = &y->d[*ds];
    uint64_t k = n - done < d->n_part ? n - done : d->n_part;
    d->n_layer -= k, d->n_part -= k, y->d[id].n_layer += k, done += k;
    if (d->n_part > 0) break;
  }
}

/* a trial layout t of GPU id is taken when it keeps id, and the next GPU it overflows to,
** strictly within target */
static bool lc_try(lc *l, const lc_layout *t, int id, int64_t target, lc_layout *y, lc_mem *mem) {
  lc_mem m = lc_layout_mem(l, t);
  if (m.b[id] >= target || (id + 1 < l->n_gpu && m.b[id + 1] >= target)) return false;
  *y = *t, *mem = m;
  return true;
}

/* step 4, a MoE model whose dense-only blocks leave memory over: front to back, each GPU
** turns the most dense-only blocks into full ones that keep it within target (by false
** position: with them all, then fewer), then tries part of one more block, overflowing to
** the next GPU (the host on the last): its up experts (the rest of its FFN overflows: UP),
** then its gate too (only down overflows: GATE), failing UP its whole FFN (ATTN). */
static void lc_fill_moe(lc *l, lc_layout *y, lc_mem *mem, int64_t target) {
  int nd = l->n_gpu, ds = nd;
  for (int id = nd - 1; id >= 0 && y->d[id].n_layer > 0; id--) ds = id;
  for (int id = 0; id <= ds && ds < nd; id++) {
    lc_layout high = *y;
    for (int jd = ds; jd < nd; jd++) {
      uint64_t mv = jd < nd - 1 ? high.d[jd].n_layer : high.d[jd].n_layer - 1;
      high.d[id].n_layer += mv, high.d[jd].n_layer -= mv, high.d[jd].n_part = 0;
    }
    lc_mem mh = lc_layout_mem(l, &high);
    if (mh.b[id] <= target) {
      *y = high, *mem = mh, ds = nd - 1; /* every block but the output moved: the last GPU's is full */
    } else {
      for (uint64_t delta = lc_full(&high.d[id]) - lc_full(&y->d[id]); delta > 1;
           delta = lc_full(&high.d[id]) - lc_full(&y->d[id])) {
        lc_layout t = *y;
        int ds_t = ds;
        lc_convert(&t, id, &ds_t, nd, lc_false_position(delta, target, mem->b[id], mh.b[id]));
        lc_mem mt = lc_layout_mem(l, &t);
        if (mt.b[id] <= target)
          *y = t, *mem = mt, ds = ds_t;
        else
          high = t, mh = mt;
      }
    }
    /* (a GPU after id left with no partial block, e.g. the last with only the output layer,
    ** has none to give; fit.cpp's uint32_t n_part wraps there and its position loop skips it) */
    if (ds >= nd || y->d[ds].n_part == 0 || y->d[ds].n_layer <= (uint64_t)(id < nd - 1 ? 0 : 1)) continue;
    lc_layout t = *y;
    int ds_t = ds;
    t.d[ds_t].n_layer--, t.d[ds_t].n_part--, t.d[id].n_layer++, t.d[id].n_part++;
    if (t.d[ds_t].n_part == 0) ds_t++;
    t.d[id].ov_next = id < nd - 1;
    t.d[id].ov = LC_PART_R | LC_PART_G | LC_PART_D; /* UP */
    if (lc_try(l, &t, id, target, y, mem)) {
      ds = ds_t;
      t.d[id].ov = LC_PART_D; /* GATE */
      lc_try(l, &t, id, target, y, mem);
    } else {
      t.d[id].ov = LC_PART_R | LC_PART_G | LC_PART_U | LC_PART_D; /* ATTN */
      if (lc_try(l, &t, id, target, y, mem)) ds = ds_t;
    }
  }
}

/* -ngl left to --fit (steps 3 and 4 of common_params_fit_impl, llama.cpp 80fb11a): when every
** block on the GPUs does not leave the margin free, lc_fill_dense places the blocks (a MoE
** model's dense-only), and when a MoE model's dense-only blocks on every GPU at the default
** split would leave memory over in all, lc_fill_moe brings experts back. The layout is in
** the figures (fit_auto_split_<g> and, for a MoE model, fit_auto_part_<g>, fit_auto_ov_<g>,
** fit_auto_ov_next_<g>; one GPU also fit_auto_moe_gpu_layers and fit_auto_moe_part_host).
** current: l is as its last run. True when l is left so. */
static bool lc_fit_ngl(lc *l, bool current) {
  const scenario *s = l->s;
  if (!scn_bool(s, "runtime.fit_ngl", false) || s->fit_probe || l->cpu || !lc_gpu_memory(l)) return current;
  /* one target for every GPU: the scenario's GPUs are alike (fit.cpp keeps one per device) */
  int64_t target = lc_fit_target(l);
  uint64_t all = l->n_layer_all; /* all + 1: every block and the output layer */
  if (!current) lc_run(l);
  if (!lc_over(l, target)) {
    if (l->n_gpu == 1) est_fig(l->c, "fit_auto_n_gpu_layers", l->ngl < all + 1 ? l->ngl : all + 1);
    return true;
  }
  int nd = l->n_gpu;
  int64_t surplus = 0;
  if (l->moe) { /* every routed expert on the host at the default placement (the scenario
                ** sets no --n-cpu-moe here: scripts/runtimes/llamacpp.lua) */
    uint64_t own = l->n_cpu_moe;
    l->n_cpu_moe = l->n_layer_all; /* fit.cpp's pattern_moe_all: every block */
    lc_run(l);
    for (int g = 0; g < nd; g++) surplus += target - (int64_t)lc_gpu_total(l, g);
    l->n_cpu_moe = own;
  }
  lc_layout y;
  memset(&y, 0, sizeof y);
  for (int g = 0; g < nd; g++) y.d[g].ov = LC_PART_X;
  lc_mem mem = lc_layout_mem(l, &y);
  lc_fill_dense(l, &y, &mem, target);
  if (l->moe && surplus > 0) lc_fill_moe(l, &y, &mem, target);
  lc_layout_mem(l, &y); /* l left as the layout's run */
  static const char *const fig[4][LC_MAX_GPU] = {LC_FIG16("fit_auto_split_"), LC_FIG16("fit_auto_part_"),
                                                   LC_FIG16("fit_auto_ov_"), LC_FIG16("fit_auto_ov_next_")};
  est_fig(l->c, "fit_auto_n_gpu_layers", l->ngl);
  for (int g = 0; g < nd; g++) {
    est_fig(l->c, fig[0][g], y.d[g].n_layer);
    if (!l->moe) continue;
    est_fig(l->c, fig[1][g], y.d[g].n_part);
    est_fig(l->c, fig[2][g], y.d[g].ov);
    est_fig(l->c, fig[3][g], y.d[g].ov_next);
  }
  if (nd == 1 && l->moe) {
    /* the blocks whose experts stay on the GPU: the full ones (after step 3 alone, the first
    ** offloaded block: its partial range ends at the output layer's index) */
    est_fig(l->c, "fit_auto_moe_gpu_layers", lc_full(&y.d[0]));
    est_fig(l->c, "fit_auto_moe_part_host", y.d[0].ov != LC_PART_X ? y.d[0].ov : 0);
  }
  return true;
}

void llamacpp_estimate(ectx *c) {
  lc l;
  memset(&l, 0, sizeof l);
  l.c = c, l.s = c->s, l.m = c->m;
  if (l.m->layers == 0) {
    est_fail(c, "model '%s': llama.cpp needs a decoder with layers", l.m->id);
    return;
  }
  lc_options(&l);
  if (c->failed) {
    rules_free(l.ot);
    return;
  }
  if (!lc_fit_ngl(&l, lc_fit_ctx(&l))) lc_run(&l);
  lc_budget(&l);
  lc_figures(&l);
  lc_fit(&l);
  rules_free(l.ot);
  l.ot = NULL;
  c->e->peak_phase = "prefill";
  /* llama.cpp allocates ggml backend buffers once, not through PyTorch's allocator */
  c->e->allocated_label = l.cpu ? "ggml buffers resident in host memory" : "ggml backend buffers on this GPU";
  c->e->reserved_label = "the same: ggml buffers are allocated once";
  if (l.cpu) c->e->total_label = "host memory they hold (repacked tensors' mapped pages left to the page cache)";
  c->e->host_backend = l.cpu;
  if (!l.cpu) { /* the host is the device on the CPU backend; with GPUs it is judged beside them */
    c->e->host_required = lc_host_total(&l);
    c->e->host_limit = scn_u64(l.s, "runtime.host_memory", 0);
  }
  est_finish(c, &c->e->b);
  /* no PyTorch allocator here: both peaks are the ggml buffers (every line but the CUDA
  ** context), as the labels say */
  c->e->peak_allocated = c->e->peak_reserved =
      c->e->total - budget_get(&c->e->b, "cuda_context") - budget_get(&c->e->b, "workspace"); /* ggml's buffers */
}
