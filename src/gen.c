/*
** gen.c: image and video generation (diffusers pipelines and the video models' own
** reference scripts): which components are resident in each phase (text encoding,
** denoising, VAE decoding) under each offload mode, the denoiser's activation peak,
** the VAE decode peak, sequence parallel and FSDP across GPUs. The workload's shape
** arrives as extras "gen.*" (scripts/workloads/image.lua, video.lua). Uses
** estimate_int.h; no Lua.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate_int.h"
#include "gen.h"


/* Per activation family: the denoiser's live activation elements per token per hidden
** unit at its peak (k0 + k1 x ffn/hidden), and the VAE decoder's bytes per output
** pixel x frame x peak channel. Calibrated; each row cites the cases it was fitted to. */
typedef struct gen_family {
  const char *name;
  double k0, k1;    /* activation elements per token = hidden x (k0 + k1 x ffn / hidden) */
  double vae_bytes; /* VAE decode bytes per (pixel x frame x peak channel) decoded at once */
  double vae_out;   /* copies of the whole decoded video (3 channels) held at the decode's end */
  double vae_cached; /* bytes per element of the decode's freed maps the caching allocator keeps
                     ** (reserved, not allocated), beside vae_bytes */
  bool vae_fixed;   /* vae_bytes is per element whatever the VAE dtype (image VAEs: fitted in fp16) */
  vf_basis act_basis, vae_basis; /* calibrated where a case fitted the constant, else assumed */
} gen_family;

static const gen_family families[] = {
    /* diffusers image DiTs: the peak is the VAE decode of the whole batch (AutoencoderKL's
    ** use_slicing off). Allocated: 8 B per 1024^2 x 256 element, 2 GiB an image
    ** (sayakpaul/diffusers-torchao @9b9f238 FLUX.1-dev bf16 on an H100, max_memory_allocated:
    ** 39.49 / 47.51 / 61.55 GiB at 4 / 8 / 16 images, +2.0 GiB an image, the same over int8
    ** and fp8 transformers). Reserved: 16 B, 4 GiB at 1024^2 (hf-blog-flux-dev-h100-*,
    ** max_memory_reserved: peak minus memory after loading, 4.5 GiB), the other 8 B the
    ** decoder's freed feature maps of each resolution held by the caching allocator.
    ** hf-blog-sdxl-a100-fp16 (4 images, 15 GiB over the weights, reserved) decodes in fp32:
    ** "unet" keeps its 16 B, not split (no allocated figure of its own) */
    /* k0, k1 of "image" and "unet": assumed (no case isolates the denoiser's activations:
    ** the image cases above peak in the VAE decode) */
    {"image", 8.0, 2.0, 8.0, 0.0, 8.0, true, BASIS_ASSUMED, BASIS_CALIBRATED},
    {"unet", 24.0, 0.0, 16.0, 0.0, 0.0, true, BASIS_ASSUMED, BASIS_CALIBRATED},
    /* Wan reference scripts (fp32 residual stream and norms, float64 rotary of q and k at the
    ** attention's peak): 40 B per token x dim, 20 bf16 elements. Fitted with the fp32 DiT
    ** weights: wan21-t2v-14b-720p-h20-1gpu (69.1 GiB = 53.2 GiB fp32 DiT + 14.4 GiB at 75,600
    ** tokens) and, with Wan2.2's per-token timestep (+52 B, see gen_token_timestep),
    ** wan22-t2v-a14b-720p-h20-1gpu / wan22-i2v-a14b-480p-h20-1gpu (59.8 / 41.0 GiB over one
    ** 26.6 GiB bf16 expert). VAE decode in fp32, one latent frame (4 frames) at a time with
    ** feature caches: 45.5 B per pixel x frame x channel (96 at full resolution) plus three
    ** fp32 copies of the growing output (torch.cat per chunk), fitted to
    ** wan21-t2v-1.3b-480p-4090-1gpu (8.19 GiB: DiT offloaded, cache emptied, decode alone);
    ** the Wan2.2 VAE's channel equivalent (architectures/wan.lua) to
    ** wan22-ti2v-5b-*-720p-4090-{1,4,8}gpu (22.6-22.9 GiB whatever the GPU count), fitted with
    ** the Wan2.2 decoder modelled narrower; with Wan2_2_VAE's exact weights (2.625 GiB,
    ** gen_parts wan22_vae) it gives zysno1/Wan2.2-Enhanced's printed fp32 decode, 23.49 against
    ** 23.54 GiB allocated (test_holdout25_wanvae), the 4090 rows +5.7 to +7.1% reserved */
    {"wan", 20.0, 0.0, 22.75, 3.0, 0.0, false, BASIS_CALIBRATED, BASIS_CALIBRATED},
    /* diffusers HunyuanVideo: hf-blog-videogen-hunyuanvideo-bf16-group-offload-leaf-vae-tiling
    ** (about 5.5 GiB at 47,744 tokens). VAE decode: 24 B per pixel x frame x channel of the
    ** frames one decoder call takes, fitted to hf-blog-videogen-hunyuanvideo-fp8-upcast (51.70
    ** GiB reserved, untiled, the decode its peak: 19.2 GiB for a 17-frame 512 x 768 call, 12
    ** bf16 copies of a 128-channel full-resolution map; fitted and checked on reserved figures
    ** only: diffusers PR #10295's "~8 GB" for a 16-frame tile at 768 x 512, of unstated kind,
    ** would leave half of it allocator reserve). diffusers decodes 17 frames a call
    ** whatever the length (architectures/hunyuanvideo.lua vae_chunk_by_runtime), Tencent's
    ** scripts 65 with their default tiling, all frames without it; until 2026-12-01 this row
    ** held 4.4 B fitted as if all 121 frames were decoded at once (+12% to +14% on every
    ** untiled blog row). Both decoders keep every decoded temporal tile in a list and blend
    ** and cat them after the last: tiles of 17 frames every 12 (diffusers
    ** tile_sample_stride_num_frames) or 65 every 48 (Tencent, tile_overlap_factor 0.25), 4/3
    ** of the decoded video held beside the last call (a one-call decode holds none: not told
    ** apart, under 1% of its maps) */
    {"hunyuanvideo", 20.0, 0.0, 24.0, 4.0 / 3.0, 0.0, false, BASIS_CALIBRATED, BASIS_CALIBRATED},
    /* diffusers CogVideoX (2B, 5B, 1.5-5B and ConsisID share AutoencoderKLCogVideoX): with SDPA
    ** a block's peak is its feed-forward (the 4 x hidden input and GELU output: 8 elements per
    ** token x hidden) beside the residual stream, norms and the rotary temporaries of q and k:
    ** 20, the Wan and HunyuanVideo rows' figure; the CogVideo README's minimum-memory diffusers
    ** rows (sequential offload + tiling: cogvideo-readme-cogvideox-5b-diffusers-bf16-allopt,
    ** at least 5 GB, is the denoiser's activations alone) need it, and the former 2 did not
    ** hold a feed-forward's output. (diffusers-doc-cogvideox15-model-offload-vae-tiling then
    ** misses: its table measured CogVideoX-2b at 720x480, see below.) VAE decode: the first 2-latent-frame
    ** call
    ** takes the remainder (9 frames for 13 latent frames) and its full-resolution up blocks hold
    ** 128-channel maps (block_out_channels[0]) with the causal convs' caches: 46 B (23 bf16
    ** copies) per pixel x frame x channel, fitted to diffusers-doc-consisid-baseline and
    ** -plus-sequential-offload (allocated and reserved); the diffusers CogVideoX doc table (its
    ** source, PR #9150, measured CogVideoX-2b at 720x480 x 49 frames: 19 GiB with model
    ** offload, the decode alone) gives 45.8 B, and hf-blog-videogen-cogvideox15-5b-bf16
    ** (121 frames: 31 latent frames once the pipeline drops its patch_t padding, a first call
    ** of 3, 9 frames at 768x512) is 12% under it */
    {"cogvideox", 20.0, 0.0, 46.0, 0.0, 0.0, false, BASIS_CALIBRATED, BASIS_CALIBRATED},
    /* diffusers LTX-Video: the decoder's last stages run all frames at once at 1/4 resolution
    ** with 128 channels (8 per output pixel, architectures/ltx.lua): 12 B per element, about
    ** six bf16 copies of that map (conv input, causal-padded concat, norm, activation, output,
    ** residual). Fitted to hf-blog-videogen-ltx-video-bf16 (17.75 GiB, metric not stated).
    ** Denoiser: diffusers' LTXVideoTransformerBlock is the image DiTs' block (adaLN, SDPA with
    ** RMS q/k norm, a 4x GELU-tanh feed-forward, bf16 residual stream: transformer_ltx.py), not
    ** the reference scripts' fp32-residual layout behind k0 = 20, so the "image" row's 8 + 2 x
    ** ffn/hidden applies. Checked, not fitted: diffusers' benchmark (benchmarks/benchmarking_ltx.py
    ** of PR #11565, the transformer alone on an L40S, max_memory_allocated) prints 25.22 GiB for
    ** LTX-Video-0.9.7-dev (13.04B) at 7,392 tokens, 0.93 GiB over the bf16 weights: 16 elements
    ** give 0.90 (k0 = 20 gave 1.14, +23%); the same benchmark's FLUX.1-dev row (22.64 GiB, 0.47
    ** over the weights) checks the "image" row at 0.43 */
    {"ltx", 8.0, 2.0, 12.0, 0.0, 0.0, false, BASIS_ASSUMED, BASIS_CALIBRATED},
    /* Mochi and Open-Sora: HunyuanVideo's former row (4.4 B per element over every frame
    ** decoded at once, before its decode was per call) kept, assumed (not fitted to a case of
    ** their own) */
    {"mochi", 20.0, 0.0, 4.4, 0.0, 0.0, false, BASIS_ASSUMED, BASIS_ASSUMED},
    {"opensora", 20.0, 0.0, 4.4, 0.0, 0.0, false, BASIS_ASSUMED, BASIS_ASSUMED},
    /* diffusers HunyuanVideo-1.5: its dual-stream blocks are HunyuanVideo's layout, so that row's
    ** former figures are reused, assumed (no HunyuanVideo-1.5 case in shared/calibration); its decoder
    ** runs every frame at once, vae_pixels counts them all (architectures/hunyuanvideo15.lua) */
    {"hunyuanvideo15", 20.0, 0.0, 4.4, 0.0, 0.0, false, BASIS_ASSUMED, BASIS_ASSUMED},
};

