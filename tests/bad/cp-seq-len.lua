-- context parallelism: torchtitan needs seq_len divisible by 2 x cp (head-tail load balancing)
return { model = "meta-llama/Llama-3.1-8B", runtime = "pytorch", parallel = { cp = 4 },
         workload = { kind = "train", seq_len = 4100 } }
