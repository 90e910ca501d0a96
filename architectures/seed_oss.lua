-- seed_oss.lua: ByteDance Seed-OSS (transformers SeedOssForCausalLM, model_type seed_oss: Seed-OSS-36B):
-- a Llama block whose q/k/v projections carry a bias (attention_bias) and whose o_proj's bias is its
-- own switch (attention_out_bias, false in the released config), SwiGLU MLP (mlp_bias), untied head.
-- Shapes: transformers models/seed_oss/modeling_seed_oss.py (SeedOssAttention); llama.cpp arch
-- "seed_oss" (src/llama-arch.cpp LLM_ARCH_SEED_OSS).
local nn = require "nn"

return arch {
  name        = "seed_oss",
  summary     = "Seed-OSS dense decoder (Llama block, q/k/v bias, separate o_proj bias switch)",
  model_types = { "seed_oss" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local t = {}
    nn.llama_layers(t, "model.layers.*", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I, count = L,
      qkv_bias = nn.flag(cfg, "attention_bias", true), o_bias = nn.flag(cfg, "attention_out_bias", false),
      mlp_bias = nn.flag(cfg, "mlp_bias", false) })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    return nn.decoder_desc("seed_oss", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
