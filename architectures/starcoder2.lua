-- starcoder2.lua: StarCoder2 (model_type "starcoder2", Starcoder2ForCausalLM): GQA attention with
-- biases on q/k/v/o (use_bias), a non-gated GELU MLP c_fc / c_proj with biases, LayerNorm with
-- bias (input_layernorm, post_attention_layernorm, model.norm), sequential residual, RoPE,
-- sliding_window on every layer when set; lm_head tied per tie_word_embeddings.
-- Layout: transformers models/starcoder2/modeling_starcoder2.py (Starcoder2MLP, Starcoder2Attention);
-- vLLM model_executor/models/starcoder2.py.
local nn = require "nn"

return arch {
  name        = "starcoder2",
  summary     = "StarCoder2 decoder (GQA with biases, GELU c_fc/c_proj MLP, LayerNorm)",
  model_types = { "starcoder2" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local bias = nn.flag(cfg, "use_bias", true)
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d,
      count = L, qkv_bias = bias, o_bias = bias })
    nn.linear(t, lp .. ".mlp.c_fc", I, h, { count = L, role = "mlp", bias = bias })
    nn.linear(t, lp .. ".mlp.c_proj", h, I, { count = L, role = "mlp", bias = bias })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm_bias = true })
    local w = nn.int(cfg, "sliding_window", nil)
    return nn.decoder_desc("starcoder2", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, w and function() return w end),
      block = { q_dim = nh * d, kv_dim = nkv * d, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = false } })
  end,
}
