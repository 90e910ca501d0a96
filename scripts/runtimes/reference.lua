-- reference: a model's own reference inference scripts (Wan's generate.py, HunyuanVideo's
-- sample_video.py, CogVideoX's SAT, Open-Sora's inference): offload_model, t5_cpu, FSDP and
-- Ulysses sequence parallel map to the workload's offload, text_encoders and parallel.
return runtime {
  name = "reference",
  summary = "a video model's own reference scripts (Wan, HunyuanVideo, CogVideoX SAT, Open-Sora)",
  aliases = { "wan", "hunyuanvideo", "cogvideo", "sat", "opensora" },
  kinds = { "image", "video" },
  knobs = {},
  modelled = true,
}
