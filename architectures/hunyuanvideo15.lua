-- hunyuanvideo15.lua: HunyuanVideo-1.5 (diffusers HunyuanVideo15Pipeline, text-to-video):
-- HunyuanVideo15Transformer3DModel (54 dual-stream MMDiT blocks, no single-stream ones), the
-- Qwen2.5-VL-7B-Instruct language model as text_encoder (Qwen2_5_VLTextModel: no vision tower, no
-- lm_head; scripts/convert_hunyuan_video1_5_to_diffusers.py load_mllm keeps .language_model), the
-- Glyph-SDXL-v2 ByT5 encoder as text_encoder_2 (T5EncoderModel of google/byt5-small with 1,126
-- color and font tokens added: vocab 1510) and AutoencoderKLHunyuanVideo15 (16x spatial, 4x
-- temporal, 32 latent channels). Layout of diffusers transformer_hunyuan_video15.py and
-- autoencoder_kl_hunyuanvideo15.py (huggingface/diffusers @58eb52c).
-- Transformer config: the class defaults, which the convert script's TRANSFORMER_CONFIGS only
-- amend with target_size / task_type, and which published copies of the Hub's
-- transformer/config.json repeat (in_channels 65 = 32 latent + 32 condition + 1 mask,
-- out_channels 32, 16 heads x 128, 54 layers, 2 refiner layers, mlp_ratio 4, patch 1,
-- text_embed_dim 3584, text_embed_2_dim 1472, image_embed_dim 1152): 8,326,608,160 parameters,
-- the published "8.3B" and the DiT count public checkpoint translators state; ByT5 219,314,944
-- and VAE 1,260,634,115 (the same sources); text encoder 7,070,619,136 (Qwen2.5-7B without
-- lm_head). Pipeline 16,877,176,355.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 16)
  local d = hd * nh
  local F = math.floor(d * (c.mlp_ratio or 4.0))
  local p, pt = nn.int(c, "patch_size", 1), nn.int(c, "patch_size_t", 1)
  local te, te2, img = nn.int(c, "text_embed_dim", 3584), nn.int(c, "text_embed_2_dim", 1472), nn.int(c, "image_embed_dim", 1152)
  local L = nn.int(c, "num_layers", 54)
  local t = {}
  P.conv(t, "x_embedder.proj", d, nn.int(c, "in_channels", 65), { pt, p, p }, { role = "embed" })
  -- HunyuanVideo15ImageProjection (SigLIP features; zeros in text-to-video, still run)
  P.gnorm(t, "image_embedder.norm_in", img)
  P.lin(t, "image_embedder.linear_1", img, img, { role = "other" })
  P.lin(t, "image_embedder.linear_2", d, img, { role = "other" })
  P.gnorm(t, "image_embedder.norm_out", d)
  -- the token refiner over the Qwen2.5-VL hidden states (HunyuanVideo's layout, SiLU FF)
  P.token_refiner(t, d, te, nn.int(c, "num_refiner_layers", 2))
  -- HunyuanVideo15ByT5TextProjection: LayerNorm, 1472 -> 2048 -> 2048 -> d
  P.gnorm(t, "context_embedder_2.norm", te2)
  P.lin(t, "context_embedder_2.linear_1", 2048, te2, { role = "other" })
  P.lin(t, "context_embedder_2.linear_2", 2048, 2048, { role = "other" })
  P.lin(t, "context_embedder_2.linear_3", d, 2048, { role = "other" })
  P.mlp2(t, "time_embed.timestep_embedder", 256, d)
  if c.use_meanflow == true then P.mlp2(t, "time_embed.timestep_embedder_r", 256, d) end
  nn.embed(t, "cond_type_embed", 3, d, { role = "other" })
  P.double_blocks(t, d, F, hd, L)
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  P.lin(t, "proj_out", pt * p * p * nn.int(c, "out_channels", 32), d, { role = "other" })
  return t, d, F, nh, L
end

-- AutoencoderKLHunyuanVideo15: causal 3x3x3 convs (.conv inside each HunyuanVideo15CausalConv3d),
-- RMS norms with a (C, 1, 1, 1) gamma and no bias, 1x1x1 attention convs in the mid blocks, no
-- quant convs. Down/up samplers are one causal conv to out_channels / factor (down) or
-- out_channels x factor (up), factor 8 where time is resampled too, else 4, around a
-- pixel-shuffle; the up blocks hold layers_per_block + 1 resnets.
local function vae_resnet(t, p, cin, cout)
  nn.param(t, p .. ".norm1.gamma", { cin, 1, 1, 1 }, { role = "norm" })
  P.conv(t, p .. ".conv1.conv", cout, cin, { 3, 3, 3 })
  nn.param(t, p .. ".norm2.gamma", { cout, 1, 1, 1 }, { role = "norm" })
  P.conv(t, p .. ".conv2.conv", cout, cout, { 3, 3, 3 })
  if cin ~= cout then P.conv(t, p .. ".conv_shortcut", cout, cin, { 1, 1, 1 }) end
end

local function vae_mid(t, p, c)
  vae_resnet(t, p .. ".resnets.0", c, c)
  nn.param(t, p .. ".attentions.0.norm.gamma", { c, 1, 1, 1 }, { role = "norm" })
  for _, q in ipairs { "to_q", "to_k", "to_v", "proj_out" } do P.conv(t, p .. ".attentions.0." .. q, c, c, { 1, 1, 1 }) end
  vae_resnet(t, p .. ".resnets.1", c, c)
end

local function vae(c)
  local ch, L, z = c.block_out_channels or { 128, 256, 512, 1024, 1024 }, nn.int(c, "layers_per_block", 2), nn.int(c, "latent_channels", 32)
  local s = math.floor(math.log(nn.int(c, "spatial_compression_ratio", 16), 2) + 0.5)
  local tt = math.floor(math.log(nn.int(c, "temporal_compression_ratio", 4), 2) + 0.5)
  local n, t = #ch, {}
  P.conv(t, "encoder.conv_in.conv", ch[1], 3, { 3, 3, 3 })
  local inp = ch[1]
  for i = 0, n - 1 do
    for j = 0, L - 1 do vae_resnet(t, ("encoder.down_blocks.%d.resnets.%d"):format(i, j), j == 0 and inp or ch[i + 1], ch[i + 1]) end
    inp = ch[i + 1]
    if i < s then -- spatial downsample (time too from level s - tt on), to the next level's width
      local out, f = ch[i + 2], (i >= s - tt) and 8 or 4
      P.conv(t, ("encoder.down_blocks.%d.downsamplers.0.conv.conv"):format(i), out // f, inp, { 3, 3, 3 })
      inp = out
    end
  end
  vae_mid(t, "encoder.mid_block", ch[n])
  nn.param(t, "encoder.norm_out.gamma", { ch[n], 1, 1, 1 }, { role = "norm" })
  P.conv(t, "encoder.conv_out.conv", 2 * z, ch[n], { 3, 3, 3 })
  P.conv(t, "decoder.conv_in.conv", ch[n], z, { 3, 3, 3 })
  vae_mid(t, "decoder.mid_block", ch[n])
  inp = ch[n]
  for i = 0, n - 1 do
    local out = ch[n - i]
    for j = 0, L do vae_resnet(t, ("decoder.up_blocks.%d.resnets.%d"):format(i, j), j == 0 and inp or out, out) end
    inp = out
    if i < s or i < tt then
      local nxt, f = ch[n - i - 1], (i < tt) and 8 or 4
      P.conv(t, ("decoder.up_blocks.%d.upsamplers.0.conv.conv"):format(i), nxt * f, out, { 3, 3, 3 })
      inp = nxt
    end
  end
  nn.param(t, "decoder.norm_out.gamma", { ch[1], 1, 1, 1 }, { role = "norm" })
  P.conv(t, "decoder.conv_out.conv", 3, ch[1], { 3, 3, 3 })
  return t
end

-- Qwen2.5-VL-7B-Instruct's text_config (the fields that shape its tensors).
local MLLM = { hidden = 3584, layers = 28, heads = 28, kv_heads = 4, ffn = 18944, vocab = 152064, qkv_bias = true }
-- Glyph-SDXL-v2's ByT5 (google/byt5-small config with the added tokens: text_encoder_2/config.json)
local BYT5 = { d_model = 1472, layers = 12, d_ff = 3584, heads = 6, d_kv = 64, vocab = 1510 }

return arch {
  name = "hunyuanvideo15",
  summary = "HunyuanVideo-1.5: 54 dual-stream blocks + Qwen2.5-VL-7B text model + ByT5 glyph encoder + 16x/4x 3D VAE",
  model_types = { "hunyuanvideo15", "HunyuanVideo15Pipeline", "HunyuanVideo15Transformer3DModel" },
  build = function(cfg)
    local tc = nn.sub(cfg, "transformer") or {}
    local tens, d, F, nh, L = transformer(tc)
    local vc = nn.sub(cfg, "vae") or {}
    local target = nn.int(tc, "target_size", 640)
    -- guider/config.json: ClassifierFreeGuidance is disabled at guidance_scale 1.0 (the
    -- cfg-distilled checkpoints), one pass per step then
    local cfg_on = ((nn.sub(cfg, "guider") or {}).guidance_scale or 6.0) > 1.0
    return P.description {
      arch = "hunyuanvideo15", hidden = d, layers = L, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.llm_encoder(MLLM) },
        { "text_encoder_2", "text_encoder_2", P.t5_encoder(BYT5) },
        { "vae", "vae", vae(vc) },
      },
      pipeline = {
        -- diffusers' first release with a ModularPipeline for it (src/diffusers/modular_pipelines/hunyuan_video1_5/
        -- first in the v0.38.0 tag): fit searches ComponentsManager auto offload from there (image.lua)
        modular = "0.38.0",
        -- HunyuanVideo15Pipeline (pipelines/hunyuan_video1_5/pipeline_hunyuan_video1_5.py): sizes
        -- multiples of 16 (spatial compression 16, patch 1); the default size is the 16:9 bucket
        -- of target_size (640: 848 x 480; 960: 1280 x 720); num_frames 121 by default, 4k + 1;
        -- latents (F-1)/4+1 frames x H/16 x W/16, one token each. The joint sequence adds 1,985
        -- text tokens: 729 image-embedding slots (zeros in text-to-video, masked), ByT5's 256 and
        -- Qwen2.5-VL's 1000 (tokenizer_max_length, after the 108-token template is cropped), all
        -- padded (S = 49,290 + 1,985 = 51,275 at 848 x 480 x 121). The guider
        -- (ClassifierFreeGuidance, guidance_scale 6.0 for the non-distilled checkpoints) runs the
        -- conditional and unconditional passes one after the other.
        kind = "mmdit", vae_scale = 16, vae_tscale = 4, latent_channels = nn.int(vc, "latent_channels", 32), patch = 1,
        cfg = cfg_on, cfg_batched = false, text_len = 1985, joint = true, act_family = "hunyuanvideo15",
        default_width = target == 960 and 1280 or 848, default_height = target == 960 and 720 or 480,
        -- HunyuanVideo15AttnProcessor2_0 expands the [B, S] padding mask to a dense [B, 1, S, S]
        -- boolean mask (a repeat and an &) in every block's attention (src/gen.c gen_dense_mask)
        dense_attn_mask = true,
        text_hidden = MLLM.hidden, te_layers = MLLM.layers,
        -- the decoder runs every frame at once (no temporal tiling, no frame cache); enable_tiling
        -- splits it into 256 x 256 pixel tiles (tile_sample_min_height/width, overlap 0.25). The
        -- peak is the full-resolution 128-channel stage; its bytes per element are
        -- HunyuanVideo's calibrated 4.4 (assumed: no HunyuanVideo-1.5 case in shared/calibration)
        vae_peak_channels = (vc.block_out_channels or { 128 })[1], vae_tile = 256,
      },
    }
  end,
}
