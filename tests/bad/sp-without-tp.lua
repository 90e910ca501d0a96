-- sequence parallelism shards what tensor parallelism replicates: without tp there is nothing to shard
return { model = "meta-llama/Llama-3.1-8B", runtime = "pytorch", parallel = { sequence_parallel = true },
         workload = { kind = "train", seq_len = 4096 } }
