-- qwen2_vl.lua: Qwen2.5-VL: a Qwen2 decoder (q,k,v bias, M-RoPE) and a ViT (RMSNorm, SwiGLU,
-- fused biased qkv, Conv3d patches over 2 frames, window attention with full-attention blocks)
-- whose patch merger turns 2x2 patches into one token of the text width.
-- Shapes: transformers models/qwen2_5_vl/modeling_qwen2_5_vl.py (Qwen2_5_VisionTransformer).
local nn = require "nn"

return arch {
  name        = "qwen2_vl",
  summary     = "Qwen2.5-VL (Qwen2 decoder + ViT with 2x2 patch merger)",
  model_types = { "qwen2_5_vl" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or cfg  -- newer configs nest the text fields
    local dims = nn.decoder_dims(tc)
    local h, L, V, I = dims.h, dims.L, dims.V, nn.need(tc, "intermediate_size")
    local nh, nkv, d = dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", nn.flag(tc, "tie_word_embeddings", false))

    local t = {}
    nn.llama_layers(t, "model.layers.*", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I,
      count = L, qkv_bias = true })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    nn.qwen25_vision(t, nn.sub(cfg, "vision_config") or error("config: missing field 'vision_config'", 0), h)

    return nn.decoder_desc("qwen2_vl", tc, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, nil), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
