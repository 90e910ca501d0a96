-- cogvideox.lua: CogVideoX 2B/5B/1.5-5B (and ConsisID, a CogVideoX-5B derivative):
-- CogVideoXTransformer3DModel (expert adaptive LayerNorm blocks over the joint text +
-- video sequence), the T5-XXL encoder, the causal 3D VAE (4x temporal, 8x spatial).
-- Layout of diffusers cogvideox_transformer_3d.py (models.jsonl THUDM/CogVideoX-5b).
local nn = require "nn"
local P = require "gen_parts"

-- AutoencoderKLCogVideoX block_out_channels (THUDM/CogVideoX-5b vae/config.json)
local VAE_BLOCK_OUT = { 128, 256, 256, 512 }

-- ConsisID's identity modules (diffusers consisid_transformer_3d.py, is_train_face): the
-- local facial extractor (LFE: 10 perceiver layers of width 1024, 5 feature mappings, the
-- id-embedding mapping, 32 queries) and one PerceiverCrossAttention (16 heads x 128, kv
-- width 2/3 d) every cross_attn_interval blocks; bias-free linears as in the source.
local function consisid_face(t, c, d, L)
  local v, depth, idd = nn.int(c, "LFE_vit_dim", 1024), nn.int(c, "LFE_depth", 10), nn.int(c, "LFE_id_dim", 1280)
  local ff, ntok, out = nn.int(c, "LFE_ff_mult", 4), nn.int(c, "LFE_num_id_token", 5), nn.int(c, "LFE_output_dim", 2048)
  local lfe = "local_facial_extractor."
  nn.param(t, lfe .. "latents", { 1, nn.int(c, "LFE_num_querie", 32), v })
  nn.param(t, lfe .. "proj_out", { v, out })
  local b = lfe .. "layers.*."
  nn.norm(t, b .. "attn.norm1", v, { bias = true, count = depth })
  nn.norm(t, b .. "attn.norm2", v, { bias = true, count = depth })
  nn.linear(t, b .. "attn.to_q", v, v, { count = depth, bias = false })
  nn.linear(t, b .. "attn.to_kv", 2 * v, v, { count = depth, bias = false })
  nn.linear(t, b .. "attn.to_out", v, v, { count = depth, bias = false })
  nn.norm(t, b .. "ff.0", v, { bias = true, count = depth })
  nn.linear(t, b .. "ff.1", v * ff, v, { count = depth, role = "mlp", bias = false })
  nn.linear(t, b .. "ff.3", v, v * ff, { count = depth, role = "mlp", bias = false })
  local ns = nn.int(c, "LFE_num_scale", 5)
  for _, k in ipairs { "0", "3", "6" } do P.lin(t, lfe .. "mapping.*." .. k, v, v, { count = ns, role = "other" }) end
  for _, k in ipairs { "1", "4" } do nn.norm(t, lfe .. "mapping.*." .. k, v, { bias = true, count = ns }) end
  P.lin(t, lfe .. "id_embedding_mapping.0", v, idd, { role = "other" })
  P.lin(t, lfe .. "id_embedding_mapping.3", v, v, { role = "other" })
  P.lin(t, lfe .. "id_embedding_mapping.6", v * ntok, v, { role = "other" })
  for _, k in ipairs { "1", "4" } do nn.norm(t, lfe .. "id_embedding_mapping." .. k, v, { bias = true }) end
  local n, inner = L // nn.int(c, "cross_attn_interval", 2), nn.int(c, "cross_attn_dim_head", 128) * nn.int(c, "cross_attn_num_heads", 16)
  local kv, pc = d * 2 // 3, "perceiver_cross_attention.*."
  nn.norm(t, pc .. "norm1", kv, { bias = true, count = n })
  nn.norm(t, pc .. "norm2", d, { bias = true, count = n })
  nn.linear(t, pc .. "to_q", inner, d, { count = n, bias = false })
  nn.linear(t, pc .. "to_kv", 2 * inner, kv, { count = n, bias = false })
  nn.linear(t, pc .. "to_out", d, inner, { count = n, bias = false })
end