/* The basis of the VAE decode constants: the VAE family's, but a calibrated constant borrowed
** from another family's VAE and scaled to this pipeline (Qwen-Image's one-frame Wan VAE decode,
** scripts/gen_parts.lua wan_vae_decode_elems) is modelled, not calibrated on a case of its own */
static vf_basis vae_basis(const gen_family *f, const gen_family *fv) {
  return fv != f && fv->vae_basis == BASIS_CALIBRATED ? BASIS_MODELLED : fv->vae_basis;
}

static const gen_family *family_of(const char *name) {
  for (size_t i = 0; i < sizeof families / sizeof *families; i++)
    if (strcmp(families[i].name, name) == 0) return &families[i];
  return &families[0];
}

#define GEN_LISTS 8

/* Weights of the pipeline split by component. */
typedef struct gen_weights {
  uint64_t te, den, vae;        /* bytes: text/image encoders, denoiser(s), VAE */
  uint64_t te_max;              /* the largest single encoder */
  uint64_t te_reentry;          /* the last text encoder of the offload chain + the largest earlier one */
  uint64_t te_leaf, den_leaf, vae_leaf; /* the largest single tensor of each */
  uint64_t den_ffn_leaf;        /* the largest feed-forward (mlp role) tensor of the denoiser's blocks */
  uint64_t den_all;             /* the whole denoiser before any TP split */
  uint64_t den_tp;              /* the denoiser's block linears (attention, MLP) that TP splits */
  uint64_t t2i;                 /* Open-Sora's t2i2v image stage (FLUX.1-dev + its AE), bytes */
  uint64_t aux;                 /* helpers outside the pipeline (ConsisID's face models): never offloaded */
  uint64_t img_kept;            /* an image encoder left on the GPU beside group-offloaded components */
  bool den_pinned;              /* bitsandbytes int8 modules cannot move to the CPU */
  /* each encoder (text_encoder, text_encoder_2, image_encoder ...): name, bytes, largest tensor */
  const char *enc_name[8];
  uint64_t enc[8], enc_leaf[8];
  /* each denoiser component by its folder, the tensor names' first part (transformer,
  ** transformer_2 of a two-expert model, architectures/wan.lua): a name, its length, bytes */
  const char *den_name[4];
  size_t den_len[4];
  uint64_t den_part[4];
  /* the VAE decoder's up_blocks (bytes of each, n_up of them) and the rest of the decoder
  ** (conv_in, mid_block, conv_norm_out, conv_out): the groups of block-level group offload
  ** through _group_offload_block_modules (gen_vae_groups) */
  uint64_t vae_up[16], vae_dec_rest;
  int n_up;
  /* the denoiser's block lists (tensor names "list.*.x"): bytes of one block, blocks */
  struct { const char *name; size_t len; uint64_t block, n; } lists[GEN_LISTS];
} gen_weights;

static bool gen_ref(const scenario *s) { return strcmp(s->runtime, "reference") == 0; }

/* The reference scripts' storage: "always" fp32 DiT (Wan2.1), or (Wan2.2) under FSDP, where
** --convert_model_dtype does not apply, and wherever the flag is not given
** (runtime.convert_model_dtype = false: Wan-Video/Wan2.2 @42bf4cf wan/text2video.py
** _configure_model casts the fp32 checkpoint to param_dtype only when it is given;
** architectures/wan.lua). */
static bool gen_den_fp32(const scenario *s) {
  const char *r = scn_str(s, "gen.ref_fp32", "never");
  if (!gen_ref(s)) return false;
  if (strcmp(r, "always") == 0) return true;
  return strcmp(r, "fsdp") == 0 &&
         (s->strategy == STRAT_FSDP || !scn_bool(s, "runtime.convert_model_dtype", true));
}

/* Bytes of one tensor: its stored bytes, or its dtype's, or fp32 where the runtime upcasts. */
static uint64_t gen_tensor_bytes(ectx *c, const inv_tensor *t, uint64_t n, bool fp32) {
  if (t->stored_bytes) return t->stored_bytes;
  if (fp32 && !t->qtype[0]) return acc_mul(&c->acc, n, 4);
  return est_elems_bytes(c, n, t->dtype);
}

static bool is_encoder(const char *comp) {
  return strncmp(comp, "text_encoder", 12) == 0 || strcmp(comp, "image_encoder") == 0;
}

/* A repeated denoiser tensor ("transformer.blocks.*.ffn.weight") adds its bytes to one
** block of its list ("transformer.blocks."). */
static void gen_block_list(gen_weights *w, const inv_tensor *t, uint64_t one) {
  const char *star = strstr(t->name, ".*.");
  if (!star || t->count < 2) return;
  size_t len = (size_t)(star - t->name);
  for (int k = 0; k < GEN_LISTS; k++) {
    if (w->lists[k].name && (w->lists[k].len != len || strncmp(w->lists[k].name, t->name, len) != 0)) continue;
    w->lists[k].name = t->name, w->lists[k].len = len, w->lists[k].n = t->count;
    w->lists[k].block += one;
    return;
  }
}

/* Bytes of the largest group of `per` consecutive blocks of one list. */
static uint64_t gen_group_bytes(ectx *c, const gen_weights *w, uint64_t per) {
  uint64_t best = 0;
  for (int k = 0; k < GEN_LISTS && w->lists[k].name; k++) {
    uint64_t g = acc_mul(&c->acc, w->lists[k].block, per < w->lists[k].n ? per : w->lists[k].n);
    if (g > best) best = g;
  }
  return best;
}

/* The VAE's weights are fp32 as loaded: the reference scripts' fp32 VAE, or a diffusers
** pipeline whose VAE was loaded with torch_dtype=torch.float32 beside a bf16 pipeline
** (workload.vae_dtype = "fp32": from_pretrained(..., vae=vae) keeps the component's own dtype;
** the Wan docs' AutoencoderKLWan.from_pretrained(..., torch_dtype=torch.float32)), its latents
** cast to vae.dtype before decode (pipeline_wan.py). */
static bool gen_vae_loaded_fp32(const scenario *s) {
  return scn_bool(s, "gen.vae_fp32", false) || (gen_ref(s) && scn_bool(s, "gen.ref_vae_fp32", false));
}

/* The VAE runs in fp32: loaded so (gen_vae_loaded_fp32), or SDXL's force_upcast
** (gen.vae_upcast), which casts a 16-bit VAE for the decode only. */
static bool gen_vae_fp32(const scenario *s) {
  return scn_bool(s, "gen.vae_upcast", false) || gen_vae_loaded_fp32(s);
}

/* Tensor parallel (Open-Sora's colossalai hybrid plugin, opensora/models/mmdit/distributed.py
** MMDiTPolicy): the blocks' q/k/v, attention output and MLP linears are split column/row-wise
** over tp ranks; the modulation linears, norms and embedders stay whole on every rank
** (opensora2-t2v-256px-{2,4}gpu). */
static void gen_split_tp(ectx *c, gen_weights *w) {
  uint64_t tp = c->s->tp > 1 ? c->s->tp : 1;
  w->den_all = w->den;
  if (tp < 2) return;
  uint64_t kept = w->den - w->den_tp;
  w->den = acc_add(&c->acc, kept, bytes_ceildiv(w->den_tp, tp));
  w->den_tp = bytes_ceildiv(w->den_tp, tp);
}

/* A VAE tensor's bytes to its decoder group: "vae.decoder.up_blocks.<i>." to up block i, any
** other "vae.decoder." tensor to the decoder's own group (gen_vae_groups). */
static void gen_vae_block(ectx *c, gen_weights *w, const char *name, uint64_t all) {
  static const char up[] = "vae.decoder.up_blocks.", dec[] = "vae.decoder.";
  if (strncmp(name, up, sizeof up - 1) == 0) {
    char *end = NULL;
    long i = strtol(name + sizeof up - 1, &end, 10);
    if (end && *end == '.' && i >= 0 && i < 16) {
      w->vae_up[i] = acc_add(&c->acc, w->vae_up[i], all);
      if ((int)i + 1 > w->n_up) w->n_up = (int)i + 1;
      return;
    }
  }
  if (strncmp(name, dec, sizeof dec - 1) == 0) w->vae_dec_rest = acc_add(&c->acc, w->vae_dec_rest, all);
}

