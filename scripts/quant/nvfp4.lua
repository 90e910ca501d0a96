-- nvfp4.lua: NVIDIA FP4 (ModelOpt / compressed-tensors "nvfp4"), one Linear:
--   weight_packed uint8 [out, in/2]            E2M1 nibbles
--   weight_scale  fp8 e4m3 [out, in/16]        one scale per 16-element block
--   weight_global_scale fp32 [1], input_global_scale fp32 [1]   (8 B per tensor)
-- 9 B per 16 elements + 8 B. Source: compressed-tensors QuantizationScheme NVFP4
-- (group_size 16, scale_dtype float8_e4m3fn, global scales) and vLLM
-- compressed_tensors_w4a4_nvfp4.py create_weights. Embeddings, lm_head, norms and
-- routers stay in the model dtype; in must be a multiple of 16.
return {
  name = "nvfp4",
  summary = "NVFP4 (16-element blocks: 8 B E2M1 + 1 B E4M3 scale, fp32 global scales)",
  aliases = { "nv-fp4", "modelopt_fp4", "w4a4-nvfp4" },
  tensor = function(t, o, ctx)
    if not (ctx.q.is_linear(t) or ctx.q.is_fused_expert(t)) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    if inp % 16 ~= 0 then return nil end
    return { bytes = out * (inp // 16) * 9 + 8, dtype = "fp4", qtype = "nvfp4" }
  end,
}
