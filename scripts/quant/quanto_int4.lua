-- quanto_int4.lua: optimum-quanto's qint4 weights (quantize(module, weights=qint4) + freeze(),
-- or QuantoConfig(weights_dtype="int4") at load), one Linear:
--   packed int4 data  out x in / 2 bytes, no padding
--   scale and shift   the weight's dtype, one each per group of a row
-- The group: 128, lowered by 32 until it divides the row's in_features (down to 32); a row of
-- 128 or fewer, or one no such group divides, has one scale and shift per row (per-axis).
-- Source: huggingface/optimum-quanto @e33f820 nn/qmodule.py QModuleMixin.__init__
-- (weight_group_size), tensor/grouped.py (group), tensor/weights/qbits.py
-- WeightQBitsTensor.create: bf16 scales select TinyGemmWeightQBitsTensor (tinygemm/qbits.py:
-- the uint4 data packed by torch._convert_weight_to_int4pack, innerKTiles 2, unpadded, and
-- scale and shift concatenated to [in / group, out, 2]), fp16 ones AWQWeightQBitsTensor (the
-- same bytes); neither pads the shape, unlike torchao's int4-weight-only tiles (in to a
-- multiple of 1024). quantize() replaces every nn.Linear (and nn.Conv2d, not counted here).
return {
  name = "quanto-int4",
  summary = "optimum-quanto qint4 weights (packed int4, group 128 or less, scale and shift in the model dtype)",
  aliases = { "qint4", "optimum-quanto-int4" },
  quantize_routers = true,
  tensor = function(t, o, ctx)
    if not ctx.q.is_linear(t) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    local g = nil
    if inp > 128 then
      local s = 128
      while inp % s ~= 0 and s > 32 do s = s - 32 end
      if inp % s == 0 then g = s end
    end
    local groups = g and out * (inp // g) or out
    local b = ctx.q.dtype_bytes(ctx.n.dtype)
    return { bytes = (out * inp + 1) // 2 + groups * 2 * b, dtype = "int4", qtype = "quanto-qint4" }
  end,
}
