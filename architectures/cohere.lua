-- cohere.lua: Cohere Command R / R+ (model_type "cohere", CohereForCausalLM) and Command R7B /
-- Command A (model_type "cohere2", Cohere2ForCausalLM): a parallel block (one input_layernorm
-- feeds attention and the SwiGLU MLP, both added to the residual), LayerNorm without bias
-- (CohereLayerNorm: weight only), tied embeddings (use_embedding_sharing), no attention biases
-- unless attention_bias. Command R+ (use_qk_norm) adds per-head q_norm {heads, head_dim} and
-- k_norm {kv_heads, head_dim} LayerNorms (weight only). cohere2: sliding-window attention on
-- three layers of every four (sliding_window_pattern 4, or layer_types), the fourth global.
-- Layout: transformers models/cohere/modeling_cohere.py (CohereLayerNorm, CohereAttention,
-- CohereDecoderLayer) and models/cohere2/modeling_cohere2.py; vLLM model_executor/models/commandr.py.
local nn = require "nn"

return arch {
  name        = "cohere",
  summary     = "Cohere Command R/R+ (cohere) and R7B/A (cohere2): parallel block, bias-free LayerNorm",
  model_types = { "cohere", "cohere2" },
  build = function(cfg)
    local c2 = nn.opt(cfg, "model_type", "cohere") == "cohere2"
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local bias = nn.flag(cfg, "attention_bias", false)
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d,
      count = L, qkv_bias = bias, o_bias = bias })
    if not c2 and nn.flag(cfg, "use_qk_norm", false) then
      nn.param(t, lp .. ".self_attn.q_norm.weight", { nh, d }, { count = L, role = "norm" })
      nn.param(t, lp .. ".self_attn.k_norm.weight", { nkv, d }, { count = L, role = "norm" })
    end
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    local window_of
    if c2 then
      local w = nn.int(cfg, "sliding_window", 4096)
      window_of = nn.layer_types(cfg, L, w)
      if not window_of then
        local p = nn.int(cfg, "sliding_window_pattern", 4)
        window_of = function(i) return (i + 1) % p ~= 0 and w end
      end
    end
    local block = nn.rms_block(nh, nkv, d, I)
    block.norm, block.parallel_residual = "layer", true
    return nn.decoder_desc("cohere", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, window_of), block = block })
  end,
}
