-- jamba.lua: AI21 Jamba (transformers JambaForCausalLM, model_type jamba: Jamba-v0.1, Jamba 1.5 / 1.6
-- Mini and Large): layer i is GQA attention (no positional encoding) when i % attn_layer_period ==
-- attn_layer_offset and a Mamba-1 mixer otherwise (nn.mamba1_mixer, with the dt / B / C RMSNorms);
-- its feed_forward is a sparse MoE (router {E, h} without bias, experts.* SwiGLU) when i %
-- expert_layer_period == expert_layer_offset and a dense SwiGLU otherwise; input_layernorm,
-- pre_ff_layernorm, model.final_layernorm. A Mamba layer caches per sequence (kind "mamba") its
-- conv window and SSM state. Shapes: transformers models/jamba/modeling_jamba.py (JambaMambaMixer,
-- JambaSparseMoeBlock, JambaAttentionDecoderLayer, JambaMambaDecoderLayer); llama.cpp arch "jamba"
-- (src/llama-arch.cpp LLM_ARCH_JAMBA: ssm_in, ssm_conv1d, ssm_x, ssm_dt, ssm_a, ssm_d, ssm_out,
-- ssm_dt_norm, ssm_b_norm, ssm_c_norm, ffn_gate_inp, ffn_*_exps).
local nn = require "nn"

return arch {
  name        = "jamba",
  summary     = "AI21 Jamba hybrid (Mamba-1 + attention layers, MoE every other layer)",
  model_types = { "jamba" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local ap, ao = nn.int(cfg, "attn_layer_period", 8), nn.count(cfg, "attn_layer_offset", 4)
    local ep, eo = nn.int(cfg, "expert_layer_period", 2), nn.count(cfg, "expert_layer_offset", 1)
    local E, k = nn.int(cfg, "num_experts", 16), nn.int(cfg, "num_experts_per_tok", 2)
    local n_attn = nn.count_layers(L, function(i) return i % ap == ao end)
    local n_mamba = L - n_attn
    -- JambaConfig: layers_num_experts = num_experts on the expert layers, 1 elsewhere; a
    -- 1-expert layer is the dense JambaMLP
    local moe_L = E > 1 and nn.count_layers(L, function(i) return i % ep == eo end) or 0
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local di = nn.int(cfg, "mamba_expand", 2) * h
    local t, lp = {}, "model.layers.*"
    local function is_attn(i) return i % ap == ao end
    local function is_moe(i) return moe_L > 0 and i % ep == eo end
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = n_attn })
    nn.place(t, 1, nn.layer_list(L, is_attn))
    local kv = {}
    if n_attn > 0 then kv[1] = { layers = n_attn, kv_heads = nkv, k_dim = d, v_dim = d } end
    if n_mamba > 0 then
      local from = #t + 1
      local state, conv = nn.mamba1_mixer(t, lp .. ".mamba", { hidden = h, d_inner = di,
        state = nn.int(cfg, "mamba_d_state", 16), conv = nn.int(cfg, "mamba_d_conv", 4),
        -- JambaConfig: mamba_dt_rank "auto" (its default) is ceil(hidden_size / 16)
        dt_rank = cfg.mamba_dt_rank ~= "auto" and nn.int(cfg, "mamba_dt_rank", nil) or (h + 15) // 16, count = n_mamba,
        conv_bias = nn.flag(cfg, "mamba_conv_bias", true), proj_bias = nn.flag(cfg, "mamba_proj_bias", false),
        inner_norms = true })
      nn.place(t, from, nn.layer_list(L, function(i) return not is_attn(i) end))
      -- layer_ids: the Mamba layers, whose place llama.cpp's graph follows (jamba.cpp: n_head_kv(il) == 0)
      kv[#kv + 1] = { layers = n_mamba, kind = "mamba", state_elems = state, conv_elems = conv,
                      layer_ids = nn.layer_list(L, function(i) return not is_attn(i) end) }
    end
    local from = #t + 1
    nn.gated_mlp(t, lp .. ".feed_forward", { hidden = h, width = I, count = L - moe_L })
    nn.place(t, from, nn.layer_list(L, function(i) return not is_moe(i) end))
    from = #t + 1
    nn.gated_mlp(t, lp .. ".feed_forward.experts.*", { hidden = h, width = I, count = moe_L * E, role = "expert" })
    nn.linear(t, lp .. ".feed_forward.router", E, h, { count = moe_L, role = "router" })
    nn.place(t, from, nn.layer_list(L, is_moe))
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".pre_ff_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm = "model.final_layernorm" })
    -- no RoPE: vLLM's JambaAttentionDecoderLayer.self_attention (vllm/model_executor/models/
    -- jamba.py) runs attn(q, k, v) straight from qkv_proj and builds no get_rope cos/sin cache
    return nn.decoder_desc("jamba", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv, rope_rows = 0,
      intermediate = I, block = nn.rms_block(nh, nkv, d, moe_L > 0 and k * I or I, moe_L > 0 and E or 0, moe_L > 0 and k or 0) })
  end,
}
