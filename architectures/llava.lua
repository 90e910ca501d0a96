-- llava.lua: LLaVA-1.5 (LlavaForConditionalGeneration, model_type llava) and LLaVA-NeXT / 1.6
-- (LlavaNextForConditionalGeneration, llava_next): a CLIP vision tower (CLIPVisionModel: class
-- token, bias-free patch convolution, learned positions, pre-LayerNorm, biased attention and GELU
-- MLP, post-LayerNorm), a two-layer GELU projector (linear_1 {text hidden, vision hidden x
-- feature layers}, linear_2 {text hidden, text hidden}, biased per multimodal_projector_bias,
-- default true) and a Llama / Mistral / Qwen2 decoder built by llama.lua from text_config.
-- LLaVA-NeXT adds `image_newline` {text hidden}, the row separator of its anyres tiles.
-- Shapes: transformers models/llava/modeling_llava.py (LlavaMultiModalProjector),
-- models/llava_next/modeling_llava_next.py, models/clip/modeling_clip.py. The llava-hf
-- checkpoints store the pre-4.52 names: language_model.model.*, language_model.lm_head,
-- vision_tower.vision_model.*, multi_modal_projector.*, image_newline.
-- The checkpoint holds every tower layer and the post-LayerNorm (transformers builds the whole
-- CLIPVisionModel and reads hidden_states[vision_feature_layer]); vLLM builds only the layers up
-- to vision_feature_layer (-2: 23 of 24) without the post-LayerNorm (llava.py
-- init_vision_tower_for_llava), which is not modelled (12.6 M parameters, 0.2% of 7B).
local nn = require "nn"

-- CLIPVisionConfig's defaults that LlavaConfig substitutes when vision_config is absent
-- (configuration_llava.py: hidden 1024, intermediate 4096, 24 layers, patch 14, image 336).
local CLIP_DEFAULTS = { hidden_size = 1024, intermediate_size = 4096, num_hidden_layers = 24,
                        patch_size = 14, image_size = 336 }

-- The CLIP vision tower under vision_tower.vision_model (CLIPVisionTransformer).
local function clip_tower(t, vc)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers")
  local I, p = nn.need(vc, "intermediate_size"), nn.need(vc, "patch_size")
  local side = nn.div(nn.need(vc, "image_size"), p, "vision_config.image_size / patch_size")
  local ch = nn.int(vc, "num_channels", 3)
  local pre, lp = "vision_tower.vision_model", "vision_tower.vision_model.encoder.layers.*"
  nn.param(t, pre .. ".embeddings.class_embedding", { h })
  nn.param(t, pre .. ".embeddings.patch_embedding.weight", { h, ch, p, p })
  nn.embed(t, pre .. ".embeddings.position_embedding", side * side + 1, h, { role = "pos_embed" })
  nn.norm(t, pre .. ".pre_layrnorm", h, { bias = true })
  nn.vit_layers(t, lp, h, I, L)
  nn.norm(t, pre .. ".post_layernorm", h, { bias = true })
  return h
end

return arch {
  name        = "llava",
  summary     = "LLaVA-1.5 / LLaVA-NeXT (CLIP tower + 2-layer MLP projector + Llama / Mistral / Qwen2 decoder)",
  model_types = { "llava", "llava_next" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or error("config: missing field 'text_config'", 0)
    -- LlavaConfig builds a text_config without model_type as "llama"; its fields left out take
    -- the config class's defaults (nn.text_defaults)
    local c, mt = nn.text_defaults(tc, "llama")
    if not c then
      error(("config: field 'text_config.model_type' %q is not supported (llama, mistral, qwen2)"):format(tostring(mt)), 0)
    end
    c.tie_word_embeddings = nn.flag(cfg, "tie_word_embeddings", nn.flag(tc, "tie_word_embeddings", false))
    local desc = require("architectures.llama").build(c)
    local t = {}
    for _, x in ipairs(desc.tensors) do
      x.name = x.name:gsub("^model%.", "language_model.model."):gsub("^lm_head%.", "language_model.lm_head.")
      t[#t + 1] = x
    end

    local vc = nn.filled(nn.sub(cfg, "vision_config") or {}, CLIP_DEFAULTS)
    local vt = nn.opt(vc, "model_type", "clip_vision_model")
    if vt ~= "clip_vision_model" then
      error(("config: field 'vision_config.model_type' %q is not supported (clip_vision_model)"):format(tostring(vt)), 0)
    end
    local vh = clip_tower(t, vc)
    -- vision_feature_layer: one layer index, or a list whose states are concatenated
    local fl = nn.opt(cfg, "vision_feature_layer", -2)
    local layers = type(fl) == "table" and #fl or 1
    if layers == 0 then error("config: field 'vision_feature_layer' is an empty list", 0) end
    local h = desc.hidden
    local bias = nn.flag(cfg, "multimodal_projector_bias", true)
    nn.linear(t, "multi_modal_projector.linear_1", h, vh * layers, { bias = bias, role = "mlp" })
    nn.linear(t, "multi_modal_projector.linear_2", h, h, { bias = bias, role = "mlp" })
    if cfg.model_type == "llava_next" then nn.param(t, "image_newline", { h }) end

    desc.tensors = t
    desc.arch = "llava"
    return desc
  end,
}
