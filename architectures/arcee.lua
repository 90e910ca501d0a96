-- arcee.lua: Arcee AFM (transformers ArceeForCausalLM, model_type arcee: AFM-4.5B). Llama's attention
-- (GQA, q/k/v/o bias per attention_bias, explicit head_dim), input_layernorm / post_attention_layernorm,
-- and a non-gated MLP: up_proj {I, h}, down_proj {h, I} (bias per mlp_bias) around ReLU^2
-- (hidden_act relu2), no gate_proj. Untied lm_head per tie_word_embeddings. Shapes: transformers
-- models/arcee/modular_arcee.py (ArceeConfig(LlamaConfig), ArceeMLP = NemotronMLP); vLLM
-- model_executor/models/arcee.py; llama.cpp arch "arcee" (src/llama-arch.cpp LLM_ARCH_ARCEE: ffn_up,
-- ffn_down, no ffn_gate).
local nn = require "nn"

return arch {
  name        = "arcee",
  summary     = "Arcee AFM dense decoder (Llama attention, non-gated ReLU^2 MLP)",
  model_types = { "arcee" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local bias, mlp_bias = nn.flag(cfg, "attention_bias", false), nn.flag(cfg, "mlp_bias", false)
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = bias, o_bias = bias })
    nn.linear(t, lp .. ".mlp.up_proj", I, h, { count = L, role = "mlp", bias = mlp_bias })
    nn.linear(t, lp .. ".mlp.down_proj", h, I, { count = L, role = "mlp", bias = mlp_bias })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    local block = nn.rms_block(nh, nkv, d, I)
    block.gated = false
    return nn.decoder_desc("arcee", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = block })
  end,
}
