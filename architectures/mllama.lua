-- mllama.lua: Llama 3.2 Vision (MllamaForConditionalGeneration): a Llama 3.1 decoder with
-- gated cross-attention layers (cross_attention_layers) that attend to the image tokens,
-- and a two-stage ViT (local + gated global layers, tile and aspect-ratio embeddings).
-- Cross-attention layers cache K/V of the image tokens, not of the text (kind "cross":
-- max_num_tiles x ((image_size / patch_size)^2 + 1) tokens per image).
-- Shapes: transformers models/mllama/modeling_mllama.py (embed_tokens has vocab + 8 rows).
local nn = require "nn"

local function vision_layers(t, lp, h, I, L, gated)
  local o = { count = L, role = "attn" }
  for _, n in ipairs { "q_proj", "k_proj", "v_proj", "o_proj" } do nn.linear(t, lp .. ".self_attn." .. n, h, h, o) end
  nn.linear(t, lp .. ".mlp.fc1", I, h, { count = L, bias = true, role = "mlp" })
  nn.linear(t, lp .. ".mlp.fc2", h, I, { count = L, bias = true, role = "mlp" })
  nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
  nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true })
  if gated then
    nn.param(t, lp .. ".gate_attn", { 1 }, { count = L })
    nn.param(t, lp .. ".gate_ffn", { 1 }, { count = L })
  end
end

local function vision(t, vc, text_hidden)
  local h, I = nn.need(vc, "hidden_size"), nn.need(vc, "intermediate_size")
  local p, ch = nn.need(vc, "patch_size"), nn.int(vc, "num_channels", 3)
  local side = nn.div(nn.need(vc, "image_size"), p, "image_size / patch_size")
  local patches, tiles = side * side + 1, nn.need(vc, "max_num_tiles")
  local ratios = #nn.opt(vc, "supported_aspect_ratios", {}) + 1  -- max_aspect_ratio_id + 1
  local pre = "vision_model"
  nn.param(t, pre .. ".patch_embedding.weight", { h, ch, p, p })
  nn.param(t, pre .. ".class_embedding", { h })
  nn.param(t, pre .. ".gated_positional_embedding.embedding", { patches, h }, { role = "pos_embed" })
  nn.param(t, pre .. ".gated_positional_embedding.gate", { 1 })
  nn.embed(t, pre .. ".gated_positional_embedding.tile_embedding", ratios, tiles * patches * h, { role = "pos_embed" })
  for _, n in ipairs { "pre_tile_positional_embedding", "post_tile_positional_embedding" } do
    nn.embed(t, pre .. "." .. n .. ".embedding", ratios, tiles * h, { role = "pos_embed" })
    nn.param(t, pre .. "." .. n .. ".gate", { 1 })
  end
  nn.norm(t, pre .. ".layernorm_pre", h, { bias = true })
  nn.norm(t, pre .. ".layernorm_post", h, { bias = true })
  vision_layers(t, pre .. ".transformer.layers.*", h, I, nn.need(vc, "num_hidden_layers"), false)
  vision_layers(t, pre .. ".global_transformer.layers.*", h, I, nn.need(vc, "num_global_layers"), true)
  nn.linear(t, "multi_modal_projector", text_hidden, nn.need(vc, "vision_output_dim"), { bias = true, role = "other" })
  return tiles * patches
end

return arch {
  name        = "mllama",
  summary     = "Llama 3.2 Vision (decoder with image cross-attention layers + ViT)",
  model_types = { "mllama" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or error("config: missing field 'text_config'", 0)
    local dims = nn.decoder_dims(tc)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(tc, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(tc, "tie_word_embeddings", false)
    local cross = #nn.opt(tc, "cross_attention_layers", {})
    local selfL, lp = L - cross, "language_model.model.layers.*"

    local t = {}
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = selfL })
    nn.attention(t, lp .. ".cross_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = cross,
      qk_norm = true })
    nn.param(t, lp .. ".cross_attn_attn_gate", { 1 }, { count = cross })
    nn.param(t, lp .. ".cross_attn_mlp_gate", { 1 }, { count = cross })
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.embed(t, "language_model.model.embed_tokens", V + 8, h)
    nn.norm(t, "language_model.model.norm", h)
    if not tied then nn.linear(t, "language_model.lm_head", V, h, { role = "lm_head" }) end
    local image_tokens = vision(t, nn.sub(cfg, "vision_config") or error("config: missing field 'vision_config'", 0), h)

    local kv = { { layers = selfL, kv_heads = nkv, k_dim = d, v_dim = d } }
    if cross > 0 then
      kv[2] = { layers = cross, kv_heads = nkv, k_dim = d, v_dim = d, kind = "cross", tokens = image_tokens }
    end
    return nn.decoder_desc("mllama", tc, dims, { tied_embeddings = tied, tensors = t, kv = kv,
      block = nn.rms_block(nh, nkv, d, I) })
  end,
}
