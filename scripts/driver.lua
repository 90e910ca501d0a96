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
  for _, kv in ipairs(sets) do
    local key, value = kv:match("^([^=]+)=(.*)$")
    if not key then error(("--set %s: expected KEY=VALUE"):format(kv), 0) end
    E.apply_set(raw, key, value)
  end
  if #gpus > 0 then raw.gpu = gpus end
  return S.prepare(raw)
end

return {
  expand = E.expand,
  prepare_at = prepare_at,
  list = E.list,
  catalog = E.catalog,
}
