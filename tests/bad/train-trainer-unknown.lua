-- workload.trainer names one of the modelled trainers
return { model = "THUDM/CogVideoX-2b", dtype = "fp16", runtime = "deepspeed",
         workload = { kind = "train", method = "lora", width = 720, height = 480, frames = 49, trainer = "megatron" } }
