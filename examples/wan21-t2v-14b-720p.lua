-- Wan2.1-T2V-14B, 1280x720, 81 frames, with the Wan reference scripts (generate.py):
-- `vramfit fit examples/wan21-t2v-14b-720p.lua`; --set workload.offload=model is
-- generate.py's --offload_model True, parallel.sequence_parallel=N with
-- parallel.strategy=fsdp its --ulysses_size N --dit_fsdp --t5_fsdp.
return {
  name = "wan21-t2v-14b-720p",
  model = "Wan-AI/Wan2.1-T2V-14B",
  dtype = "bf16",
  runtime = { name = "reference" },
  workload = { kind = "video", width = 1280, height = 720, frames = 81, batch = 1, steps = 50,
               cfg = true, offload = "none" },
}
