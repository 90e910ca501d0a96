-- workload.fuse_qkv on a pipeline whose attention modules are not described for fuse_qkv_projections()
return { model = "black-forest-labs/FLUX.1-dev", dtype = "bf16", runtime = { name = "diffusers" },
         gpu = "H100-SXM-80GB", workload = { kind = "image", fuse_qkv = true } }
