-- prelude.lua: the functions every scenario and script sees.
-- Provides strict table checking (`strict`), the `arch` constructor for architecture
-- scripts, `sweep` for scenario files, and `check` helpers. Pure Lua: it runs in the
-- engine's sandbox and under a stock lua5.4 for the Lua-side tests.

local prelude = {}

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  return keys
end

-- strict(what, tbl, allowed): error if tbl has a key not in allowed (a set or a list).
-- `what` names the table in the message, e.g. "architecture 'llama'".
function prelude.strict(what, tbl, allowed, level)
  if type(tbl) ~= "table" then
    error(("%s: expected a table, got %s"):format(what, type(tbl)), (level or 1) + 1)
  end
  local set = allowed
  if allowed[1] ~= nil then
    set = {}
    for _, k in ipairs(allowed) do set[k] = true end
  end
  for k in pairs(tbl) do
    if not set[k] then
      error(("%s: unknown key '%s' (allowed: %s)"):format(what, tostring(k),
        table.concat(sorted_keys(set), ", ")), (level or 1) + 1)
    end
  end
  return tbl
end

local ARCH_KEYS = { "name", "summary", "model_types", "build" }

-- arch{...}: the table an architecture script returns.
function prelude.arch(t)
  prelude.strict("architecture", t, ARCH_KEYS, 2)
  if type(t.name) ~= "string" or t.name == "" then
    error("architecture: 'name' must be a non-empty string", 2)
  end
  if type(t.build) ~= "function" then
    error(("architecture '%s': 'build' must be a function"):format(t.name), 2)
  end
  t.model_types = t.model_types or { t.name }
  t.__kind = "arch"
  return t
end

local OPTIMIZER_KEYS = { "name", "summary", "aliases", "states", "state_extra_bits", "step_temps",
                         "state_dtype", "state_bits", "block", "min_blockwise", "block_divides", "paged", "factored",
                         "temp_scope", "takes", "others" }

