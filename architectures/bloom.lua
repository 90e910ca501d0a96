-- bloom.lua: BLOOM / BLOOMZ: ALiBi (no position table), word_embeddings_layernorm, fused
-- query_key_value with bias, LayerNorm with bias, lm_head tied.
-- formulas: per-tensor shapes of BloomForCausalLM, in the style of shared/calibration/models_README.md §10
local nn = require "nn"

return arch {
  name        = "bloom",
  summary     = "BLOOM decoder (ALiBi, embedding LayerNorm, tied lm_head)",
  model_types = { "bloom" },
  build = function(cfg)
    local h = nn.need_any(cfg, { "hidden_size", "n_embed" })
    local L = nn.need_any(cfg, { "n_layer", "num_hidden_layers" })
    local nh = nn.need_any(cfg, { "n_head", "num_attention_heads" })
    local V = nn.need(cfg, "vocab_size")
    local d = nn.div(h, nh, "hidden_size / n_head")
    local I = nn.int(cfg, "n_inner", 4 * h)
    local tied = nn.flag(cfg, "tie_word_embeddings", true)

    local t, lp = {}, "transformer.h.*"
    nn.embed(t, "transformer.word_embeddings", V, h)
    nn.norm(t, "transformer.word_embeddings_layernorm", h, { bias = true })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
    nn.linear(t, lp .. ".self_attention.query_key_value", 3 * h, h, { count = L, bias = true })
    nn.linear(t, lp .. ".self_attention.dense", h, h, { count = L, bias = true })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true })
    nn.linear(t, lp .. ".mlp.dense_h_to_4h", I, h, { count = L, role = "mlp", bias = true })
    nn.linear(t, lp .. ".mlp.dense_4h_to_h", h, I, { count = L, role = "mlp", bias = true })
    nn.norm(t, "transformer.ln_f", h, { bias = true })
    if not tied then nn.linear(t, "lm_head", V, h, { role = "lm_head" }) end
    return {
      arch = "bloom", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nh, head_dim = d,
      intermediate = I, tied_embeddings = tied,
      tensors = t,
      kv = nn.kv_groups(L, nh, d, d),
      block = { q_dim = h, kv_dim = h, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = false },
    }
  end,
}
