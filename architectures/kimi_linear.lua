-- kimi_linear.lua: Moonshot Kimi Linear (KimiLinearForCausalLM, model_type kimi_linear:
-- moonshotai/Kimi-Linear-48B-A3B-Instruct / -Base): a hybrid of Kimi Delta Attention (KDA, a
-- gated-DeltaNet-style linear attention with a per-channel decay) and multi-head latent attention
-- (MLA) layers, with a DeepSeekMoE feed-forward (the first first_k_dense_replace layers dense).
-- linear_attn_config names the layers, 1-based: kda_layers and full_attn_layers (the MLA ones;
-- vllm/transformers_utils/configs/kimi_linear.py is_kda_layer: layer_idx + 1 in kda_layers).
-- Shapes: vllm/model_executor/layers/kda.py KimiDeltaAttention (q/k/v_proj {H d, h}, f_a_proj
-- {d, h} + f_b_proj {H d, d} (decay gate), dt_bias {H d}, b_proj {H, h} (beta), q/k/v_conv1d
-- {H d, 1, kernel}, A_log {H}, g_a_proj {d, h} + g_b_proj {H d, d} (output gate), o_norm {d},
-- o_proj {h, H d}) and vllm/model_executor/models/kimi_linear.py (KimiMLAAttention: q_lora_rank
-- None, so q_proj {heads x (nope + rope), h}; kv_a_proj_with_mqa {kv_lora + rope, h},
-- kv_a_layernorm, kv_b_proj, o_proj; mla_use_nope: no rotary embedding; KimiMoE: gate {E, h} with
-- e_score_correction_bias, experts w1/w3/w2 of moe_intermediate_size, shared_experts of
-- num_shared_experts x moe_intermediate_size; KimiMLP gate/up/down for the dense layers).
-- State of a KDA layer (vllm mamba_utils.py kda_state_shape / kda_state_dtype): three conv windows
-- (q, k, v) of (kernel - 1) x H d in mamba_cache_dtype, and the recurrent state H x d x d, always
-- float32. llama.cpp arch "kimi-linear".
local nn = require "nn"

local function layer_set(lac, key, L)
  local v = lac[key]
  if v == nil then return nil end
  if type(v) ~= "table" then error(("config: field 'linear_attn_config.%s' must be a list of layer numbers"):format(key), 0) end
  local s = {}
  for _, i in ipairs(v) do
    if math.type(i) ~= "integer" and not (type(i) == "number" and i == math.floor(i)) or i < 1 or i > L then
      error(("config: 'linear_attn_config.%s' holds %s, not a layer number 1..%d"):format(key, tostring(i), L), 0)
    end
    s[math.tointeger(i)] = true
  end
  return s
end

