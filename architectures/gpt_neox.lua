-- gpt_neox.lua: GPT-NeoX / Pythia: LayerNorm with bias, fused query_key_value with bias,
-- parallel residual, untied embed_out (rotary_pct changes no shapes).
-- formulas: per-tensor shapes of GPTNeoXForCausalLM, in the style of shared/calibration/models_README.md §10
local nn = require "nn"

return arch {
  name        = "gpt_neox",
  summary     = "GPT-NeoX / Pythia decoder (parallel residual, LayerNorm)",
  model_types = { "gpt_neox" },
  build = function(cfg)
    local h, L = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "num_attention_heads")
    local I = nn.need(cfg, "intermediate_size")
    local d = nn.div(h, nh, "hidden_size / num_attention_heads")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local bias = nn.flag(cfg, "attention_bias", true)

    local t, lp = {}, "gpt_neox.layers.*"
    nn.linear(t, lp .. ".attention.query_key_value", 3 * h, h, { count = L, bias = bias })
    nn.linear(t, lp .. ".attention.dense", h, h, { count = L, bias = bias })
    nn.linear(t, lp .. ".mlp.dense_h_to_4h", I, h, { count = L, role = "mlp", bias = true })
    nn.linear(t, lp .. ".mlp.dense_4h_to_h", h, I, { count = L, role = "mlp", bias = true })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = "gpt_neox.embed_in",
               norm = "gpt_neox.final_layer_norm", norm_bias = true, head = "embed_out" })
    return {
      arch = "gpt_neox", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nh, head_dim = d,
      intermediate = I, max_position = nn.int(cfg, "max_position_embeddings", nil),
      -- rotary_pct of each head turns (vLLM gpt_neox.py: rotary_dim = int(head_size * rotary_pct))
      rotary_dim = nn.rotary_dim(cfg, d, "rotary_pct"),
      tied_embeddings = tied,
      tensors = t,
      kv = nn.kv_groups(L, nh, d, d),
      block = { q_dim = h, kv_dim = h, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0,
                parallel_residual = nn.flag(cfg, "use_parallel_residual", true) },
    }
  end,
}
