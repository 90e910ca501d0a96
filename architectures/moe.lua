-- moe.lua: sparse mixture-of-experts decoders on a Llama-style block:
-- Mixtral (mixtral), Qwen3-MoE (qwen3_moe, q/k norm, no shared expert) and Qwen2-MoE /
-- Qwen1.5-MoE (qwen2_moe: q/k/v biases, a shared expert of shared_expert_intermediate_size
-- gated by its own sigmoid shared_expert_gate, a 1 x hidden linear without bias; layout of
-- transformers models/qwen2_moe/modeling_qwen2_moe.py Qwen2MoeSparseMoeBlock and of vLLM's
-- qwen2_moe.py; llama.cpp's qwen2moe: ffn_gate_inp_shexp, ffn_{gate,up,down}_shexp).
-- PhiMoE (phimoe, Phi-3.5-MoE: Mixtral's naming with q/k/v/o biases per attention_bias, LayerNorm
-- with bias instead of RMSNorm, an lm_head bias per lm_head_bias; transformers
-- models/phimoe/modeling_phimoe.py) and Granite 3 MoE (granitemoe: experts fused per layer,
-- block_sparse_moe.input_linear {E, 2I, h} / output_linear {E, h, I}, router.layer {E, h},
-- tied embedding; models/granitemoe/modeling_granitemoe.py GraniteMoeParallelExperts,
-- GraniteMoeTopKGating; its multipliers scale activations only).
-- formulas: shared/calibration/models_README.md §6, §7
local nn = require "nn"

return arch {
  name        = "moe",
  summary     = "mixture-of-experts decoder: Mixtral, Qwen3-MoE, Qwen2-MoE (Qwen1.5-MoE), PhiMoE, Granite 3 MoE",
  model_types = { "mixtral", "qwen3_moe", "qwen2_moe", "phimoe", "granitemoe" },
  build = function(cfg)
    local mt = nn.opt(cfg, "model_type", "mixtral")
    local q2 = mt == "qwen2_moe"
    local qwen = mt == "qwen3_moe" or q2
    local phi, granite = mt == "phimoe", mt == "granitemoe"
    local h, L = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "num_attention_heads")
    local nkv = nn.int(cfg, "num_key_value_heads", nh)
    local d = nn.head_dim(cfg, h, nh)
    local tied = nn.flag(cfg, "tie_word_embeddings", granite)
    local E = nn.need(cfg, qwen and "num_experts" or "num_local_experts")
    local k = nn.need(cfg, "num_experts_per_tok")
    local dense_I = nn.need(cfg, "intermediate_size")
    local EI = qwen and nn.need(cfg, "moe_intermediate_size") or dense_I

    -- Qwen2-MoE's shared expert (0 or absent: none)
    local SI = q2 and nn.count(cfg, "shared_expert_intermediate_size", 0) or 0

    -- Qwen2/3-MoE: layer i is sparse unless listed in mlp_only_layers or off the sparse step.
    local moe_L = L
    if qwen then
      local step, only = nn.int(cfg, "decoder_sparse_step", 1), {}
      for _, i in ipairs(nn.opt(cfg, "mlp_only_layers", {})) do only[i] = true end
      moe_L = nn.count_layers(L, function(i) return not only[i] and (i + 1) % step == 0 end)
    end

    local t = {}
    local attn_bias = nn.flag(cfg, "attention_bias", false)
    -- Qwen2-MoE: q/k/v biased, o_proj not (Qwen2MoeAttention), no q/k norm
    nn.attention(t, "model.layers.*.self_attn", { hidden = h, heads = nh, kv_heads = nkv,
      head_dim = d, count = L, qkv_bias = attn_bias or q2, o_bias = attn_bias, qk_norm = qwen and not q2 })
    if qwen then
      nn.gated_mlp(t, "model.layers.*.mlp.experts.*", { hidden = h, width = EI,
        count = moe_L * E, role = "expert" })
      nn.linear(t, "model.layers.*.mlp.gate", E, h, { count = moe_L, role = "router" })
      if SI > 0 then
        nn.gated_mlp(t, "model.layers.*.mlp.shared_expert", { hidden = h, width = SI, count = moe_L,
          role = "shared_expert" })
        nn.linear(t, "model.layers.*.mlp.shared_expert_gate", 1, h, { count = moe_L, role = "router" })
      end
      nn.gated_mlp(t, "model.layers.*.mlp", { hidden = h, width = dense_I, count = L - moe_L })
    elseif granite then
      local x = { count = L * E, role = "expert", layout = "out_in" }
      nn.param(t, "model.layers.*.block_sparse_moe.input_linear.weight", { 2 * EI, h }, x)
      nn.param(t, "model.layers.*.block_sparse_moe.output_linear.weight", { h, EI }, x)
      nn.linear(t, "model.layers.*.block_sparse_moe.router.layer", E, h, { count = L, role = "router" })
    else
      nn.gated_mlp(t, "model.layers.*.block_sparse_moe.experts.*", { hidden = h, width = EI,
        count = L * E, role = "expert", names = { "w1", "w3", "w2" } })
      nn.linear(t, "model.layers.*.block_sparse_moe.gate", E, h, { count = L, role = "router" })
    end
    nn.norm(t, "model.layers.*.input_layernorm", h, { count = L, bias = phi })
    nn.norm(t, "model.layers.*.post_attention_layernorm", h, { count = L, bias = phi })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm_bias = phi })
    if phi and not tied and nn.flag(cfg, "lm_head_bias", false) then
      nn.param(t, "lm_head.bias", { V }, { role = "lm_head" })
    end

    -- Mixtral: sliding_window (if set) on every layer; Qwen2/3-MoE only with use_sliding_window
    -- (the published Qwen2-MoE configs set it false).
    local w = nn.int(cfg, "sliding_window", nil)
    if qwen and not nn.flag(cfg, "use_sliding_window", false) then w = nil end
    local block = nn.rms_block(nh, nkv, d, k * EI + SI, E, k, EI)
    if phi then block.norm = "layer" end
    return {
      arch = "moe", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nkv, head_dim = d,
      intermediate = moe_L < L and dense_I or 0, max_position = nn.int(cfg, "max_position_embeddings", nil),
      tied_embeddings = tied,
      tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, w and function() return w end),
      block = block,
    }
  end,
}
