-- hidream.lua: HiDream-I1 (Full / Dev / Fast): HiDreamImageTransformer2DModel, a 17B
-- sparse DiT: 16 dual-stream blocks (separate image and text projections, RMS q/k norms over
-- the whole width, a 12 x d adaLN linear, an MoE SwiGLU on the image stream and a dense SwiGLU
-- on the text stream) and 32 single-stream blocks (6 x d adaLN, MoE SwiGLU), each MoE holding
-- num_routed_experts SwiGLU experts (top num_activated_experts, softmax gate without bias) and
-- one shared expert of half the width; one bias-free caption projection per block for the
-- Llama hidden state it reads plus one for T5. Four text encoders: CLIP-L and OpenCLIP-bigG with
-- projections (pooled: 768 + 1280 = text_emb_dim 2048), the T5-v1.1-XXL encoder, and the whole
-- Llama-3.1-8B-Instruct (LlamaForCausalLM with lm_head, output_hidden_states: every layer's
-- hidden states kept); FLUX.1's 16-channel AutoencoderKL.
-- Layout of diffusers transformer_hidream_image.py (HiDreamImageFeedForwardSwiGLU rounds
-- int(2/3 x hidden) up to a multiple of 256: experts 6912 wide, the shared expert 3584) and
-- pipeline_hidream_image.py; transformer 17,105,733,184 parameters (the published checkpoint's
-- total), the same for Full, Dev and Fast.
local nn = require "nn"
local P = require "gen_parts"

