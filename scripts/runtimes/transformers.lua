-- transformers: generate() for inference (dynamic or static KV cache, sdpa/flash/eager
-- attention) and the HF Trainer / accelerate for training (autocast mixed precision:
-- fp32 weights and gradients, 16-bit activations).
return runtime {
  name = "transformers",
  summary = "Hugging Face transformers generate() and Trainer",
  aliases = { "hf", "accelerate", "trl" },
  kinds = { "inference", "train" },
  knobs = { cache = { "dynamic", "static" } },
  modelled = true,
}
