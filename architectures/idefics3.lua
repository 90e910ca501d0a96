-- idefics3.lua: Idefics3 (Idefics3ForConditionalGeneration, model_type idefics3: Idefics3-8B-Llama3,
-- SmolVLM-256M / 500M / 2B, SmolDocling) and SmolVLM2 (SmolVLMForConditionalGeneration, smolvlm):
-- a SigLIP-style tower under model.vision_model (Idefics3VisionTransformer: biased patch conv,
-- (image_size / patch)^2 learned positions without a class token, biased q/k/v/out_proj, LayerNorms
-- layer_norm1 / layer_norm2, GELU fc1 / fc2, post_layernorm), the connector (pixel shuffle of
-- scale_factor^2 patches, then model.connector.modality_projection.proj {text hidden, vision
-- hidden x scale_factor^2} without bias) and a Llama decoder under model.text_model, lm_head apart
-- unless tie_word_embeddings.
-- Shapes: transformers models/idefics3/modeling_idefics3.py, models/smolvlm/modeling_smolvlm.py
-- (the same modules renamed), configuration_idefics3.py (Idefics3VisionConfig defaults: hidden
-- 1152, intermediate 3072, 12 layers, image 224, patch 32; the text config is a LlamaConfig).
local nn = require "nn"

local VISION_DEFAULTS = { hidden_size = 1152, intermediate_size = 3072, num_hidden_layers = 12,
                          image_size = 224, patch_size = 32 }

local function tower(t, vc)
  return nn.siglip_tower(t, nn.filled(vc, VISION_DEFAULTS), "model.vision_model")
end

return arch {
  name        = "idefics3",
  summary     = "Idefics3 / SmolVLM / SmolVLM2 (SigLIP tower + pixel-shuffle connector + Llama decoder)",
  model_types = { "idefics3", "smolvlm" },
  build = function(cfg)
    -- Idefics3Config / SmolVLMConfig build a missing text_config as a LlamaConfig
    local c, mt = nn.text_defaults(nn.sub(cfg, "text_config") or {}, "llama")
    mt = c and c.model_type or mt
    if mt ~= "llama" then
      error(("config: field 'text_config.model_type' %q is not supported (llama)"):format(tostring(mt)), 0)
    end
    c.tie_word_embeddings = nn.flag(cfg, "tie_word_embeddings", nn.flag(c, "tie_word_embeddings", false))
    local desc = require("architectures.llama").build(c)
    local t = {}
    for _, x in ipairs(desc.tensors) do
      x.name = x.name:gsub("^model%.", "model.text_model.")
      t[#t + 1] = x
    end
    local vh, patches = tower(t, nn.sub(cfg, "vision_config") or {})
    local s = nn.int(cfg, "scale_factor", 2)
    if patches % (s * s) ~= 0 then
      error(("config: field 'scale_factor' %d does not divide the tower's %d patches into %d x %d groups"):format(s, patches, s, s), 0)
    end
    nn.linear(t, "model.connector.modality_projection.proj", desc.hidden, vh * s * s, { role = "mlp" })
    desc.tensors = t
    desc.arch = "idefics3"
    return desc
  end,
}
