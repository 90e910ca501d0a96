-- int4_weight_only.lua: torchao int4_weight_only() (Int4WeightOnlyConfig, group_size 128,
-- TensorCoreTiledLayout(inner_k_tiles=8), the tinygemm kernel), one Linear:
--   packed int4 weight [out_p, in_p] / 2 bytes (int32 tiles)
--   scale_and_zero bf16 [in_p / group, out_p, 2]
-- where the weight is first padded: in_p = multiple of 1024, out_p = multiple of 8
-- (TensorCoreTiledLayout.pre_process: find_multiple(in, 1024), find_multiple(out, 8)).
-- Source: torchao/dtypes/uintx/tensor_core_tiled_layout.py and quant_api.py. Applied to
-- every nn.Linear except lm_head. group_size one of 32, 64, 128, 256.
return {
  name = "int4-weight-only",
  summary = "torchao int4 weight-only (tinygemm tiles, group 128, bf16 scales and zeros)",
  aliases = { "int4wo", "torchao-int4", "int4_weight_only", "torchao-int4wo" },
  options = { group_size = { 32, 64, 128, 256 } },
  defaults = { group_size = 128 },
  quantize_routers = true,
  tensor = function(t, o, ctx)
    if not ctx.q.is_linear(t) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    local in_p, out_p = (inp + 1023) // 1024 * 1024, (out + 7) // 8 * 8
    local bytes = out_p * in_p // 2 + (in_p // o.group_size) * out_p * 2 * 2
    return { bytes = bytes, dtype = "int4", qtype = "int4wo-g" .. o.group_size }
  end,
}
