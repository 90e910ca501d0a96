-- minicpm3.lua: OpenBMB MiniCPM3 (MiniCPM3ForCausalLM, model_type minicpm3: MiniCPM3-4B). DeepSeek-V2's
-- multi-head latent attention on a dense Llama block: q_a_proj {q_lora_rank, h} + q_a_layernorm +
-- q_b_proj {heads x (qk_nope + qk_rope), q_lora_rank} (or q_proj without q_lora_rank),
-- kv_a_proj_with_mqa {kv_lora_rank + qk_rope, h} + kv_a_layernorm + kv_b_proj {heads x (qk_nope +
-- v_head_dim), kv_lora_rank}, o_proj {h, heads x v_head_dim}, no biases; a SwiGLU MLP, two RMSNorms a
-- layer, model.norm; tied per tie_word_embeddings (MiniCPM3Config's default true). v_head_dim defaults
-- to hidden / heads (transformers models/minicpm3/configuration_minicpm3.py __post_init__; vLLM's
-- MiniCPM3DecoderLayer passes config.v_head_dim, SGLang's hidden_size // num_attention_heads). The muP
-- scalars scale_emb (embedding x 12), scale_depth / sqrt(L) (each residual branch) and hidden /
-- dim_model_base (before lm_head) multiply activations only: no tensor, no cache, no memory.
-- The KV cache differs by runtime, each as its source stores it (src/estimate.c est_runtime_layout):
-- - SGLang (python/sglang/srt/models/minicpm3.py MiniCPM3AttentionMLA): the latent, RadixAttention
--   with num_kv_heads 1 and head dim kv_lora_rank + qk_rope (v_head_dim kv_lora_rank, the same
--   buffer): the group's own layout, mla = true;
-- - vLLM (vllm/model_executor/models/minicpm3.py): Attention(num_heads, qk_head_dim,
--   num_kv_heads=num_heads) over per-head K and V zero-padded to qk_head_dim: heads x 2 x
--   (qk_nope + qk_rope);
-- - llama.cpp (LLM_ARCH_MINICPM3: convert_hf_to_gguf MiniCPM3Model writes key_length qk_nope +
--   qk_rope and no value_length, so n_embd_head_v = n_embd / n_head): heads x (qk_nope + qk_rope)
--   K and heads x hidden / heads V;
-- - transformers before the in-tree class (remote code modeling_minicpm.py, trust_remote_code:
--   MiniCPMAttention.forward passes past_key_value.update the up-projected key_states and
--   value_states): the same per-head K and V as llama.cpp (expanded_*).
local nn = require "nn"

return arch {
  name        = "minicpm3",
  summary     = "OpenBMB MiniCPM3: MLA attention on a dense SwiGLU block (muP scalars); KV per runtime",
  model_types = { "minicpm3" },
  build = function(cfg)
    local h, L = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers")
    local V, nh = nn.need(cfg, "vocab_size"), nn.need(cfg, "num_attention_heads")
    local I = nn.need(cfg, "intermediate_size")
    local r_q, r_kv = nn.int(cfg, "q_lora_rank", nil), nn.need(cfg, "kv_lora_rank")
    local dn, dr = nn.need(cfg, "qk_nope_head_dim"), nn.need(cfg, "qk_rope_head_dim")
    if h % nh ~= 0 and cfg.v_head_dim == nil then
      error(("config: field 'v_head_dim' is needed: hidden_size %d is not a multiple of num_attention_heads %d"):format(h, nh), 0)
    end
    local dv = nn.int(cfg, "v_head_dim", h // nh)
    local tied = nn.flag(cfg, "tie_word_embeddings", true)

    local t, lp = {}, "model.layers.*"
    local qd = nh * (dn + dr)
    nn.mla_proj(t, lp .. ".self_attn", { hidden = h, heads = nh, q_lora = r_q, kv_lora = r_kv, nope = dn, rope = dr,
                                         v = dv, count = L })
    local m = { count = L, role = "mlp" }
    nn.linear(t, lp .. ".mlp.gate_proj", I, h, m)
    nn.linear(t, lp .. ".mlp.up_proj", I, h, m)
    nn.linear(t, lp .. ".mlp.down_proj", h, I, m)
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    return {
      arch = "minicpm3", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nn.int(cfg, "num_key_value_heads", nh),
      head_dim = dn + dr, intermediate = I,
      max_position = nn.int(cfg, "max_position_embeddings", nil),
      rotary_dim = dr, -- get_rope(qk_rope_head_dim) in vLLM and SGLang
      tied_embeddings = tied,
      tensors = t,
      kv = { { layers = L, kv_heads = 1, k_dim = r_kv + dr, v_dim = 0, mla = true,
               expanded_heads = nh, expanded_k_dim = dn + dr, expanded_v_dim = dv,
               expanded_by = { "vllm", "llamacpp" } } },
      block = { q_dim = qd, kv_dim = nh * (dn + dr), ffn_dim = I, gated = true, norm = "rms",
                experts = 0, experts_per_tok = 0, parallel_residual = false },
    }
  end,
}
