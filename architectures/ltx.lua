-- ltx.lua: LTX-Video: LTXVideoTransformer3DModel (28 blocks, self- and cross-attention
-- with RMS q/k norm across heads, patch 1 over a 128-channel latent), the T5-XXL
-- encoder, the 32x spatial / 8x temporal video VAE. Layout of diffusers
-- transformer_ltx.py.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local nh, hd = nn.int(c, "num_attention_heads", 32), nn.int(c, "attention_head_dim", 64)
  local d, L, inc = nh * hd, nn.int(c, "num_layers", 28), nn.int(c, "in_channels", 128)
  local cross = nn.int(c, "cross_attention_dim", 2048)
  local t = {}
  P.lin(t, "proj_in", d, inc, { role = "embed" })
  nn.param(t, "scale_shift_table", { 2, d })
  P.mlp2(t, "time_embed.emb.timestep_embedder", 256, d)
  P.lin(t, "time_embed.linear", 6 * d, d, { role = "other" })
  P.mlp2(t, "caption_projection", nn.int(c, "caption_channels", 4096), d)
  local b = "transformer_blocks.*."
  P.attn(t, b .. "attn1", d, d, L, { qk_norm = d })
  P.attn(t, b .. "attn2", d, cross, L, { qk_norm = d })
  P.ff(t, b .. "ff", d, 4 * d, L)
  nn.param(t, b .. "scale_shift_table", { 6, d }, { count = L })
  P.lin(t, "proj_out", nn.int(c, "out_channels", inc), d, { role = "other" })
  return t, d, nh, L
end

return arch {
  name = "ltx_video",
  summary = "LTX-Video: 2B video DiT over a 32x-compressed latent + T5-XXL",
  model_types = { "ltx_video", "LTXVideoTransformer3DModel", "LTXPipeline" },
  build = function(cfg)
    local tens, d, nh, L = transformer(cfg)
    return P.description {
      arch = "ltx_video", hidden = d, layers = L, heads = nh, ffn = 4 * d,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.t5_encoder {} },
        { "vae", "vae", P.vae_kl { block_out = { 128, 256, 512, 512 }, latent = 128, k3d = true, quant_conv = false } },
      },
      pipeline = {
        kind = "dit", vae_scale = 32, vae_tscale = 8, latent_channels = 128, patch = 1, cfg = true,
        cfg_batched = true, text_len = 128, joint = false, vae_chunk = 0,
        -- the decoder ends at 1/4 resolution with 128 channels and unpatchifies 4x4: 8 per pixel
        vae_peak_channels = 8,
        act_family = "ltx", vae_tile = 512, vae_tile_frames = 16, text_hidden = 4096, te_layers = 24,
      },
    }
  end,
}
