-- gguf.lua: llama.cpp file types as "gguf:<TYPE>" (Q4_K_M, Q8_0, IQ4_XS, F16, MXFP4_MOE, ...):
-- the per-tensor ggml type that llama-quantize would choose, and its exact bytes.
-- Source: ggml-org/llama.cpp src/llama-quant.cpp (llama_ftype_get_default_type,
-- tensor_allows_quantization, llama_tensor_get_type_impl, tensor_type_fallback) and the
-- block structs of ggml/src/ggml-common.h (the table below must equal src/ggml_types.c;
-- tests/lua/test_quant.lua checks it). Every "*" group is expanded per layer, because the
-- choice depends on the layer (use_more_bits, i_layer < n_layer/8); an expanded tensor keeps
-- its HF name with the layer index, `layer` and the GGUF name `gguf`. A GGUF row is ne0 =
-- the Linear's INPUT dimension; bytes = rows x ne0/block x bytes_per_block.
-- Rules option: "classic" (llama.cpp up to its 2026 tensor_category refactor, e.g. build
-- b4385 of the pythia calibration cases: attn_qkv has its own rule, Q4_K_M -> Q5_K) or
-- "current" (attn_qkv is promoted like attn_v). Option tensor_type: llama-quantize's
-- --tensor-type PATTERN=TYPE entries, a file's per-tensor types stated (unsloth's dynamic "UD"
-- files choose their own, which no rule here rebuilds).
local G = require "quant._gguf_rules"
local nn = require "nn"

-- ggml type -> { elements per block, bytes per block } (ggml-common.h static_asserts)
local TYPES = {
  F32 = { 1, 4 }, F16 = { 1, 2 }, BF16 = { 1, 2 }, Q4_0 = { 32, 18 }, Q4_1 = { 32, 20 },
  Q5_0 = { 32, 22 }, Q5_1 = { 32, 24 }, Q8_0 = { 32, 34 }, Q8_1 = { 32, 36 },
  Q2_K = { 256, 84 }, Q3_K = { 256, 110 }, Q4_K = { 256, 144 }, Q5_K = { 256, 176 },
  Q6_K = { 256, 210 }, Q8_K = { 256, 292 }, IQ2_XXS = { 256, 66 }, IQ2_XS = { 256, 74 },
  IQ3_XXS = { 256, 98 }, IQ1_S = { 256, 50 }, IQ4_NL = { 32, 18 }, IQ3_S = { 256, 110 },
  IQ2_S = { 256, 82 }, IQ4_XS = { 256, 136 }, IQ1_M = { 256, 56 }, TQ1_0 = { 256, 54 },
  TQ2_0 = { 256, 66 }, MXFP4 = { 32, 17 }, NVFP4 = { 64, 36 }, Q1_0 = { 128, 18 },
}

-- llama_ftype (the llama-quantize name) -> default ggml type (llama_ftype_get_default_type)
local FTYPES = {
  F32 = "F32", F16 = "F16", BF16 = "BF16", Q4_0 = "Q4_0", Q4_1 = "Q4_1", Q5_0 = "Q5_0",
  Q5_1 = "Q5_1", Q8_0 = "Q8_0", Q2_K = "Q2_K", Q2_K_S = "Q2_K", Q3_K_S = "Q3_K",
  Q3_K_M = "Q3_K", Q3_K_L = "Q3_K", Q4_K_S = "Q4_K", Q4_K_M = "Q4_K", Q5_K_S = "Q5_K",
  Q5_K_M = "Q5_K", Q6_K = "Q6_K", IQ2_XXS = "IQ2_XXS", IQ2_XS = "IQ2_XS", IQ2_S = "IQ2_XS",
  IQ2_M = "IQ2_S", IQ3_XXS = "IQ3_XXS", IQ3_XS = "IQ3_S", IQ3_S = "IQ3_S", IQ3_M = "IQ3_S",
  IQ1_S = "IQ1_S", IQ1_M = "IQ1_M", IQ4_NL = "IQ4_NL", IQ4_XS = "IQ4_XS", TQ1_0 = "TQ1_0",
  TQ2_0 = "TQ2_0", MXFP4_MOE = "MXFP4", Q1_0 = "Q1_0",
}
-- llama-quantize accepts these spellings too (tools/quantize/quantize.cpp QUANT_OPTIONS)
local FTYPE_ALIASES = { Q4_K = "Q4_K_M", Q5_K = "Q5_K_M", Q3_K = "Q3_K_M", MXFP4 = "MXFP4_MOE" }

