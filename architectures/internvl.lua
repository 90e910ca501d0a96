-- internvl.lua: InternVL 2.5 / 3 / 3.5 in transformers' format (InternVLForConditionalGeneration,
-- model_type internvl: the OpenGVLab/*-hf checkpoints): the InternViT tower (InternVLVisionModel:
-- cls_token, biased patch convolution, learned positions, per layer q/k/v (biased per
-- attention_bias) + biased projection_layer, optional whole-width q/k RMSNorms (use_qk_norm: the
-- 6B tower), layernorm_before / layernorm_after (LayerNorm, or RMSNorm with norm_type rms_norm),
-- the layer scales lambda_1 / lambda_2, a GELU fc1 / fc2; a final LayerNorm only without
-- use_mean_pooling), the pixel-shuffle projector (InternVLMultiModalProjector: LayerNorm over
-- the shuffled width h x (1 / downsample_ratio)^2, linear_1 into the text width, GELU, linear_2)
-- and a Qwen2 / Qwen3 / Llama decoder built by llama.lua from text_config, or InternVL3.5's Qwen3-MoE
-- (moe.lua: 30B-A3B, 241B-A28B) and GPT-OSS (gpt_oss.lua: 20B-A4B) decoders.
-- Shapes: transformers models/internvl/modeling_internvl.py, configuration_internvl.py. Names as
-- the -hf checkpoints store them (vLLM's interns1.py hf_to_vllm_mapper reads model.language_model.,
-- model.vision_tower., model.multi_modal_projector. and lm_head.).
local nn = require "nn"

-- image_size / patch_size: an integer or a [height, width] pair (the -hf configs give pairs)
local function pair(vc, key, default)
  local v = vc[key]
  if v == nil or type(v) == "userdata" then return default, default end
  if type(v) == "table" then
    local a, b = math.tointeger(v[1]), math.tointeger(v[2])
    if #v ~= 2 or not a or not b or a <= 0 or b <= 0 then
      error(("config: field 'vision_config.%s' must be a positive integer or a [height, width] pair"):format(key), 0)
    end
    return a, b
  end
  local i = nn.int(vc, key, nil)
  return i, i
end

-- The InternViT tower under PREFIX; returns its width.
local function intern_vit(t, prefix, vc)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers")
  local I = nn.need(vc, "intermediate_size")
  local ih, iw = pair(vc, "image_size", 224)
  local ph, pw = pair(vc, "patch_size", 16)
  local rows = nn.div(ih, ph, "vision_config.image_size / patch_size")
  local cols = nn.div(iw, pw, "vision_config.image_size / patch_size")
  local ch = nn.int(vc, "num_channels", 3)
  local norm = nn.opt(vc, "norm_type", "layer_norm")
  if norm ~= "layer_norm" and norm ~= "rms_norm" then
    error(("config: field 'vision_config.norm_type' %q is not supported (layer_norm, rms_norm)"):format(tostring(norm)), 0)
  end
  local ln = norm == "layer_norm"
  local e, lp = prefix .. ".embeddings", prefix .. ".encoder.layer.*"
  nn.param(t, e .. ".cls_token", { 1, 1, h })
  if nn.flag(vc, "use_mask_token", false) then nn.param(t, e .. ".mask_token", { 1, 1, h }) end
  nn.param(t, e .. ".patch_embeddings.projection.weight", { h, ch, ph, pw })
  nn.param(t, e .. ".patch_embeddings.projection.bias", { h })
  if nn.flag(vc, "use_absolute_position_embeddings", true) then
    nn.param(t, e .. ".position_embeddings", { 1, rows * cols + 1, h }, { role = "pos_embed" })
  end
  local bias = nn.flag(vc, "attention_bias", false)
  for _, n in ipairs { "q_proj", "k_proj", "v_proj" } do
    nn.linear(t, lp .. ".attention." .. n, h, h, { count = L, role = "other", bias = bias })
  end
  nn.linear(t, lp .. ".attention.projection_layer", h, h, { count = L, role = "other", bias = true })
  if nn.flag(vc, "use_qk_norm", false) then
    nn.norm(t, lp .. ".attention.q_norm", h, { count = L })
    nn.norm(t, lp .. ".attention.k_norm", h, { count = L })
  end
  nn.norm(t, lp .. ".layernorm_before", h, { count = L, bias = ln })
  nn.norm(t, lp .. ".layernorm_after", h, { count = L, bias = ln })
  nn.param(t, lp .. ".lambda_1", { h }, { count = L })
  nn.param(t, lp .. ".lambda_2", { h }, { count = L })
  nn.linear(t, lp .. ".mlp.fc1", I, h, { count = L, role = "other", bias = true })
  nn.linear(t, lp .. ".mlp.fc2", h, I, { count = L, role = "other", bias = true })
  if not nn.flag(vc, "use_mean_pooling", true) then nn.norm(t, prefix .. ".layernorm", h, { bias = true }) end
  return h
end

-- text_config.model_type -> the script that builds it
local TEXT = { qwen2 = "llama", qwen3 = "llama", llama = "llama", qwen3_moe = "moe", gpt_oss = "gpt_oss" }

return arch {
  name        = "internvl",
  summary     = "InternVL 2.5 / 3 / 3.5, transformers format (InternViT tower + pixel-shuffle projector + Qwen2 / Qwen3 / Qwen3-MoE / GPT-OSS / Llama decoder)",
  model_types = { "internvl" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or error("config: missing field 'text_config'", 0)
    local mt = nn.opt(tc, "model_type", "qwen2")  -- InternVLConfig's default text model
    if not TEXT[mt] then
      error(("config: field 'text_config.model_type' %q is not supported (qwen2, qwen3, qwen3_moe, gpt_oss, llama)")
        :format(tostring(mt)), 0)
    end
    local c = {}
    for k, v in pairs(tc) do c[k] = v end
    c.model_type = mt
    c.tie_word_embeddings = nn.flag(tc, "tie_word_embeddings", nn.flag(cfg, "tie_word_embeddings", false))
    local desc = require("architectures." .. TEXT[mt]).build(c)
    local t = {}
    for _, x in ipairs(desc.tensors) do
      x.name = x.name:gsub("^model%.", "model.language_model.")
      t[#t + 1] = x
    end

    local vc = nn.sub(cfg, "vision_config") or error("config: missing field 'vision_config'", 0)
    local vt = nn.opt(vc, "model_type", "internvl_vision")
    if vt ~= "internvl_vision" then
      error(("config: field 'vision_config.model_type' %q is not supported (internvl_vision)"):format(tostring(vt)), 0)
    end
    local vh = intern_vit(t, "model.vision_tower", vc)
    -- pixel shuffle: (1 / downsample_ratio)^2 neighbouring patches concatenated (int(1 / r) ** 2)
    local r = nn.opt(cfg, "downsample_ratio", 0.5)
    if type(r) ~= "number" or r <= 0 or r > 1 then
      error(("config: field 'downsample_ratio' must be a number in (0, 1], got %s"):format(tostring(r)), 0)
    end
    local s = math.floor(1 / r)
    local w, h = vh * s * s, desc.hidden
    local pp = "model.multi_modal_projector"
    nn.norm(t, pp .. ".layer_norm", w, { bias = true })
    nn.linear(t, pp .. ".linear_1", h, w, { bias = true, role = "mlp" })
    nn.linear(t, pp .. ".linear_2", h, h, { bias = true, role = "mlp" })

    desc.tensors = t
    desc.arch = "internvl"
    return desc
  end,
}
