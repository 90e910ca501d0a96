-- workload.fuse_qkv is a diffusers call
return { model = "PixArt-alpha/PixArt-Sigma-XL-2-1024-MS", dtype = "fp16", runtime = { name = "reference" },
         gpu = "H100-SXM-80GB", workload = { kind = "image", fuse_qkv = true } }