static void gen_split(ectx *c, gen_weights *w) {
  uint64_t enc[8] = {0};
  const char *names[8] = {0};
  /* the VAE's weights are fp32 when it is loaded so; SDXL's force_upcast casts them only for
  ** the decode (kept as stored here, as before) */
  bool den32 = gen_den_fp32(c->s), vae32 = gen_vae_loaded_fp32(c->s);
  bool img32 = scn_bool(c->s, "gen.image_encoder_fp32", false);
  bool img_kept = scn_bool(c->s, "gen.resident_image_encoder", false);
  memset(w, 0, sizeof *w);
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *t = &c->m->inv.t[i];
    uint64_t n = 0;
    if (!inv_tensor_elements(t, &n)) c->acc.overflow = true;
    bool vae = strcmp(t->component, "vae") == 0, den = !vae && !is_encoder(t->component);
    bool img = strcmp(t->component, "image_encoder") == 0;
    uint64_t one = gen_tensor_bytes(c, t, n, (vae && vae32) || (den && den32) || (img && img32));
    uint64_t all = acc_mul(&c->acc, one, t->count);
    if (strcmp(t->component, "face_encoder") == 0) {
      w->aux = acc_add(&c->acc, w->aux, all);
    } else if (img && img_kept) {
      w->img_kept = acc_add(&c->acc, w->img_kept, all);
    } else if (vae) {
      w->vae = acc_add(&c->acc, w->vae, all);
      if (one > w->vae_leaf) w->vae_leaf = one;
      gen_vae_block(c, w, t->name, all);
    } else if (is_encoder(t->component)) {
      w->te = acc_add(&c->acc, w->te, all);
      if (one > w->te_leaf) w->te_leaf = one;
      for (int k = 0; k < 8; k++) {
        if (!names[k] || strcmp(names[k], t->component) == 0) {
          names[k] = t->component;
          enc[k] = acc_add(&c->acc, enc[k], all);
          if (enc[k] > w->te_max) w->te_max = enc[k];
          if (one > w->enc_leaf[k]) w->enc_leaf[k] = one;
          break;
        }
      }
    } else {
      w->den = acc_add(&c->acc, w->den, all);
      if (one > w->den_leaf) w->den_leaf = one;
      if (t->count > 1 && t->role == ROLE_MLP && one > w->den_ffn_leaf) w->den_ffn_leaf = one;
      if (strcmp(t->qtype, "int8-row") == 0) w->den_pinned = true;
      const char *dot = strchr(t->name, '.');
      size_t flen = dot ? (size_t)(dot - t->name) : strlen(t->name);
      for (int k = 0; k < 4; k++) {
        if (!w->den_name[k] || (w->den_len[k] == flen && strncmp(w->den_name[k], t->name, flen) == 0)) {
          w->den_name[k] = t->name, w->den_len[k] = flen;
          w->den_part[k] = acc_add(&c->acc, w->den_part[k], all);
          break;
        }
      }
      if (t->count > 1 && (t->role == ROLE_ATTN || t->role == ROLE_MLP)) w->den_tp = acc_add(&c->acc, w->den_tp, all);
      gen_block_list(w, t, one);
    }
  }
  /* diffusers' model_cpu_offload_seq orders the text encoders text_encoder, text_encoder_2,
  ** ...: the last of them, and beside it the largest earlier one, is what a second pass
  ** through the chain holds (gen_phases) */
  int last = -1, n_te = 0;
  for (int k = 0; k < 8 && names[k]; k++) {
    if (strncmp(names[k], "text_encoder", 12) != 0) continue;
    n_te++;
    if (last < 0 || strcmp(names[k], names[last]) > 0) last = k;
  }
  for (int k = 0; k < 8; k++) w->enc_name[k] = names[k], w->enc[k] = enc[k];
  if (n_te > 1) {
    uint64_t other = 0;
    for (int k = 0; k < 8 && names[k]; k++)
      if (k != last && strncmp(names[k], "text_encoder", 12) == 0 && enc[k] > other) other = enc[k];
    w->te_reentry = acc_add(&c->acc, enc[last], other);
  }
  gen_split_tp(c, w);
  w->t2i = est_elems_bytes(c, scn_u64(c->s, "gen.t2i_params", 0), c->s->dtype);
}

/* The phases' transient bytes. */
typedef struct gen_shape {
  uint64_t act;    /* denoiser activations of one forward, per device (stale ones included) */
  uint64_t stale;  /* the part of act split by sequence parallel: cached blocks left by the loop */
  uint64_t te_act; /* text encoder activations */
  uint64_t vae;    /* VAE decode peak */
  uint64_t vae_cached; /* the decode's freed blocks kept by the caching allocator */
  uint64_t lat;    /* latents, noise prediction, text embeddings kept across the loop */
  uint64_t sp;     /* sequence-parallel GPUs */
  uint64_t mask;   /* the dense attention mask inside act (gen_dense_mask) */
} gen_shape;

/* HunyuanVideo-1.5's attention processor (HunyuanVideo15AttnProcessor2_0, diffusers
** transformer_hunyuan_video15.py) expands the [B, S] padding mask of the joint sequence into a
** dense [B, 1, S, S] boolean in every block: self_attn_mask_1 (a .repeat, alive until the call
** returns) and its & with its transpose, 1 byte each per element. PyTorch's SDPA turns a boolean
** mask into an additive one of the query's dtype (convert_boolean_attn_mask: zeros_like +
** masked_fill_), and the memory-efficient kernel pads its last dimension to a multiple of 16
** (preprocess_mask, pad_bias) when S is not one: a second copy. The flash backends (workload
** attention "flash") take the boolean mask as it is. Exact arithmetic from the code, unmeasured.
** diffusers v0.32.0 and v0.32.1 HunyuanVideo (architectures/hunyuanvideo.lua): one [B, S, S]
** boolean built once by the transformer's forward (gen.dense_attn_mask_bools = 1), the same
** additive copy per attention call; Tencent-Hunyuan/HunyuanVideo issue #215 (720 x 1280 x 129,
** S = 119,056, everything on an A800 80GB: out of memory) needs it. diffusers Chroma
** (ChromaTransformerBlock / ChromaSingleTransformerBlock, transformer_chroma.py) multiplies the
** [B, S] padding mask, already in the latents' dtype, with its transpose: one [B, 1, S, S] mask of
** the compute dtype and no boolean (gen.dense_attn_mask_bools 0, gen.dense_attn_mask_float), which
** SDPA takes without a conversion and which exists whatever the attention backend. */
static uint64_t gen_dense_mask(ectx *c, uint64_t a) {
  const scenario *s = c->s;
  if (!scn_bool(s, "gen.dense_attn_mask", false)) return 0;
  uint64_t S = scn_u64(s, "gen.tokens", 1), batch = scn_u64(s, "gen.den_batch", 1);
  uint64_t per = scn_u64(s, "gen.dense_attn_mask_bools", 2);
  if (scn_bool(s, "gen.dense_attn_mask_float", false) || strcmp(scn_str(s, "gen.attention", "sdpa"), "flash") != 0)
    per += a * (S % 16 ? 2 : 1);
  return acc_from_double(&c->acc, (double)S * (double)S * (double)batch * (double)per);
}

static uint64_t gen_act(ectx *c, const gen_family *f, uint64_t a, uint64_t sp, uint64_t mask) {
  const scenario *s = c->s;
  uint64_t tokens = bytes_ceildiv(scn_u64(s, "gen.tokens", 1), sp);
  uint64_t batch = scn_u64(s, "gen.den_batch", 1), h = scn_u64(s, "gen.hidden", c->m->hidden);
  double ffn_ratio = (double)scn_u64(s, "gen.ffn", 4 * h) / (double)(h ? h : 1);
  double k = f->k0 + f->k1 * ffn_ratio;
  uint64_t act = acc_from_double(&c->acc, (double)batch * (double)tokens * (double)h * (double)a * k);
  if (s->attention == ATTN_EAGER) {
    /* eager attention materializes scores and softmax probabilities per head */
    uint64_t full = scn_u64(s, "gen.tokens", 1), heads = bytes_ceildiv(scn_u64(s, "gen.heads", 1), sp);
    uint64_t sc = acc_mul3(&c->acc, acc_mul(&c->acc, full, full), heads, batch);
    act = acc_add(&c->acc, act, acc_mul(&c->acc, sc, 2 * a));
  }
  return acc_add(&c->acc, act, mask);
}

