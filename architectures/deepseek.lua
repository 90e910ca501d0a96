-- deepseek.lua: DeepSeek-V2 / V3: multi-head latent attention (MLA) + DeepSeekMoE with shared
-- experts; the first first_k_dense_replace layers are dense. MTP layers (num_nextn_predict_layers)
-- are not part of the served model and are left out. formulas: shared/calibration/models_README.md §8
-- Kimi-K2 (model_type kimi_k2, architectures DeepseekV3ForCausalLM: vLLM and SGLang serve it with
-- their DeepSeek-V3 model class) is V3's shape with other sizes: built as deepseek_v3.
-- DeepSeek-V3.2 (model_type deepseek_v32, DeepseekV32ForCausalLM: V3.2-Exp, V3.2, V3.2-Speciale) is
-- V3 plus DeepSeek Sparse Attention: a lightning indexer in every layer (vllm-project/vllm
-- vllm/model_executor/models/deepseek_v2.py Indexer, from 0.11.0): wq_b {index_n_heads x
-- index_head_dim, q_lora_rank}, wk {index_head_dim, hidden}, k_norm a LayerNorm with bias
-- {index_head_dim}, weights_proj {index_n_heads, hidden}, all ReplicatedLinear (whole on every
-- tensor-parallel rank: role "other"; wq_b and wk fp8 in the checkpoint, weights_proj built with
-- quant_config None but counted with them here: 0.46M a layer). Its keys are cached per token and
-- layer as index_head_dim fp8 + one fp32 scale per 128 (quant_block_size) = 132 uint8 whatever the
-- KV dtype (DeepseekV32IndexerCache; SGLang NSATokenToKVPool.index_k_with_scale_buffer): a second
-- kv group of fixed bytes. The sparse MLA layers store an 8-bit KV as vLLM's "fp8_ds_mla" (512 fp8
-- + 4 fp32 scales + 64 bf16 rope = 656 B: kv_cache_interface.py MLAAttentionSpec.page_size_bytes).
-- GLM-5 (model_type glm_moe_dsa, GlmMoeDsaForCausalLM) is the same mechanism: vLLM registers it to
-- deepseek_v2.py's GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM), with the same indexer and caches.
local nn = require "nn"

