-- glm4.lua: GLM-4-0414 dense decoders (transformers Glm4ForCausalLM, model_type glm4: GLM-4-9B-0414,
-- GLM-4-32B-0414 and their Z1 / chat siblings). GQA attention with q/k/v biased by attention_bias and
-- o_proj unbiased, partial RoPE (partial_rotary_factor 0.5, no parameters), a fused SwiGLU MLP
-- (mlp.gate_up_proj {2 I, h}, mlp.down_proj) and four RMSNorms a layer: input_layernorm,
-- post_self_attn_layernorm (on the attention output before the residual add), post_attention_layernorm
-- (before the MLP) and post_mlp_layernorm (on the MLP output).
-- Shapes: transformers models/glm4/modeling_glm4.py (Glm4DecoderLayer, Glm4MLP, Glm4Attention);
-- llama.cpp arch "glm4" (src/llama-arch.cpp LLM_ARCH_GLM4: attn_post_norm, ffn_post_norm, a fused
-- ffn_up of 2 x n_ff rows).
local nn = require "nn"

return arch {
  name        = "glm4",
  summary     = "GLM-4-0414 dense decoder: GQA + qkv bias, partial RoPE, fused gate_up, extra post-norms",
  model_types = { "glm4" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local lp, t = "model.layers.*", {}
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = nn.flag(cfg, "attention_bias", true), o_bias = false })
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L, fused = true })
    for _, n in ipairs { "input_layernorm", "post_self_attn_layernorm", "post_attention_layernorm", "post_mlp_layernorm" } do
      nn.norm(t, lp .. "." .. n, h, { count = L })
    end
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    return nn.decoder_desc("glm4", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
