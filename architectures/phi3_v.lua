-- phi3_v.lua: Phi-3-vision / Phi-3.5-vision (Phi3VForCausalLM, model_type phi3_v; trust_remote_code
-- modeling_phi3_v.py, vllm/model_executor/models/phi3v.py): the Phi-3-mini decoder (fused qkv_proj and
-- gate_up_proj, built by llama.lua as phi3 from the flat config) and model.vision_embed_tokens
-- (Phi3ImageEmbedding): img_processor, a whole CLIP ViT-L/14-336 (CLIPVisionModel with the
-- clip-vit-large-patch14-336 shapes the module hard-codes: hidden 1024, 24 layers, 4096, patch 14, image
-- 336; nn.clip_tower under img_processor.vision_model), the HD transform's learned separators glb_GN
-- {1, 1, 4 x 1024} and sub_GN {1, 1, 1, 4 x 1024} (2 x 2 patches concatenated), and img_projection, a
-- biased Linear {hidden, 4 x 1024}, GELU, a biased Linear {hidden, hidden} (projection_cls "mlp" with
-- use_hd_transform). The image embedding shares the decoder's embed_tokens (no weight of its own).
local nn = require "nn"

-- openai/clip-vit-large-patch14-336 (modeling_phi3_v.py CLIP_VIT_LARGE_PATCH14_336_CONFIG)
local CLIP_L336 = { hidden_size = 1024, intermediate_size = 4096, num_hidden_layers = 24, patch_size = 14,
                    image_size = 336 }

return arch {
  name        = "phi3_v",
  summary     = "Phi-3-vision / Phi-3.5-vision (Phi-3-mini decoder + CLIP ViT-L/14-336 with HD-transform separators + 2-layer MLP projection)",
  model_types = { "phi3_v" },
  build = function(cfg)
    local ip = nn.sub(cfg, "img_processor")
    if not ip then error("config: missing field 'img_processor'", 0) end
    local dim = nn.int(ip, "image_dim_out", 1024)
    if dim ~= CLIP_L336.hidden_size then
      error(("config: field 'img_processor.image_dim_out' %d is not CLIP ViT-L/14-336's 1024 (the only tower Phi3ImageEmbedding builds)"):format(dim), 0)
    end
    local el = nn.sub(cfg, "embd_layer") or {}
    if nn.opt(el, "projection_cls", "mlp") ~= "mlp" or el.use_hd_transform == false then
      error("config: field 'embd_layer' other than projection_cls \"mlp\" with use_hd_transform is not modelled", 0)
    end
    local c = {}
    for k, v in pairs(cfg) do c[k] = v end
    c.model_type = "phi3"
    local desc = require("architectures.llama").build(c)
    local t = desc.tensors
    local pre = "model.vision_embed_tokens"
    local vh = nn.clip_tower(t, CLIP_L336, pre .. ".img_processor.vision_model")
    nn.param(t, pre .. ".glb_GN", { 1, 1, 4 * vh })
    nn.param(t, pre .. ".sub_GN", { 1, 1, 1, 4 * vh })
    nn.linear(t, pre .. ".img_projection.0", desc.hidden, 4 * vh, { role = "mlp", bias = true })
    nn.linear(t, pre .. ".img_projection.2", desc.hidden, desc.hidden, { role = "mlp", bias = true })
    desc.arch = "phi3_v"
    return desc
  end,
}
