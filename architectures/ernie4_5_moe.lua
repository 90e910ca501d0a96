-- ernie4_5_moe.lua: Baidu ERNIE 4.5 MoE decoders (transformers Ernie4_5_MoeForCausalLM, model_type
-- ernie4_5_moe: ERNIE-4.5-21B-A3B, ERNIE-4.5-300B-A47B). The attention and dense layers are
-- ernie4_5's (use_bias on every Linear); layer i is sparse when moe_layer_start_index <= i <=
-- moe_layer_end_index and (i + 1) % moe_layer_interval == 0 (Ernie4_5_MoeDecoderLayer), its
-- mlp then moe_num_experts experts of moe_intermediate_size (mlp.experts.*), a router mlp.gate
-- {E, h} without bias, the aux-free routing bias mlp.moe_statics.e_score_correction_bias {1, E}
-- (fp32, with moe_use_aux_free) and moe_num_shared_experts shared experts fused into one SwiGLU
-- of moe_num_shared_experts x moe_intermediate_size (mlp.shared_experts).
-- Shapes: transformers models/ernie4_5_moe/modeling_ernie4_5_moe.py; llama.cpp arch "ernie4_5-moe"
-- (src/llama-arch.cpp LLM_ARCH_ERNIE4_5_MOE: ffn_*_exps, ffn_*_shexp, exp_probs_b).
local nn = require "nn"

return arch {
  name        = "ernie4_5_moe",
  summary     = "ERNIE 4.5 MoE decoder (dense first layers, routed + fused shared experts, aux-free router bias)",
  model_types = { "ernie4_5_moe" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I, EI = nn.need(cfg, "intermediate_size"), nn.int(cfg, "moe_intermediate_size", nil) or nn.need(cfg, "intermediate_size")
    local E, k = nn.need(cfg, "moe_num_experts"), nn.need(cfg, "moe_k")
    local S = nn.count(cfg, "moe_num_shared_experts", 0)
    -- Ernie4_5_MoeConfig (transformers models/ernie4_5_moe/configuration_ernie4_5_moe.py): the
    -- start index defaults to 1, and an end index of -1 (its default) is num_hidden_layers - 1
    local first = nn.count(cfg, "moe_layer_start_index", 1)
    local last = cfg.moe_layer_end_index == -1 and L - 1 or nn.count(cfg, "moe_layer_end_index", L - 1)
    local step = nn.int(cfg, "moe_layer_interval", 1)
    local moe_L = nn.count_layers(L, function(i) return i >= first and i <= last and (i + 1) % step == 0 end)
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local b = nn.flag(cfg, "use_bias", false)
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = b, o_bias = b })
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L - moe_L, bias = b })
    nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = EI, count = moe_L * E, role = "expert", bias = b })
    if S > 0 then
      nn.gated_mlp(t, lp .. ".mlp.shared_experts", { hidden = h, width = S * EI, count = moe_L, role = "shared_expert", bias = b })
    end
    nn.linear(t, lp .. ".mlp.gate", E, h, { count = moe_L, role = "router" })
    if nn.flag(cfg, "moe_use_aux_free", true) then
      nn.param(t, lp .. ".mlp.moe_statics.e_score_correction_bias", { 1, E }, { count = moe_L, role = "router", dtype = "fp32" })
    end
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    return nn.decoder_desc("ernie4_5_moe", cfg, dims, {
      intermediate = moe_L < L and I or 0, tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = nn.dense_layers(nn.rms_block(nh, nkv, d, (k + S) * EI, E, k, EI), moe_L < L and I) })
  end,
}
