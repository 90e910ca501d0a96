-- gemma.lua: Gemma 1 (model_type "gemma": 2 RMSNorms/layer, GeGLU, tied, no windows), Gemma 2 and Gemma 3 (text, and Gemma3ForConditionalGeneration with its SigLIP
-- vision tower + projector when vision_config is given): 4 RMSNorms/layer, tied embeddings,
-- local/global attention. formulas: shared/calibration/models_README.md §4 (+ gemma-3-27b notes)
local nn = require "nn"

-- SigLIP vision encoder (no pooling head) + Gemma 3 multi-modal projector.
local function vision(t, vc, text_hidden)
  -- The encoder layers' projections are tensor-parallel in vLLM (vllm/model_executor/models/siglip.py:
  -- SiglipAttention's QKVParallelLinear / RowParallelLinear, SiglipMLP's ColumnParallelLinear /
  -- RowParallelLinear), so they carry the attn / mlp roles that shard by tp; the patch and position
  -- embeddings, the norms and the projector stay whole on every rank. gemma-3-27b-it at tp 4 prints
  -- "Model loading took 13.1664 GB" (vllm-project/vllm#16378, V0) and 13.1665 (#15676, 0.8.2 V1):
  -- 13.19 GiB sharded, 13.76 with the tower replicated, 13.39 with the MLP alone sharded.
  local h = nn.siglip_tower(t, vc, "vision_tower.vision_model")
  if nn.flag(vc, "vision_use_head", false) then
    error("config: vision_config.vision_use_head = true is not supported", 0)
  end
  nn.param(t, "multi_modal_projector.mm_input_projection_weight", { h, text_hidden })
  nn.norm(t, "multi_modal_projector.mm_soft_emb_norm", h)
end

return arch {
  name        = "gemma",
  summary     = "Gemma 1 / 2 / 3 decoder (Gemma 3 multimodal: text + SigLIP vision tower)",
  model_types = { "gemma", "gemma2", "gemma3", "gemma3_text" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or cfg
    local mt = nn.opt(cfg, "model_type", tc ~= cfg and "gemma3" or "gemma2")
    local g1 = mt == "gemma"
    local g3 = not g1 and mt ~= "gemma2"
    local dims = nn.decoder_dims(tc)
    local h, L, V, I = dims.h, dims.L, dims.V, nn.need(tc, "intermediate_size")
    local nh, nkv, d = dims.nh, dims.nkv, dims.d
    local lm = (tc ~= cfg) and "language_model.model" or "model"

    local t = {}
    local lp = lm .. ".layers.*"
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d,
      count = L, qkv_bias = nn.flag(tc, "attention_bias", false),
      o_bias = nn.flag(tc, "attention_bias", false), qk_norm = g3 })
    nn.gated_mlp(t, lp .. ".mlp", { hidden = h, width = I, count = L })
    -- Gemma 1 (transformers models/gemma/modeling_gemma.py GemmaDecoderLayer): input_layernorm
    -- and post_attention_layernorm only, the Llama layout; Gemma 2/3 add the two FFN norms.
    local norms = g1 and { "input_layernorm", "post_attention_layernorm" }
                      or { "input_layernorm", "post_attention_layernorm",
                           "pre_feedforward_layernorm", "post_feedforward_layernorm" }
    for _, n in ipairs(norms) do
      nn.norm(t, lp .. "." .. n, h, { count = L })
    end
    -- tied unless the config says otherwise: GemmaConfig / Gemma2Config / Gemma3TextConfig default
    -- tie_word_embeddings to True and PreTrainedModel.tie_weights ties only when it is set; a
    -- LitGPT conversion (convert_hf_checkpoint.py copies embed_tokens into its own lm_head) is untied
    local tied = nn.flag(tc, "tie_word_embeddings", true)
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = lm .. ".embed_tokens", norm = lm .. ".norm" })
    -- A Gemma 3 GGUF keeps the tokenizer's 262,144 rows of embed_tokens: the 4B / 12B / 27B
    -- configs give vocab_size 262,208 (64 padding rows) and convert_hf_to_gguf.py
    -- Gemma3Model.modify_tensors drops them ("remove OOV (out-of-vocabulary) rows in
    -- token_embd": data_torch[:len(tokens)] of tokenizer.model). llama.cpp's n_vocab, its logits
    -- and the tied output follow the file. gemma-3-27b-it Q4_K_M (lmstudio-community, b5452,
    -- llama.cpp issue #13703): CPU_Mapped 1102.50 MiB = 262,144 x 5,376 Q6_K, was 1102.77
    if g3 and V > 262144 then
      for _, x in ipairs(t) do
        if x.name == lm .. ".embed_tokens.weight" then x.gguf_rows = 262144 end
      end
    end
    local vc = nn.sub(cfg, "vision_config")
    if vc and tc ~= cfg then vision(t, vc, h) end

    -- Gemma 1: global attention on every layer. Gemma 2: even layers local (window 4096).
    -- Gemma 3: every 6th layer global.
    local w = nn.int(tc, "sliding_window", 4096)
    local local_of = not g1 and nn.layer_types(tc, L, w) or nil
    if g1 then
      local_of = nil
    elseif not local_of then
      local pattern = g3 and nn.int(tc, "sliding_window_pattern", 6) or 2
      local_of = g3 and function(i) return (i + 1) % pattern ~= 0 and w end
                     or function(i) return i % 2 == 0 and w end
    end
    -- Gemma 3's sliding layers rotate with their own base (rope_local_base_freq, unscaled) and
    -- the global layers with rope_theta and rope_scaling (linear x8 on 4B/12B/27B): two get_rope
    -- keys, two cos/sin caches (vllm/model_executor/models/gemma3.py Gemma3Attention). Transformers
    -- v5 configs give rope_parameters per layer type. Gemma 2 has one RoPE for every layer.
    local rows = nn.rope_rows(tc)
    if g3 and rows then
      local rp = type(tc.rope_parameters) == "table" and tc.rope_parameters or {}
      local full, slide = rp.full_attention, rp.sliding_attention
      if type(full) == "table" or type(slide) == "table" then
        rows = nn.rope_rows(tc, type(full) == "table" and full or {}) + nn.rope_rows(tc, type(slide) == "table" and slide or {})
      else
        rows = rows + nn.rope_rows(tc, {})
      end
    end
    return nn.decoder_desc("gemma", tc, dims, { tied_embeddings = tied, tensors = t, rope_rows = rows,
      kv = nn.kv_groups(L, nkv, d, d, local_of), block = nn.rms_block(nh, nkv, d, I) })
  end,
}