local function transformer(c)
  local nh, hd = nn.need(c, "num_attention_heads"), nn.int(c, "attention_head_dim", 64)
  local d, L, te = nh * hd, nn.need(c, "num_layers"), nn.int(c, "time_embed_dim", 512)
  local p, pt, inc = nn.int(c, "patch_size", 2), nn.int(c, "patch_size_t", 1), nn.int(c, "in_channels", 16)
  local outc = nn.int(c, "out_channels", 16)
  local t = {}
  if pt > 1 then
    P.lin(t, "patch_embed.proj", d, inc * p * p * pt, { role = "other" })
  else
    P.conv(t, "patch_embed.proj", d, inc, { p, p }, { role = "embed" })
  end
  P.lin(t, "patch_embed.text_proj", d, nn.int(c, "text_embed_dim", 4096), { role = "other" })
  P.mlp2(t, "time_embedding", d, te)
  if c.ofs_embed_dim then P.mlp2(t, "ofs_embedding", c.ofs_embed_dim, te) end
  local b = "transformer_blocks.*."
  for _, n in ipairs { "norm1", "norm2" } do
    P.lin(t, b .. n .. ".linear", 6 * d, te, { count = L, role = "other" })
    P.gnorm(t, b .. n .. ".norm", d, L)
  end
  P.attn(t, b .. "attn1", d, d, L, { qk_norm = hd, norm_bias = true })
  P.ff(t, b .. "ff", d, 4 * d, L)
  P.gnorm(t, "norm_final", d)
  P.lin(t, "norm_out.linear", 2 * d, te, { role = "other" })
  P.gnorm(t, "norm_out.norm", d)
  P.lin(t, "proj_out", p * p * pt * outc, d, { role = "other" })
  if c.is_train_face then consisid_face(t, c, d, L) end
  return t, d, nh, L, pt
end

-- ConsisID's face helper models (diffusers consisid_utils.prepare_face_models), loaded on
-- the GPU beside the pipeline and never offloaded by it: EVA02-CLIP-L-14-336's visual tower
-- in the pipeline dtype (about 304M parameters, 24 layers of width 1024 at 336 px / 14),
-- facexlib's RetinaFace-ResNet50 detector and BiSeNet parser in fp32 (about 27M and 13M,
-- approximate counts). insightface's antelopev2 runs in onnxruntime, outside PyTorch's
-- allocator, and is not counted.
local function face_helpers()
  local t = {}
  nn.param(t, "eva_clip_visual.params", { 304000000 })
  nn.param(t, "facexlib.params", { 40300000 })
  t[#t].dtype = "fp32"
  return t
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
        { "vae", "vae", P.vae_kl { block_out = VAE_BLOCK_OUT, latent = 16, k3d = true, quant_conv = false } },
        cfg.is_train_face and { "face_encoder", "face_encoder", face_helpers() } or nil,
      },
      pipeline = {
        kind = "mmdit", vae_scale = 8, vae_tscale = 4, latent_channels = 16, patch = 2, patch_t = pt,
        cfg = true, cfg_batched = true, text_len = 226, joint = true,
        -- the image-to-video transformers (CogVideoX-5b-I2V, ConsisID: in_channels 32) take the
        -- VAE-encoded conditioning image beside the noise latents (scripts/workloads/video.lua i2v)
        image_latent_input = nn.int(cfg, "in_channels", 16) > nn.int(cfg, "out_channels", 16),
        -- AutoencoderKLCogVideoX decodes 2 latent frames a time (the first call takes the
        -- remainder: 9 frames for 13 latent frames) at full resolution with block_out[1]
        -- channels; the bytes per element are the VAE's (src/gen.c "cogvideox"), the same
        -- for every CogVideoX pipeline (ConsisID included)
        vae_peak_channels = VAE_BLOCK_OUT[1], vae_latent_batch = 2,
        -- enable_tiling: tiles of half the VAE's sample size, 240 high x 360 wide
        -- (AutoencoderKLCogVideoX tile_sample_min_height/width = sample_height/width // 2)
        act_family = "cogvideox", vae_tile = 240, vae_tile_w = 360, vae_tile_frames = 8,
        text_hidden = 4096, te_layers = 24,
        -- SAT sample_video.py (THUDM/CogVideo) from 3430df1 (2024-08-06) through b43951a
        -- (2024-09-10): model.to("cpu"), empty_cache(), then the VAE alone decodes; from
        -- 3a9af5b (2024-11-04) decode_first_stage runs with the DiT, T5 and VAE resident
        -- (workloads/video.lua reads runtime.version as the scripts' date). CogVideoX 2B/5B
        -- came with the earlier scripts; CogVideoX1.5 (patch_size_t 2) only runs on the later
        -- ones (its SAT configs arrived with 806a7f6, 2024-11-07)
        ref_decode_alone = pt == 1, ref_resident_from = "2024-11-04",
        -- fine-tuned by SAT too (sat/train_video.py, configs/sft.yaml; workload.trainer "sat",
        -- scripts/train_gen.lua sat_encode_bytes): the same 3D VAE, its first level 128 channels
        sat = true,
      },
    }
  end,
}