return arch {
  name        = "deepseek",
  summary     = "DeepSeek-V2/V3/V3.2, GLM-5: MLA attention (V3.2/GLM-5: + sparse-attention indexer), DeepSeekMoE (MTP layers excluded)",
  model_types = { "deepseek_v2", "deepseek_v3", "kimi_k2", "deepseek_v32", "glm_moe_dsa" },
  build = function(cfg)
    local v3 = nn.opt(cfg, "model_type", "deepseek_v2") ~= "deepseek_v2"   -- deepseek_v3, kimi_k2
    local h, L = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "num_attention_heads")
    local I, EI = nn.need(cfg, "intermediate_size"), nn.need(cfg, "moe_intermediate_size")
    local r_q, r_kv = nn.int(cfg, "q_lora_rank", nil), nn.need(cfg, "kv_lora_rank")
    local dn, dr = nn.need(cfg, "qk_nope_head_dim"), nn.need(cfg, "qk_rope_head_dim")
    local dv = nn.need(cfg, "v_head_dim")
    local E, k = nn.need(cfg, "n_routed_experts"), nn.need(cfg, "num_experts_per_tok")
    local shared = nn.count(cfg, "n_shared_experts", 0)
    local first_dense = nn.count(cfg, "first_k_dense_replace", 0)
    local freq = nn.int(cfg, "moe_layer_freq", 1)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local moe_L = nn.count_layers(L, function(i) return i >= first_dense and i % freq == 0 end)

    local t, lp = {}, "model.layers.*"
    local qd = nh * (dn + dr)
    local kv_b = nn.mla_proj(t, lp .. ".self_attn", { hidden = h, heads = nh, q_lora = r_q, kv_lora = r_kv, nope = dn,
                                                       rope = dr, v = dv, count = L })
    assert(kv_b.name == lp .. ".self_attn.kv_b_proj.weight")
    -- convert_hf_to_gguf (DeepseekV2Model.modify_tensors) splits it per head for MLA's absorbed
    -- matmuls: attn_k_b transposed (rows of qk_nope_head_dim, ggml {dn, r_kv, nh}) and attn_v_b
    -- (rows of kv_lora_rank, {r_kv, dv, nh}); llama-quantize types each part by its own row
    kv_b.gguf_split = {
      { name = lp .. ".self_attn.k_b_proj.weight", gguf = "attn_k_b", shape = { nh * r_kv, dn } },
      { name = lp .. ".self_attn.v_b_proj.weight", gguf = "attn_v_b", shape = { nh * dv, r_kv } },
    }
    local mt = nn.opt(cfg, "model_type", "")
    local v32 = mt == "deepseek_v32" or mt == "glm_moe_dsa"
    local ixh, ixd
    if v32 then
      ixh, ixd = nn.need(cfg, "index_n_heads"), nn.need(cfg, "index_head_dim")
      nn.need(cfg, "index_topk")
      if not r_q then error("config: deepseek_v32 needs 'q_lora_rank' (the indexer's wq_b reads the q latent)", 0) end
      if ixd % 128 ~= 0 then error(("config: field 'index_head_dim' must be a multiple of 128 (the indexer's fp8 blocks), got %d"):format(ixd), 0) end
      local ix = { count = L, role = "other" }
      nn.linear(t, lp .. ".self_attn.indexer.wq_b", ixh * ixd, r_q, ix)
      nn.linear(t, lp .. ".self_attn.indexer.wk", ixd, h, ix)
      nn.norm(t, lp .. ".self_attn.indexer.k_norm", ixd, { count = L, bias = true })
      nn.linear(t, lp .. ".self_attn.indexer.weights_proj", ixh, h, ix)
    end

    -- noaux_tc routing (V3's default) keeps a per-expert score-correction bias
    nn.deepseek_moe(t, lp, { h = h, I = I, EI = EI, E = E, shared = shared, L = L, moe_L = moe_L,
      score_bias = nn.opt(cfg, "topk_method", v3 and "noaux_tc" or "greedy") == "noaux_tc" })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    return {
      arch = "deepseek", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nn.int(cfg, "num_key_value_heads", nh),
      head_dim = dn + dr, intermediate = I,
      max_position = nn.int(cfg, "max_position_embeddings", nil),
      rotary_dim = dr, -- RoPE turns only the qk_rope_head_dim part (vLLM: get_rope(qk_rope_head_dim))
      tied_embeddings = tied,
      tensors = t,
      -- MLA caches one compressed latent (+ the shared rope key) per token and layer.
      -- transformers caches the up-projected K and V instead (expanded_*: DeepseekV2Attention /
      -- DeepseekV3Attention / GlmMoeDsaAttention.forward pass past_key_values.update key_states
      -- of num_heads x (qk_nope + qk_rope), k_rot expanded to every head, and value_states of
      -- num_heads x v_head_dim; models/deepseek_v3/modeling_deepseek_v3.py at 00b676f8), and
      -- GLM-5's indexer keeps its keys in the model dtype (GlmMoeDsaIndexer._cached_keys)
      kv = v32 and {
        -- fp8_ds_mla: kv_lora_rank fp8 + kv_lora_rank / 128 fp32 scales + the rope part in bf16
        { layers = L, kv_heads = 1, k_dim = r_kv + dr, v_dim = 0, mla = true, fp8_bytes = r_kv + r_kv // 128 * 4 + 2 * dr,
          expanded_heads = nh, expanded_k_dim = dn + dr, expanded_v_dim = dv },
        { layers = L, kv_heads = 1, k_dim = ixd, v_dim = 0, bytes = ixd + ixd // 128 * 4,
          expanded_heads = 1, expanded_k_dim = ixd, expanded_v_dim = 0 },
      } or { { layers = L, kv_heads = 1, k_dim = r_kv + dr, v_dim = 0, mla = true,
               expanded_heads = nh, expanded_k_dim = dn + dr, expanded_v_dim = dv } },
      block = nn.moe_norm({ q_dim = qd, kv_dim = nh * (dn + dr), ffn_dim = (k + shared) * EI, expert_ffn = EI, gated = true,
                            norm = "rms", experts = E, experts_per_tok = k, parallel_residual = false,
                            dense_ffn = moe_L < L and I or nil }, cfg),
    }
  end,
}
