local s = string.rep("a", 200000)
s:find(("a*"):rep(3) .. "b")
return {}
