-- flux2.lua: FLUX.2 [dev] (diffusers Flux2Pipeline): Flux2Transformer2DModel, the whole
-- Mistral-Small-3.2-24B-Instruct-2506 (Mistral3ForConditionalGeneration, vision tower and
-- lm_head included) as its only text encoder, and AutoencoderKLFlux2.
-- Layout of diffusers models/transformers/transformer_flux2.py (huggingface/diffusers
-- @58eb52c): no bias anywhere; the time + guidance embedding feeds three modulations shared
-- by all blocks (double_stream_modulation_img/_txt: 6d each, single_stream_modulation: 3d)
-- instead of per-block ones; double-stream blocks with separate image/text q,k,v,out and
-- SwiGLU feed-forwards (linear_in d -> 2F, linear_out F -> d, F = mlp_ratio x d); single-
-- stream blocks fusing q,k,v and the MLP input in one to_qkv_mlp_proj (d -> 3d + 2F) and the
-- attention output with the MLP output in one to_out (d + F -> d); RMS q/k norms of
-- head_dim; x_embedder 128 -> d, context_embedder joint_attention_dim -> d (the pipeline
-- stacks the text encoder's hidden states 10, 20 and 30: 3 x 5120 = 15360); norm_out
-- (2d x d) and proj_out (d -> patch^2 x out_channels). The LayerNorms have no weights.
-- FLUX.2-dev config: scripts/convert_flux2_to_diffusers.py get_flux2_transformer_config
-- ("flux2-dev") = the class defaults; transformer 32,223,281,152 parameters (the published
-- "32B"), text encoder 24,011,361,280 (the Mistral Small 3.1 preset), VAE 84,046,115.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 48)
  local d = hd * nh
  local F = math.floor(d * (c.mlp_ratio or 3.0))
  local L, S = nn.int(c, "num_layers", 8), nn.int(c, "num_single_layers", 48)
  local inc, tg = nn.int(c, "in_channels", 128), nn.int(c, "timestep_guidance_channels", 256)
  local p = nn.int(c, "patch_size", 1)
  local t = {}
  for _, e in ipairs(nn.opt(c, "guidance_embeds", true) and { "timestep", "guidance" } or { "timestep" }) do
    nn.linear(t, "time_guidance_embed." .. e .. "_embedder.linear_1", d, tg, { role = "mlp" })
    nn.linear(t, "time_guidance_embed." .. e .. "_embedder.linear_2", d, d, { role = "mlp" })
  end
  nn.linear(t, "double_stream_modulation_img.linear", 6 * d, d, { role = "other" })
  nn.linear(t, "double_stream_modulation_txt.linear", 6 * d, d, { role = "other" })
  nn.linear(t, "single_stream_modulation.linear", 3 * d, d, { role = "other" })
  nn.linear(t, "x_embedder", d, inc, { role = "other" })
  nn.linear(t, "context_embedder", d, nn.int(c, "joint_attention_dim", 15360), { role = "other" })
  local b = "transformer_blocks.*."
  for _, q in ipairs { "to_q", "to_k", "to_v", "add_q_proj", "add_k_proj", "add_v_proj", "to_out.0", "to_add_out" } do
    nn.linear(t, b .. "attn." .. q, d, d, { count = L })
  end
  for _, q in ipairs { "norm_q", "norm_k", "norm_added_q", "norm_added_k" } do nn.norm(t, b .. "attn." .. q, hd, { count = L }) end
  for _, f in ipairs { "ff", "ff_context" } do
    nn.linear(t, b .. f .. ".linear_in", 2 * F, d, { count = L, role = "mlp" })
    nn.linear(t, b .. f .. ".linear_out", d, F, { count = L, role = "mlp" })
  end
  local s = "single_transformer_blocks.*.attn."
  nn.linear(t, s .. "to_qkv_mlp_proj", 3 * d + 2 * F, d, { count = S, role = "mlp" })
  nn.linear(t, s .. "to_out", d, d + F, { count = S, role = "mlp" })
  for _, q in ipairs { "norm_q", "norm_k" } do nn.norm(t, s .. q, hd, { count = S }) end
  nn.linear(t, "norm_out.linear", 2 * d, d, { role = "other" })
  nn.linear(t, "proj_out", p * p * nn.int(c, "out_channels", inc), d, { role = "other" })
  return t, d, F, nh, L + S
end

-- AutoencoderKLFlux2: FLUX.1's AutoencoderKL layout with 32 latent channels and quant_conv /
-- post_quant_conv (autoencoder_kl_flux2.py defaults, = FLUX.2-dev's vae/config.json); its
-- BatchNorm2d over the 2x2-patchified latent (affine=False) holds buffers only.
local BLOCK_OUT = { 128, 256, 512, 512 }
local function vae(c)
  return P.vae_kl { block_out = c.block_out_channels or BLOCK_OUT, layers = nn.int(c, "layers_per_block", 2),
    latent = nn.int(c, "latent_channels", 32), quant_conv = nn.opt(c, "use_quant_conv", true) }
end

return arch {
  name = "flux2",
  summary = "FLUX.2 dev: 8 double + 48 single-stream MMDiT (shared modulation, SwiGLU, no bias) + Mistral Small 3.2 + 32-ch VAE",
  model_types = { "flux2", "Flux2Pipeline", "Flux2Transformer2DModel" },
  build = function(cfg)
    local tens, d, F, nh, layers = transformer(nn.sub(cfg, "transformer") or {})
    local tec = nn.sub(cfg, "text_encoder") or error("config: missing field 'text_encoder' (Mistral3 config.json)", 0)
    local te = require("architectures.mistral3").build(tec)
    local th, tl = te.hidden, te.layers
    local vc = nn.sub(cfg, "vae") or {}
    return P.description {
      arch = "flux2", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", te.tensors },
        { "vae", "vae", vae(vc) },
      },
      pipeline = {
        -- diffusers' first release with a ModularPipeline for it (src/diffusers/modular_pipelines/flux2/
        -- first in the v0.37.0 tag): fit searches ComponentsManager auto offload from there (image.lua)
        modular = "0.37.0",
        -- Flux2Pipeline (pipelines/flux2/pipeline_flux2.py): default 1024 x 1024
        -- (default_sample_size 128 x VAE factor 8); latents patchified 2x2 into 128 channels,
        -- so the transformer sees (H/16) x (W/16) tokens and sizes are multiples of 16;
        -- guidance-distilled (the guidance scale is embedded): one pass per step, no CFG
        -- batch; the prompt is padded to max_sequence_length (512) and joins the image
        -- tokens in joint attention. The text encoder runs with output_hidden_states over
        -- its 40 layers. Reference images (image=...) add their own latent tokens to the
        -- sequence: workload.input_images (their VAE encode is not modelled).
        kind = "mmdit", vae_scale = 1 << (#(vc.block_out_channels or BLOCK_OUT) - 1), patch = 2,
        latent_channels = nn.int(vc, "latent_channels", 32), cfg = false, cfg_batched = false,
        text_len = 512, joint = true, act_family = "image",
        -- the decode peak: FLUX.1's calibrated 256-channel equivalent. The decoder is the same
        -- (block_out 128..512, 3 resnets per up block, decoded in the VAE dtype: the pipeline
        -- ignores force_upcast), but no FLUX.2 case in shared/calibration: assumed
        vae_peak_channels = 256, vae_assumed = true,
        text_hidden = th, te_layers = tl,
      },
    }
  end,
}
