-- test_quant.lua: the GGUF block table of scripts/quant/gguf.lua equals src/ggml_types.c
-- (both must follow ggml-common.h), every llama.cpp file type maps to a known ggml type,
-- and the bitsandbytes arithmetic of scripts/quant/_bnb.lua on small shapes.
-- Run from the repository root: lua5.4 tests/lua/test_quant.lua
package.path = "scripts/?.lua;" .. package.path
local passed, failed = 0, 0
local function ok(cond, msg)
  if cond then passed = passed + 1 else failed = failed + 1; io.stderr:write("FAIL: ", msg, "\n") end
end

local gguf = dofile("scripts/quant/gguf.lua")
local TYPES, FTYPES = gguf.data.types, gguf.data.ftypes

-- src/ggml_types.c rows: T(id, "NAME", block, type_size, dtype)
local f = assert(io.open("src/ggml_types.c"))
local c_types = {}
for id, name, blk, size in f:read("a"):gmatch('T%((%d+), "([%w_]+)", (%d+), (%d+),') do
  c_types[name] = { tonumber(blk), tonumber(size) }
end
f:close()
local INTEGER_ONLY = { I8 = true, I16 = true, I32 = true, I64 = true, F64 = true }
for name, t in pairs(c_types) do
  if not INTEGER_ONLY[name] then
    ok(TYPES[name] ~= nil, "gguf.lua lacks ggml type " .. name)
    if TYPES[name] then
      ok(TYPES[name][1] == t[1] and TYPES[name][2] == t[2],
        ("%s: gguf.lua %d/%d, ggml_types.c %d/%d"):format(name, TYPES[name][1], TYPES[name][2], t[1], t[2]))
    end
  end
end
for name in pairs(TYPES) do ok(c_types[name] ~= nil, "ggml_types.c lacks " .. name) end
for ft, t in pairs(FTYPES) do ok(TYPES[t] ~= nil, ("file type %s -> unknown ggml type %s"):format(ft, t)) end

-- bitsandbytes 4-bit: 100 elements -> 50 B packed, 2 blocks of 64 -> 8 B absmax, 64 B code
local bnb = dofile("scripts/quant/_bnb.lua")
ok(bnb.bytes(100, false) == 50 + 8 + 64, "bnb 4-bit 100 elements without double quant")
-- double quant: 50 + 2 (uint8 absmax) + 4 (one nested fp32 absmax) + 1024 + 4 + 64
ok(bnb.bytes(100, true) == 50 + 2 + 4 + 1024 + 4 + 64, "bnb 4-bit 100 elements with double quant")
-- 64 x 256 + 1 blocks: the nested absmax needs a second fp32
local n = 64 * 257
ok(bnb.bytes(n, true) == n // 2 + 257 + 8 + 1092, "bnb double quant rounds nested blocks up")

print(("test_quant: %d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
