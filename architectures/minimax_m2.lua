-- minimax_m2.lua: MiniMax-M2 (transformers MiniMaxM2ForCausalLM, model_type minimax_m2):
-- every layer is full GQA softmax attention (attn_type_list all 1) without biases, partial RoPE
-- (rotary_dim; no parameters), q/k RMSNorm over the whole projection (qk_norm_type
-- "per_layer": q_norm {heads * head_dim}, k_norm {kv_heads * head_dim}; "per_head": {head_dim}),
-- and a sparse MoE in every layer with Mixtral naming (block_sparse_moe.experts.*.w1/w3/w2 of
-- width intermediate_size, no shared expert: shared_intermediate_size 0) routed by a sigmoid
-- gate with a per-expert e_score_correction_bias (use_routing_bias). The MTP modules
-- (num_mtp_modules) are not in the published checkpoint's count (see tests/lua/test_architectures.lua)
-- and not served without speculative decoding: left out.
-- sources: transformers models/minimax_m2/modeling_minimax_m2.py, vLLM model_executor/models/minimax_m2.py
local nn = require "nn"

return arch {
  name        = "minimax_m2",
  summary     = "MiniMax-M2: GQA + whole-projection q/k norm, sigmoid-routed MoE in every layer (no shared expert)",
  model_types = { "minimax_m2" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, nh, nkv, d = dims.h, dims.L, dims.nh, dims.nkv, dims.d
    local EI = nn.need(cfg, "intermediate_size")   -- each expert's width (no dense FFN layer)
    local E, k = nn.need(cfg, "num_local_experts"), nn.need(cfg, "num_experts_per_tok")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    if nn.count(cfg, "shared_intermediate_size", 0) > 0 then
      error("config: field 'shared_intermediate_size' > 0 (a shared expert) is not modelled for minimax_m2", 0)
    end
    local types = nn.opt(cfg, "attn_type_list", nil)
    if type(types) == "table" then
      for i, v in ipairs(types) do
        if v ~= 1 then
          error(("config: attn_type_list[%d] = %s: only full attention (1) is modelled for minimax_m2"):format(i, tostring(v)), 0)
        end
      end
    end

    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = false, o_bias = false })
    if nn.flag(cfg, "use_qk_norm", false) then
      local whole = nn.opt(cfg, "qk_norm_type", "per_layer") ~= "per_head"
      nn.norm(t, lp .. ".self_attn.q_norm", whole and nh * d or d, { count = L })
      nn.norm(t, lp .. ".self_attn.k_norm", whole and nkv * d or d, { count = L })
    end
    nn.gated_mlp(t, lp .. ".block_sparse_moe.experts.*", { hidden = h, width = EI, count = L * E,
      role = "expert", names = { "w1", "w3", "w2" } })
    -- gate.weight in the model dtype as the checkpoint stores it (modules_to_not_convert keeps
    -- it out of FP8; vLLM builds it as an fp32 ReplicatedLinear: 2 more bytes per element
    -- there, not modelled, as in glm4_moe.lua); the bias is fp32 in vLLM and SGLang.
    nn.linear(t, lp .. ".block_sparse_moe.gate", E, h, { count = L, role = "router" })
    if nn.flag(cfg, "use_routing_bias", true) then
      nn.router_bias(t, lp .. ".block_sparse_moe.e_score_correction_bias", E, L, true)
    end
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = dims.V, hidden = h, tied = tied })

    return nn.decoder_desc("minimax_m2", cfg, dims, {
      intermediate = 0, tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = nn.rms_block(nh, nkv, d, k * EI, E, k),
    })
  end,
}
