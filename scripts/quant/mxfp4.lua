-- mxfp4.lua: OCP microscaling FP4 as gpt-oss ships its MoE experts: per block of 32 values
-- along the contraction dimension, 16 B of E2M1 nibbles + 1 B E8M0 scale = 17 B.
--   <name>_blocks uint8 [..., rows, in/32, 16]   <name>_scales uint8 [..., rows, in/32]
-- Source: openai/gpt-oss-20b model.safetensors.index.json (gate_up_proj_blocks/_scales,
-- down_proj_blocks/_scales) and transformers integrations/mxfp4.py; only the experts are
-- MXFP4, every other tensor (attention, router, embeddings, biases, sinks) stays bf16.
-- Check: gpt-oss-20b totals 13,761,264,768 B, its index's metadata.total_size
-- (https://huggingface.co/openai/gpt-oss-20b/blob/main/model.safetensors.index.json).
-- Option router = "f32": the routers (ffn_gate_inp) stored in F32, as ollama's converter writes its
-- gpt-oss blob (ollama convert/reader.go tensorBase.Kind: ".ffn_gate_inp.weight" is always F32, the
-- other 2-D tensors keep the source type): gpt-oss-120b 36 x 128 x 2880 x 2 B = 25.31 MiB more than
-- the bf16 checkpoint (ollama/ollama#16416: ROCm0 model 61223 MiB, tests/test_holdout25_llamacpp.c).
return {
  name = "mxfp4",
  summary = "MXFP4 (32-element blocks: 16 B E2M1 + 1 B E8M0 scale), MoE experts only (gpt-oss)",
  aliases = { "mx-fp4", "mxfp4-moe" },
  options = { targets = { "experts", "linear" }, router = { "bf16", "f32" } },
  defaults = { targets = "experts", router = "bf16" },
  quantize_routers = function(o) return o.router == "f32" end,
  tensor = function(t, o, ctx)
    local q = ctx.q
    if #t.shape < 2 or t.name:find("bias$") then return nil end
    if t.role == "router" then
      if o.router ~= "f32" then return nil end
      local out, inp = q.dims(t, ctx.desc)
      return { bytes = out * inp * 4, dtype = "fp32" }
    end
    local expert = t.role == "expert"
    if o.targets == "experts" and not expert then return nil end
    if o.targets == "linear" and not (expert or q.is_linear(t)) or t.role == "lm_head" then return nil end
    local out, inp = q.dims(t, ctx.desc)
    if inp % 32 ~= 0 then return nil end
    return { bytes = out * (inp // 32) * 17, dtype = "fp4", qtype = "mxfp4" }
  end,
}
