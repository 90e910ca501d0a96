-- gemma3n.lua: the Gemma 3n text decoder (model_type "gemma3n_text", Gemma3nForCausalLM;
-- transformers models/gemma3n/modeling_gemma3n.py Gemma3nTextModel, Gemma3nTextDecoderLayer).
-- Each layer: Gemma 3 attention (q/k norms over head_dim; v_norm has no weight), a GeGLU MLP of
-- its own width (intermediate_size may be a per-layer list), four RMSNorms, AltUp
-- (correct_output_scale {h}, correction_coefs {n, n}, prediction_coefs {n^2, n},
-- modality_router {n, h}, router_norm {h}; n = altup_num_inputs), LAuReL (linear_left {rank, h},
-- linear_right {h, rank}, post_laurel_norm {h}) and the per-layer input (per_layer_input_gate
-- {p, h}, per_layer_projection {h, p}, post_per_layer_input_norm {h}; p =
-- hidden_size_per_layer_input). Model: embed_tokens, the per-layer embeddings
-- embed_tokens_per_layer {vocab_size_per_layer_input, L x p}, per_layer_model_projection
-- {L x p, h}, per_layer_projection_norm {p}, n - 1 altup_projections and
-- altup_unembed_projections {h, h}, norm; lm_head tied.
-- KV sharing: the last num_kv_shared_layers layers compute no K/V and read those of the last
-- earlier layer of their type (Gemma3nTextAttention.kv_shared_layer_index; vLLM gemma3n.py
-- kv_sharing_target_layer_name; llama.cpp gemma3n n_layer_kv_from_start), so only the first
-- L - num_kv_shared_layers layers hold a cache. Local layers: sliding_window (512).
-- Not modelled: the multimodal checkpoint (model_type "gemma3n": MobileNetV5 vision tower,
-- Conformer audio tower and their embedders) is refused rather than counted short.
local nn = require "nn"

return arch {
  name        = "gemma3n",
  summary     = "Gemma 3n text decoder (per-layer embeddings, AltUp, LAuReL, KV sharing); towers not modelled",
  model_types = { "gemma3n", "gemma3n_text" },
  build = function(cfg)
    if nn.opt(cfg, "model_type", "gemma3n_text") == "gemma3n" then
      error("config: gemma3n's vision (MobileNetV5) and audio (Conformer) towers are not modelled; " ..
            "give its text_config (model_type gemma3n_text) for the text decoder alone", 0)
    end
    local h, L, V = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers"), nn.need(cfg, "vocab_size")
    local nh = nn.need(cfg, "num_attention_heads")
    local nkv, d = nn.int(cfg, "num_key_value_heads", nh), nn.head_dim(cfg, h, nh)
    local n, rank = nn.int(cfg, "altup_num_inputs", 4), nn.int(cfg, "laurel_rank", 64)
    local p = nn.int(cfg, "hidden_size_per_layer_input", 256)
    local Vp = nn.int(cfg, "vocab_size_per_layer_input", 262144)
    local shared = nn.count(cfg, "num_kv_shared_layers", 0)
    if shared >= L then error("config: field 'num_kv_shared_layers' must be below num_hidden_layers", 0) end

    -- per-layer MLP widths: an integer or a list of num_hidden_layers integers
    local widths, Imax = {}, 0
    local I = cfg.intermediate_size
    if type(I) == "table" then
      if #I ~= L then error(("config: field 'intermediate_size' has %d entries, expected %d"):format(#I, L), 0) end
      for i = 1, L do widths[i] = nn.int({ w = I[i] }, "w") end
    else
      local w = nn.need(cfg, "intermediate_size")
      for i = 1, L do widths[i] = w end
    end
    local by_width, order = {}, {}
    for i = 1, L do
      local w = widths[i]
      if not by_width[w] then by_width[w] = 0; order[#order + 1] = w end
      by_width[w] = by_width[w] + 1
      if w > Imax then Imax = w end
    end

    local t, lp = {}, "model.layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = nn.flag(cfg, "attention_bias", false), o_bias = nn.flag(cfg, "attention_bias", false), qk_norm = true })
    for k, w in ipairs(order) do   -- one group per width (names stay unique with a width tag)
      local pre = #order == 1 and lp .. ".mlp" or (lp .. ".mlp" .. (k > 1 and ("[w" .. w .. "]") or ""))
      nn.gated_mlp(t, pre, { hidden = h, width = w, count = by_width[w] })
    end
    for _, nm in ipairs { "input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                          "post_feedforward_layernorm", "post_per_layer_input_norm" } do
      nn.norm(t, lp .. "." .. nm, h, { count = L })
    end
    nn.param(t, lp .. ".altup.correct_output_scale", { h }, { count = L })
    nn.linear(t, lp .. ".altup.correction_coefs", n, n, { count = L, role = "other" })
    nn.linear(t, lp .. ".altup.prediction_coefs", n * n, n, { count = L, role = "other" })
    nn.linear(t, lp .. ".altup.modality_router", n, h, { count = L, role = "other" })
    nn.norm(t, lp .. ".altup.router_norm", h, { count = L })
    nn.linear(t, lp .. ".laurel.linear_left", rank, h, { count = L, role = "other" })
    nn.linear(t, lp .. ".laurel.linear_right", h, rank, { count = L, role = "other" })
    nn.norm(t, lp .. ".laurel.post_laurel_norm", h, { count = L })
    nn.linear(t, lp .. ".per_layer_input_gate", p, h, { count = L, role = "mlp" })
    nn.linear(t, lp .. ".per_layer_projection", h, p, { count = L, role = "mlp" })

    -- the per-layer embeddings: a second lookup table (role other: not the token embedding
    -- the lm_head is tied to)
    nn.param(t, "model.embed_tokens_per_layer.weight", { Vp, L * p })
    nn.linear(t, "model.per_layer_model_projection", L * p, h, { role = "other" })
    nn.norm(t, "model.per_layer_projection_norm", p)
    nn.linear(t, "model.altup_projections.*", h, h, { count = n - 1, role = "other" })
    nn.linear(t, "model.altup_unembed_projections.*", h, h, { count = n - 1, role = "other" })
    nn.lm(t, { vocab = V, hidden = h, tied = true })

    -- layer_types (4 local : 1 global on the published configs), else every 5th layer global
    local w = nn.int(cfg, "sliding_window", 512)
    local local_of = nn.layer_types(cfg, L, w) or function(i) return (i + 1) % 5 ~= 0 and w end
    local owned = L - shared
    local kv = nn.kv_groups(owned, nkv, d, d, local_of)
    local dims = { h = h, L = L, V = V, I = Imax, nh = nh, nkv = nkv, d = d }
    return nn.decoder_desc("gemma3n", cfg, dims, { tied_embeddings = true, tensors = t, kv = kv,
      kv_shared_layers = shared > 0 and shared or nil, block = nn.rms_block(nh, nkv, d, Imax) })
  end,
}
