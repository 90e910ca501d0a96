-- bert.lua: BERT encoder (BertModel: embeddings incl. token types, post-LN layers, pooler).
-- MLM/NSP heads are not counted. formulas: shared/calibration/models_README.md §10
local nn = require "nn"

return arch {
  name        = "bert",
  summary     = "BERT encoder (BertModel incl. pooler; no KV cache)",
  model_types = { "bert" },
  build = function(cfg)
    local h, L = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "num_attention_heads")
    local I, P = nn.need(cfg, "intermediate_size"), nn.int(cfg, "max_position_embeddings", 512)
    local types = nn.int(cfg, "type_vocab_size", 2)
    local d = nn.div(h, nh, "hidden_size / num_attention_heads")

    local t, lp = {}, "encoder.layer.*"
    nn.embed(t, "embeddings.word_embeddings", V, h)
    nn.embed(t, "embeddings.position_embeddings", P, h, { role = "pos_embed" })
    nn.embed(t, "embeddings.token_type_embeddings", types, h, { role = "pos_embed" })
    nn.norm(t, "embeddings.LayerNorm", h, { bias = true })
    local a = { count = L, bias = true }
    for _, n in ipairs { "query", "key", "value" } do
      nn.linear(t, lp .. ".attention.self." .. n, h, h, a)
    end
    nn.linear(t, lp .. ".attention.output.dense", h, h, a)
    nn.norm(t, lp .. ".attention.output.LayerNorm", h, a)
    nn.linear(t, lp .. ".intermediate.dense", I, h, { count = L, bias = true, role = "mlp" })
    nn.linear(t, lp .. ".output.dense", h, I, { count = L, bias = true, role = "mlp" })
    nn.norm(t, lp .. ".output.LayerNorm", h, a)
    nn.linear(t, "pooler.dense", h, h, { bias = true, role = "other" })
    return {
      arch = "bert", family = "encoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nh, head_dim = d,
      intermediate = I, max_position = P, tied_embeddings = true,
      tensors = t,
      kv = {},
      block = { q_dim = h, kv_dim = h, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = false },
    }
  end,
}
