-- apertus.lua: Swiss AI Apertus (transformers ApertusForCausalLM, model_type apertus: Apertus-8B /
-- 70B-2509). A Llama attention (GQA, q/k/v/o bias per attention_bias) with per-head q/k RMSNorm
-- (self_attn.q_norm / k_norm {head_dim}, applied before RoPE), pre-norms renamed attention_layernorm /
-- feedforward_layernorm, and a non-gated MLP: up_proj {I, h}, down_proj {h, I} (bias per mlp_bias)
-- around the xIELU activation, whose act_fn holds two learned scalars per layer (alpha_p, alpha_n:
-- nn.Parameter {1}) and two buffers (beta, eps: 0-d tensors the checkpoint stores, counted here as
-- {1} buffers: not parameters). Untied lm_head. Shapes: transformers models/apertus/modular_apertus.py
-- (ApertusMLP = NemotronMLP with bias=False, ApertusAttention, ApertusDecoderLayer) and
-- activations.py XIELUActivation; llama.cpp arch "apertus" (src/llama-arch.cpp LLM_ARCH_APERTUS; the
-- converter writes the four xIELU scalars as per-layer metadata arrays, not tensors).
local nn = require "nn"

return arch {
  name        = "apertus",
  summary     = "Apertus dense decoder (per-head q/k norm, non-gated xIELU MLP with learned scalars)",
  model_types = { "apertus" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local act = nn.opt(cfg, "hidden_act", "xielu")
    if type(act) ~= "string" then
      error(("config: field 'hidden_act' must be a string, got %s"):format(type(act)), 0)
    end
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local bias, mlp_bias = nn.flag(cfg, "attention_bias", false), nn.flag(cfg, "mlp_bias", false)
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = bias, o_bias = bias, qk_norm = true })
    nn.linear(t, lp .. ".mlp.up_proj", I, h, { count = L, role = "mlp", bias = mlp_bias })
    nn.linear(t, lp .. ".mlp.down_proj", h, I, { count = L, role = "mlp", bias = mlp_bias })
    if act == "xielu" then
      nn.param(t, lp .. ".mlp.act_fn.alpha_p", { 1 }, { count = L })
      nn.param(t, lp .. ".mlp.act_fn.alpha_n", { 1 }, { count = L })
      nn.param(t, lp .. ".mlp.act_fn.beta", { 1 }, { count = L, buffer = true })
      nn.param(t, lp .. ".mlp.act_fn.eps", { 1 }, { count = L, buffer = true })
    end
    nn.norm(t, lp .. ".attention_layernorm", h, { count = L })
    nn.norm(t, lp .. ".feedforward_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    local block = nn.rms_block(nh, nkv, d, I)
    block.gated = false
    return nn.decoder_desc("apertus", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = block })
  end,
}
