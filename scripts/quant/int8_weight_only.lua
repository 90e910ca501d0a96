-- int8_weight_only.lua: torchao int8_weight_only() (Int8WeightOnlyConfig), one Linear as an
-- AffineQuantizedTensor with PlainLayout:
--   int_data   int8  [out, in]
--   scale      model dtype [out]      (scale_dtype None -> the weight's dtype)
--   zero_point int64 [out]            (zero_point_dtype = torch.int64, symmetric)
-- Source: torchao/quantization/quant_api.py (_int8_weight_only_quantize_tensor:
-- MappingType.SYMMETRIC, block (1, in), zero_point_dtype=torch.int64) and
-- dtypes/affine_quantized_tensor.py (PlainAQTTensorImpl). Applied by transformers' and
-- diffusers' TorchAoConfig("int8_weight_only") to every nn.Linear except lm_head.
-- Without torch.compile its matmul upcasts the whole weight (w.to(x.dtype)): one layer
-- of the compute dtype is counted as overhead.
return {
  name = "int8-weight-only",
  summary = "torchao int8 weight-only (int8 + per-row scale and int64 zero point)",
  aliases = { "int8wo", "torchao-int8", "int8_weight_only", "torchao-int8wo" },
  quantize_routers = true,
  tensor = function(t, o, ctx)
    if not ctx.q.is_linear(t) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    local scale = ctx.q.dtype_bytes(ctx.n.dtype)
    return { bytes = out * inp + out * (scale + 8), dtype = "int8", qtype = "int8wo" }
  end,
  overhead = function(n, o, largest, ctx)
    local b = ctx.q.dtype_bytes(n.dtype)
    return largest * b, ("torchao int8 weight-only upcast of the largest layer (%d elements x %d B)"):format(largest, b)
  end,
}
