-- workload.sat_encode_samples is SAT's en_and_decode_n_samples_a_time: refused for the diffusers trainer
return { model = "THUDM/CogVideoX-2b", dtype = "fp16", runtime = "deepspeed",
         workload = { kind = "train", method = "lora", width = 720, height = 480, frames = 49, micro_batch = 2,
                      sat_encode_samples = 1 } }
