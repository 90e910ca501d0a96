-- glm4_moe.lua: GLM-4.5 / GLM-4.5-Air / GLM-4.6 (transformers Glm4MoeForCausalLM, model_type
-- glm4_moe): GQA attention with q,k,v bias (no o bias), optional per-head q/k RMSNorm
-- (use_qk_norm), partial RoPE (no parameters), the first first_k_dense_replace layers dense and
-- the rest DeepSeekMoE-style (sigmoid router with a per-expert e_score_correction_bias,
-- n_shared_experts shared experts of moe_intermediate_size each). The checkpoint's MTP layers
-- (model.layers.<num_hidden_layers>..., num_nextn_predict_layers of them) are not part of the
-- served model: transformers ignores them (_keys_to_ignore_on_load_unexpected), vLLM skips them
-- without speculative decoding (skip_spec_layers) and llama.cpp loads them as unused nextn
-- tensors; they are left out here, as deepseek.lua leaves DeepSeek-V3's out.
-- sources: transformers models/glm4_moe/modeling_glm4_moe.py, vLLM model_executor/models/glm4_moe.py
local nn = require "nn"

return arch {
  name        = "glm4_moe",
  summary     = "GLM-4.5/4.5-Air/4.6: GQA + qkv bias, sigmoid-routed MoE with a shared expert (MTP layers excluded)",
  model_types = { "glm4_moe" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, nh, nkv, d = dims.h, dims.L, dims.nh, dims.nkv, dims.d
    local I, EI = nn.need(cfg, "intermediate_size"), nn.need(cfg, "moe_intermediate_size")
    local E, k = nn.need(cfg, "n_routed_experts"), nn.need(cfg, "num_experts_per_tok")
    local shared = nn.count(cfg, "n_shared_experts", 1)
    local first_dense = nn.count(cfg, "first_k_dense_replace", 1)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local moe_L = nn.count_layers(L, function(i) return i >= first_dense end)

    local t, lp = {}, "model.layers.*"
    -- Glm4MoeAttention: q/k/v bias = attention_bias, o_proj never biased
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = nn.flag(cfg, "attention_bias", false), o_bias = false,
      qk_norm = nn.flag(cfg, "use_qk_norm", false) })
    -- The router: gate.weight in the model dtype as the checkpoint stores it and transformers
    -- and SGLang hold it (recent SGLang also caches an fp32 copy); vLLM's Glm4MoE builds an fp32
    -- nn.Linear and llama.cpp keeps ffn_gate_inp in F32: 2 more bytes per element there, not
    -- modelled. e_score_correction_bias is fp32 everywhere: F32 in the checkpoint (transformers'
    -- _keep_in_fp32_modules_strict), an fp32 Parameter in vLLM and SGLang, exp_probs_b F32 in GGUF.
    nn.deepseek_moe(t, lp, { h = h, I = I, EI = EI, E = E, shared = shared, L = L, moe_L = moe_L,
      score_bias = true, bias_fp32 = true })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = dims.V, hidden = h, tied = tied })

    return nn.decoder_desc("glm4_moe", cfg, dims, {
      tied_embeddings = tied, tensors = t,
      -- GQA cache on the main layers only (the MTP layer has none without speculative decoding)
      kv = nn.kv_groups(L, nkv, d, d),
      block = nn.moe_norm(nn.dense_layers(nn.rms_block(nh, nkv, d, (k + shared) * EI, E, k, EI), moe_L < L and I), cfg),
    })
  end,
}