-- optimizer{...}: an optimizer script. `states` counts tensors shaped like each
-- trainable parameter kept between steps, in the state dtype (the master dtype when
-- there is a master copy, else the parameter's); `state_extra_bits` adds bits per
-- parameter (block-wise scales); `step_temps` counts state-sized temporaries of step().
-- Optional (workloads/train.lua computes exact bytes per trainable tensor from them):
-- `state_dtype` ("fp32": states kept in fp32 whatever the parameter dtype), `state_bits`
-- (8 or 4: quantized states, 4-bit codes packed two a byte) with one fp32 absmax per `block`
-- elements for tensors of at least `min_blockwise` elements (smaller ones keep unquantized
-- states in the state dtype), `block_divides` (only tensors whose size is a multiple of
-- `block` are quantized: torchao's low-bit optimizers), `paged` (states of tensors of
-- >= 1e5 elements in CUDA managed memory, outside PyTorch's allocator), `factored`
-- (Adafactor: a row and a column vector per matrix instead of a full second moment),
-- `temp_scope` ("group": temporaries span all parameters, the foreach step; "param":
-- one parameter at a time, so the largest tensor sets them), `takes` (a function(shape, role)
-- -> bool: the parameters this optimizer steps; the others go to a companion optimizer
-- whose `others = { states = n }` states they keep instead: Muon's AdamW for embeddings,
-- the head and vectors).
function prelude.optimizer(t)
  prelude.strict("optimizer", t, OPTIMIZER_KEYS, 2)
  if type(t.name) ~= "string" then error("optimizer: 'name' must be a string", 2) end
  for _, k in ipairs({ "states", "state_extra_bits", "step_temps" }) do
    local v = t[k] or 0
    if type(v) ~= "number" or v < 0 then
      error(("optimizer '%s': '%s' must be a non-negative number"):format(t.name, k), 2)
    end
    t[k] = v
  end
  if t.takes ~= nil and type(t.takes) ~= "function" then
    error(("optimizer '%s': 'takes' must be a function(shape, role)"):format(t.name), 2)
  end
  if (t.takes == nil) ~= (t.others == nil) or (t.others ~= nil and (type(t.others) ~= "table"
      or type(t.others.states) ~= "number" or t.others.states < 0)) then
    error(("optimizer '%s': 'takes' and 'others = { states = n }' go together"):format(t.name), 2)
  end
  t.aliases = t.aliases or {}
  return t
end

local RUNTIME_KEYS = { "name", "summary", "aliases", "kinds", "knobs", "knob_docs", "modelled", "normalize", "quant",
                       "quant_keep", "own_attention", "dtypes", "parallel_check" }

-- runtime{...}: a runtime script: which workload kinds it runs, the knobs it accepts
-- (the runtime's own option names) and whether the engine models it yet.
-- A knob is a list of allowed strings, or one of "int", "number", "bool", "string", "bytes",
-- "table" (a nested table the runtime's normalize validates; it does not become an extra).
-- knob_docs gives each knob one line for 'vramfit list knobs': the runtime's own flag and
-- what the estimate does with it.
-- Knob values reach the C core as extras "runtime.<knob>". normalize(n, knobs), if
-- given, runs after the workload is validated: it may fill defaults (recording each
-- as an assumption in n.notes) and set more extras. quant(n, knobs), if given, runs when the
-- scenario names no quant and the checkpoint has no quantization_config: it may return the
-- format a knob asks the runtime to quantize to at load (vLLM's --quantization fp8).
-- quant_keep(n, spec), if given, runs before a quantization is applied: it may return a list of
-- PCRE2 patterns of tensor names the runtime's model class builds without the quantization
-- config whatever the format (vLLM's Gemma 4 towers under FP8), kept in the model dtype.
-- parallel_check(n, knobs), if given, runs once the parallel layout is read (n.tp, n.pp, n.dp):
-- it validates knobs that depend on it (DeepSpeed's gpus_per_node must divide the GPUs).
-- own_attention, if given, says in a few words how the runtime picks its attention kernels
-- itself: workload.attention (PyTorch's sdpa / flash / eager) is then not assumed, and a
-- given one is said to change nothing.
-- dtypes, if given, is { default = "bf16", why = "...", refused = { fp16 = "why" } }: the dtype
-- the runtime loads in when the scenario gives none (the checkpoint's torch_dtype not used),
-- and the dtypes it refuses (an error naming the field).
function prelude.runtime(t)
  prelude.strict("runtime", t, RUNTIME_KEYS, 2)
  if type(t.name) ~= "string" then error("runtime: 'name' must be a string", 2) end
  if t.own_attention ~= nil and type(t.own_attention) ~= "string" then
    error(("runtime '%s': own_attention must be a string"):format(t.name), 2)
  end
  t.knobs = t.knobs or {}
  t.knob_docs = t.knob_docs or {}
  for k, doc in pairs(t.knob_docs) do
    if t.knobs[k] == nil or type(doc) ~= "string" then
      error(("runtime '%s': knob_docs.%s must be a string describing a declared knob"):format(t.name, tostring(k)), 2)
    end
  end
  t.kinds = t.kinds or { "inference" }
  t.aliases = t.aliases or {}
  return t
end

local SWEEP_KEYS = { "base", "axes", "order" }

-- sweep{ base = {...}, axes = { ["workload.context"] = {...}, ... } }
function prelude.sweep(t)
  prelude.strict("sweep", t, SWEEP_KEYS, 2)
  if type(t.base) ~= "table" then error("sweep: 'base' must be a scenario table", 2) end
  if type(t.axes) ~= "table" then error("sweep: 'axes' must be a table of lists", 2) end
  return { sweep = t }
end

-- range(a, b, "double") or range(a, b, step): inclusive lists for sweep axes.
local RANGE_MAX = 1000000 -- values in one range; a sweep axis longer than this is a typo

function prelude.range(a, b, step)
  if type(a) ~= "number" or type(b) ~= "number" then error("range: first and last must be numbers", 2) end
  local out = {}
  if step == nil or step == "double" then
    if a <= 0 then error("range: a doubling range must start above 0", 2) end
    local v = a
    while v <= b do out[#out + 1] = v; v = v * 2 end
  else
    if type(step) ~= "number" or step <= 0 then error("range: step must be a positive number or \"double\"", 2) end
    if (b - a) / step >= RANGE_MAX then error(("range: more than %d values"):format(RANGE_MAX), 2) end
    for v = a, b, step do out[#out + 1] = v end
  end
  return out
end

return prelude
