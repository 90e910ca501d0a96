-- t5.lua: T5 / mT5 encoder-decoder: RMS-style LayerNorm (weight only), no biases, ReLU FFN (v1.0)
-- or gated-GELU (v1.1, mT5), relative attention bias once per stack, lm_head tied (t5) or not.
-- formulas: shared/calibration/models_README.md §10 (T5)
local nn = require "nn"

-- HF defaults per model_type (T5Config / MT5Config).
local DEFAULTS = { t5 = { ffn = "relu", tied = true }, mt5 = { ffn = "gated-gelu", tied = false } }

return arch {
  name        = "t5",
  summary     = "T5 / mT5 encoder-decoder (v1.0 ReLU and v1.1 gated-GELU)",
  model_types = { "t5", "mt5" },
  build = function(cfg)
    local def = DEFAULTS[nn.opt(cfg, "model_type", "t5")] or DEFAULTS.t5
    local d, V = nn.need(cfg, "d_model"), nn.need(cfg, "vocab_size")
    local Le, nh = nn.need(cfg, "num_layers"), nn.need(cfg, "num_heads")
    local Ld = nn.int(cfg, "num_decoder_layers", Le)
    local dkv, F = nn.int(cfg, "d_kv", 64), nn.need(cfg, "d_ff")
    local buckets = nn.int(cfg, "relative_attention_num_buckets", 32)
    local ffn = nn.opt(cfg, "feed_forward_proj", def.ffn)
    local gated = type(ffn) == "string" and ffn:sub(1, 6) == "gated-"
    local tied = nn.flag(cfg, "tie_word_embeddings", def.tied)
    local inner = nh * dkv

    local t = {}
    nn.embed(t, "shared", V, d)
    local function attention(prefix, n)
      for _, p in ipairs { "q", "k", "v" } do nn.linear(t, prefix .. "." .. p, inner, d, { count = n }) end
      nn.linear(t, prefix .. ".o", d, inner, { count = n })
    end
    local function ffn_block(prefix, n)
      local o = { count = n, role = "mlp" }
      if gated then
        nn.linear(t, prefix .. ".wi_0", F, d, o)
        nn.linear(t, prefix .. ".wi_1", F, d, o)
      else
        nn.linear(t, prefix .. ".wi", F, d, o)
      end
      nn.linear(t, prefix .. ".wo", d, F, o)
    end
    for _, s in ipairs { { "encoder", Le }, { "decoder", Ld } } do
      local stack, n = s[1], s[2]
      local b = stack .. ".block.*"
      attention(b .. ".layer.0.SelfAttention", n)
      nn.embed(t, stack .. ".block.0.layer.0.SelfAttention.relative_attention_bias", buckets, nh,
        { role = "pos_embed" })
      nn.norm(t, b .. ".layer.0.layer_norm", d, { count = n })
      local ff = 1
      if stack == "decoder" then
        attention(b .. ".layer.1.EncDecAttention", n)
        nn.norm(t, b .. ".layer.1.layer_norm", d, { count = n })
        ff = 2
      end
      ffn_block(b .. ".layer." .. ff .. ".DenseReluDense", n)
      nn.norm(t, b .. ".layer." .. ff .. ".layer_norm", d, { count = n })
      nn.norm(t, stack .. ".final_layer_norm", d)
    end
    if not tied then nn.linear(t, "lm_head", V, d, { role = "lm_head" }) end

    return {
      arch = "t5", family = "encoder-decoder",
      hidden = d, layers = Ld, encoder_layers = Le, vocab = V,
      heads = nh, kv_heads = nh, head_dim = dkv, intermediate = F,
      tied_embeddings = tied,
      tensors = t,
      -- decoder self-attention; cross-attention K/V depend on the encoder length, not on decoded tokens
      kv = { { layers = Ld, kv_heads = nh, k_dim = dkv, v_dim = dkv } },
      block = { q_dim = inner, kv_dim = inner, ffn_dim = F, gated = gated, norm = "rms",
                experts = 0, experts_per_tok = 0, parallel_residual = false },
    }
  end,
}
