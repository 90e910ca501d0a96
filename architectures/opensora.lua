-- opensora.lua: Open-Sora 2.0 (11B): a FLUX-shaped MMDiT (19 double + 38 single
-- blocks, 3072 wide) over the HunyuanVideo VAE latent patched 2x2 (64 channels), with
-- T5-XXL and CLIP-L text encoders. Config of hpcai-tech/Open-Sora-v2 (expect/ fallback).
local nn = require "nn"
local P = require "gen_parts"

return arch {
  name = "opensora",
  summary = "Open-Sora 2.0: FLUX-shaped 11B MMDiT + T5-XXL + CLIP-L + HunyuanVideo VAE",
  model_types = { "opensora", "MMDiTModel" },
  build = function(cfg)
    local tc = {
      in_channels = nn.int(cfg, "in_channels", 64), out_channels = nn.int(cfg, "out_channels", 64),
      num_layers = nn.int(cfg, "depth", 19), num_single_layers = nn.int(cfg, "depth_single_blocks", 38),
      num_attention_heads = nn.int(cfg, "num_heads", 24), attention_head_dim = nn.int(cfg, "hidden_size", 3072) // nn.int(cfg, "num_heads", 24),
      guidance_embeds = cfg.guidance_embed == true,
    }
    local tens, d, F, nh = P.flux_transformer(tc)
    return P.description {
      arch = "opensora", hidden = d, layers = tc.num_layers + tc.num_single_layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.t5_encoder {} },
        { "text_encoder_2", "text_encoder_2", P.clip_text(P.CLIP_L) },
        { "vae", "vae", P.vae_kl { block_out = { 128, 256, 512, 512 }, latent = 16, k3d = true, quant_conv = false } },
      },
      pipeline = {
        kind = "mmdit", vae_scale = 8, vae_tscale = 4, latent_channels = 16, patch = 2, cfg = true,
        cfg_batched = true, text_len = 512, joint = true, vae_peak_channels = 128, vae_chunk = 0,
        act_family = "opensora", vae_tile = 256, text_hidden = 4096, te_layers = 24,
        -- inference.py --offload True (one model on the GPU at a time, in the t2i2v flow)
        ref_offload = { "none", "model" },
        -- configs/diffusion/inference/256px.py (hpcaitech/Open-Sora @7ad6a96): the HunyuanVideo
        -- VAE with use_spatial_tiling=True, use_temporal_tiling=False (every frame of a tile
        -- at once); sampling method "i2v" runs text + image guidance as one batch of 3
        vae_tiling_default = true, cfg_mult = 3,
        -- configs/diffusion/inference/plugins/t2i2v.py: FLUX.1-dev (guidance embedding) and the
        -- FLUX AE, loaded in the run's dtype when workload.t2i2v is set
        t2i_params = P.params((P.flux_transformer { guidance_embeds = true })) + P.params(P.vae_kl(P.FLUX_VAE)),
        -- --offload only swaps the video models around that image stage (workloads/image.lua)
        offload_t2i_only = true,
      },
    }
  end,
}
