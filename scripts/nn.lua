-- nn.lua: helpers for architecture scripts (config access, tensor lists).
-- Pure Lua 5.4, exact integer arithmetic only. Architecture scripts do
--   local nn = require "nn"
-- JSON null reaches a script as nil (or, from some hosts, a userdata sentinel):
-- both read as "absent" here.

local nn = {}

local function absent(v) return v == nil or type(v) == "userdata" end

-- v as an integer (a float with an integral value is converted), or nil.
local function as_int(v)
  if math.type(v) == "integer" then return v end
  if math.type(v) == "float" then return math.tointeger(v) end
  return nil
end

local function show(v)
  if type(v) == "string" then return ("%q"):format(v) end
  return tostring(v)
end

local function bad_int(key, v, what)
  error(("config: field '%s' must be a %s integer, got %s"):format(key, what, show(v)), 0)
end

-- An integer field of at least `min` (`what` names the bound in the error), or `default`
-- when absent.
local function int_field(cfg, key, default, min, what)
  local v = cfg[key]
  if absent(v) then return default end
  local i = as_int(v)
  if not i or i < min then bad_int(key, v, what) end
  return i
end

-- A required positive integer field.
function nn.need(cfg, key)
  if absent(cfg[key]) then error(("config: missing field '%s'"):format(key), 0) end
  return int_field(cfg, key, nil, 1, "positive")
end

-- Any field, or `default` when absent (JSON null counts as absent).
function nn.opt(cfg, key, default)
  local v = cfg[key]
  if absent(v) then return default end
  return v
end

-- An optional positive integer field (default when absent; default may be nil).
function nn.int(cfg, key, default) return int_field(cfg, key, default, 1, "positive") end

-- An optional non-negative integer field (0 allowed).
function nn.count(cfg, key, default) return int_field(cfg, key, default, 0, "non-negative") end

-- An optional boolean field.
function nn.flag(cfg, key, default)
  local v = cfg[key]
  if absent(v) then return default end
  if type(v) ~= "boolean" then
    error(("config: field '%s' must be true or false, got %s"):format(key, show(v)), 0)
  end
  return v
end

-- The first present key of a list of spellings (e.g. { "num_hidden_layers", "n_layer" }).
function nn.need_any(cfg, keys)
  for _, k in ipairs(keys) do
    if not absent(cfg[k]) then return nn.need(cfg, k) end
  end
  error(("config: missing field '%s'"):format(keys[1]), 0)
end

-- Exact division a/b of positive integers; error naming the fields otherwise.
function nn.div(a, b, what)
  if b <= 0 or a % b ~= 0 then
    error(("config: %s: %d is not a multiple of %d"):format(what, a, b), 0)
  end
  return a // b
end

-- head_dim: the config's own, else hidden / heads (exact).
function nn.head_dim(cfg, hidden, heads)
  return nn.int(cfg, "head_dim", nil) or nn.div(hidden, heads, "hidden_size / num_attention_heads")
end

-- rotary_dim: the dimensions of a head RoPE rotates, which size the cos/sin cache vLLM
-- registers (max_position x rotary_dim: vllm/model_executor/layers/rotary_embedding/
-- __init__.py get_rope, rotary_dim = int(head_size * partial_rotary_factor)): the config's
-- rotary_dim (MiniMax-M2), else head_dim x partial_rotary_factor (GLM-4.5 0.5, Qwen3-Next
-- 0.25; top level or in rope_parameters / rope_scaling), else head_dim. `key` names the
-- fraction where a family's config calls it otherwise (GPT-NeoX: rotary_pct).
function nn.rotary_dim(cfg, d, key)
  key = key or "partial_rotary_factor"
  local rd = nn.int(cfg, "rotary_dim", nil)
  if rd then return rd end
  local f = cfg[key]
  for _, k in ipairs({ "rope_parameters", "rope_scaling" }) do
    if f == nil and type(cfg[k]) == "table" then f = cfg[k][key] end
  end
  if type(f) == "number" and f > 0 and f < 1 then return math.floor(d * f) end
  return d
end

-- A family whose config class gives partial_rotary_factor a default (NemotronConfig 0.5,
-- StableLmConfig 0.25): the config's factor checked (a number in (0, 1]), and the rotary dims of
-- DEFAULT where the config gives neither it nor rotary_dim (else nil: nn.rotary_dim reads them).
function nn.default_rotary_dim(cfg, d, default)
  local pf = cfg.partial_rotary_factor
  if pf ~= nil and (type(pf) ~= "number" or pf <= 0 or pf > 1) then
    error(("config: field 'partial_rotary_factor' must be a number in (0, 1], got %s %s"):format(type(pf), tostring(pf)), 0)
  end
  if pf == nil and cfg.rotary_dim == nil then return math.floor(d * default) end
  return nil
end

-- GPT-2's config names (GPT2Config, GPTBigCodeConfig; the generic names accepted too): hidden,
-- layers, vocabulary, heads, learned positions, FFN width (n_inner, default 4 x hidden), head size.
function nn.gpt2_dims(cfg)
  local h, L = nn.need_any(cfg, { "n_embd", "hidden_size" }), nn.need_any(cfg, { "n_layer", "num_hidden_layers" })
  local V, nh = nn.need(cfg, "vocab_size"), nn.need_any(cfg, { "n_head", "num_attention_heads" })
  local P = nn.need_any(cfg, { "n_positions", "max_position_embeddings" })
  return h, L, V, nh, P, nn.int(cfg, "n_inner", 4 * h), nn.div(h, nh, "n_embd / n_head")
