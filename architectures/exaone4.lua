-- exaone4.lua: LG AI Research EXAONE 4.0 (transformers Exaone4ForCausalLM, model_type exaone4):
-- GQA attention without biases and with per-head q/k RMSNorm (self_attn.q_norm / k_norm {head_dim}),
-- a SwiGLU MLP, and post-norms only ("QK-Reorder-Norm": post_attention_layernorm on the attention
-- output, post_feedforward_layernorm on the MLP output, no input_layernorm). The 32B model is a
-- hybrid of sliding-window (4096) and global layers, 3:1 ("LLLG"); the 1.2B model has no sliding
-- window. Which layers slide: config layer_types, else sliding_window_pattern, as Exaone4Config
-- derives them: a string cycles per layer ('L' local, 'G' global), an integer p makes layer i global
-- when (i + 1) % p == 0. Shapes: transformers models/exaone4/modeling_exaone4.py and
-- configuration_exaone4.py; llama.cpp arch "exaone4" (src/llama-arch.cpp LLM_ARCH_EXAONE4:
-- attn_q_norm, attn_k_norm, attn_post_norm, ffn_post_norm).
local nn = require "nn"

local function windows(cfg, L)
  local w = nn.int(cfg, "sliding_window", nil)
  if not w then return nil end
  local lt = nn.layer_types(cfg, L, w)
  if lt then return lt end
  local p = cfg.sliding_window_pattern
  if type(p) == "string" and #p > 0 then
    return function(i)
      local c = p:sub(i % #p + 1, i % #p + 1)
      if c == "L" then return w elseif c == "G" then return false end
      error(("config: unknown letter '%s' in 'sliding_window_pattern'"):format(c), 0)
    end
  end
  local n = nn.int(cfg, "sliding_window_pattern", nil)
  if n then return function(i) return (i + 1) % n ~= 0 and w end end
  return function() return w end
end

return arch {
  name        = "exaone4",
  summary     = "EXAONE 4.0: q/k-norm GQA, post-norms only, hybrid sliding-window / global layers",
  model_types = { "exaone4" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local lp, t = "model.layers.*", {}
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L, qk_norm = true })
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_feedforward_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })
    return nn.decoder_desc("exaone4", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, windows(cfg, L)), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
