-- test_module.lua: the Lua module (require "vramfit") from a stock lua5.4, run by
-- tests/run_all.sh with LUA_CPATH pointing at $(B)/vramfit.so. Checks the engine
-- userdata (__close, __gc, closed engines), estimate from a table, text, a file and
-- with options, list/inspect/count/result, and errors carrying the engine's message.
-- Ends with "module: N passed, M failed".
local vramfit = require "vramfit"
local passed, failed = 0, 0

local function check(name, cond, detail)
  if cond then
    passed = passed + 1
  else
    failed = failed + 1
    print(("FAIL %s%s"):format(name, detail and (": " .. tostring(detail)) or ""))
  end
end

local function raises(fn, pattern)
  local ok, err = pcall(fn)
  return not ok and type(err) == "string" and err:find(pattern, 1, true) ~= nil, err
end

local chat = {
  name = "chat-8b",
  model = "meta-llama/Llama-3.1-8B-Instruct",
  dtype = "bf16",
  workload = { kind = "inference", context = 8192, concurrency = 4 },
}

-- a table scenario: Llama-3.1-8B's published 8,030,261,248 params, bf16 weights 2 B each
local e = vramfit.new()
local r = e:estimate(chat, { gpu = "L40S" })
check("params", r.model.params == 8030261248, r.model.params)
check("weight_bytes", r.model.weight_bytes == 16060522496, r.model.weight_bytes)
check("integers stay integers", math.type(r.model.params) == "integer")
check("gpu option", r.devices[1].gpu == "L40S-48GB", r.devices[1].gpu)
-- KV cache: 8192 tokens x 4 sequences x 131,072 B/token (32 x 8 x 128 x 2 x 2 B)
local kv
for _, c in ipairs(r.devices[1].categories) do if c.name == "kv_cache" then kv = c.bytes end end
check("kv_cache", kv == 4294967296, kv)

