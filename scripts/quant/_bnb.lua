-- _bnb.lua: shared arithmetic of the bitsandbytes formats (bnb_nf4.lua, bnb_fp4.lua): 4-bit
-- Params4bit (NF4 or FP4), as transformers' BitsAndBytesConfig(load_in_4bit=True) and
-- diffusers hold it on the GPU, one Linear:
--   weight   uint8 [ceil(numel/2), 1]          two 4-bit codes per byte
--   absmax   fp32  [nblocks]                   nblocks = ceil(numel / 64) (blocksize 64)
--   code     fp32  [16]                        the NF4/FP4 code book (64 B)
-- with double quantization (bnb_4bit_use_double_quant / compress_statistics):
--   absmax   uint8 [nblocks]                   absmax itself quantized blockwise (256)
--   nested absmax fp32 [ceil(nblocks/256)], nested code fp32 [256] (1024 B), offset fp32 (4 B)
-- Source: bitsandbytes/functional.py quantize_4bit (blocksize 64, compress_statistics ->
-- quantize_blockwise(absmax - offset, blocksize=256)) and nn/modules.py Params4bit;
-- transformers integrations/bitsandbytes.py replaces every nn.Linear except
-- modules_to_not_convert (lm_head by default). Embeddings and norms are not Linear.
local function bytes_4bit(numel, dq)
  local nblocks = (numel + 63) // 64
  local packed = (numel + 1) // 2
  if not dq then return packed + nblocks * 4 + 64 end
  return packed + nblocks + ((nblocks + 255) // 256) * 4 + 1024 + 4 + 64
end

-- The quantization statistics (absmax, the nested absmax and code books: all but the packed
-- codes) are Params4bit's QuantState, a plain attribute of the weight and of its Linear4bit,
-- neither a parameter nor a buffer: FSDP flattens, shards and CPU-offloads parameters only, so
-- each rank keeps every layer's statistics on the GPU whole (AnswerDotAI/fsdp_qlora PR #4: "the
-- quant_state dictionary ... doesn't get synced by FSDP.sync_module_states=True because it only
-- supports syncing parameters and buffers"; bitsandbytes nn/modules.py Params4bit.to moves
-- quant_state with the weight, so module.to(device) before sharding leaves it on the GPU).
-- quant.bnb_state_bytes sums them over the quantized tensors of the model that is trained and
-- sharded (src/train.c train_weights): a pipeline's denoiser (src/train.c pipeline_weights shards
-- the denoiser alone and keeps the text encoders and VAE whole as frozen_components, so a
-- bnb-quantized text encoder's statistics are already whole there and not moved again).
local function tensor(kind)
  return function(t, o, ctx)
    if not ctx.q.is_linear(t) or t.role == "lm_head" then return nil end
    local numel = ctx.q.numel(t.shape)
    local bytes = bytes_4bit(numel, o.double_quant)
    if ctx.n and (t.component == nil or t.component == "denoiser") then
      local st = (bytes - (numel + 1) // 2) * (t.count or 1)
      ctx.n.extra["quant.bnb_state_bytes"] = (ctx.n.extra["quant.bnb_state_bytes"] or 0) + st
    end
    return { bytes = bytes, dtype = "int4", qtype = kind .. (o.double_quant and "-dq" or "") }
  end
end

-- The 4-bit matmul dequantizes the weight to the compute dtype for prompts (batch x seq > 1):
-- one temporary of the largest layer.
-- Releases before 0.43.2 kept the input of every 4-bit matmul for backward: MatMul4Bit.forward
-- set ctx.tensors = (A, B) whenever A or B needs a gradient, although backward only uses B
-- (bitsandbytes/autograd/_functions.py; PR #1270, commit 9e753741, "fix QLoRA mem bug:
-- delete useless buffered activation", first released in 0.43.2). Under PEFT the input
-- of each frozen 4-bit Linear needs no saving otherwise; workloads/train.lua reads
-- quant.bnb_saves_input and keeps every quantized Linear's input (option `version`, the
-- bitsandbytes release; absent: the newest).
local function release_before(v, field, want_minor, want_patch)
  -- a PEP 440 suffix (".post1", ".dev0", "rc1", "+cu121", as pip prints a build) does not change
  -- the release compared: a pre-release counts as its release
  local major, minor, patch, rest = v:match("^v?(%d+)%.(%d+)%.?(%d*)(.*)$")
  rest = rest or ""
  local tag = rest:match("^[%.%-]?(%a+)%d*$") or rest:match("^[%.%-]?(%a+)%d*%+[%w%.]+$")
  local PEP440 = { a = true, b = true, rc = true, c = true, alpha = true, beta = true, pre = true, dev = true, post = true }
  if major and rest ~= "" and not rest:match("^%+[%w%.]+$") and not PEP440[tag or ""] then major = nil end
  if not major then error(field .. ": expected a bitsandbytes release such as \"0.41.1\", got \"" .. v .. "\"", 0) end
  major, minor, patch = tonumber(major), tonumber(minor), tonumber(patch) or 0
  return major == 0 and (minor < want_minor or (minor == want_minor and patch < want_patch))
end

local function before_0_43_2(v, field) return release_before(v, field, 43, 2) end

-- The dequantized weight comes out in the dtype the weight was quantized from (QuantState.dtype:
-- the load dtype) and MatMul4Bit.forward casts it to the input's dtype, the compute dtype
-- (`F.dequantize_4bit(B, quant_state).to(A.dtype).t()`, bitsandbytes/autograd/_functions.py,
-- 0.40 to the newest; Linear4bit.forward casts x to compute_dtype first): with a compute dtype
-- other than the load dtype both copies of the largest layer are live at the cast (fp16 + fp32:
-- 6 B an element where transformers' BitsAndBytesConfig leaves bnb_4bit_compute_dtype at its
-- float32 default). The same dtype: .to() returns the tensor itself, one copy.
local function overhead(n, o, largest, ctx)
  if o.version ~= nil and before_0_43_2(o.version, ctx.field .. ".version") then
    n.extra["quant.bnb_saves_input"] = true
  end
  local load = ctx.q.dtype_bytes(n.dtype)
  local b = ctx.q.dtype_bytes(o.compute_dtype or n.dtype)
  if o.compute_dtype ~= nil and o.compute_dtype ~= n.dtype then
    return largest * (load + b), ("bitsandbytes 4-bit dequantization of the largest layer (%d elements) in %s (%d B) and its cast to the %s compute dtype (%d B)"):format(
      largest, n.dtype, load, o.compute_dtype, b)
  end
  return largest * b, ("bitsandbytes 4-bit dequantization buffer of the largest layer (%d elements x %d B)"):format(largest, b)
end

return { tensor = tensor, overhead = overhead, bytes = bytes_4bit, release_before = release_before }
