-- diffusers: image and video pipelines with model, sequential or group offload, and the
-- training of their denoisers.
local E = require "engine"

-- a language model is not a diffusers pipeline: its training runs under the other runtimes
local function normalize(n)
  if n.kind == "train" and type(n.model.desc.pipeline) ~= "table" then
    E.fail("runtime.name", "diffusers trains diffusion pipelines, and '%s' (architecture %s) is a language model: "
      .. "use \"pytorch\", \"transformers\", \"deepspeed\" or \"torchtune\"", n.model.id, n.model.arch)
  end
end

return runtime {
  name = "diffusers",
  summary = "Hugging Face diffusers pipelines",
  kinds = { "image", "video", "train" },
  -- torch: the PyTorch release of a training run (pre-2.0 zero_grad kept gradients; src/train.c)
  knobs = { offload_type = { "block_level", "leaf_level" }, num_blocks_per_group = "int", use_stream = "bool",
            torch = "string" },
  modelled = true,
  normalize = normalize,
}
