-- olmo.lua: AI2 OLMo 2 (model_type "olmo2", Olmo2ForCausalLM) and OLMoE (model_type "olmoe",
-- OlmoeForCausalLM). Both normalize q and k with an RMSNorm over the whole projection
-- (q_norm {heads x head_dim}, k_norm {kv_heads x head_dim}, not per head). OLMo 2 puts its
-- norms after the sublayers (post_attention_layernorm, post_feedforward_layernorm; no
-- input_layernorm) around a dense SwiGLU MLP; OLMoE keeps the pre-norms (input_layernorm,
-- post_attention_layernorm) and a routed MoE (mlp.gate {E, h}, mlp.experts.*.{gate,up,down}_proj,
-- no shared expert, norm_topk_prob false). Untied lm_head on the published checkpoints.
-- OLMo 3 (model_type "olmo3", Olmo3ForCausalLM) is OLMo 2's tensors exactly, with sliding-window
-- attention on three layers in four: config layer_types, else Olmo3Config's default
-- ("sliding_attention" unless (i + 1) % 4 == 0) over sliding_window (default 4096). YaRN scaling of the
-- full layers' RoPE changes no parameter or cache shape.
-- Layout: transformers models/olmo2/modeling_olmo2.py (Olmo2Attention, Olmo2DecoderLayer),
-- models/olmo3/modular_olmo3.py (Olmo3Config.__post_init__, Olmo3Attention) and
-- models/olmoe/modeling_olmoe.py (OlmoeAttention, OlmoeSparseMoeBlock); vLLM olmo2.py (which also
-- serves Olmo3ForCausalLM), olmoe.py.
local nn = require "nn"

-- OLMo 3's sliding layers (nil for OLMo 2 / OLMoE: every layer global)
local function windows(cfg, L)
  if nn.opt(cfg, "model_type", "olmo2") ~= "olmo3" then return nil end
  local w = nn.int(cfg, "sliding_window", 4096)
  return nn.layer_types(cfg, L, w) or function(i) return (i + 1) % 4 ~= 0 and w end
end

return arch {
  name        = "olmo",
  summary     = "OLMo 2 / OLMo 3 (post-norm, whole-projection q/k norm; OLMo 3 3:1 sliding windows) and OLMoE",
  model_types = { "olmo2", "olmo3", "olmoe" },
  build = function(cfg)
    local moe = nn.opt(cfg, "model_type", "olmo2") == "olmoe"
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local bias = nn.flag(cfg, "attention_bias", false)
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d,
      count = L, qkv_bias = bias, o_bias = bias })
    nn.norm(t, lp .. ".self_attn.q_norm", nh * d, { count = L })
    nn.norm(t, lp .. ".self_attn.k_norm", nkv * d, { count = L })
    local E, k = 0, 0
    if moe then
      E, k = nn.need(cfg, "num_experts"), nn.need(cfg, "num_experts_per_tok")
      nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = I, count = L * E, role = "expert" })
      nn.linear(t, lp .. ".mlp.gate", E, h, { count = L, role = "router" })
      nn.norm(t, lp .. ".input_layernorm", h, { count = L })
      nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    else
      nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L })
      nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
      nn.norm(t, lp .. ".post_feedforward_layernorm", h, { count = L })
    end
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    local block = nn.rms_block(nh, nkv, d, moe and k * I or I, E, k)
    if moe then nn.moe_norm(block, cfg) end
    return nn.decoder_desc("olmo", cfg, dims, { tied_embeddings = tied, tensors = t,
      intermediate = moe and 0 or I, kv = nn.kv_groups(L, nkv, d, d, windows(cfg, L)), block = block })
  end,
}
