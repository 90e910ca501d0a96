/*
** rt_vllm.c: vLLM's startup memory arithmetic, figure by figure as it prints it:
** weights per rank, the profile run's activation peak, non-torch memory, the KV budget
** (gpu_memory_utilization x total - the rest), pages per KV-cache group, blocks, tokens
** and maximum concurrency (shared/calibration/llm_inference_README.md). Version eras:
** V0 (< 0.8), V1 0.8-0.11.0 (FlashInfer sampler), 0.11.1-0.16 (sorting sampler), 0.17+.
** Uses estimate_int.h.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate_int.h"

#define V_MAX_GROUPS MODEL_MAX_KV

/* The multimodal part of the profile run of a decoder-only vision-language model
** (mm_profile): the dummy items the vision encoder runs at once, its peak, and what stays
** allocated while the decoder and the sampler run. */
typedef struct vmm {
  bool on;
  uint64_t tokens, items, seqs; /* LLM tokens per item; items encoded at once; V0: dummy sequences */
  uint64_t enc_peak, kept, out;  /* encoder peak; kept through the decoder run (of it: encoder outputs) */
} vmm;

/* Multi-LoRA serving (runtime.lora; scripts/runtimes/vllm.lua sets vllm.lora.*). */
typedef struct vlora {
  bool on, sharded, embed, base_vocab;
  uint64_t loras, rank, eb, extra; /* slots, max rank, bytes per element, extra vocabulary (< 0.12) */
  uint64_t act;                    /* the profile forward's shrink buffer (lora_act_bytes) */
} vlora;

typedef struct vcfg {
  uint64_t version; /* minor x 1000 + patch (0.19.0 -> 19000) */
  uint64_t requested, mml, bs, seqs, tokens, a, kvb;
  uint64_t fwd_tokens, smp_seqs; /* what the profile's forward and sampler run over */
  uint64_t state_blocks;         /* extra state blocks a request holds per Mamba group (speculative) */
  uint64_t mamba_align;          /* 1 in mamba_cache_mode "align": the previous state block stays held */
  const char *spec;              /* spec.method ("" without speculative decoding) */
  bool drafter;                  /* a drafter model runs (every method but ngram) */
  uint64_t graph_pw, graph_full; /* CUDA-graph capture sizes, PIECEWISE and FULL (capture_sizes) */
  uint64_t nccl_pw, nccl_full;   /* of those, the sizes whose all-reduces NCCL runs (nccl_sizes) */
  const char *car_off;           /* why custom all-reduce is off (est_custom_ar_off), NULL when on */
  bool chunked, eager, nvls, fi_sampler, v0;
  bool fi_attn; /* attention on FlashInfer's native (non-TRT-LLM) kernels: vllm_flashinfer_attn */
  bool v2; /* the V2 model runner (vllm/v1/worker/gpu/model_runner.py; vllm.lua model_runner) */
  vmm mm;
  vlora lora;
} vcfg;

/* One KV-cache spec (layers alike): vLLM's FullAttentionSpec / SlidingWindowSpec /
** MLAAttentionSpec. */
typedef struct vspec {
  uint64_t layers, page, window, tokens; /* tokens: cross-attention's encoder tokens */
  kv_kind kind;
  uint64_t all; /* the model's layers of this spec over every stage (layers: ceil(all / pp)) */
  uint64_t bs;  /* its block size: block_size, or larger where its page was unified (vllm_unify_pages) */
} vspec;

typedef struct vgroups {
  vspec t[V_MAX_GROUPS];
  int n;
  uint64_t group_size, n_groups, page;
  bool uniform_type; /* full-attention specs of one block size and several page sizes: one group
                     ** (UniformTypeKVCacheSpecs, vllm_uniform_type) */
} vgroups;

/* One pipeline stage's rank. */
typedef struct vrank {
  uint64_t weights, draft, lora, act, non_torch, kv, blocks; /* weights: target + draft + LoRA slots */
  uint64_t mamba; /* before 0.10: the MambaCacheManager's state tensors (mamba_cache_v0) */
} vrank;

static uint64_t gib(ectx *c, double g) {
  return acc_from_double(&c->acc, g * GIB);
}

/* ---------------------------------------------------------------- configuration */

/* The V1 engine's defaults for the OpenAI server (vllm/engine/arg_utils.py
** _set_default_args_v1), by release:
**   0.8.0-0.8.3  8192 batched tokens on an H100 / H200, matched by device name ("h100" or
**                "h200" in it, PR #12369, merged 2025-01-24), 2048 elsewhere; max_num_seqs
**                1024 on every GPU (V1's own default, which PR #16158 "[V1] Revert the default
**                max_num_seqs to V0 values for most hardware", merged 2025-04-07 after 0.8.3,
**                cut to 256 except on H100 / H200);
**   0.8.4-0.8.5  1024 / 8192 on an H100 / H200, 256 / 2048 elsewhere (PR #17073, which
**                widened it to every GPU of 80 GB and more, is not placed in a release: left out);
**   0.9 on       1024 / 8192 on every GPU of >= 70 GiB whose name has no "a100" (PR #17885).
** The V0 engine (and a V1 release's V0 fallback: encoder-decoder, Mamba hybrids) keeps 256 /
** 2048 ("Set max_num_seqs to 256 for VLLM_V0", arg_utils.py 0.9). Hold-out: QwenLM/Qwen3-VL
** issue 1057 (vLLM 0.8.2 on an H100 80GB, Qwen2.5-VL-7B-Instruct, 128,000): "GPU KV cache
** size: 905,648 tokens" needs the 1024-sequence sampler of the profile run. */
static bool h100_h200_name(const scenario *s) {
  char low[sizeof s->gpu_name];
  size_t i = 0;
  for (; s->gpu_name[i] && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)s->gpu_name[i]);
  low[i] = 0;
  return strstr(low, "h100") != NULL || strstr(low, "h200") != NULL;
}
static bool big_gpu(const vcfg *v, const scenario *s) {
  if (v->v0 || v->version < 8000) return false;
  if (v->version < 9000) return h100_h200_name(s);
  return s->gpu_memory >= 70ull * 1024 * MIB && strcmp(s->gpu_arch, "ampere") != 0;
}
/* V1 0.8.0-0.8.3: 1024 sequences on every GPU (see big_gpu) */
static uint64_t default_seqs(const vcfg *v, const scenario *s) {
  if (big_gpu(v, s) || (!v->v0 && v->version >= 8000 && v->version < 8004)) return 1024;
  return 256;
}

/* ---------------------------------------------------------------- MLA block size */

/* vLLM forces the KV block size of an MLA model (a KV group caching one latent: v_dim 0) to
** what the MLA attention backend it picks for the GPU accepts (vllm/platforms/cuda.py
** check_and_update_config; the PRs and logs behind each era are named below):
**   < 0.8.0  Triton MLA everywhere: the default 16.
**   0.8.0    FlashMLA the default where it runs, Hopper (is_flashmla_supported: capability 9.x):
**            "Forcing kv cache block size to 64 for FlashMLA backend" when block_size != 64
**            (PR #13747 FlashMLA, PR #14451 default, March 2025; a v0.8.3 log prints it).
**   0.10.1   CUTLASS_MLA the default on SM100 (is_device_capability(100): 10.0 exactly), 128
**            when != 128 (PR #21626, merged 2025-07-27, after 0.10.0).
**   0.11.0   the user's block size is kept when a multiple: FlashMLA % 64, CUTLASS_MLA % 128
**            (ruff-era cuda.py with is_flashmla_dense_supported; the exact PR is not pinned).
**   0.15.0   FLASHINFER_MLA the default on the SM100 family (10.x) when qk_nope_head_dim is 128,
**            64 unless 32 or a multiple of 64; other head sizes CUTLASS_MLA (PR #32615, merged
**            2026-01-19, after 0.14.0's cut: inferred).
**   0.18.0   the backend chosen by priority sets the size (PR #35122, merged 2026-03-09, when
**            0.17.1 was already out: first in 0.18.0, inferred): Hopper FLASH_ATTN_MLA keeps 16 (bf16/fp16 KV only; an fp8 KV goes
**            to FLASHMLA, 64), SM10x FLASHINFER_MLA its smallest size 32 (qk_nope 64/128/192,
**            else CUTLASS_MLA 128); a given --block-size is kept (a backend that takes it is
**            chosen). llmd-v019-deepseek-v2-lite: 94,097 blocks x 16 on H100 (0.19.0).
** Ampere, Ada, SM120 and non-CUDA GPUs keep 16 (FlashMLA, CUTLASS_MLA and FlashInfer MLA do
** not run there). A GPU of unknown architecture is taken for Hopper, a Blackwell of unknown
** compute capability for SM100 (as mx_backend). DeepSeek-V3.2's sparse MLA (64) and decode
** context parallelism are not modelled. */
/* FlashInfer's top-k / top-p sampler off by default from 0.11.1 (vLLM PR #26859; sampler_extra). Before
** it, 0.8-0.11.0 sample with FlashInfer where it is importable: vLLM's image (runtime.install
** "docker", the default), not a pip / conda / source install (runtime.install "pip"): evidence in
** scripts/runtimes/vllm.lua beside the install knob, tests/test_holdout25_fi.c. */
#define VLLM_FI_SAMPLER_OFF 11001
#define VLLM_MLA_FLASHMLA 8000
#define VLLM_MLA_CUTLASS 10001
#define VLLM_MLA_MULTIPLE 11000
#define VLLM_MLA_FLASHINFER 15000
#define VLLM_MLA_SELECTOR 18000

/* Whether attention runs on FlashInfer's native kernels, in vLLM's own choice (no knob for
** VLLM_ATTENTION_BACKEND / --attention-backend here). vllm/platforms/cuda.py tries FLASH_ATTN
** first on every NVIDIA GPU but the SM100 family, and FlashAttention takes an fp8 KV cache only
** with FA3 (flash_attn_supports_fp8: compute 9.0), so an fp8 cache on Ampere, Ada or SM12x
** falls to FLASHINFER. The N2 log (vLLM 0.13.0, 2 x L40S, fp8 KV) prints "Using FLASHINFER
** attention backend out of potential backends: ('FLASHINFER', 'TRITON_ATTN')"; the v0.20.0 /
** v0.20.2 logs of Qwen3.6-35B-A3B-NVFP4 with an fp8 cache on a Blackwell workstation GPU print
** "... potential backends: ['FLASHINFER', 'TRITON_ATTN']". The SM100 family (FlashInfer first,
** its decode on TRT-LLM kernels) and MLA models (their own backends) are left out: not read.
** V1 from 0.10 (the first release with cudagraph modes; earlier ones not read). */
static bool vllm_flashinfer_attn(const ectx *c, const vcfg *v) {
  const scenario *s = c->s;
  const char *cc = s->gpu_compute, *arch = s->gpu_arch;
  bool nvidia = strcmp(arch, "ampere") == 0 || strcmp(arch, "ada") == 0 || strcmp(arch, "hopper") == 0 ||
                strcmp(arch, "blackwell") == 0;
  bool sm90 = cc[0] ? strcmp(cc, "9.0") == 0 : strcmp(arch, "hopper") == 0;
  bool sm100 = strcmp(arch, "blackwell") == 0 && (!cc[0] || strncmp(cc, "10.", 3) == 0);
  /* an attention-free model (architectures/mamba.lua: Mamba layers only) builds no attention
  ** backend at all, so kv_cache_dtype picks none: no FlashInfer builder, workspace or downgrade */
  return !est_model_attention_free(c->m) && !v->v0 && v->version >= 10000 && nvidia && !sm90 && !sm100 && v->kvb == 1 && !est_model_mla(c->m);
}

/* DeepSeek-V3.2's sparse MLA: a KV group of fixed bytes a token (the indexer's keys). */
static bool sparse_mla(const model_desc *m) {
  for (int i = 0; i < m->n_kv; i++)
    if (m->kv[i].bytes) return true;
  return false;
}

/* block_size for the scenario's GPU: `given` is the user's --block-size (0: not given). Sparse MLA
** (DeepSeek-V3.2) runs FLASHMLA_SPARSE, whose kernels take 64-token pages: "Forcing kv cache block
** size to 64 for FlashMLASparse backend" (vllm/platforms/cuda.py check_and_update_config, use_sparse,
** 0.11.0); the later backend selector keeps 64 (FlashMLASparseBackend.get_supported_kernel_block_sizes;
** a Blackwell default of FLASHINFER_MLA_SPARSE, which also takes 32, is not modelled). */
static uint64_t mla_block_size(const vcfg *v, const scenario *s, const model_desc *m, uint64_t given) {
  uint64_t bs = given ? given : 16;
  if (sparse_mla(m)) return 64;
  if (v->version < VLLM_MLA_FLASHMLA || !est_model_mla(m)) return bs;
  bool hopper = strcmp(s->gpu_arch, "hopper") == 0 || !s->gpu_arch[0];
  bool bw = strcmp(s->gpu_arch, "blackwell") == 0;
  bool sm100 = bw && (!s->gpu_compute[0] || strcmp(s->gpu_compute, "10.0") == 0);
  bool sm10x = bw && (!s->gpu_compute[0] || strncmp(s->gpu_compute, "10.", 3) == 0);
  uint64_t nope = m->head_dim > m->rotary_dim ? m->head_dim - m->rotary_dim : 0;
  if (v->version >= VLLM_MLA_SELECTOR) {
    if (given) return given;
    if (hopper) return v->kvb == 1 ? 64 : 16;
    if (sm10x) return nope == 64 || nope == 128 || nope == 192 ? 32 : 128;
    return 16;
  }
  bool multiple = v->version >= VLLM_MLA_MULTIPLE;
  if (hopper) return (multiple ? bs % 64 == 0 : bs == 64) ? bs : 64;
  if (v->version >= VLLM_MLA_FLASHINFER && sm10x) {
    if (nope == 128) return bs == 32 || bs % 64 == 0 ? bs : 64;
    return bs % 128 == 0 ? bs : 128;
  }
  if (v->version >= VLLM_MLA_CUTLASS && sm100) return (multiple ? bs % 128 == 0 : bs == 128) ? bs : 128;
  return bs;
}

static void mm_profile(ectx *c, vcfg *v);
static uint64_t lora_act_bytes(ectx *c, const vcfg *v);
static void capture_sizes(ectx *c, const vcfg *v, uint64_t *pw, uint64_t *full);
static void nccl_sizes(ectx *c, vcfg *v);

static void vllm_config(ectx *c, vcfg *v) {
  const scenario *s = c->s;
  memset(v, 0, sizeof *v);
  /* fallbacks only: scripts/runtimes/vllm.lua always sets the version and utilization
  ** (vLLM's default: EngineArgs gpu_memory_utilization 0.9); it sets the block size (16)
  ** except for MLA models, whose size mla_block_size picks for the GPU of this estimate */
  v->version = scn_u64(s, "vllm.version", 19000);
  double util = scn_real(s, "runtime.gpu_memory_utilization", 0.9);
  v->requested = acc_from_double(&c->acc, util * (double)s->gpu_memory);
  v->mml = scn_u64(s, "runtime.max_model_len", s->context);
  uint64_t given = scn_u64(s, "runtime.block_size", 0);
  v->chunked = scn_bool(s, "runtime.enable_chunked_prefill", true);
  v->eager = scn_bool(s, "runtime.enforce_eager", false);
  v->nvls = est_nvls(s);
  /* FlashInfer is a CUDA library: TopKTopPSampler (vllm/v1/sample/ops/topk_topp_sampler.py) takes
  ** it only under current_platform.is_cuda() and falls to forward_native (the full-vocabulary
  ** sort) on every other platform, ROCm included (`elif current_platform.is_tpu(): ... else:
  ** self.forward = self.forward_native`, code index copies 58216982726, 8128228515), whatever
  ** VLLM_USE_FLASHINFER_SAMPLER says; the rejection sampler is gated the same way (616291271). Hold-out: AMD's ROCm Ray blog
  ** (vLLM 0.9.2.dev364 on an MI300X, R1-Distill-Qwen-14B tp 2): 7.54 GiB of activation + non-torch
  ** = 1024 x 152064 x (2 + 36.9) B of sorting sampler + the rest; with FlashInfer's 13.4 B 2.46. */
  bool rocm = strncmp(s->gpu_arch, "cdna", 4) == 0 || strncmp(s->gpu_arch, "gaudi", 5) == 0;
  v->fi_sampler = !rocm && scn_bool(s, "runtime.flashinfer_sampler",
                                    v->version >= 8000 && v->version < VLLM_FI_SAMPLER_OFF);
  v->v0 = scn_bool(s, "vllm.v0", v->version < 8000);
  v->v2 = scn_bool(s, "vllm.v2_runner", false);
  bool big = big_gpu(v, s);
  v->seqs = scn_u64(s, "runtime.max_num_seqs", default_seqs(v, s));
  uint64_t chunk = big ? 8192 : 2048;
  uint64_t dflt = v->chunked ? chunk : (v->mml > chunk ? v->mml : chunk);
  /* V0 raises a multimodal model's default to _MULTIMODAL_MODEL_MAX_NUM_BATCHED_TOKENS =
  ** 5120 (vllm/config.py SchedulerConfig; V1 sets the value itself in arg_utils) */
  if (v->v0 && scn_u64(s, "mm.tokens", 0) && dflt < 5120) dflt = 5120;
  /* a multimodal prefix-LM's default holds its largest item, at most max_model_len (vllm
  ** PR #43051, from 0.22: vllm.lua mm_batched_floor). gemma-4-26B-A4B on an L40S, 0.25.1:
  ** 2496 tokens, so 221 pages of 16 a sliding layer (cdiv(1023 + 2496, 16) + 1), which is
  ** the 1.2995 GiB request the log's 12.75 GiB / 9.81x implies (tests/test_holdout18_vllm.c) */
  uint64_t item = scn_u64(s, "vllm.mm_batched_floor", 0);
  if (item > v->mml) item = v->mml;
  if (v->chunked && item > dflt) dflt = item;
  v->tokens = scn_u64(s, "runtime.max_num_batched_tokens", dflt);
  v->fwd_tokens = v->tokens;
  v->smp_seqs = v->seqs < v->tokens ? v->seqs : v->tokens;
  v->a = est_bits(s->dtype) / 8;
  v->state_blocks = scn_u64(s, "spec.state_blocks", 0);
  v->mamba_align = scn_u64(s, "vllm.mamba_align", 0);
  v->spec = scn_str(s, "spec.method", ""); /* scripts/speculative.lua sets it */
  v->drafter = v->spec[0] && strcmp(v->spec, "ngram") != 0;
  uint64_t kvb = scn_u64(s, "vllm.kv_bytes", 0);
  v->kvb = kvb ? kvb : est_bits(s->kv_dtype) / 8;
  /* positive: a given size as it is (vllm.lua rejects 0 and below), else 16 or a backend's */
  v->bs = mla_block_size(v, s, c->m, given);
  if (v->mml == 0 || v->seqs == 0 || v->tokens == 0 || v->kvb == 0)
    est_fail(c, "vllm: max_model_len, max_num_seqs and max_num_batched_tokens must be positive");
  if (s->gpu_memory == 0) est_fail(c, "vllm: the GPU's memory is unknown");
  v->lora.on = scn_u64(s, "vllm.lora.max_loras", 0) > 0;
  if (v->lora.on) {
    v->lora.loras = scn_u64(s, "vllm.lora.max_loras", 1);
    v->lora.rank = scn_u64(s, "vllm.lora.rank", 16);
    uint64_t eb = scn_u64(s, "vllm.lora.bytes", 0); /* 0: lora_dtype auto = the model dtype */
    v->lora.eb = eb ? eb : v->a;
    v->lora.sharded = scn_bool(s, "vllm.lora.fully_sharded", false);
    v->lora.embed = scn_bool(s, "vllm.lora.embed", false);
    v->lora.extra = scn_u64(s, "vllm.lora.extra_vocab", 0);
    v->lora.base_vocab = scn_bool(s, "vllm.lora.base_vocab", false);
    /* vllm/distributed/utils.py divide() asserts divisibility (fully sharded A: rank / tp) */
    if (v->lora.sharded && v->lora.rank % s->tp != 0)
      est_fail(c, "vllm: fully_sharded_loras needs max_lora_rank (%llu) divisible by the tensor-parallel size (%llu)",
               (unsigned long long)v->lora.rank, (unsigned long long)s->tp);
    /* vllm/lora/layers/logits_processor.py LogitsProcessorWithLoRA.create_lora_weights: the
    ** vocabulary limit of the LoRA logits kernels, 257024 before 0.12 and 258048 from it */
    if (v->lora.embed && c->m->vocab > (v->version >= 12000 ? 258048u : 257024u))
      est_fail(c, "vllm: LoRA on lm_head needs a vocabulary of at most %u (LogitsProcessorWithLoRA), %s has %llu",
               v->version >= 12000 ? 258048u : 257024u, c->m->id, (unsigned long long)c->m->vocab);
  }
  if (c->failed) return;
  mm_profile(c, v);
  /* after mm_profile, which may change fwd_tokens; the inventory is scanned once here */
  v->lora.act = lora_act_bytes(c, v);
  v->fi_attn = vllm_flashinfer_attn(c, v);
  capture_sizes(c, v, &v->graph_pw, &v->graph_full);
  v->car_off = est_custom_ar_off(s);
  nccl_sizes(c, v);
}

/* ---------------------------------------------------------------- weights */

/* MXFP4 MoE experts as vLLM's Mxfp4MoEMethod.create_weights lays them out per rank
** (vllm/model_executor/layers/quantization/mxfp4.py): the per-rank intermediate size I and
** the hidden size H padded for the MoE backend, then uint8 nibbles (K/2 per row) and one
** E8M0 scale per 32 values. Triton (triton_kernels' matmul_ogs): I to 64, and the swizzle
** of HopperMXValueLayout pads the packed contraction bytes to 64 and the other dimension
** to 256 (tensor_details/layout_details/hopper_value.py _padded_shape); biases become fp32.
** Marlin: I to 128, H to 256 ("n % 256 == 0 and k % 128 == 0"), repacked in place by
** prepare_moe_fp4_layer_for_marlin. FlashInfer TRT-LLM (SM100_FI_MXFP4_BF16 and
** _MXFP8_TRTLLM): I and H to 256. FlashInfer CUTLASS (SM100_FI_MXFP4_MXFP8_CUTLASS,
** SM90_FI_MXFP4_BF16): I and H to 128. gpt-oss-20b on H100, Triton: 12.83 -> 13.39 GiB vs
** 13.47 printed (llmd-emp-gpt-oss-20b); tp 2: 6.43 -> 6.92 vs 7.01
** (llmd-v019-gpt-oss-20b-tp2). gpt-oss-120b on H100, Marlin: 65.93 vs 65.9651 printed
** (vllm#23278, 0.10.1). */
typedef struct mx_layout {
  const char *name; /* runtime.mxfp4_backend, vLLM's --moe-backend names */
  uint64_t i_align, h_align;
  bool swizzle;
} mx_layout;

static const mx_layout MX_LAYOUTS[] = {
    {"triton", 64, 1, true},
    {"marlin", 128, 256, false},
    {"flashinfer_trtllm", 256, 256, false},
    {"flashinfer_cutlass", 128, 128, false},
};

/* The backend get_mxfp4_backend picks when none is forced (runtime.mxfp4_backend):
** datacenter Blackwell (SM100 family: is_device_capability_family(100)) with FlashInfer ->
** FlashInfer TRT-LLM; Hopper -> Triton when the triton_kernels package imports
** (has_triton_kernels()), else Marlin: vllm.mxfp4_hopper, which scripts/runtimes/vllm.lua
** sets by version (the wheel bundles triton_kernels from 0.12); other GPUs, consumer
** Blackwell (SM120) among them, -> Marlin. A GPU of unknown architecture is taken for
** Hopper, a Blackwell of unknown compute capability for SM100. */
static mx_layout mx_backend(const scenario *s) {
  const char *name = scn_str(s, "runtime.mxfp4_backend", "");
  if (!name[0]) {
    bool sm100 = strcmp(s->gpu_arch, "blackwell") == 0 && (!s->gpu_compute[0] || strncmp(s->gpu_compute, "10.", 3) == 0);
    if (strcmp(s->gpu_arch, "hopper") == 0 || !s->gpu_arch[0])
      name = scn_str(s, "vllm.mxfp4_hopper", "triton");
    else
      name = sm100 ? "flashinfer_trtllm" : "marlin";
  }
  for (size_t i = 0; i < sizeof MX_LAYOUTS / sizeof *MX_LAYOUTS; i++)
    if (strcmp(MX_LAYOUTS[i].name, name) == 0) return MX_LAYOUTS[i];
  return MX_LAYOUTS[0]; /* not reached: vllm.lua validates the knob */
}

