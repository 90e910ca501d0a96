-- quant.lua: applies a quantization format to a normalized scenario (DESIGN.md "quant").
-- A format is one file scripts/quant/<name>.lua (its contract: docs/QUANT.md). This file
-- resolves the scenario's `quant` (a name, an alias, "gguf:<TYPE>", an options table, or a
-- per-component map), validates the options, asks the format tensor by tensor whether it
-- quantizes it and how many bytes ONE tensor then occupies (scales, zero points, group
-- indices folded in, so model.params still counts logical parameters only), and records
-- quant.name / quant.overhead_bytes / quant.overhead_detail. Lua 5.4 integers only.
local E = require "engine"
local Q = {}

local FORMAT_KEYS = { "name", "summary", "source", "aliases", "options", "defaults", "quantize_routers",
                      "keep", "tensor", "overhead", "apply", "list_name", "data", "keep_fp32" }
local COMMON_OPTIONS = { modules_to_not_convert = "strings", keep = "strings", ignore = "strings" }
local COMPONENTS = { "denoiser", "text_encoder", "text_encoder_2", "text_encoder_3", "text_encoder_4", "vae" }
local LINEAR_ROLES = { attn = true, mlp = true, expert = true, shared_expert = true, other = true }

local function fail(field, fmt, ...) error(field .. ": " .. fmt:format(...), 0) end
Q.fail = fail

-- ---------------------------------------------------------------- integer helpers

function Q.cdiv(a, b) return (a + b - 1) // b end

