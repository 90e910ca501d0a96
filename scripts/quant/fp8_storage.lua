-- fp8_storage.lua: diffusers layerwise casting (enable_layerwise_casting(storage_dtype=
-- torch.float8_e4m3fn, compute_dtype=bf16)): the weights AND biases of Linear/Conv layers
-- are stored in fp8 (1 B per element, no scales) and each layer is upcast to the compute
-- dtype just before it runs. Skipped by default (DEFAULT_SKIP_MODULES_PATTERN):
-- "pos_embed", "patch_embed", "norm", "^proj_in$", "^proj_out$"; embeddings are not
-- Linear/Conv. Source: diffusers/hooks/layerwise_casting.py (SUPPORTED_PYTORCH_LAYERS,
-- apply_layerwise_casting). Overhead: the largest layer upcast to the compute dtype.
-- The patterns are re.search()ed on module names relative to the model the hook is applied to
-- (the transformer), so "^proj_in$" is its top-level proj_in; a pipeline's tensor names here
-- carry the component folder first ("transformer.proj_in.weight"), hence the folder before them.
local SKIP = { "pos_embed", "patch_embed", "norm", "^[^.]+\\.proj_in\\.", "^[^.]+\\.proj_out\\." }
-- ModelMixin.enable_layerwise_casting adds the model class's own _skip_layerwise_casting_patterns
-- to the defaults (diffusers models/modeling_utils.py); the classes whose patterns name Linear
-- modules the defaults miss, searched in the denoiser's names as substrings (re.search):
-- transformer_wan.py WanTransformer3DModel ["patch_embedding", "condition_embedder", "norm"],
-- transformer_hunyuan_video.py HunyuanVideoTransformer3DModel and transformer_hunyuan_video15.py
-- HunyuanVideo15Transformer3DModel ["x_embedder", "context_embedder", "norm"] (the token refiner
-- and HunyuanVideo-1.5's context_embedder_2 stay in the compute dtype).
local CLASS_SKIP = {
  wan = { "patch_embedding", "condition_embedder" },
  hunyuanvideo = { "x_embedder", "context_embedder" },
  hunyuanvideo15 = { "x_embedder", "context_embedder" },
}

return {
  name = "fp8-storage",
  summary = "fp8 e4m3 storage, upcast per layer (diffusers layerwise casting)",
  aliases = { "layerwise-casting", "fp8-layerwise", "fp8_storage" },
  options = { storage_dtype = { "fp8", "fp8_e5m2" } },
  defaults = { storage_dtype = "fp8" },
  keep = SKIP,
  quantize_routers = true,
  tensor = function(t, o, ctx)
    local linear = { attn = true, mlp = true, expert = true, shared_expert = true, other = true, lm_head = true }
    if not linear[t.role or "other"] or not (t.name:find("%.weight$") or t.name:find("%.bias$")) then return nil end
    if #t.shape == 1 and not t.name:find("%.bias$") then return nil end
    if t.component == "denoiser" then
      for _, p in ipairs(CLASS_SKIP[ctx.desc.arch] or {}) do
        if t.name:find(p, 1, true) then return nil end
      end
    end
    return { bytes = ctx.q.numel(t.shape), dtype = o.storage_dtype, qtype = "fp8-store" }
  end,
  overhead = function(n, o, largest, ctx)
    local b = ctx.q.dtype_bytes(n.dtype)
    return largest * b, ("layerwise-casting upcast of the largest layer (%d elements x %d B)"):format(largest, b)
  end,
}
