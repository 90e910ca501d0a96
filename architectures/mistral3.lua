-- mistral3.lua: Mistral Small 3.1/3.2 (Mistral3ForConditionalGeneration): a Mistral decoder, the
-- Pixtral vision encoder (RMSNorm, SwiGLU, 2D RoPE, no biases) and a projector that merges
-- spatial_merge_size^2 patches before two linears into the text width.
-- Shapes: transformers models/mistral3/modeling_mistral3.py, models/pixtral/modeling_pixtral.py.
local nn = require "nn"

local function vision(t, vc, cfg, text_hidden)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers")
  local I, p = nn.need(vc, "intermediate_size"), nn.need(vc, "patch_size")
  local ch = nn.int(vc, "num_channels", 3)
  local merge = nn.int(cfg, "spatial_merge_size", 2)
  local bias = nn.flag(cfg, "multimodal_projector_bias", false)
  local lp = "vision_tower.transformer.layers.*"
  nn.param(t, "vision_tower.patch_conv.weight", { h, ch, p, p })
  nn.norm(t, "vision_tower.ln_pre", h)
  for _, n in ipairs { "q_proj", "k_proj", "v_proj", "o_proj" } do
    nn.linear(t, lp .. ".attention." .. n, h, h, { count = L })
  end
  nn.gated_mlp(t, lp .. ".feed_forward", { hidden = h, width = I, count = L })
  nn.norm(t, lp .. ".attention_norm", h, { count = L })
  nn.norm(t, lp .. ".ffn_norm", h, { count = L })
  nn.norm(t, "multi_modal_projector.norm", h)
  nn.linear(t, "multi_modal_projector.patch_merger.merging_layer", h, h * merge * merge, { role = "mlp" })
  nn.linear(t, "multi_modal_projector.linear_1", text_hidden, h, { bias = bias, role = "mlp" })
  nn.linear(t, "multi_modal_projector.linear_2", text_hidden, text_hidden, { bias = bias, role = "mlp" })
end

return arch {
  name        = "mistral3",
  summary     = "Mistral Small 3.1 (Mistral decoder + Pixtral vision encoder)",
  model_types = { "mistral3" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or error("config: missing field 'text_config'", 0)
    local dims = nn.decoder_dims(tc)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(tc, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(tc, "tie_word_embeddings", false)
    local lm, lp = "language_model.model", "language_model.model.layers.*"

    local t = {}
    nn.llama_layers(t, lp, { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I, count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = lm .. ".embed_tokens", norm = lm .. ".norm",
               head = "language_model.lm_head" })
    vision(t, nn.sub(cfg, "vision_config") or error("config: missing field 'vision_config'", 0), cfg, h)
    local w = nn.int(tc, "sliding_window", nil)
    return nn.decoder_desc("mistral3", tc, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, w and function() return w end), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
