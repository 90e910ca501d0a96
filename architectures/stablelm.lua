-- stablelm.lua: Stability AI StableLM (transformers StableLmForCausalLM, model_type stablelm:
-- stablelm-3b-4e1t, StableLM 2 1.6B / 12B, stablelm-zephyr-3b). GQA attention with q/k/v bias per
-- use_qkv_bias (o_proj never), partial RoPE (partial_rotary_factor, StableLmConfig's default 0.25),
-- with qk_layernorm a weight-only LayerNorm per head (self_attn.q_layernorm.norms.<h> {head_dim} for
-- each of the heads, k_layernorm for each KV head); LayerNorm with bias (input_layernorm,
-- post_attention_layernorm, model.norm), a SwiGLU MLP without bias; with use_parallel_residual the
-- attention and MLP read the same input_layernorm (no post_attention_layernorm). Untied lm_head per
-- tie_word_embeddings. Shapes: transformers models/stablelm/modeling_stablelm.py (StableLmAttention,
-- StableLmLayerNormPerHead, StableLmDecoderLayer) and configuration_stablelm.py; llama.cpp arch
-- "stablelm" (src/llama-arch.cpp LLM_ARCH_STABLELM).
local nn = require "nn"

return arch {
  name        = "stablelm",
  summary     = "StableLM dense decoder (LayerNorm with bias, partial RoPE, optional per-head q/k LayerNorm)",
  model_types = { "stablelm" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local parallel = nn.flag(cfg, "use_parallel_residual", false)
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = nn.flag(cfg, "use_qkv_bias", false), o_bias = false })
    if nn.flag(cfg, "qk_layernorm", false) then
      nn.norm(t, lp .. ".self_attn.q_layernorm.norms.*", d, { count = L * nh })
      nn.norm(t, lp .. ".self_attn.k_layernorm.norms.*", d, { count = L * nkv })
    end
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
    if not parallel then nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true }) end
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm_bias = true })
    local rd = nn.default_rotary_dim(cfg, d, 0.25) -- StableLmConfig's default factor
    local block = nn.rms_block(nh, nkv, d, I)
    block.norm, block.parallel_residual = "layer", parallel
    local desc = nn.decoder_desc("stablelm", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = block })
    if rd then desc.rotary_dim = rd end
    return desc
  end,
}
