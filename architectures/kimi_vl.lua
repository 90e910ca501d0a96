-- kimi_vl.lua: Moonshot Kimi-VL (KimiVLForConditionalGeneration, model_type kimi_vl: Kimi-VL-A3B-Instruct,
-- -Thinking, -Thinking-2506; trust_remote_code in transformers, vllm/model_executor/models/kimi_vl.py).
-- The text model is a DeepSeek-V3 MoE decoder (text_config, model_type deepseek_v3: MLA, DeepSeekMoE
-- with shared experts, first_k_dense_replace dense layers, noaux_tc routing bias), built by deepseek.lua
-- under language_model.model, its head language_model.lm_head. The vision tower is MoonViT
-- (vision_config, model_type moonvit; vllm/model_executor/models/moonvit.py MoonVitPretrainedModel):
-- vision_tower.patch_embed.proj, a biased Conv2d {h, 3, patch, patch}; patch_embed.pos_emb.weight, a
-- learned {init_pos_emb_height, init_pos_emb_width, h} table interpolated per image (2D RoPE in the
-- attention adds no weight); num_hidden_layers blocks under vision_tower.encoder.blocks.* of LayerNorms
-- norm0 / norm1 (with bias), fused wqkv {3h, h} and wo {h, h}, biased (attn_bias True), and a biased
-- GELU MLP fc0 {intermediate_size, h} / fc1 {h, intermediate_size}; vision_tower.encoder.final_layernorm.
-- The projector (kimi_vl.py KimiVLMultiModalProjector) takes merge_kernel_size (2 x 2) merged patches:
-- pre_norm, a LayerNorm over h, linear_1 {h m, h m} and linear_2 {text hidden, h m}, biased, m = the
-- kernel's area.
local nn = require "nn"

-- MoonViTConfig's defaults (the MoonViT-SO-400M tower of every Kimi-VL checkpoint:
-- moonshotai/MoonViT-SO-400M config.json, as public copies quote it)
local VISION_DEFAULTS = { hidden_size = 1152, num_hidden_layers = 27, num_attention_heads = 16,
                          intermediate_size = 4304, patch_size = 14, init_pos_emb_height = 64,
                          init_pos_emb_width = 64 }

local function tower(t, vc, text_hidden)
  local h, L, I = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers"), nn.need(vc, "intermediate_size")
  local p = nn.need(vc, "patch_size")
  nn.div(h, nn.need(vc, "num_attention_heads"), "vision_config.hidden_size / num_attention_heads")
  local mk = vc.merge_kernel_size == nil and { 2, 2 } or vc.merge_kernel_size
  if type(mk) ~= "table" or #mk ~= 2 or math.type(mk[1]) ~= "integer" or math.type(mk[2]) ~= "integer"
     or mk[1] < 1 or mk[2] < 1 then
    error("config: field 'vision_config.merge_kernel_size' must be a list of two positive integers", 0)
  end
  local pre, lp = "vision_tower", "vision_tower.encoder.blocks.*"
  nn.param(t, pre .. ".patch_embed.proj.weight", { h, 3, p, p })
  nn.param(t, pre .. ".patch_embed.proj.bias", { h })
  nn.param(t, pre .. ".patch_embed.pos_emb.weight",
    { nn.need(vc, "init_pos_emb_height"), nn.need(vc, "init_pos_emb_width"), h }, { role = "pos_embed" })
  nn.norm(t, lp .. ".norm0", h, { count = L, bias = true })
  nn.norm(t, lp .. ".norm1", h, { count = L, bias = true })
  nn.linear(t, lp .. ".wqkv", 3 * h, h, { count = L, role = "attn", bias = true })
  nn.linear(t, lp .. ".wo", h, h, { count = L, role = "attn", bias = true })
  nn.linear(t, lp .. ".mlp.fc0", I, h, { count = L, role = "mlp", bias = true })
  nn.linear(t, lp .. ".mlp.fc1", h, I, { count = L, role = "mlp", bias = true })
  nn.norm(t, pre .. ".encoder.final_layernorm", h, { bias = true })
  local hm = h * mk[1] * mk[2]
  nn.norm(t, "multi_modal_projector.pre_norm", h, { bias = true })
  nn.linear(t, "multi_modal_projector.linear_1", hm, hm, { role = "mlp", bias = true })
  nn.linear(t, "multi_modal_projector.linear_2", text_hidden, hm, { role = "mlp", bias = true })
end

return arch {
  name        = "kimi_vl",
  summary     = "Kimi-VL (DeepSeek-V3-style MoE decoder + MoonViT vision tower + 2x2 patch-merge projector)",
  model_types = { "kimi_vl" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config")
    if not tc then error("config: missing field 'text_config'", 0) end
    local c = {}
    for k, v in pairs(tc) do c[k] = v end
    -- KimiVLConfig builds a DeepseekV3Config from text_config whatever its model_type
    c.model_type = "deepseek_v3"
    local desc = require("architectures.deepseek").build(c)
    local t = {}
    for _, x in ipairs(desc.tensors) do
      if x.name:match("^lm_head%.") then x.name = "language_model." .. x.name
      else x.name = x.name:gsub("^model%.", "language_model.model.") end
      t[#t + 1] = x
    end
    tower(t, nn.filled(nn.sub(cfg, "vision_config") or {}, VISION_DEFAULTS), desc.hidden)
    desc.tensors = t
    desc.arch = "kimi_vl"
    return desc
  end,
}
