local ok, e = pcall(function() return setmetatable({}, { __tostring = function() error("x") end }) end)
local co = coroutine.wrap(function() coroutine.yield(1) end)
co()
return { model = "meta-llama/Llama-3.1-8B", workload = { kind = "inference", context = ("8"):rep(1) + 0 } }