static uint64_t align_up(uint64_t v, uint64_t a) {
  return a > 1 ? bytes_ceildiv(v, a) * a : v;
}

/* One expert's gate_up ({H, 2I}), down ({I, H}) or their biases, stored in vLLM. */
static uint64_t mxfp4_expert_bytes(ectx *c, const inv_tensor *t) {
  mx_layout l = mx_backend(c->s);
  uint64_t H = c->m->hidden, tp = c->s->tp;
  bool down = strstr(t->name, "down_proj") != NULL;
  uint64_t I = down ? t->shape[0] : t->shape[t->ndim - 1] / 2;
  uint64_t Ir = align_up(bytes_ceildiv(I, tp), l.i_align), Hp = align_up(H, l.h_align);
  if (t->ndim == 1) /* bias: 2I per rank for gate_up; down's H is added once, replicated */
    return (down ? Hp : 2 * Ir) * (l.swizzle ? 4 : 2);
  uint64_t K = down ? Ir : Hp, N = down ? Hp : 2 * Ir;
  uint64_t kb = l.swizzle ? align_up(K / 2, 64) : K / 2, n = l.swizzle ? align_up(N, 256) : N;
  return acc_add(&c->acc, acc_mul(&c->acc, kb, n), acc_mul(&c->acc, bytes_ceildiv(K, 32), n));
}

static bool model_mxfp4(const model_desc *m) {
  for (size_t i = 0; i < m->inv.n; i++)
    if (m->inv.t[i].role == ROLE_EXPERT && strcmp(m->inv.t[i].qtype, "mxfp4") == 0) return true;
  return false;
}

static bool mxfp4_expert(const inv_tensor *t) {
  return t->role == ROLE_EXPERT && (strcmp(t->qtype, "mxfp4") == 0 ||
                                    (strstr(t->name, "_bias") && t->ndim == 1 && t->dtype != DT_FP32));
}

/* GPTQ's qtype (scripts/quant/gptq.lua): "int<bits>-g<size|row>[-act]", "uint..." when
** asymmetric. Returns the bits (0 if not GPTQ); *g the group size (0 for "row"), *act. */
static unsigned gptq_qtype(const char *q, uint64_t *g, bool *act) {
  if (strncmp(q, "int", 3) != 0 || !q[3] || !strchr("2348", q[3]) || strncmp(q + 4, "-g", 2) != 0) return 0;
  *g = strncmp(q + 6, "row", 3) == 0 ? 0 : strtoull(q + 6, NULL, 10);
  *act = strstr(q, "-act") != NULL;
  return (unsigned)(q[3] - '0');
}

/* Whether a Linear of `t` takes MacheteLinearKernel (kernels/mixed_precision/machete.py
** can_implement, machete_utils.py): compute capability exactly 9.0, group size -1, 64 or 128
** for fp16 / bf16 activations, in % 64 and out % 128 per rank, and no act-order when the input
** is partitioned (row-parallel at tp > 1). g = 0: one group per row. */
static bool machete_layer(ectx *c, const inv_tensor *t, uint64_t g, bool act) {
  const char *cc = c->s->gpu_compute;
  uint64_t tp = c->s->tp ? c->s->tp : 1;
  bool sm90 = cc[0] ? strcmp(cc, "9.0") == 0 : strcmp(c->s->gpu_arch, "hopper") == 0;
  uint64_t out = t->shape[0], in = t->shape[1];
  bool row = strstr(t->name, "o_proj") || strstr(t->name, "down_proj");
  uint64_t in_r = row ? in / tp : in, out_r = row ? out : out / tp;
  if (!sm90 || (g && (in % g || !(g == 64 || g == 128 || g == in)))) return false;
  if (act && row && tp > 1) return false;
  return in_r % 64 == 0 && out_r % 128 == 0;
}

/* GPTQ on vLLM's exllama kernel (GPTQLinearMethod, vllm/model_executor/layers/quantization/
** gptq.py) rather than gptq_marlin: when the launch names --quantization gptq (GPTQMarlinConfig.
** override_quantization_method returns None for user_quant "gptq": "Detected that the model can
** run with gptq_marlin, however you specified quantization=gptq explicitly, so forcing gptq"),
** or on a GPU below compute capability 8.0 (GPTQMarlinConfig.get_min_capability 80). Its
** process_weights_after_loading keeps qzeros and, with act-order, replaces g_idx by its argsort
** (one [in] int32 per vLLM module); without act-order g_idx becomes an empty tensor. */
static bool gptq_exllama(ectx *c) {
  const char *cc = c->s->gpu_compute;
  if (strcmp(scn_str(c->s, "runtime.quantization", ""), "gptq") == 0) return true;
  return cc[0] && strtod(cc, NULL) < 8.0;
}

/* What vLLM's process_weights_after_loading and its bitsandbytes loader make of a quantized
** Linear group beyond its checkpoint bytes (all `count` tensors, before tp sharding).
**
** AWQ zero points on Machete. From 0.18.0 (PR #36505: AWQMarlinLinearMethod goes through
** choose_mp_linear_kernel; dated 2026-03-09, first release inferred from the 0.18.0 log
** below) an AWQ Linear takes the mixed-precision kernel chooser, which on compute capability
** 9.0 picks MacheteLinearKernel when it can implement the layer (machete_utils.py: group
** size -1, 64 or 128 for fp16/bf16, in % 64 and out % 128 per rank). Its
** process_weights_after_loading (kernels/mixed_precision/machete.py, transform_w_zp)
** unpacks the int32 qzeros [groups, out/8] and stores -scale x zero in the scales' dtype,
** [groups, out] x 2 B: 1.5 B more per group and output row. Marlin keeps them packed
** (marlin_zero_points), GPTQ and compressed-tensors W4A16 (symmetric) have none, an AWQ
** checkpoint made with zero_point false neither (qtype "-sym").
** hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4 on an H200, vLLM 0.18.0 (Red Hat
** build): "Using MacheteLinearKernel for AWQMarlinLinearMethod", 37.87 GiB printed, 37.07
** without this, 37.81 with it (github.com/MarkellR-RedHat/pytorch-quantization-demo
** @788209dc, bench/raw/2026-09-29-r2/logs/benchmark-int4-predictor-*-startup.txt).
**
** bitsandbytes double quantization. From 0.9.2 (PR #19742, merged 2025-06, first release
** inferred from the merge date) BitsAndBytesModelLoader.load_weights calls dequantize_dq on
** every quant state: the uint8 absmax with its nested fp32 absmax (per 256), 256-entry code
** and offset becomes one fp32 absmax per 64-element block, as without double quantization
** (in-flight quantization uses quantize_4bit(..., compress_statistics=True), so it always
** has them). Qwen2.5-3B-Instruct in-flight nf4 on 0.18.0: 2.07 GiB printed, 1.92 without
** this, 2.04 with it (hold-out round 6).
**
** GPTQ (gptq_marlin: 4 or 8 bits, symmetric; GPTQMarlinLinearMethod passes zero_points=False
** to choose_mp_linear_kernel). GPTQMarlinLinearMethod.create_weights allocates qweight, g_idx
** int32 [in], scales and qzeros whatever desc_act; what process_weights_after_loading keeps
** depends on the kernel:
** - MarlinLinearKernel (kernels/mixed_precision/marlin.py) replaces qzeros with
**   marlin_make_empty_g_idx (an empty Parameter: the checkpoint's zero points are freed),
**   and without act-order g_idx too; with it g_idx becomes the sorted g_idx and
**   g_idx_sort_indices another int32 [in] (marlin_sort_g_idx). Its workspace is SMs x 4 B
**   (marlin_make_workspace_new; out / 64 x 16 x 4 B before), a 512 B block: not counted.
** - MacheteLinearKernel (compute 9.0, machete_layer) repacks qweight and scales and, with
**   zero_points false, never touches qzeros or g_idx: both stay (unused), and with act-order
**   perm = argsort(g_idx) int32 [in] is kept by the act_perm closure.
** A fused module (q/k/v, gate/up) holds one g_idx and one perm. So against the checkpoint
** bytes (qzeros counted, g_idx per tensor with act-order only): Marlin -qzeros, Machete +in x 4
** a module; with act-order 2 x in x 4 a module in place of in x 4 a tensor. Asymmetric, 2- and 3-bit checkpoints take
** GPTQLinearMethod (exllama), which keeps what gptq.lua counts.
** The Llama-3.1-70B-Instruct "quantized.w4a16" run of the Red Hat log set is such a
** checkpoint ("quantization=gptq_marlin", "Using MacheteLinearKernel for
** GPTQMarlinLinearMethod", benchmark-int4-rh-predictor-*-startup.txt): 37.11 GiB printed,
** 37.08 with qzeros and g_idx (36.82 as compressed-tensors without them). Phi-4 AutoRound
** GPTQ on an A100 (Marlin, vLLM V0): 8.5107 GiB printed, 8.5144 with the zero points, 8.4648
** without them, 8.4941 with the repacked weights' block tails (fused_allocs). */

static int64_t vllm_requant_extra(ectx *c, const inv_tensor *t) {
  uint64_t code = scn_u64(c->s, "vllm.version", 19000);
  if (t->ndim != 2) return 0;
  /* MoE experts take the fused-MoE methods (AWQMarlinMoEMethod), not a Linear kernel */
  if (strncmp(t->qtype, "awq-g", 5) == 0 && !strstr(t->qtype, "-sym") && t->role != ROLE_EXPERT && code >= 18000) {
    uint64_t out = t->shape[0], in = t->shape[1], g = strtoull(t->qtype + 5, NULL, 10);
    if (!g || in % g || !machete_layer(c, t, g, false)) return 0;
    return (int64_t)acc_mul(&c->acc, acc_mul3(&c->acc, in / g, out, 3) / 2, t->count);
  }
  /* compressed-tensors' asymmetric W4A16 / W8A16 (zero points since PR #14211, merged 2025-04,
  ** first in 0.8.5 inferred): on Machete the same transform_w_zp, [out / pack, groups] int32 ->
  ** [groups, out] in the activation dtype (2 B): (2 - bits / 8) B more per group and row */
  if ((strncmp(t->qtype, "w4a16-g", 7) == 0 || strncmp(t->qtype, "w8a16-g", 7) == 0) &&
      strstr(t->qtype, "-zp") && t->role != ROLE_EXPERT && code >= 8005) {
    uint64_t out = t->shape[0], in = t->shape[1], bits = t->qtype[1] == '4' ? 4 : 8;
    uint64_t gs = strncmp(t->qtype + 7, "row", 3) == 0 ? 0 : strtoull(t->qtype + 7, NULL, 10);
    uint64_t groups = gs ? bytes_ceildiv(in, gs) : 1;
    if (!machete_layer(c, t, gs, false)) return 0;
    uint64_t packed = acc_mul(&c->acc, bytes_ceildiv(out * bits, 32) * 4, groups);
    return (int64_t)acc_mul(&c->acc, acc_mul(&c->acc, groups, out * 2) - packed, t->count);
  }
  uint64_t g = 0;
  bool act = false;
  unsigned bits = gptq_qtype(t->qtype, &g, &act);
  if ((bits == 4 || bits == 8) && t->role != ROLE_EXPERT) {
    uint64_t out = t->shape[0], in = t->shape[1], groups = g ? bytes_ceildiv(in, g) : 1;
    /* one g_idx per vLLM module: k/v and up load into q's and gate's (QKVParallelLinear,
    ** MergedColumnParallelLinear; a RowvLLMParameter of [in], each shard writing it whole) */
    bool follower = strstr(t->name, ".k_proj.") || strstr(t->name, ".v_proj.") ||
                    strstr(t->name, ".up_proj.") || strstr(t->name, ".w3.");
    if (gptq_exllama(c)) { /* zero points kept; with act-order g_idx becomes its argsort in place */
      return act && follower ? -(int64_t)acc_mul(&c->acc, in * 4, t->count) : 0;
    }
    bool machete = machete_layer(c, t, g, act);
    uint64_t kept = follower ? 0 : (machete || act ? (act ? 2 : 1) : 0);
    int64_t d = (int64_t)acc_mul(&c->acc, in * 4 * kept, t->count) -
                (act ? (int64_t)acc_mul(&c->acc, in * 4, t->count) : 0);
    if (!machete) /* Marlin frees the zero points */
      d -= (int64_t)acc_mul(&c->acc, acc_mul(&c->acc, groups, out * bits / 32 * 4), t->count);
    return d;
  }
  if ((strcmp(t->qtype, "nf4-dq") == 0 || strcmp(t->qtype, "fp4-dq") == 0) && code >= 9002) {
    uint64_t numel = 0;
    if (!inv_tensor_elements(t, &numel)) return 0;
    uint64_t nb = bytes_ceildiv(numel, 64), nested = bytes_ceildiv(nb, 256) * 4 + 1024 + 4;
    return 3 * nb > nested ? (int64_t)acc_mul(&c->acc, 3 * nb - nested, t->count) : 0;
  }
  return 0;
}

/* Bytes of one tensor group on one rank of a tp group: vocabulary-parallel rows
** padded to 64 (vllm/model_executor/layers/vocab_parallel_embedding.py pad_vocab_size),
** K/V projections replicated when there are fewer KV heads than ranks
** (QKVParallelLinear num_kv_head_replicas), norms and routers replicated. */
static uint64_t rank_tensor_bytes(ectx *c, const inv_tensor *t) {
  const model_desc *m = c->m;
  uint64_t tp = c->s->tp, b = 0;
  if (mxfp4_expert(t) && model_mxfp4(m)) return acc_mul(&c->acc, mxfp4_expert_bytes(c, t), t->count);
  if (!inv_tensor_bytes(t, &b)) c->acc.overflow = true;
  if (t->qtype[0]) {
    int64_t d = vllm_requant_extra(c, t);
    b = d >= 0 ? acc_add(&c->acc, b, (uint64_t)d) : b - (b < (uint64_t)-d ? b : (uint64_t)-d);
  }
  /* a drafter's vocabulary-parallel rows are its own (EAGLE-3's draft_vocab_size lm_head),
  ** its K/V heads those of its own attention (speculative.lua: spec.kv1.heads) */
  bool draft = est_is_draft(t);
  uint64_t V = draft && t->ndim >= 1 ? t->shape[0] : m->vocab;
  uint64_t kvh = draft ? scn_u64(c->s, "spec.kv1.heads", m->kv_heads) : m->kv_heads;
  /* MiniMaxText01ForCausalLM casts its untied head to fp32 (self.lm_head.float(), vllm-project/vllm
  ** PR #19592; scripts/runtimes/vllm.lua minimax_state sets vllm.lm_head_fp32 from 0.9.2) */
  uint64_t el = 0;
  if (t->role == ROLE_LM_HEAD && !draft && !t->qtype[0] && scn_bool(c->s, "vllm.lm_head_fp32", false) &&
      inv_tensor_elements(t, &el))
    b = acc_mul3(&c->acc, el, t->count, 4);
  bool vocab = (t->role == ROLE_EMBED || t->role == ROLE_LM_HEAD) && t->ndim >= 1 && t->shape[0] == V;
  if (vocab && V) b = acc_mul(&c->acc, b / V, (V + 63) / 64 * 64);
  /* MLA's down-projections are whole on every rank: DeepseekV2MLAAttention (vLLM
  ** model_executor/models/deepseek_v2.py) builds q_a_proj and kv_a_proj_with_mqa as
  ** ReplicatedLinear (later fused into fused_qkv_a_proj, a MergedColumnParallelLinear with
  ** disable_tp), as do MiniCPM3 and the MLA families that reuse the class; only q_b_proj,
  ** kv_b_proj and o_proj split by heads. DeepSeek-R1 at tp 8: 61 x 7168 x (1536 + 576) x 1 B
  ** (fp8) = 0.86 GiB a rank where a tp-split share was 0.11. Held out: the 0.11.2 DeepSeek-R1-0528
  ** tp 8 H200 run (tests/test_holdout25_vllm.c). */
  if (est_mla_replicated(m, t)) return b;
  bool kv_proj = strstr(t->name, "k_proj") || strstr(t->name, "v_proj");
  if (kv_proj && kvh && kvh < tp) return b / kvh;
  return est_tp_sharded(t->role) ? bytes_ceildiv(b, tp) : b;
}

/* ---------------------------------------------------------------- allocator slack */

/* What torch.cuda.memory_allocated() counts for one tensor of `size` bytes beyond its
** size (c10/cuda/CUDACachingAllocator.cpp): requests round up to 512 B; one of 10 MiB
** or more gets its own segment rounded up to 2 MiB (kRoundLarge), and the block is
** split only when more than 1 MiB (kSmallSize) would remain, so a tail of at most
** 1 MiB stays in the allocated block and in vLLM's "Model loading took" figure.
** Requests of 1-10 MiB are carved from 20 MiB segments (kLargeBuffer): not counted. */
static uint64_t alloc_slack(uint64_t size) {
  const uint64_t mib = 1024 * 1024;
  uint64_t r512 = align_up(size, 512);
  uint64_t tail = r512 >= 10 * mib ? align_up(r512, 2 * mib) - r512 : 0;
  return (r512 - size) + (tail <= mib ? tail : 0);
}

/* vLLM's parameter for an HF tensor name: q/k/v fuse into qkv_proj (QKVParallelLinear),
** gate/up (w1/w3) into gate_up_proj (MergedColumnParallelLinear, FusedMoE w13). */
static void fused_name(const char *name, char *out, size_t cap) {
  static const char *const from[] = {".q_proj.", ".k_proj.", ".v_proj.", ".gate_proj.", ".up_proj.", ".w1.", ".w3."};
  static const char *const to[] = {".qkv.", ".qkv.", ".qkv.", ".gate_up.", ".gate_up.", ".gate_up.", ".gate_up."};
  snprintf(out, cap, "%s", name);
  for (size_t i = 0; i < sizeof from / sizeof *from; i++) {
    char *at = strstr(out, from[i]);
    if (!at) continue;
    char tail[256];
    snprintf(tail, sizeof tail, "%s", at + strlen(from[i]));
    snprintf(at, cap - (size_t)(at - out), "%s%s", to[i], tail);
    return;
  }
}

#define V_MAX_ALLOCS 64

/* One parameter vLLM allocates, repeated `n` times (layers): bytes on a rank. */
typedef struct valloc {
  char key[256];
  uint64_t bytes, n;
  const inv_tensor *first;
} valloc;

/* Decoder layers of pipeline stage `stage`, as vLLM's get_pp_indices deals them out
** (vllm/distributed/utils.py: layers // pp each, then `for i in range(2, remaining + 2):
** partitions[-i] += 1`, so the remainder goes one apiece to the stages before the last, from
** the second-to-last backwards; VLLM_PP_LAYER_PARTITION overrides it, not modelled).
** DeepSeek-V2-Lite's 27 layers at pp 2: 14 + 13 (vLLM PR #20665's log: stage 0's 12.13 GiB
** and stage 1's 11.33 GiB hold 807,792 tokens at 14 x 1152 B and 13 x 1152 B a token);
** Qwen3-235B's 94 at pp 4: 23, 24, 24, 23. That split is PR #13839 ("Improve pipeline
** partitioning", merged 2025-02-25, first in 0.8.0); before it the last stage took the whole
** remainder (end_layer = num_hidden_layers on the last rank: 61 at pp 8 -> 7 x 7 + 12, as
** SGLang PR #6666 quotes the old rule). */
#define VLLM_PP_SPREAD 8000
static uint64_t stage_layers(const ectx *c, uint64_t stage) {
  uint64_t l = c->m->layers ? c->m->layers : 1, pp = c->s->pp ? c->s->pp : 1;
  uint64_t n = l / pp, rem = l % pp;
  if (scn_u64(c->s, "vllm.version", 19000) < VLLM_PP_SPREAD) return stage + 1 == pp ? n + rem : n;
  if (rem && stage + 1 < pp && stage + 1 + rem >= pp) n++;
  return n;
}

/* A bitsandbytes 4-bit Linear's packed weight, one tensor: BitsAndBytesLinearMethod.create_weights
** (vllm/model_executor/layers/quantization/bitsandbytes.py) allocates it at model init, uint8
** [in x out / 2, 1] per fused parameter, and the loader fills it in place (its quant states
** are separate small tensors), so it keeps the caching allocator's block tail. The int4 / int8
** weight-only checkpoints' packed weights (GPTQ, AWQ, compressed-tensors W4A16: in x out x
** bits / 8 B) keep one as well: Marlin's gptq_marlin_repack / awq_marlin_repack and Machete's
** machete_prepack_B write a new tensor of the same size, and the original's freed block is
** the next layer's (the same size, so the same unsplit tail). Phi-4 GPTQ on Marlin: gate_up's
** 87.5 MiB and down's 43.75 MiB keep 0.5 and 0.25 MiB, 40 x 0.75 = 30 MiB of the 8.5107 GiB
** printed. Scales and zero points (1-10 MiB, carved from 20 MiB segments) are not counted.
** 0 for any other tensor. */
static uint64_t packed_weight(const inv_tensor *t) {
  uint64_t numel = 0, g = 0;
  bool act = false;
  unsigned bits = gptq_qtype(t->qtype[0] == 'u' ? t->qtype + 1 : t->qtype, &g, &act);
  if (!bits && (strncmp(t->qtype, "awq-g", 5) == 0 || strncmp(t->qtype, "w4a16-g", 7) == 0)) bits = 4;
  if (!bits && strncmp(t->qtype, "w8a16-g", 7) == 0) bits = 8;
  if (!bits && (strncmp(t->qtype, "nf4", 3) == 0 || strncmp(t->qtype, "fp4", 3) == 0)) bits = 4;
  if (!bits || !inv_tensor_elements(t, &numel) || numel > UINT64_MAX / bits) return 0; /* Catch numel x bits overflow */
  return bytes_ceildiv(numel * bits, 8);
}

/* The parameters of the model (or of its drafter) as vLLM and SGLang allocate them, fused
** (q/k/v, gate/up; FusedMoE: all of a layer's experts in one w13 and one w2): bytes on a
** rank and how many (layers); unquantized, and the packed weights of bitsandbytes 4-bit (filled
** in place) and of the int4 / int8 weight-only formats (repacked to the same size), packed_weight. Returns the count in a (at most V_MAX_ALLOCS). */
static int fused_allocs(ectx *c, bool draft, valloc *a) {
  const model_desc *m = c->m;
  int n = 0;
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    uint64_t packed = packed_weight(t);
    if ((t->qtype[0] && !packed) || t->count == 0 || est_is_draft(t) != draft) continue;
    uint64_t per = packed ? bytes_ceildiv(packed, est_tp_sharded(t->role) ? c->s->tp : 1)
                          : rank_tensor_bytes(c, t) / t->count, cnt = t->count;
    uint64_t E = m->block.experts;
    if (t->role == ROLE_EXPERT && E && cnt % E == 0) per *= E, cnt /= E;
    char key[256];
    fused_name(t->name, key, sizeof key);
    int j = 0;
    while (j < n && strcmp(a[j].key, key) != 0) j++;
    if (j == n) {
      if (n == V_MAX_ALLOCS) continue;
      a[n] = (valloc){.bytes = 0, .n = cnt, .first = t};
      snprintf(a[n].key, sizeof a[n].key, "%s", key);
      n++;
    }
    a[j].bytes = acc_add(&c->acc, a[j].bytes, per);
  }
  return n;
}

