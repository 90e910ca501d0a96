-- reference: a model's own reference inference scripts (Wan's generate.py, HunyuanVideo's
-- sample_video.py, CogVideoX's SAT, Open-Sora's inference): offload_model, t5_cpu, FSDP and
-- Ulysses sequence parallel map to the workload's offload, text_encoders and parallel.
return runtime {
  name = "reference",
  summary = "a video model's own reference scripts (Wan, HunyuanVideo, CogVideoX SAT, Open-Sora)",
  aliases = { "wan", "hunyuanvideo", "cogvideo", "sat", "opensora" },
  kinds = { "image", "video" },
  -- convert_model_dtype: Wan2.2's generate.py --convert_model_dtype (a store_true flag). Without
  -- it the DiT keeps the checkpoint's fp32 (wan/textimage2video.py, text2video.py, image2video.py
  -- _configure_model casts to param_dtype only when it is given); unset, it is assumed given, as
  -- the README's single-GPU commands pass it. Wan2.1's generate.py has no such flag.
  knobs = { convert_model_dtype = "bool" },
  knob_docs = {
    convert_model_dtype = "Wan2.2 generate.py --convert_model_dtype (default true): false keeps the DiT in the checkpoint's fp32",
  },
  modelled = true,
}