/* Wan2.2 embeds the timestep per token in fp32 (Wan-Video/Wan2.2 wan/modules/model.py):
** e [B, L, dim] and e0 [B, L, 6, dim] live through every block, 28 B per token x dim, and
** sp_dit_forward computes them over the whole sequence before chunking (views keep the
** storage), so this part is not split; each block's (modulation + e).chunk(6) is a 24 B
** temporary over the rank's tokens. Returns the unsplit part; *split gets the other.
** diffusers' Wan2.2 TI2V pipeline (expand_timesteps, pipeline_wan.py since #12004, a6d9f6a1a9)
** passes the timestep per token too: WanTimeTextImageEmbedding returns temb [B, L, dim] and
** timestep_proj [B, L, 6 x dim] in the compute dtype (type_as the text states), both live
** through every block, 7 elements per token x dim; each WanTransformerBlock adds the latter
** to its scale_shift_table in fp32 (scale_shift_table.unsqueeze(0) + temb.float(): [B, L, 6,
** dim], 24 B, its six chunks views kept through the block). Under context parallelism the
** split is assumed to follow the reference's. */
static uint64_t gen_token_timestep(ectx *c, uint64_t sp, uint64_t *split) {
  const scenario *s = c->s;
  uint64_t tokens = scn_u64(s, "gen.tokens", 1), h = scn_u64(s, "gen.hidden", c->m->hidden);
  uint64_t batch = scn_u64(s, "gen.den_batch", 1);
  *split = 0;
  if (!gen_ref(s) && scn_bool(s, "gen.diffusers_token_timestep", false)) {
    *split = acc_mul3(&c->acc, acc_mul(&c->acc, bytes_ceildiv(tokens, sp), h), batch, 24);
    return acc_mul3(&c->acc, acc_mul(&c->acc, tokens, h), batch, 7 * (est_bits(s->dtype) / 8));
  }
  if (!scn_bool(s, "gen.token_timestep", false) || !gen_ref(s)) return 0;
  *split = acc_mul3(&c->acc, acc_mul(&c->acc, bytes_ceildiv(tokens, sp), h), batch, 24);
  return acc_mul3(&c->acc, acc_mul(&c->acc, tokens, h), batch, 28);
}

/* FSDP gathers one block's parameters in the compute dtype and prefetches the next. */
static uint64_t gen_fsdp_gather(ectx *c, const gen_weights *w) {
  const scenario *s = c->s;
  if (s->strategy != STRAT_FSDP || scn_u64(s, "gen.sp", 1) < 2) return 0;
  uint64_t blocks = acc_mul(&c->acc, scn_u64(s, "gen.layers", c->m->layers), scn_u64(s, "gen.experts", 1));
  uint64_t blk = bytes_ceildiv(w->den, blocks ? blocks : 1);
  return gen_den_fp32(s) ? blk : acc_mul(&c->acc, blk, 2);
}

static void gen_shapes(ectx *c, const gen_family *f, const gen_family *fv, const gen_weights *w, gen_shape *g) {
  const scenario *s = c->s;
  uint64_t a = est_bits(s->dtype) / 8, split = 0;
  g->sp = scn_u64(s, "gen.sp", 1);
  g->mask = gen_dense_mask(c, a);
  g->act = gen_act(c, f, a, g->sp, g->mask);
  uint64_t full = gen_token_timestep(c, g->sp, &split);
  g->stale = acc_add(&c->acc, g->act, split);
  g->act = acc_add(&c->acc, acc_add(&c->acc, g->stale, full), gen_fsdp_gather(c, w));
  uint64_t vae_a = gen_vae_fp32(s) ? 4 : a;
  double per = fv->vae_bytes * (double)vae_a / 2.0;
  if (fv->vae_fixed) per = fv->vae_bytes;
  double elems = (double)scn_u64(s, "gen.vae_pixels", 0) * (double)scn_u64(s, "gen.vae_channels", 128) *
                 (double)scn_u64(s, "gen.vae_images", 1);
  g->vae = acc_from_double(&c->acc, per * elems);
  g->vae_cached = acc_from_double(&c->acc, per / fv->vae_bytes * fv->vae_cached * elems);
  /* enable_sequential_cpu_offload: accelerate's AlignDevicesHook.pre_forward moves each leaf's
  ** weights in with set_module_tensor_to_device, which empties the CUDA cache after every
  ** tensor it moves (accelerate utils/modeling.py: torch.cuda.empty_cache() since PR #1699,
  ** v0.21.0; clear_device_cache() since #2857): the decoder's freed feature maps do not stay
  ** reserved */
  if (!gen_ref(s) && strcmp(scn_str(s, "gen.offload", "none"), "sequential") == 0) g->vae_cached = 0;
  /* the decoded video, 3 channels in the VAE's dtype, in fv->vae_out copies */
  uint64_t out = acc_mul3(&c->acc, scn_u64(s, "gen.out_pixels", 0), 3 * vae_a, scn_u64(s, "gen.vae_images", 1));
  g->vae = acc_add(&c->acc, g->vae, acc_from_double(&c->acc, (double)out * fv->vae_out));
  /* encoder: hidden states of every layer kept by output_hidden_states, x batch (+CFG);
  ** the 8 extra layer-sized buffers (attention and MLP temporaries) are assumed */
  uint64_t tt = scn_u64(s, "gen.text_tokens", 77), th = scn_u64(s, "gen.text_hidden", 4096);
  g->te_act = acc_mul3(&c->acc, acc_mul(&c->acc, tt, th), scn_u64(s, "gen.te_layers", 24) + 8,
                       acc_mul(&c->acc, scn_u64(s, "gen.den_batch", 1), a));
  /* latents, noise prediction, scheduler state and guidance copy: 4 fp32 tensors (assumed) */
  g->lat = acc_mul3(&c->acc, scn_u64(s, "gen.latent_elems", 0), scn_u64(s, "gen.den_batch", 1), 4 * 4);
}

/* One component's group offload settings: its own (workload.offload_by_component, scripts/
** workloads/image.lua: gen.group.<den|vae|encoder>.*, whose omitted arguments took
** apply_group_offloading's defaults), else the runtime knobs that apply to every component
** (runtime.offload_type, num_blocks_per_group, use_stream; the stream assumed on). */
typedef struct gen_group {
  bool kept;          /* "none": no hook, left on the GPU by pipe.to("cuda") */
  bool leaf;          /* offload_type leaf_level */
  uint64_t per;       /* num_blocks_per_group */
  uint64_t in_flight; /* groups resident: 2 with use_stream (the next prefetched), else 1 */
} gen_group;

static gen_group gen_group_of(const scenario *s, const char *comp) {
  char key[96];
  gen_group g = {false, false, 1, 1};
  bool asked; /* use_stream = true given, not assumed */
  snprintf(key, sizeof key, "gen.group.%s.offload_type", comp);
  const char *type = scn_str(s, key, NULL);
  if (!type) {
    g.leaf = strcmp(scn_str(s, "runtime.offload_type", "block_level"), "leaf_level") == 0;
    g.per = scn_u64(s, "runtime.num_blocks_per_group", 1);
    g.in_flight = scn_bool(s, "runtime.use_stream", true) ? 2 : 1;
    asked = scn_bool(s, "runtime.use_stream", false);
  } else {
    g.kept = strcmp(type, "none") == 0;
    g.leaf = strcmp(type, "leaf_level") == 0;
    snprintf(key, sizeof key, "gen.group.%s.num_blocks_per_group", comp);
    g.per = scn_u64(s, key, 1);
    snprintf(key, sizeof key, "gen.group.%s.use_stream", comp);
    asked = scn_bool(s, key, false);
    g.in_flight = asked ? 2 : 1;
  }
  /* from diffusers v0.34.0 a block-level offload with a stream holds one block a group
  ** (hooks/group_offloading.py _apply_group_offloading_block_level sets num_blocks_per_group
  ** to 1, #11375; scripts/workloads/image.lua stream_one_block) */
  if (asked && !g.leaf && scn_bool(s, "gen.stream_one_block", false)) g.per = 1;
  return g;
}

/* Bytes of a component resident while it runs, under the offload mode (g: its group offload
** settings, used under offload "group"). */
static uint64_t gen_resident(ectx *c, uint64_t all, uint64_t leaf, uint64_t layers, const gen_weights *den,
                             const gen_group *g) {
  const scenario *s = c->s;
  const char *off = scn_str(s, "gen.offload", "none");
  if (strcmp(off, "sequential") == 0) return leaf;
  if (strcmp(off, "group") == 0) {
    if (g->kept) return all;
    /* the group in use and, with use_stream, the one prefetched on a side stream (diffusers
    ** hooks/group_offloading.py; without it each group is onloaded when its forward starts
    ** and offloaded after: one at a time) */
    if (g->leaf || !den) return acc_mul(&c->acc, leaf, g->in_flight);
    /* the largest group of one block list (HunyuanVideo's dual-stream blocks are 2.4x its
    ** single-stream ones: hf-blog-videogen-hunyuanvideo-bf16-group-offload-blocks{1,8}-*) */
    uint64_t r = gen_group_bytes(c, den, g->per);
    if (!r) r = acc_mul(&c->acc, bytes_ceildiv(all, layers ? layers : 1), g->per);
    r = acc_mul(&c->acc, r, g->in_flight);
    return r < all ? r : all;
  }
  return all;
}

