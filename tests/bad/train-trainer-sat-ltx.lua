-- workload.trainer "sat": SwissArmyTransformer fine-tunes CogVideoX only; LTX-Video has no SAT recipe
return { model = "Lightricks/LTX-Video", dtype = "bf16", runtime = "diffusers",
         workload = { kind = "train", method = "lora", width = 768, height = 512, frames = 49, trainer = "sat" } }
