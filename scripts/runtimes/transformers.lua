-- transformers: generate() for inference (dynamic or static KV cache, sdpa/flash/eager
-- attention) and the HF Trainer / accelerate for training (autocast mixed precision:
-- fp32 weights and gradients, 16-bit activations). runtime.version selects generate()'s
-- version-dependent behaviour (src/infer.c): logits of every prompt position before 4.45,
-- enable_gqa for sdpa from 4.48, boolean sdpa masks from 4.53, cache layers that follow the
-- config's sliding windows from 4.54.
local E = require "engine"

local NEWEST = "4.57.0"

-- "4.54.1" -> 4054 (major x 1000 + minor); 5.x counts as newest behaviour.
local function version_code(v)
  local major, minor = tostring(v):match("^v?(%d+)%.(%d+)")
  if not major then E.fail("runtime.version", "expected a transformers version such as \"4.54.0\", got \"%s\"", tostring(v)) end
  major, minor = tonumber(major), tonumber(minor)
  if major >= 5 then return 5000 end
  return major * 1000 + math.min(minor, 999)
end

local function normalize(n, knobs)
  if n.kind ~= "inference" then return end
  local v = n.runtime_version
  if v == nil then
    v = NEWEST
    n.notes[#n.notes + 1] = ("transformers version %s assumed (the newest modelled)"):format(NEWEST)
  end
  n.extra["transformers.version"] = version_code(v)
  n.extra["transformers.cache"] = knobs.cache or "default"
end

return runtime {
  name = "transformers",
  summary = "Hugging Face transformers generate() and Trainer",
  aliases = { "hf", "accelerate", "trl" },
  kinds = { "inference", "train" },
  -- torch: the PyTorch version under the Trainer (training; workloads/train.lua era_part)
  knobs = { cache = { "dynamic", "static" }, torch = "string" },
  modelled = true,
  normalize = normalize,
}
