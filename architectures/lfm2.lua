-- lfm2.lua: Liquid AI LFM2 (Lfm2ForCausalLM; llama.cpp arch "lfm2"): a decoder whose layers are
-- each either a gated short convolution or GQA attention (layer_types "conv" / "full_attention",
-- or the older full_attn_idxs), every one followed by a SwiGLU feed-forward (w1, w3, w2).
-- Short conv (Lfm2ShortConv): in_proj {3h, h} (gates B, C and the value), a depthwise conv
-- {h, 1, conv_L_cache}, out_proj {h, h}, biases with conv_bias. Attention: q/k/v/out_proj without
-- bias, q_layernorm / k_layernorm over head_dim, RoPE. Norms: operator_norm, ffn_norm and the
-- final model.embedding_norm; tied embedding (tie_embedding / tie_word_embeddings).
-- The feed-forward width (Lfm2MLP): intermediate_size (block_ff_dim in the older configs); with
-- block_auto_adjust_ff_dim int(2 x width / 3), then, when block_ffn_dim_multiplier is set,
-- int(multiplier x width) rounded up to block_multiple_of (LFM2-1.2B: 12288 -> 8192).
-- Shapes: transformers models/lfm2/modeling_lfm2.py. A conv layer caches per sequence (kind
-- "mamba", all of it a conv window) (conv_L_cache - 1) x hidden elements: vLLM's ShortConv state
-- (mamba_utils short_conv_state_shape), llama.cpp's r_l (n_embd_r; no s_l: n_embd_s 0).
local nn = require "nn"

local function ffn_width(cfg)
  local w = nn.int(cfg, "block_ff_dim", nil) or nn.need(cfg, "intermediate_size")
  if nn.flag(cfg, "block_auto_adjust_ff_dim", true) then
    w = 2 * w // 3
    local m = cfg.block_ffn_dim_multiplier
    if type(m) == "number" then
      w = math.floor(m * w)
      local mult = nn.int(cfg, "block_multiple_of", 256)
      w = mult * ((w + mult - 1) // mult)
    end
  end
  return w
end

return arch {
  name        = "lfm2",
  summary     = "Liquid AI LFM2 hybrid decoder (gated short-conv + GQA attention layers)",
  model_types = { "lfm2" },
  build = function(cfg)
    local h, nh = nn.need(cfg, "hidden_size"), nn.need_any(cfg, { "num_attention_heads", "num_heads" })
    local L, V = nn.need(cfg, "num_hidden_layers"), nn.need(cfg, "vocab_size")
    local nkv = nn.int(cfg, "num_key_value_heads", nh)
    local d = nn.head_dim(cfg, h, nh)
    local attn = {}
    local lt = cfg.layer_types
    if type(lt) == "table" then
      if #lt ~= L then error(("config: field 'layer_types' has %d entries, expected %d"):format(#lt, L), 0) end
      for i, k in ipairs(lt) do
        if k == "full_attention" then attn[i - 1] = true
        elseif k ~= "conv" then error(("config: unknown layer type '%s' in 'layer_types' (entry %d)"):format(tostring(k), i), 0) end
      end
    elseif type(cfg.full_attn_idxs) == "table" then
      for j, i in ipairs(cfg.full_attn_idxs) do
        if math.type(i) ~= "integer" or i < 0 or i >= L then
          error(("config: field 'full_attn_idxs' entry %d must be a layer index 0 to %d, got %s"):format(j, L - 1, tostring(i)), 0)
        end
        attn[i] = true
      end
    else
      error("config: missing field 'layer_types' (or 'full_attn_idxs')", 0)
    end
    local na = nn.count_layers(L, function(i) return attn[i] == true end)
    local nc = L - na
    local I = ffn_width(cfg)
    local tied = nn.flag(cfg, "tie_embedding", nn.flag(cfg, "tie_word_embeddings", true))
    local K = nn.int(cfg, "conv_L_cache", 3)
    local cb = nn.flag(cfg, "conv_bias", false)

    local t, lp = {}, "model.layers.*"
    local ao = { count = na, role = "attn" }
    nn.linear(t, lp .. ".self_attn.q_proj", nh * d, h, ao)
    nn.linear(t, lp .. ".self_attn.k_proj", nkv * d, h, ao)
    nn.linear(t, lp .. ".self_attn.v_proj", nkv * d, h, ao)
    nn.linear(t, lp .. ".self_attn.out_proj", h, nh * d, ao)
    nn.norm(t, lp .. ".self_attn.q_layernorm", d, { count = na })
    nn.norm(t, lp .. ".self_attn.k_layernorm", d, { count = na })
    local co = { count = nc, role = "attn", bias = cb }
    nn.linear(t, lp .. ".conv.in_proj", 3 * h, h, co)
    nn.param(t, lp .. ".conv.conv.weight", { h, 1, K }, { count = nc, role = "attn" })
    if cb then nn.param(t, lp .. ".conv.conv.bias", { h }, { count = nc, role = "attn" }) end
    nn.linear(t, lp .. ".conv.out_proj", h, h, co)
    nn.gated_mlp(t, lp .. ".feed_forward", { hidden = h, width = I, count = L, names = { "w1", "w3", "w2" } })
    nn.norm(t, lp .. ".operator_norm", h, { count = L })
    nn.norm(t, lp .. ".ffn_norm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm = "model.embedding_norm" })

    local kv = { { layers = na, kv_heads = nkv, k_dim = d, v_dim = d } }
    local conv_state = (K - 1) * h
    -- layer_ids: the conv layers, whose place llama.cpp's graph follows (src/models/lfm2.cpp)
    local ids = {}
    for i = 0, L - 1 do if not attn[i] then ids[#ids + 1] = i end end
    if nc > 0 then kv[2] = { layers = nc, kind = "mamba", state_elems = conv_state, conv_elems = conv_state, layer_ids = ids } end
    local dims = { h = h, L = L, V = V, I = I, nh = nh, nkv = nkv, d = d }
    return nn.decoder_desc("lfm2", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv,
      block = nn.rms_block(nh, nkv, d, I) })
  end,
}
