-- sd.lua: Stable Diffusion 1.x/2.x and SDXL pipelines: UNet2DConditionModel (ResNet
-- blocks with a timestep projection, Transformer2DModel self/cross-attention with GEGLU),
-- CLIP text encoder(s), AutoencoderKL. Exact: SD1.5 UNet 859,520,964, SDXL UNet
-- 2,567,463,684 (shared/calibration/models.jsonl); diffusers unet_2d_condition.py layout.
local nn = require "nn"
local P = require "gen_parts"

local function per_level(v, n)
  if type(v) == "table" then return v end
  local out = {}
  for i = 1, n do out[i] = v end
  return out
end

-- Transformer2DModel: norm, proj_in, blocks x depth, proj_out.
local function transformer2d(t, p, c, depth, cross, linear)
  P.gnorm(t, p .. ".norm", c)
  if linear then P.lin(t, p .. ".proj_in", c, c) else P.conv(t, p .. ".proj_in", c, c, { 1, 1 }) end
  local b = p .. ".transformer_blocks.*."
  for _, nm in ipairs { "norm1", "norm2", "norm3" } do P.gnorm(t, b .. nm, c, depth) end
  P.attn(t, b .. "attn1", c, c, depth, { qkv_bias = false })
  P.attn(t, b .. "attn2", c, cross, depth, { qkv_bias = false })
  P.ff(t, b .. "ff", c, 4 * c, depth, { gated = true }) -- GEGLU
  if linear then P.lin(t, p .. ".proj_out", c, c) else P.conv(t, p .. ".proj_out", c, c, { 1, 1 }) end
end

local function unet(u)
  local t, ch = {}, u.block_out_channels
  local n, L, temb = #ch, u.layers_per_block or 2, 4 * ch[1]
  local attn = u.down_attn
  local depth = per_level(u.transformer_layers_per_block or 1, n)
  local cross, linear = u.cross_attention_dim, u.use_linear_projection
  P.conv(t, "conv_in", ch[1], u.in_channels or 4, { 3, 3 })
  P.mlp2(t, "time_embedding", ch[1], temb)
  if u.projection_class_embeddings_input_dim then P.mlp2(t, "add_embedding", u.projection_class_embeddings_input_dim, temb) end
  local prev = ch[1]
  for i = 1, n do
    local p = ("down_blocks.%d."):format(i - 1)
    for j = 0, L - 1 do P.resnet2d(t, p .. "resnets." .. j, j == 0 and prev or ch[i], ch[i], temb) end
    if attn[i] then
      for j = 0, L - 1 do transformer2d(t, p .. "attentions." .. j, ch[i], depth[i], cross, linear) end
    end
    if i < n then P.conv(t, p .. "downsamplers.0.conv", ch[i], ch[i], { 3, 3 }) end
    prev = ch[i]
  end
  P.resnet2d(t, "mid_block.resnets.0", ch[n], ch[n], temb)
  P.resnet2d(t, "mid_block.resnets.1", ch[n], ch[n], temb)
  transformer2d(t, "mid_block.attentions.0", ch[n], depth[n], cross, linear)
  prev = ch[n]
  for i = 1, n do
    local lvl = n - i + 1
    local out, inp = ch[lvl], ch[math.max(lvl - 1, 1)]
    local p = ("up_blocks.%d."):format(i - 1)
    for j = 0, L do
      local skip = j == L and inp or out
      P.resnet2d(t, p .. "resnets." .. j, (j == 0 and prev or out) + skip, out, temb)
      if attn[lvl] then transformer2d(t, p .. "attentions." .. j, out, depth[lvl], cross, linear) end
    end
    if i < n then P.conv(t, p .. "upsamplers.0.conv", out, out, { 3, 3 }) end
    prev = out
  end
  P.gnorm(t, "conv_norm_out", ch[1])
  P.conv(t, "conv_out", u.out_channels or 4, ch[1], { 3, 3 })
  return t
end

-- Activation shape of the UNet for the memory model: the widest self-attention level
-- (highest resolution with attention): its channels, heads and token factor (latent
-- pixels per token = 4^(level-1)).
local function attn_level(u)
  for i, a in ipairs(u.down_attn) do
    if a then return i end
  end
  return 1
end

local function L_of(u) return u.layers_per_block or 2 end

return arch {
  name = "stable_diffusion",
  summary = "Stable Diffusion 1.x/2.x and SDXL: UNet2DCondition + CLIP + AutoencoderKL",
  model_types = { "stable_diffusion", "StableDiffusionPipeline", "StableDiffusionXLPipeline", "sdxl" },
  build = function(cfg)
    local u = nn.sub(cfg, "unet")
    local te = cfg.text_encoders or { P.CLIP_L }
    local parts = { { "denoiser", "unet", unet(u) } }
    for i, c in ipairs(te) do
      parts[#parts + 1] = { i == 1 and "text_encoder" or "text_encoder_" .. i, i == 1 and "text_encoder" or "text_encoder_" .. i, P.clip_text(c) }
    end
    parts[#parts + 1] = { "vae", "vae", P.vae_kl(cfg.vae or P.SD_VAE) }
    local lvl = attn_level(u)
    local c = u.block_out_channels[lvl]
    -- diffusers passes attention_head_dim as the number of heads for these UNets
    local heads = per_level(u.attention_head_dim, #u.block_out_channels)[lvl]
    return P.description {
      arch = "stable_diffusion", hidden = c, layers = #u.block_out_channels, heads = heads, ffn = 4 * c,
      tensors = P.pipeline(parts),
      pipeline = {
        -- SDXL (two text encoders) has a ModularPipeline from diffusers v0.35.0
        -- (modular_pipelines/stable_diffusion_xl/); SD 1.x/2.x has none: fit searches
        -- ComponentsManager auto offload only where one exists (image.lua)
        modular = #te > 1 and "0.35.0" or nil,
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        kind = "unet", vae_scale = 8, latent_channels = u.in_channels or 4, patch = 1 << (lvl - 1), cfg = true,
        cfg_batched = true, text_len = 77, joint = false, vae_upcast = cfg.vae_force_upcast == true,
        vae_peak_channels = 256, act_family = "unet", text_hidden = te[#te].hidden, te_layers = te[#te].layers,
        -- encode_prompt (pipeline_stable_diffusion_xl.py): the prompt through every encoder, then
        -- the negative prompt through them again in the same order under CFG (one encoder: no effect)
        te_cfg_reentry = true,
        -- the UNet's shape per resolution level, for the saved activations of training
        -- (scripts/train_gen.lua): channels, resnets per block, attention per level
        unet = { channels = u.block_out_channels, layers = L_of(u), attn = u.down_attn, in_channels = u.in_channels or 4,
                 heads = per_level(u.attention_head_dim, #u.block_out_channels),
                 depth = per_level(u.transformer_layers_per_block or 1, #u.block_out_channels),
                 cross = u.cross_attention_dim },
        text_encoder = te[1],
      },
    }
  end,
}
