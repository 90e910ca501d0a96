-- bailing_moe.lua: inclusionAI Ling 2.0 / Ring 2.0 (BailingMoeV2ForCausalLM, model_type bailing_moe_v2:
-- Ling-mini-2.0, Ling-flash-2.0, Ling-1T and their Ring reasoning versions). Each layer:
--   attention.query_key_value: one fused Linear {(heads + 2 kv_heads) x head_dim, hidden}, biased
--     with use_qkv_bias or use_bias; attention.dense {hidden, heads x head_dim}, biased with use_bias;
--   attention.query_layernorm / key_layernorm: per-head RMSNorm {head_dim} (use_qk_norm);
--   RoPE over head_dim x partial_rotary_factor (half the head in the released configs);
--   input_layernorm, post_attention_layernorm;
--   the first first_k_dense_replace layers a dense SwiGLU mlp of intermediate_size, the others
--   num_experts routed experts (mlp.experts.N.gate/up/down_proj of moe_intermediate_size, top
--   num_experts_per_tok by sigmoid score + expert_bias within topk_group of n_group groups,
--   renormalized per norm_topk_prob and scaled by routed_scaling_factor), a router mlp.gate.weight
--   {E, hidden} and its selection bias mlp.gate.expert_bias {E} (moe_router_enable_expert_bias),
--   and num_shared_experts shared experts fused into mlp.shared_experts of
--   moe_shared_expert_intermediate_size (else num_shared_experts x moe_intermediate_size);
-- then model.word_embeddings, model.norm and lm_head (untied per tie_word_embeddings). The MTP layers
-- a config may announce (num_nextn_predict_layers: model.layers.<num_hidden_layers>...) are not part
-- of the served model (vLLM and SGLang load them only for MTP speculative decoding; llama.cpp's
-- converter appends them as nextn blocks) and are left out, as glm4_moe.lua leaves GLM-4.5's out.
-- Sources: the checkpoint's modeling_bailing_moe_v2.py (BailingMoeV2Attention, BailingMoeV2Gate,
-- BailingMoeV2SparseMoeBlock); vLLM model_executor/models/bailing_moe.py (BailingMoeV2ForCausalLM:
-- QKVParallelLinear query_key_value, FusedMoE experts, ReplicatedLinear gate); llama.cpp arch
-- "bailingmoe2" (convert_hf_to_gguf.py BailingMoeV2Model: attn_qkv kept fused, the experts stacked,
-- expert_bias written as exp_probs_b, leading_dense_block_count, expert_shared_feed_forward_length).
local nn = require "nn"

return arch {
  name        = "bailing_moe",
  summary     = "Ling 2.0 / Ring 2.0: fused-qkv GQA with q/k norm and half RoPE, sigmoid group-routed MoE with expert bias and a shared expert (MTP layers excluded)",
  model_types = { "bailing_moe_v2" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, nh, nkv, d = dims.h, dims.L, dims.nh, dims.nkv, dims.d
    local I, EI = nn.need(cfg, "intermediate_size"), nn.need(cfg, "moe_intermediate_size")
    local E, k = nn.need(cfg, "num_experts"), nn.need(cfg, "num_experts_per_tok")
    if k > E then error(("config: field 'num_experts_per_tok' (%d) exceeds num_experts (%d)"):format(k, E), 0) end
    local shared = nn.count(cfg, "num_shared_experts", 0)
    local SI = shared > 0 and (nn.int(cfg, "moe_shared_expert_intermediate_size", nil) or shared * EI) or 0
    local first_dense = nn.count(cfg, "first_k_dense_replace", 0)
    if first_dense > L then
      error(("config: field 'first_k_dense_replace' (%d) exceeds num_hidden_layers (%d)"):format(first_dense, L), 0)
    end
    local ng = nn.int(cfg, "n_group", nil)
    if ng and E % ng ~= 0 then
      error(("config: field 'n_group' (%d) must divide num_experts (%d)"):format(ng, E), 0)
    end
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local use_bias = nn.flag(cfg, "use_bias", false)
    local moe_L = L - first_dense

    local t, lp = {}, "model.layers.*"
    nn.linear(t, lp .. ".attention.query_key_value", (nh + 2 * nkv) * d, h,
      { count = L, role = "attn", bias = use_bias or nn.flag(cfg, "use_qkv_bias", false) })
    nn.linear(t, lp .. ".attention.dense", h, nh * d, { count = L, role = "attn", bias = use_bias })
    if nn.flag(cfg, "use_qk_norm", false) then
      nn.norm(t, lp .. ".attention.query_layernorm", d, { count = L })
      nn.norm(t, lp .. ".attention.key_layernorm", d, { count = L })
    end
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = first_dense, bias = use_bias })
    nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = EI, count = moe_L * E, role = "expert", bias = use_bias })
    if SI > 0 then
      nn.gated_mlp(t, lp .. ".mlp.shared_experts", { hidden = h, width = SI, count = moe_L, role = "shared_expert", bias = use_bias })
    end
    nn.param(t, lp .. ".mlp.gate.weight", { E, h }, { count = moe_L, role = "router" })
    -- the selection bias: an nn.Parameter (requires_grad False) stored in the checkpoint beside the
    -- router and counted in its safetensors total; held in the model dtype here (the released
    -- checkpoints' dtype for it not checked)
    if nn.flag(cfg, "moe_router_enable_expert_bias", true) then
      nn.router_bias(t, lp .. ".mlp.gate.expert_bias", E, moe_L, false)
    end
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = dims.V, hidden = h, tied = tied, embed = "model.word_embeddings" })

    return nn.decoder_desc("bailing_moe", cfg, dims, {
      tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = nn.moe_norm(nn.dense_layers(nn.rms_block(nh, nkv, d, k * EI + SI, E, k, EI), moe_L < L and I), cfg),
    })
  end,
}