/* Allocator slack of the unquantized parameters of stage `stage`, fused as vLLM holds
** them (FusedMoE: all of a layer's experts in one w13 and one w2). Of the quantized tensors
** only the packed weights of packed_weight are counted (other formats' tensors are not
** modelled here): bitsandbytes 4-bit weights, loaded in place (Qwen2.5-3B in-flight nf4, gate_up
** 21.5 MiB a layer leaves 0.5 MiB, 36 x 0.5 = 18 MiB of the 2.07 GiB printed on 0.18.0), and
** the int4 / int8 weight-only formats' repacked weights (Phi-4 GPTQ: 30 MiB).
** R1-Distill-Qwen-14B at tp 2: qkv 35 MiB, o_proj 25, gate_up 135 and down 67.5 MiB
** each leave a 1, 1, 1 and 0.5 MiB tail: 48 x 3.5 = 168 MiB, printed 164.1 MiB above the
** parameters and rotary cache (vllm-13061-r1-distill-qwen14b-2x4090; the rest reuse the
** rotary cache's fp32 temporaries). Qwen2-7B: tp 1 57 MiB, tp 2 21.5 MiB
** (vllm01011-qwen2-7b-*: 14.2488 and 7.1217 GiB with its 32768-position rotary cache). */
static uint64_t stage_slack(ectx *c, uint64_t stage, bool draft) {
  const model_desc *m = c->m;
  uint64_t pp = c->s->pp, share = stage_layers(c, stage), total = 0;
  valloc a[V_MAX_ALLOCS];
  int n = fused_allocs(c, draft, a);
  for (int j = 0; j < n; j++) {
    const inv_tensor *t = a[j].first;
    uint64_t k = a[j].n;
    if (strchr(t->name, '*') && pp > 1 && m->layers) {
      k = k / m->layers * share;
    } else if (!strchr(t->name, '*') && pp > 1) {
      bool first = t->role == ROLE_EMBED || t->role == ROLE_POS_EMBED;
      if (first != (stage == 0)) k = 0;
    }
    total = acc_add(&c->acc, total, acc_mul(&c->acc, alloc_slack(a[j].bytes), k));
  }
  return total;
}

/* What the caching allocator holds beyond the parameters' bytes once they are loaded, as the
** free memory (torch.cuda.mem_get_info) sees it after empty_cache(): SGLang's "Load weight
** end ... mem usage" is that drop (model_runner.py load_model: get_available_gpu_memory before
** and after, empty_cache=True). empty_cache() returns only wholly free segments, so every
** segment's unused part stays (c10/cuda/CUDACachingAllocator.cpp: requests round up to 512 B;
** one of 10 MiB or more gets its own segment rounded up to 2 MiB, kRoundLarge; one of more
** than 1 MiB (kSmallSize) and under 10 MiB (kMinLargeAlloc) is carved best-fit from 20 MiB
** segments, kLargeBuffer; smaller ones share 2 MiB segments, not counted). The medium ones
** are placed layer by layer (ceil(layers / pp) layers), the model's own once before them.
** Qwen3-14B at tp 4: qkv 17.5, o_proj 12.5, gate_up 85 and down 42.5 MiB leave 0.5, 1.5, 1
** and 1.5 MiB: 40 x 4.5 MiB + 2 x 1.06 MiB of vocabulary rows = 0.178 GiB, printed 7.08 GB
** against 6.90 GiB of parameters and rotary cache (hold-out round 5). */
/* one medium allocation of r bytes, best fit into the 20 MiB segments' free tails (freeb,
** nf of them); a tail too small for the smallest medium request (rmin) leaves the list */
static void slack_place(uint64_t r, uint64_t rmin, uint64_t *freeb, size_t *nf, size_t cap, uint64_t *segs) {
  const uint64_t seg = 20 * 1024 * 1024;
  size_t best = *nf;
  for (size_t f = 0; f < *nf; f++)
    if (freeb[f] >= r && (best == *nf || freeb[f] < freeb[best])) best = f;
  if (best == *nf) {
    (*segs)++;
    best = *nf < cap ? (*nf)++ : *nf - 1;
    freeb[best] = seg;
  }
  freeb[best] -= r;
  if (freeb[best] < rmin) freeb[best] = freeb[--*nf];
}

uint64_t est_reserved_slack(ectx *c) {
  const uint64_t mib = 1024 * 1024, seg = 20 * mib;
  const model_desc *m = c->m;
  bytes_acc *A = &c->acc;
  valloc a[V_MAX_ALLOCS];
  int n = fused_allocs(c, false, a);
  uint64_t pp = c->s->pp ? c->s->pp : 1, L = m->layers ? bytes_ceildiv(m->layers, pp) : 1;
  uint64_t total = 0, used = 0, segs = 0, rmin = UINT64_MAX, per_layer = 0;
  /* the best-fit walk covers at most MED_SIM of the layers' medium allocations; past that
  ** (a large or absurd model) the layers' tails scale with their instance count */
  enum { FREE_MAX = 1024, MED_SIM = 65536 };
  uint64_t freeb[FREE_MAX];
  size_t nf = 0;
  for (int j = 0; j < n; j++) {
    bool layered = strchr(a[j].first->name, '*') && m->layers && a[j].n >= m->layers;
    uint64_t r = align_up(a[j].bytes, 512), k = layered ? a[j].n / m->layers : a[j].n;
    if (r >= 10 * mib) /* its own segment, rounded up to 2 MiB */
      total = acc_add(A, total, acc_mul3(A, align_up(r, 2 * mib) - a[j].bytes, k, layered ? L : 1));
    else if (r > mib) {
      if (r < rmin) rmin = r;
      if (layered) per_layer = acc_add(A, per_layer, k);
    }
  }
  for (int j = 0; j < n; j++) { /* round 0: the model's own medium tensors */
    bool layered = strchr(a[j].first->name, '*') && m->layers && a[j].n >= m->layers;
    uint64_t r = align_up(a[j].bytes, 512);
    if (layered || r <= mib || r >= 10 * mib) continue;
    for (uint64_t q = 0; q < a[j].n && q < MED_SIM; q++, used = acc_add(A, used, r))
      slack_place(r, rmin, freeb, &nf, FREE_MAX, &segs);
  }
  uint64_t w0 = acc_mul(A, segs, seg) - used, sim = 0;
  for (uint64_t l = 1; l <= L && per_layer && sim < MED_SIM; l++)
    for (int j = 0; j < n; j++) {
      bool layered = strchr(a[j].first->name, '*') && m->layers && a[j].n >= m->layers;
      uint64_t r = align_up(a[j].bytes, 512);
      if (!layered || r <= mib || r >= 10 * mib) continue;
      for (uint64_t q = 0; q < a[j].n / m->layers && sim < MED_SIM; q++, sim++, used = acc_add(A, used, r))
        slack_place(r, rmin, freeb, &nf, FREE_MAX, &segs);
    }
  uint64_t held = acc_mul(A, segs, seg), med = held > used ? held - used : 0, all = acc_mul(A, per_layer, L);
  if (sim && all > sim && med > w0) /* the layers' walked tails, scaled to all their instances */
    med = acc_add(A, w0, acc_from_double(A, (double)(med - w0) * ((double)all / (double)sim)));
  return acc_add(A, total, med);
}

/* Weights of pipeline stage `stage`: its share of the layers, the embeddings on the
** first, the final norm and head on the last; plus the rotary cos/sin cache vLLM
** registers (max_position x rotary_dim, one per model: get_rope) in the model dtype, or
** in fp32 where the model class asks for it (vllm.rope_bytes: gpt_oss.py); plus the
** allocator's block tails (stage_slack).
** Llama-3.1-8B: 16,060,522,496 + 131072 x 128 x 2 B = 14.99 GiB as printed
** (llmd-v019-llama31-8b-tp1-8k). rotary_dim is the part of a head RoPE turns: the cache
** is torch.cat((cos, sin), -1) of max_position x rotary_dim/2 each (vllm/model_executor/
** layers/rotary_embedding/base.py _compute_cos_sin_cache, commit 072d10a0); get_rope sets
** rotary_dim = int(head_size x partial_rotary_factor) (GLM-4.5 0.5, Qwen3-Next 0.25), GPT-NeoX
** int(head_size x rotary_pct), DeepSeek MLA qk_rope_head_dim (deepseek_v2.py; its
** DeepseekScalingRotaryEmbedding spans original_max_position x factor = 4096 x 40 = 163840
** = max_position_embeddings, deepseek_scaling_rope.py commit 00d678e1). Rows: the description's
** rope_rows, every get_rope instance together: linear / dynamic-NTK scaling caches max_position x
** factor rows (linear_scaling_rope.py), and Gemma 3 keeps a second, local cache (scripts/nn.lua
** rope_rows, architectures/gemma.lua). Hold-out (llm-d-planner v0.19.0 logs, google-gemma-3-*-it
** --h100-80gb--tp1pp1dp1--8192.log): gemma-3-4b-it 8.58 GiB and 12b 23.31 printed, 0.5 GiB above the
** parameters plus one 131072-row cache: the global cache's 131072 x 8 x 256 x 2 B.
** Multimodal RoPE (rope_positions 4: Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Qwen3.5) builds
** MRotaryEmbedding, whose cache holds 4 x max_position rows ("We enlarge
** max_position_embeddings to 4 times to get a larger the cos and sin cache":
** rotary_embedding/mrope.py cache_max_position_num): Qwen3-VL-8B's 262144 x 4 x 128 x 2 B =
** 256 MiB (test_qwen3_vl_vllm). The enlargement came with Qwen2.5-VL support (vllm-project/vllm
** PR #12604, merged 2025-02-05, first in 0.7.2: rotary_embedding.py MRotaryEmbedding.__init__
** gained cache_max_position_num = max_position_embeddings * 4); before, MRotaryEmbedding passed
** max_position_embeddings unchanged (Qwen2-VL on 0.6.x / 0.7.0-0.7.1: one set of rows). */
/* MLA's absorbed decode weights: MLACommonImpl.process_weights_after_loading
** (vllm/v1/attention/backends/mla/common.py; MLAAttention in later layouts) takes kv_b_proj
** through get_and_maybe_dequant_weights and keeps W_UK_T / W_UV as views of the result. For an
** unquantized kv_b_proj that result is layer.weight itself (no new storage); for a quantized one
** it is a new act-dtype tensor, the layer run on an identity matrix ("we currently do not have
** quantized bmm's which are needed for W_UV and W_UK_T, we just store fp16/bf16 copies"), held
** beside the quantized weight the prefill path still uses. It is made inside load_model, so
** "Model loading took" counts it: per rank kv_lora_rank x heads / tp x (qk_nope + v_head) in the
** model dtype a layer, the rank's share of kv_b_proj in 16 bits (DeepSeek-R1 at tp 8: 61 x 512 x
** 16 x 256 x 2 B = 244 MiB). ROCm's AITER fp8 / fp4 bmm requantizations are not modelled. Held out:
** the 0.11.2 DeepSeek-R1-0528 tp 8 H200 run (tests/test_holdout25_vllm.c).
** Before 0.8.0 the decode path was different: 0.7.1-0.7.3's MLACommonImpl
** (vllm/attention/backends/mla/utils.py, read at 04644e3f) multiplied W_UK into q_proj and W_UV
** into o_proj under VLLM_MLA_PERFORM_MATRIX_ABSORPTION (on by default), keeping W_Q_UK
** (q_lora_rank x heads x kv_lora_rank) and W_UV_O (heads x kv_lora_rank x hidden), requantized to
** FP8 with new scales when the weights were FP8, plus W_QR in the act dtype. Without those
** matrices this figure means nothing there; the 0.7.x form is not modelled (no 0.7.x MLA log to
** check the requantized scales' layout against), and releases before 0.7.1 had no MLA backend. The
** W_UK_T / W_UV views came with the V0 backend's mla/common.py and the V1 MLA backend (PR #13789),
** both first in 0.8.0. */
#define VLLM_MLA_VIEWS 8000
static uint64_t mla_absorbed_bytes(ectx *c, uint64_t stage) {
  const model_desc *m = c->m;
  if (!est_model_mla(m) || scn_u64(c->s, "vllm.version", 19000) < VLLM_MLA_VIEWS) return 0;
  uint64_t sum = 0, share = stage_layers(c, stage);
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    if (!strstr(t->name, "kv_b_proj") || est_is_draft(t) || t->buffer || !t->qtype[0]) continue;
    uint64_t one = 0;
    if (!inv_tensor_elements(t, &one)) {
      c->acc.overflow = true;
      return 0;
    }
    uint64_t layers = t->count && strchr(t->name, '*') && m->layers ? share : t->count;
    uint64_t n = bytes_ceildiv(acc_mul(&c->acc, one, layers), c->s->tp ? c->s->tp : 1);
    sum = acc_add(&c->acc, sum, est_elems_bytes(c, n, c->s->dtype));
  }
  return sum;
}

static uint64_t stage_weights(ectx *c, uint64_t stage) {
  const model_desc *m = c->m;
  uint64_t pp = c->s->pp, total = stage_slack(c, stage, false);
  uint64_t share = stage_layers(c, stage);
  /* language-model-only mode (every limit_mm_per_prompt 0; scripts/runtimes/vllm.lua LANG_ONLY,
  ** vllm-project/vllm PR #22299): the model class builds no vision tower or projector */
  bool lm_only = scn_bool(c->s, "vllm.language_only", false);
  for (size_t i = 0; i < m->inv.n; i++) {
    const inv_tensor *t = &m->inv.t[i];
    if (est_is_draft(t) || (lm_only && est_vision_tensor(t))) continue;
    uint64_t b = rank_tensor_bytes(c, t);
    if (strchr(t->name, '*') && pp > 1 && m->layers) {
      b = acc_mul(&c->acc, b / m->layers, share);
    } else if (!strchr(t->name, '*') && pp > 1) {
      bool first = t->role == ROLE_EMBED || t->role == ROLE_POS_EMBED;
      if (first != (stage == 0)) b = 0;
    }
    total = acc_add(&c->acc, total, b);
  }
  uint64_t pos = est_rope_elems(c), rb = scn_u64(c->s, "vllm.rope_bytes", 0);
  if (m->rope_positions > 1 && scn_u64(c->s, "vllm.version", 19000) >= 7002) pos = acc_mul(&c->acc, pos, 4);
  uint64_t rope = rb ? acc_mul(&c->acc, pos, rb) : est_elems_bytes(c, pos, c->s->dtype);
  return acc_add(&c->acc, acc_add(&c->acc, total, rope), mla_absorbed_bytes(c, stage));
}

/* The drafter of speculative decoding (scripts/speculative.lua: the tensors vLLM allocates
** for it, tagged component "draft"), loaded by GPUModelRunner.load_model inside the same
** memory scope as the target, so "Model loading took" prints target + draft
** (vllm/v1/worker/gpu_model_runner.py load_model: self.drafter.load_model(self.model) under
** DeviceMemoryProfiler). Per rank with the target's tp (draft_tensor_parallel_size must equal
** it for EAGLE/MTP, vllm/config/speculative.py), plus its allocator block tails and its own
** rotary cache when its get_rope key differs from the target's. No calibration case exists. */
static uint64_t draft_weights(ectx *c) {
  const model_desc *m = c->m;
  uint64_t total = stage_slack(c, 0, true);
  for (size_t i = 0; i < m->inv.n; i++)
    if (est_is_draft(&m->inv.t[i])) total = acc_add(&c->acc, total, rank_tensor_bytes(c, &m->inv.t[i]));
  uint64_t rope = est_elems_bytes(c, scn_u64(c->s, "spec.rope_elems", 0), c->s->dtype);
  return acc_add(&c->acc, total, rope);
}

/* ---------------------------------------------------------------- LoRA slots */

/* Multi-LoRA serving (vllm serve --enable-lora). LoRAModelManager, built in
** GPUModelRunner.load_model (vllm/v1/worker/lora_model_runner_mixin.py load_lora_model, inside
** the "Model loading took" scope), wraps every supported module and allocates zeroed stacked
** buffers for max_loras adapter slots of max_lora_rank in lora_dtype (auto: the model dtype;
** vllm/config/lora.py verify_with_model_config), one torch.zeros per slice:
**   column-parallel (vllm/lora/layers/base_linear.py 01235a49, column_parallel_linear.py
**   0163de2b): lora_a (loras, 1, rank, in), rank / tp with fully_sharded_loras; lora_b
**   (loras, 1, out / tp, rank). q, k, v are three slices of qkv_proj
**   (MergedQKVParallelLinearWithLoRA; k/v of num_kv_heads per rank, one replicated head when
**   tp exceeds them), gate and up two of gate_up_proj (MergedColumnParallelLinearWithLoRA); a
**   checkpoint's fused qkv_proj / gate_up_proj (Phi-3) is one slice.
**   row-parallel (row_parallel_linear.py): lora_a (loras, 1, rank, in / tp); lora_b
**   (loras, 1, out, rank), out / tp with fully_sharded_loras.
**   embed_tokens (vocal_parallel_embedding.py 0726b06c), when the model class lists it in
**   embedding_modules (vllm.lua LORA_EMBED): lora_a (loras, vocab + extra, rank), lora_b
**   (loras, 1, hidden, rank), replicated on every rank; before 0.12 also embeddings_tensors
**   (loras, lora_extra_vocab_size 256, hidden) in the model dtype.
**   lm_head through LogitsProcessorWithLoRA (logits_processor.py 01815c62): lora_a (loras, 1,
**   rank, hidden), lora_b (loras, 1, vocab, rank) over the gathered vocabulary; before 0.12
**   vocab + 256 padded to 256 and embeddings_tensors (loras, 256, hidden); with tp > 1 the
**   int64 sharded-to-full index of the padded head (lm_head.get_sharded_to_full_mapping).
** Each buffer is its own allocation: alloc_slack applies. The Punica metadata
** (punica_wrapper/punica_base.py, punica_gpu.py a068d90c): token, sampler and padded-sampler
** indices (max_num_batched_tokens int64 each), embedding indices (2 x tokens int64), and two
** LoRAKernelMeta (two tokens-long and three (max_loras + 2)-long int32 tensors each).
** No calibration case in shared/calibration measures LoRA serving: this is vLLM's allocation
** arithmetic. MoE experts (FusedMoEWithLoRA), MLA and other projection layouts are refused. */
static uint64_t lora_buf(ectx *c, uint64_t a, uint64_t b, uint64_t d, uint64_t eb) {
  uint64_t n = acc_mul(&c->acc, acc_mul3(&c->acc, a, b, d), eb);
  return acc_add(&c->acc, n, alloc_slack(n));
}

/* The projection name of a weight ("model.layers.*.self_attn.q_proj.weight" -> "q_proj"). */
static bool proj_name(const char *name, char *out, size_t cap) {
  const char *end = strstr(name, ".weight");
  if (!end || end[7] != '\0') return false;
  const char *start = end;
  while (start > name && start[-1] != '.') start--;
  size_t n = (size_t)(end - start);
  if (n + 1 > cap) return false;
  memcpy(out, start, n);
  out[n] = '\0';
  return true;
}

static bool name_in(const char *p, const char *const *list) {
  for (; *list; list++)
    if (strcmp(p, *list) == 0) return true;
  return false;
}

static const char *const LORA_COL[] = {"q_proj", "k_proj", "v_proj", "qkv_proj", "gate_proj", "up_proj", "gate_up_proj", NULL};
static const char *const LORA_ROW[] = {"o_proj", "down_proj", NULL};

/* Bytes of one layer's LoRA slots for projection tensor t on a rank. */
static uint64_t lora_proj_bytes(ectx *c, const vcfg *v, const inv_tensor *t, const char *p) {
  const model_desc *m = c->m;
  const vlora *l = &v->lora;
  uint64_t tp = c->s->tp, out = t->shape[0], in = t->shape[1], r = l->rank;
  if (name_in(p, LORA_ROW)) {
    uint64_t ob = l->sharded ? out / tp : out;
    return acc_add(&c->acc, lora_buf(c, l->loras, r, bytes_ceildiv(in, tp), l->eb), lora_buf(c, l->loras, ob, r, l->eb));
  }
  uint64_t ob = bytes_ceildiv(out, tp);
  bool kv = strcmp(p, "k_proj") == 0 || strcmp(p, "v_proj") == 0;
  if (kv && m->kv_heads && m->kv_heads < tp) ob = out / m->kv_heads;
  if (strcmp(p, "qkv_proj") == 0 && m->head_dim)
    ob = acc_add(&c->acc, bytes_ceildiv(m->block.q_dim, tp), 2 * est_kv_heads_rank(m->kv_heads, tp) * m->head_dim);
  uint64_t ra = l->sharded ? r / tp : r;
  return acc_add(&c->acc, lora_buf(c, l->loras, ra, in, l->eb), lora_buf(c, l->loras, ob, r, l->eb));
}


/* embed_tokens (first stage) and lm_head (last stage) slots, plus before 0.12 the rows
** LlamaModel / LlamaForCausalLM add to the base embedding (256 x max_loras, padded to 64)
** and head (256, both parts padded to 256) when LoRA is on (models/llama.py <= 0.11). */
static uint64_t lora_vocab_bytes(ectx *c, const vcfg *v, bool first, bool last) {
  const model_desc *m = c->m;
  const vlora *l = &v->lora;
  uint64_t V = m->vocab, h = m->hidden, r = l->rank, L = l->loras, x = l->extra, tp = c->s->tp, b = 0;
  if (l->embed && first) {
    b = acc_add(&c->acc, b, lora_buf(c, L, V + x, r, l->eb));
    b = acc_add(&c->acc, b, lora_buf(c, L, h, r, l->eb));
    if (x) b = acc_add(&c->acc, b, lora_buf(c, L, x, h, v->a));
  }
  uint64_t head_rows = x ? align_up(V, 256) + align_up(x, 256) : align_up(V, 64);
  if (l->embed && last) {
    b = acc_add(&c->acc, b, lora_buf(c, L, r, h, l->eb));
    b = acc_add(&c->acc, b, lora_buf(c, L, x ? align_up(V + x, 256) : V, r, l->eb));
    if (x) b = acc_add(&c->acc, b, lora_buf(c, L, x, h, v->a));
    if (tp > 1) b = acc_add(&c->acc, b, lora_buf(c, head_rows, 1, 1, 8));
  }
  if (l->base_vocab && x) {
    uint64_t rows = first ? align_up(x * L, 64) : 0;
    if (last && !m->tied_embeddings) rows += head_rows - align_up(V, 64);
    b = acc_add(&c->acc, b, bytes_ceildiv(acc_mul3(&c->acc, rows, h, v->a), tp));
  }
  return b;
}

static uint64_t lora_meta_bytes(ectx *c, const vcfg *v) {
  uint64_t T = v->tokens, small = align_up((v->lora.loras + 2) * 4, 512);
  uint64_t base = acc_add(&c->acc, acc_mul(&c->acc, 3, align_up(T * 8, 512)), align_up(2 * T * 8, 512));
  uint64_t meta = acc_add(&c->acc, acc_mul(&c->acc, 2, align_up(T * 4, 512)), acc_mul(&c->acc, 3, small));
  return acc_add(&c->acc, base, acc_mul(&c->acc, 2, meta));
}

/* LoRA slots of pipeline stage `stage` on one rank (0 without --enable-lora). */
static uint64_t lora_weights(ectx *c, const vcfg *v, uint64_t stage) {
  const model_desc *m = c->m;
  if (!v->lora.on) return 0;
  uint64_t pp = c->s->pp, share = stage_layers(c, stage), total = 0;
  for (size_t i = 0; i < m->inv.n && !c->failed; i++) {
    const inv_tensor *t = &m->inv.t[i];
    if (est_is_draft(t)) continue;
    if (t->role == ROLE_EXPERT || t->role == ROLE_SHARED_EXPERT || t->role == ROLE_ROUTER) {
      est_fail(c, "vllm: LoRA on MoE layers (FusedMoEWithLoRA) is not modelled");
      return 0;
    }
    char p[64];
    if ((t->role != ROLE_ATTN && t->role != ROLE_MLP) || t->ndim != 2 || !proj_name(t->name, p, sizeof p)) continue;
    if (est_vision_tensor(t)) continue;
    if (!name_in(p, LORA_COL) && !name_in(p, LORA_ROW)) {
      est_fail(c, "vllm: LoRA is modelled for q/k/v/o and gate/up/down projections, not %s", t->name);
      return 0;
    }
    uint64_t n = t->count;
    if (strchr(t->name, '*') && pp > 1 && m->layers) n = n / m->layers * share;
    total = acc_add(&c->acc, total, acc_mul(&c->acc, lora_proj_bytes(c, v, t, p), n));
  }
  total = acc_add(&c->acc, total, lora_vocab_bytes(c, v, stage == 0, stage + 1 == pp));
  return acc_add(&c->acc, total, lora_meta_bytes(c, v));
}

