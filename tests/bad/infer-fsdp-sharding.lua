return { model = 'meta-llama/Llama-2-7b-hf', workload = { kind = 'inference', context = 4096 }, parallel = { dp = 1, strategy = 'fsdp', fsdp_sharding = 'no_shard' } }
