-- workload.memory_reserve without offload = "auto"
return { model = "Tongyi-MAI/Z-Image-Turbo", dtype = "bf16", runtime = { name = "diffusers" }, gpu = "RTX-4090-24GB",
         workload = { kind = "image", offload = "model", memory_reserve = 3 } }