/* The VAE's bytes resident for its decode under block-level group offload. A VAE class with
** _group_offload_block_modules (AutoencoderKL, AutoencoderKLWan from diffusers v0.36.0, #12692:
** gen.vae_block_modules, scripts/workloads/image.lua) is grouped through its decoder:
** _apply_group_offloading_block_level recurses into `decoder`, whose up_blocks ModuleList goes in
** groups of num_blocks_per_group and whose other children (conv_in, mid_block, conv_norm_out,
** conv_out) form the decoder's "unmatched" group, onloaded by the decoder's forward and held until
** it returns. So the decode holds that group beside the largest run of in_flight consecutive
** up-block groups. Before v0.36.0, and for the VAE classes without the list (their direct
** children encoder / decoder are no ModuleList), the whole VAE is the module's one group. */
static uint64_t gen_vae_groups(ectx *c, const gen_weights *w, const gen_group *g) {
  if (!scn_bool(c->s, "gen.vae_block_modules", false) || !w->n_up) return w->vae;
  uint64_t run = g->per * g->in_flight, best = 0;
  for (int i = 0; i < w->n_up; i++) {
    uint64_t sum = 0;
    for (int j = i; j < w->n_up && (uint64_t)(j - i) < run; j++) sum = acc_add(&c->acc, sum, w->vae_up[j]);
    if (sum > best) best = sum;
  }
  return acc_add(&c->acc, w->vae_dec_rest, best);
}

typedef struct gen_phase {
  const char *name;
  uint64_t weights_te, weights_den, weights_vae, weights_t2i, weights_aux, weights_kept, act, vae;
  uint64_t cached; /* reserved beside the phase's tensors: the VAE decode's cached blocks */
} gen_phase;

#define GEN_PHASES 4

static uint64_t phase_total(ectx *c, const gen_phase *p) {
  uint64_t t = acc_add(&c->acc, p->weights_te, p->weights_den);
  t = acc_add(&c->acc, acc_add(&c->acc, t, p->weights_vae), acc_add(&c->acc, p->weights_t2i, p->weights_aux));
  t = acc_add(&c->acc, t, p->weights_kept);
  return acc_add(&c->acc, acc_add(&c->acc, t, p->act), p->vae);
}

/* The fragmentation share of a phase's transients: 10% (assumed); none under expandable
** segments, whose freed blocks merge with their neighbours in one segment per stream
** (src/estimate.c est_add_slack_expandable). */
static double gen_frag(ectx *c) {
  return scn_bool(c->s, "runtime.expandable_segments", false) ? 0.0 : 0.10;
}

/* What a phase reserves: its tensors, the fragmentation share of its transients (gen_frag, as
** gen_estimate's slack) and the VAE decode's cached blocks. */
static uint64_t phase_reserved(ectx *c, const gen_phase *p) {
  uint64_t frag = acc_from_double(&c->acc, (double)acc_add(&c->acc, p->act, p->vae) * gen_frag(c));
  return acc_add(&c->acc, acc_add(&c->acc, phase_total(c, p), frag), p->cached);
}

/* Open-Sora's text-to-image-to-video flow (workload.t2i2v; scripts/diffusion/inference.py,
** opensora/utils/sampling.py prepare_models): FLUX.1-dev and its AE are built on the GPU beside
** T5 and CLIP. Without --offload (offload "none") they stay through every phase. With it
** (offload "model") the video DiT and AE wait on the CPU while FLUX makes the first frame, then
** `model.to(device)` runs before `img_flux.to("cpu")`: for a moment both DiTs, the encoders and
** both AEs are resident (opensora2-t2v-256px-{1,2,4}gpu); the video phases then run as without
** offload, in the blocks FLUX left cached. */
static void gen_t2i_phase(ectx *c, const gen_weights *w, gen_phase ph[GEN_PHASES]) {
  if (!w->t2i) return;
  if (strcmp(scn_str(c->s, "gen.offload", "none"), "none") == 0) {
    for (int i = 0; i < 3; i++) ph[i].weights_t2i = w->t2i;
    return;
  }
  ph[3] = ph[1];
  ph[3].name = "t2i2v image stage";
  ph[3].act = 0;
  ph[3].weights_t2i = w->t2i;
}

/* diffusers' ComponentsManager.enable_auto_cpu_offload (workload.offload = "auto"; modular
** pipelines, diffusers modular_pipelines/components_manager.py @58eb52c080, from v0.35.0):
** each component is onloaded by a CustomOffloadHook's pre_forward, which first asks
** AutoOffloadStrategy which resident components to send to the CPU. The strategy reads the
** device's free memory (torch.cuda.mem_get_info: the card less the CUDA context, the weights
** resident and the blocks the caching allocator keeps), takes memory_reserve_margin off it and
** offloads nothing when the incoming component's bytes are below what is left; otherwise the
** smallest combination of resident components whose bytes cover the shortfall (none covering
** it: all of them), then clear_device_cache() empties the allocator's cache. Components run in
** the pipeline's order, each registered component on its own: the text encoders, the
** denoiser's components (each expert of a two-expert model), the VAE. So on a card with room a
** component stays through later phases (the Z-Image-Turbo record of PR #14304's
** components_manager.md, branch auto-offload-v2 0750134d87: on a 20GB
** card the text encoder yields to the transformer, and the VAE decodes beside the transformer,
** 14.15 GB max allocated). A phase's transient blocks stay cached until a load offloads
** something (the allocator keeps them; the largest phase's pool is what mem_get_info misses). */
static void gen_auto(ectx *c, const gen_weights *w, gen_phase ph[GEN_PHASES], uint64_t te, uint64_t den,
                     uint64_t shard) {
  const scenario *s = c->s;
  uint64_t cap = s->gpu_memory, reserve = scn_u64(s, "gen.memory_reserve", 3000000000ull);
  /* the registered components in the order the pipeline calls them (ComponentsManager hooks
  ** each on its own: CustomOffloadHook per component): the text encoders by name
  ** (text_encoder, text_encoder_2, ...: FLUX's encode_prompt runs CLIP, then T5,
  ** modular_pipelines/flux/encoders.py), an image encoder after them, the denoiser's
  ** components (Wan2.2 A14B: transformer for t >= boundary, then transformer_2,
  ** modular_pipelines/wan/denoise.py), the VAE */
  enum { NC = 13 };
  uint64_t size[NC] = {0};
  int phase[NC] = {0}, n = 0;
  bool used[8] = {false};
  for (;;) {
    int pick = -1;
    for (int k = 0; k < 8 && w->enc_name[k]; k++) {
      if (used[k]) continue;
      bool img = strncmp(w->enc_name[k], "text_encoder", 12) != 0;
      bool pimg = pick >= 0 && strncmp(w->enc_name[pick], "text_encoder", 12) != 0;
      if (pick < 0 || (pimg && !img) || (pimg == img && strcmp(w->enc_name[k], w->enc_name[pick]) < 0))
        pick = k;
    }
    if (pick < 0) break;
    used[pick] = true;
    /* te is 0 when the encoders run elsewhere (workload.text_encoders) */
    if (te) size[n] = bytes_ceildiv(w->enc[pick], shard), phase[n++] = 0;
  }
  int n_den = 0;
  for (int k = 0; k < 4 && w->den_name[k]; k++) n_den++;
  /* only a declared two-expert model (gen.experts) splits: a single-file denoiser's tensors
  ** carry no folder (scripts/model_files.lua) */
  if (n_den > 1 && (uint64_t)n_den == scn_u64(s, "gen.experts", 1) && !w->den_pinned)
    for (int k = 0; k < n_den; k++) size[n] = bytes_ceildiv(w->den_part[k], shard), phase[n++] = 1;
  else
    size[n] = den, phase[n++] = 1;
  size[n] = w->vae, phase[n++] = 2;
  bool on[NC] = {false};
  uint64_t cache = 0, kept = acc_add(&c->acc, w->aux, w->img_kept), best_tot[3] = {0};
  for (int i = 0; i < n; i++) {
    if (size[i]) {
      uint64_t used_b = acc_add(&c->acc, acc_add(&c->acc, s->cuda_context, kept), cache);
      int res[NC], nr = 0;
      for (int k = 0; k < n; k++)
        if (on[k]) used_b = acc_add(&c->acc, used_b, size[k]), res[nr++] = k;
      uint64_t free = cap > used_b ? cap - used_b : 0, room = free > reserve ? free - reserve : 0;
      /* no GPU known (cap 0) or nothing resident: nothing is offloaded */
      if (cap && nr && size[i] >= room) {
        uint64_t need = size[i] - room, best = UINT64_MAX;
        long best_set = -1;
        /* the smallest sum of resident components covering the shortfall (search_best_candidate) */
        for (long set = 1; set < (1L << nr); set++) {
          uint64_t sum = 0;
          for (int k = 0; k < nr; k++)
            if (set & (1L << k)) sum = acc_add(&c->acc, sum, size[res[k]]);
          if (sum >= need && sum < best) best = sum, best_set = set;
        }
        for (int k = 0; k < nr; k++)
          if (best_set < 0 || (best_set & (1L << k))) on[res[k]] = false;
        cache = 0;
      }
      on[i] = true;
    }
    /* the phase's residency at its heaviest step */
    int p = phase[i];
    uint64_t r[3] = {0, 0, 0};
    for (int k = 0; k < n; k++)
      if (on[k]) r[phase[k]] = acc_add(&c->acc, r[phase[k]], size[k]);
    uint64_t tot = acc_add(&c->acc, acc_add(&c->acc, r[0], r[1]), r[2]);
    if (tot >= best_tot[p]) {
      best_tot[p] = tot;
      ph[p].weights_te = r[0], ph[p].weights_den = r[1], ph[p].weights_vae = r[2];
    }
    /* a component's transient blocks stay cached after it ran: the denoising loop's before
    ** transformer_2 loads (the high-noise steps ran on transformer), the text encoders' once
    ** the last of them ran (an earlier encoder's own transient is not split out) */
    if (p == 1 || i + 1 == n || phase[i + 1] != p) {
      uint64_t t = acc_add(&c->acc, ph[p].act, ph[p].vae);
      if (t > cache) cache = t;
    }
  }
  if (!te) ph[0].weights_te = ph[1].weights_te = ph[2].weights_te = 0;
}

