-- hunyuanvideo.lua: HunyuanVideo: HunyuanVideoTransformer3DModel (token refiner, 20
-- dual-stream and 40 single-stream blocks, FLUX-like), the LLaVA-Llama-3-8B text
-- encoder (hidden states, no lm_head) and CLIP-L, the causal 3D VAE (4x temporal, 8x
-- spatial, 16 latent channels). Layout of diffusers transformer_hunyuan_video.py.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 24)
  local d = hd * nh
  local F = math.floor(d * (c.mlp_ratio or 4.0))
  local inc = nn.int(c, "in_channels", 16)
  local t = {}
  P.conv(t, "x_embedder.proj", d, inc, { 1, 2, 2 }, { role = "embed" })
  P.token_refiner(t, d, nn.int(c, "text_embed_dim", 4096), nn.int(c, "num_refiner_layers", 2))
  P.mlp2(t, "time_text_embed.timestep_embedder", 256, d)
  if c.guidance_embeds ~= false then P.mlp2(t, "time_text_embed.guidance_embedder", 256, d) end
  P.mlp2(t, "time_text_embed.text_embedder", nn.int(c, "pooled_projection_dim", 768), d)
  P.double_blocks(t, d, F, hd, nn.int(c, "num_layers", 20))
  P.single_blocks(t, d, F, hd, nn.int(c, "num_single_layers", 40))
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  P.lin(t, "proj_out", nn.int(c, "out_channels", 16) * 4, d, { role = "other" })
  return t, d, F, nh
end

return arch {
  name = "hunyuanvideo",
  summary = "HunyuanVideo: dual/single-stream video DiT + Llama-3-8B encoder + CLIP-L + 3D VAE",
  model_types = { "hunyuanvideo", "HunyuanVideoTransformer3DModel", "HunyuanVideoPipeline" },
  build = function(cfg)
    local tens, d, F, nh = transformer(cfg)
    local layers = nn.int(cfg, "num_layers", 20) + nn.int(cfg, "num_single_layers", 40)
    return P.description {
      arch = "hunyuanvideo", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.llm_encoder { hidden = 4096, layers = 32, heads = 32, kv_heads = 8, ffn = 14336, vocab = 128320 } },
        { "text_encoder_2", "text_encoder_2", P.clip_text(P.CLIP_L) },
        { "vae", "vae", P.vae_kl { block_out = { 128, 256, 512, 512 }, latent = 16, k3d = true, quant_conv = false } },
      },
      pipeline = {
        kind = "mmdit", vae_scale = 8, vae_tscale = 4, latent_channels = 16, patch = 2, cfg = false,
        text_len = 256, joint = true, vae_peak_channels = 128, vae_chunk = 0, act_family = "hunyuanvideo",
        -- frames a decoder call takes. diffusers (AutoencoderKLHunyuanVideo, every release since
        -- 0.32.0): use_framewise_decoding is on by default, so _decode hands any latent longer
        -- than tile_sample_min_num_frames // 4 = 4 frames to _temporal_tiled_decode, which decodes
        -- z[:, :, i : i + 4 + 1] (17 frames) per call, tiled or not. Tencent's
        -- AutoencoderKLCausal3D (hyvideo/vae/autoencoder_kl_causal_3d.py) decodes every frame at
        -- once unless tiling is on (sample_video.py's --vae-tiling, default True), then
        -- z[:, :, i : i + 16 + 1] (sample_tsize 64 // 4 + 1 latent frames = 65 frames) per call
        -- (64 until 2026-12-01). The decode's bytes per element are src/gen.c's "hunyuanvideo" row.
        vae_tile = 256, vae_tile_frames = 65, vae_chunk_by_runtime = { diffusers = 17 },
        -- diffusers v0.32.0 and v0.32.1 (HunyuanVideoTransformer3DModel.forward, "3. Attention mask
        -- preparation", transformer_hunyuan_video.py lines 715-723 at those tags) build a dense
        -- [B, N, N] boolean mask over the joint sequence and pass it to every attention call;
        -- #10548 (4a4afd5, in v0.32.2) made it the [B, 1, 1, N] padding mask it is since. Applied
        -- only when runtime.version names such a release (src/gen.c gen_dense_mask).
        dense_attn_mask_until = "0.32.1",
        -- sample_video.py --use-cpu-offload: hyvideo/inference.py calls enable_sequential_cpu_offload()
        ref_offload = { "none", "sequential" }, text_hidden = 4096, te_layers = 32,
        -- full-resolution tensors live while encoding a training clip (train_gen.lua): refitted
        -- to finetrainers-hunyuanvideo-lora-r128-noprecompute (56.27 GiB reserved) once the
        -- small pool's reserve (src/train.c pool_extra) is counted: 3 gives +0.8%, 4 +10.6%.
        -- That run passed --enable_tiling, so this figure also stands in for the transformer's
        -- activations, which the forward phase counts only when larger than the encode.
        vae_encode_tensors = 3,
      },
    }
  end,
}
