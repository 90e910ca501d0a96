-- llama.lua: dense decoder-only transformers with RMSNorm, RoPE and a SwiGLU MLP:
-- Llama 2/3.x, Mistral, Qwen2/2.5 (q,k,v bias), Qwen3 (q/k norm), Phi-3/phi-4 (fused qkv, gate_up),
-- IBM Granite 3.x dense (granite), SmolLM3 (smollm3: NoPE layers).
-- formulas: shared/calibration/models_README.md §1, §2, §3, §5
local nn = require "nn"

-- HF config-class defaults that change shapes, per model_type.
local TYPES = {
  llama   = {},
  mistral = { window = true },
  qwen2   = { qkv_bias = true, window = "opt-in" },
  qwen3   = { qk_norm = true, window = "opt-in" },
  phi3    = { fused = true, window = true },
  -- IBM Granite 3.x dense (GraniteForCausalLM, transformers models/granite/modeling_granite.py):
  -- Llama's tensors; embedding_multiplier, attention_multiplier, residual_multiplier and
  -- logits_scaling scale activations only, no stored parameter or cache shape
  granite = {},
  -- SmolLM3 (SmolLM3ForCausalLM, models/smollm3/modeling_smollm3.py): Llama's tensors; the NoPE
  -- layers of no_rope_layers skip RoPE, which changes no parameter or cache shape
  smollm3 = { window = "opt-in" },
}

-- Which layers use sliding-window attention, as a function i -> window or false.
local function windows(cfg, kind, n)
  local w = nn.int(cfg, "sliding_window", nil)
  if not w or not kind.window then return nil end
  if kind.window == "opt-in" then     -- Qwen2/3: only with use_sliding_window
    if not nn.flag(cfg, "use_sliding_window", false) then return nil end
    local lt = nn.layer_types(cfg, n, w)
    if lt then return lt end
    local first = nn.count(cfg, "max_window_layers", n)
    return function(i) return i >= first and w end
  end
  return nn.layer_types(cfg, n, w) or function() return w end
end

return arch {
  name        = "llama",
  summary     = "dense decoder: Llama 2/3.x, Mistral, Qwen2/2.5, Qwen3, Phi-3/phi-4, Granite 3, SmolLM3",
  model_types = { "llama", "mistral", "qwen2", "qwen3", "phi3", "granite", "smollm3" },
  build = function(cfg)
    local mt = nn.opt(cfg, "model_type", "llama")
    local kind = TYPES[mt] or TYPES.llama
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    -- Qwen2 always has q,k,v bias and no o bias; Llama/Qwen3 attention_bias covers q,k,v,o.
    local attn_bias = kind.qkv_bias or nn.flag(cfg, "attention_bias", false)

    local t = {}
    nn.llama_layers(t, "model.layers.*", {
      hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I, count = L,
      qkv_bias = attn_bias, o_bias = attn_bias and not kind.qkv_bias,
      qk_norm = kind.qk_norm, fused = kind.fused, mlp_bias = nn.flag(cfg, "mlp_bias", false) })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    return nn.decoder_desc("llama", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d, windows(cfg, kind, L)), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
