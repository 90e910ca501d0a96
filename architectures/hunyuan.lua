-- hunyuan.lua: Tencent Hunyuan V1 dense decoders (transformers HunYuanDenseV1ForCausalLM, model_type
-- hunyuan_v1_dense: Hunyuan-0.5B/1.8B/4B/7B): a Llama block whose per-head q/k RMSNorms are named
-- self_attn.query_layernorm / key_layernorm {head_dim} (use_qk_norm, applied after RoPE), attention
-- biases with attention_bias, MLP biases with mlp_bias, tied embedding by config.
-- Shapes: transformers models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py; llama.cpp arch
-- "hunyuan-dense" (src/llama-arch.cpp LLM_ARCH_HUNYUAN_DENSE: attn_q_norm, attn_k_norm).
local nn = require "nn"

return arch {
  name        = "hunyuan",
  summary     = "Hunyuan V1 dense decoder (Llama block, q/k norm after RoPE named query/key_layernorm)",
  model_types = { "hunyuan_v1_dense" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local lp, t = "model.layers.*", {}
    local ab = nn.flag(cfg, "attention_bias", false)
    nn.llama_layers(t, lp, { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I, count = L,
      qkv_bias = ab, o_bias = ab, mlp_bias = nn.flag(cfg, "mlp_bias", false) })
    if nn.flag(cfg, "use_qk_norm", true) then
      nn.norm(t, lp .. ".self_attn.query_layernorm", d, { count = L })
      nn.norm(t, lp .. ".self_attn.key_layernorm", d, { count = L })
    end
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    return nn.decoder_desc("hunyuan", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
