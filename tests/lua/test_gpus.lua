-- test_gpus.lua: structural checks on scripts/gpus.lua (the GPU catalog).
-- Run from the repository root: lua5.4 tests/lua/test_gpus.lua
-- Alias resolution is PCRE2 and is checked by tests/lua/check_gpu_aliases.sh (and the C tests) against
-- tests/golden/gpu_aliases.txt; here we only check that every expected name in that file exists.

local failures, checks = 0, 0
local function ok(cond, msg)
  checks = checks + 1
  if not cond then
    failures = failures + 1
    io.stderr:write("FAIL: ", msg, "\n")
  end
end

local loaded, gpus = pcall(dofile, "scripts/gpus.lua")
if not loaded then
  io.stderr:write("FAIL: cannot load scripts/gpus.lua: ", tostring(gpus), "\n")
  os.exit(1)
end
ok(type(gpus) == "table", "gpus.lua must return a table")

-- key -> checker(value) returning true when the value is acceptable
local VENDORS = { nvidia = true, amd = true, intel = true }
local ARCHS = {
  pascal = true, turing = true, volta = true, ampere = true, ada = true, hopper = true,
  blackwell = true, cdna2 = true, cdna3 = true, cdna4 = true, gaudi3 = true,
}
local function str(v) return type(v) == "string" and v ~= "" end
local function bool(v) return type(v) == "boolean" end
local function posint(v) return math.type(v) == "integer" and v > 0 end
local OPTIONAL = { smi_memory = function(v) return math.type(v) == "integer" and v > 0 end }
local SCHEMA = {
  name = function(v) return str(v) and v:match("^[A-Za-z0-9.-]+$") ~= nil end,
  vendor = function(v) return VENDORS[v] == true end,
  arch = function(v) return ARCHS[v] == true end,
  memory = function(v) return math.type(v) == "integer" and v >= 7e9 and v <= 3.2e11 end,
  memory_basis = function(v) return v == "measured" or v == "nominal" end,
  memory_source = str,
  nominal = str,
  memory_type = str,
  bandwidth_gbs = posint,
  interconnect = str,
  link_gbs = posint,
  bf16 = bool, fp8 = bool, fp4 = bool,
  compute = str,
  aliases = function(v)
    if type(v) ~= "table" or #v == 0 then return false end
    local n = 0
    for k, a in pairs(v) do
      n = n + 1
      if math.type(k) ~= "integer" or not str(a) then return false end
    end
    return n == #v
  end,
}

-- the catalog must be a plain array
local count = 0
for k in pairs(gpus) do
  count = count + 1
  ok(math.type(k) == "integer", "catalog has a non-array key: " .. tostring(k))
