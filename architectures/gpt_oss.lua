-- gpt_oss.lua: OpenAI gpt-oss: biased attention with per-head sinks, alternating sliding (128) /
-- full layers, MoE with a biased router and fused, biased gate_up experts (stored MXFP4).
-- formulas: shared/calibration/models_README.md §9
local nn = require "nn"

return arch {
  name        = "gpt_oss",
  summary     = "gpt-oss MoE decoder (attention sinks, alternating sliding window)",
  model_types = { "gpt_oss" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local E, I = nn.need(cfg, "num_local_experts"), nn.need(cfg, "intermediate_size")
    local k = nn.int(cfg, "num_experts_per_tok", nil) or nn.need(cfg, "experts_per_token")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)

    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d,
      count = L, qkv_bias = true, o_bias = true })
    nn.param(t, lp .. ".self_attn.sinks", { nh }, { count = L, role = "attn" })
    nn.linear(t, lp .. ".mlp.router", E, h, { count = L, role = "router", bias = true })
    -- Experts are stored fused per layer ({E, h, 2I}); listed here per expert ({h, 2I}).
    local x = { count = L * E, role = "expert" }
    nn.param(t, lp .. ".mlp.experts.gate_up_proj", { h, 2 * I }, x)
    nn.param(t, lp .. ".mlp.experts.gate_up_proj_bias", { 2 * I }, x)
    nn.param(t, lp .. ".mlp.experts.down_proj", { I, h }, x)
    nn.param(t, lp .. ".mlp.experts.down_proj_bias", { h }, x)
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    local w = nn.int(cfg, "sliding_window", 128)
    local window_of = nn.layer_types(cfg, L, w) or function(i) return i % 2 == 0 and w end
    return {
      arch = "gpt_oss", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nkv, head_dim = d,
      intermediate = 0, max_position = nn.int(cfg, "max_position_embeddings", nil),
      tied_embeddings = tied,
      tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, window_of),
      block = nn.rms_block(nh, nkv, d, k * I, E, k),
    }
  end,
}
