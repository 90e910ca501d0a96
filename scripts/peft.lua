-- peft.lua: the trainable set of a fine-tuning method over an architecture description:
-- PEFT's target_modules semantics (a list of module-name suffixes, or one regular
-- expression matched against the whole module name: peft/tuners/tuners_utils.py
-- check_target_module_exists), the parameters each method adds (LoRA r x (in + out) per
-- targeted Linear {out, in}; DoRA + out; AdaLoRA + r; LoHa 2r(in + out); IA3 one vector;
-- LN tuning and modules_to_save: trainable copies), and which Linear inputs autograd
-- must keep for backward. Used by workloads/train.lua; pure Lua over host.match.
local E = require "engine"
local fail = E.fail
local elems = require("quant").numel
local P = {}

-- PEFT's default target_modules by the config's model_type (peft/utils/constants.py
-- TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING, huggingface/peft 00073fe): for any
-- other model_type get_peft_model raises "Please specify `target_modules` in `peft_config`"
-- (Qwen3-MoE, DeepSeek, gpt-oss, Phi-3, multimodal Gemma 3 "gemma3" among them).
local QV = { "q_proj", "v_proj" }
local DEFAULT_TARGETS = {
  t5 = { "q", "v" }, mt5 = { "q", "v" }, bart = QV, gpt2 = { "c_attn" }, bloom = { "query_key_value" },
  ["blip-2"] = { "q", "v", "q_proj", "v_proj" }, opt = QV, gptj = QV, gpt_neox = { "query_key_value" },
  gpt_neo = QV, bert = { "query", "value" }, roberta = { "query", "value" }, ["xlm-roberta"] = { "query", "value" },
  electra = { "query", "value" }, ["deberta-v2"] = { "query_proj", "value_proj" }, deberta = { "in_proj" },
  layoutlm = { "query", "value" }, llama = QV, llama4 = QV, chatglm = { "query_key_value" },
  gpt_bigcode = { "c_attn" }, mpt = { "Wqkv" }, RefinedWebModel = { "query_key_value" },
  RefinedWeb = { "query_key_value" }, falcon = { "query_key_value" }, btlm = { "c_proj", "c_attn" },
  codegen = { "qkv_proj" }, mistral = QV, mixtral = QV, stablelm = QV, phi = { "q_proj", "v_proj", "fc1", "fc2" },
  gemma = QV, gemma2 = QV, gemma3_text = QV, qwen2 = QV, qwen3 = QV,
}
-- IA3 scales the input of these (feedforward) modules instead of the output
-- (peft/utils/constants.py TRANSFORMERS_MODELS_TO_IA3_FEEDFORWARD_MODULES_MAPPING), unless
-- IA3Config.feedforward_modules names them (opts.ff: workload.lora.feedforward_modules).
local FEEDFORWARD = { down_proj = true, wo = true, dense_4h_to_h = true, fc2 = true, c_proj = true, w2 = true }
-- Linear inputs grouped by what produces them (the activation model's terms).
local QKV = { q_proj = 1, k_proj = 1, v_proj = 1, q = 1, k = 1, v = 1, query = 1, key = 1, value = 1,
              query_key_value = 1, c_attn = 1, qkv_proj = 1, Wqkv = 1, wq = 1, wk = 1, wv = 1,
              to_q = 1, to_k = 1, to_v = 1, add_q_proj = 1, add_k_proj = 1, add_v_proj = 1 } -- diffusers attention
local UP = { gate_proj = 1, up_proj = 1, wi = 1, wi_0 = 1, wi_1 = 1, fc1 = 1, dense_h_to_4h = 1,
             c_fc = 1, w1 = 1, w3 = 1, gate_up_proj = 1, proj_mlp = 1 }

-- One entry per tensor group: module name (layer index 0), shape, count, role.
local function modules(desc)
  local out = {}
  for _, t in ipairs(desc.tensors or {}) do
    -- a buffer (nn.param opts.buffer) is no module's weight and is never trained
    if not t.buffer then
      local name = t.name:gsub("%*", "0")
      local mod, kind = name:match("^(.-)%.(%w+)$")
      out[#out + 1] = { module = mod or name, param = kind, shape = t.shape, count = t.count or 1,
                        role = t.role, name = t.name, short = (mod or name):match("([^%.]+)$") }
    end
  end
  return out
end

-- Roles whose 2-D weights are not nn.Linear modules (embedding tables).
local NOT_LINEAR = { embed = true, pos_embed = true }

-- matcher(targets, field): a function(module_name, role) -> bool with PEFT's semantics.
-- "all-linear" is PEFT's shorthand (tuners_utils.py _maybe_include_all_linear_layers):
-- every Linear but the output layer (get_output_embeddings), whatever its name.
function P.matcher(targets, field)
  if targets == "all-linear" then
    return function(_, role) return role ~= "lm_head" and not NOT_LINEAR[role] end
  end
  if type(targets) == "string" then
    local pat = "^(?:" .. targets .. ")\\z"
    local ok, err = pcall(host.match, pat, "probe")
    if not ok then fail(field, "bad regular expression: %s", tostring(err)) end
    return function(m) return host.match(pat, m) end
  end
  if type(targets) ~= "table" or targets[1] == nil then
    fail(field, "expected a list of module names or one regular expression")
  end
  local set = {}
  for i, k in ipairs(targets) do
    if type(k) ~= "string" or k == "" then fail(("%s[%d]"):format(field, i), "expected a module name") end
    set[k] = true
  end
  return function(m)
    if set[m] then return true end
    for k in pairs(set) do
      if m:sub(-#k - 1) == "." .. k then return true end
    end
    return false
  end
end

function P.default_targets(model_type) return DEFAULT_TARGETS[model_type] end

-- Tensors a method adds to one targeted Linear {out, in}, each { shape, trainable }.
local function lora_pair(o, i, r) return { { r, i }, { o, r } } end
local ADD = {
  lora = lora_pair, qlora = lora_pair,
  ["lora-fa"] = function(o, i, r) return { { r, i, frozen = true }, { o, r } } end, -- arXiv 2308.03303
  dora = function(o, i, r) local t = lora_pair(o, i, r); t[3] = { o }; return t end,
  adalora = function(o, i, r) local t = lora_pair(o, i, r); t[3] = { r, 1 }; return t end,
  loha = function(o, i, r) return { { o, r }, { r, i }, { o, r }, { r, i } } end,
  ia3 = function(o, i, _, ff) return { { ff and i or o } } end,
}
P.LINEAR_METHODS = ADD

-- acc: params (added to the model), trainable, largest (elements of the largest
-- trainable tensor), tensors {{n, count, shape, role}} (role: the inventory role, or
-- "adapter" for a PEFT method's added tensors; optimizers may treat roles differently).
local function add_tensor(acc, shape, count, added, role)
  local n = elems(shape)
  if added then acc.params = acc.params + n * count end
  if shape.frozen then return end
  acc.trainable = acc.trainable + n * count
  if n > acc.largest then acc.largest = n end
  acc.tensors[#acc.tensors + 1] = { n = n, count = count, shape = shape, role = role }
end

-- A Linear's input is saved for backward when its weight is trained or adapted.
local function mark_saved(flags, m)
  if QKV[m.short] then flags.attn_in = true
  elseif UP[m.short] or m.module:find("%.net%.0%.proj$") then flags.mlp_in = true -- diffusers FeedForward
  elseif m.role == "attn" then flags.o_in = true
  elseif m.role == "mlp" or m.role == "expert" or m.role == "shared_expert" then flags.down_in = true end
end

function P.new_set()
  return { params = 0, trainable = 0, largest = 0, tensors = {}, saved = 0, masks = 0, flags = {}, matched = 0,
           weight_saved = 0, dora_out = 0, copies = 0 }
end

-- Methods whose first adapter op is a Linear (or matmul) on the module's input x with a
-- trainable weight, after PEFT casts x to the adapter's dtype: LoRA, DoRA, QLoRA
-- (peft/tuners/lora/layer.py Linear.forward `x = self._cast_input_dtype(x, lora_A.weight.dtype)`
-- since v0.15.0, `x = x.to(lora_A.weight.dtype)` from v0.5.0 to v0.14.0; lora/bnb.py Linear4bit
-- only outside autocast), AdaLoRA (adalora/layer.py SVDLinear.forward, `dropout(x) @ (lora_A *
-- lora_E).T`), LoHa (loha/layer.py Linear._get_delta_activations, F.linear(input, delta_weight)).
-- The op saves its input for the weight gradient. LoRA-FA freezes lora_A
-- (peft/optimizers/lorafa.py create_lorafa_optimizer: requires_grad_(False) on every lora_A),
-- so nothing saves its input.
local SAVES_INPUT = { lora = true, qlora = true, dora = true, adalora = true, loha = true }

-- adapters(desc, method, opts, acc): a PEFT method's adapters on the targeted Linears.
-- opts: r, match, dropout, cast (PEFT's forward casts x to the adapters' dtype, or autocast
-- casts it for lora_A: workloads/train.lua adapter_cast). acc.saved counts the adapters'
-- own outputs per token (whole model) that autograd keeps besides the base model's
-- (lora_A outputs), acc.copies the elements of the inputs each adapted module keeps as its
-- own tensor, acc.masks the 1-byte dropout masks. lora_A saves what it is given: x itself,
-- one tensor shared by every adapted module reading the same input (a flag: the Linear
-- input is kept), unless dropout (nn.Dropout returns a new tensor and saves only its mask)
-- or a dtype cast (Tensor.to returns a new tensor when the dtype differs; ToCopyBackward
-- saves no tensor) made a copy for that module alone.
function P.adapters(desc, method, opts, acc)
  for _, m in ipairs(modules(desc)) do
    if m.param == "weight" and #m.shape == 2 and m.role ~= "embed" and opts.match(m.module, m.role) then
      local o, i = m.shape[1], m.shape[2]
      local ff -- IA3: the module's input is scaled, not its output
      if opts.ff then ff = opts.ff(m.module) else ff = FEEDFORWARD[m.short] end
      for _, shape in ipairs(ADD[method](o, i, opts.r, ff)) do add_tensor(acc, shape, m.count, true, "adapter") end
      acc.matched = acc.matched + m.count
      if method == "lora-fa" then
        -- lora_A frozen: neither x nor a copy of it is kept
      elseif SAVES_INPUT[method] and (opts.dropout > 0 or opts.cast) then
        acc.copies = acc.copies + i * m.count
      else
        mark_saved(acc.flags, m)
      end
      -- LoHa builds the full delta weight (w1a w1b) * (w2a w2b), which F.linear keeps
      -- for the input gradient (peft/tuners/loha/layer.py)
      if method == "loha" then acc.weight_saved = acc.weight_saved + o * i * m.count end
      -- DoRA's output (mag_norm_scale - 1) * base_result + mag_norm_scale * lora_result * scaling:
      -- each product saves its out-sized operand for the magnitude's gradient, the base Linear's
      -- output and lora_B's output (peft/tuners/lora/dora.py DoraLinearLayer.forward)
      if method == "dora" then acc.dora_out = acc.dora_out + o * m.count end
      if method ~= "ia3" then acc.saved = acc.saved + opts.r * m.count * (method == "loha" and 2 or 1) end
      if opts.dropout > 0 then acc.masks = acc.masks + i * m.count end
    end
  end
  return acc
end

-- The tensors `pick(m)` accepts become trainable: copies added to the model (added) or
-- the tensors themselves; a trained Linear's input is saved.
local function train_matched(desc, pick, added, acc)
  for _, m in ipairs(modules(desc)) do
    if pick(m) then
      add_tensor(acc, m.shape, m.count, added, m.role)
      acc.matched = acc.matched + m.count
      if #m.shape == 2 and m.role ~= "embed" then mark_saved(acc.flags, m) end
    end
  end
  return acc
end

-- copies(desc, match, acc): trainable copies of the matched modules' tensors (LN tuning,
-- modules_to_save: PEFT deep-copies them, the original stays frozen).
function P.copies(desc, match, acc)
  return train_matched(desc, function(m) return match(m.module) end, true, acc)
end

-- select(desc, pattern, acc): inventory tensors whose full name matches a PCRE2 rule
-- stay trainable (method "freeze"); nothing is added to the model.
function P.select(desc, pattern, acc)
  return train_matched(desc, function(m) return host.match(pattern, m.name) end, false, acc)
end

-- everything(desc, acc): full fine-tuning, every tensor trainable.
function P.everything(desc, acc)
  for _, m in ipairs(modules(desc)) do add_tensor(acc, m.shape, m.count, false, m.role) end
  acc.flags = { attn_in = true, o_in = true, mlp_in = true, down_in = true, all = true }
  return acc
end

-- torchtitan's per-op selective activation checkpointing (ac mode "selective",
-- selective_ac_option "op"; torchtitan parallelize_llama.py _save_list and
-- _custom_policy at 9dec370, distributed/activation_checkpoint.py at b5bcd76): inside each
-- checkpointed block the outputs of aten.mm are saved (MUST_SAVE) except every second one,
-- counted from 1 in forward order with a fresh count per block ("Saves output of all
-- compute ops, except every second mm"); everything else but SDPA, reduce_scatter and the
-- fp8 amax is recomputed. nn.Linear reaches aten.mm only without a bias: at::linear runs a
-- biased Linear as one aten.addmm (aten/src/ATen/native/Linear.cpp linear,
-- _flatten_nd_linear), which is neither counted nor in the save list. The block's Linears
-- are the weights repeated once per layer (count = layers) whose shapes fit desc.block, in
-- the order the architecture declares them: nn.attention and nn.gated_mlp declare q, k, v
-- (or the fused qkv), o, then gate, up (or gate_up), down, the order the forward calls them
-- (HF LlamaMLP down_proj(act(gate_proj(x)) * up_proj(x)); torchtitan's w2(silu(w1(x)) * w3(x))).
-- Returns the saved mm output elements per token and layer, split into column-parallel
-- outputs (q, k, v, gate, up: sharded over tp) and row-parallel ones (o, down: a full
-- partial sum on every tp rank), and the names saved; or nil and why the rule does not apply.
function P.op_sac(desc)
  if desc.family ~= "decoder" then return nil, "is modelled for decoder-only transformers" end
  local b = desc.block or {}
  if (b.experts or 0) > 0 then
    return nil, "is modelled for dense blocks (a MoE block's experts run grouped GEMMs, not aten.mm)"
  end
  for _, g in ipairs(desc.kv or {}) do
    if g.kind == "mamba" then
      return nil, "is modelled for uniform attention layers, and this model mixes recurrent (Mamba / gated DeltaNet) layers in"
    end
  end
  local h, q, kv, f = desc.hidden, b.q_dim, b.kv_dim, b.ffn_dim
  local fits_in = { [h] = true, [q or -1] = true, [f or -1] = true }
  local fits_out = { [h] = true, [q or -1] = true, [kv or -1] = true, [f or -1] = true }
  if q and kv then fits_out[q + 2 * kv] = true end
  if f then fits_out[2 * f] = true end
  local ms, biased = modules(desc), {}
  for _, m in ipairs(ms) do
    if m.param == "bias" then biased[m.module] = true end
  end
  local r = { col = 0, row = 0, saved = {}, mms = 0, addmms = 0 }
  for _, m in ipairs(ms) do
    local s = m.shape
    if m.param == "weight" and s and #s == 2 and m.count == desc.layers and (m.role == "attn" or m.role == "mlp")
       and fits_out[s[1]] and fits_in[s[2]] then
      if biased[m.module] then
        r.addmms = r.addmms + 1
      else
        r.mms = r.mms + 1
        if r.mms % 2 == 1 then
          if QKV[m.short] or UP[m.short] then r.col = r.col + s[1] else r.row = r.row + s[1] end
          r.saved[#r.saved + 1] = m.short
        end
      end
    end
  end
  if r.mms + r.addmms < 4 then return nil, "found no attention and MLP projections in the block description" end
  return r
end

return P
