-- dots1.lua: rednote-hilab dots.llm1 (transformers Dots1ForCausalLM, model_type dots1): Qwen3's
-- attention (per-head q/k RMSNorm, no biases) on DeepSeek-V3's feed-forward: the first
-- first_k_dense_replace layers a dense SwiGLU of intermediate_size, the rest n_routed_experts
-- experts of moe_intermediate_size with n_shared_experts shared ones fused into one MLP and a
-- sigmoid router whose top-k reads a per-expert e_score_correction_bias (noaux_tc, fp32 in
-- transformers and vLLM). Shapes: transformers models/dots1/modeling_dots1.py (Dots1Attention,
-- Dots1MoE, Dots1TopkRouter); llama.cpp arch "dots1" (src/llama-arch.cpp LLM_ARCH_DOTS1:
-- attn_q_norm, attn_k_norm, ffn_*_exps, ffn_*_shexp, exp_probs_b).
local nn = require "nn"

return arch {
  name        = "dots1",
  summary     = "dots.llm1: q/k-norm MHA + DeepSeek-style MoE (shared experts, first dense layer, sigmoid router bias)",
  model_types = { "dots1" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, nh, nkv, d = dims.h, dims.L, dims.nh, dims.nkv, dims.d
    local I, EI = nn.need(cfg, "intermediate_size"), nn.need(cfg, "moe_intermediate_size")
    local E, k = nn.need(cfg, "n_routed_experts"), nn.need(cfg, "num_experts_per_tok")
    local shared = nn.count(cfg, "n_shared_experts", 0)
    local first_dense = nn.count(cfg, "first_k_dense_replace", 0)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local moe_L = nn.count_layers(L, function(i) return i >= first_dense end)
    local t, lp = {}, "model.layers.*"
    local ab = nn.flag(cfg, "attention_bias", false)
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = ab, o_bias = ab, qk_norm = true })
    nn.deepseek_moe(t, lp, { h = h, I = I, EI = EI, E = E, shared = shared, L = L, moe_L = moe_L,
      score_bias = true, bias_fp32 = true })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = dims.V, hidden = h, tied = tied })
    return nn.decoder_desc("dots1", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = nn.moe_norm(nn.dense_layers(nn.rms_block(nh, nkv, d, (k + shared) * EI, E, k, EI), moe_L < L and I), cfg) })
  end,
}