-- SwiGLU width of HiDreamImageFeedForwardSwiGLU(dim, hidden_dim), multiple_of 256
local function swiglu_width(hidden)
  local w = (2 * hidden) // 3
  return 256 * ((w + 255) // 256)
end

local function swiglu(t, p, d, F, count, role)
  nn.linear(t, p .. ".w1", F, d, { count = count, role = role })
  nn.linear(t, p .. ".w3", F, d, { count = count, role = role })
  nn.linear(t, p .. ".w2", d, F, { count = count, role = role })
end

-- MOEFeedForwardSwiGLU under p: shared_experts, experts.0..E-1 (one group per expert index so
-- that a block's bytes count every expert), gate.weight {E, d} without bias.
local function moe_ff(t, p, d, E, n)
  swiglu(t, p .. ".shared_experts", d, swiglu_width(2 * d), n, "shared_expert")
  for e = 0, E - 1 do swiglu(t, p .. ".experts." .. e, d, swiglu_width(4 * d), n, "expert") end
  nn.param(t, p .. ".gate.weight", { E, d }, { count = n, role = "router" })
end

-- HiDreamAttention under p: to_q/k/v/out (biased) and q/k RMSNorms over the whole width; the
-- dual-stream blocks repeat them for the text tokens with the suffix _t.
local function attn(t, p, d, n, dual)
  for _, s in ipairs(dual and { "", "_t" } or { "" }) do
    for _, q in ipairs { "to_q", "to_k", "to_v", "to_out" } do P.lin(t, p .. "." .. q .. s, d, d, { count = n }) end
    nn.norm(t, p .. ".q_rms_norm" .. s, d, { count = n })
    nn.norm(t, p .. ".k_rms_norm" .. s, d, { count = n })
  end
end

local function transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 20)
  local d, p = hd * nh, nn.int(c, "patch_size", 2)
  local L, S = nn.int(c, "num_layers", 16), nn.int(c, "num_single_layers", 32)
  local E = nn.int(c, "num_routed_experts", 4)
  local inc = nn.int(c, "in_channels", 16)
  local cap = nn.opt(c, "caption_channels", { 4096, 4096 })
  local t = {}
  P.mlp2(t, "t_embedder.timestep_embedder", 256, d)
  P.mlp2(t, "p_embedder.pooled_embedder", nn.int(c, "text_emb_dim", 2048), d)
  -- x_embedder.proj and the caption projections are nn.Linear modules (transformer_hidream_image.py:
  -- HiDreamImagePatchEmbed.proj, TextProjection.linear), not embedding tables: diffusers' bitsandbytes
  -- quantizer replaces every nn.Linear but llm_int8_skip_modules and _keep_in_fp32_modules
  -- (quantizers/bitsandbytes/bnb_quantizer.py _process_model_before_weight_loading ->
  -- replace_with_bnb_linear), and layerwise casting's default skip patterns (pos_embed, patch_embed,
  -- norm, ^proj_in$, ^proj_out$) match neither, so they take the Linear role "other". The 49
  -- caption projections hold 513,802,240 parameters; README_hidream.md's nf4 transformer reads
  -- 9.085 GiB (PR #11494), 9.65 with them kept bf16, 8.96 quantized.
  P.lin(t, "x_embedder.proj", d, inc * p * p, { role = "other" })
  -- dual-stream blocks
  local b = "double_stream_blocks.*.block."
  P.lin(t, b .. "adaLN_modulation.1", 12 * d, d, { count = L, role = "other" })
  attn(t, b .. "attn1", d, L, true)
  moe_ff(t, b .. "ff_i", d, E, L)
  swiglu(t, b .. "ff_t", d, swiglu_width(4 * d), L, "mlp")
  -- single-stream blocks
  b = "single_stream_blocks.*.block."
  P.lin(t, b .. "adaLN_modulation.1", 6 * d, d, { count = S, role = "other" })
  attn(t, b .. "attn1", d, S, false)
  moe_ff(t, b .. "ff_i", d, E, S)
  -- final layer and caption projections (caption_channels[2] for each block's Llama layer,
  -- caption_channels[1] for T5, last)
  P.lin(t, "final_layer.linear", p * p * nn.int(c, "out_channels", inc), d, { role = "other" })
  P.lin(t, "final_layer.adaLN_modulation.1", 2 * d, d, { role = "other" })
  nn.linear(t, "caption_projection.*.linear", d, cap[2], { count = L + S, role = "other" })
  nn.linear(t, "caption_projection." .. (L + S) .. ".linear", d, cap[1], { role = "other" })
  return t, d, nh, L + S
end

return arch {
  name = "hidream",
  summary = "HiDream-I1: 17B MoE dual/single-stream DiT + CLIP-L + OpenCLIP-bigG + T5-XXL + Llama-3.1-8B + 16-ch VAE",
  model_types = { "hidream", "HiDreamImagePipeline", "HiDreamImageTransformer2DModel" },
  build = function(cfg)
    local tc = nn.sub(cfg, "transformer") or {}
    local tens, d, nh, layers = transformer(tc)
    -- text_encoder_4: the whole LlamaForCausalLM (Llama-3.1-8B-Instruct) with its lm_head, as
    -- the pipeline loads it, built by the llama architecture from its config.json
    local lc = nn.sub(cfg, "text_encoder_4") or error("config: missing field 'text_encoder_4' (Llama-3.1-8B-Instruct config.json)", 0)
    local llama = require("architectures.llama").build(lc)
    local F = swiglu_width(4 * d)
    -- Full runs true CFG (guidance_scale 5.0 by default); Dev and Fast are guidance-distilled
    -- (their model cards' guidance_scale 0.0)
    local distilled = nn.flag(cfg, "guidance_distilled", false)
    local msl = 128 -- pipeline_hidream_image.py max_sequence_length for T5 and Llama
    return P.description {
      arch = "hidream", hidden = d, layers = layers, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        { "text_encoder", "text_encoder", P.clip_text { hidden = 768, layers = 12, ffn = 3072, proj = 768 } },
        { "text_encoder_2", "text_encoder_2", P.clip_text(P.CLIP_G) },
        { "text_encoder_3", "text_encoder_3", P.t5_encoder {} },
        { "text_encoder_4", "text_encoder_4", llama.tensors },
        { "vae", "vae", P.vae_kl(P.FLUX_VAE) },
      },
      pipeline = {
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        -- HiDreamImagePipeline: default 1024 x 1024 (default_sample_size 128 x 8); CFG batches the
        -- unconditional and conditional latents (torch.cat([latents] * 2)). The joint sequence of
        -- the blocks: the image tokens, T5's 128 and one Llama layer's 128 (initial), and the
        -- block's own Llama layer's 128: 3 x max_sequence_length text slots.
        kind = "mmdit", vae_scale = 8, latent_channels = 16, patch = 2, cfg = not distilled, cfg_batched = true,
        text_len = 3 * msl, joint = true, vae_peak_channels = 256, act_family = "image",
        -- the largest encoder: Llama-3.1-8B with output_hidden_states (33 hidden states of 4096)
        text_hidden = llama.hidden, te_layers = llama.layers,
      },
    }
  end,
}
