return { model = "Wan-AI/Wan2.1-T2V-14B", runtime = "reference",
         workload = { kind = "video", width = 1280, height = 720, frames = 81, offload = "group" }, gpu = "H100" }
