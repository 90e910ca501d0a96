-- falcon.lua: Falcon: falcon-7b style (multi-query, parallel attention, one LayerNorm/layer)
-- and falcon-40b/180b style new_decoder_architecture (grouped KV, ln_attn + ln_mlp); tied lm_head.
-- formulas: shared/calibration/models_README.md §10 (Falcon-7B)
local nn = require "nn"

return arch {
  name        = "falcon",
  summary     = "Falcon decoder (multi-query / grouped KV, parallel attention)",
  model_types = { "falcon", "RefinedWeb", "RefinedWebModel" },
  build = function(cfg)
    local h = nn.need(cfg, "hidden_size")
    local L = nn.need_any(cfg, { "num_hidden_layers", "n_layer" })
    local nh = nn.need_any(cfg, { "num_attention_heads", "n_head" })
    local V = nn.need(cfg, "vocab_size")
    local d = nn.div(h, nh, "hidden_size / num_attention_heads")
    local I = nn.int(cfg, "ffn_hidden_size", 4 * h)
    local bias = nn.flag(cfg, "bias", false)
    local parallel = nn.flag(cfg, "parallel_attn", true)
    local kv_key = cfg.num_kv_heads ~= nil and "num_kv_heads" or "n_head_kv"
    local new_arch = nn.flag(cfg, "new_decoder_architecture", cfg.n_head_kv ~= nil)
    local nkv
    if new_arch then nkv = nn.int(cfg, kv_key, nh)
    elseif nn.flag(cfg, "multi_query", true) then nkv = 1
    else nkv = nh end
    local tied = nn.flag(cfg, "tie_word_embeddings", true)

    local t, lp = {}, "transformer.h.*"
    local o = { count = L, bias = bias }
    nn.linear(t, lp .. ".self_attention.query_key_value", (nh + 2 * nkv) * d, h, o)
    nn.linear(t, lp .. ".self_attention.dense", h, h, o)
    nn.linear(t, lp .. ".mlp.dense_h_to_4h", I, h, { count = L, bias = bias, role = "mlp" })
    nn.linear(t, lp .. ".mlp.dense_4h_to_h", h, I, { count = L, bias = bias, role = "mlp" })
    if new_arch and nn.int(cfg, "num_ln_in_parallel_attn", 2) == 2 then
      nn.norm(t, lp .. ".ln_attn", h, { count = L, bias = true })
      nn.norm(t, lp .. ".ln_mlp", h, { count = L, bias = true })
    else
      nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
      if not new_arch and not parallel then
        nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true })
      end
    end
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = "transformer.word_embeddings",
               norm = "transformer.ln_f", norm_bias = true })
    return {
      arch = "falcon", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nkv, head_dim = d,
      intermediate = I, max_position = nn.int(cfg, "max_position_embeddings", nil),
      tied_embeddings = tied,
      tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = { q_dim = nh * d, kv_dim = nkv * d, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = new_arch or parallel },
    }
  end,
}
