-- bnb_int8.lua: bitsandbytes LLM.int8() (BitsAndBytesConfig(load_in_8bit=True), Int8Params),
-- one Linear:   CB  int8 [out, in]   row-wise absmax-quantized weight
--               SCB fp32 [out]       one scale per output row
-- Source: bitsandbytes/nn/modules.py Int8Params._quantize (int8_vectorwise_quant -> CB, SCB)
-- and Linear8bitLt; transformers integrations/bitsandbytes.py (every nn.Linear except
-- modules_to_not_convert, lm_head by default). Embeddings and norms are not Linear.
-- The int8 matmul works on int8 tiles (outlier columns in fp16 are activations, not
-- weights), so no weight-sized dequantization buffer is counted.
return {
  name = "bnb-int8",
  summary = "bitsandbytes LLM.int8() (int8 weight + fp32 row scales)",
  aliases = { "bnb_int8", "bnb-8bit", "llm.int8", "int8-bnb" },
  options = {},
  quantize_routers = true,
  keep_fp32 = true,   -- Bnb4BitHfQuantizer/Bnb8BitHfQuantizer: use_keep_in_fp32_modules = True
  tensor = function(t, o, ctx)
    if not ctx.q.is_linear(t) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    return { bytes = out * inp + out * 4, dtype = "int8", qtype = "int8-row" }
  end,
}
