-- driver.lua: the functions the C engine calls (see src/engine.c).
local E = require "engine"
local S = require "scenario"

local function copy(v, depth)
  if type(v) ~= "table" then return v end
  if depth > 64 then error("scenario: tables nested deeper than 64 levels", 0) end
  local out = {}
  for k, x in pairs(v) do out[k] = copy(x, depth + 1) end
  return out
end

-- prepare_at(list, i, sets, gpus): scenario i of an expanded file, with the
-- command line's --set overrides ("key=value" strings) and --gpu names applied to a
-- copy, normalized for the C core.
local function prepare_at(list, i, sets, gpus)
  local raw = list[i]
  if raw == nil then error(("scenario %d: the file has only %d scenarios"):format(i, #list), 0) end
  raw = copy(raw, 0)
  -- an override of a field a sweep varies would evaluate every point at one value while
  -- its name and axes still claim the axis value: refused, naming both
  local axes = E.axis_paths(list, i)
  for _, kv in ipairs(sets) do
    local key, value = kv:match("^([^=]+)=(.*)$")
    if not key then error(("--set %s: expected KEY=VALUE"):format(kv), 0) end
    for _, path in ipairs(axes) do
      if key == path or key:sub(1, #path + 1) == path .. "." or path:sub(1, #key + 1) == key .. "." then
        error(("--set %s: the sweep's axis '%s' sets this field (drop the --set, or the axis)"):format(key, path), 0)
      end
    end
    E.apply_set(raw, key, value)
  end
  if #gpus > 0 then
    for _, path in ipairs(axes) do
      if path == "gpu" then error("--gpu: the sweep's axis 'gpu' sets the GPU (drop --gpu, or the axis)", 0) end
    end
    raw.gpu = gpus
  end
  return S.prepare(raw)
end

-- name_at(list, i): the name a report gives scenario i (its name, else its model id), read
-- off the raw point so that a scenario that fails validation still has one in its error row
local function name_at(list, i)
  local ok, raw = pcall(function() return list[i] end)
  if not ok or type(raw) ~= "table" then return nil end
  if type(raw.name) == "string" then return raw.name end
  if type(raw.model) == "string" then return raw.model end
  return nil
end

return {
  expand = E.expand,
  prepare_at = prepare_at,
  name_at = name_at,
  list = E.list,
  catalog = E.catalog,
}