end
ok(count == #gpus, "catalog must be a sequence without holes")
ok(#gpus >= 36, ("need at least 36 GPUs, have %d"):format(#gpus))

local names, lowered = {}, {}
for i, g in ipairs(gpus) do
  local label = ("entry %d (%s)"):format(i, type(g) == "table" and tostring(g.name) or "?")
  if type(g) ~= "table" then
    ok(false, label .. ": not a table")
  else
    for k, v in pairs(g) do
      ok(SCHEMA[k] ~= nil or OPTIONAL[k] ~= nil, label .. ": unknown key '" .. tostring(k) .. "'")
    end
    -- smi_memory (optional): nvidia-smi's memory.total, which SGLang sizes its defaults by
    -- (scripts/gpus.lua): an NVIDIA card's, at or above the CUDA total and within 5 % of it
    if g.smi_memory ~= nil then
      ok(OPTIONAL.smi_memory(g.smi_memory) and g.vendor == "nvidia" and math.type(g.memory) == "integer"
        and g.smi_memory >= g.memory and g.smi_memory <= g.memory * 1.05,
        label .. ": bad smi_memory " .. tostring(g.smi_memory))
    end
    for k, check in pairs(SCHEMA) do
      ok(g[k] ~= nil, label .. ": missing key '" .. k .. "'")
      if g[k] ~= nil then ok(check(g[k]), label .. ": bad value for '" .. k .. "': " .. tostring(g[k])) end
    end
    if str(g.name) then
      ok(not names[g.name], label .. ": duplicate name")
      ok(not lowered[g.name:lower()], label .. ": name differs from another only by case")
      names[g.name], lowered[g.name:lower()] = true, true
    end
    -- sanity: feature flags follow the generation
    if g.fp4 then ok(g.fp8 and g.bf16, label .. ": fp4 without fp8/bf16") end
    if g.fp8 then ok(g.bf16, label .. ": fp8 without bf16") end
    if g.vendor == "nvidia" then
      ok(type(g.compute) == "string" and g.compute:match("^%d+%.%d$") ~= nil,
        label .. ": NVIDIA compute must be a CUDA capability like '9.0'")
    elseif g.vendor == "amd" then
      ok(type(g.compute) == "string" and g.compute:match("^gfx%x+$") ~= nil, label .. ": AMD compute must be a gfx id")
    end
    -- sorted by memory ascending; ties ordered by name so the order is deterministic
    local prev = gpus[i - 1]
    if i > 1 and type(prev) == "table" and math.type(prev.memory) == "integer" and math.type(g.memory) == "integer" then
      ok(prev.memory < g.memory or (prev.memory == g.memory and tostring(prev.name) < tostring(g.name)),
        label .. ": not sorted by memory ascending (then name) after " .. tostring(prev.name))
    end
  end
end

-- coverage: an 8 GB-class GPU and a 288 GB-class GPU
local has8, has288 = false, false
for _, g in ipairs(gpus) do
  if math.type(g.memory) == "integer" then
    if g.memory < 9e9 then has8 = true end
    if g.memory >= 2.8e11 then has288 = true end
  end
end
ok(has8, "no 8 GB-class GPU (memory < 9e9)")
ok(has288, "no 288 GB-class GPU (memory >= 2.8e11)")

-- GPUs the brief requires (by canonical name)
for _, n in ipairs({
  "GTX-1080-8GB", "T4-16GB", "TITAN-RTX-24GB", "RTX-3090-24GB", "RTX-3090Ti-24GB", "RTX-4090-24GB",
  "RTX-5090-32GB", "RTX-A6000-48GB", "A10-24GB", "A10G-24GB", "L4-24GB", "L40S-48GB", "RTX-6000-Ada-48GB",
  "RTX-PRO-6000-Blackwell-96GB", "V100-PCIe-16GB", "V100-SXM2-16GB", "V100-SXM2-32GB", "A100-PCIe-40GB",
  "A100-SXM4-40GB", "A100-PCIe-80GB", "A100-SXM4-80GB", "A800-SXM4-80GB", "H100-PCIe-80GB", "H100-SXM-80GB",
  "H100-NVL-94GB", "H800-SXM-80GB", "H20-SXM-96GB", "H200-SXM-141GB", "GH200-96GB", "GH200-144GB",
  "B200-SXM-180GB", "B300-SXM-288GB", "MI250X-GCD-64GB", "MI300X-OAM-192GB", "MI325X-OAM-256GB",
  "MI355X-OAM-288GB", "Gaudi3-OAM-128GB", "RTX-4060Ti-16GB", "RTX-4080-16GB", "RTX-3080-10GB",
}) do
  ok(names[n], "required GPU missing: " .. n)
end

-- anchors we have printouts for (bytes as torch reports them)
local by = {}
for _, g in ipairs(gpus) do by[g.name] = g end
local function anchor(n, bytes, basis)
  local g = by[n]
  ok(g and g.memory == bytes, ("%s memory should be %d"):format(n, bytes))
  ok(g and g.memory_basis == basis, ("%s basis should be %s"):format(n, basis))
end
anchor("H100-SXM-80GB", 81090 * 1048576, "measured")   -- 79.19 GiB, calibration llmd-v019-*
anchor("RTX-4090-24GB", 25393692672, "measured")
anchor("L4-24GB", 22559 * 1048576, "measured")       -- 22.03 GiB, torch OOM messages (hold-out round 3)
anchor("MI300X-OAM-192GB", 196592 * 1048576, "measured") -- 191.98 GiB
anchor("MI355X-OAM-288GB", 309220868096, "measured")     -- 287.98 GiB, rocm-smi and vLLM (hold-out round 4)
anchor("A100-PCIe-40GB", 40326 * 1048576, "measured")   -- 39.38 GiB, calibration vllm-16570
anchor("RTX-3090-24GB", 24146 * 1048576, "measured")    -- 23.58 GiB, calibration vllm-10517
anchor("A100-SXM4-80GB", 85100068864, "measured")     -- deviceQuery 81158 MBytes (driver 12.5)
anchor("A100-PCIe-80GB", 81049 * 1048576, "measured")  -- mixbench 81049 MB (ekondis/mixbench#47)
anchor("V100-SXM2-32GB", 34089926656, "measured")     -- deviceQuery 32511 MBytes (driver 13.0)
anchor("GH200-96GB", 97280 * 1048576, "measured")      -- OpenCL and deviceQuery: 97280 MB (95.00 GiB)
anchor("A10-24GB", 23609475072, "measured")           -- cudaGetDeviceProperties 21.99 GiB (driver 12.2)
anchor("RTX-4060Ti-16GB", 16857038848, "measured")    -- deviceQuery 16076 MBytes (driver 12.4)
anchor("RTX-4080-16GB", 16049 * 1048576, "measured")   -- torch total_memory=16049MB

-- golden alias table: every line is "<device name>\t<catalog name>" and names a catalog entry
local f = io.open("tests/golden/gpu_aliases.txt", "r")
ok(f ~= nil, "tests/golden/gpu_aliases.txt missing")
if f then
  local n = 0
  for line in f:lines() do
    if line ~= "" and not line:match("^#") then
      n = n + 1
      local dev, want = line:match("^([^\t]+)\t([^\t]+)$")
      ok(dev ~= nil, "gpu_aliases.txt: malformed line: " .. line)
      if want then ok(names[want], "gpu_aliases.txt: unknown catalog name '" .. want .. "' for '" .. dev .. "'") end
    end
  end
  f:close()
  ok(n >= 25, ("gpu_aliases.txt needs at least 25 cases, has %d"):format(n))
end

print(("test_gpus (%d GPUs): %d passed, %d failed"):format(#gpus, checks - failures, failures))
if failures > 0 then os.exit(1) end
