-- afmoe.lua: Arcee AFMoE (AfmoeForCausalLM, model_type afmoe: Trinity-Nano, Trinity-Mini). Shapes from
-- transformers models/afmoe/modular_afmoe.py (AfmoeAttention, AfmoeDecoderLayer, AfmoeMoE) and vLLM
-- model_executor/models/afmoe.py:
-- - attention: GQA q/k/v/o_proj without bias (AfmoeConfig sets attention_bias False), per-head RMS
--   q_norm / k_norm {head_dim}, and an output gate self_attn.gate_proj {heads x head_dim, h} (the
--   attention output times sigmoid(gate_proj(x)) before o_proj); RoPE on the sliding layers only
--   (global layers are NoPE); layer_types, else every global_attn_every_n_layers-th layer global
--   ((i + 1) % n == 0) and the rest sliding_window wide;
-- - four RMSNorms a layer: input_layernorm, post_attention_layernorm, pre_mlp_layernorm,
--   post_mlp_layernorm (transformers keeps them in fp32 by _keep_in_fp32_modules: not modelled, the
--   checkpoint's dtype is counted);
-- - the first num_dense_layers layers a SwiGLU mlp of intermediate_size; the others a MoE:
--   mlp.router.gate {experts, h} (sigmoid scores, top num_experts_per_tok by score + expert_bias,
--   renormalized under route_norm, times route_scale), num_shared_experts fused into
--   mlp.shared_experts (moe_intermediate_size x num_shared_experts wide), mlp.experts.N
--   gate/up/down_proj of moe_intermediate_size, and mlp.expert_bias {experts} in fp32;
-- - model.embed_tokens, model.norm, untied lm_head per tie_word_embeddings (default false).
-- mup_enabled scales the input embedding by sqrt(hidden): no tensor.
local nn = require "nn"

local function windows(cfg, L)
  local w = nn.need(cfg, "sliding_window")
  local lt = nn.layer_types(cfg, L, w)
  if lt then return lt end
  local n = nn.int(cfg, "global_attn_every_n_layers", 4)
  return function(i) return (i + 1) % n ~= 0 and w or false end
end

return arch {
  name        = "afmoe",
  summary     = "Arcee AFMoE (Trinity): gated q/k-norm GQA, 3:1 sliding / global NoPE layers, sigmoid MoE with a shared expert",
  model_types = { "afmoe" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I, EI = nn.need(cfg, "intermediate_size"), nn.need(cfg, "moe_intermediate_size")
    local E, k = nn.need(cfg, "num_experts"), nn.need(cfg, "num_experts_per_tok")
    local shared = nn.count(cfg, "num_shared_experts", 0)
    local dense = nn.count(cfg, "num_dense_layers", 0)
    if dense > L then
      error(("config: field 'num_dense_layers' (%d) exceeds num_hidden_layers (%d)"):format(dense, L), 0)
    end
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local moe_L = L - dense
    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qk_norm = true })
    nn.linear(t, lp .. ".self_attn.gate_proj", nh * d, h, { count = L, role = "attn" })
    -- dense layers first, routed experts and routers in the last (the engine's default placement)
    if dense > 0 then nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = dense }) end
    if moe_L > 0 then
      nn.param(t, lp .. ".mlp.router.gate.weight", { E, h }, { count = moe_L, role = "router" })
      if shared > 0 then
        nn.gated_mlp(t, lp .. ".mlp.shared_experts", { hidden = h, width = shared * EI, count = moe_L,
          role = "shared_expert" })
      end
      nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = h, width = EI, count = moe_L * E, role = "expert" })
      nn.router_bias(t, lp .. ".mlp.expert_bias", E, moe_L, true)
    end
    for _, n in ipairs { "input_layernorm", "post_attention_layernorm", "pre_mlp_layernorm", "post_mlp_layernorm" } do
      nn.norm(t, lp .. "." .. n, h, { count = L })
    end
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    local block = nn.rms_block(nh, nkv, d, k * EI + shared * EI, moe_L > 0 and E or 0, moe_L > 0 and k or 0,
      shared > 0 and EI or nil)
    block.dense_ffn = dense > 0 and moe_L > 0 and I or nil
    block.moe_norm = moe_L > 0 and cfg.route_norm ~= false or nil
    local scale = cfg.route_scale
    block.moe_scaled = moe_L > 0 and type(scale) == "number" and scale ~= 1 or nil
    if moe_L == 0 then block.ffn_dim = I end
    -- layer_ids: each group's layers, so a runtime reads the pattern's period from where the full
    -- layers sit (5 layers of the 3:1 pattern: full at 3, period 4), not from the counts (5 / 1)
    local win = windows(cfg, L)
    local kv = nn.kv_groups(L, nkv, d, d, win)
    for _, g in ipairs(kv) do
      g.layer_ids = nn.layer_list(L, function(i) return (win(i) or nil) == g.window end)
    end
    return nn.decoder_desc("afmoe", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv, block = block })
  end,
}
