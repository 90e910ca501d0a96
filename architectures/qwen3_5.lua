-- qwen3_5.lua: Qwen3.5 / Qwen3.6 (Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration
-- and their text-only *ForCausalLM): Qwen3-Next's hybrid decoder (gated DeltaNet layers and
-- gated full-attention layers, 3:1 by layer_types) with the DeltaNet input projections stored
-- apart (in_proj_qkv, in_proj_z, in_proj_b, in_proj_a; same sizes as Qwen3-Next's fused ones),
-- either a dense SwiGLU MLP in every layer (qwen3_5) or a sparse MoE with a gated shared expert
-- (qwen3_5_moe; routed experts stored fused per layer: experts.gate_up_proj {E, 2I, h},
-- experts.down_proj {E, h, I}), a 248320-token vocabulary and the Qwen3-VL vision tower without
-- deepstack (nn.qwen3_vision) under model.visual.
-- Shapes: transformers models/qwen3_5/modular_qwen3_5.py, models/qwen3_5_moe/modular_qwen3_5_moe.py;
-- checkpoint names: model.language_model.*, model.visual.*, lm_head (vLLM qwen3_5.py load_weights:
-- "qwen3.5 no need to transpose" the fused experts, split along dim -2). The checkpoint's mtp.*
-- layer (mtp_num_hidden_layers) is skipped by transformers (_keys_to_ignore_on_load_unexpected)
-- and by vLLM unless MTP speculative decoding is on: not listed here.
local nn = require "nn"

return arch {
  name        = "qwen3_5",
  summary     = "Qwen3.5 hybrid decoder (gated DeltaNet + gated attention; dense or MoE) + vision tower",
  model_types = { "qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or cfg  -- text-only configs are flat
    local mm = tc ~= cfg
    local dims = nn.decoder_dims(tc)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local moe = tc.num_experts ~= nil or tc.model_type == "qwen3_5_moe_text" or cfg.model_type == "qwen3_5_moe"
    local tied = nn.flag(cfg, "tie_word_embeddings", nn.flag(tc, "tie_word_embeddings", false))
    local lm = mm and "model.language_model" or "model"
    local lp = lm .. ".layers.*"

    local t = {}
    local kv = nn.gated_deltanet_mixers(t, lp, tc, dims, { split = true })
    local block
    if moe then
      local E, k = nn.need(tc, "num_experts"), nn.need(tc, "num_experts_per_tok")
      local EI, SI = nn.need(tc, "moe_intermediate_size"), nn.count(tc, "shared_expert_intermediate_size", 0)
      local x = { count = L * E, role = "expert", layout = "out_in" }
      nn.param(t, lp .. ".mlp.experts.gate_up_proj", { 2 * EI, h }, x)
      nn.param(t, lp .. ".mlp.experts.down_proj", { h, EI }, x)
      nn.linear(t, lp .. ".mlp.gate", E, h, { count = L, role = "router" })
      if SI > 0 then
        nn.gated_mlp(t, lp .. ".mlp.shared_expert", { hidden = h, width = SI, count = L, role = "shared_expert" })
        nn.linear(t, lp .. ".mlp.shared_expert_gate", 1, h, { count = L, role = "router" })
      end
      block = nn.rms_block(nh, nkv, d, k * EI + SI, E, k, EI)
    else
      local I = nn.need(tc, "intermediate_size")
      nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L })
      block = nn.rms_block(nh, nkv, d, I)
    end
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = lm .. ".embed_tokens", norm = lm .. ".norm" })
    local vc = nn.sub(cfg, "vision_config")
    if mm and vc then nn.qwen3_vision(t, "model.visual", vc, h) end

    dims.I = moe and 0 or dims.I  -- the dense FFN width; MoE configs have none
    return nn.decoder_desc("qwen3_5", tc, dims, { tied_embeddings = tied, tensors = t, kv = kv, block = block })
  end,
}