/* The profile run's forward goes through the LoRA layers with the dummy adapters of
** maybe_dummy_run_with_lora (created on the CPU at rank 8 and copied into the slots: no new
** GPU memory). Each wrapped linear allocates an fp32 (slices, tokens, max_lora_rank) buffer
** for the shrink output (punica_gpu.py add_lora_linear); the fully sharded column layers
** shrink to rank / tp and all-gather it (column_parallel_linear.py _mcp_apply). The largest
** (qkv_proj: three slices) is live beside the layer's other temporaries. */
static uint64_t lora_act_bytes(ectx *c, const vcfg *v) {
  if (!v->lora.on) return 0;
  uint64_t slices = 1;
  for (size_t i = 0; i < c->m->inv.n; i++) {
    char p[64];
    const inv_tensor *t = &c->m->inv.t[i];
    if (est_is_draft(t) || !proj_name(t->name, p, sizeof p)) continue;
    if (strcmp(p, "q_proj") == 0) slices = 3;
    if (strcmp(p, "gate_proj") == 0 && slices < 2) slices = 2;
  }
  uint64_t tp = c->s->tp, b = acc_mul(&c->acc, acc_mul3(&c->acc, slices, v->fwd_tokens, v->lora.rank), 4);
  if (v->lora.sharded && tp > 1) b = acc_add(&c->acc, b, b / tp);
  return b;
}

/* ---------------------------------------------------------------- profile run */

/* Bytes per logit element the sampler's dummy run holds beyond the logits in the
** model dtype: fp32 logits, probabilities and the exponential draw (13.4 B), and with
** PyTorch's sorting top-k/top-p also the sorted values, int64 indices and the
** scattered copy (36.9 B). Fitted: 1024 seqs x 128256 x (2 + 13.4) = 1.89 GiB
** (llmd-v019-llama31-8b-tp1-8k), 1024 x 151936 x (2 + 36.9) = 5.64 GiB
** (llmd-sweep-qwen3-14b-v015); 256 x 152064 x 38.9 = 1.41 GiB on the V0 driver
** (vllm-13061-r1-distill-qwen14b-2x4090: its KV has 1.23 GiB less than the worker's).
** V0 and 0.11.1-0.16 sort (FlashInfer sampler off by default: vLLM PR #26859, opened 2025-10-15
** after 0.11.0's release: first in 0.11.1, VLLM_FI_SAMPLER_OFF); 0.8-0.11.0 used FlashInfer's
** kernel when installed (flashinfer-ai/flashinfer#1180; topk_topp_sampler.py: `envs.
** VLLM_USE_FLASHINFER_SAMPLER is not False`, unset meaning on), as vLLM's images have it (PR #6172,
** FlashInfer in the Dockerfile since 0.5.1); the pip wheels had no flashinfer-python up to 0.10.0
** and from 0.10.1 to 0.11.0 only with the extra vllm[flashinfer] (PR #21959, 2025-07-30; PR #26443
** of 2025-10-08, first in 0.11.1, made it a default dependency), so a pip or conda install of those
** releases sorts (runtime.install = "pip", scripts/runtimes/vllm.lua): vllm#27508 (0.11.0 from
** conda), LMCache's FAQ table.
** 0.17 and later no longer sort the whole vocabulary (llmd-sweep-qwen3-14b-v017).
** runtime.flashinfer_sampler says which in 0.8-0.16: vllm01011-qwen2-7b-2xa100-40g-tp2-ray
** ran 0.10.1.1 without FlashInfer ("Falling back to the PyTorch-native implementation of
** top-p & top-k sampling"): sorting, its KV 11.03 GiB fits; with FlashInfer 11.78. */
/* Hold-out round 25b (ashishkamra/vllm-memory-estimator validation_db.json @8b0e21d1, Red Hat's
** H200 dashboard, util 0.92, 8192 tokens): the upstream v0.11.0 starts hold less profile than the
** same starts on later releases by 1024 x vocabulary x (36.9 - 13.4) B, the sorting sampler's extra
** (Llama-3.3-70B-FP8-dynamic tp 4: 109.09 GiB of KV against 106.15 on 0.11.2, 2.94 against 2.87;
** Qwen3-235B-A22B-FP8-dynamic tp 4: 69.62 against 66.13, 3.49 against 3.40; DeepSeek-R1-0528 tp 8:
** 46.23 against 43.11 on 0.13.0). Red Hat's own 0.11.0 builds (+rhai2, +rhai5) print the 0.11.2 pool
** (105.87 GiB): PR #26859 backported, or no FlashInfer, in those images. */
static double sampler_extra(const vcfg *v) {
  bool sorts = v->v0 || (v->version < 17000 && !v->fi_sampler);
  return sorts ? 36.9 : 13.4;
}

/* With speculative decoding the dummy sampler run also runs the rejection sampler
** (gpu_model_runner.py _dummy_sampler_run), which gathers the bonus logits into a new
** tensor (logits[bonus_logits_indices]: "creates a new tensor with separate storage") and
** runs the full sampler on it (vllm/v1/sample/rejection_sampler.py forward, code index
** 929030): one more seqs x vocab copy in the model dtype beside the sampler's buffers. The
** 0.8-0.10 rejection sampler took sampled bonus ids instead (no copy): from 0.11 here,
** version approximate; no calibration case. */
static uint64_t sampler_bytes(ectx *c, const vcfg *v) {
  double per = (double)v->a + sampler_extra(v);
  if (v->spec[0] && v->version >= 11000) per += (double)v->a;
  return acc_from_double(&c->acc, (double)v->smp_seqs * (double)c->m->vocab * per);
}

/* The fused-MoE workspaces for max_num_batched_tokens tokens (estimate.c
** est_forward_moe_bytes: fused_moe intermediate_cache1..3 in chunks of
** VLLM_FUSED_MOE_CHUNK_SIZE = 32768 tokens, router logits in fp32).
**
** From 0.18 the modular kernel no longer chunks (vLLM PR #34086 "Remove Chunking From FusedMoE",
** merged 2026-02-08; issue #30620): the whole batch's workspaces are allocated at once. FP8
** experts (block or per-tensor, checkpoint or --quantization fp8) then run TritonExperts or
** DeepGemmExperts, whose workspace_shapes (vllm fused_moe TritonExperts.workspace_shapes) are two
** buffers of M x top_k rows, max(I, K) and max(2 I, K) wide (I one routed expert's width on the
** rank, K the hidden size): cache1 (2 I) and cache3 (K) share the second, cache2 (I) takes the
** first; the output aliases a workspace. Where K > 2 I both are K wide, twice the one K-wide row
** a routed copy held before. Source of the release: the Qwen3-235B-A22B-Instruct-2507-FP8 notes of
** test_holdout19_vllm.c (vLLM 0.20.0, TRITON Fp8 MoE backend): 65,536 batched tokens hold 8.70
** GiB more than 8,192 (163 KB a token; this layout gives 165 KB with the dense layer's part, the
** chunked legacy one 118 KB capped at 32,768 tokens). Other expert formats keep the legacy
** layout, unchunked from 0.18. */
#define VLLM_MOE_UNCHUNKED 18000 /* PR #34086: first in 0.18 (the notes: "removed ... in 0.18") */
static bool moe_fp8_experts(const model_desc *m) {
  for (size_t i = 0; i < m->inv.n; i++)
    if (m->inv.t[i].role == ROLE_EXPERT && strncmp(m->inv.t[i].qtype, "fp8", 3) == 0) return true;
  return false;
}

/* FP8 experts on CUTLASS's grouped GEMM, 0.11 to 0.16: compressed-tensors W8A8-FP8 MoE with
** per-channel weights (CompressedTensorsW8A8Fp8MoEMethod.use_cutlass = not block_quant and
** _is_fp8_w8a8_sm90 (capability 9.0 exactly) or _is_fp8_w8a8_sm100 (10.0 exactly); apply() calls
** cutlass_moe_fp8,
** vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors_moe.py, code index
** copy 12152913640) run FusedMoEModularKernel(MoEPrepareAndFinalizeNoEP(), CutlassExpertsFp8).
** CutlassExpertsFp8.workspace_shapes (fused_moe/cutlass_moe.py, code index copy 40010832):
** workspace13 (M x topk, max(N, K)) and workspace2 (M x topk, max(N / 2, K)) in the activation
** dtype, N = 2 I (w13's rows), K the hidden size, M at most VLLM_FUSED_MOE_CHUNK_SIZE tokens
** (CutlassExpertsFp8.supports_chunking). The modular kernel takes both from class-level
** SharedResizableBuffers (fused_moe/modular_kernel.py FusedMoEModularKernel.shared_buffers,
** "Persistent buffers that are shared across FusedMoEModularKernel instances (layers)", the
** dual-batch-overlap copy of 0.11, code index 5559048760): they stay allocated after the profile
** forward, through the sampler's dummy run (activation_peak). Only the channel scheme is taken:
** a per-tensor FP8 scheme may be compressed-tensors (CUTLASS too) or Fp8Config (Fp8MoEMethod, the
** legacy fused_experts_impl with local caches); vramfit's quant spec does not say which. Block FP8
** (Fp8MoEMethod) runs DeepGEMM's modular kernel only where _valid_deep_gemm holds (w2's N = I on
** the rank > 512, fused_moe/deep_gemm_moe.py): DeepSeek-R1 at tp 8 (I = 256) falls to the legacy
** fused_experts_impl, whose caches are freed; not modelled for the other block-FP8 shapes (no log).
** Hold-out round 25b (validation_db.json @8b0e21d1, H200): RedHatAI/Qwen3-235B-A22B-FP8-dynamic tp 4
** keeps 2 x 65,536 x 4096 x 2 B = 1.00 GiB: KV 0.11.2 66.13 GiB printed, +1.6 % -> +0.1 %; 0.11.0
** 69.62, +1.4 % -> -0.05 % (with the FlashInfer sampler of 0.11.0, VLLM_FI_SAMPLER_OFF). */
#define VLLM_MOE_SHARED_WS 11000 /* the shared buffers: first placed in 0.11.0 (the DBO-era copy) */
static bool moe_cutlass_fp8(ectx *c, const vcfg *v) {
  const char *cc = c->s->gpu_compute, *arch = c->s->gpu_arch;
  bool sm90 = cc[0] ? strcmp(cc, "9.0") == 0 : strcmp(arch, "hopper") == 0;
  /* _check_scheme_supported(100, match_exact=True): 10.0 only, not a B300's 10.3 */
  bool sm100 = strcmp(arch, "blackwell") == 0 && (!cc[0] || strcmp(cc, "10.0") == 0);
  if (v->v0 || v->version < VLLM_MOE_SHARED_WS || v->version >= 17000 || !(sm90 || sm100)) return false;
  /* the target's experts decide: a speculative drafter's (tagged "draft") is not the target's MoE */
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *t = &c->m->inv.t[i];
    if (t->role == ROLE_EXPERT && !est_is_draft(t)) return strcmp(t->qtype, "fp8-channel") == 0;
  }
  return false;
}

/* The modular kernel's two workspaces over t tokens: M x topk rows of max(I, K) and max(2 I, K). */
static uint64_t moe_modular_ws(ectx *c, uint64_t t) {
  const block_spec *b = &c->m->block;
  uint64_t k = b->experts_per_tok ? b->experts_per_tok : 1, h = c->m->hidden;
  uint64_t i = bytes_ceildiv(b->expert_ffn ? b->expert_ffn : b->ffn_dim / k, c->s->tp);
  uint64_t w1 = i > h ? i : h, w2 = 2 * i > h ? 2 * i : h; /* max(I, K), max(2 I, K) */
  return acc_mul(&c->acc, t, acc_mul(&c->acc, k, w1 + w2));
}

static uint64_t moe_bytes(ectx *c, const vcfg *v) {
  const block_spec *b = &c->m->block;
  if (b->experts && moe_cutlass_fp8(c, v)) { /* chunked at 32,768 tokens before 0.18 */
    uint64_t t = v->fwd_tokens < EST_FUSED_MOE_CHUNK ? v->fwd_tokens : EST_FUSED_MOE_CHUNK;
    return acc_add(&c->acc, acc_mul(&c->acc, moe_modular_ws(c, t), v->a),
                   acc_mul3(&c->acc, v->fwd_tokens, b->experts, 4));
  }
  if (v->v0 || v->version < VLLM_MOE_UNCHUNKED || !b->experts)
    return est_forward_moe_bytes(c, v->fwd_tokens, v->a);
  uint64_t t = v->fwd_tokens, router = acc_mul3(&c->acc, t, b->experts, 4);
  if (!moe_fp8_experts(c->m)) { /* the legacy layout over every token */
    uint64_t ffn = bytes_ceildiv(b->ffn_dim, c->s->tp);
    uint64_t per = acc_add(&c->acc, 3 * ffn, b->experts_per_tok * c->m->hidden);
    return acc_add(&c->acc, acc_mul3(&c->acc, t, per, v->a), router);
  }
  return acc_add(&c->acc, acc_mul(&c->acc, moe_modular_ws(c, t), v->a), router);
}

/* AWQ on vLLM's plain AWQLinearMethod (vllm/model_executor/layers/quantization/awq.py) rather
** than awq_marlin: when the launch names --quantization awq ("Detected that the model can run with
** awq_marlin, however you specified quantization=awq explicitly, so forcing awq"), or on a GPU
** below compute capability 8.0 (AWQMarlinConfig.get_min_capability 80). Not from 0.26: 0.26.0
** logs print quantization=auto_awq with awq forced (round-18 follow-up, docs/CALIBRATION.md); the
** release between 0.22.1 (hold-out round 21: "forcing awq") and 0.26.0 is not placed. */
#define VLLM_AUTO_AWQ 26000
static bool awq_plain(ectx *c, const vcfg *v) {
  if (v->version >= VLLM_AUTO_AWQ) return false;
  const char *cc = c->s->gpu_compute;
  return strcmp(scn_str(c->s, "runtime.quantization", ""), "awq") == 0 || (cc[0] && strtod(cc, NULL) < 8.0);
}

/* The largest fp16 weight plain AWQ dequantizes at once: AWQLinearMethod.apply runs
** ops.awq_dequantize(qweight, scales, qzeros) -> an [in, out] tensor in the scales' dtype, then
** torch.matmul, when the batch has 256 tokens or more (FP16_MATMUL_HEURISTIC_CONDITION); below,
** awq_gemm works from the packed weight. A rank's fused Linear (qkv, gate_up, ...) holds 4-bit
** packed words, so its dequantized copy is 4 x the packed bytes. MoE experts take AWQMoEMethod
** (fused Marlin MoE), no dequantization. */
static uint64_t awq_dequant_bytes(ectx *c) {
  valloc a[V_MAX_ALLOCS];
  int n = fused_allocs(c, false, a);
  uint64_t best = 0;
  for (int i = 0; i < n; i++) {
    if (strncmp(a[i].first->qtype, "awq-g", 5) != 0 || a[i].first->role == ROLE_EXPERT) continue;
    uint64_t d = acc_mul(&c->acc, a[i].bytes, 4);
    if (d > best) best = d;
  }
  return best;
}

/* Largest transient of one layer's forward over max_num_batched_tokens tokens
** (estimate.c est_forward_dense_bytes). 8192 tokens of Llama-3.1-8B: 1.0 GiB vs 1.10
** printed by the first stage of llmd-v019-llama31-8b-pp2-8k (no sampler there). With plain
** AWQ at 256 tokens or more the largest Linear's dequantized weight is live beside its input
** and output: at gate_up, T x (3 x hidden + 2 x ffn on a rank) elements and the weight
** (awq_dequant_bytes). Hold-out round 21 (Qwen2.5-7B-Instruct-AWQ, --quantization awq, 0.22.1,
** RTX 3090): 3,584 x 37,888 x 2 B = 0.253 GiB of weight, the forward 0.258 -> 0.438 GiB. */
static uint64_t forward_bytes(ectx *c, const vcfg *v) {
  uint64_t f = est_forward_dense_bytes(c, v->fwd_tokens, v->a);
  const block_spec *b = &c->m->block;
  if (v->fwd_tokens < 256 || b->experts || !b->gated || !awq_plain(c, v)) return f;
  uint64_t ffn = bytes_ceildiv(b->ffn_dim, c->s->tp ? c->s->tp : 1);
  uint64_t at = acc_mul3(&c->acc, v->fwd_tokens, acc_add(&c->acc, 3 * c->m->hidden, 2 * ffn), v->a);
  at = acc_add(&c->acc, at, awq_dequant_bytes(c));
  return at > f ? at : f;
}

/* The V0 encoder-decoder profile run (EncoderDecoderModelRunner.profile_run) gives each
** of max_num_seqs dummy sequences one largest image: the vision tower (mllama.py
** MllamaVisionModel at vLLM 0.6.x) sees B images of S padded tokens at once and keeps the
** aspect-ratio mask [B, 1, S, S] in the model dtype for all its layers; it peaks either
** while building that mask (two S x S products) or in the last local layer's MLP, beside
** the kept intermediate states, the residual and its norm, fc1's output and the GELU's.
** vllm-pr12126-llama32-11b-vision-eager: B 128, S 6432: mask 9.86 GiB + (5 + 2) x 1.96 +
** 2 x 7.85 = 39.3 GiB vs 36.63 printed (+7%); vLLM issue 10569 shows the batch of images
** (pixel_values [256, 1, 1, 4, 3, 560, 560] at max_num_seqs 256). A strict liveness count
** of mllama.py (V0, Jan 2025) gives more, not less: last local layer = mask + 16 hidden
** (5 kept, the layer input, residual, norm, fc1, GELU) + two fp32 pixel copies = 44.9 GiB;
** the printed 36.63 = mask + 13.64 hidden is not explained, so the fit stays as it is.
** Re-read (vllm_miss round): every term is linear in the images, so the printed figure is
** 307,274,711 B an image; the floor the source holds at the last local layer's MLP is
** 376,301,568 B an image (mask 6432^2 x 2 = 82,741,248; the batched pixel kwargs and
** _parse_and_validate_image_input's out_images, both fp32 4 x 3 x 560^2 x 4 = 2 x 15,052,800;
** fc1 and GELU 2 x 65,863,680; 8 hidden of 16,465,920), 22 % above the print, and the global
** layers hold the local tuple and its torch.stack besides (more still). The decoder's
** cross-attention layers (qkv_proj over 128 x 6404 encoder tokens, k_norm's fp32 copies) stay
** below it (about 214 MB an image). The vision tower's code is the same in every copy read
** (vllm-project/vllm mllama.py 005ad95 of late 2024, a Dec 2024 copy and a mid-2025 one with
** MllamaMultiModalProcessor), so the Jan 2025 build ran it too. The print sits 1.0 % under the
** last local layer's attention phase (mask + 5 kept + input + norm + qkv 3 + SDPA output +
** o_proj output = 12 hidden, + the pixels: 39,736,049,664 B) and 18 % under its MLP phase, which
** the source cannot make smaller than the attention's (fc1 and GELU are out of place): which
** of the tensors counted here the run did not hold is not found, so nothing is refitted.
** EncoderDecoderModelRunner.profile_run does run
** max_num_seqs sequences with one image each (no clamp by multimodal tokens, unlike the
** decoder-only runner), and the KV page counts all 40 decoder layers (14.65 GiB / 6001 blocks
** = 2,621,440 B = 40 x 16 x 8 x 128 x 2 x 2 B): the case's KV miss is its activation's. */
static uint64_t vision_bytes(ectx *c, const vcfg *v) {
  const scenario *s = c->s;
  uint64_t h = scn_u64(s, "vision.hidden", 0), S = scn_u64(s, "vision.tokens_per_image", 0);
  if (!h || !S || !v->v0) return 0;
  uint64_t tok = acc_mul3(&c->acc, v->seqs, S, v->a);
  uint64_t hid = acc_mul(&c->acc, tok, h), mask = acc_mul(&c->acc, tok, S);
  uint64_t ffn = acc_mul(&c->acc, tok, bytes_ceildiv(scn_u64(s, "vision.intermediate", 0), s->tp));
  uint64_t build = acc_add(&c->acc, acc_mul(&c->acc, 2, mask), acc_mul(&c->acc, 2, hid));
  uint64_t kept = scn_u64(s, "vision.kept_states", 0) + 2;
  uint64_t mlp = acc_add(&c->acc, acc_add(&c->acc, mask, acc_mul(&c->acc, kept, hid)), acc_mul(&c->acc, 2, ffn));
  return build > mlp ? build : mlp;
}

/* ---------------------------------------------------------------- multimodal profiling */

/* One modality of a decoder-only vision-language model as vllm.lua reads it (mm.*): LLM
** tokens per image at the size with the most features, the encoder's patches and the
** fp32 pixel_values bytes of one such image. Qwen2.5-VL also takes videos whose frames
** (grouped by temporal patch) are images of that size. */
typedef struct mmc {
  uint64_t tokens, patches, pixels, hidden, inter, tps, images, videos, copies;
  bool gated, gather, interp, rope32;
} mmc;

