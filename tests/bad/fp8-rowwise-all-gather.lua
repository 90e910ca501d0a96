-- torchao's FSDP2 float8 all-gather works with the tensorwise recipe only
return { model = "meta-llama/Llama-3.1-8B", runtime = "pytorch", parallel = { dp = 8, strategy = "fsdp" },
         workload = { kind = "train", seq_len = 4096, precision = "fp8-rowwise", fp8 = { fsdp_float8_all_gather = true } } }
