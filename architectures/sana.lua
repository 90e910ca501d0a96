-- sana.lua: SANA (NVlabs, Efficient-Large-Model/Sana_1600M_1024px_diffusers and Sana_600M_1024px;
-- diffusers SanaPipeline): SanaTransformer2DModel, a linear DiT; Gemma-2-2B as the text encoder
-- (model_index.json loads Gemma2Model: no lm_head; the embedding is tied, so the count is
-- Gemma-2-2B's either way); the 32x deep-compression autoencoder AutoencoderDC (dc-ae-f32c32-sana-1.0).
-- Layout of diffusers models/transformers/sana_transformer.py (huggingface/diffusers @065628f):
-- patch_embed.proj (conv p x p, in -> d, biased; no position table: interpolation_scale is unset);
-- time_embed = AdaLayerNormSingle (timestep_embedder 256 -> d -> d, linear d -> 6 d), or with
-- guidance_embeds SanaCombinedTimestepGuidanceEmbeddings (a second, guidance embedder);
-- caption_projection (caption_channels -> d -> d) and caption_norm (RMSNorm d); per block:
-- attn1 linear self-attention (SanaLinearAttnProcessor2_0: to_q/k/v biased per attention_bias,
-- to_out.0 biased), attn2 softmax cross-attention over the prompt (q/k/v/out biased; heads x
-- head_dim of its own), a Mix-FFN `ff` = GLUMBConv (conv_inverted 1x1 d -> 2F with bias,
-- conv_depth 3x3 depthwise over 2F with bias, conv_point 1x1 F -> d without; F = int(mlp_ratio d)),
-- weightless LayerNorms and a scale_shift_table {6, d}; a final scale_shift_table {2, d} and
-- proj_out (d -> p^2 out). Sana_1600M: d 2240 (70 heads x 32), 20 blocks, cross-attention 20 x
-- 112, caption 2304: 1,604,462,752 parameters, the paper's "1604M" (arXiv 2410.10629, model
-- configurations table); Sana_600M: d 1152 (36 x 32), 28 blocks, cross 16 x 72: 591,747,872 (the
-- paper's table says 590M; no exact published count was found for either).
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local nh, hd = nn.int(c, "num_attention_heads", 70), nn.int(c, "attention_head_dim", 32)
  local d, L = nh * hd, nn.int(c, "num_layers", 20)
  local cnh, chd = nn.int(c, "num_cross_attention_heads", 20), nn.int(c, "cross_attention_head_dim", 112)
  local cin = nn.int(c, "in_channels", 32)
  local cout, p = nn.int(c, "out_channels", cin), nn.int(c, "patch_size", 1)
  local cross = nn.int(c, "cross_attention_dim", d)
  local ratio = nn.opt(c, "mlp_ratio", 2.5)
  if type(ratio) ~= "number" or ratio <= 0 then
    error(("config: field 'mlp_ratio' must be a positive number, got %s %s"):format(type(ratio), tostring(ratio)), 0)
  end
  local F = math.floor(ratio * d)
  local qk = nn.opt(c, "qk_norm", nil)
  if qk ~= nil and qk ~= "rms_norm_across_heads" then
    error(("config: field 'qk_norm' %q is not modelled (SANA 1.5 / Sprint use \"rms_norm_across_heads\")"):format(tostring(qk)), 0)
  end
  local t = {}
  P.conv(t, "patch_embed.proj", d, cin, { p, p }, { role = "embed" })
  if nn.flag(c, "guidance_embeds", false) then
    P.mlp2(t, "time_embed.timestep_embedder", 256, d)
    P.mlp2(t, "time_embed.guidance_embedder", 256, d)
    P.lin(t, "time_embed.linear", 6 * d, d, { role = "other" })
  else
    P.mlp2(t, "time_embed.emb.timestep_embedder", 256, d)
    P.lin(t, "time_embed.linear", 6 * d, d, { role = "other" })
  end
  P.mlp2(t, "caption_projection", nn.int(c, "caption_channels", 2304), d)
  nn.norm(t, "caption_norm", d)
  local b = "transformer_blocks.*."
  local bias = nn.flag(c, "attention_bias", false)
  local inner = nh * hd
  for _, q in ipairs { "to_q", "to_k", "to_v" } do P.lin(t, b .. "attn1." .. q, inner, d, { count = L, bias = bias }) end
  P.lin(t, b .. "attn1.to_out.0", d, inner, { count = L })
  local cinner = cnh * chd
  P.lin(t, b .. "attn2.to_q", cinner, d, { count = L })
  P.lin(t, b .. "attn2.to_k", cinner, cross, { count = L })
  P.lin(t, b .. "attn2.to_v", cinner, cross, { count = L })
  P.lin(t, b .. "attn2.to_out.0", d, cinner, { count = L, bias = nn.flag(c, "attention_out_bias", true) })
  if qk then -- RMSNorm over all heads (Attention's rms_norm_across_heads)
    for _, a in ipairs { { "attn1", inner }, { "attn2", cinner } } do
      for _, q in ipairs { "norm_q", "norm_k" } do nn.norm(t, b .. a[1] .. "." .. q, a[2], { count = L }) end
    end
  end
  P.conv(t, b .. "ff.conv_inverted", 2 * F, d, { 1, 1 }, { count = L, role = "mlp" })
  P.conv(t, b .. "ff.conv_depth", 2 * F, 1, { 3, 3 }, { count = L, role = "mlp" })
  P.conv(t, b .. "ff.conv_point", d, F, { 1, 1 }, { count = L, role = "mlp", bias = false })
  nn.param(t, b .. "scale_shift_table", { 6, d }, { count = L })
  nn.param(t, "scale_shift_table", { 2, d })
  P.lin(t, "proj_out", p * p * cout, d, { role = "other" })
  return t, d, F, nh, L, p, cin
end

-- AutoencoderDC (diffusers models/autoencoders/autoencoder_dc.py) with the dc-ae-f32c32-sana-1.0
-- config (mit-han-lab/efficientvit dc_ae_f32c32 "dc-ae-f32c32-sana-1.0": widths 128, 256, 512,
-- 512, 1024, 1024; encoder depths 2, 2, 2, 3, 3, 3 with Conv downsampling, decoder 3 each with
-- InterpolateConv upsampling; ResBlock in the first three stages, EfficientViTBlock with 5x5
-- multi-scale q/k/v aggregation in the last three; RMSNorms with weight and bias; 32 latent
-- channels). ResBlock: conv1 3x3 (bias), conv2 3x3 (no bias), norm. EfficientViTBlock: attn
-- (SanaMultiscaleLinearAttention, heads = width / 32: to_q/k/v without bias, to_qkv_multiscale.0
-- proj_in 5x5 depthwise over 3 x width and proj_out 1x1 grouped by 3 x heads, both without bias,
-- to_out 2 width -> width without bias, norm_out) and conv_out (GLUMBConv, expand 4, with its
-- RMSNorm). A stage's blocks and its resampling conv are one nn.Sequential (indices .0, .1, ...).
local DCAE = { widths = { 128, 256, 512, 512, 1024, 1024 }, enc = { 2, 2, 2, 3, 3, 3 }, dec = { 3, 3, 3, 3, 3, 3 },
               vit = { false, false, false, true, true, true }, latent = 32, head = 32 }

local function dcae_block(t, p, c, vit, head)
  if not vit then
    P.conv(t, p .. ".conv1", c, c, { 3, 3 })
    P.conv(t, p .. ".conv2", c, c, { 3, 3 }, { bias = false })
    nn.norm(t, p .. ".norm", c, { bias = true })
    return
  end
  local heads = c // head
  for _, q in ipairs { "to_q", "to_k", "to_v" } do nn.linear(t, p .. ".attn." .. q, c, c, {}) end
  P.conv(t, p .. ".attn.to_qkv_multiscale.0.proj_in", 3 * c, 1, { 5, 5 }, { bias = false })
  P.conv(t, p .. ".attn.to_qkv_multiscale.0.proj_out", 3 * c, 3 * c // (3 * heads), { 1, 1 }, { bias = false })
  nn.linear(t, p .. ".attn.to_out", c, 2 * c, {})
  nn.norm(t, p .. ".attn.norm_out", c, { bias = true })
  P.conv(t, p .. ".conv_out.conv_inverted", 8 * c, c, { 1, 1 })
  P.conv(t, p .. ".conv_out.conv_depth", 8 * c, 1, { 3, 3 })
  P.conv(t, p .. ".conv_out.conv_point", c, 4 * c, { 1, 1 }, { bias = false })
  nn.norm(t, p .. ".conv_out.norm", c, { bias = true })
end

local function vae_dc(c)
  local t, w, n = {}, c.widths, #c.widths
  P.conv(t, "encoder.conv_in", w[1], 3, { 3, 3 })
  for i = 1, n do
    for j = 0, c.enc[i] - 1 do dcae_block(t, ("encoder.down_blocks.%d.%d"):format(i - 1, j), w[i], c.vit[i], c.head) end
    if i < n then P.conv(t, ("encoder.down_blocks.%d.%d.conv"):format(i - 1, c.enc[i]), w[i + 1], w[i], { 3, 3 }) end
  end
  P.conv(t, "encoder.conv_out", c.latent, w[n], { 3, 3 })
  P.conv(t, "decoder.conv_in", w[n], c.latent, { 3, 3 })
  for i = 1, n do
    local k = 0
    if i < n then P.conv(t, ("decoder.up_blocks.%d.0.conv"):format(i - 1), w[i], w[i + 1], { 3, 3 }); k = 1 end
    for j = 0, c.dec[i] - 1 do dcae_block(t, ("decoder.up_blocks.%d.%d"):format(i - 1, j + k), w[i], c.vit[i], c.head) end
  end
  nn.norm(t, "decoder.norm_out", w[1], { bias = true })
  P.conv(t, "decoder.conv_out", 3, w[1], { 3, 3 })
  return t
end

return arch {
  name = "sana",
  summary = "SANA: linear DiT (Mix-FFN, cross-attention) + Gemma-2-2B + 32x DC-AE",
  model_types = { "sana", "SanaPipeline", "SanaTransformer2DModel" },
  build = function(cfg)
    local tc = nn.sub(cfg, "transformer") or error("config: missing field 'transformer' (SanaTransformer2DModel config.json)", 0)
    local tens, d, F, nh, L, patch = transformer(tc)
    local tec = nn.sub(cfg, "text_encoder") or error("config: missing field 'text_encoder' (Gemma2 config.json)", 0)
    local te = require("architectures.gemma").build(tec)
    local lat = DCAE.latent
    return P.description {
      arch = "sana", hidden = d, layers = L, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", te.tensors },
        { "vae", "vae", vae_dc(DCAE) },
      },
      pipeline = {
        -- SanaPipeline (pipelines/sana/pipeline_sana.py): default size sample_size x 32 = 1024;
        -- sizes multiples of 32 (the DC-AE's factor; patch 1): (H/32) x (W/32) image tokens, the
        -- prompt in cross-attention only (not joint). The prompt is padded to max_sequence_length
        -- 300 and, with the default complex_human_instruction, prefixed by the chat instruction
        -- for the encoder (its tokens are dropped again: 300 reach the transformer; the prefix's
        -- encoder activations at width 2304 are a few MB and not counted). The encoder's
        -- last_hidden_state alone is read (no output_hidden_states): te_layers 0. CFG: the
        -- default guidance_scale 4.5 concatenates the negative and positive prompts into one
        -- doubled batch. The VAE decodes in the pipeline's dtype; its decode constant is the
        -- image family's AutoencoderKL one at 256 channels (the decoder's last stage holds a
        -- full-resolution 256-channel map, F.interpolate ahead of the 256 -> 128 conv, as
        -- AutoencoderKL's last upsampler does), assumed: no DC-AE measurement is in
        -- shared/calibration. Tiling: AutoencoderDC tiles 512 x 512 pixels by default.
        kind = "dit", vae_scale = 32, patch = patch, latent_channels = lat, cfg = true, cfg_batched = true,
        text_len = 300, joint = false, act_family = "image", vae_peak_channels = 256, vae_assumed = true,
        vae_tile = 512, text_hidden = te.hidden, te_layers = 0,
      },
    }
  end,
}
