-- glm4v.lua: GLM-4.1V (Glm4vForConditionalGeneration, model_type glm4v: GLM-4.1V-9B-Thinking / -Base):
-- the GLM-4-0414 decoder (built by glm4.lua from text_config: q/k/v always biased, o_proj not,
-- fused gate_up_proj, four RMSNorms a layer, M-RoPE over half the head) under model.language_model,
-- lm_head apart, and the vision tower under model.visual (Glm4vVisionModel): a biased Conv3d patch
-- embedding over temporal_patch_size frames, post_conv_layernorm, a learned (image_size / patch)^2
-- position table (interpolated per image), `depth` blocks (RMSNorms norm1 / norm2, fused qkv
-- biased per attention_bias, bias-free proj, a bias-free SwiGLU gate_proj / up_proj / down_proj of
-- width out_hidden_size), post_layernorm, a biased Conv2d `downsample` merging spatial_merge_size^2
-- patches into out_hidden_size, and the merger (bias-free proj, LayerNorm post_projection_norm,
-- bias-free SwiGLU of width intermediate_size).
-- Shapes: transformers models/glm4v/modeling_glm4v.py; defaults configuration_glm4v.py (Glm4vTextConfig
-- / Glm4vVisionConfig, "a similar configuration to that of GLM-4.1V-9B-Thinking").
-- GLM-4.5V (Glm4vMoeForConditionalGeneration, model_type glm4v_moe): the same tower and merger
-- (Glm4vMoeVisionModel) over GLM-4.5-Air's MoE decoder (Glm4vMoeTextModel, built by glm4_moe.lua from
-- text_config: q/k/v biased per attention_bias, default true, two RMSNorms a layer, the first
-- first_k_dense_replace layers dense, the rest sigmoid-routed experts with a shared expert and an fp32
-- e_score_correction_bias). Its checkpoint holds no MTP layer (18,106 tensors, every one of them built
-- here). Shapes: transformers models/glm4v_moe/modeling_glm4v_moe.py; defaults
-- configuration_glm4v_moe.py (Glm4vMoeTextConfig: "a similar configuration to that of GLM-4.5V").
local nn = require "nn"

local TEXT_DEFAULTS = { vocab_size = 151552, hidden_size = 4096, intermediate_size = 13696, num_hidden_layers = 40,
                        num_attention_heads = 32, num_key_value_heads = 2, max_position_embeddings = 32768 }
local VISION_DEFAULTS = { depth = 24, hidden_size = 1536, intermediate_size = 13696, out_hidden_size = 4096,
                          image_size = 336, patch_size = 14, in_channels = 3, spatial_merge_size = 2,
                          temporal_patch_size = 2 }
-- Glm4vMoeTextConfig's defaults (no head_dim: the class leaves it to hidden / heads, and
-- GLM-4.5V's config.json gives 128)
local MOE_TEXT_DEFAULTS = { vocab_size = 151424, hidden_size = 4096, intermediate_size = 10944, num_hidden_layers = 46,
                            num_attention_heads = 96, num_key_value_heads = 8, max_position_embeddings = 65536,
                            attention_bias = true, moe_intermediate_size = 1408, num_experts_per_tok = 8,
                            n_shared_experts = 1, n_routed_experts = 128, first_k_dense_replace = 1,
                            partial_rotary_factor = 0.5 }

local function tower(t, vc)
  local h, L, I = nn.need(vc, "hidden_size"), nn.need(vc, "depth"), nn.need(vc, "intermediate_size")
  local out, p = nn.need(vc, "out_hidden_size"), nn.need(vc, "patch_size")
  local tp, ch, m = nn.need(vc, "temporal_patch_size"), nn.need(vc, "in_channels"), nn.need(vc, "spatial_merge_size")
  local side = nn.div(nn.need(vc, "image_size"), p, "vision_config.image_size / patch_size")
  local pre, lp = "model.visual", "model.visual.blocks.*"
  nn.param(t, pre .. ".patch_embed.proj.weight", { h, ch, tp, p, p })
  nn.param(t, pre .. ".patch_embed.proj.bias", { h })
  nn.norm(t, pre .. ".post_conv_layernorm", h)
  nn.embed(t, pre .. ".embeddings.position_embedding", side * side, h, { role = "pos_embed" })
  nn.norm(t, lp .. ".norm1", h, { count = L })
  nn.norm(t, lp .. ".norm2", h, { count = L })
  nn.linear(t, lp .. ".attn.qkv", 3 * h, h, { count = L, role = "other", bias = nn.flag(vc, "attention_bias", false) })
  nn.linear(t, lp .. ".attn.proj", h, h, { count = L, role = "other" })
  nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = out, count = L, role = "other" })
  nn.norm(t, pre .. ".post_layernorm", h)
  nn.param(t, pre .. ".downsample.weight", { out, h, m, m })
  nn.param(t, pre .. ".downsample.bias", { out })
  nn.linear(t, pre .. ".merger.proj", out, out, { role = "mlp" })
  nn.norm(t, pre .. ".merger.post_projection_norm", out, { bias = true })
  nn.gated_mlp(t, pre .. ".merger", { hidden = out, width = I })
end

return arch {
  name        = "glm4v",
  summary     = "GLM-4.1V / GLM-4.5V (GLM-4-0414 or GLM-4.5-Air MoE decoder + vision tower with Conv2d downsample and SwiGLU merger)",
  model_types = { "glm4v", "glm4v_moe" },
  build = function(cfg)
    local moe = cfg.model_type == "glm4v_moe"
    local c = nn.filled(nn.sub(cfg, "text_config"), moe and MOE_TEXT_DEFAULTS or TEXT_DEFAULTS)
    if moe then
      c.model_type = "glm4_moe"
    else
      c.model_type = "glm4"
      c.attention_bias = true  -- Glm4vTextAttention: q/k/v bias=True whatever the config
    end
    c.tie_word_embeddings = nn.flag(cfg, "tie_word_embeddings", nn.flag(c, "tie_word_embeddings", false))
    local desc = require(moe and "architectures.glm4_moe" or "architectures.glm4").build(c)
    local t = {}
    for _, x in ipairs(desc.tensors) do
      x.name = x.name:gsub("^model%.", "model.language_model.")
      t[#t + 1] = x
    end
    local vc = nn.filled(nn.sub(cfg, "vision_config"), VISION_DEFAULTS)
    if nn.need(vc, "out_hidden_size") ~= desc.hidden then
      error(("config: field 'vision_config.out_hidden_size' %d must equal text_config.hidden_size %d (the merger "
        .. "feeds the decoder)"):format(vc.out_hidden_size, desc.hidden), 0)
    end
    tower(t, vc)
    desc.tensors = t
    desc.arch = "glm4v"
    return desc
  end,
}
