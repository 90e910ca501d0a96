-- qwenimage.lua: Qwen-Image: QwenImageTransformer2DModel (60 dual-stream MMDiT blocks:
-- separate image and text modulation, joint attention with biased q/k/v, RMS q/k norms,
-- added text projections, GELU MLPs per stream), the whole Qwen2.5-VL-7B-Instruct as
-- its text encoder (diffusers loads Qwen2_5_VLForConditionalGeneration with its vision
-- tower and lm_head, though it only reads the last hidden states), and
-- AutoencoderKLQwenImage, the Wan2.1 causal 3D VAE shape decoding one frame.
-- Layout of diffusers transformer_qwenimage.py; transformer 20,430,401,088 parameters
-- (the published Qwen/Qwen-Image transformer checkpoint), text encoder 8,292,166,656
-- (Qwen2.5-VL-7B-Instruct, the same count as its preset).
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 24)
  local d, L = hd * nh, nn.int(c, "num_layers", 60)
  local jd, p = nn.int(c, "joint_attention_dim", 3584), nn.int(c, "patch_size", 2)
  local t = {}
  P.mlp2(t, "time_text_embed.timestep_embedder", 256, d)
  nn.norm(t, "txt_norm", jd)
  P.lin(t, "img_in", d, nn.int(c, "in_channels", 64), { role = "other" })
  P.lin(t, "txt_in", d, jd, { role = "other" })
  P.double_blocks(t, d, 4 * d, hd, L, { mod = { "img_mod.1", "txt_mod.1" }, ff = { "img_mlp", "txt_mlp" } })
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  P.lin(t, "proj_out", p * p * nn.int(c, "out_channels", 16), d, { role = "other" })
  return t, d, nh, L
end

-- Qwen2_5_VLForConditionalGeneration: the Qwen2 decoder with q/k/v biases, untied lm_head,
-- and the vision tower (nn.qwen25_vision).
local function text_encoder(c, vc)
  local h, L = nn.int(c, "hidden_size", 3584), nn.int(c, "num_hidden_layers", 28)
  local nh, nkv = nn.int(c, "num_attention_heads", 28), nn.int(c, "num_key_value_heads", 4)
  local t = {}
  nn.llama_layers(t, "model.layers.*", { hidden = h, heads = nh, kv_heads = nkv, head_dim = h // nh,
    width = nn.int(c, "intermediate_size", 18944), count = L, qkv_bias = true })
  nn.lm(t, { vocab = nn.int(c, "vocab_size", 152064), hidden = h, tied = false })
  nn.qwen25_vision(t, vc, h)
  return t, h, L
end

-- Qwen2.5-VL-7B's vision_config (the fields that shape its tensors).
local VISION = { depth = 32, hidden_size = 1280, intermediate_size = 3420, patch_size = 14, in_chans = 3,
  temporal_patch_size = 2, spatial_merge_size = 2, out_hidden_size = 3584 }

return arch {
  name = "qwenimage",
  summary = "Qwen-Image: 60-block dual-stream MMDiT + Qwen2.5-VL-7B text encoder + Wan-shape VAE",
  model_types = { "qwenimage", "QwenImagePipeline", "QwenImageTransformer2DModel" },
  build = function(cfg)
    local tens, d, nh, L = transformer(nn.sub(cfg, "transformer") or {})
    local te, th, tl = text_encoder(nn.sub(cfg, "text_encoder") or {}, nn.sub(cfg, "vision_config") or VISION)
    return P.description {
      arch = "qwenimage", hidden = d, layers = L, heads = nh, ffn = 4 * d,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", te },
        { "vae", "vae", P.vae_kl(P.WAN_VAE) },
      },
      pipeline = {
        -- diffusers' first release with a ModularPipeline for it (src/diffusers/modular_pipelines/qwenimage/
        -- first in the v0.36.0 tag): fit searches ComponentsManager auto offload from there (image.lua)
        modular = "0.36.0",
        -- QwenImagePipeline: default 1024 x 1024 (default_sample_size 128 x VAE factor 8);
        -- true CFG (true_cfg_scale 4.0 with a negative prompt) runs the conditional and
        -- unconditional passes one after the other; the prompt embeddings are not padded,
        -- max_sequence_length (512) caps them: the bound used here.
        kind = "mmdit", vae_scale = 8, latent_channels = 16, patch = 2, cfg = true, cfg_batched = false,
        text_len = 512, joint = true, act_family = "image",
        -- the decode peak of one frame: AutoencoderKLQwenImage is Wan2.1's causal 3D VAE
        -- (autoencoder_kl_qwenimage.py: QwenImageCausalConv3d, feat_cache, CACHE_T = 2), so the
        -- "wan" family's calibrated decode constant (96 channels, a later 4-frame chunk) applies,
        -- scaled by the elements its first, single-frame chunk holds per output pixel against a
        -- 4-frame chunk's per pixel x frame (gen_parts.wan_vae_decode_elems: 1632 / 1023):
        -- its feature caches keep one frame per conv and its convs pad one frame to three
        vae_family = "wan",
        vae_peak_channels = math.floor(P.WAN_VAE.block_out[1] * P.wan_vae_decode_elems(P.WAN_VAE, true)
          / P.wan_vae_decode_elems(P.WAN_VAE, false) + 0.5),
        text_hidden = th, te_layers = tl,
      },
    }
  end,
}
