-- pixart.lua: PixArt-alpha/Sigma pipelines: PixArtTransformer2DModel (28 DiT blocks
-- with adaLN-single, self-attention, cross-attention to T5 tokens), the T5-XXL encoder
-- and the SD/SDXL AutoencoderKL. Layout of diffusers pixart_transformer_2d.py.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local nh, hd = nn.int(c, "num_attention_heads", 16), nn.int(c, "attention_head_dim", 72)
  local d, L = nh * hd, nn.int(c, "num_layers", 28)
  local inc, outc, p = nn.int(c, "in_channels", 4), nn.int(c, "out_channels", 8), nn.int(c, "patch_size", 2)
  local t = {}
  P.conv(t, "pos_embed.proj", d, inc, { p, p }, { role = "embed" })
  local b = "transformer_blocks.*."
  for _, a in ipairs { "attn1", "attn2" } do P.attn(t, b .. a, d, d, L) end
  P.ff(t, b .. "ff", d, 4 * d, L)
  nn.param(t, b .. "scale_shift_table", { 6, d }, { count = L })
  nn.param(t, "scale_shift_table", { 2, d })
  P.lin(t, "proj_out", p * p * outc, d, { role = "other" })
  P.mlp2(t, "adaln_single.emb.timestep_embedder", 256, d)
  P.lin(t, "adaln_single.linear", 6 * d, d, { role = "other" })
  P.mlp2(t, "caption_projection", nn.int(c, "caption_channels", 4096), d)
  return t, d, nh, L
end

return arch {
  name = "pixart",
  summary = "PixArt-alpha/Sigma: adaLN-single DiT + T5-XXL + AutoencoderKL",
  model_types = { "pixart", "PixArtTransformer2DModel", "PixArtSigmaPipeline", "PixArtAlphaPipeline" },
  build = function(cfg)
    local tens, d, nh, L = transformer(cfg)
    return P.description {
      arch = "pixart", hidden = d, layers = L, heads = nh, ffn = 4 * d,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.t5_encoder {} },
        { "vae", "vae", P.vae_kl(P.SD_VAE) },
      },
      pipeline = {
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        kind = "dit", vae_scale = 8, latent_channels = 4, patch = 2, cfg = true, cfg_batched = true,
        text_len = nn.int(cfg, "max_sequence_length", 300), joint = false, vae_peak_channels = 256,
        act_family = "image", text_hidden = 4096, te_layers = 24,
        -- fuse_qkv_projections() (scripts/workloads/image.lua fuse_qkv): attn2 is the cross
        -- attention to the caption (BasicTransformerBlock: cross_attention_dim given), fused to to_kv
        fuse_qkv = { cross = { "attn2" } },
      },
    }
  end,
}
