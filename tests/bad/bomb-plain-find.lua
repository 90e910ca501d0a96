local s = string.rep("a", 1 << 22)
for i = 1, 1e9 do string.find(s, string.rep("a", 1 << 21) .. "b", 1, true) end
return {}
