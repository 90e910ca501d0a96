-- _gguf_rules.lua: llama-quantize's per-tensor type choice for gguf.lua, ported from
-- ggml-org/llama.cpp src/llama-quant.cpp (llama_tensor_get_type_impl, tensor_type_fallback,
-- tensor_allows_quantization; read at commit 007dbbf3). Also the per-layer expansion of a
-- description's "*" groups and the HF -> GGUF tensor naming (convert_hf_to_gguf's
-- tensor map) that decides each tensor's category. Helper module, not a format.
local nn = require "nn"
local R = {}

-- ---------------------------------------------------------------- names

-- HF module name (role attn) -> GGUF tensor base name; first match wins.
local ATTN = {
  { "query_key_value%.weight$", "attn_qkv" }, { "qkv_proj%.weight$", "attn_qkv" },
  { "c_attn%.weight$", "attn_qkv" }, { "Wqkv%.weight$", "attn_qkv" }, { "kv_b_proj%.weight$", "attn_kv_b" },
  { "linear_attn%.in_proj_qkv%.weight$", "attn_qkv" },  -- Qwen3.5 DeltaNet (gguf-py tensor_mapping ATTN_QKV)
  { "q_proj%.weight$", "attn_q" }, { "%.query%.weight$", "attn_q" }, { "%.q%.weight$", "attn_q" },
  { "k_proj%.weight$", "attn_k" }, { "%.key%.weight$", "attn_k" }, { "%.k%.weight$", "attn_k" },
  { "v_proj%.weight$", "attn_v" }, { "%.value%.weight$", "attn_v" }, { "%.v%.weight$", "attn_v" },
  { "%.attention%.wo%.weight$", "attn_output" },  -- InternLM2 (gguf-py tensor_mapping ATTN_OUT: attention.wo)
  { "o_proj%.weight$", "attn_output" }, { "dense%.weight$", "attn_output" }, { "c_proj%.weight$", "attn_output" },
  { "out_proj%.weight$", "attn_output" }, { "%.o%.weight$", "attn_output" },
}
-- a recurrent mixer's projections (convert_hf_to_gguf's tensor map: mamba.in_proj -> SSM_IN,
-- mamba.out_proj -> SSM_OUT, conv.in_proj -> SHORTCONV_INPROJ, conv.out_proj -> SHORTCONV_OUTPROJ)
local RECURRENT = {
  { "%.mamba%.in_proj%.weight$", "ssm_in" }, { "%.mamba%.out_proj%.weight$", "ssm_out" },
  { "%.conv%.in_proj%.weight$", "shortconv_in_proj" }, { "%.conv%.out_proj%.weight$", "shortconv_out_proj" },
  -- Nemotron-H's Mamba-2 mixer is backbone.layers.N.mixer (its attention and MLP mixers have q/k/v/o_proj,
  -- up/down_proj), Jamba's Mamba-1 adds x_proj -> SSM_X and dt_proj -> SSM_DT (gguf-py tensor_mapping)
  { "%.mixer%.in_proj%.weight$", "ssm_in" }, { "%.mixer%.out_proj%.weight$", "ssm_out" },
  { "%.mamba%.x_proj%.weight$", "ssm_x" }, { "%.mamba%.dt_proj%.weight$", "ssm_dt" },
}
-- HF module name (roles mlp, expert, shared_expert) -> GGUF base name
local FFN = {
  -- Granite's fused gate+up (input_linear, split by the converter into ffn_gate / ffn_up) and
  -- output_linear (ffn_down), for the routed experts and the shared MLP alike
  { "input_linear%.weight$", "ffn_up" }, { "output_linear%.weight$", "ffn_down" },
  -- DBRX's stacked experts (gguf-py tensor_mapping: ffn.experts.mlp.w1 / v1 / w2 -> FFN_GATE_EXP /
  -- FFN_UP_EXP / FFN_DOWN_EXP)
  { "%.experts%.mlp%.w1$", "ffn_gate" }, { "%.experts%.mlp%.v1$", "ffn_up" }, { "%.experts%.mlp%.w2$", "ffn_down" },
  { "gate_up_proj%.weight$", "ffn_up" }, { "gate_up_proj$", "ffn_up" }, { "gate_proj%.weight$", "ffn_gate" },
  { "%.w1%.weight$", "ffn_gate" }, { "up_proj%.weight$", "ffn_up" }, { "%.w3%.weight$", "ffn_up" },
  { "dense_h_to_4h%.weight$", "ffn_up" }, { "c_fc%.weight$", "ffn_up" }, { "fc1%.weight$", "ffn_up" },
  { "intermediate%.dense%.weight$", "ffn_up" }, { "%.wi%.weight$", "ffn_up" },
  { "down_proj%.weight$", "ffn_down" }, { "down_proj$", "ffn_down" }, { "%.w2%.weight$", "ffn_down" },
  { "dense_4h_to_h%.weight$", "ffn_down" }, { "c_proj%.weight$", "ffn_down" }, { "fc2%.weight$", "ffn_down" },
  { "output%.dense%.weight$", "ffn_down" }, { "%.wo%.weight$", "ffn_down" },
}
local SUFFIX = { expert = "_exps", shared_expert = "_shexp" }

