-- flux.lua: FLUX.1 pipelines: FluxTransformer2DModel (double-stream MMDiT blocks with
-- separate image/text weights, then single-stream blocks with fused attention + MLP),
-- CLIP-L and T5-XXL text encoders, the 16-channel AutoencoderKL. Layout of diffusers
-- transformer_flux.py; FLUX.1-dev transformer 11,901,408,320 exact
-- (shared/calibration/models.jsonl), pipeline 16,870,599,139 with CLIP-L.
local nn = require "nn"
local P = require "gen_parts"

return arch {
  name = "flux",
  summary = "FLUX.1 dev/schnell: double/single-stream MMDiT + CLIP-L + T5-XXL + 16-ch VAE",
  model_types = { "flux", "FluxPipeline", "FluxTransformer2DModel" },
  build = function(cfg)
    local tc = nn.sub(cfg, "transformer")
    local tens, d, F, nh = P.flux_transformer(tc)
    local layers = nn.int(tc, "num_layers", 19) + nn.int(tc, "num_single_layers", 38)
    return P.description {
      arch = "flux", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.clip_text(P.CLIP_L) },
        { "text_encoder_2", "text_encoder_2", P.t5_encoder {} },
        { "vae", "vae", P.vae_kl(P.FLUX_VAE) },
      },
      pipeline = {
        -- diffusers' first release with a ModularPipeline for it (src/diffusers/modular_pipelines/flux/
        -- first in the v0.35.0 tag): fit searches ComponentsManager auto offload from there (image.lua)
        modular = "0.35.0",
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        kind = "mmdit", vae_scale = 8, latent_channels = 16, patch = 2, cfg = false,
        cfg_batched = false, text_len = 512, joint = true, vae_peak_channels = 256, act_family = "image",
        text_hidden = 4096, te_layers = 24,
      },
    }
  end,
}