/* The phases with what is resident in each, for the offload mode. */
static void gen_phases(ectx *c, const gen_weights *w, const gen_shape *g, gen_phase ph[GEN_PHASES]) {
  const scenario *s = c->s;
  const char *off = scn_str(s, "gen.offload", "none");
  bool te_on = strcmp(scn_str(s, "gen.text_encoders", "gpu"), "gpu") == 0;
  /* FSDP shards the denoiser and the encoders over the sequence-parallel group */
  uint64_t shard = s->strategy == STRAT_FSDP ? g->sp : 1;
  uint64_t experts = scn_u64(s, "gen.experts", 1);
  uint64_t den = bytes_ceildiv(w->den, shard), te = te_on ? bytes_ceildiv(w->te, shard) : 0;
  uint64_t layers = scn_u64(s, "gen.layers", c->m->layers), te_layers = scn_u64(s, "gen.te_layers", 24);
  memset(ph, 0, GEN_PHASES * sizeof *ph);
  ph[0].name = "text encoding";
  ph[1].name = "denoising";
  ph[2].name = "VAE decode";
  ph[3].name = "t2i2v image stage";
  for (int i = 0; i < GEN_PHASES; i++) ph[i].weights_aux = w->aux, ph[i].weights_kept = w->img_kept;
  ph[0].act = te_on ? g->te_act : 0;
  ph[1].act = acc_add(&c->acc, g->act, g->lat);
  ph[2].vae = acc_add(&c->acc, g->vae, g->lat);
  ph[2].cached = g->vae_cached;
  /* sequence parallel (the reference scripts): rank 0 decodes after the loop without
  ** emptying the cache, and the loop's per-rank activation blocks stay reserved beside the
  ** decoder's, which reuses the larger unsplit ones (wan21-t2v-14b-720p-*-{2,4,8}gpu,
  ** wan22-t2v-a14b-*-{4,8}gpu); with offload_model the DiT leaves and the cache is emptied
  ** first (wan22-ti2v-5b-t2v-720p-4090-{4,8}gpu) */
  if (strcmp(off, "none") == 0 || (w->t2i && gen_ref(s))) {
    if (g->sp > 1) ph[2].act = g->stale;
    for (int i = 0; i < 3; i++) ph[i].weights_te = te, ph[i].weights_den = den, ph[i].weights_vae = w->vae;
    /* CogVideoX's SAT sample_video.py of 2024-08-06 to 2024-09-10: model.to("cpu") and
    ** empty_cache() before the VAE alone decodes (cogvideo-readme-cogvideox-2b-sat-fp16); the
    ** later scripts decode with everything resident (cogvideo-readme-cogvideox15-5b-sat-bf16;
    ** the date gate is in scripts/workloads/video.lua) */
    if (gen_ref(s) && scn_bool(s, "gen.ref_decode_alone", false)) ph[2].weights_te = ph[2].weights_den = 0;
    gen_t2i_phase(c, w, ph);
    return;
  }
  /* one component (one expert) at a time; the sequential and group modes stream layers */
  uint64_t te1 = te_on ? bytes_ceildiv(w->te_max, shard) : 0;
  /* model offload chains the components with accelerate's cpu_offload_with_hook: a module's
  ** pre_forward offloads only the module before it in model_cpu_offload_seq (accelerate
  ** hooks.py CpuOffload; diffusers enable_model_cpu_offload). Under CFG, SD3's and SDXL's
  ** encode_prompt runs the negative prompt through text_encoder, text_encoder_2, ... again
  ** after the prompt's pass: text_encoder has no module before it, so the last encoder (T5-XXL
  ** in SD3) stays on the GPU while each earlier one runs beside it. The HF SD3 blog (sd3.md,
  ** SD3-Medium fp16, A100, "Offloading": 12.0645 GB) against T5 alone (10.75 GiB with its fp32
  ** wo) and T5 + CLIP-G (12.04) */
  if (te_on && strcmp(off, "model") == 0 && scn_bool(s, "gen.te_cfg_reentry", false) && w->te_reentry > w->te_max)
    te1 = bytes_ceildiv(w->te_reentry, shard);
  bool group = strcmp(off, "group") == 0;
  gen_group gd = gen_group_of(s, "den"), gv = gen_group_of(s, "vae");
  ph[0].weights_te = gen_resident(c, te1, te_on ? w->te_leaf : 0, te_layers, NULL, &gd);
  if (group && te_on) {
    /* group offload: each encoder under its own settings (gen_group_of), one running at a time;
    ** an encoder left without a hook ("none") stays on the GPU through every phase. Block-level
    ** group offload of an encoder whose layers sit one module down (a transformers class with no
    ** ModuleList among its direct children: T5EncoderModel, CLIPTextModel, scripts/gen_parts.lua
    ** whole_under_block_level, gen.group_whole.<encoder>) onloads the whole encoder as the
    ** "unmatched" group _apply_group_offloading_block_level hooks on the module itself
    ** (hooks/group_offloading.py), whatever num_blocks_per_group says. The LTX-Video docs'
    ** apply_group_offloading(pipeline.text_encoder, offload_type="block_level",
    ** num_blocks_per_group=2) onloads all of T5-XXL, 8.87 GiB in bf16: that run's peak
    ** (diffusers-doc-ltx-video-fp8-cast-group-offload, "~10GB") */
    uint64_t kept = 0, run = 0;
    char key[96];
    for (int k = 0; k < 8 && w->enc_name[k]; k++) {
      gen_group ge = gen_group_of(s, w->enc_name[k]);
      uint64_t all = bytes_ceildiv(w->enc[k], shard);
      if (ge.kept) {
        kept = acc_add(&c->acc, kept, all);
        continue;
      }
      uint64_t r = gen_resident(c, all, w->enc_leaf[k], te_layers, NULL, &ge);
      snprintf(key, sizeof key, "gen.group_whole.%s", w->enc_name[k]);
      if (!ge.leaf && scn_bool(s, key, false) && all > r) r = all;
      if (r > run) run = r;
    }
    ph[0].weights_te = acc_add(&c->acc, kept, run);
    ph[1].weights_te = ph[2].weights_te = kept;
  }
  ph[1].weights_den = gen_resident(c, bytes_ceildiv(den, experts), w->den_leaf, layers, w, &gd);
  /* leaf-level group offload: every Linear / Conv / norm is its own group; a group's
  ** pre_forward onloads it (or finds it prefetched) and, with use_stream, starts the next
  ** group's onload; its post_forward offloads it (diffusers hooks/group_offloading.py,
  ** GroupOffloadingHook.pre_forward / post_forward, _apply_group_offloading_leaf_level). So
  ** between two Linears - the SDPA core, the GELU between a feed-forward's projections, where
  ** a block's activations peak - at most the next group is resident: one feed-forward
  ** projection beside the activation peak, not two of the largest tensor (the adaLN
  ** modulation Linears, which run at the block's start beside its input only). The largest
  ** tensor's moment (it and its prefetched neighbour) is kept as a floor with the activations
  ** assumed spent. diffusers' benchmark (benchmarks/benchmarking_{flux,ltx}.py, PR #11565;
  ** Hub dataset diffusers/benchmarks, L40S, max_memory_allocated) prints 0.55 GiB for
  ** FLUX.1-dev and 1.05 for LTX-Video-0.9.7-dev (transformer alone, leaf_level, use_stream),
  ** 0.47 and 0.93 over the activations of their resident runs */
  if (group && w->den_ffn_leaf && !w->den_pinned && gd.leaf) {
    uint64_t floor = acc_mul(&c->acc, w->den_leaf, gd.in_flight);
    floor = floor > ph[1].act ? floor - ph[1].act : 0;
    ph[1].weights_den = w->den_ffn_leaf > floor ? w->den_ffn_leaf : floor;
  }
  /* a denoiser left without a group-offloading hook stays on the GPU through every phase */
  if (group && gd.kept)
    for (int i = 0; i < 3; i++) ph[i].weights_den = den;
  /* block-level group offload of the VAE: its decoder's groups from diffusers v0.36.0 for the
  ** classes that name them, else the whole VAE (gen_vae_groups) */
  ph[2].weights_vae = group && !gv.leaf && !gv.kept ? gen_vae_groups(c, w, &gv)
                                                    : gen_resident(c, w->vae, w->vae_leaf, 1, NULL, &gv);
  /* group offload applied to some components only (diffusers' enable_group_offload /
  ** apply_group_offloading per module), then pipe.to("cuda"), which moves every module without
  ** a group-offloading hook: the VAE stays on the GPU through all phases (workload.resident;
  ** the image encoder's bytes are w->img_kept) */
  if (scn_bool(s, "gen.resident_vae", false))
    for (int i = 0; i < 3; i++) ph[i].weights_vae = w->vae;
  /* an image-to-video pipeline under model offload (workload.i2v): prepare_latents runs
  ** self.vae.encode on the conditioning image before the denoising loop, and the VAE is last in
  ** model_cpu_offload_seq, so no hook offloads it until the decode: accelerate's
  ** CpuOffload.pre_forward offloads only the module before the one it onloads (the transformer's
  ** offloads the last encoder, transformer_2's the transformer). The VAE is resident beside the
  ** transformer through the denoising (ConsisID, CogVideoX / Wan / LTX / HunyuanVideo I2V:
  ** scripts/workloads/video.lua) */
  if (strcmp(off, "model") == 0 && !gen_ref(s) && scn_bool(s, "gen.i2v", false)) ph[1].weights_vae = w->vae;
  /* Wan's generate.py builds its VAE on the GPU and --offload_model moves only the DiT and T5
  ** (wan/text2video.py, textimage2video.py: WanVAE(device=self.device)): the VAE is resident in
  ** every phase (architectures/wan.lua ref_vae_resident; test_holdout25_genv) */
  if (strcmp(off, "model") == 0 && gen_ref(s) && scn_bool(s, "gen.ref_vae_resident", false))
    for (int i = 0; i < 3; i++) ph[i].weights_vae = w->vae;
  /* pipe.to("cuda") with model offload enabled (workload.pipe_to_gpu): diffusers'
  ** DiffusionPipeline.to only warns and moves every component, hooks and all (pipeline_utils.py,
  ** "memory gains from offloading are likely to be lost"). accelerate's CpuOffload.pre_forward
  ** offloads only the module before it in model_cpu_offload_seq, so the first call starts with the
  ** whole pipeline resident; the transformer's hook sends the last encoder back (each earlier one
  ** went as its successor ran), the VAE, last in the chain, stays through the denoising, and the
  ** VAE's hook sends the (last) transformer back before the decode. Later calls start offloaded
  ** (maybe_free_model_hooks): this is the first call's peak. */
  if (strcmp(off, "model") == 0 && scn_bool(s, "gen.pipe_to_gpu", false)) {
    ph[0].weights_te = te, ph[0].weights_den = den, ph[0].weights_vae = w->vae;
    ph[1].weights_den = den, ph[1].weights_vae = w->vae;
  }
  /* "8Bit models in bitsandbytes cannot be moved to CPU from GPU" (HF blog video_gen):
  ** an int8 denoiser stays through every phase (hf-blog-videogen-hunyuanvideo-bnb8-cpu-offload*) */
  if (w->den_pinned)
    for (int i = 0; i < 3; i++) ph[i].weights_den = den;
  if (strcmp(off, "auto") == 0) gen_auto(c, w, ph, te, den, shard);
}

