-- nemotron.lua: NVIDIA Nemotron-3 / Nemotron-4 and the Minitron models pruned from Nemotron-4 15B
-- (transformers NemotronForCausalLM, model_type nemotron: Minitron-4B / -8B, Nemotron-Mini-4B).
-- GQA attention with head_dim (default hidden / heads) that need not make heads x head_dim equal to
-- hidden (o_proj {hidden, heads x head_dim}), q/k/v/o bias per attention_bias, partial RoPE
-- (partial_rotary_factor, NemotronConfig's default 0.5); LayerNorm1P with weight and bias
-- (input_layernorm, post_attention_layernorm, model.norm; the "+1" is applied to the stored weight in
-- forward, no extra tensor); a non-gated MLP up_proj / down_proj (bias per mlp_bias) around squared
-- ReLU (relu2); untied lm_head per tie_word_embeddings. Shapes: transformers
-- models/nemotron/modeling_nemotron.py (NemotronLayerNorm1P, NemotronMLP, NemotronAttention) and
-- configuration_nemotron.py; vLLM model_executor/models/nemotron.py; llama.cpp arch "nemotron"
-- (src/llama-arch.cpp LLM_ARCH_NEMOTRON: norms with bias, ffn_up / ffn_down, no gate).
local nn = require "nn"

return arch {
  name        = "nemotron",
  summary     = "Nemotron-4 / Minitron dense decoder (LayerNorm1P with bias, squared-ReLU up/down MLP, partial RoPE)",
  model_types = { "nemotron" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local bias, mlp_bias = nn.flag(cfg, "attention_bias", false), nn.flag(cfg, "mlp_bias", false)
    local rd = nn.default_rotary_dim(cfg, d, 0.5) -- NemotronConfig's default factor
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = bias, o_bias = bias })
    nn.linear(t, lp .. ".mlp.up_proj", I, h, { count = L, role = "mlp", bias = mlp_bias })
    nn.linear(t, lp .. ".mlp.down_proj", h, I, { count = L, role = "mlp", bias = mlp_bias })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm_bias = true })
    local desc = nn.decoder_desc("nemotron", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = { q_dim = nh * d, kv_dim = nkv * d, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = false } })
    if rd then desc.rotary_dim = rd end
    return desc
  end,
}
