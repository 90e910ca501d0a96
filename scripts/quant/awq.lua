-- awq.lua: AWQ checkpoints as AutoAWQ writes them (WQLinear_GEMM, version "gemm"; vLLM's awq
-- and awq_marlin load the same tensors), one Linear:
--   qweight int32 [in, out/8]       eight 4-bit values packed along the OUTPUT dimension
--   qzeros  int32 [groups, out/8]   groups = in / group_size
--   scales  fp16  [groups, out]
-- Source: AutoAWQ awq/modules/linear/gemm.py (WQLinear_GEMM.__init__ buffers),
-- vllm/model_executor/layers/quantization/awq.py (AWQLinearMethod.create_weights).
-- Only 4-bit; in must be a multiple of group_size and out of 8 (else the layer stays fp16).
-- Embeddings, lm_head, norms and routers stay in the model dtype.
return {
  name = "awq",
  summary = "AWQ (AutoAWQ GEMM: int32 packing along out, fp16 scales, packed zeros)",
  aliases = { "autoawq", "awq_marlin", "awq-int4" },
  options = { bits = { 4 }, group_size = "group", zero_point = "bool", version = { "gemm", "gemv" } },
  defaults = { bits = 4, group_size = 128, zero_point = true, version = "gemm" },
  tensor = function(t, o, ctx)
    local out, inp, g, groups = ctx.q.group_linear(t, o, ctx.desc)
    if not out or out % 8 ~= 0 then return nil end
    local qweight = inp * (out // 8) * 4
    local qzeros = o.zero_point and groups * (out // 8) * 4 or 0
    local scales = groups * out * 2
    -- "-sym": no zero points (vLLM's kernels then take the symmetric uint4b8 path)
    return { bytes = qweight + qzeros + scales, dtype = "int4",
             qtype = "awq-g" .. g .. (o.zero_point and "" or "-sym") }
  end,
  -- AutoAWQ's GEMM kernel dequantizes the whole weight to fp16 when a call has many
  -- tokens (awq_ext.dequantize_weights_cuda, then a dense matmul): one layer's worth.
  overhead = function(n, o, largest)
    if n.runtime == "vllm" or n.runtime == "sglang" then return 0 end
    return largest * 2, ("AWQ GEMM fp16 dequantization of the largest layer (%d elements x 2 B)"):format(largest)
  end,
}
