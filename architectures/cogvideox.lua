-- cogvideox.lua: CogVideoX 2B/5B/1.5-5B (and ConsisID, a CogVideoX-5B derivative):
-- CogVideoXTransformer3DModel (expert adaptive LayerNorm blocks over the joint text +
-- video sequence), the T5-XXL encoder, the causal 3D VAE (4x temporal, 8x spatial).
-- Layout of diffusers cogvideox_transformer_3d.py (models.jsonl THUDM/CogVideoX-5b).
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local nh, hd = nn.need(c, "num_attention_heads"), nn.int(c, "attention_head_dim", 64)
  local d, L, te = nh * hd, nn.need(c, "num_layers"), nn.int(c, "time_embed_dim", 512)
  local p, pt, inc = nn.int(c, "patch_size", 2), nn.int(c, "patch_size_t", 1), nn.int(c, "in_channels", 16)
  local outc = nn.int(c, "out_channels", 16)
  local t = {}
  if pt > 1 then
    P.lin(t, "patch_embed.proj", d, inc * p * p * pt, { role = "embed" })
  else
    P.conv(t, "patch_embed.proj", d, inc, { p, p }, { role = "embed" })
  end
  P.lin(t, "patch_embed.text_proj", d, nn.int(c, "text_embed_dim", 4096), { role = "embed" })
  P.mlp2(t, "time_embedding", d, te)
  if c.ofs_embed_dim then P.mlp2(t, "ofs_embedding", c.ofs_embed_dim, te) end
  local b = "transformer_blocks.*."
  for _, n in ipairs { "norm1", "norm2" } do
    P.lin(t, b .. n .. ".linear", 6 * d, te, { count = L, role = "other" })
    P.gnorm(t, b .. n .. ".norm", d, L)
  end
  for _, q in ipairs { "to_q", "to_k", "to_v", "to_out.0" } do P.lin(t, b .. "attn1." .. q, d, d, { count = L }) end
  P.gnorm(t, b .. "attn1.norm_q", hd, L)
  P.gnorm(t, b .. "attn1.norm_k", hd, L)
  P.lin(t, b .. "ff.net.0.proj", 4 * d, d, { count = L, role = "mlp" })
  P.lin(t, b .. "ff.net.2", d, 4 * d, { count = L, role = "mlp" })
  P.gnorm(t, "norm_final", d)
  P.lin(t, "norm_out.linear", 2 * d, te, { role = "other" })
  P.gnorm(t, "norm_out.norm", d)
  P.lin(t, "proj_out", p * p * pt * outc, d, { role = "other" })
  return t, d, nh, L, pt
end

return arch {
  name = "cogvideox",
  summary = "CogVideoX 2B/5B/1.5: expert-AdaLN video DiT + T5-XXL + causal 3D VAE",
  model_types = { "cogvideox", "CogVideoXTransformer3DModel", "CogVideoXPipeline", "consisid" },
  build = function(cfg)
    local tens, d, nh, L, pt = transformer(cfg)
    return P.description {
      arch = "cogvideox", hidden = d, layers = L, heads = nh, ffn = 4 * d,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.t5_encoder {} },
        { "vae", "vae", P.vae_kl { block_out = { 128, 256, 256, 512 }, latent = 16, k3d = true, quant_conv = false } },
      },
      pipeline = {
        kind = "mmdit", vae_scale = 8, vae_tscale = 4, latent_channels = 16, patch = 2, patch_t = pt,
        cfg = true, cfg_batched = true, text_len = 226, joint = true,
        -- AutoencoderKLCogVideoX decodes 2 latent frames a time (the first call takes the
        -- remainder: 9 frames for 13 latent frames); the bytes per element are the family's
        -- calibrated ones (src/gen.c "cogvideox") at 128 channels
        vae_peak_channels = 128, vae_latent_batch = 2,
        act_family = "cogvideox", vae_tile = 240, vae_tile_frames = 8,
        text_hidden = 4096, te_layers = 24,
      },
    }
  end,
}
