-- exaone.lua: LG AI Research EXAONE 3.0 / 3.5 (ExaoneForCausalLM, model_type exaone, remote code in
-- each repo: EXAONE-3.0-7.8B, EXAONE-3.5-2.4B / 7.8B / 32B). A Llama block under GPT-2-style names:
-- transformer.wte, transformer.h.<i>.ln_1 / ln_2 (RMSNorm), attn.attention.q_proj / k_proj / v_proj /
-- out_proj (GQA, no biases), a SwiGLU mlp.c_fc_0 (gate) / c_fc_1 (up) / c_proj, transformer.ln_f,
-- lm_head tied per tie_word_embeddings. The layer count is config num_layers (num_hidden_layers
-- accepted too). Shapes: the repos' modeling_exaone.py (ExaoneAttention, ExaoneGatedMLP) as GPTQModel's
-- exaone definition lists the modules; vLLM model_executor/models/exaone.py; llama.cpp arch "exaone"
-- (src/llama-arch.cpp LLM_ARCH_EXAONE).
local nn = require "nn"

return arch {
  name        = "exaone",
  summary     = "EXAONE 3.0 / 3.5 dense decoder (Llama block under transformer.h.* names)",
  model_types = { "exaone" },
  build = function(cfg)
    local h, nh = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_attention_heads")
    local dims = { h = h, L = nn.need_any(cfg, { "num_layers", "num_hidden_layers" }), V = nn.need(cfg, "vocab_size"),
                   I = nn.need(cfg, "intermediate_size"), nh = nh, nkv = nn.int(cfg, "num_key_value_heads", nh),
                   d = nn.head_dim(cfg, h, nh) }
    local L, V, I, nkv, d = dims.L, dims.V, dims.I, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local t, lp = {}, "transformer.h.*"
    nn.embed(t, "transformer.wte", V, h)
    nn.norm(t, lp .. ".ln_1", h, { count = L })
    nn.attention(t, lp .. ".attn.attention", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L })
    -- out_proj, not o_proj: rename the one nn.attention writes
    for _, x in ipairs(t) do x.name = x.name:gsub("%.attention%.o_proj%.", ".attention.out_proj.") end
    nn.norm(t, lp .. ".ln_2", h, { count = L })
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L, names = { "c_fc_0", "c_fc_1", "c_proj" } })
    nn.norm(t, "transformer.ln_f", h)
    if not tied then nn.linear(t, "lm_head", V, h, { role = "lm_head" }) end
    return nn.decoder_desc("exaone", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
