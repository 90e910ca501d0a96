-- bnb_nf4.lua: bitsandbytes 4-bit NF4 (BitsAndBytesConfig(load_in_4bit=True,
-- bnb_4bit_quant_type="nf4")): blocksize 64, fp32 absmax per block, or with double_quant
-- (bnb_4bit_use_double_quant) an 8-bit absmax + fp32 nested absmax per 256 blocks.
-- The storage arithmetic and its sources are in _bnb.lua. lm_head and embeddings stay unquantized;
-- routers are nn.Linear and are quantized like any layer.
local bnb = require "quant._bnb"

return {
  name = "bnb-nf4",
  summary = "bitsandbytes 4-bit NF4, block 64, optional double quantization",
  aliases = { "bnb_nf4", "bnb-4bit-nf4", "nf4", "bnb-4bit", "qlora" },
  options = { double_quant = "bool", version = "string", compute_dtype = { "fp16", "bf16", "fp32" } },
  defaults = { double_quant = false },
  quantize_routers = true,
  keep_fp32 = true,   -- Bnb4BitHfQuantizer/Bnb8BitHfQuantizer: use_keep_in_fp32_modules = True
  tensor = bnb.tensor("nf4"),
  overhead = bnb.overhead,
}
