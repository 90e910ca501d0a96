-- llama4.lua: Llama 4 (Scout, Maverick): MoE layers (routed experts stored fused per layer,
-- top-1 router, a shared expert) interleaved with dense layers, chunked local attention
-- (attention_chunk_size) with RoPE on 3 of 4 layers, global NoPE attention on every 4th;
-- Llama4ForConditionalGeneration adds the vision tower, pixel-shuffle adapter and projector.
-- Shapes: transformers models/llama4/modeling_llama4.py (qk norm is an L2 norm, no weight).
local nn = require "nn"

-- Llama4VisionModel + Llama4MultiModalProjector.
local function vision(t, vc, text_hidden)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers")
  local I, p = nn.need(vc, "intermediate_size"), nn.need(vc, "patch_size")
  local side = nn.div(nn.need(vc, "image_size"), p, "image_size / patch_size")
  local ch = nn.int(vc, "num_channels", 3)
  local pin, pout = nn.need(vc, "projector_input_dim"), nn.need(vc, "projector_output_dim")
  local pre, lp = "vision_model", "vision_model.model.layers.*"
  nn.linear(t, pre .. ".patch_embedding.linear", h, ch * p * p, { role = "other" })
  nn.param(t, pre .. ".class_embedding", { h })
  nn.param(t, pre .. ".positional_embedding_vlm", { side * side + 1, h }, { role = "pos_embed" })
  nn.norm(t, pre .. ".layernorm_pre", h, { bias = true })
  nn.norm(t, pre .. ".layernorm_post", h, { bias = true })
  for _, n in ipairs { "q_proj", "k_proj", "v_proj", "o_proj" } do
    nn.linear(t, lp .. ".self_attn." .. n, h, h, { count = L, bias = true })
  end
  nn.linear(t, lp .. ".mlp.fc1", I, h, { count = L, bias = true, role = "mlp" })
  nn.linear(t, lp .. ".mlp.fc2", h, I, { count = L, bias = true, role = "mlp" })
  nn.norm(t, lp .. ".input_layernorm", h, { count = L, bias = true })
  nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L, bias = true })
  -- pixel-shuffle adapter (ratio 0.5: 4 patches -> intermediate_size channels), then projector
  nn.linear(t, pre .. ".vision_adapter.mlp.fc1", pin, I, { role = "mlp" })
  nn.linear(t, pre .. ".vision_adapter.mlp.fc2", pout, pout, { role = "mlp" })
  nn.linear(t, "multi_modal_projector.linear_1", text_hidden, nn.need(vc, "vision_output_dim"),
    { bias = nn.flag(vc, "multi_modal_projector_bias", false) })
end

return arch {
  name        = "llama4",
  summary     = "Llama 4 MoE decoder (chunked local + global NoPE attention; vision tower)",
  model_types = { "llama4", "llama4_text" },
  build = function(cfg)
    local tc = nn.sub(cfg, "text_config") or cfg
    local mm = tc ~= cfg
    local h, L = nn.need(tc, "hidden_size"), nn.need(tc, "num_hidden_layers")
    local V, nh = nn.need(tc, "vocab_size"), nn.need(tc, "num_attention_heads")
    local nkv = nn.int(tc, "num_key_value_heads", nh)
    local d = nn.head_dim(tc, h, nh)
    local E, k = nn.need(tc, "num_local_experts"), nn.int(tc, "num_experts_per_tok", 1)
    local I, dense_I = nn.need(tc, "intermediate_size"), nn.need(tc, "intermediate_size_mlp")
    local step = nn.int(tc, "interleave_moe_layer_step", 1)
    -- moe_layers: step-1, 2*step-1, ... (Llama4TextConfig); Maverick's every other layer
    local function is_moe(i) return (i + 1) % step == 0 end
    local moe_L = nn.count_layers(L, is_moe)
    local tied = nn.flag(cfg, "tie_word_embeddings", nn.flag(tc, "tie_word_embeddings", false))
    local lm = mm and "language_model.model" or "model"
    local lp = lm .. ".layers.*"

    local t = {}
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d,
      count = L, qkv_bias = nn.flag(tc, "attention_bias", false), o_bias = nn.flag(tc, "attention_bias", false) })
    local from = #t + 1
    local x = { count = moe_L * E, role = "expert" }
    nn.param(t, lp .. ".feed_forward.experts.gate_up_proj", { h, 2 * I }, x)
    nn.param(t, lp .. ".feed_forward.experts.down_proj", { I, h }, x)
    nn.linear(t, lp .. ".feed_forward.router", E, h, { count = moe_L, role = "router" })
    nn.gated_mlp(t, lp .. ".feed_forward.shared_expert", { hidden = h, width = I, count = moe_L,
      role = "shared_expert" })
    -- layer_ids: interleaved MoE and dense layers sit where the config says, so a partial offload
    -- (llama.cpp -ngl: the last layers) takes the MoE layers among them, not the last moe_L
    if step > 1 then
      nn.place(t, from, nn.layer_list(L, is_moe))
      from = #t + 1
    end
    nn.gated_mlp(t, lp .. ".feed_forward", { hidden = h, width = dense_I, count = L - moe_L })
    if step > 1 then nn.place(t, from, nn.layer_list(L, function(i) return not is_moe(i) end)) end
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".post_attention_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = lm .. ".embed_tokens", norm = lm .. ".norm",
               head = mm and "language_model.lm_head" or "lm_head" })
    local vc = nn.sub(cfg, "vision_config")
    if vc and mm then vision(t, vc, h) end

    -- no_rope_layers[i] = 1: RoPE + chunked attention; default every 4th layer is global.
    local chunk = nn.int(tc, "attention_chunk_size", nil)
    local nope = nn.opt(tc, "no_rope_layers", {})
    local interval = nn.int(tc, "no_rope_layer_interval", 4)
    local function chunked(i)
      if #nope == L then return nope[i + 1] == 1 end
      return (i + 1) % interval ~= 0
    end
    local n_chunked = chunk and nn.count_layers(L, chunked) or 0
    local kv = {}
    if L - n_chunked > 0 then kv[#kv + 1] = { layers = L - n_chunked, kv_heads = nkv, k_dim = d, v_dim = d } end
    if n_chunked > 0 then
      kv[#kv + 1] = { layers = n_chunked, kv_heads = nkv, k_dim = d, v_dim = d, window = chunk, kind = "chunked" }
    end
    return {
      arch = "llama4", family = "decoder",
      hidden = h, layers = L, vocab = V, heads = nh, kv_heads = nkv, head_dim = d,
      intermediate = moe_L < L and dense_I or 0, max_position = nn.int(tc, "max_position_embeddings", nil),
      tied_embeddings = tied,
      tensors = t,
      kv = kv,
      block = nn.rms_block(nh, nkv, d, (k + 1) * I, E, k, I),
    }
  end,
}