-- the structured result walks vf_result and agrees with the report
local s = e:result()
check("result.params", s.params == r.model.params)
check("result.total_bytes", s.total_bytes == r.devices[1].total_bytes, s.total_bytes)
check("result.categories", #s.categories == #r.devices[1].categories)

-- scenario text and --set overrides (a map and a list of strings), fit rows
local text = [[return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "inference", context = 4096 } }]]
local a = e:estimate(text, { set = { ["workload.context"] = 8192, ["workload.concurrency"] = 4 } })
local b = e:estimate(text, { set = { "workload.context=8192", "workload.concurrency=4" } })
check("set map == set list", a.devices[1].total_bytes == b.devices[1].total_bytes)
local f = e:estimate(chat, { gpu = { "L40S", "RTX-4090-24GB" }, fit = true })
check("fit rows", #f.fit == 2 and f.fit[1].fits == true and f.fit[2].fits == false)
local t = e:estimate(chat, { format = "table" })
check("format table is text", type(t) == "string" and t:find("8,030,261,248", 1, true) ~= nil)
local j = e:estimate(chat, { format = "json" })
check("format json is text", type(j) == "string" and j:find('"params": 8030261248', 1, true) ~= nil)

-- a file, its scenario count, list and inspect
check("file", e:estimate("examples/demo.lua").model.params > 0)
check("count", e:count("examples/demo.lua") >= 1)
local gpus = e:list("gpus")
check("list gpus", #gpus > 5 and type(gpus[1].name) == "string")
check("inspect error", raises(function() e:inspect("/nonexistent/model.gguf") end, "/nonexistent/model.gguf"))

-- errors are Lua errors carrying the engine's message
check("bad model", raises(function() e:estimate({ model = "no/such-model" }) end, "unknown model 'no/such-model'"))
check("bad field", raises(function() e:estimate({ model = "meta-llama/Llama-3.1-8B", colour = 1 }) end, "colour"))
check("bad value type", raises(function() e:estimate({ model = print }) end, "function value"))
check("bad format", raises(function() e:estimate(chat, { format = "xml" }) end, "opts.format"))
check("missing file", raises(function() e:estimate("nope.lua") end, "nope.lua"))
-- an integrator's slips raise naming the option or field, never a silent default or a
-- wrong message: NaN read as "out of memory", a misspelt option was ignored, and an
-- index on a table evaluated its first scenario
check("nan field", raises(function()
  e:estimate({ model = chat.model, workload = { kind = "inference", context = 0 / 0 } })
end, "vramfit: scenario table: field context: " .. tostring(0 / 0) .. " is not a finite number"))
check("inf field", raises(function()
  e:estimate({ model = chat.model, workload = { kind = "inference", context = math.huge } })
end, "vramfit: scenario table: field context: inf is not a finite number"))
check("unknown option", raises(function() e:estimate(chat, { fits = true }) end,
  "vramfit: estimate: unknown option 'fits' (allowed: gpu, set, fit, index, format)"))
check("unknown new option", raises(function() vramfit.new({ scripts_dir = { "x" } }) end,
  "vramfit.new: unknown option 'scripts_dir' (allowed: script_dirs, data_dir, instruction_limit, memory_limit)"))
check("script_dirs type", raises(function() vramfit.new({ script_dirs = "x" }) end,
  "vramfit.new: script_dirs: expected a list of directories, got string"))
check("index on a table", raises(function() e:estimate({ chat, chat }, { index = 2 }) end,
  "vramfit: opts.index: picks a scenario of a file; a table or scenario text gives its first"))
check("still works after errors", e:estimate(chat).model.params == 8030261248)

-- the module-level functions use a default engine
check("vramfit.estimate", vramfit.estimate(chat).model.params == 8030261248)
check("vramfit.list", #vramfit.list("models") > 10)
check("version", vramfit.version() == vramfit.VERSION and vramfit.VERSION:match("^%d+%.%d+%.%d+$"))

-- a draft model's id resolves as a scenario's model does (scripts/speculative.lua reuses
-- scenario.preset): presets and aliases, case ignored
local function spec(model, tokens)
  return e:estimate({ model = "meta-llama/Llama-3.1-8B-Instruct", gpu = "H100",
    runtime = { name = "vllm", version = "0.19.0", speculative = { method = tokens and "eagle3" or "draft_model",
      model = model, num_speculative_tokens = tokens or 4 } },
    workload = { kind = "inference", context = 8192 } })
end
local exact = spec("meta-llama/Llama-3.2-1B")
check("draft preset", exact.model.params == 8030261248 + 1235814400, exact.model.params)
for _, id in ipairs({ "meta-llama/llama-3.2-1b", "META-LLAMA/LLAMA-3.2-1B-INSTRUCT" }) do
  local ok, r = pcall(spec, id)
  check("draft id " .. id, ok and r.model.params == exact.model.params and
    r.devices[1].total_bytes == exact.devices[1].total_bytes, ok and r.model.params or r)
end
-- an EAGLE-3 head whose config has no max_position_embeddings: vLLM reads it as a
-- LlamaConfig, whose default is 2048 positions (the rotary cache of the yuhuili head's)
local cfg = { hidden_size = 4096, intermediate_size = 14336, num_attention_heads = 32, num_key_value_heads = 8,
              num_hidden_layers = 1, vocab_size = 128256, draft_vocab_size = 32000 }
local without = spec({ arch = "llama", config = cfg }, 3)
cfg.max_position_embeddings = 2048
local with = spec({ arch = "llama", config = cfg }, 3)
check("draft head max_position default", without.devices[1].total_bytes == with.devices[1].total_bytes,
  without.devices[1].total_bytes - with.devices[1].total_bytes)

-- close, __close and __gc
e:close()
check("closed engine", raises(function() e:estimate(chat) end, "closed"))
e:close() -- twice is harmless
do
  local c <close> = vramfit.new({ script_dirs = {}, instruction_limit = 0 })
  check("<close> engine", c:estimate(chat).model.params == 8030261248)
end
for _ = 1, 3 do vramfit.new() end
collectgarbage()
collectgarbage()
check("bad options", raises(function() vramfit.new({ memory_limit = -1 }) end, "memory_limit"))

print(("module: %d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