static uint64_t u64max(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t u64min(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Tokens of one dummy video for a prompt of seq_len tokens (vllm/model_executor/models/
** qwen2_vl.py get_num_frames_with_most_features): the frames that fit in what the images
** leave (one token group per temporal_patch_size frames), split over the videos, at
** least 1 and rounded up to even; then cdiv(frames, tps) groups of an image's tokens.
** 16384-token images, seq_len 16384, one of each: 1 frame -> 2 -> 16384 tokens (vLLM
** issue 15802: "{'image': 16384, 'video': 16384}"). */
static uint64_t mm_video_tokens(const mmc *m, uint64_t seq_len) {
  if (!m->videos || !m->tps) return 0;
  uint64_t img = m->images * m->tokens, rest = seq_len > img ? seq_len - img : 0;
  uint64_t frames = rest / m->tokens * m->tps / m->videos;
  if (frames < 1) frames = 1;
  if (frames > 1 && frames % 2) frames++;
  return bytes_ceildiv(frames, m->tps) * m->tokens;
}

/* The V1 per-item maximum of a video from 0.10.2 on (vLLM PR #24312, merged 2025-09-05: "In V1,
** we no longer require this assumption because of chunked prefill and therefore there's no need
** to consider image tokens to calculate the max number of frames of videos"): the frames that fit
** in max_model_len by themselves, one video (vllm/multimodal/encoder_budget.py MultiModalBudget:
** mm_counts = dict.fromkeys(active_modalities, 1)), at most _MAX_FRAMES_PER_VIDEO = 14 frames
** (qwen2_vl.py; "for Qwen2 and 2.5VL this number will be 14", PR #25557), an odd count padded to
** even. Hold-out: Qwen2.5-VL-7B, max_model_len 128000, vLLM 0.23.0
** (a public docker-log README): "Encoder cache will be initialized with a budget of 114688 tokens,
** and profiled with 1 video items" = 7 groups of 16384; the pre-0.10.2 rule gives the image. */
#define VLLM_V1_VIDEO_FRAMES 10002 /* PR #24312 (2025-09-05), first released in 0.10.2 */
static uint64_t mm_video_tokens_v1(const mmc *m, uint64_t seq_len) {
  if (!m->videos || !m->tps) return 0;
  uint64_t groups = seq_len / m->tokens, cap = 14 / m->tps;
  if (groups > cap) groups = cap;
  if (groups < 1) groups = 1;
  return groups * m->tokens;
}

/* Qwen3-VL / Qwen3.5 (vllm/model_executor/models/qwen3_vl.py Qwen3_VisionTransformer.forward):
** before the blocks, fast_pos_embed_interpolate builds each image's position embeddings one
** image at a time beside the N images' patch embeddings (P patches each, in hidden-wide rows
** of the model dtype): the four gathered table rows per patch (4P, weighted in place), their
** sum (P) and its permuted copy (P), kept in a list; the next image's rows are allocated
** before the previous ones are released (4P + 4P); torch.cat copies the list (NP) while the
** last image's rows are still referenced. Peak: 7P for one image, else max(3N + 4, 2N + 7) P.
** Under tensor parallelism it can exceed the blocks' (2h + 2 I / tp + 2h per patch). */
static uint64_t mm_interp_bytes(ectx *c, const vcfg *v, const mmc *m, uint64_t tok) {
  uint64_t n = u64max(1, tok / m->tokens), rows;
  if (n == 1)
    rows = 7;
  else
    rows = u64max(3 * n + 4, 2 * n + 7);
  return acc_mul3(&c->acc, acc_mul(&c->acc, rows, m->patches), m->hidden, v->a);
}

/* Peak of the vision encoder over `tok` LLM tokens' worth of items on one rank, beyond
** the fp32 pixel_values it was handed (`copies` of them) and their cast to the model
** dtype. Per patch, in the model dtype: the block's input and its norm, then either the
** attention's qkv (3 h / tp; Qwen2.5-VL's split_qkv all-gathers it into the full 3 h and
** an interleaved copy under tp) or the MLP's fc1 / gate_up + activation ((2 or 3) I / tp)
** beside the row-parallel output and its out-of-place all-reduce (vllm/distributed
** device_communicators: pynccl and custom all-reduce return a new tensor). Attention is
** flash / memory-efficient in every vLLM ViT path: no patch x patch matrix. */
static uint64_t mm_encoder_bytes(ectx *c, const vcfg *v, const mmc *m, uint64_t tok) {
  uint64_t tp = c->s->tp, h = m->hidden;
  /* multiplied before dividing: an item may have fewer encoder patches than LLM tokens
  ** (LLaVA-NeXT: 5 x 577 patches, 2928 tokens with the row newlines) or a ratio that is no
  ** integer (Pixtral: 12100 patches, 3080 tokens) */
  uint64_t patches = acc_mul(&c->acc, tok, m->patches) / m->tokens;
  uint64_t pixels = acc_mul(&c->acc, tok, m->pixels) / m->tokens;
  uint64_t attn = 2 * h + 3 * bytes_ceildiv(h, tp) + (m->gather && tp > 1 ? 6 * h : 0);
  uint64_t mlp = 2 * h + (m->gated ? 3 : 2) * bytes_ceildiv(m->inter, tp) + (tp > 1 ? 2 * h : h);
  uint64_t act = acc_mul3(&c->acc, patches, u64max(attn, mlp), v->a);
  if (m->interp) act = u64max(act, mm_interp_bytes(c, v, m, tok));
  /* the batched 3-D pixel tensor is copied once more in V0 only (vllm.lua qwen25_mm); V1 hands
  ** the flat [patches, C] tensor over as it is (MultiModalFlatField, _validate_and_reshape_mm_tensor
  ** returns a 2-D input unchanged) */
  uint64_t copies = v->v0 ? m->copies : 1;
  uint64_t in = acc_add(&c->acc, acc_mul(&c->acc, pixels, copies), pixels / 4 * v->a);
  if (!m->rope32) return acc_add(&c->acc, in, act);
  /* Qwen2.5-VL in vLLM 0.11 (qwen2_5_vl.py Qwen2_5_VisionAttention.forward and
  ** qwen2_vl.py / rotary_embedding/common.py apply_rotary_pos_emb_vision, read in the 0.11-era
  ** copy vllm-project/vllm@002d181a and in a downstream OpenCUA-VL port of the same file that
  ** imports 0.11's attention/backends/registry _Backend): the rotary step of every block holds,
  ** per patch, the block input and its norm (2 h, the norm still an argument of the attention
  ** call), the qkv output (3 h / tp, kept by `x` after split_qkv), q, k and v re-laid out
  ** "s b ... -> b s ..." with .contiguous() (3 h / tp: a chunk of qkv is not contiguous),
  ** torch.cat([q, k]) (2 h / tp), its fp32 copy t.float() (2 h / tp x 4 B), the rotary's
  ** out-of-place fp32 output (vllm_flash_attn layers/rotary apply_rotary: empty_like, 2 h / tp
  ** x 4 B) and its cast back .type_as(t) (2 h / tp). 20 h a patch at tp 1 (25,600 elements of
  ** Qwen2.5-VL's 1280-wide tower against the gated MLP phase's 14,100). The blocks run after
  ** Qwen2_5_VisionTransformer.forward has rebound hidden_states to patch_embed's output, so the
  ** pixels' model-dtype cast is no longer held: the handed fp32 pixels alone stay beside it.
  ** Hold-out round 25d (ray-project/ray llm-batch-inference-vision, Qwen2.5-VL-3B on an L4,
  ** 0.11.0): profile 2.57 -> 3.54 GiB against the 3.41 the log implies; KV +9.1 % -> -1.4 %. */
  uint64_t hp = bytes_ceildiv(h, tp ? tp : 1);
  uint64_t rope = acc_add(&c->acc, acc_mul(&c->acc, 2 * h + 10 * hp, v->a), 16 * hp);
  rope = acc_mul(&c->acc, patches, rope);
  return acc_add(&c->acc, acc_mul(&c->acc, pixels, copies), u64max(act, rope));
}

/* V1 (vllm/v1/worker/gpu_model_runner.py profile_run): the modality with the most tokens
** per item (the image on a tie) is encoded in one batch of as many items as the encoder
** budget max(max_num_batched_tokens, tokens per item) holds (v1/core/encoder_cache_manager.py
** compute_encoder_budget: 0.8-0.9 cdiv, later floor, at most max_num_seqs x items per
** prompt); the dummy inputs and the encoder outputs stay referenced while the decoder and
** the sampler run (they are dropped after the profile). */
static void mm_profile_v1(ectx *c, vcfg *v, const mmc *m) {
  uint64_t vid = !m->videos                          ? 0
                 : v->version >= VLLM_V1_VIDEO_FRAMES ? mm_video_tokens_v1(m, v->mml)
                                                      : mm_video_tokens(m, v->mml);
  bool video = vid > (m->images ? m->tokens : 0);
  uint64_t T = video ? vid : m->tokens, limit = video ? m->videos : m->images;
  uint64_t bud = u64max(v->tokens, T), items;
  if (v->version < 10000) {
    items = u64min(bytes_ceildiv(bud, T), acc_mul(&c->acc, v->seqs, limit));
  } else {
    uint64_t per_prompt = u64max(1, u64min(limit, v->mml / T));
    items = u64max(1, u64min(bud / T, acc_mul(&c->acc, v->seqs, per_prompt)));
  }
  uint64_t tok = acc_mul(&c->acc, items, T);
  v->mm.tokens = T;
  v->mm.items = items;
  v->mm.enc_peak = mm_encoder_bytes(c, v, m, tok);
  v->mm.out = acc_mul3(&c->acc, tok, c->m->hidden, v->a);
  v->mm.kept = acc_add(&c->acc, acc_mul(&c->acc, tok, m->pixels) / m->tokens, v->mm.out);
}

/* V0 (vllm/worker/model_runner.py profile_run): max_num_seqs drops to max_num_batched_tokens
** // the multimodal tokens of a full prompt (at max_model_len), at least 1 ("Computed
** max_num_seqs ... to be less than 1"); each dummy sequence of seq_len = batched tokens //
** seqs carries a full prompt's items and is not cut when they are longer (vllm/multimodal/
** profiling.py get_decoder_dummy_data only warns), so the decoder runs max(seq_len,
** multimodal tokens) per sequence and samples one token of each. The model encodes the
** items inside its forward: the pixel tensors (the batched one and the model's reshaped
** copy) stay referenced through it, the embeddings are merged into the input embeddings. */
/* vllm-16570-qwen25-vl-72b-4xa100-40g (0.8.3 V0, tp 4, 5120 batched tokens, one 16384-token
** image): the encoder peak here is 2,238,709,760 B (2 x 308,281,344 fp32 pixels, their bf16
** cast, 65536 patches x 11200 elements x 2 B at the gathered qkv) and the decoder phase about
** 2.0 GiB; printed 2.51 (-17 %). The ranks' KV (0.04 / 0.09 / 0.13 GiB with one weight and
** activation figure) differ by their non-torch memory alone (0.43 / 0.38 / 0.34), 13 x the
** check's 5 % + 5 MiB of 0.04 GiB: that check is out of a model's reach. Candidates for the
** remaining 0.43 GiB, none confirmed: cuDNN's Conv3d workspace in the patch embedding (not
** modelled anywhere); in the decoder phase (16384 tokens x 46752 elements + the kept pixels =
** 2,148,532,224 B) Qwen2MLP keeps gate_up referenced until it returns, so at down_proj's
** out-of-place all-reduce a layer holds 4 h + 3 I / tp a token, not the 3 h + 3 I / tp of
** est_forward_dense_bytes (+0.25 GiB here, still -10 %; a change that would move every
** calibrated forward and is left to a round of its own). */
static void mm_profile_v0(ectx *c, vcfg *v, const mmc *m) {
  uint64_t full = acc_add(&c->acc, m->images * m->tokens, mm_video_tokens(m, v->mml));
  uint64_t seqs = v->seqs;
  if (full) seqs = u64max(1, u64min(seqs, v->tokens / full));
  uint64_t seq_len = v->tokens / seqs;
  uint64_t vid = mm_video_tokens(m, seq_len), img = m->images * m->tokens;
  uint64_t per = img + vid;
  v->fwd_tokens = per > seq_len ? acc_mul(&c->acc, seqs, per) : v->tokens;
  v->smp_seqs = seqs;
  v->mm.seqs = seqs;
  v->mm.items = seqs * (m->images + m->videos);
  v->mm.tokens = u64max(img ? m->tokens : 0, m->videos ? vid / m->videos : 0);
  uint64_t enc = u64max(mm_encoder_bytes(c, v, m, acc_mul(&c->acc, seqs, img ? m->tokens : 0)),
                        mm_encoder_bytes(c, v, m, acc_mul(&c->acc, seqs, vid)));
  uint64_t pixels = acc_mul3(&c->acc, seqs, per, m->pixels) / m->tokens;
  v->mm.kept = acc_mul(&c->acc, pixels, m->copies);
  v->mm.out = 0;
  /* the other modality's pixels are on the device while one is encoded */
  uint64_t other = acc_mul(&c->acc, acc_mul3(&c->acc, seqs, u64min(img, vid), m->pixels) / m->tokens, m->copies);
  v->mm.enc_peak = acc_add(&c->acc, enc, other);
}

static void mm_profile(ectx *c, vcfg *v) {
  const scenario *s = c->s;
  mmc m = {
      .tokens = scn_u64(s, "mm.tokens", 0),
      .patches = scn_u64(s, "mm.patches", 0),
      .pixels = scn_u64(s, "mm.pixel_bytes", 0),
      .hidden = scn_u64(s, "mm.hidden", 0),
      .inter = scn_u64(s, "mm.intermediate", 0),
      .tps = scn_u64(s, "mm.video_tps", 0),
      .images = scn_u64(s, "mm.images", 1),
      .videos = scn_u64(s, "mm.videos", 0),
      .copies = scn_u64(s, "mm.pixel_copies", 1),
      .gated = scn_u64(s, "mm.gated", 0) != 0,
      /* Qwen2.5-VL's split_qkv gathers up to 0.11 (qwen2_5_vl.py all_gather_interleave) */
      .gather = scn_u64(s, "mm.gather_qkv", 0) != 0 && v->version < 12000,
      .interp = scn_u64(s, "mm.pos_interp", 0) != 0,
      /* the fp32 rotary of q ++ k: read in 0.11-era sources only (see mm_encoder_bytes); 0.10.x
      ** and 0.12+ not read, left as they were */
      .rope32 = scn_u64(s, "mm.rope_fp32", 0) != 0 && v->version >= 11000 && v->version < 12000,
  };
  memset(&v->mm, 0, sizeof v->mm);
  if (!m.tokens || !m.patches || !m.hidden || (!m.images && !m.videos)) return;
  v->mm.on = true;
  if (v->v0)
    mm_profile_v0(c, v, &m);
  else
    mm_profile_v1(c, v, &m);
}

/* The drafter's dummy run after the target's forward over the same max_num_batched_tokens
** (gpu_model_runner.py _dummy_run: self.drafter.dummy_run(num_tokens) for EAGLE, EAGLE-3,
** MTP and draft models; none for ngram): the target's hidden states and the drafter's
** concatenated input (embeds ++ hidden for EAGLE and MTP, the three auxiliary hidden states
** for EAGLE-3: spec.in_width) stay live while one drafter layer runs. Its layer transient is
** est_forward_dense_bytes over the drafter's widths (spec.hidden, spec.heads, spec.kv_dim,
** spec.ffn); an MTP layer is shaped like the target's own (MoE workspaces included).
** Modelled from the source; no calibration case. */
static uint64_t drafter_bytes(ectx *c, const vcfg *v, uint64_t target_layer) {
  if (!v->drafter) return 0;
  uint64_t kept = acc_mul3(&c->acc, v->fwd_tokens, c->m->hidden + scn_u64(c->s, "spec.in_width", 0), v->a);
  if (strcmp(v->spec, "mtp") == 0) return acc_add(&c->acc, kept, target_layer);
  return acc_add(&c->acc, kept, est_drafter_forward_bytes(c, v->fwd_tokens, v->a));
}

/* The torch peak increase of the profile run on one rank. The forward and the
** sampler's dummy run do not overlap; from 0.17 the MoE workspace stays allocated
** through the sampler run (Qwen3-30B-A3B: 2.23 + 0.53 = 2.76 vs 2.68 GiB,
** llmd-v019-qwen3-30b-a3b; DeepSeek-V2-Lite 2.07 vs 1.93, llmd-v019-deepseek-v2-lite). */
static uint64_t activation_peak(ectx *c, const vcfg *v, bool sampler) {
  uint64_t moe = moe_bytes(c, v), layer = acc_add(&c->acc, forward_bytes(c, v), moe);
  uint64_t fwd = acc_add(&c->acc, layer, v->lora.act);
  uint64_t drafter = drafter_bytes(c, v, layer);
  if (drafter > fwd) fwd = drafter;
  uint64_t kept = v->version >= 17000 || moe_cutlass_fp8(c, v) ? moe : 0;
  uint64_t smp = sampler ? acc_add(&c->acc, sampler_bytes(c, v), kept) : 0;
  uint64_t vis = vision_bytes(c, v);
  if (vis > fwd) fwd = vis; /* the encoder's temporaries are gone before the decoder runs */
  uint64_t peak = fwd > smp ? fwd : smp;
  if (!v->mm.on) return peak;
  peak = acc_add(&c->acc, peak, v->mm.kept);
  return v->mm.enc_peak > peak ? v->mm.enc_peak : peak;
}

/* Non-torch memory the profile run adds (CUDA memory outside PyTorch's allocator:
** cuBLAS/cuBLASLt workspaces, lazily loaded kernels, NCCL). One GPU: 0.13 GiB in
** 0.8-0.18 (llmd-emp-*, llmd-sweep-qwen3-14b-v015/v017), 0.25 GiB in 0.19 and V0
** (llmd-v019-*-tp1-8k; V0 0.16-0.35: vllm-pr12126-*, vllm-10517-*); a stage without
** the sampler 0.07 GiB (llmd-v019-llama31-8b-pp2-8k). Tensor parallelism adds NCCL's
** buffers (est_tp_comm_gib). From 0.26 one GPU prints less: 0.07 GiB on the V2 runner
** ("0.07 GiB for non-torch memory", Qwen2.5-0.5B, 16 GB GPU, 0.26.0) and 0.16 on V1 (LFM2-1.2B,
** a 16 GiB sm90 part, 0.26.0; 0.25 in 0.19); the runners reserve the same in eager mode
** (vllm#50159: Qwen2.5-0.5B on 0.26.0, 6,908,880 tokens on both), so the drop is the
** release's, not V2's. Which change (0.20-0.26) moved it is not known; 0.26.0 is the first
** release with a printed figure.
** Not modelled: the builds between vLLM PR #10511 (Dec 2024) and PR #11809 (opened 2025-01-07,
** merged before PR #12126 of 2025-01-16 built on it; about 0.6.5-0.6.6 by date) printed
** non_torch as used (mem_get_info) - baseline - weights - the change in
** torch.cuda.memory_stats()["allocated_bytes.all.current"] over the profile run; PR #11809
** ("allocated_bytes.all.current does not include the memory allocated from cudaMalloc but
** cannot be released (partially used)") switched to memory_reserved(). Those builds' figure
** adds what the caching allocator still reserves but has not allocated after the profile run
** and empty_cache(): vllm-pr10511-llama3-8b-tp1 printed 1.79 GiB on one GPU and 3.58 at tp 2
** in the same PR comment, where the reserved-based builds print 0.16 (vllm-pr12126-*) and
** 0.03-0.16 (round 16's V0 logs). Which segments the profile leaves partly used is allocator
** state this model does not follow (est_reserved_slack covers the weights' load only), so the
** one log is left as a miss rather than fitted. */
#define VLLM_NON_TORCH_LOW 26000
static uint64_t non_torch(ectx *c, const vcfg *v, bool sampler) {
  double base = !v->v0 && v->version < 19000 ? 0.13 : 0.25;
  if (!sampler || (!v->v0 && v->version >= VLLM_NON_TORCH_LOW)) base = 0.07;
  return gib(c, base + est_tp_comm_gib(c->s));
}

/* ---------------------------------------------------------------- KV-cache groups */

/* Bytes of one token of one attention layer on a rank, and of one Mamba-style state. */
/* DeepSeek-V3.2 (vllm/model_executor/models/deepseek_v2.py): the indexer's DeepseekV32IndexerCache
** is an MLAAttentionSpec of head_size index_head_dim + index_head_dim // 128 x 4 in uint8 (the
** description's bytes, 132) whatever --kv-cache-dtype; the sparse MLA layers store an 8-bit KV as
** "fp8_ds_mla" (kv_cache_interface.py MLAAttentionSpec.page_size_bytes: 656 a token when
** cache_dtype_str is fp8_ds_mla; the description's fp8_bytes). */
static uint64_t token_bytes(ectx *c, const vcfg *v, const kv_group *k) {
  if (k->bytes) return k->bytes;
  if (k->fp8_bytes && v->kvb == 1) return acc_mul(&c->acc, est_kv_heads_rank(k->kv_heads, c->s->tp), k->fp8_bytes);
  return acc_mul3(&c->acc, est_kv_heads_rank(k->kv_heads, c->s->tp), k->k_dim + k->v_dim, v->kvb);
}

/* Elements split by tp in `bytes` each, or in the model dtype when bytes is 0 (auto). */
static uint64_t state_part(ectx *c, uint64_t elems, uint64_t bytes) {
  uint64_t rank = bytes_ceildiv(elems, c->s->tp);
  return bytes ? acc_mul(&c->acc, rank, bytes) : est_elems_bytes(c, rank, c->s->dtype);
}

/* MambaSpec.page_size_bytes (vllm/v1/kv_cache_interface.py): the sum over the state tensors
** of elements x their dtype's size. The conv window (conv_elems, plus num_speculative_tokens
** more columns with speculative decoding: spec.state_conv_extra) in mamba_cache_dtype, the
** recurrent state (state_elems - conv_elems) in mamba_ssm_cache_dtype, as
** scripts/runtimes/vllm.lua resolves them (vllm.mamba_conv_bytes / vllm.mamba_ssm_bytes,
** 0 = the model dtype). A description without conv_elems has its whole state in the SSM
** dtype. Qwen3.5-35B-A3B at 0.17+: 24,576 x 2 + 524,288 x 4 = 2,146,304 B. */
static uint64_t state_page(ectx *c, const kv_group *k) {
  uint64_t conv = acc_add(&c->acc, k->conv_elems, scn_u64(c->s, "spec.state_conv_extra", 0));
  uint64_t cb = scn_u64(c->s, "vllm.mamba_conv_bytes", 0), sb = scn_u64(c->s, "vllm.mamba_ssm_bytes", 0);
  return acc_add(&c->acc, state_part(c, conv, cb), state_part(c, k->state_elems - k->conv_elems, sb));
}

/* Hybrid attention + Mamba models: the attention block size grows in steps of 16 tokens
** until one attention page holds a layer's state, and state pages are padded to that
** (vllm/model_executor/models/config.py HybridAttentionMambaModelConfig, after the model's
** own config hook has set the state dtypes). Qwen3-Next: 2 KV heads x 512 x 2 B = 2 KiB/token,
** state 1,097,728 B in bf16 -> block_size 544; Qwen3.5's fp32 SSM state 2,146,304 B -> 1056. */
static void mamba_block_size(ectx *c, vcfg *v) {
  uint64_t tok = 0, state = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *k = &c->m->kv[i];
    uint64_t b = k->kind == KV_STATE ? state_page(c, k) : token_bytes(c, v, k);
    if (k->kind == KV_STATE)
      state = b > state ? b : state;
    else
      tok = b > tok ? b : tok;
  }
  if (!state || !tok) return;
  /* An MLA hybrid (Kimi Linear) aligns to the MLA kernels' block, not 16: "MLA requires larger
  ** alignment: CUTLASS_MLA backend: kernel_block_size 128, other MLA backends 64"
  ** (HybridAttentionMambaModelConfig.verify_and_update_config, 0.11 on; assumed unchanged in the
  ** later platforms/interface.py get_attn_block_size). vllm-project/vllm#28228 (Kimi-Linear AWQ
  ** tp 2 on 2 x 3090, Triton MLA): 75,840 tokens from 2.30 GiB = 79 blocks of 960, the 64-aligned
  ** size (16-aligned: 944, 81 blocks, 76,464 tokens). */
  uint64_t align = 16;
  if (est_model_mla(c->m) && v->version >= VLLM_MLA_MULTIPLE) align = v->bs % 128 == 0 ? 128 : 64;
  uint64_t bs = align * bytes_ceildiv(state, align * tok);
  if (bs > v->bs) v->bs = bs;
}

/* Page of one layer: block_size x KV heads per rank x (K + V widths) x dtype bytes
** (vllm/v1/kv_cache_interface.py page_size_bytes: 2 x ... for attention, 1 latent
** for MLA, whose description has v_dim 0; MambaSpec: the state). Without the hybrid
** allocator (before 0.10, or chunked local attention while it is off) every attention
** layer is sized as full attention, cross-attention ones included (V0 mllama:
** vllm-pr12126-llama32-11b-vision-eager, 40 layers per block). */
static void vllm_spec_add(ectx *c, vcfg *v, vgroups *g, bool hybrid, const kv_group *k) {
  if (g->n == V_MAX_GROUPS) {
    est_fail(c, "vllm: more than %d kinds of KV-cache layer", V_MAX_GROUPS);
    return;
  }
  bool state = k->kind == KV_STATE;
  /* Before the hybrid manager the recurrent state is not in the blocks: V0's CacheEngine
  ** allocates blocks for the attention layers only (num_attention_layers =
  ** get_num_layers_by_block_type(..., LayerBlockType.attention)); mamba_cache_v0 holds the state. */
  if (state && !hybrid) return;
  uint64_t page = state ? state_page(c, k) : acc_mul(&c->acc, v->bs, token_bytes(c, v, k));
  kv_kind kind = hybrid ? k->kind : (state ? KV_STATE : KV_ATTN);
  uint64_t window = hybrid && !state ? k->window : 0;
  uint64_t tokens = kind == KV_CROSS ? k->tokens : 0;
  uint64_t layers = bytes_ceildiv(k->layers, c->s->pp);
  int j = 0;
  while (j < g->n && !(g->t[j].page == page && g->t[j].window == window && g->t[j].kind == kind &&
                       g->t[j].tokens == tokens))
    j++;
  if (j == g->n) g->t[g->n++] = (vspec){0, page, window, tokens, kind, 0, v->bs};
  g->t[j].layers += layers;
  g->t[j].all += k->layers;
  if (page > g->page) g->page = page;
}

/* The drafter's attention layers (EAGLE's decoder layers, MTP layers, a draft model's) are
** Attention modules of the same forward context, so get_kv_cache_spec lists them beside the
** target's (gpu_model_runner.py get_kv_cache_spec: every AttentionLayerBase) and the KV bytes
** per token and per block include them: Llama-3.1-8B + EAGLE-3 caches 33 layers, DeepSeek-V3
** + MTP 62 (scripts/speculative.lua spec.kv<i>.*). A hybrid model's MTP layer is full attention
** with the target's page (same heads, same enlarged block size): it joins that spec and the
** group size follows (Qwen3.5-35B-A3B: 10 + 1 attention against 30 DeltaNet layers, groups of
** 11; kv_cache_utils.py _get_kv_cache_groups_uniform_page_size). */
static void vllm_draft_specs(ectx *c, vcfg *v, vgroups *g, bool hybrid) {
  uint64_t n = scn_u64(c->s, "spec.kv_groups", 0);
  for (uint64_t i = 1; i <= n && i <= 2; i++) {
    kv_group k;
    if (est_spec_kv_group(c->s, i, &k)) vllm_spec_add(c, v, g, hybrid, &k);
  }
}

/* Attention specs of different page sizes under the hybrid allocator (Gemma 4: sliding layers of
** 16 KV heads x 256 against full layers of 4 KV heads x 512 on 31B): vLLM makes every page the
** largest one by multiplying the block size of the smaller ones (vllm/v1/core/kv_cache_utils.py
** unify_kv_cache_spec_page_size: block_size x max_page // page when it divides). Their requests
** then take cdiv(len, that larger block) blocks. State pages are padded already
** (mamba_block_size), and a model whose attention layers share one page is left as it was. A
** page that does not divide the largest is refused: unify_kv_cache_spec_page_size raises
** NotImplementedError("The page size of the layer is not divisible by the maximum page size.
** Cannot unify by adjusting block_size."), and the users' reports of it run to the 0.20 releases
** (Gemma 4 with a per-token-head int8 KV, Qwen3.5 AutoRound). Later releases pad such a page to
** the largest (page_size_padded) only for an attention backend whose
** indexes_kv_by_block_stride() is true, and raise otherwise; which backends do and from which
** release is not modelled, so the refusal stands for every release and says so. */
static void vllm_unify_pages(ectx *c, vgroups *g, bool hybrid) {
  if (!hybrid) return;
  for (int i = 0; i < g->n; i++) {
    vspec *t = &g->t[i];
    if (t->kind == KV_STATE || !t->page || t->page >= g->page) continue;
    if (g->page % t->page) {
      est_fail(c, "vllm: the KV page sizes do not divide (%llu B a block against the largest, %llu B): vLLM raises "
                  "\"NotImplementedError: The page size of the layer is not divisible by the maximum page size. "
                  "Cannot unify by adjusting block_size.\" (kv_cache_utils.py unify_kv_cache_spec_page_size; "
                  "newer releases pad such pages only on attention backends that index KV by block stride, "
                  "not modelled)", (unsigned long long)t->page, (unsigned long long)g->page);
      return;
    }
    t->bs *= g->page / t->page;
    t->page = g->page;
  }
}

/* Full-attention specs alike in block size and different in page size (DeepSeek-V3.2: the MLA
** latent's page, 64 x 656 B in fp8_ds_mla or 64 x 1152 B in bf16, beside the indexer's 64 x 132 B):
** vLLM keeps them in one group of every layer (vllm/v1/core/kv_cache_utils.py get_kv_cache_groups:
** UniformTypeKVCacheSpecs.from_specs before unify_kv_cache_spec_page_size; kv_cache_interface.py
** UniformTypeKVCacheSpecs.page_size_bytes = the sum of the layers' pages), so one block spans a page
** of each layer and a request takes cdiv(len, block_size) blocks: the arithmetic of one spec
** without the hybrid allocator. Added with the DeepSeek-V3.2 support of 0.11.0 (vllm-project/vllm
** PR #25896, merged 2025-09-29; the release is inferred from the date). */
#define VLLM_UNIFORM_TYPE_FROM 11000
static bool vllm_uniform_type(const vcfg *v, const vgroups *g) {
  if (v->version < VLLM_UNIFORM_TYPE_FROM || g->n < 2) return false;
  for (int i = 0; i < g->n; i++)
    if (g->t[i].kind != KV_ATTN || g->t[i].window || g->t[i].bs != g->t[0].bs) return false;
  return true;
}

static void vllm_specs(ectx *c, vcfg *v, vgroups *g, bool hybrid) {
  const model_desc *m = c->m;
  memset(g, 0, sizeof *g);
  if (hybrid) mamba_block_size(c, v);
  for (int i = 0; i < m->n_kv; i++) vllm_spec_add(c, v, g, hybrid, &m->kv[i]);
  vllm_draft_specs(c, v, g, hybrid);
  g->uniform_type = hybrid && vllm_uniform_type(v, g);
  if (!g->uniform_type) vllm_unify_pages(c, g, hybrid);
}

/* vLLM's grouping (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size): layers of
** one spec are cut into groups of group_size = the smallest spec's layer count (the
** largest when it is under 1.25 x the smallest); one block spans one layer of every
** group. Gemma-2-9B: 21 sliding + 21 full -> 2 groups of 21 (llmd-v019-gemma2-9b). */
static void vllm_grouping(vgroups *g, bool hybrid) {
  uint64_t lo = UINT64_MAX, hi = 0, all = 0;
  for (int i = 0; i < g->n; i++) {
    uint64_t l = g->t[i].layers;
    lo = l < lo ? l : lo;
    hi = l > hi ? l : hi;
    all += l;
  }
  if (!hybrid || g->n <= 1) {
    g->group_size = all ? all : 1;
    g->n_groups = 1;
    return;
  }
  g->group_size = (double)hi < 1.25 * (double)lo ? hi : lo;
  g->n_groups = 0;
  for (int i = 0; i < g->n; i++) g->n_groups += bytes_ceildiv(g->t[i].layers, g->group_size);
}

/* Blocks one request of `len` tokens takes in one group of spec t (max_memory_usage_bytes):
** full attention cdiv(len, block); sliding window cdiv(min(window - 1 + batched, len),
** block) + 1; chunked local attention cdiv(min(chunk + batched, len), block); cross-attention
** cdiv(encoder tokens, block); a Mamba state one block, plus one per speculative token
** (MambaSpec.num_speculative_blocks: spec.state_blocks), plus one in mamba_cache_mode "align"
** (MambaSpec.max_memory_usage_bytes: 2 + num_speculative_blocks; scripts/runtimes/vllm.lua). */
static uint64_t spec_blocks(const vcfg *v, const vspec *t, uint64_t len) {
  uint64_t w = t->window + v->tokens;
  switch (t->kind) {
    case KV_STATE:
      return 1 + v->mamba_align + v->state_blocks;
    case KV_CROSS:
      return bytes_ceildiv(t->tokens, t->bs);
    case KV_CHUNKED:
      return bytes_ceildiv(w < len ? w : len, t->bs);
    default:
      break;
  }
  if (!t->window) return bytes_ceildiv(len, t->bs);
  w -= 1;
  return bytes_ceildiv(w < len ? w : len, t->bs) + 1;
}

/* Blocks one request of `len` tokens occupies, summed over groups. Before the hybrid
** allocator: cdiv(len, block). */
static uint64_t request_blocks(const vcfg *v, const vgroups *g, uint64_t len, bool hybrid) {
  if (!hybrid) return bytes_ceildiv(len, v->bs);
  uint64_t total = 0;
  for (int i = 0; i < g->n; i++)
    total += bytes_ceildiv(g->t[i].layers, g->group_size) * spec_blocks(v, &g->t[i], len);
  return total;
}

/* Bytes one block spans: a page for each layer of one group (or of the whole model
** before the hybrid allocator, where specs may differ in page size). */
static uint64_t block_bytes(ectx *c, const vgroups *g, bool hybrid) {
  if (hybrid) return acc_mul(&c->acc, g->page, g->group_size);
  uint64_t b = 0;
  for (int i = 0; i < g->n; i++) b = acc_add(&c->acc, b, acc_mul(&c->acc, g->t[i].page, g->t[i].layers));
  return b;
}

/* A block's bytes on stage `stage`: a spec every decoder layer has holds the stage's own
** layers (stage_layers), one a subset has ceil(layers / pp) as before. Under the hybrid
** KV-cache manager (0.10 on) a model of one kind of layer is sized the same way (the uniform
** config divides each worker's memory by its own layers' pages); a model of several kinds
** keeps the ceil group size (its layers' kinds per stage are not modelled). */
static uint64_t stage_block_bytes(ectx *c, const vgroups *g, bool hybrid, uint64_t stage) {
  if ((hybrid && g->n > 1) || c->s->pp <= 1) return block_bytes(c, g, hybrid);
  uint64_t b = 0;
  for (int i = 0; i < g->n; i++) {
    uint64_t n = g->t[i].all == c->m->layers ? stage_layers(c, stage) : g->t[i].layers;
    b = acc_add(&c->acc, b, acc_mul(&c->acc, g->t[i].page, n));
  }
  return b;
}

/* Before 0.10 a hybrid model's recurrent state sits in the model's own MambaCacheManager
** (vllm/model_executor/models/mamba_cache.py, V0): conv and temporal state tensors of
** (mamba layers of the stage, max_batch_size) + the state shape, max_batch_size being
** max_num_seqs padded to a CUDA-graph capture size (vllm_config.pad_for_cudagraph) unless
** enforce_eager. jamba.py / bamba.py / nemotron_h.py / granitemoehybrid.py / falcon_h1.py
** create it in their first forward, the profile run's, so it is part of the peak torch memory
** that determine_num_available_blocks leaves out of the KV cache. One state a sequence slot,
** not one a block. The dtype is the model's (lm_head.weight.dtype) unless the mamba dtype
** knobs say otherwise (state_page). */
static uint64_t mamba_slots(const vcfg *v) {
  uint64_t slots = v->seqs;
  if (!v->eager && slots <= 8192) /* V0 capture sizes [1, 2, 4] + range(8, ..., 8): graph_sizes */
    slots = slots <= 4 ? (slots <= 1 ? 1 : slots <= 2 ? 2 : 4) : 8 * bytes_ceildiv(slots, 8);
  return slots;
}

static uint64_t mamba_cache_v0(ectx *c, const vcfg *v, bool hybrid) {
  if (hybrid) return 0;
  uint64_t slots = mamba_slots(v);
  uint64_t b = 0;
  for (int i = 0; i < c->m->n_kv; i++) {
    const kv_group *k = &c->m->kv[i];
    if (k->kind != KV_STATE) continue;
    uint64_t layers = bytes_ceildiv(k->layers, c->s->pp);
    b = acc_add(&c->acc, b, acc_mul3(&c->acc, layers, slots, state_page(c, k)));
  }
  return b;
}

/* The hybrid KV-cache manager (0.10 and later) sizes each kind of layer by what it keeps.
** vLLM turns it off for chunked local attention (Llama 4) unless
** VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE is set (vllm/config/vllm.py
** __post_init__: "latency regression ... Disabling it, by default"); the knob
** runtime.chunked_local_attn_hybrid says which (vllm.lua sets the
** default per version). */
static bool vllm_hybrid(ectx *c, const vcfg *v) {
  if (v->version < 10000 || v->v0) return false; /* V0 has no hybrid manager (0.10.x with VLLM_USE_V1=0) */
  bool chunked = false;
  for (int i = 0; i < c->m->n_kv; i++) chunked = chunked || c->m->kv[i].kind == KV_CHUNKED;
  return !chunked || scn_bool(c->s, "runtime.chunked_local_attn_hybrid", false);
}

/* ---------------------------------------------------------------- the estimate */

/* CUDA graphs, per rank. What vLLM captures (vllm/v1/worker/gpu_model_runner.py
** capture_model, cudagraph_dispatcher.get_capture_descs):
** - the capture sizes: [1, 2, 4] + range(8, 256, 8) + range(256, max + 1, 16) with
**   max_cudagraph_capture_size = min(2 x max_num_seqs, 512) (x (1 + speculative tokens) from
**   0.13), none above
**   max_num_batched_tokens (51 sizes at 256 sequences, 35 at 128, 5 at 8: "Profiling CUDA
**   graph memory: PIECEWISE=51 (largest=512), FULL=35 (largest=256)" and the hold-out logs of
**   0.13-0.22). Before 0.12 (assumed, not bisected) the list stepped by 8 to the same max:
**   67 sizes at 512.
** - PIECEWISE: one batch of each size, the model cut at every attention (and mamba/GDN)
**   layer, so L + 1 graphs a size; from 0.11 (FULL_AND_PIECEWISE; hybrid and Mamba models from
**   0.10.2, see below) also one FULL decode graph,
**   all L layers in it, for each size up to max_num_seqs x (1 + speculative tokens).
**   Before that (0.8-0.10) PIECEWISE only, and before 0.10 (PR #20628) the list ran to 512
**   whatever max_num_seqs; FULL decode graphs skip the sizes under 1 + the speculative
**   tokens. V0 one whole-model graph a batch size, [1, 2, 4] + range(8, ..., 8) up to
**   max_num_seqs rounded up to the next of them, the list ending at 256 before 0.7 and 8192
**   from it.
** All of them share one memory pool, the largest captured first, so the pool holds little
** more than one forward's intermediates (tens of MiB at 512 tokens); what grows is each
** instantiated graph's own memory, per layer and per size. vLLM's estimator extrapolates
** the same way: the first graph of each mode plus the second one's cost x (sizes - 1),
** "at least 1 MiB per graph for driver overhead" (profile_cudagraph_memory). Hence
** bytes = unit x layers on the rank x (PIECEWISE sizes + FULL sizes). */
/* The sizes of at least `from` tokens (1: all of them). */
static void capture_sizes_upto(ectx *c, const vcfg *v, uint64_t from, uint64_t *pw, uint64_t *full,
                               uint64_t *largest_full, uint64_t *largest_pw) {
  uint64_t dummy, dummy_pw;
  if (!largest_full) largest_full = &dummy;
  if (!largest_pw) largest_pw = &dummy_pw;
  *pw = *full = *largest_full = *largest_pw = 0;
  if (v->eager) return;
  uint64_t k = v->spec[0] ? scn_u64(c->s, "spec.tokens", 0) : 0;
  if (v->v0) {
    uint64_t last = v->version >= 7000 ? 8192 : 256;
    for (uint64_t b = 1, prev = 0; b <= last && prev < v->seqs; prev = b, b = b < 8 ? b * 2 : b + 8)
      if (b >= from) ++*full, *largest_full = b;
    return;
  }
  /* With speculative decoding the default maximum counts tokens of uniform decode batches:
  ** VllmConfig._set_cudagraph_sizes (vllm/config/vllm.py) sets decode_query_len = 1 +
  ** num_speculative_tokens and max_cudagraph_capture_size = min(max_num_seqs x
  ** decode_query_len x 2, 512), then min(max_num_batched_tokens, that). From PR #30330 ("Fix
  ** cuda graph sizes when running with speculative decoding", 2025-12-09: 0.13.0 inferred, the
  ** first release after it; vLLM issue #27325 quotes the plain min(max_num_seqs x 2, 512) in
  ** October 2025, issue #32324 the new code in January 2026). club-3090 #104 (0.24, 2 sequences,
  ** MTP 3): "PIECEWISE=5 (largest=16)". Not modelled: the uniform-decode sizes PR #50488 (merged
  ** 2026-07-30) appends, kept under the platform ceiling by PR #54418. */
  uint64_t q = v->version >= 13000 ? 1 + k : 1;
  uint64_t max = v->version >= 10000 ? u64min(2 * v->seqs * q, 512) : 512, decode = v->seqs * (1 + k);
  /* gpt-oss (vllm/model_executor/models/config.py GptOssForCausalLMConfig: "Increase the max
  ** capture size from 512 to 1024 for performance ... from 67 to 83" graphs) sets its own list,
  ** [1, 2, 4] + range(8, 256, 8) + range(256, max + 1, 16) whatever max_num_seqs, unless the user
  ** set the sizes: 1024 from 0.10.1; 992 from PR #25508 (full graphs with FA3, 2025-09: 0.11.0,
  ** and a 0.11.1rc2 log prints it) until PR #27840 lifted FA3's limit and PR #28345 ("Revert gpt-oss
  ** max cudagraph size to 1024", merged 2025-11-08) reverted it: from 0.11.2 here, whose log
  ** (tonghuikang/blog _posts/2025-12-28-vllm-logs.md, gpt-oss-120b on one GPU) prints "Overriding
  ** max cuda graph capture size to 1024" and 83 PIECEWISE captures at 6 sequences (0.11.1 final not
  ** placed). The llm-d v0.19.0 gpt-oss-20b tp 2 log: "Overriding max cuda graph capture size to
  ** 1024", "PIECEWISE=83 (largest=1024), FULL=83 (largest=1024)" at 1024 sequences. */
  /* Chunked local attention (Llama 4) runs on a ChunkedLocalAttention_<chunk>_<backend> backend
  ** whose metadata builder declares no CUDA-graph support (AttentionCGSupport.NEVER), so vLLM
  ** downgrades FULL_AND_PIECEWISE to PIECEWISE for the whole model: no FULL decode graphs
  ** (vllm/attention/layers/chunked_local_attention.py, ChunkedLocalAttentionBuilder.
  ** get_cudagraph_support; vLLM's feature request "Support CUDAGraphMode.FULL with
  ** ChunkedLocalAttention for Llama4 models" quotes the same error for cudagraph_mode FULL). The
  ** llm-d v0.19.0 Llama-4-Scout tp 4 H100 log (llm-d-incubation/llm-d-planner @d3121e05,
  ** accuracy/results/v0.19.0/logs/meta-llama-llama-4-scout--h100-80gb--tp4pp1dp1--8192.log):
  ** "CUDAGraphMode.FULL_AND_PIECEWISE is not supported with ChunkedLocalAttention_8192_
  ** FlashAttentionBackend backend (support: AttentionCGSupport.NEVER); setting
  ** cudagraph_mode=PIECEWISE", "Profiling CUDA graph memory: PIECEWISE=51 (largest=512)". From
  ** 0.11 (the first release with FULL graphs here; the downgrade before 0.19 assumed). */
  bool no_full = false;
  for (int i = 0; i < c->m->n_kv; i++) no_full = no_full || c->m->kv[i].kind == KV_CHUNKED;
  /* MiniMax (Text-01, M1): the lightning layers' LinearAttentionMetadataBuilder
  ** (vllm/v1/attention/backends/linear_attn.py) declared no CUDA-graph support, so it kept the
  ** base AttentionMetadataBuilder's AttentionCGSupport.NEVER and FULL_AND_PIECEWISE falls back to
  ** PIECEWISE the same way, until vllm-project/vllm PR #28934 ("add `_cudagraph_support` for
  ** linear attention": UNIFORM_SINGLE_TOKEN_DECODE, merged 2025-11-18, after the 0.11.1 cut:
  ** 0.12.0 inferred). This, not FCG_NOT_SUPPORTED_MODELS below, is what keeps MiniMax-M1 off
  ** FULL graphs: its architecture, MiniMaxM1ForCausalLM, is its own registry entry (an alias
  ** onto the MiniMaxText01ForCausalLM class, PR #19677), and model_config.architecture is that
  ** name, which the list does not hold. */
  no_full = no_full || (strcmp(c->m->arch, "minimax") == 0 && v->version < 12000);
  /* Hybrid and Mamba models get FULL decode graphs a release earlier: from 0.10.2 (the first
  ** release with cudagraph_mode) MambaModelConfig.verify_and_update_config
  ** (vllm/model_executor/models/config.py; HybridAttentionMambaModelConfig calls it) sets
  ** FULL_AND_PIECEWISE when the user left cudagraph_mode unset, except for the architectures in
  ** its FCG_NOT_SUPPORTED_MODELS (Lfm2ForCausalLM, MiniMaxText01ForCausalLM: MiniMax is kept off
  ** FULL graphs by its builder above, Text-01 and M1 alike). A vLLM 0.10.2 log
  ** of Qwen3-Next-80B-A3B-Instruct tp 2 on 2 x H200: "Hybrid or mamba-based model detected:
  ** setting cudagraph mode to FULL_AND_PIECEWISE", "Capturing CUDA graphs (mixed prefill-decode,
  ** PIECEWISE): 67/67", "Capturing CUDA graphs (decode, FULL): 67/67". */
  bool state = est_model_recurrent(c->m);
  bool fcg_no = strcmp(c->m->arch, "lfm2") == 0; /* Lfm2ForCausalLM */
  bool full_from = v->version >= 11000 || (state && v->version >= 10002 && !fcg_no);
  /* Speculative decoding runs FULL decode graphs over uniform batches of 1 + k tokens a request;
  ** the model runner's cudagraph-mode check (gpu_model_runner.py from 0.10.2, compilation.py
  ** later: "CUDAGraphMode.FULL_AND_PIECEWISE is not supported with spec-decode for attention
  ** backend ... setting cudagraph_mode=PIECEWISE") drops them when any attention group's builder
  ** supports less than AttentionCGSupport.UNIFORM_BATCH. Below it, UNIFORM_SINGLE_TOKEN_DECODE:
  ** - FlashInfer's native decode (FlashInferMetadataBuilder; UNIFORM_BATCH only with TRT-LLM
  **   decode, SM100): the v0.20.0 and v0.20.2 logs of Qwen3.6-35B-A3B-NVFP4 with MTP 2 print the
  **   warning with "(support: AttentionCGSupport.UNIFORM_SINGLE_TOKEN_DECODE)" and capture
  **   PIECEWISE only;
  ** - the Mamba1 / Mamba2 / ShortConv builders (BaseMambaAttentionMetadataBuilder
  **   cudagraph_support, PURE_DECODE_ONLY in the 0.10 naming) until PR #33726 ("Nemotron-H MTP
  **   and Mamba Speculative Decoding Support", merged 2026-02-24: 0.17.0 inferred) made them
  **   UNIFORM_BATCH ("Previously, mamba-style speculative decoding support was limited to
  **   Qwen3-Next"). Gated DeltaNet (GDNAttentionMetadataBuilder) is UNIFORM_BATCH from its first
  **   release, so Qwen3-Next / Qwen3.5 keep FULL graphs with MTP on FlashAttention. */
  bool mamba_style = false;
  /* (the attention-free "mamba" arch runs the same Mamba1AttentionMetadataBuilder /
  ** Mamba2AttentionMetadataBuilder, subclasses of BaseMambaAttentionMetadataBuilder) */
  static const char *const base_mamba[] = {"nemotron_h", "granitemoehybrid", "falcon_h1", "bamba", "jamba", "lfm2",
                                           "mamba", "zamba2"};
  for (size_t i = 0; state && i < sizeof base_mamba / sizeof *base_mamba; i++)
    mamba_style = mamba_style || strcmp(c->m->arch, base_mamba[i]) == 0;
  if (k > 0 && (v->fi_attn || (mamba_style && v->version < 17000))) full_from = false;
  bool gptoss = strcmp(c->m->arch, "gpt_oss") == 0 && v->version >= 10001;
  if (gptoss) max = v->version >= 11000 && v->version < 11002 ? 992 : 1024;
  /* --max-cudagraph-capture-size (CompilationConfig.max_cudagraph_capture_size) replaces the default
  ** maximum, gpt-oss's too ("unless the user set" it); the list below it is the same. The v0.20.0
  ** RTX 5090 compose log (tests/test_holdout22_vllm.c) sets 1 at max_num_seqs 1: one size a mode. */
  uint64_t given = scn_u64(c->s, "runtime.max_cudagraph_capture_size", 0);
  if (given) max = given;
  /* With FULL decode graphs beside PIECEWISE ones and speculative decoding, every capture size is
  ** rounded up to a multiple of the uniform decode query length 1 + k, the sizes past the maximum
  ** dropped and the rest deduplicated (CompilationConfig.adjust_cudagraph_sizes_for_spec_decode,
  ** vllm/config/compilation.py, called by the model runner when the decode mode is FULL and
  ** uniform_decode_query_len > 1, the gate vllm PR #46324, open 2026-06-22, quotes as
  ** "cudagraph_mode.decode_mode() == CUDAGraphMode.FULL and uniform_decode_query_len > 1"; a
  ** PIECEWISE-only run keeps the plain list: club-3090 #104's "PIECEWISE=5 (largest=16)"; from 0.13
  ** here, with the PR #30330 maximum: the rounding's own release is not placed). Held out:
  ** club-3090 issue #434 (2 x RTX 3090, MTP 3, 2 sequences, int8 per-token-head KV on a
  ** FULL-capable backend, the 0.23.1-dev LMCache image): "PIECEWISE=3 (largest=16), FULL=2
  ** (largest=8)", [1, 2, 4, 8, 16] -> [4, 8, 16] (5 before). */
  uint64_t q_round = k > 0 && full_from && !no_full && v->version >= 13000 ? 1 + k : 1, prev = 0;
  for (uint64_t b = 1; b <= max; b = b < 8 ? b * 2 : b + ((v->version >= 12000 || gptoss) && b >= 256 ? 16 : 8)) {
    if (b > v->tokens) break;
    uint64_t r = bytes_ceildiv(b, q_round) * q_round;
    if (r > max || r > v->tokens || r == prev) continue;
    prev = r;
    if (r < from) continue;
    ++*pw, *largest_pw = r;
    if (full_from && !no_full && r <= decode && r >= 1 + k) ++*full, *largest_full = r;
  }
}

static void capture_sizes_from(ectx *c, const vcfg *v, uint64_t from, uint64_t *pw, uint64_t *full) {
  capture_sizes_upto(c, v, from, pw, full, NULL, NULL);
}

static void capture_sizes(ectx *c, const vcfg *v, uint64_t *pw, uint64_t *full) {
  capture_sizes_from(c, v, 1, pw, full);
}

static uint64_t graph_layers(const ectx *c) {
  uint64_t l = c->m->layers ? c->m->layers : 1;
  return bytes_ceildiv(l, c->s->pp);
}

/* The capture sizes whose all-reduces run on NCCL inside the graphs: every size when custom
** all-reduce is off (CudaCommunicator.all_reduce falls back to pynccl, whose ncclAllReduce is
** captured on the graph's stream); with it on, the sizes whose hidden-state all-reduce is
** max_size = 8 MiB or more (should_custom_ar: inp_size < max_size), on GPUs without vLLM's
** symmetric-memory all-reduce (CUSTOM_ALL_REDUCE_MAX_SIZES lists compute capability 9.0, 10.0
** and 10.3, whose larger messages go to symm_mem: not modelled as NCCL). */
/* --disable-custom-all-reduce turns off CustomAllreduce only: CudaCommunicator builds its
** SymmMemCommunicator from VLLM_ALLREDUCE_USE_SYMM_MEM alone (cuda_communicator.py __init__),
** and all_reduce tries it before pynccl (should_use_symm_mem: a message under
** SYMM_MEM_ALL_REDUCE_MAX_SIZES, all_reduce_utils.py: sm 9.0 {2: 64, 4: 32, 6: 64, 8: 64} MiB,
** 10.0 {2: 8, 4: 32, 6: 128, 8: 128}, 10.3 {2: 4, 4: 32, 6: 32, 8: 64}), so the captured sizes'
** all-reduces stay off NCCL where it runs: multicast (NVSwitch, est_nvls) for the SymmMemCommunicator
** of these releases. The default went on in PR #25070 (2025-09-17), off again in PR #26925
** (2025-10-15) and on later by a change not identified here; held from 0.20, the release of the
** Qwen3-235B-A22B-FP8 tp 4 notes (test_holdout19_vllm.c: custom all-reduce off on 4 x H100 SXM,
** "Estimated CUDA graph memory: 1.10 GiB", took 0.96, where 189 NCCL all-reduces in each of 54
** sizes gave 2.28 and 2.22). Returns the symm-mem limit in bytes, 0 where it does not run. */
#define VLLM_SYMM_MEM_CAR_OFF 20000
static uint64_t symm_mem_max(const ectx *c, const vcfg *v) {
  const scenario *s = c->s;
  if (v->v0 || v->version < VLLM_SYMM_MEM_CAR_OFF || !v->nvls) return 0;
  static const struct {
    const char *cc;
    uint64_t mib[4]; /* world sizes 2, 4, 6, 8 */
  } t[] = {{"9.0", {64, 32, 64, 64}}, {"10.0", {8, 32, 128, 128}}, {"10.3", {4, 32, 32, 64}}};
  const char *cc = s->gpu_compute[0] ? s->gpu_compute : strcmp(s->gpu_arch, "hopper") == 0 ? "9.0" : "";
  if (s->tp != 2 && s->tp != 4 && s->tp != 6 && s->tp != 8) return 0;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(cc, t[i].cc) == 0) return t[i].mib[s->tp / 2 - 1] << 20;
  return 0;
}