local function ftype_names()
  local out = {}
  for k in pairs(FTYPES) do out[#out + 1] = k end
  table.sort(out)
  return table.concat(out, ", ")
end

local function row_bytes(gtype, rows, ne0)
  local t = TYPES[gtype]
  return rows * (ne0 // t[1]) * t[2]
end

local function dtype_of(gtype)
  if gtype == "F32" then return "fp32" elseif gtype == "F16" then return "fp16" end
  if gtype == "BF16" then return "bf16" elseif gtype == "MXFP4" or gtype == "NVFP4" then return "fp4" end
  return (gtype:find("^Q8") or gtype == "Q6_K") and "int8" or "int4"
end

-- Bytes of one tensor of the expanded list in ggml type gtype.
local function tensor_bytes(x, gtype, q, desc)
  local numel = q.numel(x.shape)
  if #x.shape < 2 or TYPES[gtype][1] == 1 then return numel * TYPES[gtype][2] end
  local _, ne0 = q.dims(x, desc)
  return row_bytes(gtype, numel // ne0, ne0)
end

local function apply(n, o, ctx)
  local q, desc = ctx.q, ctx.desc
  local ft = (o.type or ""):upper()
  ft = FTYPE_ALIASES[ft] or ft
  if not FTYPES[ft] then
    q.fail(ctx.field, "unknown GGUF file type '%s' (known: %s)", tostring(o.type), ftype_names())
  end
  local list, others = G.expand(desc, q, ctx.field, ctx.component)
  local st = G.state(desc, list, ft, o, ctx.component)
  st.dtype = n.dtype   -- the checkpoint's dtype: the 2-byte type a converter keeps (_gguf_rules CONVERTER_KEEP)
  if o.tensor_type then st.tensor_type = G.tensor_types(o.tensor_type, TYPES, q, ctx.field .. ".tensor_type") end
  local counts = {}
  for _, x in ipairs(list) do
    local gt = G.choose(st, x, FTYPES[ft], TYPES, q, desc, ctx.field)
    x.bytes, x.qtype, x.dtype = tensor_bytes(x, gt, q, desc), gt, dtype_of(gt)
    x.quantizable, x.cat = nil, nil
    counts[gt] = (counts[gt] or 0) + (x.count or 1)
  end
  local vision = 0
  for _, t in ipairs(others) do
    list[#list + 1] = t
    if nn.vision_tensor(t.name) then vision = vision + (t.count or 1) end
  end
  desc.tensors = list
  local parts = {}
  for k, v in pairs(counts) do parts[#parts + 1] = ("%d %s"):format(v, k) end
  table.sort(parts)
  n.notes[#n.notes + 1] = ("quant gguf:%s: llama-quantize %s rules, tensors %s%s%s"):format(
    ft, o.rules, table.concat(parts, ", "), st.n_fallback > 0 and
      (" (%d tensors fell back: row length not a multiple of the block)"):format(st.n_fallback) or "",
    vision > 0 and ("; the vision tower and projector (%d tensors) left to the mmproj file and its own type"):format(vision) or "")
end

return {
  name = "gguf",
  list_name = "gguf:<TYPE>",
  summary = "llama.cpp file types (Q4_K_M, Q8_0, IQ4_XS, F16, MXFP4_MOE, ...): llama-quantize's per-tensor choice",
  aliases = { "llama.cpp", "ggml" },
  options = { type = "string", rules = { "classic", "current" }, imatrix = "bool", tensor_type = "strings" },
  defaults = { rules = "classic", imatrix = false },
  apply = apply,
  data = { types = TYPES, ftypes = FTYPES },
}