static void gen_report(ectx *c, const gen_family *f, const gen_family *fv, const gen_phase *p, const gen_weights *w,
                       uint64_t dense_mask) {
  budget *b = &c->e->b;
  const scenario *s = c->s;
  const char *off = scn_str(s, "gen.offload", "none");
  budget_item *it;
  if ((it = budget_add(b, "weights", p->weights_den, BASIS_EXACT, true, "denoiser: %.2f GiB stored, offload %s",
                       (double)w->den / GIB, off)))
    it->component = "denoiser";
  if ((it = budget_add(b, "weights", p->weights_te, BASIS_EXACT, true, "text encoders: %.2f GiB stored, %s",
                       (double)w->te / GIB, scn_str(s, "gen.text_encoders", "gpu"))))
    it->component = "text_encoder";
  /* the offload mode named where the VAE's resident bytes are fewer than it stores (group
  ** offload keeps its onloaded groups only), as the denoiser's row names it */
  if ((it = budget_add(b, "weights", p->weights_vae, BASIS_EXACT, true, "VAE: %.2f GiB stored%s%s", (double)w->vae / GIB,
                       p->weights_vae < w->vae ? ", offload " : "", p->weights_vae < w->vae ? off : "")))
    it->component = "vae";
  if (p->weights_t2i && (it = budget_add(b, "weights", p->weights_t2i, BASIS_EXACT, true,
                                         "t2i2v image stage (FLUX.1-dev + AE): %.2f GiB stored", (double)w->t2i / GIB)))
    it->component = "image_model";
  if (p->weights_aux && (it = budget_add(b, "weights", p->weights_aux, BASIS_EXACT, true,
                                         "face helper models (not offloaded by the pipeline): %.2f GiB", (double)w->aux / GIB)))
    it->component = "image_encoder";
  if (p->weights_kept && (it = budget_add(b, "weights", p->weights_kept, BASIS_EXACT, true,
                                          "image encoder left on the GPU (not group-offloaded): %.2f GiB",
                                          (double)w->img_kept / GIB)))
    it->component = "image_encoder";
  uint64_t mask = p->act ? dense_mask : 0;
  char mask_note[64] = "";
  if (mask) snprintf(mask_note, sizeof mask_note, ", dense S x S attention mask %.2f GiB", (double)mask / GIB);
  if ((it = budget_add(b, "activations", p->act, f->act_basis, true,
                       "%s: %llu tokens x batch %llu, %s attention, sequence parallel %llu%s", p->name,
                       (unsigned long long)scn_u64(s, "gen.tokens", 0), (unsigned long long)scn_u64(s, "gen.den_batch", 1),
                       scn_str(s, "gen.attention", "sdpa"), (unsigned long long)scn_u64(s, "gen.sp", 1), mask_note)))
    it->component = "denoiser";
  /* a pipeline whose VAE constant is borrowed from another family says so (gen.vae_assumed) */
  vf_basis vb = scn_bool(s, "gen.vae_assumed", false) ? BASIS_ASSUMED : vae_basis(f, fv);
  if ((it = budget_add(b, "vae_decode", p->vae, vb, true,
                       "%llu pixels x frames at once x %llu images%s%s%s", (unsigned long long)scn_u64(s, "gen.vae_pixels", 0),
                       (unsigned long long)scn_u64(s, "gen.vae_images", 1), scn_bool(s, "gen.vae_tiling", false) ? ", tiled" : "",
                       scn_bool(s, "gen.vae_slicing", false) ? ", sliced" : "",
                       scn_bool(s, "gen.output_latent", false) ? ", not run (output_type latent)" : "")))
    it->component = "vae";
}

void gen_estimate(ectx *c) {
  const scenario *s = c->s;
  estimate *e = c->e;
  gen_weights w;
  gen_shape g;
  gen_phase ph[GEN_PHASES];
  const gen_family *f = family_of(scn_str(s, "gen.family", "image"));
  /* the VAE decode's constants: the pipeline's VAE family (Qwen-Image's Wan VAE), else f's */
  const gen_family *fv = family_of(scn_str(s, "gen.vae_family", f->name));
  gen_split(c, &w);
  /* model.weight_bytes: the components as this run stores them (the reference scripts' fp32
  ** DiT and VAE included), so that it agrees with the weights lines */
  e->weight_bytes = acc_add(&c->acc, acc_add(&c->acc, w.te, w.den_all), acc_add(&c->acc, w.vae, w.aux));
  e->weight_bytes = acc_add(&c->acc, e->weight_bytes, w.img_kept);
  gen_shapes(c, f, fv, &w, &g);
  gen_phases(c, &w, &g, ph);
  /* output_type="latent": the pipeline returns the latents undecoded (workloads/image.lua
  ** output_part): no VAE decode phase, whichever way gen_phases built it */
  if (scn_bool(s, "gen.output_latent", false)) ph[2] = (gen_phase){.name = "VAE decode"};
  int top = 0;
  for (int i = 1; i < GEN_PHASES; i++)
    if (phase_total(c, &ph[i]) > phase_total(c, &ph[top])) top = i;
  gen_report(c, f, fv, &ph[top], &w, g.mask);
  est_add_common(c, &e->b);
  /* caching allocator: transient blocks of all phases stay cached; 10% of the peak
  ** phase's transients as fragmentation (assumed), or expandable segments' page rounding */
  uint64_t transient = acc_add(&c->acc, ph[top].act, ph[top].vae);
  if (scn_bool(c->s, "runtime.expandable_segments", false))
    est_add_slack_expandable(c, &e->b);
  else
    est_add_slack(c, &e->b, 0, transient, gen_frag(c), BASIS_ASSUMED);
  /* the allocator never gives blocks back between phases (no empty_cache): reserved is the
  ** most any phase reserves, which may be another phase than the allocated peak's (a VAE
  ** decode with its cached feature maps after a larger denoising phase) */
  uint64_t top_res = phase_reserved(c, &ph[top]), res = top_res;
  int rtop = top;
  for (int i = 0; i < GEN_PHASES; i++) {
    uint64_t r = phase_reserved(c, &ph[i]);
    if (r > res) res = r, rtop = i;
  }
  /* reserved, not required: before it reports an out-of-memory error the caching allocator
  ** hands its cached, unused segments back to the driver and retries the allocation
  ** (c10/cuda/CUDACachingAllocator.cpp, DeviceCachingAllocator::malloc: release_cached_blocks,
  ** then alloc_block again), so the decoder's freed feature maps and the blocks another phase
  ** left cached fill a large card but do not make a run on a tight one fail */
  uint64_t releasable = ph[top].cached;
  budget_item *it = ph[top].cached ? budget_add(&e->b, "allocator_slack", ph[top].cached, vae_basis(f, fv), true,
                                                "caching allocator: the VAE decoder's freed feature maps kept reserved")
                                   : NULL;
  if (it) it->component = "vae";
  if (rtop != top) {
    releasable = acc_add(&c->acc, releasable, res - top_res);
    it = budget_add(&e->b, "allocator_slack", res - top_res, rtop == 2 ? vae_basis(f, fv) : BASIS_ASSUMED, true,
                    "caching allocator: the %s phase reserves more than this one, and its blocks stay", ph[rtop].name);
    if (it && rtop == 2) it->component = "vae";
  }
  e->peak_phase = ph[top].name;
  if (g.sp > 1) e->devices = g.sp;
  if (s->tp > 1) e->devices = s->tp * (g.sp > 1 ? g.sp : 1);
  est_finish(c, &e->b);
  e->required = e->total > releasable ? e->total - releasable : 0;
  est_fig(c, "peak_allocated_bytes", e->peak_allocated);
  est_fig(c, "peak_reserved_bytes", e->peak_reserved);
  /* each phase's allocated bytes, with the same fixed items (workspace, quantization buffers)
  ** as the peak's: max_memory_allocated read when that phase ends after a reset, or the Peak
  ** column of diffusers' offload record (components_manager.md) taken phase by phase */
  static const char *const phase_key[3] = {"text_encoding_allocated_bytes", "denoising_allocated_bytes",
                                           "vae_decode_allocated_bytes"};
  uint64_t top_total = phase_total(c, &ph[top]);
  for (int i = 0; i < 3; i++) {
    uint64_t t = phase_total(c, &ph[i]);
    est_fig(c, phase_key[i], e->peak_allocated >= top_total ? e->peak_allocated - top_total + t : t);
  }
  est_fig(c, "denoiser_tokens", scn_u64(s, "gen.tokens", 0));
  est_fig(c, "latent_frames", scn_u64(s, "gen.latent_frames", 1));
}