static void nccl_sizes(ectx *c, vcfg *v) {
  const scenario *s = c->s;
  v->nccl_pw = v->nccl_full = 0;
  if (s->tp <= 1) return;
  uint64_t row = acc_mul(&c->acc, c->m->hidden ? c->m->hidden : 1, v->a);
  if (v->car_off) {
    uint64_t symm = strncmp(v->car_off, "disable_custom", 14) == 0 ? symm_mem_max(c, v) : 0;
    if (symm) /* should_use_symm_mem: inp_size < max_size */
      capture_sizes_from(c, v, bytes_ceildiv(symm, row), &v->nccl_pw, &v->nccl_full);
    else
      v->nccl_pw = v->graph_pw, v->nccl_full = v->graph_full;
    return;
  }
  /* by compute capability where the catalog gives it: sm_120 Blackwell (RTX 50, RTX PRO) is
  ** not in those tables and keeps NCCL for the large messages */
  const char *cc = s->gpu_compute;
  bool symm = cc[0] ? strcmp(cc, "9.0") == 0 || strcmp(cc, "10.0") == 0 || strcmp(cc, "10.3") == 0
                    : strcmp(s->gpu_arch, "hopper") == 0 || strcmp(s->gpu_arch, "blackwell") == 0;
  if (symm || strncmp(s->gpu_arch, "cdna", 4) == 0 || strncmp(s->gpu_arch, "gaudi", 5) == 0) return;
  capture_sizes_from(c, v, bytes_ceildiv(8ull << 20, row), &v->nccl_pw, &v->nccl_full);
}

