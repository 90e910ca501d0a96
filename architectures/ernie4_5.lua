-- ernie4_5.lua: Baidu ERNIE 4.5 dense decoders (transformers Ernie4_5ForCausalLM, model_type ernie4_5:
-- ERNIE-4.5-0.3B): a Llama block, every attention and MLP Linear biased with use_bias (false in the
-- released configs), RoPE on interleaved pairs (no parameters), tied embedding by config.
-- Shapes: transformers models/ernie4_5/modeling_ernie4_5.py; llama.cpp arch "ernie4_5"
-- (src/llama-arch.cpp LLM_ARCH_ERNIE4_5).
local nn = require "nn"

return arch {
  name        = "ernie4_5",
  summary     = "ERNIE 4.5 dense decoder (Llama block, use_bias on every Linear)",
  model_types = { "ernie4_5" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local b = nn.flag(cfg, "use_bias", false)
    local t = {}
    nn.llama_layers(t, "model.layers.*", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I, count = L,
      qkv_bias = b, o_bias = b, mlp_bias = b })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    return nn.decoder_desc("ernie4_5", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