function Q.numel(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end

-- Bytes per element of the scenario's unquantized dtype (scales stored "in the model dtype").
function Q.dtype_bytes(dtype)
  return ({ fp32 = 4, fp16 = 2, bf16 = 2 })[dtype] or 2
end

-- out, in of a weight as a matmul sees it. Linear stores {out, in}; GPT-2's Conv1D and
-- gpt-oss's and Llama 4's fused expert parameters (no ".weight" suffix) store {in, out};
-- a parameter the architecture marks layout "out_in" (Qwen3.5-MoE's experts) {out, in}, one
-- marked "in_out" (DBRX's stacked down projection ffn.experts.mlp.w2) {in, out}.
function Q.dims(t, desc)
  local s = t.shape
  if #s < 2 then return nil end
  if t.layout == "out_in" then return s[1], s[2] end
  if t.layout == "in_out" then return s[2], s[1] end
  local conv1d = desc and desc.arch == "gpt2" and t.name:find("%.c_[%a]+%.weight$")
  if conv1d or t.name:find("experts%.[%w_]+_proj$") then return s[2], s[1] end
  local inner = 1
  for i = 2, #s do inner = inner * s[i] end
  return s[1], inner
end

-- A Linear weight that weight-only formats replace: 2-D, named *.weight, a linear role.
function Q.is_linear(t)
  return #t.shape == 2 and t.name:find("%.weight$") ~= nil and (LINEAR_ROLES[t.role or "other"] or t.role == "router")
end

-- One routed expert's projection held as a fused MoE parameter (experts.gate_up_proj,
-- experts.down_proj: no ".weight" suffix; gpt-oss, Llama 4, Qwen3.5-MoE; DBRX's experts.mlp.w1 /
-- v1 / w2, which the architecture marks with a layout), one expert a
-- tensor. Checkpoint formats store it quantized like a Linear (per expert, as vLLM's FusedMoE
-- methods load it: Fp8MoEMethod, CompressedTensorsWNA16MoEMethod, the Marlin/WNA16 MoE
-- methods of GPTQ and AWQ, ModelOpt NVFP4); bitsandbytes and torchao's transformers paths
-- replace nn.Linear modules only, so their formats keep using Q.is_linear.
function Q.is_fused_expert(t)
  return #t.shape == 2 and t.role == "expert" and (t.name:find("experts%.[%w_]+_proj$") ~= nil
    or (t.layout ~= nil and t.name:find("%.weight$") == nil))
end

-- A Linear that a group-wise integer format packs (GPTQ, AWQ, compressed-tensors): nil when
-- t is not a quantizable Linear (lm_head stays) or its input does not split into whole
-- groups (group_size -1: one group per row); else out, in, group size, groups.
function Q.group_linear(t, o, desc)
  if not (Q.is_linear(t) or Q.is_fused_expert(t)) or t.role == "lm_head" then return nil end
  local out, inp = Q.dims(t, desc)
  local g = o.group_size == -1 and inp or o.group_size
  if inp % g ~= 0 then return nil end
  return out, inp, g, inp // g
end

-- ---------------------------------------------------------------- registry

local registry

local function check_format(def, file)
  E.strict_field("scripts/quant/" .. file .. ".lua", def, FORMAT_KEYS)
  if type(def.name) ~= "string" then fail("scripts/quant/" .. file .. ".lua", "'name' must be a string") end
  if def.apply == nil and type(def.tensor) ~= "function" then
    fail("scripts/quant/" .. file .. ".lua", "needs a 'tensor' function (or 'apply')")
  end
  def.options, def.defaults, def.aliases = def.options or {}, def.defaults or {}, def.aliases or {}
  return def
end

function Q.formats()
  if registry then return registry end
  registry = {}
  for _, file in ipairs(host.list("scripts/quant")) do
    if file:sub(1, 1) == "_" then goto continue end   -- shared helpers, not formats
    local def = check_format(require("quant." .. file), file)
    registry[def.name] = def
    for _, a in ipairs(def.aliases) do registry[a] = registry[a] or def end
    ::continue::
  end
  return registry
end

local function known_names()
  local seen, out = {}, {}
  for _, def in pairs(Q.formats()) do
    if not seen[def] then seen[def] = true; out[#out + 1] = def.list_name or def.name end
  end
  table.sort(out)
  return out
end

-- For `vramfit list quants`.
function Q.list()
  local seen, out = {}, {}
  for _, def in pairs(Q.formats()) do
    if not seen[def] then
      seen[def] = true
      local s = def.summary or ""
      if #def.aliases > 0 then s = s .. " (aliases: " .. table.concat(def.aliases, ", ") .. ")" end
      out[#out + 1] = { name = def.list_name or def.name, summary = s }
    end
  end
  return out
end

-- ---------------------------------------------------------------- options

local function option_value(v, kind, field)
  if type(kind) == "table" then return E.enum_field(v, field, kind) end
  if kind == "bool" then return E.bool_field(v, field) end
  if kind == "int" then return E.int_field(v, field, 1, 1 << 30) end
  if kind == "group" then
    if math.type(v) ~= "integer" or (v < 1 and v ~= -1) or v > 1 << 20 then
      fail(field, "expected -1 (one group per row) or a positive integer, got %s", tostring(v))
    end
    return v
  end
  if kind == "string" then
    if type(v) ~= "string" then fail(field, "expected a string, got %s", type(v)) end
    return v
  end
  if kind == "strings" then
    if type(v) == "string" then v = { v } end
    if type(v) ~= "table" then fail(field, "expected a list of strings") end
    for i, s in ipairs(v) do
      if type(s) ~= "string" then fail(("%s[%d]"):format(field, i), "expected a string") end
    end
    return v
  end
  error("quant: bad option kind " .. tostring(kind), 0)
end

-- spec (string or table) -> format definition, validated options
local function resolve(spec, field)
  local raw = spec
  if type(spec) == "string" then raw = { name = spec } end
  if type(raw) ~= "table" or type(raw.name) ~= "string" then
    fail(field, "expected a format name such as \"awq\" or \"gguf:Q4_K_M\", or a table with 'name'")
  end
  local name, sub = raw.name, nil
  if name:find(":") then name, sub = name:match("^([^:]*):(.*)$") end
  local def = Q.formats()[name] or Q.formats()[name:lower()]
  if not def then
    fail(field, "unknown format '%s' (known: %s)", raw.name, table.concat(known_names(), ", "))
  end
  if sub and def.options.type == nil then fail(field, "format '%s' takes no ':<TYPE>' suffix", def.name) end
  if sub then
    local copy = {}
    for k, v in pairs(raw) do copy[k] = v end
    if copy.type ~= nil then fail(field, "give the type either as '%s:<TYPE>' or as 'type', not both", def.name) end
    copy.type, raw = sub, copy
  end
  local allowed = { "name" }
  for k in pairs(def.options) do allowed[#allowed + 1] = k end
  for k in pairs(COMMON_OPTIONS) do allowed[#allowed + 1] = k end
  E.strict_field(field, raw, allowed)
  local o = {}
  for k, v in pairs(def.defaults) do o[k] = v end
  for k, v in pairs(raw) do
    if k ~= "name" then o[k] = option_value(v, def.options[k] or COMMON_OPTIONS[k], field .. "." .. k) end
  end
  return def, o
end
Q.resolve = resolve

-- ---------------------------------------------------------------- selection

local function module_name(t) return (t.name:gsub("%.weight$", "")) end

-- Does the module name m fall under the checkpoint's ignore entry e? vLLM's is_layer_skipped
-- (vllm/model_executor/layers/quantization/utils/quant_utils.py) compares the layer prefix with
-- the list (compressed-tensors' ignore, Fp8Config's ignored_layers, FBGEMMFp8Config's
-- modules_to_not_convert, ModelOpt's exclude_modules): the entry is the module itself, a short
-- name the prefix ends with ("lm_head" for "language_model.lm_head"), or a parent module whose
-- submodules it covers ("vision_model"), on dot boundaries (so "gate" is not "gate_proj", as
-- sgl-project/sglang PR #23467 matches it).
-- The entries are held as a set and each run of whole dot-separated parts of the name looked up
-- (a checkpoint may list hundreds of per-layer names).
local function under(m, set)
  local parts = {}
  for p in m:gmatch("[^.]+") do parts[#parts + 1] = p end
  for i = 1, #parts do
    local s = parts[i]
    if set[s] then return true end
    for j = i + 1, #parts do
      s = s .. "." .. parts[j]
      if set[s] then return true end
    end
  end
  return false
end

local SETS = setmetatable({}, { __mode = "k" })
local function ignore_set(o)
  local set = SETS[o.ignore]
  if not set then
    set = {}
    for _, e in ipairs(o.ignore) do set[e] = true end
    SETS[o.ignore] = set
  end
  return set
end

-- Does the format see the MoE routers (`quantize_routers`: true, or a function of the options)?
function Q.routers_quantized(def, o)
  if type(def.quantize_routers) == "function" then return def.quantize_routers(o or {}) end
  return def.quantize_routers and true or false
end

-- Is tensor t left unquantized by the user's or the format's rules?
local function kept(def, t, o)
  for _, m in ipairs(o.modules_to_not_convert or {}) do
    if module_name(t):find(m, 1, true) then return true end
  end
  if o.ignore then
    if under((module_name(t):gsub("%.bias$", "")), ignore_set(o)) then return true end
  end
  for _, p in ipairs(o.keep or {}) do
    if host.match(p, t.name) then return true end
  end
  for _, p in ipairs(def.keep or {}) do
    if host.match(p, t.name) then return true end
  end
  return t.role == "router" and not Q.routers_quantized(def, o)
end
Q.kept = kept

-- Is a module of the served checkpoint named `name` (role `role`) left unquantized by the
-- quantization applied to n (the user's keep / modules_to_not_convert, the format's own keep)?
-- Used for tensors that are not in n.model.desc when the quant is applied.
function Q.keeps(n, name, role)
  for _, r in ipairs(n.quant_rules or {}) do
    if r.component == nil and kept(r.def, { name = name, role = role }, r.o) then return true end
  end
  return false
end

local function set_result(t, r, where)
  if math.type(r.bytes) ~= "integer" or r.bytes <= 0 then
    fail(where, "tensor '%s': bytes must be a positive integer, got %s", t.name, tostring(r.bytes))
  end
  t.bytes, t.qtype, t.dtype = r.bytes, r.qtype, r.dtype
end

-- A checkpoint's ignore list names modules per layer ("language_model.model.layers.3.self_attn
-- .q_proj": Meta's Llama 4 FP8 checkpoints, llm-compressor recipes that skip some layers), while a
-- description holds one "layers.*" group for all of them. A group whose layers the rules keep in
-- part is split in two: the kept layers (left in the compute dtype) and the rest. Returns the
-- tensors to walk (t itself when the rules treat every layer alike) and the kept ones.
local function split_kept(def, t, o, desc, field)
  local function whole() return { t }, kept(def, t, o) and { [t] = true } or {} end
  local per_layer = o.ignore or o.modules_to_not_convert or o.keep
  if not (per_layer and t.name:find("*", 1, true) and (t.count or 1) > 1) then return whole() end
  local G = require "quant._gguf_rules"
  local ok, ids, per = pcall(G.group_layers, t, desc, Q, field)
  if not ok then return whole() end -- layers not known
  local hit, miss = {}, {}
  for _, i in ipairs(ids) do
    local c = { name = (t.name:gsub("%*", tostring(i), 1)), role = t.role }
    if kept(def, c, o) then hit[#hit + 1] = i else miss[#miss + 1] = i end
  end
  if #miss == 0 then return { t }, { [t] = true } end
  if #hit == 0 then return { t }, {} end
  local a, b = {}, {}
  for k, v in pairs(t) do a[k], b[k] = v, v end
  a.count, a.layer_ids = #hit * per, hit
  b.count, b.layer_ids = #miss * per, miss
  return { a, b }, { [a] = true }
end

-- The generic path: one decision per tensor group. Returns quantized groups, largest numel.
local function apply_tensors(def, o, n, component, field)
  local desc, groups, largest = n.model.desc, 0, 0
  local ctx = { n = n, desc = desc, q = Q, field = field }
  local walk, keep = {}, {}
  for _, t in ipairs(desc.tensors) do
    if component == nil or t.component == component then
      local parts, k = split_kept(def, t, o, desc, field)
      for _, p in ipairs(parts) do walk[#walk + 1] = p; keep[p] = k[p] end
    else
      walk[#walk + 1] = t
    end
  end
  desc.tensors = walk
  for _, t in ipairs(walk) do
    if component == nil or t.component == component then
      if t.qtype and t.qtype ~= "" then
        fail(field, "model %s is already quantized (tensor '%s' is %s)", n.model.id, t.name, t.qtype)
      end
      -- keep_fp32 formats (bitsandbytes: transformers' use_keep_in_fp32_modules) leave a
      -- model's _keep_in_fp32_modules (T5's 'wo', flagged keep_fp32) unquantized in fp32
      local fp32 = def.keep_fp32 and t.keep_fp32
      if fp32 then t.dtype = "fp32" end
      local r = not fp32 and not keep[t] and def.tensor(t, o, ctx) or nil
      if r then
        set_result(t, r, "scripts/quant/" .. def.name .. ".lua")
        groups = groups + 1
        largest = math.max(largest, Q.numel(t.shape))
      end
    end
  end
  if groups == 0 then fail(field, "format '%s' quantizes no tensor of model %s", def.name, n.model.id) end
  return groups, largest
end

local function add_overhead(n, bytes, detail)
  if not bytes or bytes <= 0 then return end
  n.extra["quant.overhead_bytes"] = (n.extra["quant.overhead_bytes"] or 0) + bytes
  local d = n.extra["quant.overhead_detail"]
  n.extra["quant.overhead_detail"] = d and (d .. "; " .. detail) or detail
end

local function apply_one(spec, n, component, field, runtime_keep)
  local def, o = resolve(spec, field)
  -- modules the runtime's model class builds without the quantization config whatever the
  -- checkpoint says (rt.quant_keep: PCRE patterns on tensor names)
  if runtime_keep and #runtime_keep > 0 and component == nil then
    local k = {}
    for _, p in ipairs(o.keep or {}) do k[#k + 1] = p end
    for _, p in ipairs(runtime_keep) do k[#k + 1] = p end
    o.keep = k
  end
  -- the rules stay on n for modules built later from the same checkpoint (an MTP drafter's
  -- layers, scripts/speculative.lua): Q.keeps answers for them as apply_tensors does here
  n.quant_rules = n.quant_rules or {}
  n.quant_rules[#n.quant_rules + 1] = { def = def, o = o, component = component }
  local label = def.name .. (o.type and (":" .. o.type) or "")
  if def.apply then
    def.apply(n, o, { n = n, desc = n.model.desc, q = Q, field = field, component = component })
  else
    local groups, largest = apply_tensors(def, o, n, component, field)
    n.notes[#n.notes + 1] = ("quant %s%s: %d tensor groups quantized; embeddings, norms, biases%s kept in %s"):format(
      label, component and (" on " .. component) or "", groups,
      Q.routers_quantized(def, o) and "" or ", routers", n.dtype)
    if def.overhead then add_overhead(n, def.overhead(n, o, largest, { q = Q, desc = n.model.desc, component = component, field = field })) end
  end
  return label
end

local function is_component_map(spec)
  if type(spec) ~= "table" or spec.name ~= nil then return false end
  return next(spec) ~= nil
end

-- apply(spec, n, runtime_keep): rewrites n.model.desc.tensors' bytes/qtype/dtype; sets quant.*
-- extras. runtime_keep: optional patterns of tensors the runtime leaves unquantized.
function Q.apply(spec, n, runtime_keep)
  if not is_component_map(spec) then
    -- a pipeline quantizes its denoiser (what diffusers' quantization_config targets)
    local denoiser = nil
    for _, t in ipairs(n.model.desc.tensors) do
      if t.component then denoiser = "denoiser" end
    end
    if denoiser then n.notes[#n.notes + 1] = "quant applied to the denoiser only (name components to quantize others)" end
    local label = apply_one(spec, n, denoiser, "quant", runtime_keep)
    n.extra["quant.name"] = denoiser and ("denoiser=" .. label) or label
    return
  end
  E.strict_field("quant", spec, COMPONENTS)
  local has = {}
  for _, t in ipairs(n.model.desc.tensors) do
    if t.component then has[t.component] = true end
  end
  local labels = {}
  for _, c in ipairs(COMPONENTS) do
    if spec[c] ~= nil then
      if not has[c] then
        fail("quant." .. c, "per-component quantization is not supported yet for model %s (its tensors carry no component '%s')",
          n.model.id, c)
      end
      labels[#labels + 1] = c .. "=" .. apply_one(spec[c], n, c, "quant." .. c)
    end
  end
  n.extra["quant.name"] = table.concat(labels, ",")
end

-- ---------------------------------------------------------------- checkpoint quantization

-- The format a checkpoint's own config.json quantization_config names, as vLLM and
-- transformers read it when no --quantization is given (vllm/model_executor/layers/
-- quantization/*: Fp8Config.from_config weight_block_size / activation_scheme,
-- GPTQConfig bits / group_size / desc_act / sym, AWQConfig, Mxfp4Config,
-- compressed_tensors.py config_groups, modelopt.py quant_algo; transformers
-- BitsAndBytesConfig). Returns a spec for Q.apply, or nil and what vramfit lacks.
local function ct_spec(qc)
  -- compressed-tensors: the first config group's weights and input activations
  local group
  for _, g in pairs(qc.config_groups or {}) do
    if type(g) == "table" and type(g.weights) == "table" then group = g; break end
  end
  if not group then return nil, "no config_groups entry with weights" end
  local w, ia = group.weights, group.input_activations
  if type(ia) ~= "table" then ia = nil end   -- JSON null reads as userdata: no activation quantization
  local bits, typ, strat = w.num_bits, w.type, w.strategy
  if typ == "float" and bits == 8 then
    local spec = { name = "fp8", scheme = strat == "channel" and "channel" or strat == "block" and "block" or "tensor",
                   activation_scheme = (type(ia) == "table" and ia.dynamic == false) and "static" or "dynamic" }
    if strat == "block" then
      local b = w.block_structure
      if type(b) ~= "table" or b[1] ~= b[2] then return nil, "fp8 blocks that are not square" end
      spec.block_size = b[1]
    end
    return spec
  elseif typ == "float" and bits == 4 then
    return { name = "nvfp4" }
  elseif typ == "int" and bits == 8 and type(ia) == "table" then
    return { name = "w8a8", activation_scheme = ia.dynamic == false and "static" or "dynamic" }
  elseif typ == "int" and (bits == 4 or bits == 8) and ia == nil then
    local act = w.actorder
    return { name = "compressed-tensors-w4a16", bits = bits,
             group_size = strat == "group" and w.group_size or -1, sym = w.symmetric ~= false,
             actorder = type(act) ~= "userdata" and act ~= nil and act ~= false and act ~= "static" }
  end
  return nil, ("weights of %s bits, type %s"):format(tostring(bits), tostring(typ))
end

-- The modules a checkpoint leaves unquantized, by the key its format's vLLM config reads:
-- compressed-tensors `ignore` (CompressedTensorsConfig: a module name, or "re:" + a regex that
-- re.match()es the prefix from its start), Fp8Config `ignored_layers` (else the transformers
-- FineGrainedFP8Config / FbgemmFp8Config `modules_to_not_convert`), FBGEMMFp8Config
-- `modules_to_not_convert`, ModelOpt `exclude_modules` (fnmatch wildcards; top level or under
-- `quantization` in hf_quant_config.json), all matched as module names (Q.kept: `ignore`);
-- AWQ's `modules_to_not_convert`, which vLLM's is_layer_skipped_awq tests as a substring of the
-- prefix (`module_name in prefix`); GPTQ's `dynamic` rules "-:<regex>" (GPTQConfig: the layers
-- re.match()ing the regex are skipped). Each as the option of the same meaning.
local IGNORE_KEYS = {
  ["compressed-tensors"] = { "ignore" }, fp8 = { "ignored_layers", "modules_to_not_convert" },
  fbgemm_fp8 = { "modules_to_not_convert" }, modelopt = { "exclude_modules" }, mxfp4 = { "modules_to_not_convert" },
}
local function glob_re(g)
  return "^(?:" .. g:gsub("[%.%+%?%^%$%(%)%[%]%{%}|\\]", "\\%0"):gsub("%*", ".*") .. ")$"
end
local function with_ignores(spec, qc, m)
  if not spec then return spec end
  local names, keep = {}, {}
  local function add(list, glob)
    for _, i in ipairs(type(list) == "table" and list or {}) do
      if type(i) ~= "string" then
      elseif i:sub(1, 3) == "re:" then keep[#keep + 1] = "^(?:" .. i:sub(4) .. ")"
      elseif glob and i:find("[*?]") then keep[#keep + 1] = glob_re(i)
      else names[#names + 1] = i end
    end
  end
  for _, k in ipairs(IGNORE_KEYS[m] or {}) do
    if type(qc[k]) == "table" and #names == 0 and #keep == 0 then add(qc[k], m == "modelopt") end
  end
  if m == "modelopt" and type(qc.quantization) == "table" then add(qc.quantization.exclude_modules, true) end
  if (m == "gptq" or m == "gptq_marlin") and type(qc.dynamic) == "table" then
    for r in pairs(qc.dynamic) do
      if type(r) == "string" and r:sub(1, 2) == "-:" then keep[#keep + 1] = "^(?:" .. r:sub(3) .. ")" end
    end
    table.sort(keep)
  end
  if (m == "awq" or m == "awq_marlin") and type(qc.modules_to_not_convert) == "table" then
    spec.modules_to_not_convert = qc.modules_to_not_convert
  end
  spec.ignore = #names > 0 and names or nil
  spec.keep = #keep > 0 and keep or nil
  return spec
end

-- The vLLM / transformers quantization method a spec loads through (what a model class compares
-- its quant_config's get_name() with): the checkpoint's quant_method when it has one.
local METHOD_OF = { ["bnb-nf4"] = "bitsandbytes", ["bnb-fp4"] = "bitsandbytes", ["bnb-int8"] = "bitsandbytes",
  ["int4-weight-only"] = "torchao", ["int8-weight-only"] = "torchao",
  ["compressed-tensors-w4a16"] = "compressed-tensors", nvfp4 = "modelopt_fp4" }
function Q.method(spec, qc)
  if type(qc) == "table" and type(qc.quant_method) == "string" then return qc.quant_method:lower() end
  local name = type(spec) == "table" and spec.name or spec
  if type(name) ~= "string" then return nil end
  local def = resolve(name, "quant")
  return METHOD_OF[def.name] or def.name
end

local from_config

function Q.from_config(qc)
  local m = type(qc.quant_method) == "string" and qc.quant_method:lower() or nil
  local spec, why = from_config(qc, m)
  return with_ignores(spec, qc, m), why
end

from_config = function(qc, m)
  if m == "fp8" or m == "fbgemm_fp8" then
    local b = qc.weight_block_size
    if b ~= nil then
      if type(b) ~= "table" or b[1] ~= b[2] or math.type(b[1]) ~= "integer" then
        return nil, "weight_block_size that is not square"
      end
      return { name = "fp8", scheme = "block", block_size = b[1], activation_scheme = qc.activation_scheme or "dynamic" }
    end
    return { name = "fp8", scheme = m == "fbgemm_fp8" and "channel" or "tensor", activation_scheme = qc.activation_scheme or "dynamic" }
  elseif m == "mxfp4" then
    return { name = "mxfp4" }
  elseif m == "gptq" or m == "gptq_marlin" then
    return { name = "gptq", bits = qc.bits or 4, group_size = qc.group_size or 128,
             desc_act = qc.desc_act == true, sym = qc.sym ~= false }
  elseif m == "awq" or m == "awq_marlin" then
    local v = type(qc.version) == "string" and qc.version:lower() or "gemm"
    return { name = "awq", bits = qc.bits or qc.w_bit or 4, group_size = qc.group_size or qc.q_group_size or 128,
             zero_point = qc.zero_point ~= false, version = v }
  elseif m == "bitsandbytes" then
    if qc.load_in_4bit then
      return { name = qc.bnb_4bit_quant_type == "fp4" and "bnb-fp4" or "bnb-nf4",
               double_quant = qc.bnb_4bit_use_double_quant == true }
    elseif qc.load_in_8bit then
      return { name = "bnb-int8" }
    end
    return nil, "neither load_in_4bit nor load_in_8bit"
  elseif m == "compressed-tensors" then
    return ct_spec(qc)
  elseif m == "modelopt" then
    local algo = type(qc.quant_algo) == "string" and qc.quant_algo:upper()
      or (type(qc.quantization) == "table" and type(qc.quantization.quant_algo) == "string" and qc.quantization.quant_algo:upper())
    if algo == "FP8" then return { name = "fp8", scheme = "tensor" } end
    if algo == "NVFP4" then return { name = "nvfp4" } end
    return nil, "quant_algo " .. tostring(algo)
  end
  return nil, "no format for it"
end

return Q
