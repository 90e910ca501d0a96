-- hunyuanimage.lua: HunyuanImage-2.1 (hunyuanvideo-community/HunyuanImage-2.1-Diffusers, diffusers
-- HunyuanImagePipeline): HunyuanImageTransformer2DModel, the whole Qwen2.5-VL-7B-Instruct as its
-- text encoder (Qwen2_5_VLForConditionalGeneration: vision tower and lm_head loaded, a hidden state
-- of its 28 layers read), the Glyph-SDXL-v2 ByT5 encoder (T5EncoderModel) and the 32x
-- AutoencoderKLHunyuanImage with 64 latent channels.
-- Layout of diffusers models/transformers/transformer_hunyuanimage.py (huggingface/diffusers
-- @58eb52c): HunyuanVideo's blocks: 20 double-stream blocks (AdaLayerNormZero 6 d per stream,
-- biased q/k/v, added q/k/v, to_out, to_add_out, RMS q/k norms, GELU-tanh feed-forwards of 4 d)
-- and 40 single-stream blocks (3 d modulation, fused attention + MLP input, one output projection);
-- x_embedder a patch-1 Conv2d (64 -> d); context_embedder HunyuanVideo's token refiner over the
-- 3584-wide Qwen states (2 refiner blocks); context_embedder_2 the ByT5 projection (LayerNorm 1472,
-- 1472 -> 2048 -> 2048 -> d); time_guidance_embed (timestep 256 -> d -> d; a guidance embedder with
-- guidance_embeds, a second timestep embedder with use_meanflow: the distilled checkpoint);
-- norm_out d -> 2 d, proj_out d -> 64. The transformer/config.json diffusers'
-- scripts/convert_hunyuan_image_to_diffusers.py writes for "hunyuanimage2.1" (28 heads x 128 =
-- 3584): 17,425,795,520 parameters, the checkpoint total the Unsloth Studio diffusion catalog lists
-- for hunyuanvideo-community/HunyuanImage-2.1-Diffusers (the published "17B").
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 28)
  local d = hd * nh
  local ratio = nn.opt(c, "mlp_ratio", 4.0)
  if type(ratio) ~= "number" or ratio <= 0 then
    error(("config: field 'mlp_ratio' must be a positive number, got %s %s"):format(type(ratio), tostring(ratio)), 0)
  end
  local F = math.floor(d * ratio)
  local te, te2 = nn.int(c, "text_embed_dim", 3584), nn.int(c, "text_embed_2_dim", 1472)
  local L, S = nn.int(c, "num_layers", 20), nn.int(c, "num_single_layers", 40)
  local ps = c.patch_size or { 1, 1 }
  if type(ps) ~= "table" or #ps ~= 2 then error("config: field 'patch_size' must be a list of 2 sizes (the 2D model)", 0) end
  local p = ps[1]
  if math.type(p) ~= "integer" or p < 1 or ps[2] ~= p then
    error(("config: field 'patch_size' must be two equal positive integers, got %s, %s"):format(tostring(ps[1]), tostring(ps[2])), 0)
  end
  local t = {}
  P.conv(t, "x_embedder.proj", d, nn.int(c, "in_channels", 64), { p, p }, { role = "embed" })
  P.token_refiner(t, d, te, nn.int(c, "num_refiner_layers", 2))
  P.gnorm(t, "context_embedder_2.norm", te2)
  P.lin(t, "context_embedder_2.linear_1", 2048, te2, { role = "other" })
  P.lin(t, "context_embedder_2.linear_2", 2048, 2048, { role = "other" })
  P.lin(t, "context_embedder_2.linear_3", d, 2048, { role = "other" })
  P.mlp2(t, "time_guidance_embed.timestep_embedder", 256, d)
  if nn.flag(c, "use_meanflow", false) then P.mlp2(t, "time_guidance_embed.timestep_embedder_r", 256, d) end
  if nn.flag(c, "guidance_embeds", false) then P.mlp2(t, "time_guidance_embed.guidance_embedder", 256, d) end
  P.double_blocks(t, d, F, hd, L)
  P.single_blocks(t, d, F, hd, S)
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  P.lin(t, "proj_out", p * p * nn.int(c, "out_channels", 64), d, { role = "other" })
  return t, d, F, nh, L + S
end

