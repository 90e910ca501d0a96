-- test_train_unet.lua: the UNet's saved activations walked level by level by
-- scripts/train_gen.lua (M.unet_activations), against hand arithmetic on a one-level UNet.
-- Run from the repository root: lua5.4 tests/lua/test_train_unet.lua
package.path = "scripts/?.lua;architectures/?.lua;" .. package.path
local ok, G = pcall(require, "train_gen")
local passed, failed = 0, 0
local function eq(what, got, want)
  if got == want then passed = passed + 1
  else failed = failed + 1; print(("FAIL %s: %s, expected %s"):format(what, tostring(got), tostring(want))) end
end
if not ok then failed = 1; print("FAIL require train_gen: " .. tostring(G)) else
  -- one level: 8 channels, 1 resnet per block, 2 heads, depth 1, 2x2 latent (hw 4), 3 text tokens
  local u = { channels = { 8 }, layers = 1, attn = { true }, heads = { 2 }, depth = { 1 }, in_channels = 4 }
  local r = G.unet_activations(u, 4, 3, true, true)
  -- resnet 8->8: (3x8 + 3x8) x 4 = 192; transformer: 3x8x4 = 96 outer + block 28 c x hw
  -- (28x8x4 = 896) + eager softmax 2 heads x 4 x (4 + 3) = 56 -> 1048; up resnets take the
  -- skip: cin 16: (48 + 24) x 4 = 288; conv_in 4x4 = 16; head 3x8x4 = 96.
  -- 16 + (192 + 1048) + (192 + 1048 + 192) + 2 x (288 + 1048) + 96 = 5456
  eq("one-level total", r.total, 5456)
  eq("largest block", r.block, 1048)
  -- checkpointed: block inputs 8x4 = 32 (x4: resnet, attn, mid resnet x2 + mid attn = 5 x 32),
  -- up resnet inputs 16x4 = 64 x2, up attn inputs 32 x2, plus conv_in 16 and head 96
  eq("checkpointed", r.ckpt, 5 * 32 + 2 * 64 + 2 * 32 + 16 + 96)
  -- eager scores, transient: 2 heads x 4 x 4 = 32 per self-attention; per stage (stem, down,
  -- mid, up, head) the largest; at hw 4 the head's 96 outweighs them: forward peak = total
  eq("scores", r.scores, 32)
  eq("stage scores", table.concat(r.stage_scores, ","), "0,32,32,32,0")
  eq("forward peak, small", r.fwd, 5456)
  -- hw 16: scores 2 x 16 x 16 = 512; resnet 48 x 16 = 768, transformer 384 + 28 x 8 x 16 +
  -- 2 x 16 x 19 = 4576, up resnet 72 x 16 = 1152, conv_in 64, head 384:
  -- total 64 + (768 + 4576) + (768 + 4576 + 768) + 2 x (1152 + 4576) + 384 = 23360; the last
  -- up attention sees all but the head (22976) plus its scores: 23488
  local b = G.unet_activations(u, 16, 3, true, true)
  eq("total hw 16", b.total, 23360)
  eq("forward peak hw 16", b.fwd, 23488)
  eq("no transient scores under sdpa", G.unet_activations(u, 16, 3, true, false).scores, 0)
  -- PEFT, SDPA: block 21 c + 2 c (SDPA outputs) = 23 x 8 x 4 = 736, no softmax
  local p = G.unet_activations(u, 4, 3, false, false)
  eq("one-level total, peft sdpa", p.total, 16 + 192 + (96 + 736) + 192 + (96 + 736) + 192 + 2 * (288 + 96 + 736) + 96)
end
print(("train-unet: %d passed, %d failed"):format(passed, failed))