end

-- The shape fields every decoder config has: hidden size, layers, vocabulary, FFN
-- width (nil when the family names it otherwise), heads, KV heads, head_dim.
function nn.decoder_dims(cfg)
  local h, nh = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_attention_heads")
  return {
    h = h, L = nn.need(cfg, "num_hidden_layers"), V = nn.need(cfg, "vocab_size"),
    I = nn.int(cfg, "intermediate_size", nil), nh = nh,
    nkv = nn.int(cfg, "num_key_value_heads", nh), d = nn.head_dim(cfg, h, nh),
  }
end

-- The description of a dense-attention decoder built from cfg's (or its text_config's) shape
-- fields: arch, family, hidden, layers, vocab, heads, KV heads, head_dim, FFN width (I, or
-- the config's intermediate_size), max_position; `rest` adds tensors, kv, block,
-- tied_embeddings and anything else the family has.
function nn.decoder_desc(arch, tc, dims, rest)
  local d = {
    arch = arch, family = "decoder", hidden = dims.h, layers = dims.L, vocab = dims.V, heads = dims.nh,
    kv_heads = dims.nkv, head_dim = dims.d, intermediate = dims.I or nn.need(tc, "intermediate_size"),
    max_position = nn.int(tc, "max_position_embeddings", nil), rotary_dim = nn.rotary_dim(tc, dims.d),
    rope_positions = nn.rope_positions(tc), rope_rows = nn.rope_rows(tc),
    -- an attention temperature on every layer (llama.cpp mistral3's attention.temperature_scale,
    -- read by scripts/model_files.lua into this key)
    attn_temp = tc.attn_temperature_every_layer == true or nil,
  }
  for k, v in pairs(rest) do d[k] = v end
  return d
end

-- Rows of the cos/sin cache vLLM registers for the config's RoPE (vllm/model_executor/layers/
-- rotary_embedding: linear_scaling_rope.py LinearScalingRotaryEmbedding and
-- dynamic_ntk_scaling_rope.py DynamicNTKScalingRotaryEmbedding build max_position x factor rows:
-- "self.max_position_embeddings is the original maximum length before applying the rope
-- scaling ... the maximum length after applying the rope scaling is self.max_position_embeddings
-- * self.scaling_factor"; every other kind max_position rows). nil when max_position is unknown.
-- `rope` is the rope_scaling / rope_parameters table to read (default: the config's own).
function nn.rope_rows(tc, rope)
  local mp = nn.int(tc, "max_position_embeddings", nil)
  if not mp then return nil end
  if rope == nil then
    rope = type(tc.rope_scaling) == "table" and tc.rope_scaling or tc.rope_parameters
  end
  if type(rope) ~= "table" then return mp end
  local kind = rope.rope_type or rope.type
  if (kind == "linear" or kind == "dynamic") and type(rope.factor) == "number" and rope.factor > 1 then
    return math.floor(mp * rope.factor)
  end
  return mp
end

-- Positions per token RoPE reads: 4 with multimodal RoPE (rope_scaling / rope_parameters of
-- type "mrope", or an mrope_section: Qwen2-VL, Qwen2.5-VL; llama.cpp's n_pos_per_embd), else 1
function nn.rope_positions(tc)
  for _, key in ipairs({ "rope_scaling", "rope_parameters" }) do
    local r = tc[key]
    if type(r) == "table" and (r.type == "mrope" or r.rope_type == "mrope" or r.mrope_section ~= nil) then return 4 end
  end
  return 1
end

-- A multimodal config's text_config with the shape defaults of its transformers config class filled
-- in (configuration_llama.py LlamaConfig, configuration_mistral.py MistralConfig,
-- configuration_qwen2.py Qwen2Config): LLaVA's and Idefics3's configs give only the fields that
-- differ (llava-1.5-7b-hf's text_config has no hidden_size, num_hidden_layers, ...: LlamaConfig's
-- defaults are Vicuna-7B's shapes). Not filled: MistralConfig's sliding_window (4096), since a
-- JSON null there reads as absent. Returns a copy with model_type set (default `dflt_type`), or
-- nil and the model_type when the class is not one of these.
local TEXT_DEFAULTS = {
  llama   = { vocab_size = 32000, hidden_size = 4096, intermediate_size = 11008, num_hidden_layers = 32,
              num_attention_heads = 32, max_position_embeddings = 2048 },
  mistral = { vocab_size = 32000, hidden_size = 4096, intermediate_size = 14336, num_hidden_layers = 32,
              num_attention_heads = 32, num_key_value_heads = 8, max_position_embeddings = 131072 },
  qwen2   = { vocab_size = 151936, hidden_size = 4096, intermediate_size = 22016, num_hidden_layers = 32,
              num_attention_heads = 32, num_key_value_heads = 32, max_position_embeddings = 32768 },
}
-- A copy of config table TBL (nil: none) over DEFAULTS: its config class's defaults for the fields
-- a config.json leaves out (a JSON null reads as absent).
function nn.filled(tbl, defaults)
  local c = {}
  for k, v in pairs(defaults) do c[k] = v end
  for k, v in pairs(tbl or {}) do if not absent(v) then c[k] = v end end
  return c
end

function nn.text_defaults(tc, dflt_type)
  local mt = nn.opt(tc, "model_type", dflt_type)
  local d = TEXT_DEFAULTS[mt]
  if not d then return nil, mt end
  local c = nn.filled(tc, d)
  c.model_type = mt
  return c
end

-- A SigLIP vision tower without pooling head under PRE (Gemma 3's vision_tower.vision_model,
-- Idefics3's model.vision_model): a biased patch Conv2d, (image_size / patch_size)^2 learned
-- positions, the encoder layers (nn.vit_layers) and post_layernorm; returns hidden and the patches
-- an image gives. With FLOOR the side is image_size // patch_size, as SiglipVisionEmbeddings
-- computes it (transformers models/siglip/modeling_siglip.py: num_patches = (image_size //
-- patch_size) ** 2; the stride-p convolution drops the remainder: SigLIP-so400m-patch14-384 has
-- 27 x 27 = 729 patches); without it a non-dividing image_size is refused, naming the field.
function nn.siglip_tower(t, vc, pre, floor)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers")
  local I, p = nn.need(vc, "intermediate_size"), nn.need(vc, "patch_size")
  local side = floor and nn.need(vc, "image_size") // p
    or nn.div(nn.need(vc, "image_size"), p, "vision_config.image_size / patch_size")
  if side == 0 then
    error(("config: field 'vision_config.image_size' %d is smaller than patch_size %d"):format(vc.image_size, p), 0)
  end
  local ch = nn.int(vc, "num_channels", 3)
  nn.param(t, pre .. ".embeddings.patch_embedding.weight", { h, ch, p, p })
  nn.param(t, pre .. ".embeddings.patch_embedding.bias", { h })
  nn.embed(t, pre .. ".embeddings.position_embedding", side * side, h, { role = "pos_embed" })
  nn.vit_layers(t, pre .. ".encoder.layers.*", h, I, L)
  nn.norm(t, pre .. ".post_layernorm", h, { bias = true })
  return h, side * side
end

-- A CLIP vision tower under PRE (CLIPVisionTransformer, transformers models/clip/modeling_clip.py: LLaVA's
-- vision_tower.vision_model, Phi-3-vision's model.vision_embed_tokens.img_processor.vision_model): the
-- class embedding, a bias-free patch conv, (image_size / patch)^2 + 1 learned positions, pre_layrnorm, the
-- encoder layers (nn.vit_layers) and post_layernorm. Returns the hidden size.
function nn.clip_tower(t, vc, pre)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "num_hidden_layers")
  local I, p = nn.need(vc, "intermediate_size"), nn.need(vc, "patch_size")
  local side = nn.div(nn.need(vc, "image_size"), p, "vision_config.image_size / patch_size")
  local ch = nn.int(vc, "num_channels", 3)
  nn.param(t, pre .. ".embeddings.class_embedding", { h })
  nn.param(t, pre .. ".embeddings.patch_embedding.weight", { h, ch, p, p })
  nn.embed(t, pre .. ".embeddings.position_embedding", side * side + 1, h, { role = "pos_embed" })
  nn.norm(t, pre .. ".pre_layrnorm", h, { bias = true })
  nn.vit_layers(t, pre .. ".encoder.layers.*", h, I, L)
  nn.norm(t, pre .. ".post_layernorm", h, { bias = true })
  return h
end

-- The L encoder layers of a CLIP / SigLIP vision tower under LP ("...encoder.layers.*"): biased
-- q / k / v / out_proj of H, GELU fc1 / fc2 of I, LayerNorms layer_norm1 / layer_norm2 with bias.
-- The projections carry the attn / mlp roles that shard by tensor parallelism: vLLM builds these
-- towers from parallel linears (vllm/model_executor/models/siglip.py, clip.py,
-- idefics2_vision_model.py: QKVParallelLinear, Column- / RowParallelLinear).
function nn.vit_layers(t, lp, h, I, L)
  local attn, mlp = { count = L, role = "attn", bias = true }, { count = L, role = "mlp", bias = true }
  for _, n in ipairs { "q_proj", "k_proj", "v_proj", "out_proj" } do
    nn.linear(t, lp .. ".self_attn." .. n, h, h, attn)
  end
  nn.linear(t, lp .. ".mlp.fc1", I, h, mlp)
  nn.linear(t, lp .. ".mlp.fc2", h, I, mlp)
  nn.norm(t, lp .. ".layer_norm1", h, { count = L, bias = true })
  nn.norm(t, lp .. ".layer_norm2", h, { count = L, bias = true })
end

-- A nested config table (e.g. text_config), or nil.
function nn.sub(cfg, key)
  local v = cfg[key]
  if type(v) == "table" then return v end
  return nil
end

---------------------------------------------------------------------------
-- Tensor lists. Every builder appends to `list` and returns it.
-- opts: count (default 1), role (default given per builder), bias (boolean).

local function add(list, name, shape, count, role)
  for i, d in ipairs(shape) do
    if math.type(d) ~= "integer" or d <= 0 then
      error(("tensor '%s': dimension %d must be a positive integer, got %s"):format(name, i, show(d)), 0)
    end
  end
  if count ~= 0 then
    list[#list + 1] = { name = name, shape = shape, count = count, role = role }
  end
  return list
end

-- The 0-based layers i of 0 .. n - 1 for which pred(i) holds, ascending.
function nn.layer_list(n, pred)
  local ids = {}
  for i = 0, n - 1 do if pred(i) then ids[#ids + 1] = i end end
  return ids
end

-- Places the "*" tensors added to LIST from index FROM on at the layers IDS (0-based, one per
-- layer of the group, ascending): a hybrid whose kinds of layer follow a pattern rather than
-- one group in the first or last layers (Nemotron-H's hybrid_override_pattern, Jamba's periods,
-- Bamba's attn_layer_indices). llama.cpp creates each tensor in its own layer's buffer
-- (src/llama-model.cpp create_tensor by the layer's dev_layer; -ngl offloads the last layers), so
-- the GGUF expansion (scripts/quant/_gguf_rules.lua layers_of) names and types it there.
function nn.place(list, from, ids)
  for i = from, #list do list[i].layer_ids = ids end
  return list
end

-- A raw parameter: name as stored, any shape. count 0 adds nothing. opts.dtype: a storage
-- dtype of its own (e.g. "fp32" whatever the model dtype). opts.buffer: a persistent buffer
-- (register_buffer): stored in the checkpoint and resident, but no parameter (no gradient,
-- no optimizer state, no adapter; not in nn.params).
function nn.param(list, name, shape, opts)
  opts = opts or {}
  local n = #list
  add(list, name, shape, opts.count or 1, opts.role or "other")
  if opts.dtype and #list > n then list[#list].dtype = opts.dtype end
  if opts.buffer and #list > n then list[#list].buffer = true end
  -- layout "out_in": a 2-D parameter stored {out, in} like a Linear although it has no
  -- ".weight" suffix (Qwen3.5-MoE's fused experts); "in_out": stored {in, out} (DBRX's stacked
  -- down projection w2); quant.lua Q.dims reads it
  if opts.layout and #list > n then list[#list].layout = opts.layout end
  return list
end

-- A Linear: NAME.weight {out, in} and, with opts.bias, NAME.bias {out}.
function nn.linear(list, name, out, inp, opts)
  opts = opts or {}
  local count, role = opts.count or 1, opts.role or "attn"
  add(list, name .. ".weight", { out, inp }, count, role)
  if opts.bias then add(list, name .. ".bias", { out }, count, role) end
  return list
end

-- A GPT-2 style Conv1D: weight stored {in, out}, bias {out} unless bias == false.
function nn.conv1d(list, name, inp, out, opts)
  opts = opts or {}
  local count, role = opts.count or 1, opts.role or "attn"
  add(list, name .. ".weight", { inp, out }, count, role)
  if opts.bias ~= false then add(list, name .. ".bias", { out }, count, role) end
  return list
end

-- A norm: NAME.weight {dim} (+ NAME.bias with opts.bias, i.e. LayerNorm).
function nn.norm(list, name, dim, opts)
  opts = opts or {}
  local count = opts.count or 1
  add(list, name .. ".weight", { dim }, count, "norm")
  if opts.bias then add(list, name .. ".bias", { dim }, count, "norm") end
  return list
end

-- An embedding table NAME.weight {rows, dim}.
function nn.embed(list, name, rows, dim, opts)
  opts = opts or {}
  return add(list, name .. ".weight", { rows, dim }, opts.count or 1, opts.role or "embed")
end

-- Self-attention projections under PREFIX (e.g. "model.layers.*.self_attn").
-- a = { hidden, heads, kv_heads, head_dim, count, qkv_bias, o_bias, qk_norm, fused }
-- fused: one qkv_proj (Phi-3). qk_norm: per-head RMSNorm q_norm/k_norm {head_dim}.
function nn.attention(list, prefix, a)
  local q, kv = a.heads * a.head_dim, a.kv_heads * a.head_dim
  local o = { count = a.count, role = "attn", bias = a.qkv_bias }
  if a.fused then
    nn.linear(list, prefix .. ".qkv_proj", q + 2 * kv, a.hidden, o)
  else
    nn.linear(list, prefix .. ".q_proj", q, a.hidden, o)
    nn.linear(list, prefix .. ".k_proj", kv, a.hidden, o)
    nn.linear(list, prefix .. ".v_proj", kv, a.hidden, o)
  end
  nn.linear(list, prefix .. ".o_proj", a.hidden, q, { count = a.count, role = "attn", bias = a.o_bias })
  if a.qk_norm then
    nn.norm(list, prefix .. ".q_norm", a.head_dim, { count = a.count })
    nn.norm(list, prefix .. ".k_norm", a.head_dim, { count = a.count })
  end
  return list
end

-- Multi-head latent attention's projections under PREFIX (DeepSeek-V2's DeepseekV2Attention and
-- the families that took it): q_a_proj {q_lora, h} + q_a_layernorm + q_b_proj {heads x (nope +
-- rope), q_lora}, or q_proj {heads x (nope + rope), h} without q_lora; kv_a_proj_with_mqa {kv_lora +
-- rope, h} + kv_a_layernorm; kv_b_proj {heads x (nope + v), kv_lora}; o_proj {h, heads x v}; no
-- biases. m = { hidden, heads, q_lora (nil: none), kv_lora, nope, rope, v, count }; returns the
-- kv_b_proj entry (DeepSeek's GGUF split).
function nn.mla_proj(list, prefix, m)
  local h, nh, n = m.hidden, m.heads, m.count
  local a, qd = { count = n, role = "attn" }, nh * (m.nope + m.rope)
  if m.q_lora then
    nn.linear(list, prefix .. ".q_a_proj", m.q_lora, h, a)
    nn.norm(list, prefix .. ".q_a_layernorm", m.q_lora, { count = n })
    nn.linear(list, prefix .. ".q_b_proj", qd, m.q_lora, a)
  else
    nn.linear(list, prefix .. ".q_proj", qd, h, a)
  end
  nn.linear(list, prefix .. ".kv_a_proj_with_mqa", m.kv_lora + m.rope, h, a)
  nn.norm(list, prefix .. ".kv_a_layernorm", m.kv_lora, { count = n })
  nn.linear(list, prefix .. ".kv_b_proj", nh * (m.nope + m.v), m.kv_lora, a)
  local kv_b = list[#list]
  nn.linear(list, prefix .. ".o_proj", h, nh * m.v, a)
  return kv_b
end

-- A SwiGLU/GeGLU MLP under PREFIX: gate_proj, up_proj {width, hidden}, down_proj {hidden, width}.
-- m = { hidden, width, count, role, bias, fused (gate_up_proj), names = {gate, up, down} }
function nn.gated_mlp(list, prefix, m)
  local names = m.names or { "gate_proj", "up_proj", "down_proj" }
  local o = { count = m.count, role = m.role or "mlp", bias = m.bias }
  if m.fused then
    nn.linear(list, prefix .. ".gate_up_proj", 2 * m.width, m.hidden, o)
  else
    nn.linear(list, prefix .. "." .. names[1], m.width, m.hidden, o)
    nn.linear(list, prefix .. "." .. names[2], m.width, m.hidden, o)
  end
  nn.linear(list, prefix .. "." .. names[3], m.hidden, m.width, o)
  return list
end

-- A DeepSeekMoE feed-forward over L layers (DeepSeek-V2/V3, Kimi-K2, GLM-4.5): the first
-- L - moe_L layers dense (width I), the rest routed experts (E of width EI) with `shared`
-- shared experts of EI each and a router (gate.weight {E, h}); score_bias adds the per-expert
-- e_score_correction_bias of noaux_tc routing, in fp32 with bias_fp32.
function nn.deepseek_moe(t, lp, o)
  nn.gated_mlp(t, lp .. ".mlp", { hidden = o.h, width = o.I, count = o.L - o.moe_L })
  nn.gated_mlp(t, lp .. ".mlp.experts.*", { hidden = o.h, width = o.EI, count = o.moe_L * o.E, role = "expert" })
  if (o.shared or 0) > 0 then
    nn.gated_mlp(t, lp .. ".mlp.shared_experts", { hidden = o.h, width = o.shared * o.EI,
      count = o.moe_L, role = "shared_expert" })
  end
  nn.param(t, lp .. ".mlp.gate.weight", { o.E, o.h }, { count = o.moe_L, role = "router" })
  if o.score_bias then nn.router_bias(t, lp .. ".mlp.gate.e_score_correction_bias", o.E, o.moe_L, o.bias_fp32) end
end

-- The per-expert score-correction bias {experts} of a sigmoid router that picks its top-k
-- by score + bias (noaux_tc: DeepSeek-V3, Kimi-K2, GLM-4.5, MiniMax-M2), on `count` layers;
-- fp32: held in fp32 whatever the model dtype.
function nn.router_bias(list, name, experts, count, fp32)
  return nn.param(list, name, { experts }, { count = count, role = "router", dtype = fp32 and "fp32" or nil })
end

-- Embedding, final norm and (unless tied) lm_head, Llama naming by default.
-- e = { vocab, hidden, tied, embed = "model.embed_tokens", norm = "model.norm",
--       head = "lm_head", norm_bias = false }
function nn.lm(list, e)
  nn.embed(list, e.embed or "model.embed_tokens", e.vocab, e.hidden)
  nn.norm(list, e.norm or "model.norm", e.hidden, { bias = e.norm_bias })
  if not e.tied then
    nn.linear(list, e.head or "lm_head", e.vocab, e.hidden, { role = "lm_head" })
  end
  return list
end

-- The Llama-style decoder layers under PREFIX (e.g. "model.layers.*"): self_attn
-- (a: nn.attention's fields), a gated mlp of width a.width (a.mlp_bias, a.fused),
-- input_layernorm and post_attention_layernorm, a.count layers each.
function nn.llama_layers(list, prefix, a)
  nn.attention(list, prefix .. ".self_attn", a)
  nn.gated_mlp(list, prefix .. ".mlp", { hidden = a.hidden, width = a.width, count = a.count,
    bias = a.mlp_bias, fused = a.fused })
  nn.norm(list, prefix .. ".input_layernorm", a.hidden, { count = a.count })
  nn.norm(list, prefix .. ".post_attention_layernorm", a.hidden, { count = a.count })
  return list
end

-- The Qwen2.5-VL vision tower under "visual." (transformers modeling_qwen2_5_vl.py,
-- Qwen2_5_VisionTransformer): Conv3d patches over temporal_patch_size frames, `depth`
-- blocks (RMSNorm, fused biased qkv, biased SwiGLU) and the merger that turns
-- spatial_merge_size^2 patches into one token of the text width. vc: the vision_config.
-- Used by architectures/qwen2_vl.lua and by Qwen-Image's text encoder (qwenimage.lua).
function nn.qwen25_vision(list, vc, text_hidden)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "depth")
  local I, p = nn.need(vc, "intermediate_size"), nn.need(vc, "patch_size")
  local tp, ch = nn.int(vc, "temporal_patch_size", 2), nn.int(vc, "in_chans", 3)
  local merge = nn.int(vc, "spatial_merge_size", 2)
  local out = nn.int(vc, "out_hidden_size", text_hidden)
  local lp = "visual.blocks.*"
  nn.param(list, "visual.patch_embed.proj.weight", { h, ch, tp, p, p })
  nn.norm(list, lp .. ".norm1", h, { count = L })
  nn.norm(list, lp .. ".norm2", h, { count = L })
  nn.linear(list, lp .. ".attn.qkv", 3 * h, h, { count = L, bias = true })
  nn.linear(list, lp .. ".attn.proj", h, h, { count = L, bias = true })
  nn.gated_mlp(list, lp .. ".mlp", { hidden = h, width = I, count = L, bias = true })
  local m = h * merge * merge
  nn.norm(list, "visual.merger.ln_q", h)
  nn.linear(list, "visual.merger.mlp.0", m, m, { bias = true, role = "mlp" })
  nn.linear(list, "visual.merger.mlp.2", out, m, { bias = true, role = "mlp" })
  return list
end

-- The Qwen3-VL / Qwen3.5 vision tower under PREFIX ("model.visual"; transformers
-- models/qwen3_vl/modeling_qwen3_vl.py Qwen3VLVisionModel): biased Conv3d patches over
-- temporal_patch_size frames, a learned position table (num_position_embeddings, interpolated),
-- `depth` blocks (LayerNorm, fused biased qkv, biased GELU MLP linear_fc1/linear_fc2), the merger
-- (LayerNorm over the patch width, then spatial_merge_size^2 patches -> two linears into the text
-- width) and one more merger per deepstack_visual_indexes entry (norm after the shuffle; Qwen3.5
-- configs list none). vc: the vision_config.
function nn.qwen3_vision(list, prefix, vc, text_hidden)
  local h, L = nn.need(vc, "hidden_size"), nn.need(vc, "depth")
  local I, p = nn.need(vc, "intermediate_size"), nn.need(vc, "patch_size")
  local tp, ch = nn.int(vc, "temporal_patch_size", 2), nn.int(vc, "in_channels", 3)
  local merge = nn.int(vc, "spatial_merge_size", 2)
  local m = h * merge * merge
  local out = nn.int(vc, "out_hidden_size", text_hidden)
  local lp, mo = prefix .. ".blocks.*", { bias = true, role = "mlp" }
  nn.param(list, prefix .. ".patch_embed.proj.weight", { h, ch, tp, p, p })
  nn.param(list, prefix .. ".patch_embed.proj.bias", { h })
  nn.embed(list, prefix .. ".pos_embed", nn.need(vc, "num_position_embeddings"), h, { role = "pos_embed" })
  nn.norm(list, lp .. ".norm1", h, { count = L, bias = true })
  nn.norm(list, lp .. ".norm2", h, { count = L, bias = true })
  nn.linear(list, lp .. ".attn.qkv", 3 * h, h, { count = L, bias = true })
  nn.linear(list, lp .. ".attn.proj", h, h, { count = L, bias = true })
  nn.linear(list, lp .. ".mlp.linear_fc1", I, h, { count = L, bias = true, role = "mlp" })
  nn.linear(list, lp .. ".mlp.linear_fc2", h, I, { count = L, bias = true, role = "mlp" })
  nn.norm(list, prefix .. ".merger.norm", h, { bias = true })
  nn.linear(list, prefix .. ".merger.linear_fc1", m, m, mo)
  nn.linear(list, prefix .. ".merger.linear_fc2", out, m, mo)
  local deep = #nn.opt(vc, "deepstack_visual_indexes", {})
  local dp, dn = prefix .. ".deepstack_merger_list.*", { count = deep, bias = true }
  nn.norm(list, dp .. ".norm", m, dn)
  nn.linear(list, dp .. ".linear_fc1", m, m, { count = deep, bias = true, role = "mlp" })
  nn.linear(list, dp .. ".linear_fc2", out, m, { count = deep, bias = true, role = "mlp" })
  return list
end

-- The token mixers of the Qwen3-Next / Qwen3.5 hybrid decoders under PREFIX ("model.layers.*";
-- transformers models/qwen3_next/modeling_qwen3_next.py, models/qwen3_5/modular_qwen3_5.py).
-- Full-attention layers (layer_types, else every full_attention_interval-th) have gated
-- attention: q_proj carries the query and its output gate, q/k RMSNorm. The others have a gated
-- DeltaNet: Qwen3-Next fuses its input projections (in_proj_qkvz, in_proj_ba), Qwen3.5 stores
-- them apart (in_proj_qkv, in_proj_z, in_proj_b, in_proj_a: o.split) with the same sizes; then
-- a depthwise causal conv over q, k, v (no bias), dt_bias, A_log, the gated norm and out_proj.
-- A DeltaNet layer caches per sequence (kind "mamba") the conv window (kernel - 1) x (2 key dims
-- + value dim) and the recurrent state value heads x key head dim x value head dim (vLLM
-- GatedDeltaNet get_state_shape; llama.cpp llama_hparams n_embd_r / n_embd_s); conv_elems names
-- the conv part (SGLang keeps it in bf16, the recurrent state in fp32).
-- dims: nn.decoder_dims(cfg). Returns the description's kv groups and the full-attention layers.
function nn.gated_deltanet_mixers(list, prefix, cfg, dims, o)
  local h, L, nh, nkv, d = dims.h, dims.L, dims.nh, dims.nkv, dims.d
  local interval = nn.int(cfg, "full_attention_interval", 4)
  local full_of = function(i) return (i + 1) % interval == 0 end
  local lt = cfg.layer_types
  if type(lt) == "table" then
    if #lt ~= L then error(("config: field 'layer_types' has %d entries, expected %d"):format(#lt, L), 0) end
    full_of = function(i) return lt[i + 1] == "full_attention" end
  end
  local nfull = nn.count_layers(L, full_of)
  local fo = { count = nfull }
  nn.linear(list, prefix .. ".self_attn.q_proj", 2 * nh * d, h, fo)
  nn.linear(list, prefix .. ".self_attn.k_proj", nkv * d, h, fo)
  nn.linear(list, prefix .. ".self_attn.v_proj", nkv * d, h, fo)
  nn.linear(list, prefix .. ".self_attn.o_proj", h, nh * d, fo)
  nn.norm(list, prefix .. ".self_attn.q_norm", d, fo)
  nn.norm(list, prefix .. ".self_attn.k_norm", d, fo)

  local n = L - nfull
  local nk, nv = nn.need(cfg, "linear_num_key_heads"), nn.need(cfg, "linear_num_value_heads")
  local dk, dv = nn.need(cfg, "linear_key_head_dim"), nn.need(cfg, "linear_value_head_dim")
  local conv = nn.need(cfg, "linear_conv_kernel_dim")
  local key, value, la = nk * dk, nv * dv, prefix .. ".linear_attn"
  local lo = { count = n, role = "attn" }
  if o and o.split then
    nn.linear(list, la .. ".in_proj_qkv", 2 * key + value, h, lo)
    nn.linear(list, la .. ".in_proj_z", value, h, lo)
    nn.linear(list, la .. ".in_proj_b", nv, h, lo)
    nn.linear(list, la .. ".in_proj_a", nv, h, lo)
  else
    nn.linear(list, la .. ".in_proj_qkvz", 2 * key + 2 * value, h, lo)
    nn.linear(list, la .. ".in_proj_ba", 2 * nv, h, lo)
  end
  nn.param(list, la .. ".conv1d.weight", { 2 * key + value, 1, conv }, lo)
  nn.param(list, la .. ".dt_bias", { nv }, lo)
  nn.param(list, la .. ".A_log", { nv }, lo)
  nn.norm(list, la .. ".norm", dv, { count = n })
  nn.linear(list, la .. ".out_proj", h, value, lo)

  local conv_state = (conv - 1) * (2 * key + value)
  local kv = { { layers = nfull, kv_heads = nkv, k_dim = d, v_dim = d } }
  if n > 0 then kv[2] = { layers = n, kind = "mamba", state_elems = conv_state + nv * dk * dv, conv_elems = conv_state } end
  return kv, nfull
end

-- A Mamba-2 mixer (SSD) under PREFIX, `count` layers (transformers Mamba2Mixer and its copies:
-- GraniteMoeHybridMambaLayer, FalconH1Mixer, BambaMixer). m = { hidden, d_inner (d_ssm: expand x
-- hidden or the config's own), heads, head_dim, groups, state, conv (kernel), count, conv_bias,
-- proj_bias, out_bias (default proj_bias), norm (the gated RMSNorm over d_inner, default true),
-- extra_in (more in_proj rows, default 0) }. in_proj {2 d_inner + 2 groups x state + heads, hidden}
-- (z, x, B, C, dt); a depthwise conv1d {conv_dim, 1, kernel} over conv_dim = d_inner + 2 groups x
-- state; dt_bias, A_log and D per head; out_proj {hidden, d_inner}. Returns the per-sequence state
-- of one layer (kind "mamba"): the conv window (kernel - 1) x conv_dim (vLLM mamba_utils
-- mamba2_state_shape, llama.cpp n_embd_r) and the SSM state heads x head_dim x state (n_embd_s:
-- d_state x d_inner), and the conv part alone.
function nn.mamba2_mixer(list, prefix, m)
  local di, G, N, H = m.d_inner, m.groups, m.state, m.heads
  local conv_dim = di + 2 * G * N
  local o = { count = m.count, role = "attn" }
  nn.linear(list, prefix .. ".in_proj", 2 * di + 2 * G * N + H + (m.extra_in or 0), m.hidden,
    { count = m.count, role = "attn", bias = m.proj_bias })
  nn.param(list, prefix .. ".conv1d.weight", { conv_dim, 1, m.conv }, o)
  if m.conv_bias then nn.param(list, prefix .. ".conv1d.bias", { conv_dim }, o) end
  nn.param(list, prefix .. ".dt_bias", { H }, o)
  nn.param(list, prefix .. ".A_log", { H }, o)
  nn.param(list, prefix .. ".D", { H }, o)
  if m.norm ~= false then nn.norm(list, prefix .. ".norm", di, { count = m.count }) end
  local ob = m.out_bias
  if ob == nil then ob = m.proj_bias end
  nn.linear(list, prefix .. ".out_proj", m.hidden, di, { count = m.count, role = "attn", bias = ob })
  local conv_state = (m.conv - 1) * conv_dim
  return conv_state + H * m.head_dim * N, conv_state
end

-- A Mamba-1 mixer under PREFIX, m.count layers (Jamba: transformers models/jamba/modeling_jamba.py
-- JambaMambaMixer): in_proj {2 d_inner, h} (m.proj_bias), depthwise conv1d {d_inner, 1, conv}
-- (m.conv_bias), x_proj {dt_rank + 2 d_state, d_inner}, dt_proj {d_inner, dt_rank} with bias,
-- A_log {d_inner, d_state}, D {d_inner}, out_proj {h, d_inner} (m.proj_bias) and, with m.inner_norms,
-- the RMSNorms dt_layernorm {dt_rank}, b_layernorm / c_layernorm {d_state}. Returns a layer's
-- per-sequence state elements (kind "mamba"): the conv window (conv - 1) x d_inner and the SSM state
-- d_inner x d_state (vLLM mamba_utils mamba1_state_shape; llama.cpp n_embd_r / n_embd_s), and the
-- conv part alone.
function nn.mamba1_mixer(list, prefix, m)
  local di, N, R = m.d_inner, m.state, m.dt_rank
  local o = { count = m.count, role = "attn" }
  nn.linear(list, prefix .. ".in_proj", 2 * di, m.hidden, { count = m.count, role = "attn", bias = m.proj_bias })
  nn.param(list, prefix .. ".conv1d.weight", { di, 1, m.conv }, o)
  if m.conv_bias then nn.param(list, prefix .. ".conv1d.bias", { di }, o) end
  nn.linear(list, prefix .. ".x_proj", R + 2 * N, di, o)
  nn.linear(list, prefix .. ".dt_proj", di, R, { count = m.count, role = "attn", bias = true })
  nn.param(list, prefix .. ".A_log", { di, N }, o)
  nn.param(list, prefix .. ".D", { di }, o)
  nn.linear(list, prefix .. ".out_proj", m.hidden, di, { count = m.count, role = "attn", bias = m.proj_bias })
  if m.inner_norms then
    nn.norm(list, prefix .. ".dt_layernorm", R, { count = m.count })
    nn.norm(list, prefix .. ".b_layernorm", N, { count = m.count })
    nn.norm(list, prefix .. ".c_layernorm", N, { count = m.count })
  end
  local conv_state = (m.conv - 1) * di
  return conv_state + di * N, conv_state
end

-- The description's block of a gated RMSNorm decoder: heads, KV heads, head_dim, the
-- FFN width a token passes through, and for MoE the experts and how many a token uses;
-- expert_ffn, one routed expert's width, where ffn (k routed experts plus a shared expert) is
-- not k times it (absent: ffn / per_tok).
function nn.rms_block(heads, kv_heads, head_dim, ffn, experts, per_tok, expert_ffn)
  return { q_dim = heads * head_dim, kv_dim = kv_heads * head_dim, ffn_dim = ffn, gated = true, norm = "rms",
           experts = experts or 0, experts_per_tok = per_tok or 0, expert_ffn = expert_ffn,
           parallel_residual = false }
end

-- A MoE model's dense layers (DeepSeek / GLM-4.5 / dots.llm1 first_k_dense_replace, ERNIE 4.5's
-- layers before moe_layer_start_index): block.dense_ffn, their gated MLP's width (intermediate_size),
-- whose transient a runtime's per-layer peak takes beside the MoE layers' (src/rt_sglang.c)
function nn.dense_layers(block, width)
  block.dense_ffn = width or nil
  return block
end

-- The block's moe_norm: whether the router's top-k weights are renormalized to sum 1
-- (config.json norm_topk_prob; GGUF expert_weights_norm; absent: true); moe_scaled: whether
-- they are then multiplied by routed_scaling_factor (GGUF expert_weights_scale) other than 1
function nn.moe_norm(block, cfg)
  block.moe_norm = cfg.norm_topk_prob ~= false
  local f = cfg.routed_scaling_factor
  block.moe_scaled = type(f) == "number" and f ~= 0 and f ~= 1
  return block
end

---------------------------------------------------------------------------
-- Layers and KV groups.

-- How many layers i in [0, n) satisfy pred(i).
function nn.count_layers(n, pred)
  local c = 0
  for i = 0, n - 1 do if pred(i) then c = c + 1 end end
  return c
end

-- KV groups from a per-layer window function (nil/false = full attention).
-- Adjacent or not, layers with the same window share one group; full first.
function nn.kv_groups(n, kv_heads, k_dim, v_dim, window_of)
  local by, order = {}, {}
  for i = 0, n - 1 do
    local w = window_of and window_of(i) or false
    if not by[w] then by[w] = 0; order[#order + 1] = w end
    by[w] = by[w] + 1
  end
  table.sort(order, function(a, b)
    if a == false then return b ~= false end
    if b == false then return false end
    return a < b
  end)
  local groups = {}
  for _, w in ipairs(order) do
    groups[#groups + 1] = { layers = by[w], kv_heads = kv_heads, k_dim = k_dim, v_dim = v_dim,
                            window = w or nil }
  end
  return groups
end

-- A window function from config.layer_types ("sliding_attention" / "full_attention"),
-- or nil when the config has no layer_types (absent or JSON null). Errors when the list length
-- is wrong, or when the field is not a list: read as absent, a string or a number would size
-- every layer by the architecture's default pattern without a word.
function nn.layer_types(cfg, n, window)
  local lt = cfg.layer_types
  if lt ~= nil and type(lt) ~= "table" and type(lt) ~= "userdata" then
    error(("config: field 'layer_types' must be a list of sliding_attention / full_attention, got %s"):format(type(lt)), 0)
  end
  if type(lt) ~= "table" then return nil end
  if #lt ~= n then
    error(("config: field 'layer_types' has %d entries, expected %d"):format(#lt, n), 0)
  end
  return function(i)
    local t = lt[i + 1]
    if t == "sliding_attention" then return window end
    if t == "full_attention" then return false end
    error(("config: unknown layer type %s in 'layer_types'"):format(show(t)), 0)
  end
end

-- A multimodal model's vision tower and projector tensor, by name prefix: what a llama.cpp
-- converter writes to the mmproj file, not the text model's GGUF. The list is the engine's
-- (src/inventory.c inv_vision_name), so the scripts and the C placement agree.
function nn.vision_tensor(name)
  return host.vision_tensor(name)
end

-- Total parameters of a description: sum of product(shape) * count, as an integer
-- (buffers excluded).
function nn.params(desc)
  local total = 0
  for _, t in ipairs(desc.tensors) do
    local p = t.buffer and 0 or t.count or 1
    for _, d in ipairs(t.shape) do p = p * d end
    total = total + p
  end
  return total
end

return nn
