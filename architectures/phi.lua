-- phi.lua: Phi-1 / Phi-1.5 / Phi-2 (model_type "phi", PhiForCausalLM): one LayerNorm with bias
-- per layer feeding attention and MLP in parallel, separate q/k/v and `dense` projections with
-- biases, a non-gated GELU MLP (fc1, fc2, biases), partial rotary (partial_rotary_factor),
-- final LayerNorm `model.final_layernorm`, an untied lm_head with bias.
-- Layout: transformers models/phi/modeling_phi.py (PhiAttention, PhiMLP, PhiDecoderLayer,
-- PhiModel.final_layernorm, PhiForCausalLM.lm_head bias=True); vLLM model_executor/models/phi.py.
local nn = require "nn"

return arch {
  name        = "phi",
  summary     = "Phi-1/1.5/2 decoder (parallel attention + GELU MLP, LayerNorm, partial rotary)",
  model_types = { "phi" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local t, lp = {}, "model.layers.*"
    local o = { count = L, role = "attn", bias = true }
    nn.linear(t, lp .. ".self_attn.q_proj", nh * d, h, o)
    nn.linear(t, lp .. ".self_attn.k_proj", nkv * d, h, o)
    nn.linear(t, lp .. ".self_attn.v_proj", nkv * d, h, o)
    nn.linear(t, lp .. ".self_attn.dense", h, nh * d, o)
    if nn.flag(cfg, "qk_layernorm", false) then   -- PhiAttention: LayerNorm over head_dim
      nn.norm(t, lp .. ".self_attn.q_layernorm", d, { count = L, bias = true })
      nn.norm(t, lp .. ".self_attn.k_layernorm", d, { count = L, bias = true })
    end
    nn.linear(t, lp .. ".mlp.fc1", I, h, { count = L, role = "mlp", bias = true })
    nn.linear(t, lp .. ".mlp.fc2", h, I, { count = L, role = "mlp", bias = true })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
    nn.embed(t, "model.embed_tokens", V, h)
    nn.norm(t, "model.final_layernorm", h, { bias = true })
    if not tied then nn.linear(t, "lm_head", V, h, { role = "lm_head", bias = true }) end
    return nn.decoder_desc("phi", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = { q_dim = nh * d, kv_dim = nkv * d, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = true } })
  end,
}
