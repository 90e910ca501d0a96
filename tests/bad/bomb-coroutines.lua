local cos = {} for i = 1, 1e7 do cos[i] = coroutine.create(function() coroutine.yield() end) coroutine.resume(cos[i]) end
