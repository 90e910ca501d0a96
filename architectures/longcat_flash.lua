-- longcat_flash.lua: Meituan LongCat-Flash (LongcatFlashForCausalLM, model_type longcat_flash:
-- LongCat-Flash-Chat / -Thinking). Shapes from transformers models/longcat_flash/modular_longcat_flash.py
-- (LongcatFlashDecoderLayer, LongcatFlashMLA, LongcatFlashMoE) and vLLM model_executor/models/
-- longcat_flash.py (FlashDecoderLayer, LongcatRouter). Each of the num_layers layers holds:
-- - two MLA attention blocks, self_attn.0 / self_attn.1 (DeepSeek-V3's q_a_proj + q_a_layernorm +
--   q_b_proj, kv_a_proj_with_mqa + kv_a_layernorm + kv_b_proj, o_proj; the mla_scale_q_lora /
--   mla_scale_kv_lora factors multiply activations only), each with its own cache: 2 x num_layers
--   MLA layers (transformers sets num_hidden_layers = 2 x num_layers for its cache; vLLM builds a
--   DeepseekV2MLAAttention per block);
-- - two dense SwiGLU MLPs mlps.0 / mlps.1 of ffn_hidden_size, input_layernorm.0/1 and
--   post_attention_layernorm.0/1;
-- - one shortcut-connected MoE (mlp): fed from the first block's post-attention norm and added after
--   the second block. Its router mlp.router.classifier {n_routed_experts + zero_expert_num, h}
--   (bias per router_bias) and e_score_correction_bias {same} score all experts, the zero-computation
--   experts included; those are identities and hold no weights: only n_routed_experts experts
--   mlp.experts.N gate/up/down_proj of expert_ffn_hidden_size are stored. The router is kept in
--   router_dtype (vLLM's LongcatRouter params_dtype: float32 when config.router_dtype is "float32").
-- model.embed_tokens, model.norm, untied lm_head; the MTP module (model.mtp.*, which transformers
-- ignores on load) excluded. A token takes top moe_topk of the E + Z experts, some of them zero
-- experts: the routed FFN width per token is at most moe_topk x expert_ffn_hidden_size.
local nn = require "nn"

return arch {
  name        = "longcat_flash",
  summary     = "Meituan LongCat-Flash: two MLA blocks and two dense MLPs a layer, a shortcut MoE with zero-computation experts",
  model_types = { "longcat_flash" },
  build = function(cfg)
    local h, L = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "num_attention_heads")
    local I, EI = nn.need(cfg, "ffn_hidden_size"), nn.need(cfg, "expert_ffn_hidden_size")
    local r_q, r_kv = nn.int(cfg, "q_lora_rank", nil), nn.need(cfg, "kv_lora_rank")
    local dn, dr = nn.need(cfg, "qk_nope_head_dim"), nn.need(cfg, "qk_rope_head_dim")
    local dv = nn.need(cfg, "v_head_dim")
    local E, k = nn.need(cfg, "n_routed_experts"), nn.need(cfg, "moe_topk")
    local Z = nn.count(cfg, "zero_expert_num", 0)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local router_fp32 = nn.opt(cfg, "router_dtype", "float32") == "float32"

    -- The description's layers are the 2 x num_layers attention blocks, as the caches count them:
    -- block 2i + b is layer i's self_attn.b with mlps.b and its two norms (layer_ids); the MoE sits
    -- at block 2i, where its input is taken (the `*` in the names stays the checkpoint's layer i)
    local t, lp = {}, "model.layers.*"
    local A = 2 * L
    for b = 0, 1 do
      local from = #t + 1
      local ap = lp .. ".self_attn." .. b
      nn.mla_proj(t, ap, { hidden = h, heads = nh, q_lora = r_q, kv_lora = r_kv, nope = dn, rope = dr, v = dv, count = L })
      nn.gated_mlp(t, lp .. ".mlps." .. b, { hidden = h, width = I, count = L })
      nn.norm(t, lp .. ".input_layernorm." .. b, h, { count = L })
      nn.norm(t, lp .. ".post_attention_layernorm." .. b, h, { count = L })
      nn.place(t, from, nn.layer_list(A, function(i) return i % 2 == b end))
    end
    local moe_from = #t + 1
    local ro = { count = L, role = "router", dtype = router_fp32 and "fp32" or nil }
    nn.param(t, lp .. ".mlp.router.classifier.weight", { E + Z, h }, ro)
    if nn.flag(cfg, "router_bias", false) then nn.param(t, lp .. ".mlp.router.classifier.bias", { E + Z }, ro) end
    nn.param(t, lp .. ".mlp.router.e_score_correction_bias", { E + Z }, ro)
    nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = EI, count = L * E, role = "expert" })
    nn.place(t, moe_from, nn.layer_list(A, function(i) return i % 2 == 0 end))
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    return {
      arch = "longcat_flash", family = "decoder",
      -- the description's layers are the attention blocks, as the caches count them
      hidden = h, layers = A, vocab = V, heads = nh, kv_heads = nn.int(cfg, "num_key_value_heads", nh),
      head_dim = dn + dr, intermediate = I,
      max_position = nn.int(cfg, "max_position_embeddings", nil),
      rotary_dim = dr,
      tied_embeddings = tied,
      tensors = t,
      -- MLA: one latent per token and attention block; transformers' expanded layout as DeepSeek-V3's
      kv = { { layers = A, kv_heads = 1, k_dim = r_kv + dr, v_dim = 0, mla = true,
               expanded_heads = nh, expanded_k_dim = dn + dr, expanded_v_dim = dv } },
      block = { q_dim = nh * (dn + dr), kv_dim = nh * (dn + dr), ffn_dim = k * EI, expert_ffn = EI, gated = true,
                norm = "rms", experts = E, experts_per_tok = k, parallel_residual = false,
                moe_norm = false, moe_scaled = (cfg.routed_scaling_factor or 1) ~= 1, dense_ffn = I },
    }
  end,
}
