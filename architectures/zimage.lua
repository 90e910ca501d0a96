-- zimage.lua: Z-Image (Tongyi-MAI/Z-Image-Turbo, diffusers ZImagePipeline): ZImageTransformer2DModel,
-- a single-stream DiT ("S3-DiT"), the whole Qwen3-4B as its text encoder (model_index.json loads
-- Qwen3Model; the embedding is tied, so the count is Qwen3-4B's with or without lm_head), and
-- FLUX.1's AutoencoderKL (16 latent channels, no quant convs).
-- Layout of diffusers models/transformers/transformer_z_image.py (huggingface/diffusers @58eb52c):
-- no bias in attention or feed-forward; every block has attention (to_q/k/v/out.0, dim -> dim),
-- RMS q/k norms of head_dim, a SwiGLU feed-forward w1/w3 (dim -> int(dim / 3 * 8)) and w2, four
-- RMSNorms (attention_norm1/2, ffn_norm1/2); the 2 noise_refiner blocks and the n_layers main
-- blocks add adaLN_modulation (min(dim, 256) -> 4 dim, with bias), the 2 context_refiner blocks
-- have none. t_embedder: 256 -> 1024 -> 256; cap_embedder: RMSNorm(cap_feat_dim) + Linear(cap ->
-- dim); x_embedder and final_layer per (patch, f_patch) pair ("2-1": 64 -> dim, dim -> 64, final
-- adaLN 256 -> dim, a weightless LayerNorm); x_pad_token and cap_pad_token (1 x dim) parameters.
-- Z-Image-Turbo transformer/config.json (copies in public repos quoting the Hub file: dim 3840,
-- n_layers 30, n_refiner_layers 2, n_heads 30, cap_feat_dim 2560, in_channels 16, patch 2/1):
-- 6,154,908,736 parameters in 453 tensors, the count public safetensors-header reads of the
-- released (fp32-stored) checkpoint give; the published "6B".
local nn = require "nn"
local P = require "gen_parts"

-- One ZImageTransformerBlock under prefix b (count blocks); mod: with adaLN_modulation.
local function blocks(t, b, d, hd, F, count, mod)
  local o = { count = count }
  for _, q in ipairs { "to_q", "to_k", "to_v", "to_out.0" } do
    nn.linear(t, b .. "attention." .. q, d, d, o)
  end
  for _, q in ipairs { "norm_q", "norm_k" } do nn.norm(t, b .. "attention." .. q, hd, o) end
  for _, w in ipairs { "w1", "w3" } do nn.linear(t, b .. "feed_forward." .. w, F, d, { count = count, role = "mlp" }) end
  nn.linear(t, b .. "feed_forward.w2", d, F, { count = count, role = "mlp" })
  for _, q in ipairs { "attention_norm1", "ffn_norm1", "attention_norm2", "ffn_norm2" } do nn.norm(t, b .. q, d, o) end
  if mod then P.lin(t, b .. "adaLN_modulation.0", 4 * d, math.min(d, 256), { count = count, role = "other" }) end
end

local function transformer(c)
  local d, nh = nn.int(c, "dim", 3840), nn.int(c, "n_heads", 30)
  local hd, F = d // nh, math.floor(d / 3 * 8)
  local L, R = nn.int(c, "n_layers", 30), nn.int(c, "n_refiner_layers", 2)
  local inc, cap = nn.int(c, "in_channels", 16), nn.int(c, "cap_feat_dim", 2560)
  local ps, fps = (c.all_patch_size or { 2 }), (c.all_f_patch_size or { 1 })
  local t = {}
  for i, p in ipairs(ps) do
    local key, n = ("%d-%d"):format(p, fps[i]), p * p * fps[i] * inc
    P.lin(t, "all_x_embedder." .. key, d, n, { role = "other" })
    P.lin(t, "all_final_layer." .. key .. ".linear", n, d, { role = "other" })
    P.lin(t, "all_final_layer." .. key .. ".adaLN_modulation.1", d, math.min(d, 256), { role = "other" })
  end
  blocks(t, "noise_refiner.*.", d, hd, F, R, true)
  blocks(t, "context_refiner.*.", d, hd, F, R, false)
  P.lin(t, "t_embedder.mlp.0", 1024, 256, { role = "mlp" })
  P.lin(t, "t_embedder.mlp.2", math.min(d, 256), 1024, { role = "mlp" })
  nn.norm(t, "cap_embedder.0", cap)
  P.lin(t, "cap_embedder.1", d, cap, { role = "other" })
  nn.param(t, "x_pad_token", { 1, d }, { role = "other" })
  nn.param(t, "cap_pad_token", { 1, d }, { role = "other" })
  blocks(t, "layers.*.", d, hd, F, L, true)
  return t, d, F, nh, L + 2 * R, ps[1]
end

return arch {
  name = "zimage",
  summary = "Z-Image: single-stream DiT (refiners + 30 blocks, SwiGLU, no bias) + Qwen3-4B + FLUX.1 VAE",
  model_types = { "zimage", "ZImagePipeline", "ZImageTransformer2DModel" },
  build = function(cfg)
    local tens, d, F, nh, layers, patch = transformer(nn.sub(cfg, "transformer") or {})
    local tec = nn.sub(cfg, "text_encoder") or error("config: missing field 'text_encoder' (Qwen3 config.json)", 0)
    local te = require("architectures.llama").build(tec)
    return P.description {
      arch = "zimage", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", te.tensors },
        { "vae", "vae", P.vae_kl(P.FLUX_VAE) },
      },
      pipeline = {
        -- diffusers' first release with a ModularPipeline for it (src/diffusers/modular_pipelines/z_image/
        -- first in the v0.37.0 tag): fit searches ComponentsManager auto offload from there (image.lua)
        modular = "0.37.0",
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        -- ZImagePipeline (pipelines/z_image/pipeline_z_image.py): default 1024 x 1024; sizes
        -- multiples of 16 (VAE factor 8 x the 2x2 patch); (H/16) x (W/16) image tokens and the
        -- prompt's tokens (the encoder runs on max_sequence_length = 512 padded tokens; the
        -- transformer keeps the unpadded ones, padded to a multiple of 32, so 512 bounds them)
        -- in one single-stream sequence. CFG: guidance_scale > 0 repeats the latents into one
        -- doubled batch (cfg_batched); Z-Image-Turbo is distilled and runs with guidance_scale
        -- 0.0 and 8 steps (the diffusers docs and the model card), so CFG is off here, though
        -- __call__'s own default is 5.0. The prompt embedding is hidden_states[-2] of
        -- output_hidden_states over the encoder's 36 layers. The latents are cast to the VAE's
        -- dtype before decoding (force_upcast is not read).
        kind = "mmdit", vae_scale = 8, patch = patch, latent_channels = 16, cfg = false, cfg_batched = true,
        cfg_note = "guidance-distilled: the model card's guidance_scale 0.0; ZImagePipeline's own default 5.0 turns it on",
        text_len = 512, joint = true, act_family = "image",
        -- the decode peak: FLUX.1's calibrated 256-channel equivalent, fitted to FLUX.1-dev's
        -- pipeline decoding with this very AutoencoderKL (hf-blog-flux-dev-h100-*): same config
        -- and weights (the Z-Image VAE is FLUX.1's), same call in the pipeline's dtype
        vae_peak_channels = 256,
        text_hidden = te.hidden, te_layers = te.layers,
      },
    }
  end,
}