/* The graphs' memory, per rank, as vLLM's own estimator splits it (profile_cudagraph_memory,
** vllm/v1/worker/gpu_model_runner.py, 0.19-0.22: each mode's first capture mem_samples[0], the
** second capture's cost mem_samples[1] x (len(descs) - 1), and "FULL and PIECEWISE graphs share
** the global pool ... Take the max" of the first captures):
** - the first capture of a mode: the shared pool's working set plus one-time allocations.
**   PIECEWISE: the largest capture size's MLP intermediates (gate_up's output and the activation
**   beside it, 3 x ffn / tp a token, 2 x for an ungated MLP) plus VLLM_GRAPH_FIRST_MIB; FULL: FA3's
**   split-KV accumulators (fa3_accum_bytes) where they run, a few MiB elsewhere (the llm-d v0.19.0
**   sweep prints 4 MiB for the fp32 and Gemma 3 runs without them).
** - every further graph (capture size of a mode): its instantiated graphs' own memory, the same
**   kernels whether the layers are cut at attention (L + 1 PIECEWISE graphs) or not (one FULL
**   graph), so VLLM_GRAPH_PER_MIB a layer on the rank.
** "Graph capturing finished ... took X GiB" (capture_model's mem_get_info delta) is then
** max(first captures) + per graph x (sizes - 1). From 0.20 the CUDA-graph profile runs before the
** KV cache is sized (test_cudagraph_profiling_default) and its first capture has made the one-time
** allocations already, so the capture itself holds the working set without them: the 0.22.0
** Qwen3.5-4B pair (51 + 35 and 35 + 19 sizes, 0.55 and 0.35 GiB) differ by 0.20 MiB a layer and
** size and leave 13 MiB beside the per-graph cost, and the 0.22 estimates they print exceed the
** captures by 0.05-0.09 GiB (0.37 / 0.31, 0.64 / 0.55, 0.40 / 0.35): the one-time part, which
** the estimate's own first capture still measures. Which allocations they are (the capture
** stream's cuBLAS workspaces are the likely part) is not read from the source.
** V0: one whole-model graph a batch size, the first at the largest. */
/* MiB a layer and captured size beyond the first: the median over the 26 dense llm-d v0.19.0 H100
** runs (llm-d-incubation/llm-d-planner @d3121e05, accuracy/results/v0.19.0/logs/, no MLA, MoE,
** attention sinks or chunked attention) of (took - the larger printed first capture, "Estimated
** PIECEWISE / FULL CUDA graph memory: A MiB first-capture") / (layers x (sizes - 1)): 0.16-0.25,
** median 0.194. Held out: Llama-3.2-1B 0.10.1, R1-Distill-Qwen-1.5B 0.9.0, granite-4.0-micro
** 0.11.0, the 0.22 and NCCL logs (tests/test_vllm.c test_graph_first_capture). */
#define VLLM_GRAPH_PER_MIB 0.194
/* MiB of the PIECEWISE first capture beyond the MLP working set: the median over 24 of the same
** runs of the printed PIECEWISE first capture - 512 x 3 x ffn / tp x dtype bytes (73-140, median
** 95: Llama-3.1-8B 138 - 42, Gemma-2-27B 212 - 108, Llama-3.1-8B tp 4 84 - 10.5). */
#define VLLM_GRAPH_FIRST_MIB 95

/* NCCL collectives captured in a graph (custom all-reduce off, or messages of 8 MiB and more):
** EST_GRAPH_NCCL_MIB per collective and captured size, shared with SGLang (estimate.c
** est_graph_nccl_bytes, where the constant's two fitting logs are given). Held out: see
** tests/test_vllm.c test_graph_nccl_holdout6. */
static uint64_t nccl_graph_bytes(ectx *c, uint64_t sizes) {
  return est_graph_nccl_bytes(c, sizes);
}

/* FlashAttention 3's split-KV accumulators in the FULL decode graphs. With full CUDA graphs and
** FA3's ahead-of-time scheduler (Hopper), vLLM's FlashAttention metadata builder passes
** max_num_splits = VLLM_FLASH_ATTN_MAX_NUM_SPLITS_FOR_CUDA_GRAPH (32 by default; the env var since
** PR #25274, attention_config.flash_attn_max_num_splits_for_cuda_graph later) for every batch
** within the capture sizes (v1/attention/backends/flash_attn.py and mla/flashattn_mla.py), and
** FA3's varlen forward (hopper/flash_api.cpp) then allocates fp32 out_accum [num_splits, heads,
** total_q, head_size_v] and softmax_lse_accum [num_splits, heads, total_q] on the capturing stream,
** inside the graph pool. They are freed after each layer and reused, so the pool keeps one set, at
** the largest FULL size: splits x heads on the rank x size x (head_size_v + 1) x 4 B, the MLA
** backend's head_size_v being the latent (kv_lora_rank). vLLM's estimate prints it as the FULL
** mode's first capture (llm-d v0.19.0 H100 DEBUG logs, "Estimated FULL CUDA graph memory: X MiB
** first-capture"): Llama-3.1-8B 260 (32 heads x 128: 258 here), tp 2 132 (129), tp 4 70 (65),
** Gemma-2-9B 262 (16 x 256: 257), Mixtral tp 2 136 (129), Llama-3.3-70B tp 2 268 (258),
** DeepSeek-V2-Lite (FLASH_ATTN_MLA, 16 x 512) 522 (514), Qwen1.5-MoE-A2.7B 136 (129); fp32 (Triton
** attention) 4. gpt-oss (attention sinks) prints 8 MiB: none counted for it (why not is not read).
** Only where FA runs: compute 9.0, fp16 / bf16, FULL graphs; FLASH_ATTN_MLA is the Hopper MLA
** default in the 0.19.0 log (its choice in earlier releases not read: from 0.19.0 here). */
static uint64_t fa3_accum_bytes(ectx *c, const vcfg *v) {
  const scenario *s = c->s;
  const char *cc = s->gpu_compute;
  bool sm90 = cc[0] ? strcmp(cc, "9.0") == 0 : strcmp(s->gpu_arch, "hopper") == 0;
  if (!sm90 || v->v0 || v->eager || v->a != 2 || !v->graph_full || strcmp(c->m->arch, "gpt_oss") == 0) return 0;
  uint64_t pw, full, largest, tp = s->tp ? s->tp : 1, dv = c->m->head_dim;
  capture_sizes_upto(c, v, 1, &pw, &full, &largest, NULL);
  if (est_model_mla(c->m)) {
    if (v->version < 19000 || sparse_mla(c->m)) return 0; /* sparse MLA runs FLASHMLA_SPARSE, not FA */
    for (int i = 0; i < c->m->n_kv; i++)
      if (c->m->kv[i].kind == KV_ATTN && c->m->kv[i].v_dim == 0 && c->m->kv[i].k_dim > 64) dv = c->m->kv[i].k_dim - 64;
  }
  uint64_t heads = bytes_ceildiv(c->m->heads ? c->m->heads : 1, tp);
  return acc_mul(&c->acc, acc_mul(&c->acc, 32 * 4, heads), acc_mul(&c->acc, largest, dv + 1));
}

/* FlashInfer buffers first allocated inside "Graph capturing took" (capture_model's
** torch.cuda.mem_get_info delta, gpu_model_runner.py) for a hybrid model:
** - the float workspace, FlashInferMetadataBuilder._get_workspace_buffer: torch.zeros of
**   FLASHINFER_WORKSPACE_BUFFER_SIZE = 256 MiB (v1/attention/backends/flashinfer.py; the same
**   256 MiB default when PR #28269 made it VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE), later 394 MiB
**   (vllm_fi_workspace_mib), lazily on the first build that
**   needs a wrapper, one per builder instance (self._workspace_buffer). The profile run builds no
**   attention metadata (_dummy_run without
**   force_attention), and kernel_warmup's "Warming up FlashInfer attention" dummy run, which
**   would allocate it before the KV cache, runs only when every attention group is FlashInfer
**   (model_executor/warmup/kernel_warmup.py: "This should be `any` instead of `all` but other
**   hybrid attention backends don't support this dummy run"). A Mamba / DeltaNet group fails
**   that test, so the first FULL decode capture allocates it: the N2 log (0.13.0, Qwen3-Next
**   W4A16, 2 x L40S, fp8 KV) has no warm-up line between the KV lines and the capture.
** - one BatchDecodeWithPagedKVCacheWrapper per FULL capture size (_decode_wrappers_cudagraph,
**   use_cuda_graph=True), each with an 8 MiB device _int_workspace_buffer (flashinfer/decode.py
**   __init__).
** From 0.20 vLLM profiles CUDA-graph memory before sizing the KV cache (profile_cudagraph_memory)
** over builders of its own: the minimal profiling KV cache's initialize_kv_cache builds them, the
** FULL mode's warm-up (_warmup_and_capture: force_attention for FULL) allocates their workspace,
** and _cleanup_profiling_kv_cache (attn_groups.clear()) frees it with them, so the real capture's
** fresh builders allocate it again: the same charge to the capture from 0.20, at that release's
** size. PIECEWISE-only runs (speculative decoding on FlashInfer, vramfit's graph_full 0) build
** no attention metadata in any capture and take none. */
#define VLLM_FI_WORKSPACE_MIB 256
#define VLLM_FI_DECODE_INT_WORKSPACE_MIB 8
/* FlashInfer's float workspace by release: 256 MiB to 0.19; from 0.20 VLLM_FLASHINFER_WORKSPACE_
** BUFFER_SIZE's default is 413,138,944 B = 394 MiB (vllm issue #40023's overflow message on
** 0.19.1rc1.dev231, "had 413,138,944 bytes (394"; vllm PR #40383, 2026-04-23, "the 394 MiB
** default"; PR #48428, merged 2026-07-12, then sizes the prefill workspace to max_num_batched_
** tokens x heads x head_dim floored at it: not modelled, under the floor for the held logs). The
** 0.19.x releases keep 256 here (the release of the change is not placed). */
#define VLLM_FI_WORKSPACE_MIB_V20 394
static uint64_t vllm_fi_workspace_mib(const vcfg *v) {
  return v->version >= 20000 ? VLLM_FI_WORKSPACE_MIB_V20 : VLLM_FI_WORKSPACE_MIB;
}

static uint64_t fi_capture_bytes(const ectx *c, const vcfg *v) {
  if (!v->fi_attn || !est_model_recurrent(c->m) || !v->graph_full) return 0;
  return (vllm_fi_workspace_mib(v) + VLLM_FI_DECODE_INT_WORKSPACE_MIB * v->graph_full) * MIB;
}

/* The FULL mode's first sample in vLLM's estimate (0.20+, profile_cudagraph_memory) on FlashInfer:
** its warm-up builds the profiling builder's float workspace and the first size's decode wrapper
** (8 MiB int workspace), outside the graph pool, before any kernel_warmup has run (that comes after
** the KV sizing, compile_or_warm_up_model), so for every FlashInfer model with FULL graphs, hybrid or
** not; the FULL graph's own pool working set reuses the PIECEWISE mode's blocks. The estimate takes
** the larger of the modes' first samples. Each further FULL sample (mem_samples[1]) builds one more
** decode wrapper: VLLM_FI_DECODE_INT_WORKSPACE_MIB beside the per-layer graph cost. Held: club-3090
** issue #652 (0.24.0, RTX 5090, Qwen3.6-35B-A3B NVFP4, PIECEWISE=2, FULL=1): "Estimated CUDA graph
** memory: 0.41 GiB total" = 394 + 8 MiB + one PIECEWISE size (vramfit 0.40). */
static uint64_t fi_full_first_bytes(const vcfg *v) {
  if (!v->fi_attn || !v->graph_full || v->v0 || v->version < 20000) return 0;
  return (vllm_fi_workspace_mib(v) + VLLM_FI_DECODE_INT_WORKSPACE_MIB) * MIB;
}

/* The MLP's intermediates at `tokens` tokens on a rank: gate_up's output and the activation's
** (3 x ffn), or fc1's and the activation's (2 x ffn) for an ungated MLP; a MoE's ffn_dim is the
** active experts' width (model.h block_spec). */
static uint64_t graph_working_set(ectx *c, const vcfg *v, uint64_t tokens) {
  uint64_t ffn = c->m->block.ffn_dim ? c->m->block.ffn_dim : c->m->intermediate;
  uint64_t tp = c->s->tp ? c->s->tp : 1;
  return acc_mul3(&c->acc, tokens, acc_mul(&c->acc, bytes_ceildiv(ffn, tp), c->m->block.gated ? 3 : 2), v->a);
}

/* The larger of the modes' first captures; one_time: with the one-time allocations. */
static uint64_t graph_first_capture(ectx *c, const vcfg *v, bool one_time) {
  uint64_t pw, full, largest_full, largest_pw;
  capture_sizes_upto(c, v, 1, &pw, &full, &largest_full, &largest_pw);
  uint64_t top = v->v0 ? largest_full : largest_pw;
  uint64_t first = top ? graph_working_set(c, v, top) : 0;
  if (top && one_time) first = acc_add(&c->acc, first, VLLM_GRAPH_FIRST_MIB * MIB);
  return u64max(first, fa3_accum_bytes(c, v));
}

/* MoE layers with a shared expert (block ffn_dim wider than the routed experts': DeepSeek, Llama 4,
** Qwen2-MoE, Qwen3-Next / Qwen3.5 MoE) cost about twice a dense layer a graph: their per-layer-size
** cost over the dense VLLM_GRAPH_PER_MIB in the llm-d v0.19.0 sweep, (took - the larger printed first
** capture) / (layers x (sizes - 1)): Qwen1.5-MoE-A2.7B 0.408 (2.10 x), Llama-4-Scout tp 4 0.435 (2.24 x),
** DeepSeek-V2-Lite 0.398 (2.05 x); median 2.10. What holds the extra memory (the shared expert's own
** MLP kernels and its gate, the routed path's) is not read from the source. MoE layers without a
** shared expert (Mixtral 0.253, Qwen3-30B-A3B 0.243) stay at the dense cost: the Qwen3-30B-A3B
** tp 4 RTX 3090 hold-out (0.11.0, 1.92 GiB) is +8 % with it and would be +22 % at 1.28 x.
** Held out: Qwen3-Next-80B-A3B tp 2 on H200 (0.10.2, 2.37 GiB; test_graph_hybrid_full_v0102).
** The fitting models' shared experts run inside vLLM's SharedFusedMoE (deepseek_v2.py,
** qwen2_moe.py, llama4.py); a dense MLP run beside a plain FusedMoE is no shared expert
** (block.dense_beside_moe: Gemma 4's Gemma4MLP, gemma4.py): dense cost. Hold-out round 18
** (a public vLLM notes file, 0.25.1, gemma-4-26B-A4B online fp8 on one L40S): estimate 0.66,
** capture 0.65 GiB; 1.12 / 1.04 (+69 % / +60 %) at the shared-expert cost, 0.59 / 0.51 without. */
#define VLLM_GRAPH_SHARED_MOE 2.10
static uint64_t graph_per_size(ectx *c, uint64_t sizes) {
  const block_spec *b = &c->m->block;
  bool shared = b->experts > 0 && b->expert_ffn > 0 && b->ffn_dim > b->experts_per_tok * b->expert_ffn &&
                !b->dense_beside_moe;
  double unit = VLLM_GRAPH_PER_MIB * (shared ? VLLM_GRAPH_SHARED_MOE : 1.0);
  return acc_from_double(&c->acc, unit * MIB * (double)graph_layers(c) * (double)sizes);
}

static uint64_t cuda_graphs(ectx *c, const vcfg *v) {
  uint64_t n = v->graph_pw + v->graph_full;
  if (!n) return 0;
  uint64_t b = graph_first_capture(c, v, v->v0 || v->version < 20000);
  b = acc_add(&c->acc, b, graph_per_size(c, n - 1));
  b = acc_add(&c->acc, b, fi_capture_bytes(c, v));
  return acc_add(&c->acc, b, nccl_graph_bytes(c, v->nccl_pw + v->nccl_full));
}

/* vLLM's estimate captures real graphs (the first and second of each mode), so the NCCL
** collectives in them are measured and extrapolated with the rest: the same term over the
** NCCL sizes (assumed; no log prints an estimate with custom all-reduce off). Each mode's
** first capture is left out of the per-graph count, the one-time allocations counted where the
** run has FULL graphs.
** From 0.20 a run without FULL graphs takes no VLLM_GRAPH_FIRST_MIB in its estimate. In
** profile_cudagraph_memory only the FULL mode's warm-ups pass force_attention, and its first one
** runs attention at profile_seq_lens = min(max_model_len, max_num_tokens // size) over the
** profiling builders. PIECEWISE warm-ups and captures build no attention metadata. The 0.22 logs
** that showed the one-time part (estimates 0.05-0.09 GiB over their captures) all had FULL graphs.
** The PIECEWISE-only 0.20+ logs show none of it:
** - club-3090 PR #44 and #127: 0.17 GiB, +55 % with it, 0 % without;
** - club-3090 #356 and #104: 0.13, +63 % with it, -9 % without. #356 also prints "0.1 GiB
**   (actual), 0.13 GiB (estimated)" (vramfit's capture 0.119);
** - the one-GPU L40S "MTP k>=4" notes (0.24.0, no NCCL term): "0.22 GiB (actual), 0.22 GiB
**   (estimated)", +24 % with it, -18 % without.
** Which allocations make up the part is still not read from the source (tests/test_holdout23_vllm.c). Against
** this reading: the 0.19.0 H100 sweep prints it in the PIECEWISE mode's first sample; those runs had
** FULL graphs as well. Before 0.20 it stays, as fitted. */
#define VLLM_PW_ONLY_NO_ONE_TIME 20000
static uint64_t cuda_graph_estimate(ectx *c, const vcfg *v) {
  uint64_t n = v->graph_pw + v->graph_full;
  if (!n) return 0;
  uint64_t modes = (v->graph_pw > 0) + (v->graph_full > 0);
  bool one_time = v->graph_full > 0 || v->v0 || v->version < VLLM_PW_ONLY_NO_ONE_TIME;
  uint64_t first = u64max(graph_first_capture(c, v, one_time), fi_full_first_bytes(v));
  uint64_t b = acc_add(&c->acc, first, graph_per_size(c, n - modes));
  if (fi_full_first_bytes(v) && v->graph_full > 1) /* one more decode wrapper a further FULL size */
    b = acc_add(&c->acc, b, acc_mul(&c->acc, v->graph_full - 1, VLLM_FI_DECODE_INT_WORKSPACE_MIB * MIB));
  return acc_add(&c->acc, b, nccl_graph_bytes(c, v->nccl_pw + v->nccl_full));
}

/* The V0 engine gathers the logits to the driver worker (rank 0) alone and samples
** there (vllm/worker/model_runner.py: non-driver workers return before sampling), so
** with tp > 1 only the driver's profile run holds the sampler's buffers; it has the
** least KV room and sizes the cache. vllm-13061-r1-distill-qwen14b-2x4090: a worker
** printed 0.19 GiB, the driver's 1.22 GiB less KV shows in the 81,536 tokens. V1
** samples on every rank. */
static bool v0_driver_samples(const ectx *c, const vcfg *v) {
  return v->v0 && c->s->tp > 1;
}

/* Qwen3-VL's deepstack buffers (vllm/model_executor/models/qwen3_vl.py
** Qwen3VLForConditionalGeneration.__init__, "register buffer for deepstack": already in the file's
** early form at 002d7b93, which still carries the V0 path, and in 0.11.0, the first release with
** Qwen3-VL per its release notes; unchanged at 4f5768c7): one
** torch.zeros(max_num_batched_tokens, text hidden) per deepstack_visual_indexes entry, built in
** the model dtype on the device inside load_model, so "Model loading took" counts them; full
** width on every tp / pp rank (not a parallel layer). vllm.deepstack_width = levels x hidden
** (scripts/runtimes/vllm.lua). Hold-outs: Qwen3-VL-2B on an RTX 5070 Ti prints 4.24 GiB,
** Qwen3-VL-8B with max_num_batched_tokens 8192 16.78 GiB (tests/test_vllm.c
** test_qwen3_vl_vllm). */
static uint64_t deepstack_buffers(ectx *c, const vcfg *v) {
  uint64_t w = scn_u64(c->s, "vllm.deepstack_width", 0);
  return w ? est_elems_bytes(c, acc_mul(&c->acc, w, v->tokens), c->s->dtype) : 0;
}

