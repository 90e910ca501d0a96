-- mochi.lua: Mochi-1: MochiTransformer3DModel (48 asymmetric dual-stream blocks: a
-- 3072-wide visual stream and a 1536-wide text stream, SwiGLU), the T5-XXL encoder, the
-- causal 3D VAE (6x temporal, 8x spatial, 12 latent channels). Layout of diffusers
-- transformer_mochi.py.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local nh, hd = nn.int(c, "num_attention_heads", 24), nn.int(c, "attention_head_dim", 128)
  local d, L, dc = nh * hd, nn.int(c, "num_layers", 48), nn.int(c, "pooled_projection_dim", 1536)
  local F, Fc = (2 * 4 * d) // 3, (2 * 4 * dc) // 3
  local t = {}
  P.lin(t, "patch_embed.proj", d, nn.int(c, "in_channels", 12) * 4, { role = "embed" })
  P.mlp2(t, "time_embed.timestep_embedder", 256, d)
  nn.param(t, "time_embed.pooler.params", { 4096 * 4096 + 4096 * 2 * 4096 + 4096 * d + d })
  P.lin(t, "time_embed.caption_proj", dc, nn.int(c, "text_embed_dim", 4096), { role = "other" })
  local b = "transformer_blocks.*."
  P.lin(t, b .. "norm1.linear", 4 * d, d, { count = L, role = "other" })
  P.lin(t, b .. "norm1_context.linear", 4 * dc, d, { count = L - 1, role = "other" })
  nn.linear(t, b .. "attn1.to_q", d, d, { count = L })
  nn.linear(t, b .. "attn1.to_k", d, d, { count = L })
  nn.linear(t, b .. "attn1.to_v", d, d, { count = L })
  for _, q in ipairs { "add_q_proj", "add_k_proj", "add_v_proj" } do nn.linear(t, b .. "attn1." .. q, d, dc, { count = L }) end
  P.lin(t, b .. "attn1.to_out.0", d, d, { count = L })
  P.lin(t, b .. "attn1.to_add_out", dc, d, { count = L - 1 })
  for _, q in ipairs { "norm_q", "norm_k", "norm_added_q", "norm_added_k" } do nn.norm(t, b .. "attn1." .. q, hd, { count = L }) end
  P.ff(t, b .. "ff", d, F, L, { gated = true, bias = false })
  P.ff(t, b .. "ff_context", dc, Fc, L - 1, { gated = true, bias = false })
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  P.lin(t, "proj_out", 4 * 12, d, { role = "other" })
  return t, d, nh, L, F
end

return arch {
  name = "mochi",
  summary = "Mochi-1: asymmetric dual-stream 10B video DiT + T5-XXL + 3D VAE",
  model_types = { "mochi", "MochiTransformer3DModel", "MochiPipeline" },
  build = function(cfg)
    local tens, d, nh, L, F = transformer(cfg)
    return P.description {
      arch = "mochi", hidden = d, layers = L, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.t5_encoder {} },
        { "vae", "vae", P.vae_kl { block_out = { 128, 256, 512, 768 }, latent = 12, k3d = true, quant_conv = false } },
      },
      pipeline = {
        kind = "mmdit", vae_scale = 8, vae_tscale = 6, latent_channels = 12, patch = 2, cfg = true,
        cfg_batched = false, text_len = 256, joint = true, vae_peak_channels = 128, vae_chunk = 0,
        act_family = "mochi", vae_tile = 256, vae_tile_frames = 85, text_hidden = 4096, te_layers = 24,
      },
    }
  end,
}
