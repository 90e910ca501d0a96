-- zamba2.lua: Zyphra Zamba2 (transformers Zamba2ForCausalLM, model_type zamba2: Zamba2-1.2B, -2.7B,
-- -7B and their -Instruct versions). Every one of num_hidden_layers layers is a Mamba-2 decoder layer
-- (input_layernorm + a mixer, nn.mamba2_mixer: d_inner = mamba_expand x hidden, mamba_ngroups groups,
-- n_mamba_heads heads of mamba_headdim = d_inner / n_mamba_heads, mamba_d_state, mamba_d_conv; the
-- conv1d always has a bias, in_proj / out_proj add_bias_linear). The layers layers_block_type marks
-- "hybrid" first run a shared transformer block on concat(hidden, the embedding output) (2 x hidden
-- wide), then a per-layer Linear {hidden, hidden} (model.layers.N.linear) whose output the Mamba layer
-- adds to its input. num_mem_blocks shared blocks are cycled over the hybrid layers (ABAB); each holds
-- input_layernorm {2h}, q/k/v_proj {heads x attention_head_dim, 2h} with attention_head_dim =
-- 2 x hidden / num_attention_heads, o_proj {hidden, heads x attention_head_dim}, pre_ff_layernorm {h},
-- a gated MLP gate_up_proj {2 x intermediate_size, h} and down_proj {h, intermediate_size}
-- (intermediate_size default 4 x hidden). Each hybrid application has its own rank-adapter_rank
-- adapters, stored in the block that serves it: gate_up_proj_adapter_list.N (always: {r, h} then
-- {2 I, r}) and, with use_shared_attention_adapter, linear_q/k/v_adapter_list.N ({r, 2h} then
-- {2h, r}). model.final_layernorm; lm_head tied to embed_tokens unless tie_word_embeddings is false.
-- Shapes: transformers models/zamba2 (configuration_zamba2.py Zamba2Config, modular_zamba2.py
-- Zamba2MambaMixer, Zamba2Attention, Zamba2MLP, Zamba2AttentionDecoderLayer, Zamba2Model).
-- Caches: every application of a shared block is its own attention layer with its own K/V
-- (vllm/model_executor/models/zamba2.py builds one Attention per hybrid layer; transformers'
-- Zamba2HybridDynamicCache keys / values by layer index), and every layer (hybrid ones too) keeps a
-- Mamba-2 conv window and SSM state (Zamba2HybridDynamicCache conv_states / ssm_states).
-- RoPE on the shared attention only with use_mem_rope (Zamba2-1.2B / -7B; not -2.7B).
local nn = require "nn"

