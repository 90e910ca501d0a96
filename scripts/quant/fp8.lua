-- fp8.lua: FP8 E4M3 weights with fp32 scales, as vLLM holds them (--quantization fp8 online,
-- FP8 checkpoints from llm-compressor / compressed-tensors, DeepSeek-V3 block FP8), one Linear:
--   weight       fp8  [out, in]            1 B per element
--   scheme "tensor":  weight_scale fp32 [1] (4 B)        vllm .../quantization/fp8.py
--   scheme "channel": weight_scale fp32 [out, 1]         compressed_tensors_w8a8_fp8.py
--   scheme "block":   weight_scale_inv fp32 [ceil(out/128), ceil(in/128)]  DeepSeek-V3's
--                     config weight_block_size [128, 128] (block = { 128, 128 } by default)
--   static activations (activation_scheme "static"): input_scale fp32 [1] (4 B) more.
-- Embeddings, lm_head, norms, biases and MoE routers (ReplicatedLinear with
-- quant_config=None in vLLM's Mixtral/DeepSeek models) stay in the model dtype.
return {
  name = "fp8",
  summary = "FP8 E4M3 weights, per-tensor / per-channel / 128x128 block fp32 scales",
  aliases = { "fp8-dynamic", "fp8_e4m3", "w8a8-fp8", "fbgemm_fp8", "fp8-block" },
  options = { scheme = { "tensor", "channel", "block" },
              activation_scheme = { "dynamic", "static" }, block_size = "int" },
  defaults = { scheme = "tensor", activation_scheme = "dynamic", block_size = 128 },
  tensor = function(t, o, ctx)
    if not (ctx.q.is_linear(t) or ctx.q.is_fused_expert(t)) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    local scales = 4
    if o.scheme == "channel" then
      scales = out * 4
    elseif o.scheme == "block" then
      local b = o.block_size
      scales = ((out + b - 1) // b) * ((inp + b - 1) // b) * 4
    end
    local input_scale = o.activation_scheme == "static" and 4 or 0
    return { bytes = out * inp + scales + input_scale, dtype = "fp8",
             qtype = o.scheme == "block" and ("fp8-b" .. o.block_size) or ("fp8-" .. o.scheme) }
  end,
}
