-- internlm.lua: Shanghai AI Lab InternLM 2 / 2.5 and InternLM 3 dense decoders.
-- internlm2 (InternLM2ForCausalLM, remote code modeling_internlm2.py of internlm/internlm2_5-7b-chat):
-- Llama's block under InternLM's own names: model.tok_embeddings, per layer attention.wqkv (q, k and
-- v fused, (heads + 2 x kv_heads) x head_dim rows, grouped per KV head), attention.wo, feed_forward.w1
-- / w3 / w2 (gate, up, down), attention_norm, ffn_norm; model.norm and an untied `output` head; every
-- Linear biased with config `bias`. llama.cpp converts it to arch "internlm2" (attn_qkv split by the
-- converter into attn_q / attn_k / attn_v: convert_hf_to_gguf.py InternLM2Model.modify_tensors).
-- internlm3 (InternLM3ForCausalLM, modeling_internlm3.py of internlm/internlm3-8b-instruct): Llama
-- naming (self_attn.q/k/v/o_proj, mlp.gate/up/down_proj), q/k/v biased with `qkv_bias`, o_proj and
-- the MLP with `bias`; llama.cpp converts it as "llama" (convert_hf_to_gguf.py InternLM3Model).
local nn = require "nn"

return arch {
  name        = "internlm",
  summary     = "InternLM 2 / 2.5 (fused wqkv, InternLM naming) and InternLM 3 (Llama naming) dense decoders",
  model_types = { "internlm2", "internlm3" },
  build = function(cfg)
    local mt = nn.opt(cfg, "model_type", "internlm2")
    local dims = nn.decoder_dims(cfg)
    local h, L, V, I, nh, nkv, d = dims.h, dims.L, dims.V, nn.need(cfg, "intermediate_size"), dims.nh, dims.nkv, dims.d
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local bias = nn.flag(cfg, "bias", mt == "internlm2")   -- InternLM2Config default True, InternLM3Config False
    local t = {}
    if mt == "internlm2" then
      local lp = "model.layers.*"
      local o = { count = L, role = "attn", bias = bias }
      nn.linear(t, lp .. ".attention.wqkv", (nh + 2 * nkv) * d, h, o)
      -- the converter writes wqkv as attn_q, attn_k and attn_v (InternLM2Model.modify_tensors), which
      -- llama-quantize types one by one (attn_v's own rule)
      t[bias and #t - 1 or #t].gguf_split = {
        { name = lp .. ".attention.wq.weight", gguf = "attn_q", shape = { nh * d, h } },
        { name = lp .. ".attention.wk.weight", gguf = "attn_k", shape = { nkv * d, h } },
        { name = lp .. ".attention.wv.weight", gguf = "attn_v", shape = { nkv * d, h } },
      }
      nn.linear(t, lp .. ".attention.wo", h, nh * d, o)
      nn.gated_mlp(t, lp .. ".feed_forward", { hidden = h, width = I, count = L, bias = bias,
        names = { "w1", "w3", "w2" } })
      nn.norm(t, lp .. ".attention_norm", h, { count = L })
      nn.norm(t, lp .. ".ffn_norm", h, { count = L })
      nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = "model.tok_embeddings", head = "output" })
    else
      nn.llama_layers(t, "model.layers.*", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, width = I,
        count = L, qkv_bias = nn.flag(cfg, "qkv_bias", false), o_bias = bias, mlp_bias = bias })
      nn.lm(t, { vocab = V, hidden = h, tied = tied })
    end
    return nn.decoder_desc("internlm", cfg, dims, { tied_embeddings = tied, tensors = t,
      kv = nn.kv_groups(L, nkv, d, d), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
