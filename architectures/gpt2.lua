-- gpt2.lua: GPT-2: learned positions, Conv1D projections stored {in, out} with biases,
-- LayerNorm with bias, lm_head tied to wte. formulas: shared/calibration/models_README.md §10
local nn = require "nn"

return arch {
  name        = "gpt2",
  summary     = "GPT-2 decoder (learned positions, tied lm_head)",
  model_types = { "gpt2" },
  build = function(cfg)
    local h, L, V, nh, P, I, d = nn.gpt2_dims(cfg)
    local tied = nn.flag(cfg, "tie_word_embeddings", true)

    local t, lp = {}, "transformer.h.*"
    nn.embed(t, "transformer.wte", V, h)
    nn.embed(t, "transformer.wpe", P, h, { role = "pos_embed" })
    nn.norm(t, lp .. ".ln_1", h, { count = L, bias = true })
    nn.conv1d(t, lp .. ".attn.c_attn", h, 3 * h, { count = L })
    nn.conv1d(t, lp .. ".attn.c_proj", h, h, { count = L })
    nn.norm(t, lp .. ".ln_2", h, { count = L, bias = true })
    nn.conv1d(t, lp .. ".mlp.c_fc", h, I, { count = L, role = "mlp" })
    nn.conv1d(t, lp .. ".mlp.c_proj", I, h, { count = L, role = "mlp" })
    nn.norm(t, "transformer.ln_f", h, { bias = true })
    if not tied then nn.linear(t, "lm_head", V, h, { role = "lm_head" }) end
    return {
      arch = "gpt2", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nh, head_dim = d,
      intermediate = I, max_position = P, tied_embeddings = tied,
      tensors = t,
      kv = nn.kv_groups(L, nh, d, d),
      block = { q_dim = h, kv_dim = h, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = false },
    }
  end,
}
