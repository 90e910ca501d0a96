-- w8a8.lua: int8 weights and int8 activations (compressed-tensors W8A8-INT8 from
-- llm-compressor / SmoothQuant), one Linear:
--   weight       int8 [out, in]
--   weight_scale fp32 [out, 1]        channel-wise (vLLM ChannelQuantScaleParameter, float32)
--   input_scale  fp32 [1]             static activations only (dynamic per-token: none)
-- Source: vLLM compressed_tensors_w8a8_int8.py create_weights. lm_head, embeddings, norms
-- and routers stay in the model dtype.
return {
  name = "w8a8",
  summary = "compressed-tensors W8A8 int8 (channel-wise fp32 weight scales)",
  aliases = { "w8a8-int8", "int8-w8a8", "smoothquant" },
  options = { activation_scheme = { "dynamic", "static" } },
  defaults = { activation_scheme = "dynamic" },
  tensor = function(t, o, ctx)
    if not (ctx.q.is_linear(t) or ctx.q.is_fused_expert(t)) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    local bytes = out * inp + out * 4 + (o.activation_scheme == "static" and 4 or 0)
    return { bytes = bytes, dtype = "int8", qtype = "w8a8" }
  end,
}
