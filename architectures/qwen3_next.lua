-- qwen3_next.lua: Qwen3-Next hybrid decoder: gated DeltaNet (linear attention) layers and
-- gated full-attention layers (query and output gate, q/k norm), 3:1 by default
-- (full_attention_interval 4), every layer a sparse MoE with a gated shared expert.
-- A DeltaNet layer caches a fixed-size state per sequence (kind "mamba"): the causal conv
-- window (kernel - 1) x (2 key dims + value dim) and the recurrent state
-- value heads x key head dim x value head dim (vLLM GatedDeltaNet get_state_shape); conv_elems
-- names the conv part (SGLang keeps it in bf16 and the recurrent state in fp32).
-- Shapes: transformers models/qwen3_next/modeling_qwen3_next.py; the checkpoint's mtp.*
-- (multi-token prediction) weights are not loaded by transformers and not listed here.
local nn = require "nn"

local function linear_attention(t, lp, cfg, h, n)
  local nk, nv = nn.need(cfg, "linear_num_key_heads"), nn.need(cfg, "linear_num_value_heads")
  local dk, dv = nn.need(cfg, "linear_key_head_dim"), nn.need(cfg, "linear_value_head_dim")
  local conv = nn.need(cfg, "linear_conv_kernel_dim")
  local key, value = nk * dk, nv * dv
  local o = { count = n, role = "attn" }
  nn.linear(t, lp .. ".linear_attn.in_proj_qkvz", 2 * key + 2 * value, h, o)
  nn.linear(t, lp .. ".linear_attn.in_proj_ba", 2 * nv, h, o)
  nn.param(t, lp .. ".linear_attn.conv1d.weight", { 2 * key + value, 1, conv }, o)
  nn.param(t, lp .. ".linear_attn.dt_bias", { nv }, o)
  nn.param(t, lp .. ".linear_attn.A_log", { nv }, o)
  nn.norm(t, lp .. ".linear_attn.norm", dv, { count = n })
  nn.linear(t, lp .. ".linear_attn.out_proj", h, value, o)
  return (conv - 1) * (2 * key + value) + nv * dk * dv, (conv - 1) * (2 * key + value)
end

return arch {
  name        = "qwen3_next",
  summary     = "Qwen3-Next hybrid MoE decoder (gated DeltaNet + gated attention)",
  model_types = { "qwen3_next" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local E, k = nn.need(cfg, "num_experts"), nn.need(cfg, "num_experts_per_tok")
    local EI, SI = nn.need(cfg, "moe_intermediate_size"), nn.count(cfg, "shared_expert_intermediate_size", 0)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local interval = nn.int(cfg, "full_attention_interval", 4)
    local full_of = function(i) return (i + 1) % interval == 0 end
    local lt = cfg.layer_types
    if type(lt) == "table" then
      if #lt ~= L then error(("config: field 'layer_types' has %d entries, expected %d"):format(#lt, L), 0) end
      full_of = function(i) return lt[i + 1] == "full_attention" end
    end
    local nfull = nn.count_layers(L, full_of)
    local step, only = nn.int(cfg, "decoder_sparse_step", 1), {}
    for _, i in ipairs(nn.opt(cfg, "mlp_only_layers", {})) do only[i] = true end
    local moe_L = nn.count_layers(L, function(i) return not only[i] and (i + 1) % step == 0 end)

    local t, lp = {}, "model.layers.*"
    -- gated attention: q_proj carries the query and its output gate
    nn.linear(t, lp .. ".self_attn.q_proj", 2 * nh * d, h, { count = nfull })
    nn.linear(t, lp .. ".self_attn.k_proj", nkv * d, h, { count = nfull })
    nn.linear(t, lp .. ".self_attn.v_proj", nkv * d, h, { count = nfull })
    nn.linear(t, lp .. ".self_attn.o_proj", h, nh * d, { count = nfull })
    nn.norm(t, lp .. ".self_attn.q_norm", d, { count = nfull })
    nn.norm(t, lp .. ".self_attn.k_norm", d, { count = nfull })
    local state, conv_state = linear_attention(t, lp, cfg, h, L - nfull)
    nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = EI, count = moe_L * E, role = "expert" })
    nn.linear(t, lp .. ".mlp.gate", E, h, { count = moe_L, role = "router" })
    if SI > 0 then
      nn.gated_mlp(t, lp .. ".mlp.shared_expert", { hidden = h, width = SI, count = moe_L, role = "shared_expert" })
      nn.linear(t, lp .. ".mlp.shared_expert_gate", 1, h, { count = moe_L, role = "router" })
    end
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = nn.need(cfg, "intermediate_size"), count = L - moe_L })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    local kv = { { layers = nfull, kv_heads = nkv, k_dim = d, v_dim = d } }
    if L > nfull then kv[2] = { layers = L - nfull, kind = "mamba", state_elems = state, conv_elems = conv_state } end
    return {
      arch = "qwen3_next", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nkv, head_dim = d,
      intermediate = moe_L < L and nn.need(cfg, "intermediate_size") or 0,
      max_position = nn.int(cfg, "max_position_embeddings", nil),
      tied_embeddings = tied,
      tensors = t,
      kv = kv,
      block = nn.rms_block(nh, nkv, d, k * EI + SI, E, k),
    }
  end,
}
