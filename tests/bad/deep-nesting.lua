local t = {} for i = 1, 10000 do t = { t } end
return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = t }
