-- hunyuan.lua: Tencent Hunyuan V1 dense decoders (transformers HunYuanDenseV1ForCausalLM, model_type
-- hunyuan_v1_dense: Hunyuan-0.5B/1.8B/4B/7B): a Llama block whose per-head q/k RMSNorms are named
-- self_attn.query_layernorm / key_layernorm {head_dim} (use_qk_norm, applied after RoPE), attention
-- biases with attention_bias, MLP biases with mlp_bias, tied embedding by config.
-- Shapes: transformers models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py; llama.cpp arch
-- "hunyuan-dense" (src/llama-arch.cpp LLM_ARCH_HUNYUAN_DENSE: attn_q_norm, attn_k_norm).
-- hunyuan_v1_moe (HunYuanMoEV1ForCausalLM: Hunyuan-A13B): the same attention, and in every layer a
-- MoE of num_experts experts of moe_intermediate_size (mlp.experts.*), a router mlp.gate.wg {E, h}
-- without bias and num_shared_expert shared experts fused into one SwiGLU of intermediate_size x
-- num_shared_expert (mlp.shared_mlp); moe_topk / moe_intermediate_size / num_shared_expert may be
-- per-layer lists (the released config repeats one value). transformers
-- models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py; llama.cpp "hunyuan-moe" (LLM_ARCH_HUNYUAN_MOE).
local nn = require "nn"

return arch {
  name        = "hunyuan",
  summary     = "Hunyuan V1 dense and MoE decoders (q/k norm after RoPE named query/key_layernorm; shared + routed experts)",
  model_types = { "hunyuan_v1_dense", "hunyuan_v1_moe" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local lp, t = "model.layers.*", {}
    local ab = nn.flag(cfg, "attention_bias", false)
    local moe = nn.opt(cfg, "model_type", "hunyuan_v1_dense") == "hunyuan_v1_moe"
    local block
    if moe then
      -- a per-layer list's one value (the released configs repeat it); differing values are refused
      local function one(key, default)
        local v = cfg[key]
        if type(v) ~= "table" then return nn.count(cfg, key, default) end
        -- HunYuanMoEV1 indexes the list by layer (config.moe_topk[layer_idx]): one value a layer
        if #v < L then error(("config: field '%s' must list one value per layer (%d)"):format(key, L), 0) end
        for _, x in ipairs(v) do
          if x ~= v[1] then error(("config: field '%s' differs between layers, not modelled"):format(key), 0) end
        end
        return nn.count({ [key] = v[1] }, key, default)
      end
      local E, k, EI, S = nn.need(cfg, "num_experts"), one("moe_topk", 1), one("moe_intermediate_size", I), one("num_shared_expert", 1)
      for key, v in pairs { moe_topk = k, moe_intermediate_size = EI } do
        if v == 0 then error(("config: field '%s' must be a positive integer, got 0"):format(key), 0) end
      end
      nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
        qkv_bias = ab, o_bias = ab })
      nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = EI, count = L * E, role = "expert" })
      if S > 0 then nn.gated_mlp(t, lp .. ".mlp.shared_mlp", { hidden = h, width = S * I, count = L, role = "shared_expert" }) end
      nn.linear(t, lp .. ".mlp.gate.wg", E, h, { count = L, role = "router" })
      nn.norm(t, lp .. ".input_layernorm", h, { count = L })
      nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
      block = nn.rms_block(nh, nkv, d, k * EI + S * I, E, k, EI)
      dims.I = 0
    else
      nn.llama_layers(t, lp, { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I, count = L,
        qkv_bias = ab, o_bias = ab, mlp_bias = nn.flag(cfg, "mlp_bias", false) })
      block = nn.rms_block(nh, nkv, d, I)
    end
    if nn.flag(cfg, "use_qk_norm", true) then
      nn.norm(t, lp .. ".self_attn.query_layernorm", d, { count = L })
      nn.norm(t, lp .. ".self_attn.key_layernorm", d, { count = L })
    end
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    return nn.decoder_desc("hunyuan", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = block })
  end,
}