/* One stage's rank: weights, profile peak, non-torch, KV = requested - the rest
** (minus the CUDA-graph estimate when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is
** set), blocks = KV // bytes per block. */
static void vllm_rank(ectx *c, const vcfg *v, const vgroups *g, bool hybrid, uint64_t stage, bool driver,
                      vrank *r) {
  bool last = stage + 1 == c->s->pp;
  r->draft = last ? draft_weights(c) : 0; /* the drafter sits with the last stage's head */
  r->lora = lora_weights(c, v, stage);
  r->weights = acc_add(&c->acc, acc_add(&c->acc, stage_weights(c, stage), r->draft), r->lora);
  r->weights = acc_add(&c->acc, r->weights, deepstack_buffers(c, v));
  r->act = activation_peak(c, v, last && (driver || !v0_driver_samples(c, v)));
  r->non_torch = non_torch(c, v, last);
  r->mamba = mamba_cache_v0(c, v, hybrid);
  uint64_t used = acc_add(&c->acc, acc_add(&c->acc, r->weights, r->act), r->non_torch);
  used = acc_add(&c->acc, used, r->mamba);
  /* the V2 runner estimates no graphs (vllm.lua model_runner): nothing leaves the budget */
  if (scn_bool(c->s, "runtime.memory_profiler_estimate_cudagraphs", false) && !v->v2)
    used = acc_add(&c->acc, used, cuda_graph_estimate(c, v));
  r->kv = v->requested > used ? v->requested - used : 0;
  uint64_t fixed = scn_u64(c->s, "runtime.kv_cache_memory_bytes", 0);
  if (fixed) r->kv = fixed;
  uint64_t per = stage_block_bytes(c, g, hybrid, stage);
  r->blocks = per ? r->kv / per : 0;
}

static void vllm_budget(ectx *c, const vcfg *v, const vrank *r, uint64_t kv_alloc, uint64_t need_kv) {
  budget *b = &c->e->b;
  const scenario *s = c->s;
  /* the rotary cache as rank_weights sizes it: none without RoPE (Mamba, Jamba, Nemotron-H,
  ** Granite 4.0-H), vllm.rope_bytes a row element where the model sets it (gpt-oss: fp32) */
  uint64_t rb = scn_u64(s, "vllm.rope_bytes", 0);
  const char *rope = !est_rope_elems(c) ? "no rotary cache" : rb == 4 ? "rotary cache in fp32" : "rotary cache in the model dtype";
  budget_add(b, "weights", r->weights - r->draft - r->lora, BASIS_EXACT, true,
             "per rank (tp %llu, pp %llu): vocabulary padded to 64, %s%s%s",
             (unsigned long long)s->tp, (unsigned long long)s->pp, rope,
             scn_u64(s, "vllm.deepstack_width", 0) ? ", deepstack buffers of max_num_batched_tokens" : "",
             scn_bool(s, "vllm.language_only", false) ? ", no vision tower (language-model-only)" : "");
  if (v->drafter) {
    budget_item *d = budget_add(b, "weights", r->draft, BASIS_EXACT, true,
                                "speculative decoding drafter (%s, %llu token(s)): the tensors vLLM allocates for it, "
                                "embedding/lm_head shared with the target where vLLM shares them",
                                v->spec, (unsigned long long)scn_u64(s, "spec.tokens", 0));
    if (d) d->component = "draft";
  }
  if (v->lora.on) {
    budget_item *l = budget_add(b, "weights", r->lora, BASIS_EXACT, true,
                                "LoRA slots: %llu adapter(s) x rank %llu in %llu-byte elements%s%s, stacked per "
                                "projection as vLLM's LoRA layers allocate them",
                                (unsigned long long)v->lora.loras, (unsigned long long)v->lora.rank,
                                (unsigned long long)v->lora.eb, v->lora.sharded ? ", fully sharded" : "",
                                v->lora.embed ? ", embed_tokens and lm_head included" : "");
    if (l) l->component = "lora";
  }
  char mm[160] = "";
  if (v->mm.on)
    snprintf(mm, sizeof mm, "; vision encoder on %llu dummy item(s) of %llu tokens: peak %.2f GiB, %.2f GiB kept",
             (unsigned long long)v->mm.items, (unsigned long long)v->mm.tokens, (double)v->mm.enc_peak / GIB,
             (double)v->mm.kept / GIB);
  budget_add(b, "activations", r->act, BASIS_CALIBRATED, true,
             "profile run: %llu batched tokens, sampler over %llu sequences x %llu vocab%s",
             (unsigned long long)v->fwd_tokens, (unsigned long long)v->smp_seqs, (unsigned long long)c->m->vocab, mm);
  budget_add(b, "comm_buffers", r->non_torch, BASIS_CALIBRATED, false,
             "non-torch memory of the profile run (cuBLAS, kernels%s)",
             s->tp > 1 ? (v->nvls ? ", NCCL NVLS buffers" : v->car_off ? ", NCCL" : ", NCCL and custom all-reduce") : "");
  if (r->mamba)
    budget_add(b, "kv_cache", r->mamba, BASIS_EXACT, true,
               "recurrent state (MambaCacheManager, before 0.10): %llu sequence slots x the Mamba layers' "
               "conv + SSM state, allocated in the profile run",
               (unsigned long long)mamba_slots(v));
  uint64_t kv = need_kv > kv_alloc ? need_kv : kv_alloc;
  budget_add(b, "kv_cache", kv, BASIS_MODELLED, true,
             need_kv > r->kv
                 ? "needed by %llu sequences x %llu tokens: more than the %.2f GiB vLLM can give"
                 : "gpu_memory_utilization x total - the rest (%llu x %llu tokens need %.2f GiB of it)",
             (unsigned long long)s->concurrency, (unsigned long long)s->context,
             (double)(need_kv > r->kv ? r->kv : need_kv) / GIB);
  char nccl[160] = "";
  if (v->nccl_pw + v->nccl_full)
    snprintf(nccl, sizeof nccl, "; %llu NCCL all-reduces in each of %llu sizes (%s%s)",
             (unsigned long long)est_graph_collectives(c), (unsigned long long)(v->nccl_pw + v->nccl_full),
             v->car_off ? "custom all-reduce off: " : "custom all-reduce on, messages of ",
             v->car_off ? v->car_off : "8 MiB and more");
  budget_add(b, "cuda_graphs", cuda_graphs(c, v), BASIS_CALIBRATED, true, "captured after KV sizing%s%s",
             v->eager ? " (enforce_eager: none)" : "", nccl);
  est_add_context(c, b, "CUDA context and loaded kernels before vLLM's profiling");
}

/* Largest request length whose blocks fit in `blocks` (what --max-model-len may be). */
static uint64_t longest_request(const vcfg *v, const vgroups *g, uint64_t blocks, bool hybrid) {
  uint64_t lo = 0, hi = 1ull << 30;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (request_blocks(v, g, mid, hybrid) <= blocks)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* vLLM's check that one request of max_model_len fits (kv_cache_utils.py get_kv_cache_configs ->
** _check_enough_kv_cache_memory, "To serve at least one request with the models's max seq len (X),
** (A GiB KV cache is needed ... (B GiB) ... the estimated maximum model length is N") under
** pipeline parallelism. PR #29431 (`--max-model-len auto`, commit 8ee90c8) made the check use the
** specs merged over every worker, the whole model's layers, against each worker's own memory;
** PR #33698 ("Fix PP KV cache sharding memory validation", fixes #32105) projects the groups onto
** each worker's layers again. In between a stage is refused unless it could hold the whole model's
** KV for one request: vllm#32105 (0.15.0rc1, zai-org/GLM-4.7-FP8, pp 8: 71.16 GiB needed = 92
** layers x 4,096 B x 202,752 tokens, 28.57 available, N 81,392) and vllm#34076 (0.15.2rc1.dev93,
** Qwen3-Coder-30B-A3B-Instruct-FP8, pp 2: 24.0 GiB = 48 layers x 2,048 B x 262,144, N 34,736 from
** 3.18 GiB). From 0.14.0 (the release PR #33698 names) to before 0.16.0 (assumed: the first release
** after the fix; the 0.15.2rc1 wheel still refuses); neither boundary is bisected. */
#define VLLM_PP_WHOLE_CHECK_FROM 14000
#define VLLM_PP_WHOLE_CHECK_UNTIL 16000
static bool pp_whole_model_check(const ectx *c, const vcfg *v) {
  return c->s->pp > 1 && !v->v0 && v->version >= VLLM_PP_WHOLE_CHECK_FROM && v->version < VLLM_PP_WHOLE_CHECK_UNTIL;
}

/* The arithmetic of vLLM's N ("the estimated maximum model length", a binary search over
** max_model_len of the KV bytes one request needs against a worker's available KV bytes) by release:
** - PR #16168 (April 2025, kv_cache_utils.py estimate_max_model_len / check_enough_kv_cache_memory,
**   called with each worker's specs: the 0.11 traceback of vllm#27508) to 0.13: the sum over the
**   worker's layers of each layer's spec.max_memory_usage_bytes (cdiv(len, block) pages for full
**   attention, cdiv(min(window - 1 + batched, len), block) + 1 for a sliding window, a Mamba state's
**   blocks): no padding layers. With one kind of layer it is cdiv(len, block) <= the worker's blocks.
** - from 0.14 (PR #29431's _max_memory_usage_bytes_from_groups / _estimate_max_model_len_from_groups;
**   the release is inferred, see VLLM_PP_WHOLE_CHECK_FROM): group_size x page x the blocks a request
**   takes in every group, the hybrid grouping's padding layers included, as the blocks themselves
**   (longest_request). Until PR #36030 (March 2026) that sum took the first group's blocks alone,
**   which is not modelled (a hybrid's N in the releases before it is not held by any log here).
** V0 prints num_gpu_blocks x block_size (worker.py raise_if_cache_size_invalid): the blocks. */
#define VLLM_FIT_GROUPS_FROM 14000
static uint64_t layers_bytes(ectx *c, const vcfg *v, const vgroups *g, uint64_t len, uint64_t stage) {
  uint64_t total = 0;
  for (int i = 0; i < g->n; i++) {
    const vspec *t = &g->t[i];
    uint64_t n = c->s->pp > 1 && t->all == c->m->layers ? stage_layers(c, stage) : t->layers;
    total = acc_add(&c->acc, total, acc_mul3(&c->acc, n, spec_blocks(v, t, len), t->page));
  }
  return total;
}

/* The longest max_model_len whose layers' bytes fit in `avail` (monotone in the length). */
static uint64_t longest_by_layers(ectx *c, const vcfg *v, const vgroups *g, uint64_t avail, uint64_t stage) {
  uint64_t lo = 0, hi = 1ull << 30;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (layers_bytes(c, v, g, mid, stage) <= avail)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* The groups of the whole model (every stage's layers), as the merged specs of the PP check. */
static void whole_model_groups(const vgroups *g, bool hybrid, vgroups *w) {
  *w = *g;
  for (int i = 0; i < w->n; i++) w->t[i].layers = w->t[i].all;
  vllm_grouping(w, hybrid);
}

/* The release from which "GPU KV cache size" prints int(max_concurrency x max_model_len)
** (report_kv_cache_config in vllm/v1/core/kv_cache_utils.py: "Sourcing this from the
** concurrency calculation handles hybrid layouts correctly"; the fix asked for in issue #40691,
** PRs #38364 / #40694 proposed it). Before, num_blocks // len(kv_cache_groups) x the smallest
** block size. The bounds are logs, not a bisection (no vLLM history could be read):
** - 0.20.0 prints the old figure: the vllm/vllm-openai:v0.20.0-cu130 image serving
**   RedHatAI/Qwen3.6-35B-A3B-NVFP4 (2096-token blocks, 65,536) printed "75,456 tokens" = 36 x
**   2096 beside "3.87x" (the product would be 253,624), and a v0.20.0 log of the same checkpoint
**   with MTP 2 at 262,144 (block 2128) "1,581,104 tokens" = 2973 / 4 x 2128 beside "21.86x";
** - the nightly 0.20.1rc1.dev16+g7a1eb8ac2 (github.com/noonghunna/club-3090 issue #46) still
**   printed "67,728 tokens" beside "1.06x" at 180,000 (the product would be 190,800);
** - a later main build, 0.20.1rc1.dev91 (Nemotron-Cascade-2 NVFP4, 256,000), prints 1,206,303 =
**   int(4.7121 x 256,000), and the 0.20.1 release image (engine init "v0.20.1", club-3090 issue
**   #91, Qwen3.6-27B AutoRound, tp 2, MTP 3) "619,479 tokens" beside "2.36x" at 262,144;
** - the 0.20.2 release (RedHatAI/Qwen3.6-35B-A3B-NVFP4, MTP 2, fp8, 262,144, block 2128) prints
**   "5,747,892 tokens" beside "21.93x": int(2982 / 136 x 262,144), not a multiple of 2128, and
**   its two log lines are adjacent (kv_cache_utils.py:1708 / 1709), the new function's shape;
** - 0.22.0 (Qwen3.5-4B: 137.80 x 1024 = 141,107) and 0.26.0 (issue #50456: 1.16x x 262,144 =
**   302,945) print the product.
** So from 0.20.1 (version code 20001; vramfit reads every "0.20.1rc1..." nightly as 0.20.1, so
** the early ones such as dev16 get the product too). */
#define VLLM_KV_TOKENS_PRODUCT 20001

/* act: the activation peak most ranks print (V0 with tp > 1: a worker's, without the
** driver's sampler); the KV figures are the binding rank's. */
static void vllm_figures(ectx *c, const vcfg *v, const vgroups *g, const vrank *r, uint64_t act,
                         uint64_t blocks, bool hybrid, uint64_t fit_len) {
  /* arch-mamba: an attention-free model (Mamba / Mamba2 / FalconMamba: one MambaSpec group and
  ** nothing else) has one block a request whose block_size is mamba_block_size = max_model_len
  ** (vllm/model_executor/models/config.py MambaModelConfig.verify_and_update_config, prefix
  ** caching off), the smallest block size of its groups, so "GPU KV cache size" prints
  ** num_blocks x max_model_len and the reported block size is max_model_len, not the 16 of the
  ** attention backends. */
  bool state_only = hybrid && est_model_attention_free(c->m);
  /* (mamba_cache_mode "align", prefix caching on: mamba_block_size = block_size instead) */
  uint64_t rep_bs = state_only && !v->mamba_align ? v->mml : v->bs;
  uint64_t tokens = hybrid ? acc_mul(&c->acc, blocks / g->n_groups, rep_bs) : blocks * v->bs;
  double conc =
      hybrid ? (double)blocks / (double)request_blocks(v, g, v->mml, true) : (double)tokens / (double)v->mml;
  if (v->version >= VLLM_KV_TOKENS_PRODUCT) {
    /* get_max_concurrency_for_kv_cache_config: the blocks over a request's blocks,
    ** cdiv(max_model_len, block_size) for full attention alone */
    if (!hybrid) conc = (double)blocks / (double)bytes_ceildiv(v->mml, v->bs);
    tokens = (uint64_t)(conc * (double)v->mml);
  }
  est_fig(c, "weights_bytes", r->weights);
  uint64_t absorbed = mla_absorbed_bytes(c, c->s->pp - 1);
  if (absorbed) est_fig(c, "mla_absorbed_copy_bytes", absorbed);
  if (v->spec[0]) {
    est_fig(c, "draft_weights_bytes", r->draft);
    est_fig(c, "num_speculative_tokens", scn_u64(c->s, "spec.tokens", 0));
  }
  if (v->lora.on) {
    est_fig(c, "lora_weights_bytes", r->lora);
    est_fig(c, "lora_activation_bytes", v->lora.act);
    est_fig(c, "max_loras", v->lora.loras);
    est_fig(c, "max_lora_rank", v->lora.rank);
  }
  est_fig(c, "activation_peak_bytes", act);
  est_fig(c, "non_torch_bytes", r->non_torch);
  est_fig(c, "cuda_graph_bytes", cuda_graphs(c, v));
  est_fig(c, "cuda_graph_estimate_bytes", v->v2 ? 0 : cuda_graph_estimate(c, v));
  est_fig(c, "cuda_graph_attn_accum_bytes", fa3_accum_bytes(c, v));
  est_fig(c, "cuda_graph_sizes_piecewise", v->graph_pw);
  est_fig(c, "cuda_graph_sizes_full", v->graph_full);
  if (c->s->tp > 1) {
    est_fig(c, "custom_all_reduce", v->car_off ? 0 : 1);
    est_fig(c, "cuda_graph_nccl_sizes", v->nccl_pw + v->nccl_full);
    est_fig(c, "cuda_graph_nccl_collectives", est_graph_collectives(c));
  }
  est_fig(c, "kv_cache_bytes", r->kv);
  if (r->mamba) est_fig(c, "mamba_cache_bytes", r->mamba);
  est_fig(c, "num_gpu_blocks", blocks);
  est_fig(c, "kv_cache_tokens", tokens);
  est_fig_real(c, "max_concurrency", conc);
  est_fig(c, "max_model_len_fit", fit_len);
  est_fig(c, "max_num_seqs", v->seqs);
  est_fig(c, "max_num_batched_tokens", v->tokens);
  est_fig(c, "block_size", rep_bs);
  if (!v->mm.on) return;
  est_fig(c, "mm_tokens_per_item", v->mm.tokens);
  est_fig(c, "mm_items_profiled", v->mm.items);
  est_fig(c, "encoder_peak_bytes", v->mm.enc_peak);
  est_fig(c, "encoder_output_bytes", v->mm.out);
  if (v->v0) est_fig(c, "profile_num_seqs", v->mm.seqs);
}

void vllm_estimate(ectx *c) {
  const scenario *s = c->s;
  vcfg v;
  vllm_config(c, &v);
  if (c->failed) return;
  if (v.spec[0] && s->pp > 1) {
    est_fail(c, "vllm: speculative decoding with pipeline parallelism is not modelled");
    return;
  }
  bool hybrid = vllm_hybrid(c, &v);
  vgroups g;
  vllm_specs(c, &v, &g, hybrid);
  if (c->failed) return;
  if (g.uniform_type) hybrid = false; /* one group of every layer: sized as without the hybrid allocator */
  vllm_grouping(&g, hybrid);
  /* --kv-cache-memory-bytes (vllm/v1/worker/gpu_worker.py determine_available_memory: a set
  ** kv_cache_memory_bytes is returned as the KV memory after the profile run, the utilization
  ** no longer sizing it). 0 is falsy there (the utilization rule again): said as an error here,
  ** as is a pool below one block (num_blocks 0: "No available memory for the cache blocks",
  ** kv_cache_utils.py check_enough_kv_cache_memory) */
  uint64_t fixed = scn_u64(s, "runtime.kv_cache_memory_bytes", 0);
  if (scn_find(s, "runtime.kv_cache_memory_bytes") && !fixed) {
    est_fail(c, "vllm: runtime.kv_cache_memory_bytes must be positive (omit it for the gpu_memory_utilization rule)");
    return;
  }
  for (uint64_t st = 0; fixed && st < (s->pp ? s->pp : 1); st++) {
    uint64_t b = stage_block_bytes(c, &g, hybrid, st);
    if (fixed < b) {
      est_fail(c, "vllm: runtime.kv_cache_memory_bytes (%llu B) is below one KV block (%llu B on stage %llu)",
               (unsigned long long)fixed, (unsigned long long)b, (unsigned long long)st);
      return;
    }
  }
  vrank r0, rl, worker;
  vllm_rank(c, &v, &g, hybrid, 0, true, &r0);
  worker = r0; /* the ranks of stage 0 without the V0 driver's sampler */
  if (v0_driver_samples(c, &v)) vllm_rank(c, &v, &g, hybrid, 0, false, &worker);
  /* the engine core takes the smallest KV over all workers (v1/engine/core.py); stages
  ** differ in their layers (stage_layers), the first's embeddings and the last's head */
  uint64_t blocks = r0.blocks, kv_min = r0.kv;
  bool by_layers = !v.v0 && v.version < VLLM_FIT_GROUPS_FROM;
  uint64_t fit_len = by_layers ? longest_by_layers(c, &v, &g, r0.kv, 0) : 0;
  for (uint64_t st = 1; st < s->pp && !c->failed; st++) {
    vllm_rank(c, &v, &g, hybrid, st, true, &rl);
    if (rl.blocks < blocks) blocks = rl.blocks;
    if (rl.kv < kv_min) kv_min = rl.kv;
    uint64_t l = by_layers ? longest_by_layers(c, &v, &g, rl.kv, st) : 0;
    if (l < fit_len) fit_len = l;
  }
  if (!by_layers) fit_len = longest_request(&v, &g, blocks, hybrid);
  uint64_t whole_need = 0;
  if (pp_whole_model_check(c, &v)) {
    /* the check's groups: every layer of the model against the smallest worker's KV memory */
    vgroups w;
    whole_model_groups(&g, hybrid, &w);
    uint64_t wb = block_bytes(c, &w, hybrid);
    uint64_t wl = longest_request(&v, &w, wb ? kv_min / wb : 0, hybrid);
    if (wl < fit_len) fit_len = wl;
    whole_need = acc_mul(&c->acc, request_blocks(&v, &w, v.mml, hybrid), wb);
  }
  /* the report's KV is stage 0's; what the workload needs is sized on the stage with the
  ** most layers (get_pp_indices gives middle stages the remainder: 94 at pp 4 is 23, 24, 24, 23) */
  uint64_t per = stage_block_bytes(c, &g, hybrid, 0), per_max = per;
  for (uint64_t st = 1; st < s->pp; st++) {
    uint64_t b = stage_block_bytes(c, &g, hybrid, st);
    if (b > per_max) per_max = b;
  }
  uint64_t need = acc_mul(&c->acc, s->concurrency, request_blocks(&v, &g, s->context, hybrid));
  uint64_t one = request_blocks(&v, &g, v.mml, hybrid);
  if (one > need) need = one;
  uint64_t need_kv = acc_mul(&c->acc, need, per_max);
  if (whole_need > need_kv && whole_need > kv_min) need_kv = whole_need; /* refused: said as needed */
  vllm_budget(c, &v, &r0, acc_mul(&c->acc, blocks, per), need_kv);
  vllm_figures(c, &v, &g, &r0, worker.act, blocks, hybrid, fit_len);
  if (v0_driver_samples(c, &v)) est_fig(c, "driver_activation_peak_bytes", r0.act);
  c->e->peak_phase = "serving (KV cache filled)";
  est_finish(c, &c->e->b);
  /* vLLM takes gpu_memory_utilization x total whatever the workload needs; for fit the
  ** workload needs its non-KV memory plus the KV of the requested sequences */
  uint64_t kv_all = budget_get(&c->e->b, "kv_cache"); /* part of total: no underflow */
  kv_all -= r0.mamba; /* the V0 recurrent state is allocated whatever the workload: always needed */
  c->e->required = acc_add(&c->acc, c->e->total - kv_all, need_kv);
  if (fixed) {
    /* a fixed pool is allocated whatever the workload needs, on every GPU alike (each worker
    ** returns the same bytes): the GPU must hold the rest and the pool. No GPU changes the pool,
    ** so a workload it cannot hold is refused at this layout (fit re-estimates each tensor-
    ** parallel count, whose ranks hold fewer KV heads a token in the same pool): one request of max_model_len
    ** above it stops vLLM at start (kv_cache_utils.py _check_enough_kv_cache_memory, "To serve
    ** at least one request with the models's max seq len"; vLLM's own estimated maximum model
    ** length, max_model_len_fit, is that check's arithmetic for the release), more sequences
    ** than its blocks hold wait in the queue */
    c->e->required = acc_add(&c->acc, c->e->total - kv_all, fixed);
    if (fit_len < v.mml)
      snprintf(c->e->refused, sizeof c->e->refused, "kv pool < 1 request");
    else if (need > blocks)
      snprintf(c->e->refused, sizeof c->e->refused, "kv pool < %llu seqs", (unsigned long long)s->concurrency);
  }
  est_fig_real(c, "gpu_memory_utilization_needed",
               s->gpu_memory ? (double)(c->e->required - s->cuda_context) / (double)s->gpu_memory : 0.0);
}
