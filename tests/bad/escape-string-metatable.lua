getmetatable("").__index.rep = nil
return {}
