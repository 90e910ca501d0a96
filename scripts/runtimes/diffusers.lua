-- diffusers: image and video pipelines with model, sequential or group offload, and the
-- training of their denoisers.
local E = require "engine"

-- "0.32.1" -> 32001 (engine.lua version_code), nil when runtime.version is unset
local function version_code(v)
  return v and E.version_code(v, "a diffusers", "0.32.2")
end

-- In the releases up to p.dense_attn_mask_until the transformer's forward builds one dense
-- [B, S, S] boolean mask for all its blocks (HunyuanVideo in v0.32.0 and v0.32.1), where
-- later ones pass the [B, S] padding mask (src/gen.c gen_dense_mask; workloads/image.lua sets
-- the later releases' default).
local function dense_mask_era(n, code)
  local p = n.model.desc.pipeline
  if p.dense_attn_mask == true or not p.dense_attn_mask_until then return end
  if code == nil then
    E.note(n, "diffusers: the newest release's attention mask assumed (runtime.version unset; up to %s "
      .. "the transformer builds a dense S x S mask)", p.dense_attn_mask_until)
  elseif code <= version_code(p.dense_attn_mask_until) then
    n.extra["gen.dense_attn_mask"], n.extra["gen.dense_attn_mask_bools"] = true, 1
    E.note(n, "diffusers %s builds a dense [B, S, S] boolean attention mask (fixed after %s)",
      n.runtime_version, p.dense_attn_mask_until)
  end
end

-- runtime.version is parsed here once, for every workload and model ('latest' is an error);
-- a language model is not a diffusers pipeline: its training runs under the other runtimes
local function normalize(n)
  local code = version_code(n.runtime_version)
  if n.kind == "train" and type(n.model.desc.pipeline) ~= "table" then
    E.fail("runtime.name", "diffusers trains diffusion pipelines, and '%s' (architecture %s) is a language model: "
      .. "use \"pytorch\", \"transformers\", \"deepspeed\", \"torchtune\" or \"megatron\"", n.model.id, n.model.arch)
  end
  -- training a pipeline's denoiser builds the same mask each forward (src/train.c dense_mask_bytes)
  if n.kind == "image" or n.kind == "video" or n.kind == "train" then dense_mask_era(n, code) end
end

return runtime {
  name = "diffusers",
  summary = "Hugging Face diffusers pipelines",
  kinds = { "image", "video", "train" },
  -- torch: the PyTorch release of a training run (pre-2.0 zero_grad kept gradients; src/train.c)
  knobs = { offload_type = { "block_level", "leaf_level" }, num_blocks_per_group = "int", use_stream = "bool",
            torch = "string", expandable_segments = "bool" },
  knob_docs = {
    offload_type = "enable_group_offload's offload_type",
    num_blocks_per_group = "enable_group_offload's num_blocks_per_group",
    use_stream = "enable_group_offload's use_stream: the next group prefetched on a side stream",
    torch = "the PyTorch release of a training run (before 2.0 zero_grad kept gradients)",
    expandable_segments = "PYTORCH_CUDA_ALLOC_CONF expandable_segments:True: reserved = allocated peak in 20 MiB pages, no fragmentation share",
  },
  modelled = true,
  normalize = normalize,
}
