-- estimate.lua: the Lua module from a stock Lua 5.4 interpreter. Estimates
-- Llama-3.1-8B-Instruct serving 8,192-token chats, prints the budget and the fit on a
-- few GPUs. Run: LUA_CPATH="$PREFIX/lib/lua/5.4/?.so" lua5.4 examples/estimate.lua
local vramfit = require "vramfit"

local engine <close> = vramfit.new()
local report = engine:estimate({
  name = "chat-8b",
  model = "meta-llama/Llama-3.1-8B-Instruct",
  dtype = "bf16",
  workload = { kind = "inference", context = 8192, concurrency = 4 },
}, { gpu = { "L40S", "RTX-4090-24GB" }, fit = true })

print(("vramfit %s"):format(vramfit.version()))
print(("model %s (%s)"):format(report.model.id, report.model.arch))
print(("params %d"):format(report.model.params))
print(("weight_bytes %d"):format(report.model.weight_bytes))
local dev = report.devices[1]
for _, c in ipairs(dev.categories) do
  print(("  %-18s %15d B  %s"):format(c.name, c.bytes, c.basis))
end
print(("total_bytes %d on %s"):format(dev.total_bytes, dev.gpu))
for _, f in ipairs(report.fit) do
  print(("fit %s %s used %.1f%% count %d"):format(f.gpu, f.fits and "yes" or "no", 100 * f.used_fraction, f.count))
end

-- a --set override, and an error raised with the engine's message
local long = engine:estimate("examples/demo.lua", { set = { ["workload.context"] = 16384 } })
print(("demo at 16384 tokens: total_bytes %d"):format(long.devices[1].total_bytes))
local ok, err = pcall(engine.estimate, engine, { model = "no/such-model" })
print(("bad model: %s"):format(ok and "accepted?" or err))
