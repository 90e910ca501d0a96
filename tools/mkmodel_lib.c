/*
** mkmodel_lib.c: synthetic GGUF and safetensors writers (see mkmodel_lib.h).
** The GGUF layout follows the GGUF spec as llama.cpp reads it (and
** ../shared/peers/llamacpp/gen_gguf.py); tensor sizes come from ggml_types.c.
*/
#define _POSIX_C_SOURCE 200809L
#include "mkmodel_lib.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ggml_types.h"

typedef unsigned long long ull;

static bool fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return false;
}

/* ---- buffers ---- */

void mk_buf_free(mk_buf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

void mk_put(mk_buf *b, const void *p, size_t n) {
  if (b->oom) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    uint8_t *q = realloc(b->p, cap);
    if (!q) {
      b->oom = true;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  if (p)
    memcpy(b->p + b->len, p, n);
  else
    memset(b->p + b->len, 0, n);
  b->len += n;
}

static void put_le(mk_buf *b, uint64_t v, unsigned n) {
  uint8_t x[8];
  for (unsigned i = 0; i < n; i++) x[i] = (uint8_t)(v >> (8 * i));
  mk_put(b, x, n);
}

void mk_u32(mk_buf *b, uint32_t v) { put_le(b, v, 4); }
void mk_u64(mk_buf *b, uint64_t v) { put_le(b, v, 8); }
void mk_zeros(mk_buf *b, size_t n) { mk_put(b, NULL, n); }

void mk_str(mk_buf *b, const char *s) {
  mk_u64(b, strlen(s));
  mk_put(b, s, strlen(s));
}

void mk_pad(mk_buf *b, size_t align) {
  mk_zeros(b, (align - b->len % align) % align);
}

/* ---- GGUF ---- */

enum { V_U32 = 4, V_I32 = 5, V_F32 = 6, V_BOOL = 7, V_STR = 8, V_ARR = 9 };

void mk_gguf_begin(mk_buf *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv) {
  mk_put(b, "GGUF", 4);
  mk_u32(b, version);
  mk_u64(b, n_tensors);
  mk_u64(b, n_kv);
}

void mk_kv_str(mk_buf *b, const char *key, const char *val) {
  mk_str(b, key);
  mk_u32(b, V_STR);
  mk_str(b, val);
}

void mk_kv_u32(mk_buf *b, const char *key, uint32_t v) {
  mk_str(b, key);
  mk_u32(b, V_U32);
  mk_u32(b, v);
}

void mk_kv_bool(mk_buf *b, const char *key, bool v) {
  mk_str(b, key);
  mk_u32(b, V_BOOL);
  mk_put(b, &(uint8_t){v ? 1 : 0}, 1);
}

void mk_kv_f32(mk_buf *b, const char *key, float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  mk_str(b, key);
  mk_u32(b, V_F32);
  mk_u32(b, u);
}

void mk_tensor_info(mk_buf *b, const char *name, uint32_t ndim, const uint64_t *ne,
                    uint32_t type, uint64_t offset) {
  mk_str(b, name);
  mk_u32(b, ndim);
  for (uint32_t i = 0; i < ndim; i++) mk_u64(b, ne[i]);
  mk_u32(b, type);
  mk_u64(b, offset);
}

void mk_llama_defaults(mk_llama *o) {
  *o = (mk_llama){.arch = "llama", .layers = 2, .embd = 64, .ff = 128, .heads = 4, .heads_kv = 2, .vocab = 256,
                  .ctx = 2048, .experts_used = 2, .type = GGML_T_F16, .file_type = 1};
}

typedef struct ftype_opt {
  const char *name;
  uint32_t type, file_type;
} ftype_opt;

/* file types as llama-quantize writes them (gen_gguf.py's FILE_TYPE) */
static const ftype_opt ftype_opts[] = {
    {"f32", GGML_T_F32, 0},   {"f16", GGML_T_F16, 1},    {"bf16", GGML_T_BF16, 32},
    {"q4_0", GGML_T_Q4_0, 2}, {"q4_1", GGML_T_Q4_1, 3},  {"q8_0", GGML_T_Q8_0, 7},
    {"q5_0", GGML_T_Q5_0, 8}, {"q5_1", GGML_T_Q5_1, 9},  {"q2_k", GGML_T_Q2_K, 10},
    {"q3_k", GGML_T_Q3_K, 12}, {"q4_k", GGML_T_Q4_K, 15}, {"q5_k", GGML_T_Q5_K, 17},
    {"q6_k", GGML_T_Q6_K, 18}, {"mxfp4", GGML_T_MXFP4, 38},
};

bool mk_llama_ftype(mk_llama *o, const char *ftype) {
  for (size_t i = 0; i < sizeof ftype_opts / sizeof ftype_opts[0]; i++)
    if (strcasecmp(ftype_opts[i].name, ftype) == 0) {
      o->type = ftype_opts[i].type;
      o->file_type = ftype_opts[i].file_type;
      return true;
    }
  return false;
}

typedef struct mk_t {
  char name[64];
  uint32_t ndim, type;
  uint64_t ne[3];
} mk_t;

/* Fall back like llama-quantize when a row is not whole blocks: Q8_0, F16. */
static uint32_t pick_type(uint32_t want, uint64_t ne0) {
  if (ne0 % ggml_type_get(want)->block == 0) return want;
  return ne0 % 32 == 0 ? GGML_T_Q8_0 : GGML_T_F16;
}

static void add_t(mk_t *t, size_t *n, const char *name, uint32_t ndim, uint64_t a,
                  uint64_t b2, uint64_t c, uint32_t type) {
  mk_t *x = &t[(*n)++];
  snprintf(x->name, sizeof x->name, "%s", name);
  x->ndim = ndim;
  x->ne[0] = a, x->ne[1] = b2, x->ne[2] = c;
  x->type = ndim == 1 ? GGML_T_F32 : pick_type(type, a);
}

static void layer_tensors(const mk_llama *o, unsigned i, mk_t *t, size_t *n) {
  char nm[64];
  uint64_t e = o->embd, hd = o->embd / o->heads, q = hd * o->heads, kv = hd * o->heads_kv;
#define L(s, nd, a, b2, c)                            \
  snprintf(nm, sizeof nm, "blk.%u." s ".weight", i); \
  add_t(t, n, nm, nd, a, b2, c, o->type)
  L("attn_norm", 1, e, 1, 1);
  L("attn_q", 2, e, q, 1);
  L("attn_k", 2, e, kv, 1);
  L("attn_v", 2, e, kv, 1);
  L("attn_output", 2, q, e, 1);
  L("ffn_norm", 1, e, 1, 1);
  if (o->experts) {
    L("ffn_gate_inp", 2, e, o->experts, 1);
    t[*n - 1].type = GGML_T_F32;
    L("ffn_gate_exps", 3, e, o->ff, o->experts);
    L("ffn_down_exps", 3, o->ff, e, o->experts);
    L("ffn_up_exps", 3, e, o->ff, o->experts);
  } else {
    L("ffn_gate", 2, e, o->ff, 1);
    L("ffn_down", 2, o->ff, e, 1);
    L("ffn_up", 2, e, o->ff, 1);
  }
#undef L
}

/* ---- newer architectures: block il's tensors as llama.cpp's load_arch_tensors creates them ---- */

static bool is_arch(const mk_llama *o, const char *a) { return strcmp(o->arch, a) == 0; }
static bool deltanet(const mk_llama *o) {
  return is_arch(o, "qwen3next") || is_arch(o, "qwen35") || is_arch(o, "qwen35moe");
}
/* qwen2 (Q/K/V biases), qwen3 and qwen3moe (Q/K RMS norms): llama's layer otherwise */
static bool qwen_arch(const mk_llama *o) {
  return is_arch(o, "qwen2") || is_arch(o, "qwen2vl") || is_arch(o, "qwen3") || is_arch(o, "qwen3moe");
}
/* qwen2moe (Qwen1.5-MoE, Qwen2-57B-A14B; llama.cpp src/models/qwen2moe.cpp): qwen2's biased
** attention, routed experts and a shared expert (--shared wide, else --expert-ff) gated by
** ffn_gate_inp_shexp {n_embd} */
static bool qwen2moe(const mk_llama *o) { return is_arch(o, "qwen2moe"); }
/* lfm2: attention every --interval-th layer (default 3), the others a gated short conv of
** kernel --ssm-conv (shortconv.l_cache) */
static bool lfm2_attn(const mk_llama *o, unsigned il) {
  unsigned p = o->interval ? o->interval : 3;
  return (il + 1) % p == 0;
}
/* granitehybrid: Mamba-2 layers but every --interval-th (default 3) an attention layer */
static bool granite_h(const mk_llama *o) { return is_arch(o, "granitehybrid"); }
/* nemotron_h (src/models/nemotron-h.cpp): one mixer a layer, by hybrid_override_pattern; here
** even layers Mamba-2 ('M'), odd ones alternately a squared-ReLU MLP ('-', il % 4 == 1) and
** attention ('*', il % 4 == 3): 7 layers "M-M*M-M" */
static bool nemo_h(const mk_llama *o) { return is_arch(o, "nemotron_h") || is_arch(o, "nemotron_h_moe"); }
/* nemotron_h_moe (Nemotron 3; conversion/nemotron.py NemotronHModel with num_experts_per_tok):
** nemotron_h's layers with MoE ('E') layers where the dense one has MLP ('-') layers */
static bool nemo_moe(const mk_llama *o) { return is_arch(o, "nemotron_h_moe"); }
/* hunyuan-moe (Hunyuan-A13B; src/models/hunyuan-moe.cpp): q/k norms, routed experts of
** feed_forward_length (load_arch_tensors creates ffn_*_exps with n_ff) and a shared expert of
** expert_shared_feed_forward_length in every layer */
static bool hunyuan_moe(const mk_llama *o) { return is_arch(o, "hunyuan-moe"); }
/* kimi-linear (Kimi Linear; src/models/kimi-linear.cpp): KDA layers (--ssm-state the KDA head size,
** --heads heads, kernel --ssm-conv) with MLA (--kv-lora, --rope, --head-dim the MLA q/k head, no
** q_lora) every --interval-th layer and the last; the first --dense-lead layers a dense FFN, the
** others 4 experts (top 2) of --expert-ff and --shared shared experts */
static bool kimi_lin(const mk_llama *o) { return is_arch(o, "kimi-linear"); }
static bool kimi_mla(const mk_llama *o, unsigned il) {
  return il == o->layers - 1 || (il + 1) % (o->interval ? o->interval : 4) == 0;
}
/* gemma4 (src/models/gemma4.cpp load_arch_hparams / load_arch_tensors) */
static bool gemma4(const mk_llama *o) { return is_arch(o, "gemma4"); }
static bool g4_full(const mk_llama *o, unsigned il) {
  return il == o->layers - 1 || (il + 1) % (o->interval ? o->interval : 6) == 0;
}
static unsigned g4_hd(const mk_llama *o, unsigned il) {
  return g4_full(o, il) ? (o->g_head_dim ? o->g_head_dim : 2 * o->head_dim) : o->head_dim;
}
static unsigned g4_kvh(const mk_llama *o, unsigned il) {
  return g4_full(o, il) && o->g_heads_kv ? o->g_heads_kv : o->heads_kv;
}
static unsigned g4_ff(const mk_llama *o, unsigned il) {
  return o->double_wide && il >= o->layers - o->kv_shared ? 2 * o->ff : o->ff;
}
/* falcon-h1 (src/models/falcon-h1.cpp): attention and a Mamba-2 mixer in every layer, then a
** SwiGLU FFN; no ssm_norm (the released models' mamba_rms_norm false), ffn_norm without a
** ".weight" suffix (load_arch_tensors: tn(LLM_TENSOR_FFN_NORM, i)) */
static bool falcon_h(const mk_llama *o) { return is_arch(o, "falcon-h1"); }
/* jamba (src/models/jamba.cpp): Mamba-1 layers (d_inner 2 x embd, dt_rank embd / 16, state
** --ssm-state, kernel --ssm-conv) but every --interval-th (default 3) an attention layer; the FFN
** routed on odd layers (expert_layer_period 2, offset 1), dense on even ones */
static bool jamba(const mk_llama *o) { return is_arch(o, "jamba"); }
/* attention-free mamba / mamba2 (src/models/mamba.cpp, mamba2.cpp load_arch_tensors; conversion/mamba.py
** MambaModel / Mamba2Model: feed_forward_length 0, attention.head_count 0, d_inner 2 x embd) */
static bool mamba_pure(const mk_llama *o) { return is_arch(o, "mamba") || is_arch(o, "mamba2"); }
/* dbrx (src/models/dbrx.cpp load_arch_tensors): LayerNorm without bias (attn_norm), fused attn_qkv, attn_output,
** attn_output_norm before the MoE, experts of feed_forward_length (ffn_*_exps with n_ff) in every layer */
static bool dbrx(const mk_llama *o) { return is_arch(o, "dbrx"); }
/* bailingmoe2 (Ling 2.0; src/models/bailingmoe2.cpp load_arch_tensors): fused attn_qkv, q/k norms, the first
** --dense-lead layers a dense FFN, the others experts of --expert-ff with exp_probs_b and --shared shared
** experts of --expert-ff each (n_ff_shexp = n_ff_exp x n_expert_shared) */
static bool bailing2(const mk_llama *o) { return is_arch(o, "bailingmoe2"); }
/* minicpm3 (MiniCPM3; src/models/minicpm3.cpp load_arch_tensors): MLA projections with wkv_b whole
** (attn_kv_b {kv_lora, heads x (nope + v)}, the per-head K and V decompressed), q_lora required, V
** heads embd / heads wide (conversion/minicpm.py writes no value_length), a dense SwiGLU FFN; the
** rope_factors_long / _short of --rope / 2 (the converter's rope_scaling long / short factors) */
static bool minicpm3(const mk_llama *o) { return is_arch(o, "minicpm3"); }
/* afmoe (Arcee AFMoE / Trinity; src/models/afmoe.cpp load_arch_tensors): q/k norms, attn_gate {embd,
** heads x head}, post-attention and post-FFN norms, the first --dense-lead layers a dense FFN, the others
** experts of --expert-ff with exp_probs_b and --shared shared experts (n_ff_exp x n_expert_shared wide);
** --swa (default 128) the window of 3 layers in 4 */
static bool afmoe(const mk_llama *o) { return is_arch(o, "afmoe"); }
static char nemo_kind(unsigned il) { return il % 2 == 0 ? 'M' : il % 4 == 1 ? '-' : '*'; }
/* arch-dense: llama.cpp's non-gated dense families (up / down FFN): arcee (ReLU^2), apertus (xIELU,
** per-head Q/K norms, its four scalars as per-layer metadata arrays), nemotron (LayerNorm with bias) */
static bool dense_nogate(const mk_llama *o) {
  return is_arch(o, "arcee") || is_arch(o, "apertus") || is_arch(o, "nemotron");
}
/* the LayerNorm families llama.cpp builds with LLM_NORM and biases (gpt2.cpp, gptneox.cpp, phi2.cpp,
** bloom.cpp, falcon.cpp, starcoder2.cpp load_arch_tensors) */
static bool ln_family(const mk_llama *o) {
  return is_arch(o, "gpt2") || is_arch(o, "gptneox") || is_arch(o, "phi2") || is_arch(o, "bloom") ||
         is_arch(o, "falcon") || is_arch(o, "starcoder2");
}
static bool newer_arch(const mk_llama *o) {
  return is_arch(o, "glm4moe") || is_arch(o, "lfm2") || granite_h(o) || hunyuan_moe(o) || dbrx(o) || bailing2(o) || gemma4(o) || kimi_lin(o) || nemo_h(o) || falcon_h(o) || jamba(o) || mamba_pure(o) || deltanet(o) || is_arch(o, "llama4") || is_arch(o, "deepseek2") || qwen_arch(o) ||
         qwen2moe(o) || is_arch(o, "gemma2") || is_arch(o, "gemma3") || is_arch(o, "gpt-oss") || is_arch(o, "phi3") ||
         is_arch(o, "mistral3") || dense_nogate(o) || is_arch(o, "olmo2") || is_arch(o, "stablelm") ||
         is_arch(o, "starcoder") || is_arch(o, "exaone") || ln_family(o) || minicpm3(o) || afmoe(o);
}
static unsigned head_dim(const mk_llama *o) { return o->head_dim ? o->head_dim : o->embd / o->heads; }
static unsigned expert_ff(const mk_llama *o) { return o->expert_ff ? o->expert_ff : o->ff; }

/* name "blk.<il>.<s>" (a ".weight" suffix unless s has its own) with ne a x b x c */
static void blk_t(mk_t *t, size_t *n, unsigned il, const char *s, uint32_t nd, uint64_t a, uint64_t b2,
                  uint64_t c, uint32_t type) {
  char nm[64];
  snprintf(nm, sizeof nm, "blk.%u.%s%s", il, s, strchr(s, '.') || !strcmp(s, "ssm_a") || !strcmp(s, "ssm_d") ? "" : ".weight");
  add_t(t, n, nm, nd, a, b2, c, type);
}

/* routed experts (router F32), shared experts of width sff (0: none), or a dense FFN */
static void moe_ffn(const mk_llama *o, unsigned il, bool moe, uint64_t sff, bool probs_b, mk_t *t, size_t *n) {
  uint64_t e = o->embd, f = expert_ff(o), E = o->experts;
  if (!moe) {
    blk_t(t, n, il, "ffn_gate", 2, e, o->ff, 1, o->type);
    blk_t(t, n, il, "ffn_down", 2, o->ff, e, 1, o->type);
    blk_t(t, n, il, "ffn_up", 2, e, o->ff, 1, o->type);
    return;
  }
  blk_t(t, n, il, "ffn_gate_inp", 2, e, E, 1, GGML_T_F32);
  if (probs_b) blk_t(t, n, il, "exp_probs_b.bias", 1, E, 1, 1, GGML_T_F32);
  if (o->gate_up) {
    blk_t(t, n, il, "ffn_gate_up_exps", 3, e, 2 * f, E, o->type);
    blk_t(t, n, il, "ffn_down_exps", 3, f, e, E, o->type);
  } else {
    blk_t(t, n, il, "ffn_gate_exps", 3, e, f, E, o->type);
    blk_t(t, n, il, "ffn_down_exps", 3, f, e, E, o->type);
    blk_t(t, n, il, "ffn_up_exps", 3, e, f, E, o->type);
  }
  if (!sff) return;
  if (deltanet(o) || qwen2moe(o)) blk_t(t, n, il, "ffn_gate_inp_shexp", 1, e, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ffn_gate_shexp", 2, e, sff, 1, o->type);
  blk_t(t, n, il, "ffn_down_shexp", 2, sff, e, 1, o->type);
  blk_t(t, n, il, "ffn_up_shexp", 2, e, sff, 1, o->type);
}

/* q (x2 with the DeltaNet models' output gate), k, v (+ biases), o, q/k norms */
static void attn_block(const mk_llama *o, unsigned il, uint64_t q, bool bias, bool qk_norm, mk_t *t, size_t *n) {
  uint64_t e = o->embd, hd = head_dim(o), kv = hd * o->heads_kv;
  blk_t(t, n, il, "attn_q", 2, e, q, 1, o->type);
  blk_t(t, n, il, "attn_k", 2, e, kv, 1, o->type);
  blk_t(t, n, il, "attn_v", 2, e, kv, 1, o->type);
  if (bias) {
    blk_t(t, n, il, "attn_q.bias", 1, q, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_k.bias", 1, kv, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_v.bias", 1, kv, 1, 1, GGML_T_F32);
  }
  blk_t(t, n, il, "attn_output", 2, hd * o->heads, e, 1, o->type);
  if (qk_norm) {
    blk_t(t, n, il, "attn_q_norm", 1, hd, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_k_norm", 1, hd, 1, 1, GGML_T_F32);
  }
}

/* the gated DeltaNet mixer (qwen3next: ssm_ba fused; qwen35*: ssm_beta, ssm_alpha) */
static void deltanet_block(const mk_llama *o, unsigned il, mk_t *t, size_t *n) {
  uint64_t e = o->embd, key = (uint64_t)o->ssm_state * o->ssm_groups, val = (uint64_t)o->ssm_state * o->ssm_vheads;
  blk_t(t, n, il, "attn_qkv", 2, e, 2 * key + val, 1, o->type);
  blk_t(t, n, il, "attn_gate", 2, e, val, 1, o->type);
  blk_t(t, n, il, "ssm_conv1d", 2, o->ssm_conv, 2 * key + val, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_dt.bias", 1, o->ssm_vheads, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_a", 1, o->ssm_vheads, 1, 1, GGML_T_F32);
  if (is_arch(o, "qwen3next")) {
    blk_t(t, n, il, "ssm_ba", 2, e, 2 * o->ssm_vheads, 1, o->type);
  } else {
    blk_t(t, n, il, "ssm_beta", 2, e, o->ssm_vheads, 1, o->type);
    blk_t(t, n, il, "ssm_alpha", 2, e, o->ssm_vheads, 1, o->type);
  }
  blk_t(t, n, il, "ssm_norm", 1, o->ssm_state, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_out", 2, val, e, 1, o->type);
}

/* deepseek2's MLA: q_a/q_b (or q), kv_a_mqa, k_b and v_b per head (3-D), output */
static void mla_block(const mk_llama *o, unsigned il, mk_t *t, size_t *n) {
  uint64_t e = o->embd, nh = o->heads, kmla = head_dim(o), nope = kmla - o->rope, vmla = head_dim(o);
  if (o->q_lora) {
    blk_t(t, n, il, "attn_q_a_norm", 1, o->q_lora, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_q_a", 2, e, o->q_lora, 1, o->type);
    blk_t(t, n, il, "attn_q_b", 2, o->q_lora, nh * kmla, 1, o->type);
  } else {
    blk_t(t, n, il, "attn_q", 2, e, nh * kmla, 1, o->type);
  }
  blk_t(t, n, il, "attn_kv_a_norm", 1, o->kv_lora, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "attn_kv_a_mqa", 2, e, o->kv_lora + o->rope, 1, o->type);
  blk_t(t, n, il, "attn_k_b", 3, nope, o->kv_lora, nh, o->type);
  blk_t(t, n, il, "attn_v_b", 3, o->kv_lora, vmla, nh, o->type);
  blk_t(t, n, il, "attn_output", 2, nh * vmla, e, 1, o->type);
}

/* A Mamba-2 mixer (mamba-base.cpp build_mamba2_layer's tensors, llama.cpp 80fb11a): in_proj
** {embd, 2 d_inner + 2 G N + H}, the conv1d kernel and bias, dt_bias, A and D per head, the
** grouped norm {d_inner / G, G} (absent in Falcon-H1's released models), out_proj */
static void mamba2_mixer(const mk_llama *o, unsigned il, uint64_t di, bool norm, mk_t *t, size_t *n) {
  uint64_t e = o->embd, gn = (uint64_t)o->ssm_groups * o->ssm_state, H = o->ssm_vheads;
  blk_t(t, n, il, "ssm_in", 2, e, 2 * di + 2 * gn + H, 1, o->type);
  blk_t(t, n, il, "ssm_conv1d", 2, o->ssm_conv, di + 2 * gn, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_conv1d.bias", 1, di + 2 * gn, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_dt.bias", 1, H, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_a", 2, 1, H, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_d", 2, 1, H, 1, GGML_T_F32);
  if (norm) blk_t(t, n, il, "ssm_norm", 2, di / o->ssm_groups, o->ssm_groups, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_out", 2, di, e, 1, o->type);
}

/* A Mamba-1 mixer (build_mamba_layer's tensors): in_proj {embd, 2 d_inner}, the conv1d kernel and
** bias, x_proj {d_inner, dt_rank + 2 N}, dt_proj and its bias, A {N, d_inner}, D, out_proj; with
** norms (Jamba) the dt / B / C RMS norms' weights */
static void mamba1_mixer(const mk_llama *o, unsigned il, uint64_t di, bool norms, mk_t *t, size_t *n) {
  uint64_t e = o->embd, N = o->ssm_state, R = (e + 15) / 16; /* dt_rank ceil(embd / 16): "auto" */
  blk_t(t, n, il, "ssm_in", 2, e, 2 * di, 1, o->type);
  blk_t(t, n, il, "ssm_conv1d", 2, o->ssm_conv, di, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_conv1d.bias", 1, di, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_x", 2, di, R + 2 * N, 1, o->type);
  if (norms) blk_t(t, n, il, "ssm_dt_norm", 1, R, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_dt", 2, R, di, 1, o->type);
  blk_t(t, n, il, "ssm_dt.bias", 1, di, 1, 1, GGML_T_F32);
  if (norms) {
    blk_t(t, n, il, "ssm_b_norm", 1, N, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ssm_c_norm", 1, N, 1, 1, GGML_T_F32);
  }
  blk_t(t, n, il, "ssm_a", 2, N, di, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_d", 1, di, 1, 1, GGML_T_F32);
  blk_t(t, n, il, "ssm_out", 2, di, e, 1, o->type);
}

static void newer_layer(const mk_llama *o, unsigned il, mk_t *t, size_t *n) {
  uint64_t e = o->embd, q = (uint64_t)head_dim(o) * o->heads;
  bool mtp = il >= o->layers, post = is_arch(o, "glm4moe") || deltanet(o);
  if (!is_arch(o, "olmo2")) blk_t(t, n, il, "attn_norm", 1, e, 1, 1, GGML_T_F32); /* olmo2: post-norms only */
  if (mamba_pure(o)) { /* mamba.cpp / mamba2.cpp load_arch_tensors (llama.cpp 80fb11a): d_inner 2 x embd */
    if (is_arch(o, "mamba")) mamba1_mixer(o, il, 2 * e, false, t, n);
    else mamba2_mixer(o, il, 2 * e, true, t, n);
    return;
  }
  if (jamba(o)) { /* src/models/jamba.cpp load_arch_tensors */
    if (lfm2_attn(o, il)) {
      attn_block(o, il, q, false, false, t, n);
    } else {
      mamba1_mixer(o, il, 2 * e, true, t, n);
    }
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, o->experts > 0 && il % 2 == 1, 0, false, t, n);
    return;
  }
  if (bailing2(o)) {
    blk_t(t, n, il, "attn_qkv", 2, e, q + 2 * (uint64_t)head_dim(o) * o->heads_kv, 1, o->type);
    blk_t(t, n, il, "attn_q_norm", 1, head_dim(o), 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_k_norm", 1, head_dim(o), 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_output", 2, q, e, 1, o->type);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, il >= o->dense_lead, (uint64_t)expert_ff(o) * o->shared, true, t, n);
    return;
  }
  if (dbrx(o)) {
    blk_t(t, n, il, "attn_qkv", 2, e, q + 2 * (uint64_t)head_dim(o) * o->heads_kv, 1, o->type);
    blk_t(t, n, il, "attn_output", 2, q, e, 1, o->type);
    blk_t(t, n, il, "attn_output_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, true, 0, false, t, n);
    return;
  }
  if (falcon_h(o)) {
    mamba2_mixer(o, il, 2 * e, false, t, n); /* Falcon-H1: no grouped norm */
    attn_block(o, il, q, false, false, t, n);
    char nm[64];
    snprintf(nm, sizeof nm, "blk.%u.ffn_norm", il);
    add_t(t, n, nm, 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, false, 0, false, t, n);
    return;
  }
  if (kimi_lin(o)) { /* kimi-linear.cpp load_arch_tensors */
    uint64_t H = o->heads, d = o->ssm_state, dH = d * H, K = o->ssm_conv;
    if (!kimi_mla(o, il)) {
      blk_t(t, n, il, "ssm_conv1d_q", 3, K, 1, dH, GGML_T_F32);
      blk_t(t, n, il, "ssm_conv1d_k", 3, K, 1, dH, GGML_T_F32);
      blk_t(t, n, il, "ssm_conv1d_v", 3, K, 1, dH, GGML_T_F32);
      blk_t(t, n, il, "attn_q", 2, e, dH, 1, o->type);
      blk_t(t, n, il, "attn_k", 2, e, dH, 1, o->type);
      blk_t(t, n, il, "attn_v", 2, e, dH, 1, o->type);
      blk_t(t, n, il, "ssm_f_a", 2, e, d, 1, o->type);
      blk_t(t, n, il, "ssm_f_b", 2, d, dH, 1, o->type);
      blk_t(t, n, il, "ssm_beta", 2, e, H, 1, o->type);
      blk_t(t, n, il, "ssm_a", 2, 1, H, 1, GGML_T_F32);
      blk_t(t, n, il, "ssm_dt.bias", 1, dH, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "ssm_g_a", 2, e, d, 1, o->type);
      blk_t(t, n, il, "ssm_g_b", 2, d, dH, 1, o->type);
      blk_t(t, n, il, "ssm_norm", 1, d, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "attn_output", 2, dH, e, 1, o->type);
    } else { /* MLA without q_lora, wkv_b split (attn_k_b / attn_v_b: the MLA KV cache) */
      uint64_t dk = head_dim(o), nope = dk - o->rope;
      blk_t(t, n, il, "attn_kv_a_norm", 1, o->kv_lora, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "attn_q", 2, e, H * dk, 1, o->type);
      blk_t(t, n, il, "attn_kv_a_mqa", 2, e, o->kv_lora + o->rope, 1, o->type);
      blk_t(t, n, il, "attn_k_b", 3, nope, o->kv_lora, H, o->type);
      blk_t(t, n, il, "attn_v_b", 3, o->kv_lora, dk, H, o->type);
      blk_t(t, n, il, "attn_output", 2, H * dk, e, 1, o->type);
    }
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, il >= o->dense_lead, (uint64_t)expert_ff(o) * (o->shared ? o->shared : 1), true, t, n);
    return;
  }
  if (gemma4(o)) { /* gemma4.cpp load_arch_tensors */
    uint64_t hd = g4_hd(o, il), kv = hd * g4_kvh(o, il), f = g4_ff(o, il), p = o->ple;
    bool has_kv = il < o->layers - o->kv_shared;
    blk_t(t, n, il, "attn_q", 2, e, hd * o->heads, 1, o->type);
    if (has_kv) blk_t(t, n, il, "attn_k", 2, e, kv, 1, o->type);
    if (has_kv && !(o->k_eq_v && g4_full(o, il))) blk_t(t, n, il, "attn_v", 2, e, kv, 1, o->type);
    blk_t(t, n, il, "attn_output", 2, hd * o->heads, e, 1, o->type);
    blk_t(t, n, il, "attn_q_norm", 1, hd, 1, 1, GGML_T_F32);
    if (has_kv) blk_t(t, n, il, "attn_k_norm", 1, hd, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "post_attention_norm", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "layer_output_scale", 1, 1, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_gate", 2, e, f, 1, o->type);
    blk_t(t, n, il, "ffn_up", 2, e, f, 1, o->type);
    blk_t(t, n, il, "ffn_down", 2, f, e, 1, o->type);
    blk_t(t, n, il, "post_ffw_norm", 1, e, 1, 1, GGML_T_F32);
    if (o->experts) { /* conversion/gemma.py Gemma4Model: router.scale -> ffn_gate_inp.scale,
                      ** per_expert_scale -> ffn_down_exps.scale, the fused gate_up_proj */
      uint64_t E = o->experts, x = expert_ff(o);
      blk_t(t, n, il, "ffn_gate_inp", 2, e, E, 1, GGML_T_F32);
      blk_t(t, n, il, "ffn_gate_inp.scale", 1, e, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "pre_ffw_norm_2", 1, e, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "post_ffw_norm_1", 1, e, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "post_ffw_norm_2", 1, e, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "ffn_gate_up_exps", 3, e, 2 * x, E, o->type);
      blk_t(t, n, il, "ffn_down_exps", 3, x, e, E, o->type);
      blk_t(t, n, il, "ffn_down_exps.scale", 1, E, 1, 1, GGML_T_F32);
    }
    if (p) {
      blk_t(t, n, il, "inp_gate", 2, e, p, 1, o->type);
      blk_t(t, n, il, "proj", 2, p, e, 1, o->type);
      blk_t(t, n, il, "post_norm", 1, e, 1, 1, GGML_T_F32);
    }
    return;
  }
  if (nemo_h(o)) { /* src/models/nemotron-h.cpp load_arch_tensors (nemotron_h_moe: experts on the '-' layers) */
    char c = nemo_kind(il);
    if (c == '*') {
      attn_block(o, il, q, false, false, t, n);
    } else if (c == '-' && nemo_moe(o)) { /* nemotron-h.cpp load_arch_tensors, n_expert != 0: no gates */
      uint64_t f = expert_ff(o), E = o->experts, sff = o->shared ? o->shared : f;
      blk_t(t, n, il, "ffn_gate_inp", 2, e, E, 1, GGML_T_F32);
      blk_t(t, n, il, "exp_probs_b.bias", 1, E, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "ffn_down_exps", 3, f, e, E, o->type);
      blk_t(t, n, il, "ffn_up_exps", 3, e, f, E, o->type);
      blk_t(t, n, il, "ffn_down_shexp", 2, sff, e, 1, o->type);
      blk_t(t, n, il, "ffn_up_shexp", 2, e, sff, 1, o->type);
    } else if (c == '-') {
      blk_t(t, n, il, "ffn_down", 2, o->ff, e, 1, o->type);
      blk_t(t, n, il, "ffn_up", 2, e, o->ff, 1, o->type);
    } else {
      mamba2_mixer(o, il, 2 * e, true, t, n);
    }
    return;
  }
  if (granite_h(o)) { /* src/models/granite-hybrid.cpp load_arch_tensors, dense FFN */
    if (lfm2_attn(o, il)) {
      attn_block(o, il, q, false, false, t, n);
    } else { /* Mamba-2: d_inner 2 x embd, --ssm-vheads heads, --ssm-groups groups of --ssm-state */
      mamba2_mixer(o, il, 2 * e, true, t, n);
    }
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    /* experts of feed_forward_length (granite-hybrid.cpp: n_ff), shared experts of --shared */
    moe_ffn(o, il, o->experts > 0, o->experts ? o->shared : 0, false, t, n);
    return;
  }
  if (is_arch(o, "lfm2")) { /* src/models/lfm2.cpp load_arch_tensors */
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, false, 0, false, t, n);
    if (lfm2_attn(o, il)) {
      attn_block(o, il, q, false, true, t, n);
    } else {
      blk_t(t, n, il, "shortconv.conv.weight", 2, o->ssm_conv, e, 1, GGML_T_F32);
      blk_t(t, n, il, "shortconv.in_proj.weight", 2, e, 3 * e, 1, o->type);
      blk_t(t, n, il, "shortconv.out_proj.weight", 2, e, e, 1, o->type);
    }
    return;
  }
  if (deltanet(o)) {
    bool full = mtp || (il + 1) % (o->interval ? o->interval : 4) == 0;
    if (full) attn_block(o, il, 2 * q, false, true, t, n);
    else deltanet_block(o, il, t, n);
    uint64_t sff = o->shared ? o->shared : expert_ff(o);
    moe_ffn(o, il, !is_arch(o, "qwen35"), sff, false, t, n);
  } else if (is_arch(o, "glm4moe")) {
    attn_block(o, il, q, true, false, t, n);
    moe_ffn(o, il, il >= o->dense_lead, (uint64_t)expert_ff(o) * o->shared, true, t, n);
  } else if (qwen_arch(o)) {
    bool q2 = is_arch(o, "qwen2") || is_arch(o, "qwen2vl");
    attn_block(o, il, q, q2, !q2, t, n);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, is_arch(o, "qwen3moe"), 0, false, t, n);
  } else if (hunyuan_moe(o)) {
    attn_block(o, il, q, false, true, t, n);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, true, o->shared ? o->shared : o->ff, false, t, n);
  } else if (qwen2moe(o)) {
    attn_block(o, il, q, true, false, t, n);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, true, o->shared ? o->shared : expert_ff(o), false, t, n);
  } else if (is_arch(o, "gemma2") || is_arch(o, "gemma3")) { /* gemma3's Q/K norms; post-norms, GELU FFN */
    attn_block(o, il, q, false, is_arch(o, "gemma3"), t, n);
    blk_t(t, n, il, "post_attention_norm", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, false, 0, false, t, n);
    blk_t(t, n, il, "post_ffw_norm", 1, e, 1, 1, GGML_T_F32);
  } else if (dense_nogate(o)) { /* arcee.cpp / apertus.cpp / nemotron.cpp load_arch_tensors */
    bool nb = is_arch(o, "nemotron");
    if (nb) blk_t(t, n, il, "attn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    attn_block(o, il, q, false, is_arch(o, "apertus"), t, n);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    if (nb) blk_t(t, n, il, "ffn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_down", 2, o->ff, e, 1, o->type);
    blk_t(t, n, il, "ffn_up", 2, e, o->ff, 1, o->type);
    return;
  } else if (is_arch(o, "stablelm") || is_arch(o, "exaone")) { /* stablelm.cpp: LayerNorm with bias, q/k/v bias;
                                                                 ** exaone.cpp: llama's layer */
    bool sl = is_arch(o, "stablelm");
    if (sl) blk_t(t, n, il, "attn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    attn_block(o, il, q, sl, false, t, n);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    if (sl) blk_t(t, n, il, "ffn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, false, 0, false, t, n);
    return;
  } else if (is_arch(o, "starcoder")) { /* starcoder.cpp: fused biased attn_qkv (one K/V head under
                                        ** multi-query), biased output, ffn_up / ffn_down, norms with bias */
    uint64_t kv = (uint64_t)head_dim(o) * o->heads_kv;
    blk_t(t, n, il, "attn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_qkv", 2, e, q + 2 * kv, 1, o->type);
    blk_t(t, n, il, "attn_qkv.bias", 1, q + 2 * kv, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_output", 2, q, e, 1, o->type);
    blk_t(t, n, il, "attn_output.bias", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_up", 2, e, o->ff, 1, o->type);
    blk_t(t, n, il, "ffn_up.bias", 1, o->ff, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_down", 2, o->ff, e, 1, o->type);
    blk_t(t, n, il, "ffn_down.bias", 1, e, 1, 1, GGML_T_F32);
    return;
  } else if (ln_family(o)) { /* LayerNorm with bias everywhere; falcon: no biases, no ffn_norm (the FFN reads
                             ** attn_norm); phi2: no ffn_norm; phi2 / starcoder2: separate biased q/k/v
                             ** (create_tensor_qkv), the others one attn_qkv (falcon's unbiased) */
    uint64_t kv = (uint64_t)head_dim(o) * o->heads_kv;
    bool fa = is_arch(o, "falcon"), sep = is_arch(o, "phi2") || is_arch(o, "starcoder2");
    blk_t(t, n, il, "attn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    if (sep) {
      attn_block(o, il, q, true, false, t, n);
    } else {
      blk_t(t, n, il, "attn_qkv", 2, e, q + 2 * kv, 1, o->type);
      if (!fa) blk_t(t, n, il, "attn_qkv.bias", 1, q + 2 * kv, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "attn_output", 2, q, e, 1, o->type);
    }
    if (!fa) blk_t(t, n, il, "attn_output.bias", 1, e, 1, 1, GGML_T_F32);
    if (!fa && !is_arch(o, "phi2")) {
      blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
      blk_t(t, n, il, "ffn_norm.bias", 1, e, 1, 1, GGML_T_F32);
    }
    blk_t(t, n, il, "ffn_up", 2, e, o->ff, 1, o->type);
    if (!fa) blk_t(t, n, il, "ffn_up.bias", 1, o->ff, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_down", 2, o->ff, e, 1, o->type);
    if (!fa) blk_t(t, n, il, "ffn_down.bias", 1, e, 1, 1, GGML_T_F32);
    return;
  } else if (is_arch(o, "olmo2")) { /* olmo2.cpp: Q/K norms over the whole projection, post-norms only */
    uint64_t kv = (uint64_t)head_dim(o) * o->heads_kv;
    blk_t(t, n, il, "attn_q", 2, e, q, 1, o->type);
    blk_t(t, n, il, "attn_k", 2, e, kv, 1, o->type);
    blk_t(t, n, il, "attn_v", 2, e, kv, 1, o->type);
    blk_t(t, n, il, "attn_output", 2, q, e, 1, o->type);
    blk_t(t, n, il, "attn_q_norm", 1, q, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_k_norm", 1, kv, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "post_attention_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, false, 0, false, t, n);
    blk_t(t, n, il, "post_ffw_norm", 1, e, 1, 1, GGML_T_F32);
    return;
  } else if (is_arch(o, "mistral3")) { /* llama's layer */
    attn_block(o, il, q, false, false, t, n);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, false, 0, false, t, n);
  } else if (is_arch(o, "phi3")) { /* fused Q/K/V projection, fused gate|up (2 x ff) */
    uint64_t kv = (uint64_t)head_dim(o) * o->heads_kv;
    blk_t(t, n, il, "attn_qkv", 2, e, q + 2 * kv, 1, o->type);
    blk_t(t, n, il, "attn_output", 2, q, e, 1, o->type);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_up", 2, e, 2 * (uint64_t)o->ff, 1, o->type);
    blk_t(t, n, il, "ffn_down", 2, o->ff, e, 1, o->type);
  } else if (is_arch(o, "gpt-oss")) { /* openai-moe.cpp: biased attention with sinks, biased experts */
    attn_block(o, il, q, true, false, t, n);
    blk_t(t, n, il, "attn_output.bias", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_sinks", 1, o->heads, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "post_attention_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, true, 0, false, t, n);
    blk_t(t, n, il, "ffn_gate_inp.bias", 1, o->experts, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_gate_exps.bias", 2, expert_ff(o), o->experts, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_down_exps.bias", 2, e, o->experts, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_up_exps.bias", 2, expert_ff(o), o->experts, 1, GGML_T_F32);
    return;
  } else if (is_arch(o, "llama4")) {
    attn_block(o, il, q, false, false, t, n);
    bool moe = (il + 1) % (o->interval ? o->interval : 1) == 0;
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, moe, expert_ff(o), false, t, n);
  } else if (minicpm3(o)) { /* minicpm3.cpp load_arch_tensors */
    uint64_t nh = o->heads, kd = head_dim(o), nope = kd - o->rope, vd = e / nh;
    blk_t(t, n, il, "attn_q_a_norm", 1, o->q_lora, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_kv_a_norm", 1, o->kv_lora, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "attn_q_a", 2, e, o->q_lora, 1, o->type);
    blk_t(t, n, il, "attn_q_b", 2, o->q_lora, nh * kd, 1, o->type);
    blk_t(t, n, il, "attn_kv_a_mqa", 2, e, o->kv_lora + o->rope, 1, o->type);
    blk_t(t, n, il, "attn_kv_b", 2, o->kv_lora, nh * (nope + vd), 1, o->type);
    blk_t(t, n, il, "attn_output", 2, nh * vd, e, 1, o->type);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, false, 0, false, t, n);
    return;
  } else if (afmoe(o)) { /* afmoe.cpp load_arch_tensors */
    attn_block(o, il, q, false, true, t, n);
    blk_t(t, n, il, "attn_gate", 2, e, q, 1, o->type);
    blk_t(t, n, il, "post_attention_norm", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "post_ffw_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, il >= o->dense_lead, (uint64_t)expert_ff(o) * o->shared, true, t, n);
    return;
  } else { /* deepseek2 */
    mla_block(o, il, t, n);
    blk_t(t, n, il, "ffn_norm", 1, e, 1, 1, GGML_T_F32);
    moe_ffn(o, il, il >= o->dense_lead, (uint64_t)expert_ff(o) * o->shared, true, t, n);
  }
  if (post) blk_t(t, n, il, "post_attention_norm", 1, e, 1, 1, GGML_T_F32);
  if (mtp) {
    blk_t(t, n, il, "nextn.eh_proj.weight", 2, 2 * e, e, 1, o->type);
    blk_t(t, n, il, "nextn.enorm.weight", 1, e, 1, 1, GGML_T_F32);
    blk_t(t, n, il, "nextn.hnorm.weight", 1, e, 1, 1, GGML_T_F32);
  }
}

static size_t model_tensors(const mk_llama *o, mk_t *t) {
  size_t n = 0;
  add_t(t, &n, "token_embd.weight", 2, o->embd, o->vocab, 1, o->type);
  /* lfm2's output norm is named token_embd_norm (LLM_TENSOR_OUTPUT_NORM_LFM2) */
  add_t(t, &n, is_arch(o, "lfm2") ? "token_embd_norm.weight" : "output_norm.weight", 1, o->embd, 1, 1, GGML_T_F32);
  if (is_arch(o, "nemotron") || is_arch(o, "stablelm") || is_arch(o, "starcoder") || ln_family(o)) /* LayerNorm with bias */
    add_t(t, &n, "output_norm.bias", 1, o->embd, 1, 1, GGML_T_F32);
  if (is_arch(o, "starcoder") || is_arch(o, "gpt2")) /* learned positions */
    add_t(t, &n, "position_embd.weight", 2, o->embd, o->ctx, 1, o->type);
  if (is_arch(o, "bloom")) { /* bloom.cpp: word_embeddings_layernorm (tok_norm, tok_norm_b) */
    add_t(t, &n, "token_embd_norm.weight", 1, o->embd, 1, 1, GGML_T_F32);
    add_t(t, &n, "token_embd_norm.bias", 1, o->embd, 1, 1, GGML_T_F32);
  }
  if (!o->tied) add_t(t, &n, "output.weight", 2, o->embd, o->vocab, 1, o->type);
  if (minicpm3(o)) { /* MiniCPM3Model.generate_extra_tensors: the LongRoPE factors, --rope / 2 each */
    add_t(t, &n, "rope_factors_long.weight", 1, o->rope / 2, 1, 1, GGML_T_F32);
    add_t(t, &n, "rope_factors_short.weight", 1, o->rope / 2, 1, 1, GGML_T_F32);
  }
  if (!o->tied && is_arch(o, "phi2")) add_t(t, &n, "output.bias", 1, o->vocab, 1, 1, GGML_T_F32); /* phi2.cpp: output_b */
  if (gemma4(o)) { /* the full layers' proportional-RoPE factors (Gemma4Model.generate_extra_tensors), the PLE tables */
    for (unsigned i = 0; i < o->layers; i++)
      if (g4_full(o, i)) {
        add_t(t, &n, "rope_freqs.weight", 1, g4_hd(o, i) / 2, 1, 1, GGML_T_F32);
        break;
      }
    if (o->ple) {
      add_t(t, &n, "per_layer_token_embd.weight", 2, (uint64_t)o->ple * o->layers, o->vocab, 1, o->type);
      add_t(t, &n, "per_layer_model_proj.weight", 2, o->embd, (uint64_t)o->ple * o->layers, 1, o->type);
      add_t(t, &n, "per_layer_proj_norm.weight", 1, o->ple, 1, 1, GGML_T_F32);
    }
  }
  for (unsigned i = 0; i < o->layers + o->nextn; i++) {
    if (newer_arch(o)) newer_layer(o, i, t, &n);
    else layer_tensors(o, i, t, &n);
  }
  return n;
}

static void kv_tokens(mk_buf *b, unsigned vocab) {
  char tok[32];
  mk_str(b, "tokenizer.ggml.tokens");
  mk_u32(b, V_ARR);
  mk_u32(b, V_STR);
  mk_u64(b, vocab);
  for (unsigned i = 0; i < vocab; i++) {
    if (i < 3)
      snprintf(tok, sizeof tok, "%s", i == 0 ? "<unk>" : i == 1 ? "<s>" : "</s>");
    else if (i < 259)
      snprintf(tok, sizeof tok, "<0x%02X>", i - 3);
    else
      snprintf(tok, sizeof tok, "t%u", i);
    mk_str(b, tok);
  }
}

/* scores (f32 zeros) and token types (<unk> 2, control 3, byte 6, normal 1) */
static void kv_token_arrays(mk_buf *b, unsigned vocab) {
  mk_str(b, "tokenizer.ggml.scores");
  mk_u32(b, V_ARR);
  mk_u32(b, V_F32);
  mk_u64(b, vocab);
  mk_zeros(b, (size_t)vocab * 4);
  mk_str(b, "tokenizer.ggml.token_type");
  mk_u32(b, V_ARR);
  mk_u32(b, V_I32);
  mk_u64(b, vocab);
  for (unsigned i = 0; i < vocab; i++) mk_u32(b, i == 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1);
}

static void mk_kv_arr_u32(mk_buf *b, const char *key, const uint32_t *v, unsigned n) {
  mk_str(b, key);
  mk_u32(b, V_ARR);
  mk_u32(b, V_U32);
  mk_u64(b, n);
  for (unsigned i = 0; i < n; i++) mk_u32(b, v[i]);
}

static void mk_kv_arr_bool(mk_buf *b, const char *key, const uint32_t *v, unsigned n) {
  mk_str(b, key);
  mk_u32(b, V_ARR);
  mk_u32(b, V_BOOL);
  mk_u64(b, n);
  for (unsigned i = 0; i < n; i++) {
    uint8_t x = v[i] != 0;
    mk_put(b, &x, 1);
  }
}

/* the keys of the newer architectures their load_arch_hparams reads (required ones too) */
static unsigned newer_metadata(const mk_llama *o, mk_buf *b) {
  char k[96];
  unsigned n = 0;
  const char *a = o->arch;
#define KU(s, v) (snprintf(k, sizeof k, "%s." s, a), mk_kv_u32(b, k, v), n++)
  if (mamba_pure(o)) { /* conversion/mamba.py set_gguf_parameters: no attention keys */
    KU("ssm.conv_kernel", o->ssm_conv);
    KU("ssm.inner_size", 2 * o->embd);
    KU("ssm.state_size", o->ssm_state);
    KU("ssm.time_step_rank", is_arch(o, "mamba") ? (o->embd + 15) / 16 : o->ssm_vheads);
    if (is_arch(o, "mamba2")) KU("ssm.group_count", o->ssm_groups);
    return n;
  }
  KU("attention.key_length", is_arch(o, "deepseek2") || kimi_lin(o) ? o->kv_lora + o->rope : gemma4(o) ? g4_hd(o, o->layers - 1) : head_dim(o));
  if (!minicpm3(o)) /* MiniCPM3Model writes key_length alone: llama.cpp's V head is embd / heads */
    KU("attention.value_length", is_arch(o, "deepseek2") || kimi_lin(o) ? o->kv_lora : gemma4(o) ? g4_hd(o, o->layers - 1) : head_dim(o));
  if (minicpm3(o)) { /* conversion/minicpm.py MiniCPM3Model.set_gguf_parameters */
    KU("attention.q_lora_rank", o->q_lora);
    KU("attention.kv_lora_rank", o->kv_lora);
  }
  if (afmoe(o)) { /* conversion/afmoe.py AfmoeModel.set_gguf_parameters (no expert_gating_func: sigmoid) */
    KU("expert_shared_count", o->shared);
    KU("leading_dense_block_count", o->dense_lead);
    snprintf(k, sizeof k, "%s.expert_weights_norm", a), mk_kv_bool(b, k, true), n++;
    snprintf(k, sizeof k, "%s.expert_weights_scale", a), mk_kv_f32(b, k, o->w_scale ? (float)o->w_scale / 10.0f : 2.826f), n++;
    KU("attention.sliding_window", o->swa ? o->swa : 128);
  }
  if (kimi_lin(o)) { /* conversion/kimi_linear.py KimiLinearModel.set_gguf_parameters */
    KU("ssm.conv_kernel", o->ssm_conv);
    KU("kda.head_dim", o->ssm_state);
    KU("attention.kv_lora_rank", o->kv_lora);
    KU("attention.key_length_mla", head_dim(o));
    KU("attention.value_length_mla", head_dim(o));
    KU("expert_shared_count", o->shared ? o->shared : 1);
    KU("leading_dense_block_count", o->dense_lead);
    KU("expert_gating_func", 2);
    snprintf(k, sizeof k, "%s.expert_weights_scale", a), mk_kv_f32(b, k, 2.446f), n++;
  }
  if (gemma4(o)) { /* conversion/gemma.py Gemma4Model.set_gguf_parameters */
    uint32_t swa[4096];
    for (unsigned i = 0; i < o->layers; i++) swa[i] = !g4_full(o, i);
    KU("attention.key_length_swa", o->head_dim);
    KU("attention.value_length_swa", o->head_dim);
    KU("attention.shared_kv_layers", o->kv_shared);
    KU("embedding_length_per_layer_input", o->ple);
    KU("attention.sliding_window", o->swa ? o->swa : 128);
    KU("rope.dimension_count_swa", o->head_dim);
    snprintf(k, sizeof k, "%s.attention.sliding_window_pattern", a), mk_kv_arr_bool(b, k, swa, o->layers), n++;
    snprintf(k, sizeof k, "%s.final_logit_softcapping", a), mk_kv_f32(b, k, 30.0f), n++;
  }
  if (o->nextn) KU("nextn_predict_layers", o->nextn);
  if (o->experts) KU("expert_feed_forward_length", expert_ff(o));
  if (is_arch(o, "glm4moe") || is_arch(o, "deepseek2") || bailing2(o)) {
    KU("expert_shared_count", o->shared);
    KU("leading_dense_block_count", o->dense_lead);
  }
  if (bailing2(o)) KU("expert_shared_feed_forward_length", expert_ff(o) * o->shared);
  if ((is_arch(o, "glm4moe") || is_arch(o, "deepseek2") || bailing2(o)) && o->w_scale) {
    /* DeepSeek-V3 / GLM-4.5 routing: sigmoid gating (LLAMA_EXPERT_GATING_FUNC_TYPE_SIGMOID),
    ** the top-k renormalized, then scaled */
    snprintf(k, sizeof k, "%s.expert_weights_scale", a), mk_kv_f32(b, k, (float)o->w_scale / 10.0f), n++;
    snprintf(k, sizeof k, "%s.expert_weights_norm", a), mk_kv_bool(b, k, true), n++;
    KU("expert_gating_func", 2);
  }
  if (is_arch(o, "deepseek2")) {
    if (o->q_lora) KU("attention.q_lora_rank", o->q_lora);
    KU("attention.kv_lora_rank", o->kv_lora);
    KU("attention.key_length_mla", head_dim(o));
    KU("attention.value_length_mla", head_dim(o));
  }
  if (dbrx(o)) { /* convert_hf_to_gguf.py DbrxModel.set_gguf_parameters: clip_qkv, LayerNorm epsilon */
    snprintf(k, sizeof k, "%s.attention.clamp_kqv", a), mk_kv_f32(b, k, 8.0f), n++;
    snprintf(k, sizeof k, "%s.attention.layer_norm_epsilon", a), mk_kv_f32(b, k, 1e-5f), n++;
  }
  if (is_arch(o, "llama4")) KU("interleave_moe_layer_step", o->interval ? o->interval : 1);
  if (is_arch(o, "gpt-oss")) KU("attention.sliding_window", o->swa ? o->swa : 128);
  if (is_arch(o, "olmo2") && o->swa) KU("attention.sliding_window", o->swa); /* OLMo 3 (Olmo2Model) */
  if (is_arch(o, "nemotron") || is_arch(o, "stablelm") || is_arch(o, "starcoder") || ln_family(o)) /* LayerNorm: llama.cpp requires its eps */
    snprintf(k, sizeof k, "%s.attention.layer_norm_epsilon", a), mk_kv_f32(b, k, 1e-5f), n++;
  if (is_arch(o, "gptneox")) /* GPTNeoXModel.set_gguf_parameters: use_parallel_residual (Pythia: true) */
    snprintf(k, sizeof k, "%s.use_parallel_residual", a), mk_kv_bool(b, k, true), n++;
  if (is_arch(o, "apertus")) { /* ApertusModel.set_gguf_parameters: xielu.alpha_p / alpha_n / beta / eps a layer */
    static const char *const xk[4] = {"alpha_p", "alpha_n", "beta", "eps"};
    for (unsigned j = 0; j < 4; j++) {
      snprintf(k, sizeof k, "xielu.%s", xk[j]);
      mk_str(b, k), mk_u32(b, V_ARR), mk_u32(b, V_F32), mk_u64(b, o->layers);
      for (unsigned i = 0; i < o->layers; i++) {
        float f = j == 3 ? -1e-6f : j == 2 ? 0.5f : 0.8f;
        uint32_t u;
        memcpy(&u, &f, 4);
        mk_u32(b, u);
      }
      n++;
    }
  }
  if (is_arch(o, "mistral3")) /* Ministral 3's attention temperature (llama_4_scaling beta) */
    snprintf(k, sizeof k, "%s.attention.temperature_scale", a), mk_kv_f32(b, k, 0.1f), n++;
  if (is_arch(o, "qwen2vl")) { /* M-RoPE sections over half the head (Qwen2-VL: 16, 24, 24 of 64) */
    uint32_t h = head_dim(o) / 2, sec[4] = {h / 4, h * 3 / 8, h - h / 4 - h * 3 / 8, 0};
    snprintf(k, sizeof k, "%s.rope.dimension_sections", a);
    mk_kv_arr_u32(b, k, sec, 4), n++;
  }
  if (is_arch(o, "gemma2")) { /* logit soft-capping of the attention scores and of the logits */
    snprintf(k, sizeof k, "%s.attn_logit_softcapping", a), mk_kv_f32(b, k, 50.0f), n++;
    snprintf(k, sizeof k, "%s.final_logit_softcapping", a), mk_kv_f32(b, k, 30.0f), n++;
  }
  if ((is_arch(o, "gemma2") || is_arch(o, "gemma3")) && o->swa) {
    KU("attention.sliding_window", o->swa);
    if (o->interval) KU("attention.sliding_window_pattern", o->interval);
  }
  if (jamba(o)) {
    KU("ssm.conv_kernel", o->ssm_conv);
    KU("ssm.state_size", o->ssm_state);
    KU("ssm.inner_size", 2 * o->embd);
    KU("ssm.time_step_rank", (o->embd + 15) / 16);
  }
  if (nemo_h(o) || falcon_h(o)) {
    KU("ssm.conv_kernel", o->ssm_conv);
    KU("ssm.state_size", o->ssm_state);
    KU("ssm.group_count", o->ssm_groups);
    KU("ssm.time_step_rank", o->ssm_vheads);
    KU("ssm.inner_size", 2 * o->embd);
    snprintf(k, sizeof k, "%s.attention.layer_norm_epsilon", a), mk_kv_f32(b, k, 1e-5f), n++;
  }
  if (granite_h(o)) {
    if (o->experts && o->shared) KU("expert_shared_feed_forward_length", o->shared);
    KU("ssm.conv_kernel", o->ssm_conv);
    KU("ssm.state_size", o->ssm_state);
    KU("ssm.group_count", o->ssm_groups);
    KU("ssm.time_step_rank", o->ssm_vheads);
    KU("ssm.inner_size", 2 * o->embd);
    /* granite-hybrid.cpp load_arch_hparams: rope.scaling.finetuned (default true) switches RoPE;
    ** the scales are optional f32 keys (convert_hf_to_gguf.py GraniteMoeHybridModel writes them
    ** from embedding_multiplier, residual_multiplier, logits_scaling, attention_multiplier) */
    if (o->nope) snprintf(k, sizeof k, "%s.rope.scaling.finetuned", a), mk_kv_bool(b, k, false), n++;
    if (o->granite_scales) {
      snprintf(k, sizeof k, "%s.embedding_scale", a), mk_kv_f32(b, k, 12.0f), n++;
      snprintf(k, sizeof k, "%s.residual_scale", a), mk_kv_f32(b, k, 0.22f), n++;
      snprintf(k, sizeof k, "%s.logit_scale", a), mk_kv_f32(b, k, 6.0f), n++;
      snprintf(k, sizeof k, "%s.attention.scale", a), mk_kv_f32(b, k, 0.0078125f), n++;
    }
  }
  if (qwen2moe(o)) KU("expert_shared_feed_forward_length", o->shared ? o->shared : expert_ff(o));
  if (hunyuan_moe(o)) { /* conversion/hunyuan.py HunYuanMoEModel: the shared width and count */
    KU("expert_shared_feed_forward_length", o->shared ? o->shared : o->ff);
    KU("expert_shared_count", 1);
  }
  if (nemo_moe(o)) { /* conversion/nemotron.py NemotronHModel.set_gguf_parameters, is_moe */
    KU("expert_shared_feed_forward_length", o->shared ? o->shared : expert_ff(o));
    KU("expert_shared_count", 1);
    KU("expert_group_count", 1);
    snprintf(k, sizeof k, "%s.expert_weights_norm", a), mk_kv_bool(b, k, true), n++;
    snprintf(k, sizeof k, "%s.expert_weights_scale", a), mk_kv_f32(b, k, 2.5f), n++;
  }
  if (deltanet(o)) {
    if (o->experts) KU("expert_shared_feed_forward_length", o->shared ? o->shared : expert_ff(o));
    KU("ssm.conv_kernel", o->ssm_conv);
    KU("ssm.state_size", o->ssm_state);
    KU("ssm.group_count", o->ssm_groups);
    KU("ssm.time_step_rank", o->ssm_vheads);
    KU("ssm.inner_size", o->ssm_state * o->ssm_vheads);
    KU("full_attention_interval", o->interval ? o->interval : 4);
    if (!is_arch(o, "qwen3next")) {
      uint32_t sec[4] = {head_dim(o) / 8, head_dim(o) / 8, head_dim(o) / 8 - 2, 0};
      snprintf(k, sizeof k, "%s.rope.dimension_sections", a);
      mk_kv_arr_u32(b, k, sec, 4), n++;
    }
  }
#undef KU
  return n;
}

static unsigned llama_metadata(const mk_llama *o, mk_buf *b) {
  char k[96];
  unsigned n = 0;
  const char *a = o->arch;
#define KU(s, v) (snprintf(k, sizeof k, "%s." s, a), mk_kv_u32(b, k, v), n++)
  mk_kv_str(b, "general.architecture", a), n++;
  mk_kv_str(b, "general.name", o->name ? o->name : "mkmodel"), n++;
  mk_kv_u32(b, "general.file_type", o->file_type), n++;
  mk_kv_u32(b, "general.quantization_version", 2), n++;
  mk_kv_u32(b, "general.alignment", 32), n++;
  KU("context_length", o->ctx);
  KU("embedding_length", o->embd);
  KU("block_count", o->layers + o->nextn);
  if (nemo_h(o)) { /* conversion/nemotron.py NemotronHModel: per layer, 0 off the MLP / attention layers */
    uint32_t ff[4096], kvh[4096];
    for (unsigned i = 0; i < o->layers; i++)
      ff[i] = nemo_kind(i) == '-' ? (nemo_moe(o) ? expert_ff(o) : o->ff) : 0, kvh[i] = nemo_kind(i) == '*' ? o->heads_kv : 0;
    snprintf(k, sizeof k, "%s.feed_forward_length", a), mk_kv_arr_u32(b, k, ff, o->layers), n++;
    KU("attention.head_count", o->heads);
    snprintf(k, sizeof k, "%s.attention.head_count_kv", a), mk_kv_arr_u32(b, k, kvh, o->layers), n++;
  } else if (gemma4(o) && o->double_wide) { /* use_double_wide_mlp: 2 x ff on the KV-shared layers */
    uint32_t ff[4096];
    for (unsigned i = 0; i < o->layers; i++) ff[i] = g4_ff(o, i);
    snprintf(k, sizeof k, "%s.feed_forward_length", a), mk_kv_arr_u32(b, k, ff, o->layers), n++;
    KU("attention.head_count", o->heads);
  } else if (mamba_pure(o)) { /* conversion/mamba.py: "unused, but seemingly required when loading" */
    KU("feed_forward_length", 0);
    KU("attention.head_count", 0);
  } else {
  KU("feed_forward_length", o->ff);
  KU("attention.head_count", o->heads);
  }
  if (nemo_h(o) || mamba_pure(o)) {
  } else if (kimi_lin(o)) { /* per layer: 1 on the MLA layers (MQA), 0 on the KDA ones (is_recr) */
    uint32_t kvh[4096];
    for (unsigned i = 0; i < o->layers; i++) kvh[i] = kimi_mla(o, i) ? 1 : 0;
    snprintf(k, sizeof k, "%s.attention.head_count_kv", a);
    mk_kv_arr_u32(b, k, kvh, o->layers), n++;
  } else if (gemma4(o)) { /* per layer: the full layers' KV heads (num_global_key_value_heads) */
    uint32_t kvh[4096];
    for (unsigned i = 0; i < o->layers; i++) kvh[i] = g4_kvh(o, i);
    snprintf(k, sizeof k, "%s.attention.head_count_kv", a);
    mk_kv_arr_u32(b, k, kvh, o->layers), n++;
  } else if ((is_arch(o, "lfm2") || granite_h(o) || jamba(o)) && !o->kv_scalar) { /* per layer: 0 on the recurrent layers (is_recr) */
    uint32_t kvh[4096];
    for (unsigned i = 0; i < o->layers; i++) kvh[i] = lfm2_attn(o, i) ? o->heads_kv : 0;
    snprintf(k, sizeof k, "%s.attention.head_count_kv", a);
    mk_kv_arr_u32(b, k, kvh, o->layers), n++;
    if (is_arch(o, "lfm2")) KU("shortconv.l_cache", o->ssm_conv);
  } else {
    KU("attention.head_count_kv", o->heads_kv);
  }
  /* nemotron: partial_rotary_factor 0.5; stablelm: 0.25 (one key: llama.cpp's gguf reader refuses a duplicate) */
  if (!mamba_pure(o))
    KU("rope.dimension_count", o->rope                   ? o->rope
                               : gemma4(o)               ? g4_hd(o, o->layers - 1)
                               : is_arch(o, "nemotron")  ? head_dim(o) / 2
                               : is_arch(o, "stablelm") || is_arch(o, "gptneox") ? head_dim(o) / 4 /* Pythia's rotary_pct 0.25 */
                                                         : head_dim(o));
  snprintf(k, sizeof k, "%s.attention.layer_norm_rms_epsilon", a);
  mk_kv_f32(b, k, 1e-5f), n++;
  snprintf(k, sizeof k, "%s.rope.freq_base", a);
  mk_kv_f32(b, k, 10000.0f), n++;
  if (o->experts) {
    KU("expert_count", o->experts);
    KU("expert_used_count", o->experts_used);
  }
  if (newer_arch(o)) n += newer_metadata(o, b);
#undef KU
  mk_kv_str(b, "tokenizer.ggml.model", "llama"), n++;
  kv_tokens(b, o->vocab), n++;
  kv_token_arrays(b, o->vocab), n += 2;
  mk_kv_u32(b, "tokenizer.ggml.bos_token_id", 1), n++;
  mk_kv_u32(b, "tokenizer.ggml.eos_token_id", 2), n++;
  mk_kv_u32(b, "tokenizer.ggml.unknown_token_id", 0), n++;
  return n;
}

static bool check_llama(const mk_llama *o, char *err, size_t errlen) {
  if (!o->layers || !o->embd || !o->ff || !o->heads || !o->heads_kv || !o->vocab)
    return fail(err, errlen, "every size must be positive");
  if (o->embd % o->heads || o->heads % o->heads_kv)
    return fail(err, errlen, "embd must be a multiple of heads, heads of heads-kv");
  /* llama.cpp's SPM vocab looks up "<0x0A>" (token 13 here) when loading */
  if (o->vocab < 16) return fail(err, errlen, "vocab must be at least 16");
  if (o->layers > 4096 || o->nextn > 4) return fail(err, errlen, "at most 4096 layers and 4 MTP blocks");
  if (is_arch(o, "mamba") && (!o->ssm_conv || !o->ssm_state || o->nextn || o->experts))
    return fail(err, errlen, "mamba needs --ssm-conv and --ssm-state, no experts or MTP blocks");
  if (is_arch(o, "mamba2") && (!o->ssm_conv || !o->ssm_state || !o->ssm_groups || !o->ssm_vheads || o->experts || o->nextn ||
                               (2 * o->embd) % o->ssm_vheads || (2 * o->embd) % o->ssm_groups))
    return fail(err, errlen, "mamba2 needs the Mamba-2 sizes (--ssm-conv, --ssm-state, --ssm-groups, --ssm-vheads dividing 2 x embd), no experts or MTP blocks");
  if (jamba(o) && (!o->ssm_conv || !o->ssm_state || o->nextn || (o->experts && o->ff != expert_ff(o))))
    return fail(err, errlen, "jamba needs --ssm-conv and --ssm-state, no MTP blocks, with experts --expert-ff equal to --ff");
  if (falcon_h(o) && (!o->ssm_conv || !o->ssm_state || !o->ssm_groups || !o->ssm_vheads || o->experts || o->nextn ||
                      (2 * o->embd) % o->ssm_vheads || (2 * o->embd) % o->ssm_groups))
    return fail(err, errlen, "falcon-h1 needs the Mamba-2 sizes (--ssm-conv, --ssm-state, --ssm-groups, --ssm-vheads dividing 2 x embd), no experts or MTP blocks");
  if (nemo_h(o) && (!o->ssm_conv || !o->ssm_state || !o->ssm_groups || !o->ssm_vheads || !o->experts != !nemo_moe(o) || o->nextn ||
                    (2 * o->embd) % o->ssm_vheads || (2 * o->embd) % o->ssm_groups))
    return fail(err, errlen, "%s needs the Mamba-2 sizes (--ssm-conv, --ssm-state, --ssm-groups, --ssm-vheads dividing 2 x embd), no MTP blocks, and experts for nemotron_h_moe only", o->arch);
  if (kimi_lin(o) && (!o->ssm_conv || !o->ssm_state || !o->kv_lora || !o->rope || o->rope >= head_dim(o) || !o->experts || o->nextn || o->tied))
    return fail(err, errlen, "kimi-linear needs --ssm-conv, --ssm-state (the KDA head), --kv-lora, a --rope below the head, experts, an output tensor, no MTP blocks");
  if (gemma4(o) && (!o->head_dim || o->kv_shared >= o->layers || o->nextn || (o->ple && o->ple > 4096)))
    return fail(err, errlen, "gemma4 needs --head-dim (the sliding layers'), fewer --kv-shared than layers, no MTP blocks");
  if (bailing2(o) && (!o->experts || o->dense_lead >= o->layers))
    return fail(err, errlen, "bailingmoe2 needs experts and fewer --dense-lead layers than layers");
  if (dbrx(o) && (!o->experts || o->nextn || o->ff != expert_ff(o) || o->tied))
    return fail(err, errlen, "dbrx needs experts, --expert-ff equal to --ff (llama.cpp sizes the experts by feed_forward_length), an output tensor, no MTP blocks");
  if (hunyuan_moe(o) && (!o->experts || o->nextn || o->ff != expert_ff(o)))
    return fail(err, errlen, "hunyuan-moe needs experts, --expert-ff equal to --ff (llama.cpp sizes the experts by feed_forward_length), no MTP blocks");
  if (granite_h(o) && (!o->ssm_conv || !o->ssm_state || !o->ssm_groups || !o->ssm_vheads ||
                       (o->experts && o->ff != expert_ff(o)) || (2 * o->embd) % o->ssm_vheads || (2 * o->embd) % o->ssm_groups))
    return fail(err, errlen, "granitehybrid needs the Mamba-2 sizes (--ssm-conv, --ssm-state, --ssm-groups, --ssm-vheads dividing 2 x embd) and, with experts, --expert-ff equal to --ff");
  if (is_arch(o, "lfm2") && (o->ssm_conv < 2 || o->nextn || o->experts))
    return fail(err, errlen, "lfm2 needs --ssm-conv (the short conv's L_cache) of 2 or more, no MTP blocks or experts");
  if (deltanet(o) && (!o->ssm_conv || !o->ssm_state || !o->ssm_groups || !o->ssm_vheads))
    return fail(err, errlen, "%s needs the DeltaNet sizes (ssm conv, state, groups, V heads)", o->arch);
  if (minicpm3(o) && (!o->q_lora || !o->kv_lora || !o->rope || o->rope >= head_dim(o) || o->rope % 2 || o->experts || o->nextn))
    return fail(err, errlen, "minicpm3 needs --q-lora, --kv-lora, an even --rope below head_dim, no experts or MTP blocks");
  if (afmoe(o) && (!o->experts || o->dense_lead >= o->layers || o->nextn))
    return fail(err, errlen, "afmoe needs experts, fewer --dense-lead layers than layers, no MTP blocks");
  if (is_arch(o, "deepseek2") && (!o->kv_lora || !o->rope || o->rope >= head_dim(o)))
    return fail(err, errlen, "deepseek2 needs kv_lora and a rope below head_dim");
  if ((is_arch(o, "glm4moe") || is_arch(o, "deepseek2") || is_arch(o, "llama4") || is_arch(o, "qwen3next") ||
       is_arch(o, "qwen35moe") || is_arch(o, "qwen3moe") || qwen2moe(o) || is_arch(o, "gpt-oss")) && !o->experts)
    return fail(err, errlen, "%s needs experts", o->arch);
  if (o->gate_up && !(is_arch(o, "qwen3next") || is_arch(o, "qwen35moe") || is_arch(o, "deepseek2")))
    return fail(err, errlen, "--gate-up (a fused ffn_gate_up_exps) is for qwen3next, qwen35moe and deepseek2, not %s", o->arch);
  return ggml_type_get(o->type) ? true : fail(err, errlen, "unknown ggml type %u", o->type);
}

bool mk_gguf_llama(const mk_llama *o, mk_buf *b, uint64_t *data_bytes, uint64_t *params,
                   char *err, size_t errlen) {
  if (!check_llama(o, err, errlen)) return false;
  mk_t *t = calloc((size_t)(o->layers + o->nextn) * 32 + 3, sizeof *t);
  mk_buf meta = {0};
  if (!t) return fail(err, errlen, "out of memory");
  size_t n = model_tensors(o, t);
  unsigned n_kv = llama_metadata(o, &meta);
  mk_gguf_begin(b, 3, n, n_kv);
  mk_put(b, meta.p, meta.len);
  uint64_t off = 0, np = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t bytes, el;
    ggml_tensor_bytes(t[i].type, t[i].ne, (int)t[i].ndim, &bytes, &el);
    mk_tensor_info(b, t[i].name, t[i].ndim, t[i].ne, t[i].type, off);
    off = (off + bytes + 31) / 32 * 32;
    np += el;
  }
  mk_pad(b, 32);
  free(t);
  mk_buf_free(&meta);
  if (data_bytes) *data_bytes = off;
  if (params) *params = np;
  return b->oom ? fail(err, errlen, "out of memory") : true;
}

bool mk_gguf_llama_buf(const mk_llama *o, mk_buf *b, char *err, size_t errlen) {
  uint64_t data;
  if (!mk_gguf_llama(o, b, &data, NULL, err, errlen)) return false;
  mk_zeros(b, (size_t)data);
  return b->oom ? fail(err, errlen, "out of memory") : true;
}

bool mk_write_file(const char *path, const void *p, size_t n, uint64_t zeros, char *err,
                   size_t errlen) {
  static const uint8_t z[4096];
  FILE *f = fopen(path, "wb");
  if (!f) return fail(err, errlen, "%s: %s", path, strerror(errno));
  bool ok = fwrite(p, 1, n, f) == n;
  for (uint64_t left = zeros; ok && left > 0;) {
    size_t k = left < sizeof z ? (size_t)left : sizeof z;
    ok = fwrite(z, 1, k, f) == k;
    left -= k;
  }
  if (fclose(f) != 0) ok = false;
  return ok ? true : fail(err, errlen, "%s: write failed", path);
}

/* ---- safetensors ---- */

typedef struct st_dt {
  const char *name;
  unsigned bits;
} st_dt;

static const st_dt st_dtypes[] = {{"F64", 64}, {"F32", 32}, {"F16", 16}, {"BF16", 16},
                                  {"I64", 64}, {"I32", 32}, {"I16", 16}, {"I8", 8},
                                  {"U8", 8},   {"BOOL", 8}, {"F8_E4M3", 8}};

static unsigned st_bits(const char *dt) {
  for (size_t i = 0; i < sizeof st_dtypes / sizeof st_dtypes[0]; i++)
    if (strcmp(st_dtypes[i].name, dt) == 0) return st_dtypes[i].bits;
  return 0;
}

static uint64_t st_bytes(const mk_st_tensor *t) {
  uint64_t n = 1;
  for (int i = 0; i < t->ndim; i++) n *= t->shape[i];
  return n * st_bits(t->dtype) / 8;
}

static void put_fmt(mk_buf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0) mk_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void st_entry(mk_buf *h, const mk_st_tensor *t, uint64_t off, uint64_t end) {
  put_fmt(h, ",\"%s\":{\"dtype\":\"%s\",\"shape\":[", t->name, t->dtype);
  for (int d = 0; d < t->ndim; d++) put_fmt(h, "%s%llu", d ? "," : "", (ull)t->shape[d]);
  put_fmt(h, "],\"data_offsets\":[%llu,%llu]}", (ull)off, (ull)end);
}

bool mk_safetensors(mk_buf *b, const mk_st_tensor *t, size_t n, const char *metadata_json,
                    char *err, size_t errlen) {
  mk_buf h = {0};
  uint64_t off = 0;
  put_fmt(&h, "{\"__metadata__\":%s", metadata_json ? metadata_json : "{\"format\":\"pt\"}");
  for (size_t i = 0; i < n; i++) {
    if (!st_bits(t[i].dtype)) return fail(err, errlen, "unknown dtype %s", t[i].dtype);
    uint64_t nb = st_bytes(&t[i]);
    st_entry(&h, &t[i], off, off + nb);
    off += nb;
  }
  mk_put(&h, "}", 1);
  while (h.len % 8) mk_put(&h, " ", 1); /* safetensors pads the header with spaces */
  mk_u64(b, h.len);
  mk_put(b, h.p, h.len);
  mk_zeros(b, (size_t)off);
  mk_buf_free(&h);
  return b->oom || h.oom ? fail(err, errlen, "out of memory") : true;
}

void mk_hf_defaults(mk_hf *o) {
  *o = (mk_hf){2, 64, 128, 4, 2, 256, "BF16", 0, 32, false};
}

typedef struct hf_t {
  char name[96];
  mk_st_tensor t;
  uint64_t params; /* logical */
  bool aux;        /* quantization scales, zeros, g_idx */
} hf_t;

static void hf_add(hf_t *v, size_t *n, const char *name, const char *dt, int nd,
                   uint64_t a, uint64_t b2, bool aux, uint64_t params) {
  hf_t *x = &v[(*n)++];
  snprintf(x->name, sizeof x->name, "%s", name);
  x->t = (mk_st_tensor){x->name, dt, nd, {a, b2, 0, 0}};
  x->params = params ? params : (nd == 1 ? a : a * b2);
  x->aux = aux;
}

/* A linear layer [out, in]: plain, or GPTQ's four tensors. */
static void hf_linear(const mk_hf *o, hf_t *v, size_t *n, const char *p, uint64_t out,
                      uint64_t in) {
  char nm[96];
  if (!o->gptq_bits) {
    snprintf(nm, sizeof nm, "%s.weight", p);
    hf_add(v, n, nm, o->dtype, 2, out, in, false, 0);
    return;
  }
  uint64_t pack = 32 / o->gptq_bits, g = in / o->group;
  snprintf(nm, sizeof nm, "%s.qweight", p);
  hf_add(v, n, nm, "I32", 2, in / pack, out, false, in * out);
  snprintf(nm, sizeof nm, "%s.qzeros", p);
  hf_add(v, n, nm, "I32", 2, g, out / pack, true, g * out);
  snprintf(nm, sizeof nm, "%s.scales", p);
  hf_add(v, n, nm, "F16", 2, g, out, true, 0);
  snprintf(nm, sizeof nm, "%s.g_idx", p);
  hf_add(v, n, nm, "I32", 1, in, 1, true, 0);
}

static void hf_layer(const mk_hf *o, unsigned i, hf_t *v, size_t *n) {
  char p[96];
  uint64_t e = o->embd, kv = e / o->heads * o->heads_kv;
#define P(s) snprintf(p, sizeof p, "model.layers.%u." s, i)
  P("input_layernorm.weight"), hf_add(v, n, p, o->dtype, 1, e, 1, false, 0);
  P("self_attn.q_proj"), hf_linear(o, v, n, p, e, e);
  P("self_attn.k_proj"), hf_linear(o, v, n, p, kv, e);
  P("self_attn.v_proj"), hf_linear(o, v, n, p, kv, e);
  P("self_attn.o_proj"), hf_linear(o, v, n, p, e, e);
  P("post_attention_layernorm.weight"), hf_add(v, n, p, o->dtype, 1, e, 1, false, 0);
  P("mlp.gate_proj"), hf_linear(o, v, n, p, o->ff, e);
  P("mlp.up_proj"), hf_linear(o, v, n, p, o->ff, e);
  P("mlp.down_proj"), hf_linear(o, v, n, p, e, o->ff);
#undef P
}

static hf_t *hf_tensors(const mk_hf *o, size_t *n) {
  hf_t *v = calloc((size_t)o->layers * 32 + 4, sizeof *v);
  if (!v) return NULL;
  const char *dt = o->gptq_bits ? "F16" : o->dtype;
  *n = 0;
  hf_add(v, n, "model.embed_tokens.weight", dt, 2, o->vocab, o->embd, false, 0);
  for (unsigned i = 0; i < o->layers; i++) hf_layer(o, i, v, n);
  hf_add(v, n, "model.norm.weight", dt, 1, o->embd, 1, false, 0);
  hf_add(v, n, "lm_head.weight", dt, 2, o->vocab, o->embd, false, 0);
  for (size_t i = 0; i < *n; i++)
    if (v[i].t.ndim == 1 || !strstr(v[i].name, "layers")) v[i].t.dtype = dt;
  return v;
}

void mk_hf_totals(const mk_hf *o, uint64_t *params, uint64_t *bytes, uint64_t *aux_bytes) {
  size_t n;
  hf_t *v = hf_tensors(o, &n);
  *params = *bytes = *aux_bytes = 0;
  for (size_t i = 0; v && i < n; i++) {
    *bytes += st_bytes(&v[i].t);
    if (v[i].aux)
      *aux_bytes += st_bytes(&v[i].t);
    else
      *params += v[i].params;
  }
  free(v);
}

static bool join(char *out, size_t n, const char *dir, const char *file) {
  int k = snprintf(out, n, "%s/%s", dir, file);
  return k >= 0 && (size_t)k < n;
}

static bool write_text(const char *dir, const char *file, const char *text, char *err,
                       size_t errlen) {
  char path[1024];
  if (!join(path, sizeof path, dir, file)) return fail(err, errlen, "%s: path too long", dir);
  return mk_write_file(path, text, strlen(text), 0, err, errlen);
}

static bool hf_config(const char *dir, const mk_hf *o, char *err, size_t errlen) {
  char q[256] = "", cfg[1024];
  if (o->gptq_bits && o->no_bits)
    snprintf(q, sizeof q, ",\"quantization_config\":{\"quant_method\":\"gptq\","
             "\"group_size\":%u,\"desc_act\":false}", o->group);
  else if (o->gptq_bits)
    snprintf(q, sizeof q, ",\"quantization_config\":{\"quant_method\":\"gptq\",\"bits\":%u,"
             "\"group_size\":%u,\"desc_act\":false,\"sym\":true}", o->gptq_bits, o->group);
  snprintf(cfg, sizeof cfg,
           "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\","
           "\"hidden_size\":%u,\"intermediate_size\":%u,\"num_hidden_layers\":%u,"
           "\"num_attention_heads\":%u,\"num_key_value_heads\":%u,\"vocab_size\":%u,"
           "\"max_position_embeddings\":2048,\"torch_dtype\":\"%s\"%s}\n",
           o->embd, o->ff, o->layers, o->heads, o->heads_kv, o->vocab,
           o->gptq_bits ? "float16" : strcasecmp(o->dtype, "BF16") == 0 ? "bfloat16"
                                                                        : "float16", q);
  return write_text(dir, "config.json", cfg, err, errlen);
}

static bool st_file(const char *dir, const char *file, const hf_t *v, size_t n, char *err,
                    size_t errlen) {
  mk_st_tensor *t = calloc(n ? n : 1, sizeof *t);
  mk_buf b = {0};
  char path[1024];
  if (!t) return fail(err, errlen, "out of memory");
  for (size_t i = 0; i < n; i++) t[i] = v[i].t;
  bool ok = mk_safetensors(&b, t, n, NULL, err, errlen);
  ok = ok && (join(path, sizeof path, dir, file) || fail(err, errlen, "%s: path too long", dir));
  ok = ok && mk_write_file(path, b.p, b.len, 0, err, errlen);
  mk_buf_free(&b);
  free(t);
  return ok;
}

static bool hf_index(const char *dir, const hf_t *v, size_t n, unsigned shards, char *err,
                     size_t errlen) {
  mk_buf b = {0};
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) total += st_bytes(&v[i].t);
  put_fmt(&b, "{\"metadata\":{\"total_size\":%llu},\"weight_map\":{", (ull)total);
  for (size_t i = 0; i < n; i++)
    put_fmt(&b, "%s\"%s\":\"model-%05zu-of-%05u.safetensors\"", i ? "," : "", v[i].name,
            i * shards / n + 1, shards);
  put_fmt(&b, "}}\n");
  mk_put(&b, "", 1);
  bool ok = !b.oom && write_text(dir, "model.safetensors.index.json", (char *)b.p, err, errlen);
  mk_buf_free(&b);
  return ok;
}

bool mk_hf_dir(const char *dir, const mk_hf *o, unsigned shards, char *err, size_t errlen) {
  size_t n;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return fail(err, errlen, "%s: %s", dir, strerror(errno));
  hf_t *v = hf_tensors(o, &n);
  if (!v) return fail(err, errlen, "out of memory");
  bool ok = hf_config(dir, o, err, errlen);
  if (shards <= 1) {
    ok = ok && st_file(dir, "model.safetensors", v, n, err, errlen);
  } else {
    ok = ok && hf_index(dir, v, n, shards, err, errlen);
    for (unsigned k = 0; ok && k < shards; k++) {
      char file[64];
      size_t lo = ((size_t)k * n + shards - 1) / shards, hi = ((size_t)(k + 1) * n + shards - 1) / shards;
      snprintf(file, sizeof file, "model-%05u-of-%05u.safetensors", k + 1, shards);
      ok = st_file(dir, file, v + lo, hi - lo, err, errlen);
    }
  }
  free(v);
  return ok;
}

static bool sub_dir(const char *dir, const char *sub, char *out, size_t n, char *err,
                    size_t errlen) {
  if (!join(out, n, dir, sub)) return fail(err, errlen, "%s: path too long", dir);
  if (mkdir(out, 0777) != 0 && errno != EEXIST)
    return fail(err, errlen, "%s: %s", out, strerror(errno));
  return true;
}

bool mk_diffusers_dir(const char *dir, char *err, size_t errlen) {
  char d[1024];
  hf_t tr[3], vae[2];
  size_t nt = 0, nv = 0;
  hf_add(tr, &nt, "x_embedder.weight", "BF16", 2, 64, 16, false, 0);
  hf_add(tr, &nt, "transformer_blocks.0.attn.to_q.weight", "BF16", 2, 64, 64, false, 0);
  hf_add(tr, &nt, "proj_out.weight", "BF16", 2, 16, 64, false, 0);
  hf_add(vae, &nv, "encoder.conv_in.weight", "F32", 2, 8, 27, false, 0);
  hf_add(vae, &nv, "decoder.conv_out.weight", "F32", 2, 3, 72, false, 0);
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return fail(err, errlen, "%s: %s", dir, strerror(errno));
  return write_text(dir, "model_index.json",
                    "{\"_class_name\":\"FluxPipeline\",\"_diffusers_version\":\"0.30.0\","
                    "\"scheduler\":[\"diffusers\",\"FlowMatchEulerDiscreteScheduler\"],"
                    "\"transformer\":[\"diffusers\",\"FluxTransformer2DModel\"],"
                    "\"vae\":[\"diffusers\",\"AutoencoderKL\"]}\n", err, errlen) &&
         sub_dir(dir, "transformer", d, sizeof d, err, errlen) &&
         write_text(d, "config.json", "{\"_class_name\":\"FluxTransformer2DModel\"}\n", err, errlen) &&
         st_file(d, "diffusion_pytorch_model.safetensors", tr, nt, err, errlen) &&
         sub_dir(dir, "vae", d, sizeof d, err, errlen) &&
         write_text(d, "config.json", "{\"_class_name\":\"AutoencoderKL\"}\n", err, errlen) &&
         st_file(d, "diffusion_pytorch_model.safetensors", vae, nv, err, errlen) &&
         sub_dir(dir, "scheduler", d, sizeof d, err, errlen) &&
         write_text(d, "scheduler_config.json", "{\"_class_name\":\"FlowMatchEulerDiscreteScheduler\"}\n", err, errlen);
}

/* ---- malformed files ---- */

/* A one-tensor GGUF: general.architecture = "llama", tensor `name` with the
** given dims, type and offset, then `data` zero bytes after the padded header. */
static void small_gguf(mk_buf *b, uint64_t n_tensors, const char *name, uint32_t ndim,
                       const uint64_t *ne, uint32_t type, uint64_t off, size_t data) {
  mk_gguf_begin(b, 3, n_tensors, 1);
  mk_kv_str(b, "general.architecture", "llama");
  mk_tensor_info(b, name, ndim, ne, type, off);
  mk_pad(b, 32);
  mk_zeros(b, data);
}

static void bad_gguf(const char *kind, mk_buf *b) {
  static const uint64_t n8[] = {8}, big[] = {1ull << 32, 1ull << 32, 16}, n48[] = {48, 2};
  if (!strcmp(kind, "gguf-dims-overflow"))
    small_gguf(b, 1, "w", 3, big, GGML_T_F32, 0, 32);
  else if (!strcmp(kind, "gguf-unknown-type"))
    small_gguf(b, 1, "w", 1, n8, 99, 0, 32);
  else if (!strcmp(kind, "gguf-not-multiple"))
    small_gguf(b, 1, "w", 2, n48, GGML_T_Q4_0, 0, 64);
  else if (!strcmp(kind, "gguf-misaligned"))
    small_gguf(b, 1, "w", 1, n8, GGML_T_F32, 16, 64);
  else if (!strcmp(kind, "gguf-offset-past-end"))
    small_gguf(b, 1, "w", 1, n8, GGML_T_F32, 1 << 20, 32);
  else if (!strcmp(kind, "gguf-too-many-dims"))
    small_gguf(b, 1, "w", 5, (const uint64_t[]){1, 1, 1, 1, 8}, GGML_T_F32, 0, 32);
  else
    small_gguf(b, 1, "w", 1, n8, GGML_T_F32, 0, 32);
}

static void bad_gguf_header(const char *kind, mk_buf *b) {
  bad_gguf("gguf-valid", b);
  if (!strcmp(kind, "gguf-truncated")) b->len = 75; /* inside the tensor name's length */
  if (!strcmp(kind, "gguf-magic")) memcpy(b->p, "GGML", 4);
  if (!strcmp(kind, "gguf-version")) b->p[4] = 1;
  if (!strcmp(kind, "gguf-tensor-count")) /* 4294967296000 = 1000 << 32 */
    memcpy(b->p + 8, "\x00\x00\x00\x00\xe8\x03\x00\x00", 8);
  if (!strcmp(kind, "gguf-string-length")) /* the key's length: 2^40 */
    memcpy(b->p + 24, "\x00\x00\x00\x00\x00\x01\x00\x00", 8);
}

static void bad_gguf_meta(const char *kind, mk_buf *b) {
  static const uint64_t n8[] = {8};
  mk_gguf_begin(b, 3, 2, 2);
  /* gguf-arch-longcat: a well-formed file of an architecture llama.cpp has no LLM_ARCH for */
  mk_kv_str(b, "general.architecture", !strcmp(kind, "gguf-arch-longcat") ? "longcat_flash" : "llama");
  if (!strcmp(kind, "gguf-array-length")) {
    mk_str(b, "tokenizer.ggml.tokens");
    mk_u32(b, V_ARR);
    mk_u32(b, V_STR);
    mk_u64(b, 1ull << 60);
  } else {
    mk_kv_u32(b, "general.alignment", !strcmp(kind, "gguf-alignment") ? 24 : 32);
  }
  mk_tensor_info(b, "w", 1, n8, GGML_T_F32, 0);
  mk_tensor_info(b, !strcmp(kind, "gguf-duplicate") ? "w" : "v", 1, n8, GGML_T_F32, 32);
  mk_pad(b, 32);
  mk_zeros(b, 64);
}

static void st_raw(mk_buf *b, const char *json, uint64_t header_len, size_t data) {
  mk_u64(b, header_len);
  mk_put(b, json, strlen(json));
  mk_zeros(b, data);
}

static void bad_st(const char *kind, mk_buf *b) {
  const char *t44 = "{\"w\":{\"dtype\":\"F16\",\"shape\":[4,4],\"data_offsets\":[0,%s]}}";
  char j[256];
  if (!strcmp(kind, "st-not-object")) {
    st_raw(b, "[1,2,3]", 7, 0);
  } else if (!strcmp(kind, "st-header-past-eof")) {
    st_raw(b, "{}", 1000, 0);
  } else if (!strcmp(kind, "st-header-cap")) {
    st_raw(b, "{}", 200ull << 20, 0);
  } else if (!strcmp(kind, "st-bad-json")) {
    st_raw(b, "{\"w\": [", 7, 0);
  } else if (!strcmp(kind, "st-offsets-mismatch")) {
    snprintf(j, sizeof j, t44, "30");
    st_raw(b, j, strlen(j), 32);
  } else if (!strcmp(kind, "st-offsets-past-end")) {
    snprintf(j, sizeof j, t44, "32");
    st_raw(b, j, strlen(j), 16);
  } else if (!strcmp(kind, "st-unknown-dtype")) {
    snprintf(j, sizeof j, "{\"w\":{\"dtype\":\"Q7\",\"shape\":[4],\"data_offsets\":[0,4]}}");
    st_raw(b, j, strlen(j), 4);
  } else if (!strcmp(kind, "st-shape-overflow")) {
    snprintf(j, sizeof j, "{\"w\":{\"dtype\":\"F16\",\"shape\":[4611686018427387904,"
             "4611686018427387904],\"data_offsets\":[0,8]}}");
    st_raw(b, j, strlen(j), 8);
  } else { /* st-truncated: shorter than the 8-byte length */
    mk_put(b, "\x10\x00\x00", 3);
  }
}

const char *const mk_bad_kinds[] = {
    "gguf-truncated", "gguf-magic", "gguf-version", "gguf-tensor-count",
    "gguf-string-length", "gguf-array-length", "gguf-dims-overflow", "gguf-unknown-type",
    "gguf-not-multiple", "gguf-misaligned", "gguf-offset-past-end", "gguf-too-many-dims",
    "gguf-alignment", "gguf-duplicate", "st-truncated", "st-not-object",
    "st-header-past-eof", "st-header-cap", "st-bad-json", "st-offsets-mismatch",
    "st-offsets-past-end", "st-unknown-dtype", "st-shape-overflow", "gguf-arch-longcat", NULL};

bool mk_bad(const char *kind, mk_buf *b, char *err, size_t errlen) {
  size_t i = 0;
  while (mk_bad_kinds[i] && strcmp(mk_bad_kinds[i], kind) != 0) i++;
  if (!mk_bad_kinds[i]) return fail(err, errlen, "unknown bad kind '%s'", kind);
  if (!strcmp(kind, "gguf-arch-longcat"))
    bad_gguf_meta(kind, b);
  else if (i < 5)
    bad_gguf_header(kind, b);
  else if (i == 5 || i == 12 || i == 13)
    bad_gguf_meta(kind, b);
  else if (i < 14)
    bad_gguf(kind, b);
  else
    bad_st(kind, b);
  return b->oom ? fail(err, errlen, "out of memory") : true;
}
