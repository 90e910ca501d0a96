-- sd3.lua: Stable Diffusion 3 / 3.5 pipelines: SD3Transformer2DModel (MMDiT: joint
-- attention over image and text tokens with separate weights, the last block
-- context-pre-only; RMS q/k norm in 3.5), CLIP-L and OpenCLIP-bigG with projections,
-- T5-XXL, the 16-channel AutoencoderKL. Layout of diffusers transformer_sd3.py.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local nh, hd = nn.need(c, "num_attention_heads"), nn.int(c, "attention_head_dim", 64)
  local d, L, p = nh * hd, nn.need(c, "num_layers"), nn.int(c, "patch_size", 2)
  local inc, qk = nn.int(c, "in_channels", 16), c.qk_norm ~= nil
  local t = {}
  P.conv(t, "pos_embed.proj", d, inc, { p, p }, { role = "embed" })
  -- PatchEmbed's sin-cos table over pos_embed_max_size^2 positions (diffusers
  -- models/embeddings.py PatchEmbed.__init__: register_buffer("pos_embed", ..., persistent =
  -- True if pos_embed_max_size), cropped per image by cropped_pos_embed): a persistent buffer,
  -- so stored in the checkpoint (the reference checkpoint's top-level "pos_embed", 1 x 36864 x
  -- d for 192) and cast with the model. SD3Transformer2DModel's default is 96.
  local pm = nn.int(c, "pos_embed_max_size", 96)
  nn.param(t, "pos_embed.pos_embed", { 1, pm * pm, d }, { role = "pos_embed", buffer = true })
  P.mlp2(t, "time_text_embed.timestep_embedder", 256, d)
  P.mlp2(t, "time_text_embed.text_embedder", nn.int(c, "pooled_projection_dim", 2048), d)
  P.lin(t, "context_embedder", nn.int(c, "caption_projection_dim", d), nn.int(c, "joint_attention_dim", 4096), { role = "other" })
  local b = "transformer_blocks.*."
  P.lin(t, b .. "norm1.linear", 6 * d, d, { count = L, role = "other" })
  P.lin(t, b .. "norm1_context.linear", 6 * d, d, { count = L - 1, role = "other" })
  P.lin(t, "transformer_blocks.last.norm1_context.linear", 2 * d, d, { role = "other" })
  for _, q in ipairs { "to_q", "to_k", "to_v", "add_q_proj", "add_k_proj", "add_v_proj", "to_out.0" } do
    P.lin(t, b .. "attn." .. q, d, d, { count = L })
  end
  P.lin(t, b .. "attn.to_add_out", d, d, { count = L - 1 })
  if qk then
    for _, q in ipairs { "norm_q", "norm_k", "norm_added_q", "norm_added_k" } do nn.norm(t, b .. "attn." .. q, hd, { count = L }) end
  end
  P.ff(t, b .. "ff", d, 4 * d, L)
  P.ff(t, b .. "ff_context", d, 4 * d, L - 1)
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  P.lin(t, "proj_out", p * p * nn.int(c, "out_channels", inc), d, { role = "other" })
  return t, d, nh, L
end

return arch {
  name = "sd3",
  summary = "Stable Diffusion 3/3.5: MMDiT + CLIP-L + OpenCLIP-bigG + T5-XXL + 16-ch VAE",
  model_types = { "sd3", "SD3Transformer2DModel", "StableDiffusion3Pipeline" },
  build = function(cfg)
    local tens, d, nh, L = transformer(nn.sub(cfg, "transformer"))
    return P.description {
      arch = "sd3", hidden = d, layers = L, heads = nh, ffn = 4 * d,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.clip_text { hidden = 768, layers = 12, ffn = 3072, proj = 768 } },
        { "text_encoder_2", "text_encoder_2", P.clip_text(P.CLIP_G) },
        { "text_encoder_3", "text_encoder_3", P.t5_encoder {} },
        { "vae", "vae", P.vae_kl(P.FLUX_VAE) },
      },
      pipeline = {
        -- diffusers' first release with a ModularPipeline for it (src/diffusers/modular_pipelines/stable_diffusion_3/
        -- first in the v0.39.0 tag): fit searches ComponentsManager auto offload from there (image.lua)
        modular = "0.39.0",
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        kind = "mmdit", vae_scale = 8, latent_channels = 16, patch = 2, cfg = true, cfg_batched = true,
        text_len = 333, joint = true, vae_peak_channels = 256, act_family = "image",
        text_hidden = 4096, te_layers = 24,
        -- encode_prompt (pipeline_stable_diffusion_3.py, v0.29.0 on): CLIP-L, CLIP-G and T5
        -- for the prompt, then the same three again for the negative prompt under CFG
        te_cfg_reentry = true,
        -- fuse_qkv_projections() (scripts/workloads/image.lua fuse_qkv): the joint attention is
        -- self-attention (cross_attention_dim None) with added projections: to_qkv and to_added_qkv
        fuse_qkv = { cross = {} },
      },
    }
  end,
}
