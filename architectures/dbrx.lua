-- dbrx.lua: Databricks DBRX (transformers DbrxForCausalLM, model_type dbrx: dbrx-base, dbrx-instruct).
-- Its config nests the attention and FFN sizes: d_model, n_heads, n_layers, max_seq_len at the top,
-- attn_config { kv_n_heads, clip_qkv, rope_theta } and ffn_config { ffn_hidden_size, moe_num_experts,
-- moe_top_k, moe_normalize_expert_weights }. Every layer (transformer.blocks.N) is
--   norm_attn_norm.norm_1 / norm_2: LayerNorm without bias {d_model} (nn.LayerNorm(bias=False));
--   norm_attn_norm.attn.Wqkv: one fused Linear {d_model + 2 kv_n_heads head_dim, d_model}, no bias;
--     clip_qkv clamps its output (no parameter); out_proj {d_model, d_model}, no bias;
--   ffn.router.layer: Linear {moe_num_experts, d_model}, no bias (softmax, top moe_top_k, the top-k
--     weights divided by their p-norm, p = moe_normalize_expert_weights: renormalized);
--   ffn.experts.mlp.w1 / v1 / w2: three nn.Parameters of {moe_num_experts x ffn_hidden_size, d_model}
--     each, the experts stacked along the rows (DbrxExpertGLU: gate w1, up v1, down w2 stored
--     transposed, x @ w2 per expert); SiLU-gated.
-- then transformer.wte {vocab, d_model}, transformer.norm_f (LayerNorm without bias) and lm_head
-- (untied). Sources: transformers models/dbrx/modeling_dbrx.py and configuration_dbrx.py; vLLM
-- model_executor/models/dbrx.py (DbrxAttention's QKVParallelLinear, DbrxExperts' FusedMoE loading
-- w1 / v1 / w2 viewed as {E, ffn, d_model}); llama.cpp arch "dbrx" (LLM_ARCH_DBRX: attn_qkv,
-- attn_output, attn_norm, attn_output_norm, ffn_gate_inp, ffn_{gate,up,down}_exps; the converter
-- views the stacked experts as {E, ffn, d_model}).
-- The experts are listed per expert (count = layers x experts) under one '*' (the layer), as the
-- fused experts of gpt_oss.lua / qwen3_5.lua: transformers holds each as one parameter per layer
-- (src/estimate.c fused_expert). w1 and v1 are {out, in} (layout "out_in"), w2 {in, out}
-- ("in_out", scripts/quant.lua Q.dims).
local nn = require "nn"

-- a nested config table (attn_config / ffn_config), named in the error when absent
local function section(cfg, key)
  local v = nn.sub(cfg, key)
  if not v then error(("config: missing field '%s' (DBRX nests its sizes there)"):format(key), 0) end
  return v
end

-- a required positive integer of a nested section, named "section.key" in its errors
local function need_in(sec, name, key)
  local ok, v = pcall(nn.need, sec, key)
  if not ok then error((tostring(v):gsub("'" .. key .. "'", "'" .. name .. "." .. key .. "'", 1)), 0) end
  return v
end

return arch {
  name        = "dbrx",
  summary     = "DBRX: fused Wqkv GQA (clip_qkv), bias-free LayerNorm, 16 fine-grained experts stored stacked (w1/v1/w2)",
  model_types = { "dbrx" },
  build = function(cfg)
    local h, L = nn.need(cfg, "d_model"), nn.need(cfg, "n_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "n_heads")
    local ac, fc = section(cfg, "attn_config"), section(cfg, "ffn_config")
    local nkv = need_in(ac, "attn_config", "kv_n_heads")
    local EI = need_in(fc, "ffn_config", "ffn_hidden_size")
    local E, k = need_in(fc, "ffn_config", "moe_num_experts"), need_in(fc, "ffn_config", "moe_top_k")
    if k > E then error(("config: field 'ffn_config.moe_top_k' (%d) exceeds ffn_config.moe_num_experts (%d)"):format(k, E), 0) end
    local d = nn.div(h, nh, "d_model / n_heads")
    if nh % nkv ~= 0 then error(("config: field 'attn_config.kv_n_heads' (%d) must divide n_heads (%d)"):format(nkv, nh), 0) end
    local tied = nn.flag(cfg, "tie_word_embeddings", false)

    local t, lp = {}, "transformer.blocks.*"
    local a = { count = L, role = "attn" }
    nn.linear(t, lp .. ".norm_attn_norm.attn.Wqkv", h + 2 * nkv * d, h, a)
    nn.linear(t, lp .. ".norm_attn_norm.attn.out_proj", h, h, a)
    nn.norm(t, lp .. ".norm_attn_norm.norm_1", h, { count = L })
    nn.norm(t, lp .. ".norm_attn_norm.norm_2", h, { count = L })
    nn.linear(t, lp .. ".ffn.router.layer", E, h, { count = L, role = "router" })
    local x = { count = L * E, role = "expert", layout = "out_in" }
    nn.param(t, lp .. ".ffn.experts.mlp.w1", { EI, h }, x)
    nn.param(t, lp .. ".ffn.experts.mlp.v1", { EI, h }, x)
    nn.param(t, lp .. ".ffn.experts.mlp.w2", { EI, h }, { count = L * E, role = "expert", layout = "in_out" })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = "transformer.wte", norm = "transformer.norm_f" })

    local mp = nn.int(cfg, "max_seq_len", nil)
    local block = nn.rms_block(nh, nkv, d, k * EI, E, k, EI)
    block.norm = "layer"
    -- DbrxRouter: top-k weights divided by their moe_normalize_expert_weights-norm (default 1);
    -- absent or 0 leaves them as softmax gave them
    local p = fc.moe_normalize_expert_weights
    block.moe_norm = p == nil or (type(p) == "number" and p ~= 0)
    block.moe_scaled = false
    return {
      arch = "dbrx", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nkv, head_dim = d,
      intermediate = 0, max_position = mp, rope_rows = mp,
      tied_embeddings = tied,
      tensors = t,
      kv = nn.kv_groups(L, nkv, d, d),
      block = block,
    }
  end,
}
