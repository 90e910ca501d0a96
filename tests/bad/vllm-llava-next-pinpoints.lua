-- LLaVA-NeXT's image_grid_pinpoints must be [height, width] pairs no smaller than the vision crop
-- (vLLM's get_anyres_image_grid_shape divides them by vision_config.image_size)
local P = { arch = "llava", config = { model_type = "llava_next", image_grid_pinpoints = { { 336, 672 }, { 200, 336 } },
  text_config = { model_type = "mistral", vocab_size = 32064 }, vision_config = { model_type = "clip_vision_model" } } }
return { model = P, runtime = { name = "vllm" }, workload = { kind = "inference", context = 4096 }, gpu = "H100" }