return arch {
  name        = "kimi_linear",
  summary     = "Kimi Linear hybrid (Kimi Delta Attention + MLA layers, DeepSeekMoE)",
  model_types = { "kimi_linear" },
  build = function(cfg)
    local h, L = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "num_attention_heads")
    local I, EI = nn.need(cfg, "intermediate_size"), nn.need(cfg, "moe_intermediate_size")
    if cfg.q_lora_rank ~= nil and type(cfg.q_lora_rank) ~= "userdata" then
      error("config: field 'q_lora_rank' must be null (Kimi Linear's MLA has no query compression)", 0)
    end
    local r_kv = nn.need(cfg, "kv_lora_rank")
    local dn, dr, dv = nn.need(cfg, "qk_nope_head_dim"), nn.count(cfg, "qk_rope_head_dim", 0), nn.need(cfg, "v_head_dim")
    local E, k = nn.need(cfg, "num_experts"), nn.need(cfg, "num_experts_per_token")
    local shared = nn.count(cfg, "num_shared_experts", 0)
    local first_dense = nn.count(cfg, "first_k_dense_replace", 0)
    local freq = nn.int(cfg, "moe_layer_freq", 1)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local lac = nn.sub(cfg, "linear_attn_config")
    local H, d = nn.need(lac, "num_heads"), nn.need(lac, "head_dim")
    local K = nn.need(lac, "short_conv_kernel_size")
    local kda, full = layer_set(lac, "kda_layers", L), layer_set(lac, "full_attn_layers", L)
    if not full then error("config: field 'linear_attn_config.full_attn_layers' is missing", 0) end
    kda = kda or {}
    if not lac.kda_layers then for i = 1, L do if not full[i] then kda[i] = true end end end
    for i = 1, L do
      if (kda[i] and 1 or 0) + (full[i] and 1 or 0) ~= 1 then
        error(("config: layer %d is in %s of linear_attn_config's kda_layers and full_attn_layers"):format(
          i, kda[i] and "both" or "neither"), 0)
      end
    end
    local kda_ids = nn.layer_list(L, function(i) return kda[i + 1] end)
    local mla_ids = nn.layer_list(L, function(i) return full[i + 1] end)
    local nk, nm = #kda_ids, #mla_ids
    local moe_L = nn.count_layers(L, function(i) return i >= first_dense and i % freq == 0 end)

    local t, lp = {}, "model.layers.*"
    local P, sa = H * d, lp .. ".self_attn"
    -- KDA layers
    local from, a = #t + 1, { count = nk, role = "attn" }
    for _, n in ipairs { "q_proj", "k_proj", "v_proj" } do nn.linear(t, sa .. "." .. n, P, h, a) end
    nn.linear(t, sa .. ".f_a_proj", d, h, a)
    nn.linear(t, sa .. ".f_b_proj", P, d, a)
    nn.param(t, sa .. ".dt_bias", { P }, a)
    nn.linear(t, sa .. ".b_proj", H, h, a)
    for _, n in ipairs { "q_conv1d", "k_conv1d", "v_conv1d" } do nn.param(t, sa .. "." .. n .. ".weight", { P, 1, K }, a) end
    nn.param(t, sa .. ".A_log", { 1, 1, H, 1 }, a)
    nn.linear(t, sa .. ".g_a_proj", d, h, a)
    nn.linear(t, sa .. ".g_b_proj", P, d, a)
    nn.norm(t, sa .. ".o_norm", d, { count = nk })
    nn.linear(t, sa .. ".o_proj", h, P, a)
    nn.place(t, from, kda_ids)
    -- MLA layers
    from = #t + 1
    local qd = nh * (dn + dr)
    nn.mla_proj(t, sa, { hidden = h, heads = nh, kv_lora = r_kv, nope = dn, rope = dr, v = dv, count = nm })
    nn.place(t, from, mla_ids)
    -- feed-forward: dense layers, then the MoE ones
    local mp = lp .. ".block_sparse_moe"
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L - moe_L })
    nn.linear(t, mp .. ".gate", E, h, { count = moe_L, role = "router" })
    nn.router_bias(t, mp .. ".gate.e_score_correction_bias", E, moe_L, true)
    nn.gated_mlp(t, mp .. ".experts.*", { hidden = h, width = EI, count = moe_L * E, role = "expert",
                                          names = { "w1", "w3", "w2" } })
    if shared > 0 then
      nn.gated_mlp(t, mp .. ".shared_experts", { hidden = h, width = shared * EI, count = moe_L, role = "shared_expert" })
    end
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    local kv = {}
    -- MLA caches one latent (kv_lora_rank) + the rope key part per token and layer
    if nm > 0 then kv[#kv + 1] = { layers = nm, kv_heads = 1, k_dim = r_kv + dr, v_dim = 0, mla = true } end
    if nk > 0 then
      local conv = 3 * (K - 1) * P
      kv[#kv + 1] = { layers = nk, kind = "mamba", state_elems = conv + H * d * d, conv_elems = conv }
    end
    local block = nn.moe_norm({ q_dim = qd, kv_dim = nh * (dn + dr), ffn_dim = (k + shared) * EI, expert_ffn = EI,
                                gated = true, norm = "rms", experts = E, experts_per_tok = k, parallel_residual = false,
                                dense_ffn = moe_L < L and I or nil }, cfg)
    block.moe_norm = cfg.moe_renormalize ~= false   -- Kimi's name for norm_topk_prob (KimiMoE renormalize)
    return {
      arch = "kimi_linear", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nn.int(cfg, "num_key_value_heads", nh),
      head_dim = dn + dr, intermediate = I,
      max_position = nn.int(cfg, "max_position_embeddings", nil) or nn.int(cfg, "model_max_length", nil),
      -- mla_use_nope: the MLA layers build no rotary embedding (KimiMLAAttention rotary_emb=None)
      rotary_dim = dr, rope_rows = 0,
      tied_embeddings = tied,
      tensors = t,
      kv = kv,
      block = block,
    }
  end,
}
