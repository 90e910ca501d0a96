-- bnb_int8.lua: bitsandbytes LLM.int8() (BitsAndBytesConfig(load_in_8bit=True), Int8Params),
-- one Linear:   CB  int8 [out, in]   row-wise absmax-quantized weight
--               SCB fp32 [out]       one scale per output row
-- Source: bitsandbytes/nn/modules.py Int8Params._quantize (int8_vectorwise_quant -> CB, SCB)
-- and Linear8bitLt; transformers integrations/bitsandbytes.py (every nn.Linear except
-- modules_to_not_convert, lm_head by default). Embeddings and norms are not Linear.
-- The int8 matmul works on int8 tiles (outlier columns in fp16 are activations, not
-- weights), so no weight-sized dequantization buffer is counted.
-- Releases before 0.45.0 (option `version`) ran the int8 matmul on cuBLASLt's Turing / Ampere
-- tile layouts: the first forward of each Linear8bitLt builds state.CxB = F.transform(state.CB,
-- to_order="col_ampere" / "col_turing") while the row-major CB is still held, and only after the
-- matmul drops CB and keeps CxB as the weight (bitsandbytes/autograd/_functions.py
-- MatMul8bitLt.forward, nn/modules.py Linear8bitLt.forward: "we converted 8-bit row major to
-- turing/ampere format in the first inference pass"): one extra int8 copy of the largest layer
-- at the first forward (the layouts pad rows and columns to 32; shapes assumed multiples of
-- 32). bitsandbytes PR #1401 ("LLM.int8() Refactoring: Part 1", first in 0.45.0) removed the
-- layouts: row-major int8 throughout, no copy.
local bnb = require "quant._bnb"

return {
  name = "bnb-int8",
  summary = "bitsandbytes LLM.int8() (int8 weight + fp32 row scales)",
  aliases = { "bnb_int8", "bnb-8bit", "llm.int8", "int8-bnb" },
  options = { version = "string" },
  quantize_routers = true,
  keep_fp32 = true,   -- Bnb4BitHfQuantizer/Bnb8BitHfQuantizer: use_keep_in_fp32_modules = True
  tensor = function(t, o, ctx)
    if not ctx.q.is_linear(t) or t.role == "lm_head" then return nil end
    local out, inp = ctx.q.dims(t, ctx.desc)
    return { bytes = out * inp + out * 4, dtype = "int8", qtype = "int8-row" }
  end,
  overhead = function(n, o, largest, ctx)
    if o.version == nil or not bnb.release_before(o.version, ctx.field .. ".version", 45, 0) then return 0, nil end
    return largest, ("bitsandbytes %s: the col_ampere / col_turing copy (CxB) of the largest layer's int8 weight at its first forward (%d B)"):format(
      o.version, largest)
  end,
}
