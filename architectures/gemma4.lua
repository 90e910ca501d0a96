-- gemma4.lua: Gemma 4 (model_type "gemma4", Gemma4ForConditionalGeneration; "gemma4_text",
-- Gemma4ForCausalLM). Shapes from transformers models/gemma4/modeling_gemma4.py
-- (Gemma4TextAttention, Gemma4TextMLP, Gemma4TextRouter, Gemma4TextExperts, Gemma4TextDecoderLayer,
-- Gemma4TextModel, Gemma4VisionModel, Gemma4AudioModel, Gemma4MultimodalEmbedder; read at
-- huggingface/transformers 0246b4f3) and configuration_gemma4.py (008e5743); the published sizes
-- in convert_gemma4_weights.py _VARIANTS (0f3f0632). vLLM's loader: vllm/model_executor/models/
-- gemma4.py (001cabc1); llama.cpp's graph: src/models/gemma4-iswa.cpp (0a40e49d).
--
-- Text decoder, per layer_types (default: every 6th layer full_attention, the last one forced full):
--   * sliding layers: head_dim, num_key_value_heads, window sliding_window;
--   * full layers: global_head_dim (default 512; or the newer per_layer_config's head_dim) and, with
--     attention_k_eq_v, num_global_key_value_heads KV heads and no v_proj (the raw K projection is
--     reused as V, then v_norm'ed: both K and V are cached, so the cache is 2 x kv_heads x
--     global_head_dim per token all the same).
--   q_proj, q_norm {hd}, o_proj always; k_proj, k_norm {hd} and v_proj (not on k_eq_v layers) only on
--   the first L - num_kv_shared_layers layers: the last num_kv_shared_layers read the K/V of the last
--   earlier layer of their type and hold no cache (Gemma 3n's KV sharing; vLLM gemma4.py
--   kv_sharing_target_layer_name). v_norm has no weight. GeGLU MLP of intermediate_size, twice as wide
--   on the KV-shared layers with use_double_wide_mlp (E2B). Four RMSNorms and a persistent
--   layer_scalar {1} buffer per layer. With hidden_size_per_layer_input > 0 (E2B/E4B) the per-layer
--   embeddings (PLE): per_layer_input_gate {p, h}, per_layer_projection {h, p},
--   post_per_layer_input_norm {h} per layer; embed_tokens_per_layer {vocab_size_per_layer_input, L x p},
--   per_layer_model_projection {L x p, h}, per_layer_projection_norm {p}. With enable_moe_block
--   (26B-A4B) every layer keeps its dense MLP (intermediate_size: the "shared expert") and adds a
--   router (proj {E, h}, scale {h}, per_expert_scale {E}), fused experts gate_up_proj {E, 2 I_e, h},
--   down_proj {E, h, I_e} (moe_intermediate_size) and three more norms. Embedding tied to the LM head;
--   final_logit_softcapping changes no shape.
-- Vision tower (vision_config, "gemma4_vision"): patch_embedder.input_proj {h, 3 p^2}, a 2-axis
--   position table {2, position_embedding_size, h}, num_hidden_layers blocks (q/k/v/o and a GeGLU MLP
--   as Gemma4ClippableLinear ".linear", q/k norms {head_dim}, four norms), no pooling weights; with
--   use_clipped_linears each of the 7 linears keeps 4 scalar clip buffers (input/output min/max),
--   with standardize std_bias / std_scale {h} buffers; embed_vision.embedding_projection {text h, h}.
-- Audio tower (audio_config, "gemma4_audio", E2B/E4B): a 2-layer conv subsampler (conv 3x3 stride 2,
--   bias-free LayerNorm) and input_proj_linear, num_hidden_layers Conformer blocks (two macaron
--   FFNs h -> 4h -> h, chunked attention q/k/v/post + relative_k_proj + per_dim_scale, a light conv
--   block linear_start {2h, h} / depthwise conv {h, 1, k} / linear_end, norms), output_proj {out, h}
--   with bias; embed_audio.embedding_projection {text h, out}; clip buffers as the vision tower's.
local nn = require "nn"

-- The first full_attention override of the newer per_layer_config table (transformers' own config
-- writes {layer: {head_dim, num_key_value_heads}} for every full layer), or nil.
local function full_override(tc, full_of, L)
  local plc = tc.per_layer_config
  if plc ~= nil and type(plc) ~= "table" and type(plc) ~= "userdata" then
    error(("config: field 'per_layer_config' must be a table of layer overrides, got %s"):format(type(plc)), 0)
  end
  if type(plc) ~= "table" then return nil end
  local found
  for k, o in pairs(plc) do
    local i = math.tointeger(tonumber(k))
    if i and i >= 0 and i < L and full_of(i) and type(o) == "table" then
      if found and (found.head_dim ~= o.head_dim or found.num_key_value_heads ~= o.num_key_value_heads) then
        error("config: field 'per_layer_config' gives the full_attention layers different shapes", 0)
      end
      found = o
    end
  end
  return found
end

-- the scalar clip bounds of Gemma4ClippableLinear modules (use_clipped_linears: persistent buffers
-- input_min, input_max, output_min, output_max, stored in the checkpoint), `count` of each
local function clip_buffers(t, prefix, linears, count)
  for _, l in ipairs(linears) do
    for _, b in ipairs { "input_min", "input_max", "output_min", "output_max" } do
      nn.param(t, prefix .. "." .. l .. "." .. b, { 1 }, { count = count, buffer = true })
    end
  end
end

local function vision(t, vc, text_h)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers")
  local I, p = nn.need(vc, "intermediate_size"), nn.int(vc, "patch_size", 16)
  local nh = nn.need(vc, "num_attention_heads")
  local nkv, d = nn.int(vc, "num_key_value_heads", nh), nn.head_dim(vc, h, nh)
  local pre, lp = "model.vision_tower", "model.vision_tower.encoder.layers.*"
  local o = { count = L, role = "other" }
  nn.linear(t, pre .. ".patch_embedder.input_proj", h, 3 * p * p, { role = "other" })
  nn.param(t, pre .. ".patch_embedder.position_embedding_table",
    { 2, nn.int(vc, "position_embedding_size", 10240), h }, { role = "pos_embed" })
  nn.linear(t, lp .. ".self_attn.q_proj.linear", nh * d, h, o)
  nn.linear(t, lp .. ".self_attn.k_proj.linear", nkv * d, h, o)
  nn.linear(t, lp .. ".self_attn.v_proj.linear", nkv * d, h, o)
  nn.linear(t, lp .. ".self_attn.o_proj.linear", h, nh * d, o)
  nn.norm(t, lp .. ".self_attn.q_norm", d, { count = L })
  nn.norm(t, lp .. ".self_attn.k_norm", d, { count = L })
  nn.linear(t, lp .. ".mlp.gate_proj.linear", I, h, o)
  nn.linear(t, lp .. ".mlp.up_proj.linear", I, h, o)
  nn.linear(t, lp .. ".mlp.down_proj.linear", h, I, o)
  for _, n in ipairs { "input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                       "post_feedforward_layernorm" } do
    nn.norm(t, lp .. "." .. n, h, { count = L })
  end
  if nn.flag(vc, "use_clipped_linears", false) then
    clip_buffers(t, lp, { "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                          "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj" }, L)
  end
  if nn.flag(vc, "standardize", false) then
    nn.param(t, pre .. ".std_bias", { h }, { buffer = true })
    nn.param(t, pre .. ".std_scale", { h }, { buffer = true })
  end
  nn.linear(t, "model.embed_vision.embedding_projection", text_h, h, { role = "other" })
end

local function audio(t, ac, text_h)
  local h, L = nn.int(ac, "hidden_size", 1024), nn.int(ac, "num_hidden_layers", 12)
  local nh = nn.int(ac, "num_attention_heads", 8)
  local d = nn.div(h, nh, "audio hidden_size / num_attention_heads")
  local ch = nn.opt(ac, "subsampling_conv_channels", { 128, 32 })
  if type(ch) ~= "table" or #ch ~= 2 then
    error("config: field 'audio_config.subsampling_conv_channels' must list 2 integers", 0)
  end
  local c0, c1 = nn.int({ c = ch[1] }, "c"), nn.int({ c = ch[2] }, "c")
  local k, out = nn.int(ac, "conv_kernel_size", 5), nn.int(ac, "output_proj_dims", 1536)
  local pre, lp = "model.audio_tower", "model.audio_tower.layers.*"
  local o = { count = L, role = "other" }
  local sp = pre .. ".subsample_conv_projection"
  nn.param(t, sp .. ".layer0.conv.weight", { c0, 1, 3, 3 })
  nn.norm(t, sp .. ".layer0.norm", c0)
  nn.param(t, sp .. ".layer1.conv.weight", { c1, c0, 3, 3 })
  nn.norm(t, sp .. ".layer1.norm", c1)
  nn.linear(t, sp .. ".input_proj_linear", h, (c0 // 4) * c1, { role = "other" })
  for _, ff in ipairs { "feed_forward1", "feed_forward2" } do
    nn.linear(t, lp .. "." .. ff .. ".ffw_layer_1.linear", 4 * h, h, o)
    nn.linear(t, lp .. "." .. ff .. ".ffw_layer_2.linear", h, 4 * h, o)
    nn.norm(t, lp .. "." .. ff .. ".pre_layer_norm", h, { count = L })
    nn.norm(t, lp .. "." .. ff .. ".post_layer_norm", h, { count = L })
  end
  for _, n in ipairs { "q_proj", "k_proj", "v_proj", "post" } do
    nn.linear(t, lp .. ".self_attn." .. n .. ".linear", h, h, o)
  end
  nn.linear(t, lp .. ".self_attn.relative_k_proj", h, h, o)
  nn.param(t, lp .. ".self_attn.per_dim_scale", { d }, { count = L })
  nn.linear(t, lp .. ".lconv1d.linear_start.linear", 2 * h, h, o)
  nn.linear(t, lp .. ".lconv1d.linear_end.linear", h, h, o)
  nn.param(t, lp .. ".lconv1d.depthwise_conv1d.weight", { h, 1, k }, { count = L })
  nn.norm(t, lp .. ".lconv1d.pre_layer_norm", h, { count = L })
  nn.norm(t, lp .. ".lconv1d.conv_norm", h, { count = L })
  for _, n in ipairs { "norm_pre_attn", "norm_post_attn", "norm_out" } do nn.norm(t, lp .. "." .. n, h, { count = L }) end
  if nn.flag(ac, "use_clipped_linears", true) then
    clip_buffers(t, lp, { "feed_forward1.ffw_layer_1", "feed_forward1.ffw_layer_2", "feed_forward2.ffw_layer_1",
                          "feed_forward2.ffw_layer_2", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                          "self_attn.post", "lconv1d.linear_start", "lconv1d.linear_end" }, L)
  end
  nn.linear(t, pre .. ".output_proj", out, h, { role = "other", bias = true })
  nn.linear(t, "model.embed_audio.embedding_projection", text_h, out, { role = "other" })
end

return arch {
  name        = "gemma4",
  summary     = "Gemma 4 decoder (sliding/global head dims, K=V globals, KV sharing, PLE, MoE) + vision / audio towers",
  model_types = { "gemma4", "gemma4_text" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or cfg
    local mm = tc ~= cfg
    local dims = nn.decoder_dims(tc)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(tc, "intermediate_size")
    local lm = mm and "model.language_model" or "model"
    local lp = lm .. ".layers.*"

    -- layer kinds (Gemma4TextConfig.__post_init__: default 5 sliding : 1 full, last layer full)
    local lt = tc.layer_types
    local full_of
    -- a layer_types that is not a list (nor null) is refused, not read as absent: the default
    -- 5 : 1 pattern would silently size the wrong layers
    if lt ~= nil and type(lt) ~= "table" and type(lt) ~= "userdata" then
      error(("config: field 'layer_types' must be a list of sliding_attention / full_attention, got %s"):format(type(lt)), 0)
    end
    if type(lt) == "table" then
      nn.layer_types(tc, L, 1)  -- length and names checked
      full_of = function(i) return i == L - 1 or lt[i + 1] == "full_attention" end
    else
      full_of = function(i) return i == L - 1 or (i + 1) % 6 == 0 end
    end
    local w = nn.int(tc, "sliding_window", 512)
    local shared = nn.count(tc, "num_kv_shared_layers", 0)
    if shared >= L then error("config: field 'num_kv_shared_layers' must be below num_hidden_layers", 0) end
    local first_shared = L - shared
    local k_eq_v = nn.flag(tc, "attention_k_eq_v", false)
    local ov = full_override(tc, full_of, L)
    local dg = ov and nn.int(ov, "head_dim", nil) or nn.int(tc, "global_head_dim", 512)
    local nkv_g = nkv
    if ov and ov.num_key_value_heads ~= nil then
      nkv_g = nn.int(ov, "num_key_value_heads", nkv)
    elseif k_eq_v then
      nkv_g = nn.int(tc, "num_global_key_value_heads", nkv)
    end
    local bias = nn.flag(tc, "attention_bias", false)
    local double = nn.flag(tc, "use_double_wide_mlp", false)

    -- attention per (kind, owns K/V): its own tensor groups, placed at their layers; names stay
    -- unique with a tag after self_attn (as gemma3n.lua tags its MLP widths)
    local t = {}
    for _, kind in ipairs { { full = false }, { full = true } } do
      local hd = kind.full and dg or d
      local kvh = kind.full and nkv_g or nkv
      local alt = kind.full and k_eq_v
      for _, own in ipairs { true, false } do
        local ids = nn.layer_list(L, function(i) return full_of(i) == kind.full and (i < first_shared) == own end)
        if #ids > 0 then
          local from, o = #t + 1, { count = #ids, role = "attn", bias = bias }
          local tag = (kind.full and "global" or "") .. (own and "" or (kind.full and "-shared" or "shared"))
          local a = lp .. ".self_attn" .. (tag ~= "" and ("[" .. tag .. "]") or "")
          nn.linear(t, a .. ".q_proj", nh * hd, h, o)
          nn.norm(t, a .. ".q_norm", hd, { count = #ids })
          if own then
            nn.linear(t, a .. ".k_proj", kvh * hd, h, o)
            if not alt then nn.linear(t, a .. ".v_proj", kvh * hd, h, o) end
            nn.norm(t, a .. ".k_norm", hd, { count = #ids })
          end
          nn.linear(t, a .. ".o_proj", h, nh * hd, o)
          nn.place(t, from, ids)
        end
      end
    end
    -- MLP: double width on the KV-shared layers with use_double_wide_mlp (Gemma4TextMLP)
    local wide = double and shared > 0 and shared or 0
    local from = #t + 1
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L - wide })
    if wide > 0 then
      nn.place(t, from, nn.layer_list(L, function(i) return i < first_shared end))
      from = #t + 1
      nn.gated_mlp(t, lp .. ".mlp[w" .. 2 * I .. "]", { hidden = h, width = 2 * I, count = wide })
      nn.place(t, from, nn.layer_list(L, function(i) return i >= first_shared end))
    end
    for _, n in ipairs { "input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                         "post_feedforward_layernorm" } do
      nn.norm(t, lp .. "." .. n, h, { count = L })
    end
    nn.param(t, lp .. ".layer_scalar", { 1 }, { count = L, buffer = true })

    local moe = nn.flag(tc, "enable_moe_block", false)
    local E, k, EI = 0, 0, 0
    if moe then
      E, k = nn.need(tc, "num_experts"), nn.need(tc, "top_k_experts")
      EI = nn.need(tc, "moe_intermediate_size")
      nn.linear(t, lp .. ".router.proj", E, h, { count = L, role = "router" })
      nn.param(t, lp .. ".router.scale", { h }, { count = L, role = "router" })
      nn.param(t, lp .. ".router.per_expert_scale", { E }, { count = L, role = "router" })
      local x = { count = L * E, role = "expert", layout = "out_in" }
      nn.param(t, lp .. ".experts.gate_up_proj", { 2 * EI, h }, x)
      nn.param(t, lp .. ".experts.down_proj", { h, EI }, x)
      for _, n in ipairs { "post_feedforward_layernorm_1", "post_feedforward_layernorm_2", "pre_feedforward_layernorm_2" } do
        nn.norm(t, lp .. "." .. n, h, { count = L })
      end
    end

    local p = nn.count(tc, "hidden_size_per_layer_input", 0)
    if p > 0 then
      nn.linear(t, lp .. ".per_layer_input_gate", p, h, { count = L, role = "mlp" })
      nn.linear(t, lp .. ".per_layer_projection", h, p, { count = L, role = "mlp" })
      nn.norm(t, lp .. ".post_per_layer_input_norm", h, { count = L })
      -- a second lookup table (role other: not the token embedding the LM head is tied to)
      nn.param(t, lm .. ".embed_tokens_per_layer.weight", { nn.int(tc, "vocab_size_per_layer_input", V), L * p })
      nn.linear(t, lm .. ".per_layer_model_projection", L * p, h, { role = "other" })
      nn.norm(t, lm .. ".per_layer_projection_norm", p)
    end
    nn.lm(t, { vocab = V, hidden = h, tied = true, embed = lm .. ".embed_tokens", norm = lm .. ".norm" })

    if mm then
      local vc, ac = nn.sub(cfg, "vision_config"), nn.sub(cfg, "audio_config")
      if vc then vision(t, vc, h) end
      if ac then audio(t, ac, h) end
    end

    -- KV cache: the layers that own their K/V, by kind. Sliding: nkv x head_dim, windowed; full:
    -- nkv_g x global_head_dim (K and V both cached on k_eq_v layers).
    local n_full = nn.count_layers(first_shared, full_of)
    local kv = {}
    if n_full > 0 then kv[#kv + 1] = { layers = n_full, kv_heads = nkv_g, k_dim = dg, v_dim = dg } end
    if first_shared - n_full > 0 then
      kv[#kv + 1] = { layers = first_shared - n_full, kv_heads = nkv, k_dim = d, v_dim = d, window = w }
    end

    -- RoPE: two get_rope caches (vLLM gemma4.py Gemma4Attention: per-layer-type rope_parameters),
    -- max_position rows each: the sliding layers' d wide, the full layers' proportional RoPE dg
    -- wide whatever its partial_rotary_factor (vllm rotary_embedding/gemma4_rope.py
    -- Gemma4RotaryEmbedding passes rotary_dim = head_size to RotaryEmbedding and zero-pads the
    -- non-rotated angles' inv_freq, so the cos/sin cache spans the whole global head). The
    -- description's cache is rows x rotary_dim (d): max_position x (d + dg) / d rows. Hold-out
    -- round 21: gemma-4-E4B-it on vLLM 0.22.1 printed "Model loading took 15.18 GiB", 0.24 GiB over
    -- the parameters and a 2 x max_position x d cache; this adds max_position x (dg - d) x 2 B,
    -- 64 MiB at 131,072 positions (128 MiB for the 26B / 31B at 262,144).
    local rows = nn.rope_rows(tc)
    if rows then rows = rows * (d + dg) // d end
    local block = nn.rms_block(nh, nkv, d, moe and (I + k * EI) or I, moe and E or 0, moe and k or 0,
      moe and EI or nil)
    -- the dense MLP (intermediate_size) runs beside the routed experts on every MoE layer: vLLM's
    -- Gemma4DecoderLayer calls its Gemma4MLP and a plain FusedMoE (gemma4.py imports no
    -- SharedFusedMoE), so it is no shared expert for the runtimes' per-layer costs
    if moe then block.moe_norm = true; block.dense_ffn = nil; block.moe_dense_beside = true end
    dims.I = I
    return nn.decoder_desc("gemma4", tc, dims, { tied_embeddings = true, tensors = t, kv = kv,
      kv_shared_layers = shared > 0 and shared or nil, rope_rows = rows, block = block })
  end,
}
