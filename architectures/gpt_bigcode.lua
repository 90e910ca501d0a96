-- gpt_bigcode.lua: BigCode's GPTBigCode (transformers GPTBigCodeForCausalLM, model_type gpt_bigcode:
-- StarCoder / StarCoderBase 1B-15B, SantaCoder's successor checkpoints). GPT-2's block with Linear
-- layers ({out, in}, all biased): learned positions (transformer.wpe), LayerNorm with bias (ln_1, ln_2,
-- ln_f), a fused attn.c_attn of hidden + 2 x head_dim rows under multi_query (one K/V head shared by all
-- heads; 3 x hidden rows without), attn.c_proj, a non-gated GELU MLP mlp.c_fc {n_inner, h} / c_proj;
-- lm_head tied to wte. Shapes: transformers models/gpt_bigcode/modeling_gpt_bigcode.py
-- (GPTBigCodeAttention, GPTBigCodeMLP) and configuration_gpt_bigcode.py (n_inner default 4 x n_embd,
-- multi_query default true); vLLM model_executor/models/gpt_bigcode.py (num_kv_heads 1 under
-- multi_query); llama.cpp arch "starcoder" (src/llama-arch.cpp LLM_ARCH_STARCODER).
local nn = require "nn"

return arch {
  name        = "gpt_bigcode",
  summary     = "GPTBigCode / StarCoder decoder (learned positions, multi-query fused c_attn, GELU MLP, tied)",
  model_types = { "gpt_bigcode" },
  build = function(cfg)
    local h, L, V, nh, P, I, d = nn.gpt2_dims(cfg)
    local mq = nn.flag(cfg, "multi_query", true)
    local nkv = mq and 1 or nh
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local t, lp = {}, "transformer.h.*"
    nn.embed(t, "transformer.wte", V, h)
    nn.embed(t, "transformer.wpe", P, h, { role = "pos_embed" })
    nn.norm(t, lp .. ".ln_1", h, { count = L, bias = true })
    nn.linear(t, lp .. ".attn.c_attn", h + 2 * nkv * d, h, { count = L, bias = true })
    nn.linear(t, lp .. ".attn.c_proj", h, h, { count = L, bias = true })
    nn.norm(t, lp .. ".ln_2", h, { count = L, bias = true })
    nn.linear(t, lp .. ".mlp.c_fc", I, h, { count = L, role = "mlp", bias = true })
    nn.linear(t, lp .. ".mlp.c_proj", h, I, { count = L, role = "mlp", bias = true })
    nn.norm(t, "transformer.ln_f", h, { bias = true })
    if not tied then nn.linear(t, "lm_head", V, h, { role = "lm_head" }) end
    return {
      arch = "gpt_bigcode", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nkv, head_dim = d,
      intermediate = I, max_position = P, tied_embeddings = tied, rope_rows = 0, -- learned positions: no RoPE cache
      tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = { q_dim = h, kv_dim = nkv * d, ffn_dim = I, gated = false, norm = "layer",
                experts = 0, experts_per_tok = 0, parallel_residual = false },
    }
  end,
}
