-- lumina2.lua: Lumina-Image 2.0 (Alpha-VLLM/Lumina-Image-2.0, diffusers Lumina2Pipeline):
-- Lumina2Transformer2DModel, a single-stream "Unified Next-DiT" over the prompt and image tokens;
-- Gemma-2-2B as the text encoder (Gemma2Model, its second-to-last hidden state); FLUX.1's
-- AutoencoderKL.
-- Layout of diffusers models/transformers/transformer_lumina2.py (huggingface/diffusers @58eb52c):
-- every block (Lumina2TransformerBlock) has GQA attention without biases (to_q d -> d, to_k / to_v
-- d -> kv_heads x head_dim, to_out.0), RMS q/k norms of head_dim, a SwiGLU LuminaFeedForward
-- (linear_1 / linear_3 d -> F, linear_2 F -> d, no bias; F = 4 d times ffn_dim_multiplier, rounded up
-- to multiple_of: 9216 for d 2304) and RMSNorms ffn_norm1, norm2, ffn_norm2; the modulated blocks
-- (2 noise_refiner over the image tokens, num_layers main blocks over the joint sequence) have
-- norm1 = LuminaRMSNormZero (linear min(d, 1024) -> 4 d with bias, an RMSNorm), the 2
-- context_refiner blocks over the prompt a plain RMSNorm. x_embedder (p^2 in -> d, bias),
-- time_caption_embed (timestep_embedder 256 -> 1024 -> 1024; caption_embedder RMSNorm(cap_feat_dim)
-- + Linear cap -> d), norm_out (LuminaLayerNormContinuous: linear_1 1024 -> d, a weightless
-- LayerNorm, linear_2 d -> p^2 out).
-- Lumina-Image-2.0 transformer/config.json (the class defaults with cap_feat_dim 2304: d 2304, 24
-- heads, 8 kv heads, 26 layers, 2 refiner layers, patch 2, 16 channels): 2,609,769,152 parameters,
-- the checkpoint's total the Unsloth Studio diffusion catalog lists (totalParams of
-- Alpha-VLLM/Lumina-Image-2.0; it ships fp32); the model card's "2 billion parameter" DiT.
local nn = require "nn"
local P = require "gen_parts"

-- Lumina2TransformerBlock under prefix b (count blocks); mod: norm1 is LuminaRMSNormZero.
local function blocks(t, b, d, hd, kv, F, count, mod)
  local o = { count = count }
  nn.linear(t, b .. "attn.to_q", d, d, o)
  nn.linear(t, b .. "attn.to_k", kv * hd, d, o)
  nn.linear(t, b .. "attn.to_v", kv * hd, d, o)
  nn.linear(t, b .. "attn.to_out.0", d, d, o)
  for _, q in ipairs { "norm_q", "norm_k" } do nn.norm(t, b .. "attn." .. q, hd, o) end
  for _, w in ipairs { "linear_1", "linear_3" } do nn.linear(t, b .. "feed_forward." .. w, F, d, { count = count, role = "mlp" }) end
  nn.linear(t, b .. "feed_forward.linear_2", d, F, { count = count, role = "mlp" })
  if mod then
    P.lin(t, b .. "norm1.linear", 4 * d, math.min(d, 1024), { count = count, role = "other" })
    nn.norm(t, b .. "norm1.norm", d, o)
  else
    nn.norm(t, b .. "norm1", d, o)
  end
  for _, q in ipairs { "ffn_norm1", "norm2", "ffn_norm2" } do nn.norm(t, b .. q, d, o) end
end

local function transformer(c)
  local d, nh = nn.int(c, "hidden_size", 2304), nn.int(c, "num_attention_heads", 24)
  local hd = nn.div(d, nh, "hidden_size / num_attention_heads")
  local kv = nn.int(c, "num_kv_heads", 8)
  local L, R = nn.int(c, "num_layers", 26), nn.int(c, "num_refiner_layers", 2)
  local p, inc = nn.int(c, "patch_size", 2), nn.int(c, "in_channels", 16)
  local cap = nn.int(c, "cap_feat_dim", 1024)
  local mult, of = nn.opt(c, "ffn_dim_multiplier", nil), nn.int(c, "multiple_of", 256)
  local F = 4 * d
  if mult ~= nil then
    if type(mult) ~= "number" or mult <= 0 then
      error(("config: field 'ffn_dim_multiplier' must be a positive number, got %s %s"):format(type(mult), tostring(mult)), 0)
    end
    F = math.floor(mult * F)
  end
  F = of * ((F + of - 1) // of)
  local t = {}
  P.lin(t, "x_embedder", d, p * p * inc, { role = "other" })
  P.mlp2(t, "time_caption_embed.timestep_embedder", 256, math.min(d, 1024))
  nn.norm(t, "time_caption_embed.caption_embedder.0", cap)
  P.lin(t, "time_caption_embed.caption_embedder.1", d, cap, { role = "other" })
  blocks(t, "noise_refiner.*.", d, hd, kv, F, R, true)
  blocks(t, "context_refiner.*.", d, hd, kv, F, R, false)
  blocks(t, "layers.*.", d, hd, kv, F, L, true)
  P.lin(t, "norm_out.linear_1", d, math.min(d, 1024), { role = "other" })
  P.lin(t, "norm_out.linear_2", p * p * nn.int(c, "out_channels", inc), d, { role = "other" })
  return t, d, F, nh, L + 2 * R, p
end

return arch {
  name = "lumina2",
  summary = "Lumina-Image 2.0: single-stream Next-DiT (GQA, SwiGLU, refiners) + Gemma-2-2B + FLUX.1 VAE",
  model_types = { "lumina2", "Lumina2Pipeline", "Lumina2Transformer2DModel" },
  build = function(cfg)
    local tc = nn.sub(cfg, "transformer") or error("config: missing field 'transformer' (Lumina2Transformer2DModel config.json)", 0)
    local tens, d, F, nh, layers, patch = transformer(tc)
    local tec = nn.sub(cfg, "text_encoder") or error("config: missing field 'text_encoder' (Gemma2 config.json)", 0)
    local te = require("architectures.gemma").build(tec)
    return P.description {
      arch = "lumina2", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", te.tensors },
        { "vae", "vae", P.vae_kl(P.FLUX_VAE) },
      },
      pipeline = {
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        -- Lumina2Pipeline (pipelines/lumina2/pipeline_lumina2.py): default 1024 x 1024
        -- (sample_size 128 x 8); sizes multiples of 16; the system prompt + prompt padded to
        -- max_sequence_length 256 for Gemma (output_hidden_states=True, hidden_states[-2]: every
        -- layer's states are kept, te_layers = the encoder's layers); the transformer keeps the
        -- unpadded prompt tokens (at most 256) and the (H/16) x (W/16) image tokens in one joint
        -- sequence. With one prompt per batch the lengths are equal and no attention mask is
        -- built (use_mask only when they differ). CFG: guidance_scale 4.0 runs the negative
        -- prompt in a second transformer call (noise_pred_uncond), not a doubled batch. The
        -- decode is FLUX.1's (same AutoencoderKL and call): its calibrated constant applies.
        kind = "mmdit", vae_scale = 8, patch = patch, latent_channels = 16, cfg = true, cfg_batched = false,
        text_len = 256, joint = true, vae_peak_channels = 256, act_family = "image",
        text_hidden = te.hidden, te_layers = te.layers,
      },
    }
  end,
}
