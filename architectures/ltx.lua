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
  P.lin(t, "proj_in", d, inc, { role = "other" })
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

-- AutoencoderKLLTXVideo (diffusers autoencoder_kl_ltx.py v0.32, the 0.9.0/0.9.1 defaults):
-- causal 3x3x3 convolutions, parameter-free RMSNorms, 4x4 patchify (48 input channels),
-- layers per block (4, 3, 3, 3, 4), decoder upsamplers convolving to 8x the channels before
-- the depth-to-space shuffle; 419,193,649 parameters (0.78 GiB in bf16; finetrainers'
-- precomputation printout shows T5 + VAE at 9.684 GiB with T5-XXL alone at 8.880).
local function ltx_vae()
  local t, K = {}, { 3, 3, 3 }
  local function res(p, cin, cout, count)
    P.conv(t, p .. ".conv1.conv", cout, cin, K, { count = count })
    P.conv(t, p .. ".conv2.conv", cout, cout, K, { count = count })
    if cin ~= cout then
      nn.norm(t, p .. ".norm3", cin, { bias = true, count = count })
      P.conv(t, p .. ".conv_shortcut.conv", cout, cin, { 1, 1, 1 }, { count = count })
    end
  end
  local ch, layers, scale = { 128, 256, 512, 512 }, { 4, 3, 3, 3, 4 }, { true, true, true, false }
  P.conv(t, "encoder.conv_in.conv", ch[1], 48, K)
  local out = ch[1]
  for i = 1, 4 do
    local inp = out
    out = ch[math.min(i + 1, 4)]
    local b = ("encoder.down_blocks.%d"):format(i - 1)
    res(b .. ".resnets.*", inp, inp, layers[i])
    if scale[i] then P.conv(t, b .. ".downsamplers.0.conv", inp, inp, K) end
    if inp ~= out then res(b .. ".conv_out", inp, out) end
  end
  res("encoder.mid_block.resnets.*", out, out, layers[5])
  P.conv(t, "encoder.conv_out.conv", 129, out, K)
  P.conv(t, "decoder.conv_in.conv", 512, 128, K)
  res("decoder.mid_block.resnets.*", 512, 512, layers[5])
  out = 512
  for i = 1, 4 do
    local inp = out
    out = ch[5 - i]
    local b = ("decoder.up_blocks.%d"):format(i - 1)
    if inp ~= out then res(b .. ".conv_in", inp, out) end
    if scale[5 - i] then P.conv(t, b .. ".upsamplers.0.conv.conv", out * 8, out, K) end
    res(b .. ".resnets.*", out, out, layers[5 - i])
  end
  P.conv(t, "decoder.conv_out.conv", 48, out, K)
  return t
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
        { "vae", "vae", ltx_vae() },
      },
      pipeline = {
        -- diffusers' first release with a ModularPipeline for it (src/diffusers/modular_pipelines/ltx/, LTXModularPipeline,
        -- first in the v0.38.0 tag): fit searches ComponentsManager auto offload from there (image.lua)
        modular = "0.38.0",
        kind = "dit", vae_scale = 32, vae_tscale = 8, latent_channels = 128, patch = 1, cfg = true,
        cfg_batched = true, text_len = 128, joint = false, vae_chunk = 0,
        -- the decoder ends at 1/4 resolution with 128 channels and unpatchifies 4x4: 8 per pixel
        vae_peak_channels = 8,
        -- live tensors of that size while encoding a training clip: the encoder's RMSNorm
        -- upcasts to fp32 (a copy and its square beside the block input). Measured by
        -- finetrainers' precomputation stage (README at 2da8cb5, the run of
        -- finetrainers-ltx-lora-r128-precompute): 11.155 GiB max allocated over 9.684 GiB of
        -- resident T5 + VAE = 1.471 GiB = 5.1 x (768 x 512 x 49 x 8 x 2 B), run with
        -- --enable_tiling (512-pixel tiles)
        vae_encode_tensors = 5,
        act_family = "ltx", vae_tile = 512, vae_tile_frames = 16, text_hidden = 4096, te_layers = 24,
      },
    }
  end,
}
