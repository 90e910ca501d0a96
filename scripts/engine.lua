-- engine.lua: the Lua side of the engine. Expands scenario files (lists, sweeps),
-- applies --set overrides, validates every scenario field strictly, resolves the
-- model (preset, inline config or config.json) through its architecture script, and
-- hands the C core one normalized table. Numbers are checked here: the C core gets
-- integers in range or nothing.
local P = require "prelude"
local E = {}

-- Field limits the workload and scenario scripts share (E.MAX_*); src/lua_read.c's
-- LREAD_MAX_GPUS repeats MAX_GPUS.
E.MAX_TOKENS = 1 << 30     -- a context beyond a billion tokens is a typo, not a plan
E.MAX_SEQS = 1 << 24
E.MAX_GPUS = 1 << 20

local function fail(field, fmt, ...)
  error(field .. ": " .. fmt:format(...), 0)
end

-- note(n, fmt, ...): records an assumption (a default filled in) in the normalized
-- scenario's notes, which the report prints.
function E.note(n, fmt, ...) n.notes[#n.notes + 1] = fmt:format(...) end

-- version_code("0.10.1.1", "a vLLM", "0.19.0") -> 10001: a 0.x release as minor * 1000 + patch
-- (patch capped at 999), major 1 and later as 999999 (newest); anything else fails on
-- runtime.version naming the runtime and an example.
function E.version_code(v, runtime, example)
  local major, minor, patch = v:match("^v?(%d+)%.(%d+)%.?(%d*)")
  if not major then fail("runtime.version", "expected %s version such as \"%s\", got \"%s\"", runtime, example, v) end
  major, minor, patch = tonumber(major), tonumber(minor), tonumber(patch) or 0
  if major >= 1 then return 999999 end
  return minor * 1000 + math.min(patch, 999)
end

-- major_minor_code("1.13.1", "runtime.torch", "2.4.0") -> 1013: major x 1000 + minor (minor
-- capped at 999), nil when v is nil; anything else fails on `field`, naming `example` (a
-- release of that package) and, when given, the package (`what`, "a transformers").
function E.major_minor_code(v, field, example, what)
  if v == nil then return nil end
  local major, minor = tostring(v):match("^v?(%d+)%.(%d+)")
  if not major then
    fail(field, "expected %s version such as \"%s\", got \"%s\"", what or "a", example, tostring(v))
  end
  return tonumber(major) * 1000 + math.min(tonumber(minor), 999)
end

local function show(v)
  if type(v) == "string" then return ("'%s'"):format(v) end
  if v ~= v then return "nan" end
  if type(v) == "table" or type(v) == "function" or type(v) == "userdata" or type(v) == "thread" then
    return "a " .. type(v)   -- never tostring(): a table's __tostring is the script's code
  end
  return tostring(v)
end

local function int_field(v, field, lo, hi)
  if type(v) ~= "number" then fail(field, "expected an integer, got %s", type(v) == "nil" and "nothing" or show(v)) end
  local i = math.tointeger(v)
  if not i then fail(field, "expected an integer, got %s", show(v)) end
  if i < lo or i > hi then fail(field, "%s is out of range (%d to %d)", show(v), lo, hi) end
  return i
end

local function num_field(v, field, lo, hi)
  if type(v) ~= "number" or v ~= v or v < lo or v > hi then
    fail(field, "expected a number from %s to %s, got %s", tostring(lo), tostring(hi), show(v))
  end
  return v
end

local function bool_field(v, field)
  if type(v) ~= "boolean" then fail(field, "expected true or false, got %s", show(v)) end
  return v
end

local function enum_field(v, field, allowed)
  for _, a in ipairs(allowed) do
    if v == a then return v end
  end
  fail(field, "expected one of %s, got %s", table.concat(allowed, ", "), show(v))
end

local function strict(field, t, allowed)
  if type(t) ~= "table" then fail(field, "expected a table, got %s", show(t)) end
  local set = {}
  for _, k in ipairs(allowed) do set[k] = true end
  for k in pairs(t) do
    if not set[k] then
      local names = {}
      for _, a in ipairs(allowed) do names[#names + 1] = a end
      table.sort(names)
      fail(field, "unknown key '%s' (allowed: %s)", tostring(k), table.concat(names, ", "))
    end
  end
  return t
end
E.strict_field = strict

-- ---------------------------------------------------------------- registries

local registry = {}

local function load_kind(kind, dir)
  if registry[kind] then return registry[kind] end
  local byname = {}
  for _, name in ipairs(host.list(dir)) do
    if name ~= "presets" then
      local mod = dir == "architectures" and "architectures." .. name or dir:gsub("^scripts/", ""):gsub("/", ".") .. "." .. name
      local def = require(mod)
      if type(def) == "table" then
        byname[def.name or name] = def
        for _, alias in ipairs(def.model_types or def.aliases or {}) do
          byname[alias] = byname[alias] or def
        end
      end
    end
  end
  registry[kind] = byname
  return byname
end

local function architectures() return load_kind("arch", "architectures") end

-- One architecture by its script's name, without compiling the other scripts while the
-- registry is not built (a preset names its script: a cold start loads one file, not all
-- of them); nil when no script has that name and declares it. The registry gives a
-- script's own name precedence over every model_types alias (load_kind), so the answer is
-- the one the registry would give.
local function architecture_named(name)
  if registry.arch then return registry.arch[name] end
  if type(name) ~= "string" or name == "presets" or not name:match("^[%w_]+$") then return nil end
  for _, n in ipairs(host.list("architectures")) do
    if n == name then
      local def = require("architectures." .. name)
      if type(def) == "table" and (def.name or name) == name then return def end
      return nil
    end
  end
  return nil
end
local function optimizers() return load_kind("optimizer", "scripts/optimizers") end
local function runtimes() return load_kind("runtime", "scripts/runtimes") end

local function names_of(map)
  local seen, out = {}, {}
  for _, def in pairs(map) do
    if not seen[def] then seen[def] = true; out[#out + 1] = def.name end
  end
  table.sort(out)
  return out
end

function E.list(kind)
  local out = {}
  if kind == "models" then
    local presets = require "architectures.presets"
    for id, p in pairs(presets.models) do out[#out + 1] = { name = id, summary = p.arch } end
    for id, base in pairs(presets.aliases) do out[#out + 1] = { name = id, summary = "= " .. base } end
  elseif kind == "gpus" then
    for _, g in ipairs(require "gpus") do
      out[#out + 1] = { name = g.name, summary = ("%s %s, %s"):format(g.nominal, g.memory_type, g.arch) }
    end
    return out
  elseif kind == "quants" then
    out = require("quant").list()   -- scripts/quant/*.lua, with their aliases
  elseif kind == "knobs" then
    -- every runtime's knobs as "<runtime>.<knob>": the value it takes, then its line
    local seen = {}
    for _, def in pairs(runtimes()) do
      if not seen[def] then
        seen[def] = true
        for k, t in pairs(def.knobs) do
          local ty = type(t) == "table" and table.concat(t, " | ") or t
          local doc = def.knob_docs[k]
          out[#out + 1] = { name = def.name .. "." .. k, summary = doc and (ty .. ": " .. doc) or ty }
        end
      end
    end
  else
    local map = ({ architectures = architectures, optimizers = optimizers, runtimes = runtimes })[kind]
    if not map then
      error(("list: unknown kind '%s' (expected models, gpus, quants, optimizers, runtimes, knobs or architectures)"):format(kind), 0)
    end
    local seen = {}
    for _, def in pairs(map()) do
      if not seen[def] then
        seen[def] = true
        out[#out + 1] = { name = def.name, summary = def.summary or "" }
      end
    end
  end
  table.sort(out, function(a, b) return a.name < b.name end)
  return out
end

function E.catalog() return require "gpus" end
E.int_field, E.num_field, E.bool_field, E.enum_field, E.fail = int_field, num_field, bool_field, enum_field, fail
E.architectures, E.optimizers, E.runtimes = architectures, optimizers, runtimes
E.architecture_named = architecture_named

-- ---------------------------------------------------------------- many scenarios

local function deep_copy(v, depth)
  depth = depth or 0
  if depth > 64 then error("scenario: tables nested deeper than 64 levels", 0) end
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = deep_copy(x, depth + 1) end
  return out
end

local function split_path(path)
  if type(path) ~= "string" or not path:match("^[%w_]+[%w_.]*$") or path:find("%.%.") or path:find("%.$") then
    error(("--set/axes: invalid field path %s (expected dotted names, e.g. workload.context)"):format(show(path)), 0)
  end
  local parts = {}
  for part in path:gmatch("[^.]+") do parts[#parts + 1] = part end
  return parts
end

-- runtime = "vllm" and quant = "gptq" are short for { name = ... }: a path into them
-- (--set runtime.max_model_len=8192 on runtime = "vllm") takes the table form
local NAMED = { runtime = true, quant = true }

local function set_path(t, path, value)
  local parts = split_path(path)
  for i = 1, #parts - 1 do
    local k = parts[i]
    if t[k] == nil then t[k] = {} end
    if i == 1 and NAMED[k] and type(t[k]) == "string" then t[k] = { name = t[k] } end
    if type(t[k]) ~= "table" then
      error(("%s: cannot set a field inside %s, which is a %s"):format(path, parts[i], type(t[k])), 0)
    end
    t = t[k]
  end
  t[parts[#parts]] = value
end

-- P.range's values; its error names the axis, not a line of this script ("0..64:0").
local function checked_range(path, a, b, step)
  local ok, out = pcall(P.range, a, b, step)
  if not ok then error(("sweep: axis '%s': %s"):format(path, tostring(out):gsub("^.-:%d+: ", "")), 0) end
  return out
end

-- An axis given as a range: the string "1024..131072" (doubling), "0..64:8" (a step),
-- or { range = { a, b, "double" | step } } (JSON sweeps have no range() function).
local function axis_values(path, v)
  if type(v) == "string" then
    local a, b, step = v:match("^(%d+)%.%.(%d+):?(%d*)$")
    if not a then
      error(("sweep: axis '%s': %s is not a list or a range such as \"1024..131072\" or \"0..64:8\""):format(path, show(v)), 0)
    end
    a, b = math.tointeger(tonumber(a)), math.tointeger(tonumber(b))
    return checked_range(path, a, b, step ~= "" and math.tointeger(tonumber(step)) or "double")
  end
  if type(v) == "table" and v.range ~= nil then
    local r = v.range
    if type(r) ~= "table" or type(r[1]) ~= "number" or type(r[2]) ~= "number" then
      error(("sweep: axis '%s': range must be { first, last [, \"double\" | step] }"):format(path), 0)
    end
    return checked_range(path, r[1], r[2], r[3])
  end
  return v
end

-- A sweep's axes, validated, in expansion order: the paths named in sw.order first (the
-- outermost first), the rest sorted by path; the last axis varies fastest.
local function sweep_axes(sw)
  local axes, rank = {}, {}
  if sw.order ~= nil then
    if type(sw.order) ~= "table" then error("sweep: 'order' must be a list of axis paths", 0) end
    for i, p in ipairs(sw.order) do
      if type(p) ~= "string" or sw.axes[p] == nil then
        error(("sweep: order[%d] %s is not an axis"):format(i, show(p)), 0)
      end
      rank[p] = i
    end
  end
  for path, values in pairs(sw.axes) do
    values = axis_values(tostring(path), values)
    if type(values) ~= "table" or #values == 0 then
      error(("sweep: axis '%s' must be a non-empty list"):format(tostring(path)), 0)
    end
    split_path(path)
    local labels = {}
    for i, v in ipairs(values) do labels[i] = ("%s=%s"):format(path, tostring(v)) end
    axes[#axes + 1] = { path = path, values = values, labels = labels, n = #values }
  end
  table.sort(axes, function(a, b)
    local ra, rb = rank[a.path] or math.maxinteger, rank[b.path] or math.maxinteger
    if ra ~= rb then return ra < rb end
    return a.path < b.path
  end)
  return axes
end

-- A sweep segment: its points are made on demand (point k, 0-based), so a sweep of
-- millions of points never exists as a table of millions of scenarios.
local function sweep_segment(sw)
  local axes = sweep_axes(sw)
  local total = 1
  for _, ax in ipairs(axes) do
    total = total * ax.n
    if total > 10000000 then error("sweep: more than 10,000,000 points", 0) end
  end
  return { n = total, base = sw.base, axes = axes }
end

local function sweep_point(seg, k)
  local s = deep_copy(seg.base)
  local idx, axes = {}, seg.axes
  for i = #axes, 1, -1 do
    idx[i] = k % axes[i].n + 1
    k = k // axes[i].n
  end
  local label = {}
  for i, ax in ipairs(axes) do
    set_path(s, ax.path, ax.values[idx[i]])
    label[i] = ax.labels[idx[i]]
  end
  s.name = ("%s[%s]"):format(s.name or "sweep", table.concat(label, ","))
  return s
end

-- The expanded list: a table whose integer keys are computed on access. Raw fields
-- __n (the count) and __plan (segments with their first index) let the C side read
-- both without running Lua (src/engine.c, src/sweep.c).
local List = {}
List.__len = function(t) return rawget(t, "__n") end
local function seg_at(t, i)
  local plan = rawget(t, "__plan")
  local lo, hi = 1, #plan
  while lo < hi do   -- the last segment whose first index is <= i
    local mid = (lo + hi + 1) // 2
    if plan[mid].first <= i then lo = mid else hi = mid - 1 end
  end
  return plan[lo]
end
List.__index = function(t, i)
  if math.type(i) ~= "integer" or i < 1 or i > rawget(t, "__n") then return nil end
  local seg = seg_at(t, i)
  if seg.axes then return sweep_point(seg, i - seg.first) end
  return seg.scenario
end

-- The axis paths of the sweep that point i of an expanded list belongs to ({} outside sweeps).
function E.axis_paths(t, i)
  local out = {}
  if rawget(t, "__plan") == nil or math.type(i) ~= "integer" or i < 1 or i > rawget(t, "__n") then return out end
  for k, ax in ipairs(seg_at(t, i).axes or {}) do out[k] = ax.path end
  return out
end

-- A file returns one scenario, a list of scenarios, or a sweep.
function E.expand(value)
  if type(value) ~= "table" then
    error(("scenario: the file must return a table, got %s"):format(type(value)), 0)
  end
  if next(value) == nil then
    error("scenario: no scenario (the file returns an empty list or table)", 0)
  end
  local plan, n = {}, 0
  local function one(v, where)
    if type(v) ~= "table" then error(("%s: expected a scenario table, got %s"):format(where, type(v)), 0) end
    local seg
    if v.sweep ~= nil then
      -- a key beside sweep (JSON's {"sweep": ..., "gpu": ...}, or s.gpu = ... set on what
      -- sweep{} returned) would be dropped without a word: it belongs in the base
      for k in pairs(v) do
        if k ~= "sweep" then
          error(("%s: unknown key '%s' beside 'sweep' (a sweep's scenario fields go in its base)")
            :format(where, tostring(k)), 0)
        end
      end
      P.strict("sweep", v.sweep, { "base", "axes", "order" }, -1) -- level 0: no line of this script
      if type(v.sweep.base) ~= "table" then error("sweep: 'base' must be a scenario table", 0) end
      if type(v.sweep.axes) ~= "table" then error("sweep: 'axes' must be a table of lists", 0) end
      seg = sweep_segment(v.sweep)
    else
      seg = { n = 1, scenario = v }
    end
    seg.first = n + 1
    n = n + seg.n
    if n > 10000000 then error("scenario: more than 10,000,000 scenarios", 0) end
    plan[#plan + 1] = seg
  end
  if value[1] ~= nil then
    for i, v in ipairs(value) do one(v, ("scenario %d"):format(i)) end
  else
    one(value, "scenario")
  end
  return setmetatable({ __n = n, __plan = plan }, List)
end

-- --set KEY=VALUE: the value is an integer, a number, true/false, or a string.
function E.apply_set(s, path, text)
  local v = text
  if text == "true" then v = true
  elseif text == "false" then v = false
  elseif text:match("^%-?%d+$") then v = math.tointeger(tonumber(text)) or tonumber(text)
  elseif text:match("^%-?[%d.]+[eE]?[-+]?%d*$") and tonumber(text) then v = tonumber(text)
  end
  set_path(s, path, v)
end

return E
