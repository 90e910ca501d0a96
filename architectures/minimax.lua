-- minimax.lua: MiniMax-Text-01 / MiniMax-M1 (MiniMaxText01ForCausalLM, MiniMaxM1ForCausalLM;
-- model_type minimax_text_01 / minimax_m1, and transformers' minimax): lightning attention
-- (linear attention with a per-head decay) in most layers and GQA softmax attention with partial
-- RoPE (rotary_dim) in the others, as attn_type_list says (0 lightning, 1 softmax; transformers'
-- layer_types "linear_attention" / "full_attention"), a 32-expert top-2 MoE in every layer.
-- Shapes: vllm/model_executor/models/minimax_text_01.py (MiniMaxText01LinearAttention: qkv_proj
-- {3 H d, h}, output_gate {H d, h}, out_proj {h, H d}, norm {H d}; the decay slopes are computed,
-- not loaded; MiniMaxText01Attention: q/k/v/o_proj; MiniMaxText01MoE: gate {E, h} and experts
-- w1/w3/w2 of intermediate_size). State of a lightning layer: H x d x d in mamba_cache_dtype
-- (vllm mamba_utils.py linear_attention_state_shape / linear_attention_state_dtype: one tensor,
-- no separate SSM dtype), so the whole state is described as conv_elems (the part in
-- mamba_cache_dtype).
local nn = require "nn"

return arch {
  name        = "minimax",
  summary     = "MiniMax-Text-01 / MiniMax-M1 hybrid (lightning linear attention + softmax attention, MoE)",
  model_types = { "minimax_text_01", "minimax_m1", "minimax" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local E, k, EI = nn.need(cfg, "num_local_experts"), nn.need(cfg, "num_experts_per_tok"), nn.need(cfg, "intermediate_size")
    if nn.count(cfg, "shared_intermediate_size", 0) > 0 then
      error("config: field 'shared_intermediate_size' > 0 (a shared MoE expert) is not modelled for MiniMax", 0)
    end
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local full_of
    local atl, lt = cfg.attn_type_list, cfg.layer_types
    if type(atl) == "table" then
      if #atl ~= L then error(("config: field 'attn_type_list' has %d entries, expected %d"):format(#atl, L), 0) end
      for i, v in ipairs(atl) do
        if v ~= 0 and v ~= 1 then error(("config: entry %d of 'attn_type_list' is %s, not 0 or 1"):format(i - 1, tostring(v)), 0) end
      end
      full_of = function(i) return atl[i + 1] == 1 end
    elseif type(lt) == "table" then
      if #lt ~= L then error(("config: field 'layer_types' has %d entries, expected %d"):format(#lt, L), 0) end
      for i, v in ipairs(lt) do
        if v ~= "linear_attention" and v ~= "full_attention" then
          error(("config: entry %d of 'layer_types' is %s, not linear_attention or full_attention"):format(i - 1, tostring(v)), 0)
        end
      end
      full_of = function(i) return lt[i + 1] == "full_attention" end
    else
      error("config: field 'attn_type_list' (or 'layer_types') is missing", 0)
    end
    local full_ids = nn.layer_list(L, full_of)
    local lin_ids = nn.layer_list(L, function(i) return not full_of(i) end)
    local nf, nl = #full_ids, #lin_ids

    local t, lp = {}, "model.layers.*"
    local sa, P = lp .. ".self_attn", nh * d
    local from, a = #t + 1, { count = nl, role = "attn" }
    nn.linear(t, sa .. ".qkv_proj", 3 * P, h, a)
    nn.linear(t, sa .. ".output_gate", P, h, a)
    nn.linear(t, sa .. ".out_proj", h, P, a)
    nn.norm(t, sa .. ".norm", P, { count = nl })
    nn.place(t, from, lin_ids)
    from = #t + 1
    nn.attention(t, sa, { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = nf })
    nn.place(t, from, full_ids)
    -- the router in fp32 (MiniMaxText01MoE: gate ReplicatedLinear params_dtype=torch.float32)
    nn.param(t, lp .. ".block_sparse_moe.gate.weight", { E, h }, { count = L, role = "router", dtype = "fp32" })
    nn.gated_mlp(t, lp .. ".block_sparse_moe.experts.*", { hidden = h, width = EI, count = L * E, role = "expert",
                                                           names = { "w1", "w3", "w2" } })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied })

    local kv = {}
    if nf > 0 then kv[#kv + 1] = { layers = nf, kv_heads = nkv, k_dim = d, v_dim = d } end
    if nl > 0 then kv[#kv + 1] = { layers = nl, kind = "mamba", state_elems = nh * d * d, conv_elems = nh * d * d } end
    dims.I = 0   -- every layer MoE
    return nn.decoder_desc("minimax", cfg, dims, {
      tied_embeddings = tied, tensors = t, kv = kv,
      -- partial RoPE on the softmax layers: rotary_dim of head_dim (MiniMaxText01Attention get_rope)
      rotary_dim = nn.int(cfg, "rotary_dim", d),
      -- vLLM sizes MiniMax's one rotary cache by min(max_position_embeddings, max_model_len) rows in
      -- fp32 (MiniMaxText01Model: config.max_model_len set from the model config, cache_dtype
      -- torch.float32): 64 x 4 B = 256 B a context token, 16 MiB at 65,536, not the 10,240,000 rows
      -- (1.3 GB) the config's max_position would imply; left out, as the description cannot see
      -- max_model_len
      rope_rows = 0,
      block = nn.rms_block(nh, nkv, d, k * EI, E, k, EI),
    })
  end,
}