/* ---------------------------------------------------------------- fit (gen.h) */

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Frames decoded by the first call of a VAE decoding b latent frames at a time
** (workloads/image.lua M.batch_frames: the denoiser's patch_t padding is dropped before
** decoding; an odd batch of n decodes to 1 + (n - 1) t frames, an even one to n t). */
static uint64_t gen_batch_frames(const scenario *s, uint64_t F) {
  uint64_t ts = scn_u64(s, "gen.vae_tscale", 1), b = scn_u64(s, "gen.vae_latent_batch", 0);
  uint64_t lf = (F - 1) / (ts ? ts : 1) + 1;
  if (!b) return F;
  uint64_t n = lf < b ? lf : b + lf % b;
  return n % 2 ? 1 + (n - 1) * ts : n * ts;
}

/* Re-derives the shape extras for W x H x F, as workloads/image.lua does. */
static void gen_reshape(scenario *s, uint64_t W, uint64_t H, uint64_t F) {
  uint64_t vs = scn_u64(s, "gen.vae_scale", 8), p = scn_u64(s, "gen.patch", 1);
  uint64_t ts = scn_u64(s, "gen.vae_tscale", 1), pt = scn_u64(s, "gen.patch_t", 1);
  uint64_t lf = F == 1 ? 1 : (F - 1) / ts + 1, lw = W / vs, lh = H / vs;
  uint64_t img = ((lf + pt - 1) / pt) * (lh / p) * (lw / p);
  uint64_t n_in = scn_u64(s, "gen.input_images", 0); /* conditioning images at the output's size */
  uint64_t text = scn_u64(s, "gen.tokens", img) - scn_u64(s, "gen.img_tokens", img) * (1 + n_in);
  uint64_t tile = scn_u64(s, "gen.vae_tile", 0), tf = scn_u64(s, "gen.vae_tile_frames", 0);
  uint64_t tile_w = scn_u64(s, "gen.vae_tile_w", tile);
  uint64_t chunk = scn_u64(s, "gen.vae_chunk", 0), f = F;
  if (F > 1 && tile && tf) f = min_u64(f, tf);
  if (F > 1 && chunk) f = min_u64(f, chunk);
  if (F > 1) f = min_u64(f, gen_batch_frames(s, F));
  uint64_t pw = tile_w ? min_u64(W, tile_w) : W, ph = tile ? min_u64(H, tile) : H;
  scn_set_u64(s, "gen.width", W);
  scn_set_u64(s, "gen.height", H);
  scn_set_u64(s, "gen.frames", F);
  scn_set_u64(s, "gen.latent_frames", lf);
  scn_set_u64(s, "gen.img_tokens", img);
  scn_set_u64(s, "gen.tokens", img * (1 + n_in) + text);
  scn_set_u64(s, "gen.vae_pixels", pw * ph * f);
  scn_set_u64(s, "gen.latent_elems", lf * lh * lw * scn_u64(s, "gen.latent_channels", 16));
}

static bool gen_fits(const model_desc *m, const scenario *s, uint64_t usable, bool *ok) {
  estimate e;
  char err[160];
  if (estimate_run(m, s, &e, err, sizeof err) != 0) return false;
  *ok = e.required <= usable; /* the cached blocks the allocator gives back do not count */
  return true;
}

/* Largest k in [1, hi] that fits, 0 if none: axis 0 the width in units of VAE factor x
** patch (height at the aspect ratio), axis 1 latent frames. */
static uint64_t gen_bisect(const model_desc *m, scenario *s, uint64_t usable, uint64_t hi, int axis) {
  uint64_t W = scn_u64(s, "gen.width", 1024), H = scn_u64(s, "gen.height", 1024), F = scn_u64(s, "gen.frames", 1);
  uint64_t unit = scn_u64(s, "gen.vae_scale", 8) * scn_u64(s, "gen.patch", 1);
  uint64_t lo = 0, top = hi;
  while (lo < top) {
    uint64_t mid = lo + (top - lo + 1) / 2;
    bool ok = false;
    if (axis == 0) /* width in units, height following the aspect ratio */
      gen_reshape(s, mid * unit, ((mid * unit * H / W) / unit ? (mid * unit * H / W) / unit : 1) * unit, F);
    else
      gen_reshape(s, W, H, (mid - 1) * scn_u64(s, "gen.vae_tscale", 1) + 1);
    if (!gen_fits(m, s, usable, &ok)) ok = false;
    if (ok)
      lo = mid;
    else
      top = mid - 1;
  }
  gen_reshape(s, W, H, F);
  return lo;
}

/* Whether `mode` is an item of the comma-separated list `offered`. */
static bool gen_offered(const char *offered, const char *mode) {
  size_t n = strlen(mode);
  for (const char *p = offered; (p = strstr(p, mode)) != NULL; p += n)
    if ((p == offered || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return true;
  return false;
}

bool gen_fit_gpu(const model_desc *m, const scenario *s0, uint64_t usable, gen_fit *out) {
  /* cheapest first: ComponentsManager's auto offload (diffusers v0.35.0 on, where the model
  ** has a ModularPipeline: workloads/image.lua) copies a component only when the next one
  ** would not fit beside it, model offload a copy per component, group offload a copy per
  ** block group each step, sequential one per layer */
  static const char *const modes[] = {"none", "auto", "model", "group", "sequential"};
  scenario *s = malloc(sizeof *s);
  if (!s) return false;
  *s = *s0;
  memset(out, 0, sizeof *out);
  bool ok = false;
  /* only the modes the runtime offers (scripts/workloads/image.lua: a reference script's own flags) */
  const char *offered = scn_str(s0, "gen.offload_modes", "none,model,group,sequential");
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
    if (!gen_offered(offered, modes[i])) continue;
    scn_set_str(s, "gen.offload", modes[i]);
    if (!gen_fits(m, s, usable, &ok)) break;
    if (ok) {
      out->offload = modes[i];
      break;
    }
  }
  if (!out->offload) scn_set_str(s, "gen.offload", scn_str(s0, "gen.offload", "none"));
  uint64_t unit = scn_u64(s, "gen.vae_scale", 8) * scn_u64(s, "gen.patch", 1);
  uint64_t wu = gen_bisect(m, s, usable, 16384 / unit, 0);
  uint64_t W = scn_u64(s, "gen.width", 1024), H = scn_u64(s, "gen.height", 1024);
  out->max_width = wu * unit;
  out->max_height = W ? (out->max_width * H / W) / unit * unit : 0;
  if (scn_u64(s, "gen.frames", 1) > 1) {
    uint64_t k = gen_bisect(m, s, usable, 100000 / scn_u64(s, "gen.vae_tscale", 1), 1);
    out->max_frames = k ? (k - 1) * scn_u64(s, "gen.vae_tscale", 1) + 1 : 0;
  }
  free(s);
  return true;
}
