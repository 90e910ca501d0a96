-- granitemoehybrid.lua: IBM Granite 4.0 (GraniteMoeHybridForCausalLM): a decoder whose layers are
-- each either a Mamba-2 mixer or GQA attention (config layer_types: "mamba" / "attention"; the
-- -H models have 4 attention layers of 40, granite-4.0-micro and the other dense models attention
-- only), followed in every layer by a fine-grained MoE (num_local_experts > 0: experts fused per
-- layer, block_sparse_moe.input_linear {E, 2I, h} and output_linear {E, h, I}, router.layer {E, h})
-- and always by a shared SwiGLU MLP (shared_mlp.input_linear {2S, h}, output_linear {h, S},
-- S = shared_intermediate_size). No biases (attention_bias, mamba_proj_bias false), conv1d bias
-- (mamba_conv_bias), tied embedding; the -H models use no positional encoding
-- (position_embedding_type "nope"), the dense ones RoPE.
-- Shapes: transformers models/granitemoehybrid/modeling_granitemoehybrid.py (GraniteMoeHybridMambaLayer:
-- d_inner = mamba_expand x hidden_size, in_proj d_inner + conv_dim + mamba_n_heads, conv_dim =
-- d_inner + 2 x mamba_n_groups x mamba_d_state; GraniteMoeHybridRMSNormGated over d_inner).
-- A Mamba layer caches per sequence (kind "mamba") its conv window and SSM state (nn.mamba2_mixer).
local nn = require "nn"

return arch {
  name        = "granitemoehybrid",
  summary     = "IBM Granite 4.0 hybrid decoder (Mamba-2 + attention layers; MoE or dense, shared MLP)",
  model_types = { "granitemoehybrid" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local lt = cfg.layer_types or cfg.layers_block_type
    if type(lt) ~= "table" then error("config: missing field 'layer_types'", 0) end
    if #lt ~= L then error(("config: field 'layer_types' has %d entries, expected %d"):format(#lt, L), 0) end
    local n_mamba = 0
    for i, k in ipairs(lt) do
      if k == "mamba" then n_mamba = n_mamba + 1
      elseif k ~= "attention" then error(("config: unknown layer type '%s' in 'layer_types' (entry %d)"):format(tostring(k), i), 0) end
    end
    local n_attn = L - n_mamba
    local E = nn.count(cfg, "num_local_experts", 0)
    local S = nn.need(cfg, "shared_intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", true)

    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = n_attn,
      qkv_bias = nn.flag(cfg, "attention_bias", false), o_bias = nn.flag(cfg, "attention_bias", false) })
    local kv = { { layers = n_attn, kv_heads = nkv, k_dim = d, v_dim = d } }
    if n_mamba > 0 then
      local state, conv = nn.mamba2_mixer(t, lp .. ".mamba", {
        hidden = h, d_inner = nn.int(cfg, "mamba_expand", 2) * h, heads = nn.need(cfg, "mamba_n_heads"),
        head_dim = nn.need(cfg, "mamba_d_head"), groups = nn.int(cfg, "mamba_n_groups", 1),
        state = nn.need(cfg, "mamba_d_state"), conv = nn.int(cfg, "mamba_d_conv", 4), count = n_mamba,
        conv_bias = nn.flag(cfg, "mamba_conv_bias", true), proj_bias = nn.flag(cfg, "mamba_proj_bias", false) })
      -- layer_ids: the Mamba layers, whose place llama.cpp's graph follows (granite-hybrid.cpp is_recr)
      local ids = {}
      for i, k2 in ipairs(lt) do if k2 == "mamba" then ids[#ids + 1] = i - 1 end end
      kv[2] = { layers = n_mamba, kind = "mamba", state_elems = state, conv_elems = conv, layer_ids = ids }
    end
    local k, I = 0, 0
    if E > 0 then
      k, I = nn.need(cfg, "num_experts_per_tok"), nn.need(cfg, "intermediate_size")
      local x = { count = L * E, role = "expert", layout = "out_in" }
      nn.param(t, lp .. ".block_sparse_moe.input_linear.weight", { 2 * I, h }, x)
      nn.param(t, lp .. ".block_sparse_moe.output_linear.weight", { h, I }, x)
      nn.linear(t, lp .. ".block_sparse_moe.router.layer", E, h, { count = L, role = "router" })
    end
    local sm = { count = L, role = E > 0 and "shared_expert" or "mlp" }
    nn.linear(t, lp .. ".shared_mlp.input_linear", 2 * S, h, sm)
    nn.linear(t, lp .. ".shared_mlp.output_linear", h, S, sm)
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    dims.I = E > 0 and 0 or S  -- the dense FFN width: the shared MLP when there are no experts
    local block = nn.rms_block(nh, nkv, d, k * I + S, E, k, I)
    -- position_embedding_type "nope" (the -H models): no RoPE, so llama.cpp builds no positions
    -- input (granite-hybrid.cpp: inp_pos only if hparams.has_rope)
    local nope = cfg.position_embedding_type == "nope"
    return nn.decoder_desc("granitemoehybrid", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv, block = block,
      rope_positions = nope and 0 or nil })
  end,
}
