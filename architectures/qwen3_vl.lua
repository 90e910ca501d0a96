-- qwen3_vl.lua: Qwen3-VL (Qwen3VLForConditionalGeneration, model_type qwen3_vl) and Qwen3-VL-MoE
-- (Qwen3VLMoeForConditionalGeneration, qwen3_vl_moe): the Qwen3 decoder (q/k RMSNorm, GQA, SwiGLU;
-- interleaved M-RoPE, which changes no shape) or the Qwen3-MoE decoder, under
-- model.language_model, and the Qwen3-VL vision tower under model.visual (nn.qwen3_vision: Conv3d
-- patches of 2 x 16 x 16, a learned 2304-row position table, LayerNorm blocks with a fused qkv and
-- a GELU MLP, the 2x2 merger and one more merger per deepstack_visual_indexes entry, whose outputs
-- are added to the first decoder layers' hidden states).
-- Shapes: transformers models/qwen3_vl/modeling_qwen3_vl.py, models/qwen3_vl_moe/
-- modeling_qwen3_vl_moe.py. The decoders are built by llama.lua (qwen3) and moe.lua (qwen3_moe)
-- from text_config and renamed; the MoE checkpoint stores each layer's experts fused
-- (Qwen3VLMoeTextExperts: experts.gate_up_proj {E, hidden, 2 x moe_intermediate} and
-- experts.down_proj {E, moe_intermediate, hidden}, no ".weight"), which vLLM's qwen3_vl_moe.py
-- load_weights transposes into its FusedMoE w13 / w2: listed here {out, in} per expert like
-- Qwen3.5-MoE's (layout "out_in"), the same elements. lm_head is tied on the 2B and 4B
-- (tie_word_embeddings true in their config.json), stored on the others.
local nn = require "nn"

-- config.json's text_config, as the shared Qwen3 / Qwen3-MoE builders read it.
local function text_config(cfg, tc, moe)
  local c = {}
  for k, v in pairs(tc) do c[k] = v end
  c.model_type = moe and "qwen3_moe" or "qwen3"
  c.tie_word_embeddings = nn.flag(cfg, "tie_word_embeddings", nn.flag(tc, "tie_word_embeddings", false))
  return c
end

return arch {
  name        = "qwen3_vl",
  summary     = "Qwen3-VL (Qwen3 / Qwen3-MoE decoder + vision tower with deepstack mergers)",
  model_types = { "qwen3_vl", "qwen3_vl_moe", "qwen3_vl_text", "qwen3_vl_moe_text" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or cfg  -- a bare text config is flat
    local mm = tc ~= cfg
    local moe = cfg.model_type == "qwen3_vl_moe" or tc.model_type == "qwen3_vl_moe_text" or tc.num_experts ~= nil
    local c = text_config(cfg, tc, moe)
    local desc = require(moe and "architectures.moe" or "architectures.llama").build(c)
    local lm = mm and "model.language_model." or "model."

    local t = {}
    for _, x in ipairs(desc.tensors) do
      if not (moe and x.role == "expert") then
        x.name = x.name:gsub("^model%.", lm)
        t[#t + 1] = x
      end
    end
    if moe then  -- the routed experts, fused per layer as the checkpoint stores them
      local L, E, h = desc.layers, nn.need(tc, "num_experts"), desc.hidden
      local EI = nn.need(tc, "moe_intermediate_size")
      local step, only = nn.int(tc, "decoder_sparse_step", 1), {}
      for _, i in ipairs(nn.opt(tc, "mlp_only_layers", {})) do only[i] = true end
      local moe_L = nn.count_layers(L, function(i) return not only[i] and (i + 1) % step == 0 end)
      local x, lp = { count = moe_L * E, role = "expert", layout = "out_in" }, lm .. "layers.*.mlp.experts."
      nn.param(t, lp .. "gate_up_proj", { 2 * EI, h }, x)
      nn.param(t, lp .. "down_proj", { h, EI }, x)
    end
    local vc = nn.sub(cfg, "vision_config")
    if mm and vc then nn.qwen3_vision(t, "model.visual", vc, desc.hidden) end

    desc.tensors = t
    desc.arch = "qwen3_vl"
    desc.rotary_dim = nn.rotary_dim(tc, desc.head_dim)
    desc.rope_positions = nn.rope_positions(tc)
    -- vLLM's MRotaryEmbedding caches 4 x these rows (src/rt_vllm.c stage_weights)
    desc.rope_rows = nn.rope_rows(tc)
    return desc
  end,
}