-- AutoencoderKLHunyuanImage (autoencoder_kl_hunyuanimage.py): GroupNorm ResNet blocks (norm1,
-- conv1, norm2, conv2, a 1x1 conv_shortcut when the width changes); a mid block of resnet,
-- single-head attention (norm, 1x1 to_q / to_k / to_v / proj), resnet; pixel-unshuffle
-- downsamplers (3x3 conv in -> out / 4) and pixel-shuffle upsamplers (3x3 conv in -> 4 out) between
-- the levels (log2 of the 32x ratio = 5 of them), to the next level's width; the encoder's levels
-- are ModuleList entries in order (down_blocks.N), the decoder's over the reversed widths with
-- layers_per_block + 1 resnets a level (up_blocks.N).
local function vae(c)
  local ch, L, z = c.block_out_channels or { 128, 256, 512, 512, 1024, 1024 }, nn.int(c, "layers_per_block", 2),
                   nn.int(c, "latent_channels", 64)
  local levels = math.floor(math.log(nn.int(c, "spatial_compression_ratio", 32), 2) + 0.5)
  local n, t = #ch, {}
  local function resnet(p, cin, cout)
    P.gnorm(t, p .. ".norm1", cin)
    P.conv(t, p .. ".conv1", cout, cin, { 3, 3 })
    P.gnorm(t, p .. ".norm2", cout)
    P.conv(t, p .. ".conv2", cout, cout, { 3, 3 })
    if cin ~= cout then P.conv(t, p .. ".conv_shortcut", cout, cin, { 1, 1 }) end
  end
  local function mid(p, w)
    resnet(p .. ".resnets.0", w, w)
    P.gnorm(t, p .. ".attentions.0.norm", w)
    for _, q in ipairs { "to_q", "to_k", "to_v", "proj" } do P.conv(t, p .. ".attentions.0." .. q, w, w, { 1, 1 }) end
    resnet(p .. ".resnets.1", w, w)
  end
  P.conv(t, "encoder.conv_in", ch[1], 3, { 3, 3 })
  local k, inp = 0, ch[1]
  for i = 1, n do
    for _ = 1, L do resnet(("encoder.down_blocks.%d"):format(k), inp, ch[i]); inp = ch[i]; k = k + 1 end
    if i - 1 < levels and i < n then
      P.conv(t, ("encoder.down_blocks.%d.conv"):format(k), ch[i + 1] // 4, inp, { 3, 3 }); inp = ch[i + 1]; k = k + 1
    end
  end
  mid("encoder.mid_block", ch[n])
  P.gnorm(t, "encoder.norm_out", ch[n])
  P.conv(t, "encoder.conv_out", 2 * z, ch[n], { 3, 3 })
  local rev = {}
  for i = n, 1, -1 do rev[#rev + 1] = ch[i] end
  P.conv(t, "decoder.conv_in", rev[1], z, { 3, 3 })
  mid("decoder.mid_block", rev[1])
  k, inp = 0, rev[1]
  for i = 1, n do
    for _ = 1, L + 1 do resnet(("decoder.up_blocks.%d"):format(k), inp, rev[i]); inp = rev[i]; k = k + 1 end
    if i - 1 < levels and i < n then
      P.conv(t, ("decoder.up_blocks.%d.conv"):format(k), rev[i + 1] * 4, inp, { 3, 3 }); inp = rev[i + 1]; k = k + 1
    end
  end
  P.gnorm(t, "decoder.norm_out", rev[n])
  P.conv(t, "decoder.conv_out", 3, rev[n], { 3, 3 })
  return t
end

-- The Glyph-SDXL-v2 ByT5 encoder (byt5-small with the glyph tokens), as HunyuanVideo-1.5's.
local BYT5 = { d_model = 1472, layers = 12, d_ff = 3584, heads = 6, d_kv = 64, vocab = 1510 }

return arch {
  name = "hunyuanimage",
  summary = "HunyuanImage-2.1: 20 dual + 40 single-stream blocks + Qwen2.5-VL-7B + ByT5 + 32x 64-ch VAE",
  model_types = { "hunyuanimage", "HunyuanImagePipeline", "HunyuanImageTransformer2DModel" },
  build = function(cfg)
    local tc = nn.sub(cfg, "transformer") or error("config: missing field 'transformer' (HunyuanImageTransformer2DModel config.json)", 0)
    local tens, d, F, nh, layers = transformer(tc)
    local tec = nn.sub(cfg, "text_encoder") or error("config: missing field 'text_encoder' (Qwen2.5-VL config.json)", 0)
    local te = require("architectures.qwen2_vl").build(tec)
    local vc = nn.sub(cfg, "vae") or {}
    local cfg_on = ((nn.sub(cfg, "guider") or {}).guidance_scale or 3.5) > 1.0
    return P.description {
      arch = "hunyuanimage", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", te.tensors },
        { "text_encoder_2", "text_encoder_2", P.t5_encoder(BYT5) },
        { "vae", "vae", vae(vc) },
      },
      pipeline = {
        -- HunyuanImagePipeline (pipelines/hunyuan_image/pipeline_hunyuanimage.py): default 2048 x
        -- 2048 (default_sample_size 64 x the 32x VAE); sizes multiples of 32 (patch 1); the Qwen
        -- prompt padded to 1000 tokens after the 34-token template (output_hidden_states: every
        -- layer's states) and the ByT5 glyph prompt to 128 join the (H/32) x (W/32) image tokens in
        -- the joint sequence (1,128 text slots); the joint mask is a [B, 1, 1, S] boolean, no dense
        -- S x S one. The guider (AdaptiveProjectedMixGuidance, guidance_scale 3.5 in the base
        -- checkpoint's guider/config.json) runs the conditional and unconditional batches one
        -- after the other; guider.guidance_scale <= 1 turns it off. The decode constant is the image
        -- family's at the decoder's widest full-resolution map, 128 channels (its upsamplers are a
        -- conv at half resolution and a pixel shuffle: no 256-channel full-resolution map as in
        -- AutoencoderKL), assumed: no measurement of this VAE is in shared/calibration. Tiling:
        -- tile_sample_min_size = the vae's sample_size (384 pixels).
        kind = "mmdit", vae_scale = 32, patch = 1, latent_channels = nn.int(vc, "latent_channels", 64),
        cfg = cfg_on, cfg_batched = false, text_len = 1128, joint = true, act_family = "image",
        default_side = 2048, vae_peak_channels = 128, vae_assumed = true, vae_tile = nn.int(vc, "sample_size", 384),
        text_hidden = te.hidden, te_layers = te.layers,
      },
    }
  end,
}
