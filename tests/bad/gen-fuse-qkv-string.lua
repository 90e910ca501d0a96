-- workload.fuse_qkv must be a boolean
return { model = "PixArt-alpha/PixArt-Sigma-XL-2-1024-MS", dtype = "fp16", runtime = { name = "diffusers" },
         gpu = "H100-SXM-80GB", workload = { kind = "image", fuse_qkv = "yes" } }
