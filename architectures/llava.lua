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
-- LLaVA-OneVision (LlavaOnevisionForConditionalGeneration, llava_onevision) has LLaVA-NeXT's
-- modules over a SigLIP tower (SiglipVisionModel: biased patch convolution, (image_size //
-- patch)^2 positions and no class token, biased q/k/v/out_proj, GELU fc1 / fc2, layer_norm1 /
-- layer_norm2, post_layernorm, and the attention-pooling head only with vision_use_head, which
-- the llava-hf conversion turns off) and a Qwen2 decoder; Granite Vision is a llava_next config
-- with this tower. Shapes: transformers models/llava_onevision/modeling_llava_onevision.py,
-- convert_llava_onevision_weights_to_hf.py (26 SigLIP layers "drop the last layer", no head,
-- the same pre-4.52 names, Qwen2's vocabulary + 2 padded to a multiple of 64).
local nn = require "nn"

-- CLIPVisionConfig's defaults that LlavaConfig substitutes when vision_config is absent
-- (configuration_llava.py: hidden 1024, intermediate 4096, 24 layers, patch 14, image 336).
local CLIP_DEFAULTS = { hidden_size = 1024, intermediate_size = 4096, num_hidden_layers = 24,
                        patch_size = 14, image_size = 336 }

-- LlavaOnevisionConfig's vision_config when none is given (configuration_llava_onevision.py:
-- SigLIP-so400m-patch14-384 with 26 layers and no head)
local OV_SIGLIP = { model_type = "siglip_vision_model", hidden_size = 1152, intermediate_size = 4304,
                    num_hidden_layers = 26, patch_size = 14, image_size = 384, vision_use_head = false }

-- The CLIP vision tower under vision_tower.vision_model (CLIPVisionTransformer: nn.clip_tower).
local function clip_tower(t, vc) return nn.clip_tower(t, vc, "vision_tower.vision_model") end

-- SiglipVisionConfig's defaults (configuration_siglip.py: hidden 768, intermediate 3072, 12 layers,
-- image 224, patch 16, vision_use_head true)
local SIGLIP_DEFAULTS = { hidden_size = 768, intermediate_size = 3072, num_hidden_layers = 12,
                          patch_size = 16, image_size = 224 }

-- The SigLIP tower under vision_tower.vision_model (SiglipVisionTransformer) and, with
-- vision_use_head, its attention-pooling head (SiglipMultiheadAttentionPoolingHead: probe, a
-- torch MultiheadAttention with a packed in_proj, a LayerNorm, a GELU fc1 / fc2).
local function siglip_tower(t, vc)
  local pre = "vision_tower.vision_model"
  local h = nn.siglip_tower(t, vc, pre, true)
  if nn.flag(vc, "vision_use_head", true) then
    local I = nn.need(vc, "intermediate_size")
    nn.param(t, pre .. ".head.probe", { 1, 1, h })
    nn.param(t, pre .. ".head.attention.in_proj_weight", { 3 * h, h }, { role = "other" })
    nn.param(t, pre .. ".head.attention.in_proj_bias", { 3 * h }, { role = "other" })
    nn.linear(t, pre .. ".head.attention.out_proj", h, h, { role = "other", bias = true })
    nn.norm(t, pre .. ".head.layernorm", h, { bias = true })
    nn.linear(t, pre .. ".head.mlp.fc1", I, h, { role = "other", bias = true })
    nn.linear(t, pre .. ".head.mlp.fc2", h, I, { role = "other", bias = true })
  end
  return h
end

return arch {
  name        = "llava",
  summary     = "LLaVA-1.5 / LLaVA-NeXT / LLaVA-OneVision (CLIP or SigLIP tower + 2-layer MLP projector + Llama / Mistral / Qwen2 decoder)",
  model_types = { "llava", "llava_next", "llava_onevision" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or error("config: missing field 'text_config'", 0)
    -- LlavaConfig builds a text_config without model_type as "llama"; its fields left out take
    -- the config class's defaults (nn.text_defaults)
    -- (LlavaOnevisionConfig: as "qwen2")
    local c, mt = nn.text_defaults(tc, cfg.model_type == "llava_onevision" and "qwen2" or "llama")
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

    -- LlavaOnevisionConfig builds a vision_config without model_type as "siglip_vision_model" with
    -- SigLIP-so400m's shapes; LlavaConfig / LlavaNextConfig as "clip_vision_model"
    local ov = cfg.model_type == "llava_onevision"
    local vraw = nn.sub(cfg, "vision_config")
    local vt = nn.opt(vraw or {}, "model_type", ov and "siglip_vision_model" or "clip_vision_model")
    local vh
    if vt == "clip_vision_model" then
      vh = clip_tower(t, nn.filled(vraw or {}, CLIP_DEFAULTS))
    elseif vt == "siglip_vision_model" then
      vh = siglip_tower(t, nn.filled(vraw or (ov and OV_SIGLIP) or {}, SIGLIP_DEFAULTS))
    else
      error(("config: field 'vision_config.model_type' %q is not supported (clip_vision_model, siglip_vision_model)")
        :format(tostring(vt)), 0)
    end
    -- vision_feature_layer: one layer index, or a list whose states are concatenated
    local fl = nn.opt(cfg, "vision_feature_layer", ov and -1 or -2)
    local layers = type(fl) == "table" and #fl or 1
    if layers == 0 then error("config: field 'vision_feature_layer' is an empty list", 0) end
    local h = desc.hidden
    local bias = nn.flag(cfg, "multimodal_projector_bias", true)
    nn.linear(t, "multi_modal_projector.linear_1", h, vh * layers, { bias = bias, role = "mlp" })
    nn.linear(t, "multi_modal_projector.linear_2", h, h, { bias = bias, role = "mlp" })
    if cfg.model_type == "llava_next" or ov then nn.param(t, "image_newline", { h }) end

    desc.tensors = t
    desc.arch = "llava"
    return desc
  end,
}
