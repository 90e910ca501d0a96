-- compressed_tensors_w4a16.lua: compressed-tensors "pack-quantized" weight-only int4/int8
-- (llm-compressor W4A16 / W8A16, e.g. RedHatAI/*-quantized.w4a16), one Linear:
--   weight_packed int32 [out, in*bits/32]
--   weight_scale  model dtype [out, groups]        groups = in / group_size
--   weight_shape  int64 [2]                        (16 B)
--   weight_zero_point int32 [ceil(out*bits/32), groups]   asymmetric only
--   weight_g_idx  int32 [in]                       actorder ("group"/"weight") only
-- Source: compressed-tensors compressors/quantized_compressors/pack_quantized.py and vLLM
-- compressed_tensors_wNa16.py create_weights. lm_head, embeddings, norms, routers unquantized.
return {
  name = "compressed-tensors-w4a16",
  summary = "compressed-tensors pack-quantized W4A16/W8A16 (int32 packing, group scales)",
  aliases = { "w4a16", "compressed-tensors", "w8a16", "wna16" },
  options = { bits = { 4, 8 }, group_size = "group", sym = "bool", actorder = "bool" },
  defaults = { bits = 4, group_size = 128, sym = true, actorder = false },
  tensor = function(t, o, ctx)
    local out, inp, g, groups = ctx.q.group_linear(t, o, ctx.desc)
    if not out or inp % (32 // o.bits) ~= 0 then return nil end
    local bytes = out * (inp * o.bits // 32) * 4 + out * groups * ctx.q.dtype_bytes(ctx.n.dtype) + 16
    if not o.sym then bytes = bytes + (out * o.bits + 31) // 32 * groups * 4 end
    if o.actorder then bytes = bytes + inp * 4 end
    -- "-zp": asymmetric (vLLM's Machete stores its zero points unpacked, src/rt_vllm.c)
    return { bytes = bytes, dtype = o.bits == 8 and "int8" or "int4",
             qtype = ("w%da16-g%s%s"):format(o.bits, o.group_size == -1 and "row" or tostring(g),
                                             o.sym and "" or "-zp") }
  end,
}
