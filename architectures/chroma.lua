-- chroma.lua: Chroma (lodestones/Chroma1-HD, diffusers ChromaPipeline): ChromaTransformer2DModel,
-- FLUX.1-schnell's MMDiT with every per-block modulation Linear pruned; the T5-v1.1-XXL encoder
-- alone (no CLIP); FLUX.1's AutoencoderKL.
-- Layout of diffusers models/transformers/transformer_chroma.py (huggingface/diffusers @0191cfd):
-- x_embedder (in -> d) and context_embedder (joint_attention_dim -> d), both biased; FLUX's 19
-- double-stream blocks (biased q/k/v, added q/k/v, to_out, to_add_out; RMS q/k norms; GELU-tanh
-- feed-forwards ff / ff_context of 4 d) without norm1.linear / norm1_context.linear, and 38
-- single-stream blocks (biased to_q/k/v, proj_mlp d -> 4 d, proj_out 5 d -> d) without norm.linear;
-- norm_out without a Linear, proj_out d -> in. Instead of FLUX's time / guidance / pooled-text
-- embedders and 3.3B modulation parameters, one `distilled_guidance_layer` (ChromaApproximator:
-- in_proj approximator_num_channels -> hidden, approximator_layers x (RMSNorm + a two-Linear SiLU
-- MLP hidden -> hidden -> hidden, residual), out_proj hidden -> d) turns the timestep and a fixed
-- sinusoidal index table (a buffer) into the 344 modulation vectors every block reads.
-- Chroma1-HD (the class defaults: 24 heads x 128 = 3072, in 64, joint 4096, approximator 64 / 5120 /
-- 5 layers): 8,899,983,424 parameters = FLUX.1's 11,901,408,320 less 3,279,710,208 of modulation and
-- embedders plus a 278,285,312 approximator; the model card: "8.9 billion parameter", "3.3B
-- parameters ... replaced with 250M params". No exact published count was found.
local nn = require "nn"
local P = require "gen_parts"

local function transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 24)
  local d, F = hd * nh, 4 * hd * nh
  local inc = nn.int(c, "in_channels", 64)
  local p = nn.int(c, "patch_size", 1)
  local L, S = nn.int(c, "num_layers", 19), nn.int(c, "num_single_layers", 38)
  local ach, ahd, al = nn.int(c, "approximator_num_channels", 64), nn.int(c, "approximator_hidden_dim", 5120),
                       nn.int(c, "approximator_layers", 5)
  local t = {}
  P.lin(t, "distilled_guidance_layer.in_proj", ahd, ach, { role = "mlp" })
  P.mlp2(t, "distilled_guidance_layer.layers.*", ahd, ahd, ahd, al)
  nn.norm(t, "distilled_guidance_layer.norms.*", ahd, { count = al })
  P.lin(t, "distilled_guidance_layer.out_proj", d, ahd, { role = "mlp" })
  P.lin(t, "context_embedder", d, nn.int(c, "joint_attention_dim", 4096), { role = "other" })
  P.lin(t, "x_embedder", d, inc, { role = "other" })
  P.double_blocks(t, d, F, hd, L, { mod = {}, ff = { "ff", "ff_context" } })
  local b = "single_transformer_blocks.*."
  P.lin(t, b .. "proj_mlp", F, d, { count = S, role = "mlp" })
  P.lin(t, b .. "proj_out", d, d + F, { count = S, role = "mlp" })
  for _, q in ipairs { "to_q", "to_k", "to_v" } do P.lin(t, b .. "attn." .. q, d, d, { count = S }) end
  for _, q in ipairs { "norm_q", "norm_k" } do nn.norm(t, b .. "attn." .. q, hd, { count = S }) end
  P.lin(t, "proj_out", p * p * nn.int(c, "out_channels", inc), d, { role = "other" })
  return t, d, F, nh, L + S
end

return arch {
  name = "chroma",
  summary = "Chroma: FLUX.1-schnell MMDiT without per-block modulation (guidance approximator) + T5-XXL + FLUX.1 VAE",
  model_types = { "chroma", "ChromaPipeline", "ChromaTransformer2DModel" },
  build = function(cfg)
    local tc = nn.sub(cfg, "transformer") or error("config: missing field 'transformer' (ChromaTransformer2DModel config.json)", 0)
    local tens, d, F, nh, layers = transformer(tc)
    return P.description {
      arch = "chroma", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.t5_encoder {} },
        { "vae", "vae", P.vae_kl(P.FLUX_VAE) },
      },
      pipeline = {
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        -- ChromaPipeline (pipelines/chroma/pipeline_chroma.py): default 1024 x 1024
        -- (default_sample_size 128 x 8); sizes multiples of 16; (H/16) x (W/16) image tokens and
        -- the T5 prompt padded to max_sequence_length 512 in one joint sequence. Guidance is not
        -- distilled into the model: guidance_scale 3.5 > 1 runs the negative prompt through the
        -- transformer in a second call after the positive one (not a doubled batch). The T5
        -- padding mask (one pad token kept) is extended by ones over the image tokens in the
        -- latents' dtype, and every block multiplies it with its transpose into a dense [B, 1,
        -- S, S] tensor of that dtype handed to SDPA as a float mask (no boolean conversion):
        -- dense_attn_mask with no boolean copies. Only T5's last hidden state is read
        -- (output_hidden_states=False): te_layers 0. The decode is FLUX.1's (same AutoencoderKL
        -- and call), so FLUX.1's calibrated constant applies.
        kind = "mmdit", vae_scale = 8, latent_channels = 16, patch = 2, cfg = true, cfg_batched = false,
        text_len = 512, joint = true, vae_peak_channels = 256, act_family = "image",
        dense_attn_mask = true, dense_attn_mask_bools = 0, dense_attn_mask_float = true,
        text_hidden = 4096, te_layers = 0,
      },
    }
  end,
}
