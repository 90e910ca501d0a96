-- bamba.lua: IBM Bamba (transformers BambaForCausalLM, model_type bamba: Bamba-9B, -v2): a decoder
-- whose layers are Mamba-2 mixers except the attn_layer_indices ones (GQA attention, RoPE), every
-- layer followed by a SwiGLU feed_forward (gate_proj / up_proj / down_proj); input_layernorm,
-- pre_ff_layernorm, model.final_layernorm. The mixer is Granite 4.0's (nn.mamba2_mixer: d_inner =
-- mamba_expand x hidden, in_proj 2 d_inner + 2 groups x d_state + heads, conv1d with
-- mamba_conv_bias, dt_bias / A_log / D, gated RMSNorm, out_proj with mamba_proj_bias); a Mamba layer
-- caches per sequence (kind "mamba") its conv window and SSM state.
-- Shapes: transformers models/bamba/modeling_bamba.py (BambaMixer, BambaDecoderLayer); llama.cpp
-- converts it as "granitehybrid" (convert_hf_to_gguf.py GraniteHybridModel registers
-- BambaForCausalLM; src/llama-arch.cpp LLM_ARCH_GRANITE_HYBRID).
local nn = require "nn"

return arch {
  name        = "bamba",
  summary     = "IBM Bamba hybrid decoder (Mamba-2 layers + attention at attn_layer_indices, SwiGLU in every layer)",
  model_types = { "bamba" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local attn = {}
    local ids = nn.opt(cfg, "attn_layer_indices", {})
    if type(ids) ~= "table" then error("config: field 'attn_layer_indices' must be a list of layer indices", 0) end
    for _, i in ipairs(ids) do
      if math.type(i) ~= "integer" or i < 0 or i >= L then
        error(("config: 'attn_layer_indices' entry %s is not a layer index below %d"):format(tostring(i), L), 0)
      end
      attn[i] = true
    end
    local n_attn = nn.count_layers(L, function(i) return attn[i] == true end)
    local n_mamba = L - n_attn
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local t, lp = {}, "model.layers.*"
    local ab = nn.flag(cfg, "attention_bias", false)
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = n_attn,
      qkv_bias = ab, o_bias = ab })
    nn.place(t, 1, nn.layer_list(L, function(i) return attn[i] == true end))
    local kv = {}
    if n_attn > 0 then kv[1] = { layers = n_attn, kv_heads = nkv, k_dim = d, v_dim = d } end
    if n_mamba > 0 then
      local from = #t + 1
      local state, conv = nn.mamba2_mixer(t, lp .. ".mamba", {
        hidden = h, d_inner = nn.int(cfg, "mamba_expand", 2) * h, heads = nn.need(cfg, "mamba_n_heads"),
        head_dim = nn.need(cfg, "mamba_d_head"), groups = nn.int(cfg, "mamba_n_groups", 1),
        state = nn.need(cfg, "mamba_d_state"), conv = nn.int(cfg, "mamba_d_conv", 4), count = n_mamba,
        conv_bias = nn.flag(cfg, "mamba_conv_bias", true), proj_bias = nn.flag(cfg, "mamba_proj_bias", false) })
      nn.place(t, from, nn.layer_list(L, function(i) return attn[i] ~= true end))
      kv[#kv + 1] = { layers = n_mamba, kind = "mamba", state_elems = state, conv_elems = conv }
    end
    nn.gated_mlp(t, lp .. ".feed_forward", { hidden = h, width = I, count = L, bias = nn.flag(cfg, "mlp_bias", false) })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".pre_ff_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm = "model.final_layernorm" })
    return nn.decoder_desc("bamba", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv,
      block = nn.rms_block(nh, nkv, d, I) })
  end,
}
