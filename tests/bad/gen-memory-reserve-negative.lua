-- workload.memory_reserve below 0 GB
return { model = "Tongyi-MAI/Z-Image-Turbo", dtype = "bf16", runtime = { name = "diffusers" }, gpu = "RTX-4090-24GB",
         workload = { kind = "image", offload = "auto", memory_reserve = -1 } }