local function lookup(map, name)
  for _, m in ipairs(map) do
    if name:find(m[1]) then return m[2] end
  end
  return nil
end

-- A diffusion transformer's tensors that city96's patched llama-quantize leaves at the
-- converter's type (city96/ComfyUI-GGUF tools/lcpp.patch@795e451, llama_model_quantize_internal:
-- for LLM_ARCH_FLUX `quantize &= name.find("txt_in.") == npos` and likewise img_in, time_in,
-- vector_in, guidance_in, final_layer), here under diffusers' names for the same modules
-- (convert_flux_to_diffusers.py: txt_in -> context_embedder, img_in -> x_embedder, time_in /
-- vector_in / guidance_in -> time_text_embed.*, final_layer -> norm_out.linear + proj_out).
-- tools/convert.py wrote them BF16 from a bf16 checkpoint (F16 otherwise), 1-D ones F32.
local CONVERTER_KEEP = {
  flux = { "^transformer%.context_embedder%.", "^transformer%.x_embedder%.", "^transformer%.time_text_embed%.",
           "^transformer%.norm_out%.", "^transformer%.proj_out%." },
  -- FLUX.2 (not in that patch; inferred from city96/FLUX.2-dev-gguf's file sizes): the
  -- embedders, the three shared modulation Linears and the final layer stay BF16, the FLUX.1
  -- list plus the modulations. flux2-dev-Q8_0.gguf is 35,002,602,464 B: the BF16 file
  -- (64,446,616,544) less 34.8e9 B of Q8_0 savings on every other matrix, to the byte.
  flux2 = { "^transformer%.context_embedder%.", "^transformer%.x_embedder%.", "^transformer%.time_guidance_embed%.",
            "^transformer%.double_stream_modulation_", "^transformer%.single_stream_modulation%.",
            "^transformer%.norm_out%.", "^transformer%.proj_out%." },
  -- LLM_ARCH_SD3: final_layer., time_text_embed., context_embedder., t_embedder., y_embedder.,
  -- x_embedder., name == "proj_out.weight", name == "pos_embed"; city96's SD3.5 files are
  -- converted from the reference checkpoint, whose t_embedder / y_embedder are time_text_embed,
  -- final_layer norm_out.linear + proj_out and x_embedder.proj the pos_embed.proj conv
  sd3 = { "^transformer%.context_embedder%.", "^transformer%.time_text_embed%.", "^transformer%.norm_out%.",
          "^transformer%.proj_out%.", "^transformer%.pos_embed%." },
  -- LLM_ARCH_HYVID: txt_in. (the token refiner: context_embedder.*), img_in. (x_embedder),
  -- time_in. / vector_in. / guidance_in. (time_text_embed.*), final_layer. (norm_out + proj_out)
  -- (diffusers scripts/convert_hunyuan_video_to_diffusers.py key map)
  hunyuanvideo = { "^transformer%.context_embedder%.", "^transformer%.x_embedder%.", "^transformer%.time_text_embed%.",
                   "^transformer%.norm_out%.", "^transformer%.proj_out%." },
  -- LLM_ARCH_WAN: modulation., patch_embedding., text_embedding., time_projection.,
  -- time_embedding., img_emb., head. (diffusers scripts/convert_wan_to_diffusers.py:
  -- text_embedding / time_embedding / time_projection / img_emb -> condition_embedder.*,
  -- head.head -> proj_out, head.modulation -> scale_shift_table)
  wan = { "^transformer%.condition_embedder%.", "^transformer%.patch_embedding%.", "^transformer%.proj_out%." },
  -- LLM_ARCH_LTXV: adaln_single. (time_embed.*), caption_projection., patchify_proj. (proj_in),
  -- proj_out., scale_shift_table (diffusers scripts/convert_ltx_to_diffusers.py key map)
  ltx_video = { "^transformer%.time_embed%.", "^transformer%.caption_projection%.", "^transformer%.proj_in%.",
          "^transformer%.proj_out%." },
}

-- city96's img_tensor_get_type (same patch) replaces llama.cpp's per-tensor rules for an
-- image model: it matches reference-checkpoint names, here the diffusers tensors those were
-- split into. "v": attn_v / .to_v / .v / w1v / w2v / _attn.v_proj; "qkv": attn_qkv /
-- attn.qkv / attention.qkv (BFL FLUX's double_blocks.N.{img,txt}_attn.qkv = diffusers
-- transformer_blocks.N.attn.to_q/k/v and add_q/k/v_proj; SD3's joint_blocks.N.{x,context}_block
-- .attn.qkv the same; HunyuanVideo's img_attn_qkv / txt_attn_qkv likewise; the single blocks'
-- fused linear1 matches nothing); "ffn": ffn_down / .ffn.2 / .ff.net.2 / .mlp.layer2 / experts
-- .w2 / .feed_forward.w2 (FLUX's img_mlp.2 and linear2 match nothing). hiprec: convert.py's
-- keys_hiprec, written F32 (ModelWan ".modulation", ModelLTXV "scale_shift_table").
local DOUBLE_QKV = { "^transformer%.transformer_blocks%.%d+%.attn%.to_[qkv]%.weight$",
                     "^transformer%.transformer_blocks%.%d+%.attn%.add_[qkv]_proj%.weight$" }
local IMG = {
  flux = { qkv = DOUBLE_QKV }, flux2 = { qkv = DOUBLE_QKV }, sd3 = { qkv = DOUBLE_QKV },
  hunyuanvideo = { qkv = DOUBLE_QKV },
  -- Wan: blocks.N.self_attn.v / cross_attn.v (.v.weight) = attn1 / attn2 .to_v (not the i2v
  -- v_img = add_v_proj); blocks.N.ffn.2 = ffn.net.2
  wan = { v = { "^transformer%.blocks%.%d+%.attn[12]%.to_v%.weight$" },
          ffn = { "^transformer%.blocks%.%d+%.ffn%.net%.2%.weight$" }, hiprec = { "scale_shift_table" } },
  ltx_video = { v = { "^transformer%.transformer_blocks%.%d+%.attn[12]%.to_v%.weight$" },
          ffn = { "^transformer%.transformer_blocks%.%d+%.ff%.net%.2%.weight$" }, hiprec = { "scale_shift_table" } },
}

-- The lists above name the denoiser "transformer."; a pipeline's second denoiser (Wan2.2
-- A14B's low-noise expert, diffusers' transformer_2) is converted on its own as a whole model
-- (one GGUF per expert, the same rules), so its names are read as the first one's.
local function den_name(name)
  return (name:gsub("^transformer_%d+%.", "transformer.", 1))
end

local function any_of(list, name)
  name = den_name(name)
  for _, p in ipairs(list or {}) do
    if name:find(p) then return true end
  end
  return false
end

-- ggml_n_dims of a tensor stored with this (PyTorch-order) shape: leading 1s do not count
local function ggml_ndims(shape)
  local i = 1
  while i < #shape and shape[i] == 1 do i = i + 1 end
  return #shape - i + 1
end

-- An image model's denoiser tensor under city96's converter + patch: "keep" and the storage
-- (F32, or true: the converter's 2-byte type), or "img" (quantized by img_tensor_get_type).
-- tools/convert.py: 1-D -> F32, keys_hiprec -> F32, more than 4 dims -> set aside and added
-- back by fix_5d_tensors.py as F32; the patch: only names ending in "weight" (llama.cpp's
-- `quantize = name.rfind("weight") == name.size() - 6`), only ggml_n_dims == 2, not the
-- arch's keep list.
local function img_base(t, arch)
  local name, img = t.name, IMG[arch]
  if #t.shape < 2 or #t.shape > 4 or any_of(img.hiprec, name) then return "keep", false end
  if any_of(CONVERTER_KEEP[arch], name) then return "keep", false, true end
  if not name:find("weight$") or ggml_ndims(t.shape) ~= 2 then return "keep", false, true end
  return "img", true
end

-- GGUF base name and whether llama-quantize may quantize it (tensor_allows_quantization);
-- a third value true: left at the converter's 2-byte type rather than F32 (CONVERTER_KEEP).
local function gguf_base(t, arch)
  local role, name = t.role or "other", t.name
  if t.component == "denoiser" and IMG[arch] then return img_base(t, arch) end
  if #t.shape < 2 or name:find("bias$") or name:find("sinks$") or role == "norm" then return "keep", false end
  if t.component == "denoiser" then
    if any_of(CONVERTER_KEEP[arch], name) then return "keep", false, true end
  end
  if t.gguf then return t.gguf, true end   -- a part of a split tensor (gguf_parts below)
  -- a recurrent layer's small conv1d kernel (GGUF ssm_conv1d): F32 from the converter
  -- (SSM_CONV1D in conversion/base.py) and never quantized (tensor_allows_quantization)
  if name:find("conv1d%.weight$") then return "ssm_conv1d", false end
  -- a Mamba mixer's A_log and D (GGUF ssm_a = -exp(A_log), ssm_d: named without ".weight",
  -- MODEL_TENSOR.SSM_A / SSM_D in gguf-py's tensor names) are forced to F32 by the converter
  -- (MambaModel / JambaModel tensor_force_quant) and left by llama-quantize, which quantizes
  -- only names ending in "weight" (llama-quant.cpp: name.rfind("weight") == name.size() - 6);
  -- Mamba-1's A_log {d_inner, d_state} is 2-D with rows of 16
  if name:find("%.A_log$") or name:find("%.D$") then return "ssm_a_d", false end
  -- LFM2's short-conv kernel (GGUF shortconv.conv, F32, excluded by tensor_allows_quantization)
  if name:find("%.conv%.conv%.weight$") then return "shortconv_conv", false end
  -- the input / output projections of a Mamba-2 mixer (GGUF ssm_in / ssm_out: Granite 4.0,
  -- Falcon-H1) and of LFM2's short conv (shortconv.in_proj / out_proj): category "other"
  for _, m in ipairs(RECURRENT) do
    if name:find(m[1]) then return m[2], true end
  end
  if role == "router" then return "ffn_gate_inp", false end
  if role == "pos_embed" or name:find("token_type") then return "position_embd", false end
  if role == "embed" then return "token_embd", true end
  if role == "lm_head" then return "output", true end
  if role == "attn" then return lookup(ATTN, name) or "attn_other", true end
  if role == "mlp" or SUFFIX[role] then
    local b = lookup(FFN, name)
    return b and (b .. (SUFFIX[role] or "")) or "ffn_other", true
  end
  return "other", true
end

-- category as tensor_get_category() derives it from the GGUF name
local function category(base)
  if base == "output" or base == "token_embd" then return base end
  for _, c in ipairs({ "attn_qkv", "attn_kv_b", "attn_v", "attn_k", "attn_q", "attn_output", "ffn_up", "ffn_gate", "ffn_down" }) do
    if base == c or base:find("^" .. c .. "_[es][xh]") then return c end
  end
  return "other"
end

-- ---------------------------------------------------------------- expansion

-- first layer, layers, tensors per layer of a "*" group
local function span(t, desc, q, field)
  local L, E = desc.layers or 0, desc.block and desc.block.experts or 0
  local count = t.count or 1
  local _, stars = t.name:gsub("%*", "")
  local per, nl = 1, count
  if stars >= 2 then
    if E <= 0 or count % E ~= 0 then q.fail(field, "tensor '%s': count %d is not layers x %d experts", t.name, count, E) end
    per, nl = E, count // E
  elseif type(t.layer_ids) == "table" and #t.layer_ids > 0 and count % #t.layer_ids == 0 then
    per, nl = count // #t.layer_ids, #t.layer_ids -- the architecture's places (Llama 4's interleaved MoE)
  elseif L > 0 and count > L and count % L == 0 then
    per, nl = count // L, L      -- e.g. gpt-oss experts listed per expert under one "*"
  end
  -- fewer layers than the model: MoE parts sit in the last layers (first_k_dense_replace),
  -- dense parts in the first ones
  local routed = t.role == "expert" or t.role == "shared_expert" or t.role == "router"
  local first = (nl < L and routed) and L - nl or 0
  if type(t.layer_ids) == "table" and #t.layer_ids == nl then
    for _, i in ipairs(t.layer_ids) do
      if math.type(i) ~= "integer" or i < 0 or i >= L then
        q.fail(field, "tensor '%s': layer_ids entry %s is not a layer below %d", t.name, tostring(i), L)
      end
    end
  end
  return first, nl, per
end

-- The layers of tensor t's group spanning first .. first + nl - 1; a gated DeltaNet hybrid's
-- group of its recurrent layers (a preset's linear_attn.*) or of its attention layers sits at
-- them: attention at (i + 1) % p == 0, p = layers / attention layers (llama.cpp's
-- hparams.is_recurrent for qwen3next / qwen35; the same as src/rt_llamacpp.c lc_hybrid_layer),
-- so that a layer-dependent type choice (use_more_bits) and the file's order see the real layer.
local function layers_of(desc, t, first, nl, per)
  local L, at = desc.layers or 0, {}
  -- the architecture's own list of the group's layers (nn.place: a patterned hybrid)
  if type(t.layer_ids) == "table" and #t.layer_ids == nl then
    for k, i in ipairs(t.layer_ids) do at[k] = i end
    return at
  end
  local recurrent = t.name:find("linear_attn", 1, true) ~= nil
  for _, g in ipairs(desc.kv or {}) do
    if g.kind == "mamba" and g.layers and g.layers < L and per == 1 and first == 0 and L % (L - g.layers) == 0
       and nl == (recurrent and g.layers or L - g.layers) then
      local p = L // (L - g.layers)
      for i = 0, L - 1 do
        if recurrent ~= ((i + 1) % p == 0) then at[#at + 1] = i end
      end
      return at
    end
  end
  for i = first, first + nl - 1 do at[#at + 1] = i end
  return at
end

-- The layers (0-based, ascending) a "layers.*" tensor group of count tensors spans and how many
-- tensors each holds (experts): what scripts/quant.lua needs to apply a checkpoint's per-layer
-- ignore list (e.g. "model.layers.3.self_attn.q_proj") to one group.
function R.group_layers(t, desc, q, field)
  local first, nl, per = span(t, desc, q, field)
  return layers_of(desc, t, first, nl, per), per
end

local function copy(t, name, count, layer, arch)
  local base, quantizable, src = gguf_base(t, arch)
  -- t.gguf_rows: the rows convert_hf_to_gguf keeps of a token embedding (Gemma 3 drops the
  -- config's padding rows past its tokenizer, architectures/gemma.lua)
  local shape = t.gguf_rows and { t.gguf_rows, t.shape[2] } or t.shape
  local x = { name = name, shape = shape, count = count, role = t.role, component = t.component,
              layer = layer, quantizable = quantizable, src = src, cat = category(base) }
  if base == "img" then
    local img = IMG[arch]
    x.img = (any_of(img.v, name) and "v") or (any_of(img.qkv, name) and "qkv") or (any_of(img.ffn, name) and "ffn") or "other"
  end
  x.gguf = layer and ("blk.%d.%s.weight"):format(layer, base) or (base .. ".weight")
  return x
end

-- A tensor convert_hf_to_gguf writes as several (t.gguf_split, from the architecture script:
-- DeepSeek's kv_b_proj as attn_k_b and attn_v_b) becomes its parts, each with its own
-- shape, GGUF base name and so its own category and type; else the tensor itself.
local function gguf_parts(t, q, field)
  if not t.gguf_split then return { t } end
  local out, parts = {}, 0
  for i, p in ipairs(t.gguf_split) do
    if type(p) ~= "table" or type(p.name) ~= "string" or type(p.gguf) ~= "string" or type(p.shape) ~= "table" then
      q.fail(field, "tensor '%s': gguf_split[%d] needs name, gguf and shape", t.name, i)
    end
    parts = parts + q.numel(p.shape)
    out[#out + 1] = { name = p.name, shape = p.shape, gguf = p.gguf, count = t.count, role = t.role, component = t.component,
                      layer_ids = t.layer_ids }
  end
  if parts ~= q.numel(t.shape) then
    q.fail(field, "tensor '%s': its gguf_split parts hold %d elements, the tensor %d", t.name, parts, q.numel(t.shape))
  end
  return out
end

-- The description's tensors (of one component, if given) one per layer, in file order:
-- token embeddings, layers 0..n-1, the rest. Tensors of other components, and a multimodal
-- model's vision tower and projector (the mmproj file's, typed by its own conversion), are
-- kept as they are.
function R.expand(desc, q, field, component)
  local head, by_layer, tail, others, maxl = {}, {}, {}, {}, -1
  local list = {}
  local function apart(t) return (component and t.component ~= component) or nn.vision_tensor(t.name) end
  for _, t in ipairs(desc.tensors) do
    for _, p in ipairs(apart(t) and { t } or gguf_parts(t, q, field)) do list[#list + 1] = p end
  end
  for _, t in ipairs(list) do
    if apart(t) then
      others[#others + 1] = t
    elseif not t.name:find("%*") then
      local x = copy(t, t.name, t.count or 1, nil, desc.arch)
      if t.role == "embed" then head[#head + 1] = x else tail[#tail + 1] = x end
    else
      local first, nl, per = span(t, desc, q, field)
      local at = layers_of(desc, t, first, nl, per)
      for _, i in ipairs(at) do
        by_layer[i] = by_layer[i] or {}
        local l = by_layer[i]
        l[#l + 1] = copy(t, (t.name:gsub("%*", tostring(i), 1)), per, i, desc.arch)
        if i > maxl then maxl = i end
      end
    end
  end
  local out = {}
  for _, x in ipairs(head) do out[#out + 1] = x end
  for i = 0, maxl do
    for _, x in ipairs(by_layer[i] or {}) do out[#out + 1] = x end
  end
  for _, x in ipairs(tail) do out[#out + 1] = x end
  return out, others
end

-- ---------------------------------------------------------------- choice

function R.state(desc, list, ft, o, component)
  local st = { component = component, ft = ft, rules = o.rules, imatrix = o.imatrix, arch = desc.arch, n_layer = desc.layers or 0,
               n_expert = desc.block and desc.block.experts or 0, tied = true, n_attention_wv = 0,
               i_attention_wv = 0, img_wv = 0, i_ffn_down = 0, i_ffn_gate = 0, i_ffn_up = 0, n_fallback = 0 }
  st.n_gqa = (desc.kv_heads and desc.kv_heads > 0) and (desc.heads or 0) // desc.kv_heads or 1
  -- llama.cpp's LLM_TYPE_70B: the 80-layer Llama-2/3 and Qwen2 70B/72B shapes
  st.is70b = desc.arch == "llama" and st.n_layer == 80
  -- n_attention_wv counts every attn_v, attn_qkv and attn_kv_b tensor under both rule sets
  -- (llama-quant.cpp@8784689 llama_model_quantize_impl: the name loop's attn_v.weight ||
  -- attn_qkv.weight || attn_kv_b.weight; @007dbbf3 init_quantize_state_counters:
  -- category_is_attn_v), though the classic rules promote, and so advance i_attention_wv on,
  -- attn_v alone: a hybrid with fused DeltaNet attn_qkv beside its attention layers' attn_v
  -- (qwen35, qwen3next) spreads use_more_bits over the larger count
  for _, x in ipairs(list) do
    if x.cat == "output" then st.tied = false end
    if x.cat == "attn_v" or x.cat == "attn_qkv" or x.cat == "attn_kv_b" then st.n_attention_wv = st.n_attention_wv + 1 end
  end
  return st
end

function R.attn_v_like(st, cat)
  return cat == "attn_v" or cat == "attn_kv_b" or (st.rules == "current" and cat == "attn_qkv")
end

local function is(ft, ...)
  for _, v in ipairs({ ... }) do
    if ft == v then return true end
  end
  return false
end

local function use_more_bits(i, n)
  return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2
end

-- layer_info(): with experts the layer comes from the name, else from the counter
local function layer_of(st, x, counter)
  if st.n_expert > 1 then return x.layer or 0, st.n_layer end
  return counter, st.n_layer
end

local IQ2_GROUP = { "IQ2_XXS", "IQ2_XS", "IQ1_S", "IQ2_S", "IQ2_M", "IQ1_M" }

local function output_type(st, ne0, t, TYPES)
  local ft = st.ft
  if ft == "MXFP4_MOE" then return "Q8_0" end
  if st.arch == "falcon" or ne0 % TYPES[t][1] ~= 0 then return "Q8_0" end
  if is(ft, "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ2_S", "IQ2_M", "IQ1_M") then return "Q5_K" end
  if t ~= "Q8_0" then return "Q6_K" end
  return t
end

local function token_embd_type(ft, t)
  if is(ft, "IQ2_XXS", "IQ2_XS", "IQ1_S", "IQ1_M") then return "Q2_K" end
  if is(ft, "IQ2_S", "IQ2_M", "IQ3_XXS") then return "IQ3_S" end
  if is(ft, "TQ1_0", "TQ2_0", "Q2_0") then return "Q4_K" end
  return t
end

local function iq2_type(st, x, t)
  local ft, c = st.ft, x.cat
  local s_or_m = is(ft, "IQ2_S", "IQ2_M")
  if R.attn_v_like(st, c) then
    t = (st.n_gqa >= 4 or st.n_expert >= 4) and "Q4_K" or (s_or_m and "IQ3_S" or "Q2_K")
    st.i_attention_wv = st.i_attention_wv + 1
  elseif st.n_expert == 8 and c == "attn_k" then
    t = "Q4_K"
  elseif c == "ffn_down" then
    if st.i_ffn_down < st.n_layer // 8 then t = s_or_m and "IQ3_S" or "Q2_K" end
    st.i_ffn_down = st.i_ffn_down + 1
  elseif c == "attn_output" then
    if st.n_expert == 8 then t = "Q5_K"
    elseif is(ft, "IQ1_S", "IQ1_M") then t = "IQ2_XXS"
    elseif s_or_m then t = "IQ3_S" end
  end
  return t
end

local function attn_v_type(st, t)
  local ft, gqa4, i = st.ft, st.n_gqa >= 4, st.i_attention_wv
  if ft == "Q2_K" then t = gqa4 and "Q4_K" or "Q3_K"
  elseif ft == "Q2_K_S" and gqa4 then t = "Q4_K"
  elseif ft == "IQ3_XXS" then t = gqa4 and "Q4_K" or (not st.imatrix and "IQ3_S" or "IQ3_XXS")
  elseif is(ft, "IQ3_XS", "IQ3_S") and gqa4 then t = "Q4_K"
  elseif ft == "IQ3_M" then t = "Q4_K"
  elseif ft == "Q3_K_M" then t = i < 2 and "Q5_K" or "Q4_K"
  elseif ft == "Q3_K_L" then t = "Q5_K"
  elseif is(ft, "IQ4_NL", "IQ4_XS") and gqa4 then t = "Q5_K"
  elseif is(ft, "Q4_K_M", "Q5_K_M") and use_more_bits(i, st.n_attention_wv) then t = "Q6_K"
  elseif ft == "Q4_K_S" and i < 4 then t = "Q5_K" end
  if st.is70b and (t == "Q3_K" or t == "Q4_K") then t = "Q5_K" end
  if st.n_expert == 8 then t = "Q8_0" end
  st.i_attention_wv = i + 1
  return t
end

local function ffn_down_type(st, x, t)
  local ft, falcon = st.ft, st.arch == "falcon"
  local i, n = layer_of(st, x, st.i_ffn_down)
  local umb = use_more_bits(i, n)
  if ft == "Q2_K" then t = "Q3_K"
  elseif ft == "Q2_K_S" then if i < n // 8 then t = "Q4_K" end
  elseif ft == "IQ3_XXS" and not st.imatrix then t = i < n // 8 and "Q4_K" or "Q3_K"
  elseif ft == "Q3_K_M" then t = i < n // 16 and "Q5_K" or ((not falcon or umb) and "Q4_K" or "Q3_K")
  elseif ft == "IQ3_M" and (i < n // 8 or (st.n_expert == 8 and umb)) then t = "Q4_K"
  elseif ft == "Q3_K_L" then t = falcon and "Q4_K" or "Q5_K"
  elseif ft == "Q4_K_M" then
    if falcon then t = i < n // 16 and "Q6_K" or (umb and "Q5_K" or "Q4_K")
    elseif umb then t = "Q6_K" end
  elseif i < n // 8 and is(ft, "IQ4_NL", "IQ4_XS") and not st.imatrix then t = "Q5_K"
  elseif ft == "Q5_K_M" and umb then t = "Q6_K"
  elseif ft == "Q4_K_S" and not falcon and i < n // 8 then t = "Q5_K"
  elseif is(ft, "Q4_0", "Q5_0") and st.imatrix and i < n // 8 then t = ft == "Q4_0" and "Q4_1" or "Q5_1" end
  st.i_ffn_down = st.i_ffn_down + 1
  return t
end

local MOE8_OUT = { "Q2_K", "IQ3_XS", "IQ3_XXS", "Q3_K_S", "Q3_K_M", "IQ4_NL", "Q4_K_S", "Q4_K_M", "IQ3_S", "IQ3_M", "IQ4_XS" }

local function attn_output_type(st, t)
  local ft = st.ft
  if st.arch == "falcon" then return ft == "Q3_K_L" and "Q4_K" or t end
  if st.n_expert == 8 then return is(ft, table.unpack(MOE8_OUT)) and "Q5_K" or t end
  local m = { Q2_K = "Q3_K", IQ3_XXS = "IQ3_S", Q3_K_M = "Q4_K", Q3_K_L = "Q5_K", IQ3_M = "Q4_K" }
  return m[ft] or t
end

local function gate_up_type(st, x, t, key)
  local i, n = layer_of(st, x, st[key])
  if st.ft == "IQ3_XS" and i >= n // 8 and i < 7 * n // 8 then t = "IQ3_XXS" end
  st[key] = st[key] + 1
  return t
end

-- llama_tensor_get_type_impl(): t is the file type's default ggml type.
local function impl(st, x, t, ne0, TYPES)
  local ft, c = st.ft, x.cat
  if c == "output" or (st.tied and c == "token_embd") then return output_type(st, ne0, t, TYPES) end
  if ft == "MXFP4_MOE" then return (x.role == "expert" and st.n_expert > 1) and "MXFP4" or "Q8_0" end
  if c == "token_embd" then return token_embd_type(ft, t) end
  if is(ft, table.unpack(IQ2_GROUP)) then return iq2_type(st, x, t) end
  if R.attn_v_like(st, c) then return attn_v_type(st, t) end
  if c == "attn_k" then
    if st.n_expert == 8 then return "Q8_0" end
    return ({ IQ3_XS = "IQ3_XXS", IQ3_XXS = "IQ2_S" })[ft] or t
  end
  if c == "attn_q" then return ({ IQ3_XS = "IQ3_XXS", IQ3_XXS = "IQ2_S" })[ft] or t end
  if c == "ffn_down" then return ffn_down_type(st, x, t) end
  if c == "attn_output" then return attn_output_type(st, t) end
  if c == "attn_qkv" then
    if is(ft, "Q3_K_M", "Q3_K_L", "IQ3_M") then return "Q4_K" end
    return ({ Q4_K_M = "Q5_K", Q5_K_M = "Q6_K" })[ft] or t
  end
  if c == "ffn_gate" then return gate_up_type(st, x, t, "i_ffn_gate") end
  if c == "ffn_up" then return gate_up_type(st, x, t, "i_ffn_up") end
  return t
end

local FALLBACK = { IQ1_S = "IQ4_NL", IQ1_M = "IQ4_NL", IQ2_XXS = "IQ4_NL", IQ2_XS = "IQ4_NL", IQ2_S = "IQ4_NL",
                   IQ3_XXS = "IQ4_NL", IQ3_S = "IQ4_NL", IQ4_XS = "IQ4_NL", Q2_K = "Q4_0", Q3_K = "Q4_0",
                   TQ1_0 = "Q4_0", TQ2_0 = "Q4_0", Q4_K = "Q5_0", Q5_K = "Q5_1", Q6_K = "Q8_0" }

-- tensor_type_fallback(): a row length the block does not divide
local function fallback(st, x, t, ne0, TYPES, q, field)
  if ne0 % TYPES[t][1] == 0 then return t end
  st.n_fallback = st.n_fallback + 1
  local f = FALLBACK[t]
  if not f and st.component then return "F16" end   -- pipeline parts: kept F16 like ComfyUI-GGUF
  if not f then
    q.fail(field, "tensor '%s': row length %d is not a multiple of %d, and llama-quantize has no fallback for %s",
      x.name, ne0, TYPES[t][1], t)
  end
  return ne0 % TYPES[f][1] == 0 and f or "F16"
end

-- img_tensor_get_type (city96/ComfyUI-GGUF tools/lcpp.patch@795e451): the rules in its order
-- (to_v, then fused qkv, then ffn down); everything else keeps the file type's default type,
-- none of llama.cpp's token_embd / output / attn_output / use_more_bits rules apply.
local K_TYPES = { Q2_K = true, Q3_K = true, Q4_K = true, Q5_K = true, Q6_K = true }
local function img_type(st, x, t)
  local ft, c = st.ft, x.img
  if c == "v" then
    if ft == "Q2_K" then t = "Q3_K"
    elseif ft == "Q3_K_M" then t = st.img_wv < 2 and "Q5_K" or "Q4_K"
    elseif ft == "Q3_K_L" then t = "Q5_K"
    elseif ft == "Q4_K_M" or ft == "Q5_K_M" then t = "Q6_K"
    elseif ft == "Q4_K_S" and st.img_wv < 4 then t = "Q5_K" end
    st.img_wv = st.img_wv + 1
  elseif c == "qkv" then
    t = ({ Q3_K_M = "Q4_K", Q3_K_L = "Q4_K", Q4_K_M = "Q5_K", Q5_K_M = "Q6_K" })[ft] or t
  elseif c == "ffn" then
    t = ({ Q3_K_M = "Q4_K", Q3_K_L = "Q5_K", Q4_K_S = "Q5_K", Q4_K_M = "Q6_K", Q5_K_M = "Q6_K",
           Q4_0 = "Q4_1", Q5_0 = "Q5_1" })[ft] or t
  end
  return t
end

-- The ggml type of one expanded tensor under file type st.ft (default type `default`).
function R.choose(st, x, default, TYPES, q, desc, field)
  if not x.quantizable then return x.src and (st.dtype == "bf16" and "BF16" or "F16") or "F32" end
  if TYPES[default][1] == 1 then return default end   -- F32/F16/BF16: not ggml_is_quantized
  local _, ne0 = q.dims(x, desc)
  if x.img then
    local t = img_type(st, x, default)
    -- the patch's row check: a K type whose block does not divide the row falls back to F16
    if K_TYPES[t] and ne0 % 256 ~= 0 then
      st.n_fallback = st.n_fallback + 1
      return "F16"
    end
    return fallback(st, x, t, ne0, TYPES, q, field)
  end
  local manual = st.tensor_type and R.tensor_type_match(st.tensor_type, x.gguf, st.rules)
  -- current rules: a matching --tensor-type pattern replaces the rules (the counters do not
  -- advance), the fallback still applies (llama_tensor_get_type @007dbbf3); classic: the rules
  -- run, and the pattern wins unless they fell back (@8784689 llama_model_quantize_impl)
  if manual and st.rules == "current" then return fallback(st, x, manual, ne0, TYPES, q, field) end
  local n_fb = st.n_fallback
  local t = fallback(st, x, impl(st, x, default, ne0, TYPES), ne0, TYPES, q, field)
  if manual and st.n_fallback == n_fb then return fallback(st, x, manual, ne0, TYPES, q, field) end
  return t
end

-- llama-quantize --tensor-type PATTERN=TYPE (tools/quantize/quantize.cpp parse_tensor_type;
-- the pattern a std::regex searched for in the GGUF tensor name, the type a ggml type name):
-- the list parsed once into { pattern, TYPE } pairs; field names the option for errors.
function R.tensor_types(list, TYPES, q, field)
  local out = {}
  for i, e in ipairs(list) do
    local f = ("%s[%d]"):format(field, i)
    local pat, ty = e:match("^(.+)=([^=]+)$")
    if not pat then q.fail(f, "expected PATTERN=TYPE (llama-quantize --tensor-type), got '%s'", e) end
    local ok, err = pcall(host.match, pat, "blk.0.attn_v.weight")
    if not ok then q.fail(f, "bad regular expression '%s': %s", pat, tostring(err)) end
    local T = ty:upper()
    if not TYPES[T] or T == "Q8_1" or T == "Q8_K" then
      q.fail(f, "unknown ggml type '%s' (e.g. f16, bf16, q8_0, q6_k, q4_k)", ty)
    end
    out[#out + 1] = { pat, T }
  end
  return out
end

-- the type a --tensor-type list gives the GGUF name (current: the first match, classic: the last)
function R.tensor_type_match(pairs_, name, rules)
  local got
  for _, p in ipairs(pairs_) do
    if host.match(p[1], name) then
      if rules == "current" then return p[2] end
      got = p[2]
    end
  end
  return got
end

return R
