local t = {}
for i = 1, 2 do t[i] = { name = "s" .. i, model = "mistralai/Mistral-7B-v0.1", workload = { kind = "inference", context = 1024 * i } } end
return t
