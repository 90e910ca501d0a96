-- mxfp4.lua: OCP microscaling FP4 as gpt-oss ships its MoE experts: per block of 32 values
-- along the contraction dimension, 16 B of E2M1 nibbles + 1 B E8M0 scale = 17 B.
--   <name>_blocks uint8 [..., rows, in/32, 16]   <name>_scales uint8 [..., rows, in/32]
-- Source: openai/gpt-oss-20b model.safetensors.index.json (gate_up_proj_blocks/_scales,
-- down_proj_blocks/_scales) and transformers integrations/mxfp4.py; only the experts are
-- MXFP4, every other tensor (attention, router, embeddings, biases, sinks) stays bf16.
-- Check: gpt-oss-20b totals 13,761,264,768 B, its index's metadata.total_size
-- (https://huggingface.co/openai/gpt-oss-20b/blob/main/model.safetensors.index.json).
return {
  name = "mxfp4",
  summary = "MXFP4 (32-element blocks: 16 B E2M1 + 1 B E8M0 scale), MoE experts only (gpt-oss)",
  aliases = { "mx-fp4", "mxfp4-moe" },
  options = { targets = { "experts", "linear" } },
  defaults = { targets = "experts" },
  tensor = function(t, o, ctx)
    local q = ctx.q
    if #t.shape < 2 or t.name:find("bias$") then return nil end
    local expert = t.role == "expert"
    if o.targets == "experts" and not expert then return nil end
    if o.targets == "linear" and not (expert or q.is_linear(t)) or t.role == "lm_head" then return nil end
    local out, inp = q.dims(t, ctx.desc)
    if inp % 32 ~= 0 then return nil end
    return { bytes = out * (inp // 32) * 17, dtype = "fp4", qtype = "mxfp4" }
  end,
}
