-- qwen3_next.lua: Qwen3-Next hybrid decoder: gated DeltaNet (linear attention) layers and
-- gated full-attention layers (query and output gate, q/k norm), 3:1 by default
-- (full_attention_interval 4), every layer a sparse MoE with a gated shared expert.
-- The token mixers and the DeltaNet state (kind "mamba") come from nn.gated_deltanet_mixers,
-- shared with Qwen3.5 (qwen3_5.lua).
-- Shapes: transformers models/qwen3_next/modeling_qwen3_next.py; the checkpoint's mtp.*
-- (multi-token prediction) weights are not loaded by transformers and not listed here.
local nn = require "nn"

return arch {
  name        = "qwen3_next",
  summary     = "Qwen3-Next hybrid MoE decoder (gated DeltaNet + gated attention)",
  model_types = { "qwen3_next" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local E, k = nn.need(cfg, "num_experts"), nn.need(cfg, "num_experts_per_tok")
    local EI, SI = nn.need(cfg, "moe_intermediate_size"), nn.count(cfg, "shared_expert_intermediate_size", 0)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local step, only = nn.int(cfg, "decoder_sparse_step", 1), {}
    for _, i in ipairs(nn.opt(cfg, "mlp_only_layers", {})) do only[i] = true end
    local moe_L = nn.count_layers(L, function(i) return not only[i] and (i + 1) % step == 0 end)

    local t, lp = {}, "model.layers.*"
    local kv = nn.gated_deltanet_mixers(t, lp, cfg, dims)
    nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = EI, count = moe_L * E, role = "expert" })
    nn.linear(t, lp .. ".mlp.gate", E, h, { count = moe_L, role = "router" })
    if SI > 0 then
      nn.gated_mlp(t, lp .. ".mlp.shared_expert", { hidden = h, width = SI, count = moe_L, role = "shared_expert" })
      nn.linear(t, lp .. ".mlp.shared_expert_gate", 1, h, { count = moe_L, role = "router" })
    end
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = nn.need(cfg, "intermediate_size"), count = L - moe_L })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    return nn.decoder_desc("qwen3_next", cfg, dims, {
      intermediate = moe_L < L and nn.need(cfg, "intermediate_size") or 0, -- every layer MoE: 0
      tied_embeddings = tied, tensors = t, kv = kv,
      block = nn.rms_block(nh, nkv, d, k * EI + SI, E, k, EI),
    })
  end,
}