return arch {
  name        = "zamba2",
  summary     = "Zyphra Zamba2 hybrid (Mamba-2 in every layer + num_mem_blocks shared attention/MLP blocks on the hybrid layers, per-application LoRA adapters)",
  model_types = { "zamba2" },
  build = function(cfg)
    local h, nh = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_attention_heads")
    local L, V = nn.need(cfg, "num_hidden_layers"), nn.need(cfg, "vocab_size")
    local nkv = nn.int(cfg, "num_key_value_heads", nh)
    -- Zamba2Config: attention_hidden_size = 2 x hidden, attention_head_dim = 2 x hidden / heads
    local ah = 2 * h
    local d = nn.div(ah, nh, "2 x hidden_size / num_attention_heads (attention_head_dim)")
    local I = nn.int(cfg, "intermediate_size", 4 * h)
    local types = cfg.layers_block_type
    if types == nil or type(types) == "userdata" then error("config: missing field 'layers_block_type'", 0) end
    if type(types) ~= "table" or #types ~= L then
      error(("config: field 'layers_block_type' must be a list of %d entries (num_hidden_layers)"):format(L), 0)
    end
    local hybrid = {}
    for i, b in ipairs(types) do
      if b == "hybrid" then hybrid[i - 1] = true
      elseif b ~= "mamba" then
        error(("config: entry %d of 'layers_block_type' (%s) is not mamba or hybrid"):format(i - 1, tostring(b)), 0)
      end
    end
    local hyb_ids = nn.layer_list(L, function(i) return hybrid[i] == true end)
    local n_hyb = #hyb_ids
    local blocks = nn.int(cfg, "num_mem_blocks", 1)
    local r = nn.int(cfg, "adapter_rank", 128)
    local attn_adapter = nn.flag(cfg, "use_shared_attention_adapter", false)
    local bias = nn.flag(cfg, "add_bias_linear", false)
    local tied = nn.flag(cfg, "tie_word_embeddings", true)
    local t, lp = {}, "model.layers.*"
    -- the Mamba-2 mixer of every layer (Zamba2MambaMixer: conv1d bias=True whatever use_conv_bias)
    local di = nn.int(cfg, "mamba_expand", 2) * h
    local H = nn.need(cfg, "n_mamba_heads")
    local P = nn.div(di, H, "mamba_expand x hidden_size / n_mamba_heads (mamba_headdim)")
    local state, conv = nn.mamba2_mixer(t, lp .. ".mamba", {
      hidden = h, d_inner = di, heads = H, head_dim = P, groups = nn.int(cfg, "mamba_ngroups", 1),
      state = nn.int(cfg, "mamba_d_state", 64), conv = nn.int(cfg, "mamba_d_conv", 4), count = L,
      conv_bias = true, proj_bias = bias })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    local kv = {}
    if n_hyb > 0 then
      local from = #t + 1
      nn.linear(t, lp .. ".linear", h, h, { count = n_hyb, role = "mlp" })
      nn.place(t, from, hyb_ids)
      -- the shared blocks: stored once each, in the first hybrid layers that run them
      -- (Zamba2Model keeps its num_mem_blocks blocks in a local list: one no hybrid layer runs is
      -- not a module of the model)
      blocks = math.min(blocks, n_hyb)
      local first = {}
      for i = 1, blocks do first[i] = hyb_ids[i] end
      from = #t + 1
      local sp = lp .. ".shared_transformer"
      nn.norm(t, sp .. ".input_layernorm", ah, { count = blocks })
      -- q/k/v read the 2h-wide input; o_proj maps heads x attention_head_dim (= 2h) back to h
      local ao = { count = blocks, role = "attn" }
      nn.linear(t, sp .. ".self_attn.q_proj", nh * d, ah, ao)
      nn.linear(t, sp .. ".self_attn.k_proj", nkv * d, ah, ao)
      nn.linear(t, sp .. ".self_attn.v_proj", nkv * d, ah, ao)
      nn.linear(t, sp .. ".self_attn.o_proj", h, nh * d, ao)
      nn.norm(t, sp .. ".pre_ff_layernorm", h, { count = blocks })
      nn.linear(t, sp .. ".feed_forward.gate_up_proj", 2 * I, h, { count = blocks, role = "mlp", bias = bias })
      nn.linear(t, sp .. ".feed_forward.down_proj", h, I, { count = blocks, role = "mlp", bias = bias })
      nn.place(t, from, first)
      from = #t + 1
      -- one adapter pair per hybrid application (Zamba2MLP / Zamba2Attention adapter lists: the
      -- entries of the other blocks are nn.Identity)
      local ap = sp .. ".feed_forward.gate_up_proj_adapter_list.*"
      nn.linear(t, ap .. ".0", r, h, { count = n_hyb, role = "mlp" })
      nn.linear(t, ap .. ".1", 2 * I, r, { count = n_hyb, role = "mlp" })
      if attn_adapter then
        for _, p in ipairs { "q", "k", "v" } do
          local qp = sp .. ".self_attn.linear_" .. p .. "_adapter_list.*"
          nn.linear(t, qp .. ".0", r, ah, { count = n_hyb, role = "attn" })
          nn.linear(t, qp .. ".1", ah, r, { count = n_hyb, role = "attn" })
        end
      end
      nn.place(t, from, hyb_ids)
      kv[1] = { layers = n_hyb, kv_heads = nkv, k_dim = d, v_dim = d, layer_ids = hyb_ids }
    end
    kv[#kv + 1] = { layers = L, kind = "mamba", state_elems = state, conv_elems = conv }
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm = "model.final_layernorm" })
    local dims = { h = h, L = L, V = V, nh = nh, nkv = nkv, d = d, I = I }
    local block = nn.rms_block(nh, nkv, d, I)
    local rest = { tied_embeddings = tied, tensors = t, kv = kv, block = block }
    if not nn.flag(cfg, "use_mem_rope", false) then rest.rope_rows = 0 end
    return nn.decoder_desc("zamba2", cfg, dims, rest)
  end,
}
