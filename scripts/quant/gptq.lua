-- gptq.lua: GPTQ checkpoints as AutoGPTQ / GPTQModel write them (QuantLinear, the layout
-- exllama, exllama v2, Marlin and vLLM's gptq/gptq_marlin load), one Linear:
--   qweight int32 [in*bits/32, out]      bits packed along the input dimension
--   qzeros  int32 [groups, out*bits/32]  packed zero points (written even when sym)
--   scales  fp16  [groups, out]          groups = ceil(in / group_size), 1 if group_size = -1
--   g_idx   int32 [in]                   counted with desc_act (act-order) only: without it
--     the trivial i // group_size index that AutoGPTQ writes is dropped at load (vLLM's
--     gptq_marlin replaces it with an empty tensor; exllama kernels never read it).
-- Source: AutoGPTQ auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py (QuantLinear buffers),
-- vllm/model_executor/layers/quantization/gptq.py (create_weights). 3-bit packs 32 values into
-- 3 words, so in and out must be multiples of 32; other widths need multiples of 32/bits.
-- Embeddings, lm_head, norms and routers stay in the model dtype (GPTQ replaces only the
-- decoder layers' nn.Linear modules).
local function packed_ok(n, bits) return n % (bits == 3 and 32 or 32 // bits) == 0 end

-- f(out, in) for each quantized Linear of the component being quantized
local function each_quantized(ctx, f)
  for _, t in ipairs(ctx.desc.tensors) do
    if t.qtype and (ctx.component == nil or t.component == ctx.component) then
      local out, inp = ctx.q.dims(t, ctx.desc)
      if out then f(out, inp) end
    end
  end
end

return {
  name = "gptq",
  summary = "GPTQ (AutoGPTQ/GPTQModel int32 packing, fp16 scales, packed zeros, act-order g_idx)",
  aliases = { "gptq-int4", "autogptq", "gptqmodel", "gptq_marlin" },
  -- kernel: the transformers / optimum backend (GPTQConfig exllama_config version): its
  -- buffers are the overhead below; absent, exllama (version 1). vLLM and SGLang pick their
  -- own kernels, so giving it there is an error
  options = { bits = { 2, 3, 4, 8 }, group_size = "group", desc_act = "bool", sym = "bool",
              kernel = { "exllama", "exllamav2" } },
  defaults = { bits = 4, group_size = 128, desc_act = false, sym = true },
  tensor = function(t, o, ctx)
    local out, inp, g, groups = ctx.q.group_linear(t, o, ctx.desc)
    if not out or not packed_ok(inp, o.bits) or not packed_ok(out, o.bits) then return nil end
    local qweight = inp * o.bits // 32 * out * 4
    local qzeros = groups * (out * o.bits // 32) * 4
    local scales = groups * out * 2
    local g_idx = o.desc_act and inp * 4 or 0
    -- "uint" when asymmetric (vLLM's uint4 against the symmetric uint4b8): gptq_marlin takes
    -- symmetric 4- and 8-bit checkpoints only, and its kernels drop or keep tensors by kernel
    -- (src/rt_vllm.c vllm_requant_extra)
    return { bytes = qweight + qzeros + scales + g_idx, dtype = o.bits == 8 and "int8" or "int4",
             qtype = ("%sint%d-g%s%s"):format(o.sym and "" or "u", o.bits, o.group_size == -1 and "row" or tostring(g),
                                            o.desc_act and "-act" or "") }
  end,
  -- exllama (transformers/AutoGPTQ) dequantizes a whole layer into an fp16 scratch
  -- buffer (temp_dq, sized for the largest layer) for prompts; vLLM's Marlin kernels
  -- need only a few KiB of lock workspace. exllama v2 allocates one scratch per device for
  -- the largest layer's fixed space: temp_dq (in x out x 2 B + 128) plus temp_fwd for
  -- max_input_len 2048 x max_batch_size 8 rows of fp32 outputs (out x 2048 x 8 x 4 B + 128)
  -- (AutoGPTQ auto_gptq/nn_modules/qlinear/qlinear_exllamav2.py scratch_space_fixed and
  -- modeling/_utils.py autogptq_post_init, 0.5-0.7; LLaMA-7B's gate/up: 811,598,080 B).
  overhead = function(n, o, largest, ctx)
    if n.runtime == "vllm" or n.runtime == "sglang" then
      if o.kernel then
        error(("%s.kernel: selects the transformers / optimum exllama backend; %s picks its own GPTQ kernels"):format(
          ctx.field or "quant", n.runtime), 0)
      end
      return 0
    end
    if o.kernel == "exllamav2" then
      local best, desc = 0, nil
      each_quantized(ctx, function(out, inp)
        local b = inp * out * 2 + 128 + out * 2048 * 8 * 4 + 128
        if b > best then best, desc = b, ("%d x %d"):format(inp, out) end
      end)
      if best > 0 then
        return best, ("exllama v2 scratch: the largest layer's (%s) temp_dq and temp_fwd for 2048 x 8 input rows"):format(desc)
      end
    end
    -- with act-order, exllama v1 also reorders the input rows through temp_state:
    -- max_input_length (2048 by default, EXLLAMA_DEFAULT_MAX_INPUT_LENGTH) x the largest
    -- in / out dimension in fp16 (autogptq_post_init; 1 row without act-order)
    local dim = 0
    if o.desc_act then each_quantized(ctx, function(out, inp) dim = math.max(dim, out, inp) end) end
    if dim > 0 then
      return largest * 2 + 2048 * dim * 2,
             ("exllama fp16 dequantization scratch of the largest layer (%d elements x 2 B) and the act-order temp_state (2048 x %d x 2 B)"):format(largest, dim)
    end
    return largest * 2, ("exllama fp16 dequantization scratch of the largest layer (%d elements x 2 B)"):format(largest)
  end,
}
