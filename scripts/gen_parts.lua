-- gen_parts.lua: tensor builders for the parts of diffusion pipelines shared by several
-- architecture scripts: CLIP text encoders, T5/umT5 encoders, the 2D AutoencoderKL,
-- small conv/linear helpers, and `pipeline()` which prefixes each component's tensors
-- with its diffusers folder name and tags them with their pipeline component.
-- Exact counts (shared/calibration/models_README.md): CLIP-L 123,060,480; OpenCLIP-bigG
-- with projection 694,659,840; T5-v1.1-XXL encoder 4,762,310,656; SD VAE 83,653,863;
-- FLUX VAE 83,819,683.
local nn = require "nn"
local P = {}

-- Linear with bias (most diffusion layers have one).
function P.lin(t, name, out, inp, opts)
  opts = opts or {}
  return nn.linear(t, name, out, inp, { count = opts.count, role = opts.role or "attn", bias = opts.bias ~= false })
end

-- ConvNd: weight {out, in, k...} and bias {out}.
function P.conv(t, name, out, inp, ks, opts)
  opts = opts or {}
  local shape = { out, inp }
  for _, k in ipairs(ks) do shape[#shape + 1] = k end
  nn.param(t, name .. ".weight", shape, { count = opts.count, role = opts.role or "other" })
  if opts.bias ~= false then nn.param(t, name .. ".bias", { out }, { count = opts.count, role = opts.role or "other" }) end
  return t
end

-- GroupNorm / LayerNorm with affine weight and bias.
function P.gnorm(t, name, c, count) return nn.norm(t, name, c, { bias = true, count = count }) end

-- diffusers Attention under prefix p: to_q, to_k, to_v (keys and values from kv_in, d by
-- default), to_out.0; opts.qkv_bias = false drops the q/k/v biases (the UNets', Mochi's);
-- opts.qk_norm = width adds norm_q, norm_k (RMSNorm, LayerNorm with bias when opts.norm_bias).
function P.attn(t, p, d, kv_in, count, opts)
  opts = opts or {}
  local qkv = { count = count, bias = opts.qkv_bias }
  P.lin(t, p .. ".to_q", d, d, qkv)
  P.lin(t, p .. ".to_k", d, kv_in or d, qkv)
  P.lin(t, p .. ".to_v", d, kv_in or d, qkv)
  P.lin(t, p .. ".to_out.0", d, d, { count = count })
  if opts.qk_norm then
    for _, q in ipairs { "norm_q", "norm_k" } do nn.norm(t, p .. "." .. q, opts.qk_norm, { bias = opts.norm_bias, count = count }) end
  end
  return t
end

-- diffusers FeedForward under prefix p: net.0.proj (d -> F, 2F when opts.gated: GEGLU,
-- SwiGLU), net.2 (F -> d); biased unless opts.bias == false.
function P.ff(t, p, d, F, count, opts)
  opts = opts or {}
  local o = { count = count, role = "mlp", bias = opts.bias }
  P.lin(t, p .. ".net.0.proj", opts.gated and 2 * F or F, d, o)
  return P.lin(t, p .. ".net.2", d, F, o)
end

-- Two-layer timestep or text MLP: linear_1 (in -> d), linear_2 (d -> out).
function P.mlp2(t, prefix, inp, d, out, count)
  P.lin(t, prefix .. ".linear_1", d, inp, { count = count, role = "mlp" })
  return P.lin(t, prefix .. ".linear_2", out or d, d, { count = count, role = "mlp" })
end

-- ------------------------------------------------------------------ text encoders

-- transformers' T5EncoderModel (children shared, encoder) and CLIPTextModel(WithProjection)
-- (text_model[, text_projection]) hold their layers one module down (encoder.block,
-- text_model.encoder.layers), no ModuleList among their direct children. diffusers' block-level
-- group offload groups only the direct ModuleList / Sequential children of the module it is
-- given (hooks/group_offloading.py _apply_group_offloading_block_level; the named block_modules
-- recursion of PR #12692 reads diffusers' own _group_offload_block_modules, which transformers'
-- classes lack): everything else joins one "unmatched" group onloaded for the module's forward,
-- so apply_group_offloading(text_encoder, offload_type="block_level") onloads the whole encoder
-- (src/gen.c gen_phases). Tagged per tensor; scripts/workloads/image.lua reads the tag per component.
local function whole_under_block_level(t)
  for _, x in ipairs(t) do x.group_whole = true end
  return t
end

-- CLIPTextModel (proj = nil) or CLIPTextModelWithProjection (proj = width).
function P.clip_text(c)
  local t, d, L, F = {}, c.hidden, c.layers, c.ffn
  nn.embed(t, "text_model.embeddings.token_embedding", c.vocab or 49408, d)
  nn.embed(t, "text_model.embeddings.position_embedding", c.positions or 77, d, { role = "pos_embed" })
  local b = "text_model.encoder.layers.*."
  for _, p in ipairs { "q_proj", "k_proj", "v_proj", "out_proj" } do P.lin(t, b .. "self_attn." .. p, d, d, { count = L }) end
  P.gnorm(t, b .. "layer_norm1", d, L)
  P.lin(t, b .. "mlp.fc1", F, d, { count = L, role = "mlp" })
  P.lin(t, b .. "mlp.fc2", d, F, { count = L, role = "mlp" })
  P.gnorm(t, b .. "layer_norm2", d, L)
  P.gnorm(t, "text_model.final_layer_norm", d)
  if c.proj then nn.linear(t, "text_projection", c.proj, d, { role = "other" }) end
  return whole_under_block_level(t)
end

P.CLIP_L = { hidden = 768, layers = 12, ffn = 3072 }
P.CLIP_G = { hidden = 1280, layers = 32, ffn = 5120, proj = 1280 }

-- T5EncoderModel (v1.1 gated-GELU). per_layer_bias: umT5 keeps a relative attention
-- bias in every layer. The FFN output 'wo' is in T5's _keep_in_fp32_modules: marked
-- keep_fp32 so that fp16 loading and bitsandbytes leave it in fp32.
function P.t5_encoder(c)
  local t, d, L, F, nh, dkv = {}, c.d_model or 4096, c.layers or 24, c.d_ff or 10240, c.heads or 64, c.d_kv or 64
  local inner = nh * dkv
  nn.embed(t, "shared", c.vocab or 32128, d)
  local b = "encoder.block.*.layer."
  for _, p in ipairs { "q", "k", "v" } do nn.linear(t, b .. "0.SelfAttention." .. p, inner, d, { count = L }) end
  nn.linear(t, b .. "0.SelfAttention.o", d, inner, { count = L })
  nn.embed(t, (c.per_layer_bias and b or "encoder.block.0.layer.") .. "0.SelfAttention.relative_attention_bias",
    32, nh, { role = "pos_embed", count = c.per_layer_bias and L or 1 })
  nn.norm(t, b .. "0.layer_norm", d, { count = L })
  nn.linear(t, b .. "1.DenseReluDense.wi_0", F, d, { count = L, role = "mlp" })
  nn.linear(t, b .. "1.DenseReluDense.wi_1", F, d, { count = L, role = "mlp" })
  nn.linear(t, b .. "1.DenseReluDense.wo", d, F, { count = L, role = "mlp" })
  t[#t].keep_fp32 = true
  nn.norm(t, b .. "1.layer_norm", d, { count = L })
  nn.norm(t, "encoder.final_layer_norm", d)
  return whole_under_block_level(t)
end


-- A decoder-only LLM used as a text encoder (its hidden states, no lm_head): Llama
-- layout (HunyuanVideo's LLaVA-Llama-3-8B), Qwen2 layout with qkv biases (Qwen-Image's
-- Qwen2.5-VL-7B language model). The vision tower, when kept, is c.extra params.
function P.llm_encoder(c)
  local t, d, L, F = {}, c.hidden, c.layers, c.ffn
  local hd = d // c.heads
  nn.embed(t, "model.embed_tokens", c.vocab, d)
  local b = "model.layers.*."
  nn.linear(t, b .. "self_attn.q_proj", d, d, { count = L, bias = c.qkv_bias })
  nn.linear(t, b .. "self_attn.k_proj", c.kv_heads * hd, d, { count = L, bias = c.qkv_bias })
  nn.linear(t, b .. "self_attn.v_proj", c.kv_heads * hd, d, { count = L, bias = c.qkv_bias })
  nn.linear(t, b .. "self_attn.o_proj", d, d, { count = L })
  for _, p in ipairs { "gate_proj", "up_proj" } do nn.linear(t, b .. "mlp." .. p, F, d, { count = L, role = "mlp" }) end
  nn.linear(t, b .. "mlp.down_proj", d, F, { count = L, role = "mlp" })
  nn.norm(t, b .. "input_layernorm", d, { count = L })
  nn.norm(t, b .. "post_attention_layernorm", d, { count = L })
  nn.norm(t, "model.norm", d)
  if c.extra then nn.param(t, "visual.params", { c.extra }) end
  return t
end

-- ------------------------------------------------------------------ 2D VAE

-- ResnetBlock2D: norm1, conv1, [time_emb_proj], norm2, conv2, [conv_shortcut 1x1].
-- K: the kernel ({3, 3} by default; {3, 3, 3} for the causal 3D video VAEs).
function P.resnet2d(t, p, cin, cout, temb, count, K)
  K = K or { 3, 3 }
  local one = #K == 3 and { 1, 1, 1 } or { 1, 1 }
  P.gnorm(t, p .. ".norm1", cin, count)
  P.conv(t, p .. ".conv1", cout, cin, K, { count = count })
  if temb then P.lin(t, p .. ".time_emb_proj", cout, temb, { count = count, role = "other" }) end
  P.gnorm(t, p .. ".norm2", cout, count)
  P.conv(t, p .. ".conv2", cout, cout, K, { count = count })
  if cin ~= cout then P.conv(t, p .. ".conv_shortcut", cout, cin, one, { count = count }) end
end

-- The VAE mid block: resnet, single-head attention (group_norm, to_q/k/v, to_out.0), resnet.
local function vae_mid(t, p, c, K)
  P.resnet2d(t, p .. ".resnets.0", c, c, nil, nil, K)
  P.resnet2d(t, p .. ".resnets.1", c, c, nil, nil, K)
  P.gnorm(t, p .. ".attentions.0.group_norm", c)
  for _, q in ipairs { "to_q", "to_k", "to_v", "to_out.0" } do P.lin(t, p .. ".attentions.0." .. q, c, c) end
end

-- AutoencoderKL: c = { block_out = {...}, layers = 2, latent = 4, quant_conv = true }.
-- With c.k3d the convolutions are 3x3x3: the layout of the causal video VAEs
-- (HunyuanVideo, CogVideoX, Wan, LTX, Mochi), whose published counts this generic
-- layout does not reproduce exactly (time up/downsamplers and norms differ per family);
-- their share of a pipeline's memory is below 1%.
function P.vae_kl(c)
  local t, ch, L, z = {}, c.block_out, c.layers or 2, c.latent or 4
  local n = #ch
  local K = c.k3d and { 3, 3, 3 } or { 3, 3 }
  local one = c.k3d and { 1, 1, 1 } or { 1, 1 }
  P.conv(t, "encoder.conv_in", ch[1], c.in_ch or 3, K)
  local prev = ch[1]
  for i = 1, n do
    for j = 0, L - 1 do P.resnet2d(t, ("encoder.down_blocks.%d.resnets.%d"):format(i - 1, j), j == 0 and prev or ch[i], ch[i], nil, nil, K) end
    if i < n then P.conv(t, ("encoder.down_blocks.%d.downsamplers.0.conv"):format(i - 1), ch[i], ch[i], K) end
    prev = ch[i]
  end
  vae_mid(t, "encoder.mid_block", ch[n], K)
  P.gnorm(t, "encoder.conv_norm_out", ch[n])
  P.conv(t, "encoder.conv_out", 2 * z, ch[n], K)
  if c.quant_conv ~= false then
    P.conv(t, "quant_conv", 2 * z, 2 * z, one)
    P.conv(t, "post_quant_conv", z, z, one)
  end
  -- a decoder wider than the encoder (Wan2.2's VAE: dec_dim 256 against dim 160,
  -- Wan-Video/Wan2.2 @42bf4cf wan/modules/vae2_2.py WanVAE_ / Decoder3d)
  ch = c.dec_block_out or ch
  P.conv(t, "decoder.conv_in", ch[n], z, K)
  vae_mid(t, "decoder.mid_block", ch[n], K)
  prev = ch[n]
  for i = 1, n do
    local out = ch[n - i + 1]
    for j = 0, L do P.resnet2d(t, ("decoder.up_blocks.%d.resnets.%d"):format(i - 1, j), j == 0 and prev or out, out, nil, nil, K) end
    if i < n then P.conv(t, ("decoder.up_blocks.%d.upsamplers.0.conv"):format(i - 1), out, out, K) end
    prev = out
  end
  P.gnorm(t, "decoder.conv_norm_out", ch[1])
  P.conv(t, "decoder.conv_out", c.out_ch or 3, ch[1], K)
  return t
end

-- Wan2.2's VAE (Wan2_2_VAE), conv by conv as Wan-Video/Wan2.2 @bf69229 wan/modules/vae2_2.py
-- builds it (the parameter count is the same at @42bf4cf, the commit genv25 read), under diffusers'
-- AutoencoderKLWan names (is_residual). c = { dim = 160, dec_dim = 256, z = 48 }:
--   Encoder3d: conv1 CausalConv3d(12 -> dim, 3) (the 2x2-patchified RGB: patchify, 12 channels);
--     per level i of dims = dim x 1, 1, 2, 4, 4 a Down_ResidualBlock of num_res_blocks = 2
--     ResidualBlocks (RMS_norm gamma, 3x3x3 conv, RMS_norm gamma, 3x3x3 conv, a 1x1x1 shortcut
--     where the width changes; AvgDown3D has no weights) and, but for the last level, a Resample:
--     Conv2d(d, d, 3) plus, with temperal_downsample = False, True, True (Wan2_2_VAE), a
--     time_conv CausalConv3d(d, d, (3, 1, 1)); middle: 2 ResidualBlocks and an AttentionBlock
--     (RMS_norm gamma, to_qkv 1x1 d -> 3d, proj 1x1); head: RMS_norm, CausalConv3d(d -> 2 z, 3).
--   WanVAE_.conv1 CausalConv3d(2 z, 2 z, 1), conv2 CausalConv3d(z, z, 1).
--   Decoder3d (dims = dec_dim x 4, 4, 4, 2, 1): conv1 CausalConv3d(z -> 4 dec_dim, 3), the same
--     middle, then per level an Up_ResidualBlock of num_res_blocks + 1 = 3 ResidualBlocks and, but
--     for the last, a Resample: Conv2d(d, d, 3) plus, with temperal_upsample = True, True, False,
--     a time_conv CausalConv3d(d, 2 d, (3, 1, 1)) (DupUp3D has no weights); head: RMS_norm,
--     CausalConv3d(dec_dim -> 12, 3).
-- 704,688,668 parameters (encoder 149,627,776, decoder 555,049,228, conv1 / conv2 11,664):
-- 2.625 GiB in fp32, as zysno1/Wan2.2-Enhanced printed for the VAE alone (2.63 GiB,
-- benchmark_report_RTX_PRO_6000_Blackwell_Server_Edition.md @4ca4175; test_holdout25_wanvae).
local function rms(t, name, d) nn.norm(t, name, d, { bias = false }) end
local function wan_res(t, p, cin, cout)
  local K = { 3, 3, 3 }
  rms(t, p .. ".norm1", cin)
  P.conv(t, p .. ".conv1", cout, cin, K)
  rms(t, p .. ".norm2", cout)
  P.conv(t, p .. ".conv2", cout, cout, K)
  if cin ~= cout then P.conv(t, p .. ".conv_shortcut", cout, cin, { 1, 1, 1 }) end
end
local function wan_mid(t, p, d)
  wan_res(t, p .. ".resnets.0", d, d)
  rms(t, p .. ".attentions.0.norm", d)
  P.conv(t, p .. ".attentions.0.to_qkv", 3 * d, d, { 1, 1 })
  P.conv(t, p .. ".attentions.0.proj", d, d, { 1, 1 })
  wan_res(t, p .. ".resnets.1", d, d)
end
function P.wan22_vae(c)
  local t, z, mult = {}, c.z or 48, { 1, 2, 4, 4 }
  local tdown, tup = { false, true, true }, { true, true, false }
  -- encoder
  local dim = c.dim or 160
  P.conv(t, "encoder.conv_in", dim, 12, { 3, 3, 3 })
  local prev = dim
  for i = 1, #mult do
    local out = dim * mult[i]
    for j = 0, 1 do wan_res(t, ("encoder.down_blocks.%d.resnets.%d"):format(i - 1, j), j == 0 and prev or out, out) end
    if i < #mult then
      local q = ("encoder.down_blocks.%d.downsampler"):format(i - 1)
      P.conv(t, q .. ".resample.1", out, out, { 3, 3 })
      if tdown[i] then P.conv(t, q .. ".time_conv", out, out, { 3, 1, 1 }) end
    end
    prev = out
  end
  wan_mid(t, "encoder.mid_block", prev)
  rms(t, "encoder.norm_out", prev)
  P.conv(t, "encoder.conv_out", 2 * z, prev, { 3, 3, 3 })
  P.conv(t, "quant_conv", 2 * z, 2 * z, { 1, 1, 1 })
  P.conv(t, "post_quant_conv", z, z, { 1, 1, 1 })
  -- decoder
  local dd = c.dec_dim or 256
  prev = dd * mult[#mult]
  P.conv(t, "decoder.conv_in", prev, z, { 3, 3, 3 })
  wan_mid(t, "decoder.mid_block", prev)
  for i = 1, #mult do
    local out = dd * mult[#mult - i + 1]
    for j = 0, 2 do wan_res(t, ("decoder.up_blocks.%d.resnets.%d"):format(i - 1, j), j == 0 and prev or out, out) end
    if i < #mult then
      local q = ("decoder.up_blocks.%d.upsampler"):format(i - 1)
      P.conv(t, q .. ".resample.1", out, out, { 3, 3 })
      if tup[i] then P.conv(t, q .. ".time_conv", 2 * out, out, { 3, 1, 1 }) end
    end
    prev = out
  end
  rms(t, "decoder.norm_out", prev)
  P.conv(t, "decoder.conv_out", 12, prev, { 3, 3, 3 })
  return t
end

P.SD_VAE = { block_out = { 128, 256, 512, 512 }, latent = 4 }
P.FLUX_VAE = { block_out = { 128, 256, 512, 512 }, latent = 16, quant_conv = false }
-- The Wan2.1 causal 3D VAE (base 96 channels, multipliers 1,2,4,4, z 16); Qwen-Image's
-- AutoencoderKLQwenImage has the same shape.
P.WAN_VAE = { block_out = { 96, 192, 384, 384 }, latent = 16, k3d = true }

-- Elements per output pixel x frame the Wan 3D causal VAE decoder (Wan2.1's WanVAE, diffusers'
-- AutoencoderKLWan and AutoencoderKLQwenImage: the same CausalConv3d / feat_cache code) holds at
-- its peak, the end of the last full-resolution residual block. Every causal 3x3x3 conv keeps
-- the last CACHE_T = 2 frames of its input in feat_cache until the decode ends (one frame in the
-- first chunk, which has no earlier frames); the conv in flight holds the block's input (the
-- shortcut), the activation, the input padded in time and the output; a later chunk first
-- concatenates the two cached frames ahead of its own (torch.cat, then F.pad: both live). The
-- decoder runs the mid block and up block 0 at 1/8 resolution, 1 at 1/4, 2 at 1/2 and 3 at full
-- resolution, num_res_blocks + 1 residual blocks each; upsample3d doubles the frames of a later
-- chunk (its first chunk keeps one frame: "Rep", no time_conv) and caches 2 frames of its input.
-- first = true: the first chunk, one latent frame decoded to one frame (Qwen-Image's images);
-- false: a later chunk, one latent frame decoded to 4 (the Wan video decode the "wan" family's
-- VAE constant is calibrated on, src/gen.c).
function P.wan_vae_decode_elems(c, first)
  local ch, L = c.block_out, (c.layers or 2) + 1
  local top = ch[#ch]
  local T = first and 1 or 4 -- output frames of the chunk
  local cache = first and 1 or 2 -- frames each conv keeps
  local held, f = 0, 1
  local function convs(n, cin, cout, area, frames)
    -- n residual blocks at `area` of the output resolution; the first may change the width
    local c0 = math.min(cache, frames)
    held = held + c0 * (cin + cout) * area + (n - 1) * 2 * c0 * cout * area
  end
  -- mid block (2 residual blocks) and up block 0 at 1/8, one latent frame
  convs(2, top, top, 1 / 64, first and 1 or 2) -- a later chunk's 1-frame input caches 2 (cat of the last)
  convs(L, top, top, 1 / 64, first and 1 or 2)
  if not first then held = held + 2 * top / 64; f = 2 end -- upsample3d time_conv cache
  convs(L, top // 2, ch[3], 1 / 16, first and 1 or f)
  if not first then held = held + 2 * ch[3] / 16; f = 4 end
  convs(L, ch[3] // 2, ch[2], 1 / 4, first and 1 or f)
  -- up block 3 at full resolution: all caches but conv_out's exist at its last conv
  local c1 = ch[1]
  held = held + (L * 2 - 1) * math.min(cache, T) * c1 + math.min(cache, T) * c1
  -- the conv in flight: shortcut + activation + the padded input (cat of cache + frames, and
  -- its padded copy for a later chunk; the frame and its 2 zero frames for the first)
  local work = first and (T + T + (T + 2) + T) or (T + T + (T + 2) + (T + 2))
  return (held + work * c1) / T
end

-- ------------------------------------------------------------------ MMDiT blocks

-- FLUX/HunyuanVideo/Qwen-Image double-stream blocks (separate image and text weights, joint
-- attention). names: the image and text modulation linears and MLPs (diffusers' FLUX names
-- by default; Qwen-Image: img_mod.1/txt_mod.1, img_mlp/txt_mlp).
function P.double_blocks(t, d, F, hd, n, names)
  names = names or { mod = { "norm1.linear", "norm1_context.linear" }, ff = { "ff", "ff_context" } }
  local b = "transformer_blocks.*."
  for _, m in ipairs(names.mod) do P.lin(t, b .. m, 6 * d, d, { count = n, role = "other" }) end
  for _, q in ipairs { "to_q", "to_k", "to_v", "add_q_proj", "add_k_proj", "add_v_proj", "to_out.0", "to_add_out" } do
    P.lin(t, b .. "attn." .. q, d, d, { count = n })
  end
  for _, q in ipairs { "norm_q", "norm_k", "norm_added_q", "norm_added_k" } do nn.norm(t, b .. "attn." .. q, hd, { count = n }) end
  for _, f in ipairs(names.ff) do P.ff(t, b .. f, d, F, n) end
end

-- Single-stream blocks: fused attention and MLP input, one output projection.
function P.single_blocks(t, d, F, hd, n)
  local b = "single_transformer_blocks.*."
  P.lin(t, b .. "norm.linear", 3 * d, d, { count = n, role = "other" })
  P.lin(t, b .. "proj_mlp", F, d, { count = n, role = "mlp" })
  P.lin(t, b .. "proj_out", d, d + F, { count = n, role = "mlp" })
  for _, q in ipairs { "to_q", "to_k", "to_v" } do P.lin(t, b .. "attn." .. q, d, d, { count = n }) end
  for _, q in ipairs { "norm_q", "norm_k" } do nn.norm(t, b .. "attn." .. q, hd, { count = n }) end
end

-- HunyuanVideo's token refiner over the LLM's hidden states (context_embedder): timestep and
-- pooled-text embedders, proj_in (inp -> d), n refiner blocks (LayerNorms with bias, biased
-- self-attention, a 4d SiLU feed-forward, an adaLN gate linear d -> 2d). HunyuanVideo-1.5's
-- HunyuanVideo15TokenRefiner has the same layout.
function P.token_refiner(t, d, inp, n)
  P.mlp2(t, "context_embedder.time_text_embed.timestep_embedder", 256, d)
  P.mlp2(t, "context_embedder.time_text_embed.text_embedder", inp, d)
  P.lin(t, "context_embedder.proj_in", d, inp, { role = "other" })
  local b = "context_embedder.token_refiner.refiner_blocks.*."
  P.gnorm(t, b .. "norm1", d, n)
  P.attn(t, b .. "attn", d, d, n)
  P.gnorm(t, b .. "norm2", d, n)
  P.ff(t, b .. "ff", d, 4 * d, n)
  P.lin(t, b .. "norm_out.linear", 2 * d, d, { count = n, role = "other" })
end

-- FluxTransformer2DModel (also Open-Sora 2.0's MMDiT): returns tensors, hidden, ffn, heads.
function P.flux_transformer(c)
  local hd, nh = nn.int(c, "attention_head_dim", 128), nn.int(c, "num_attention_heads", 24)
  local d = hd * nh
  local F = math.floor(d * (c.mlp_ratio or 4.0))
  local inc = nn.int(c, "in_channels", 64)
  local t = {}
  P.mlp2(t, "time_text_embed.timestep_embedder", 256, d)
  if c.guidance_embeds ~= false then P.mlp2(t, "time_text_embed.guidance_embedder", 256, d) end
  P.mlp2(t, "time_text_embed.text_embedder", nn.int(c, "pooled_projection_dim", 768), d)
  -- context_embedder and x_embedder are nn.Linear (transformer_flux.py), not embedding tables:
  -- bitsandbytes (replace_with_bnb_linear), torchao (quantize_'s nn.Linear filter) and layerwise
  -- casting take them, so the Linear role "other" (as HiDream's caption projections)
  P.lin(t, "context_embedder", d, nn.int(c, "joint_attention_dim", 4096), { role = "other" })
  P.lin(t, "x_embedder", d, inc, { role = "other" })
  P.double_blocks(t, d, F, hd, nn.int(c, "num_layers", 19))
  P.single_blocks(t, d, F, hd, nn.int(c, "num_single_layers", 38))
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  P.lin(t, "proj_out", nn.int(c, "out_channels", inc), d, { role = "other" })
  return t, d, F, nh
end

-- ------------------------------------------------------------------ assembly

local COMPONENTS = { text_encoder = true, text_encoder_2 = true, text_encoder_3 = true, text_encoder_4 = true,
                     image_encoder = true, face_encoder = true,
                     denoiser = true, vae = true }

-- pipeline(parts): parts = { { component, folder, tensors }, ... } -> one tensor list
-- whose names carry the folder ("transformer.x_embedder.weight") and whose entries
-- carry `component`.
function P.pipeline(parts)
  local out = {}
  for _, part in ipairs(parts) do
    local comp, folder, list = part[1], part[2], part[3]
    if not COMPONENTS[comp] then error("gen_parts: unknown component " .. tostring(comp), 2) end
    for _, x in ipairs(list) do
      x.name = folder .. "." .. x.name
      x.component = comp
      out[#out + 1] = x
    end
  end
  return out
end

-- Params of one component of a tensor list.
function P.params(list, comp)
  local total = 0
  for _, x in ipairs(list) do
    if comp == nil or x.component == comp then
      local p = x.count or 1
      for _, d in ipairs(x.shape) do p = p * d end
      total = total + p
    end
  end
  return total
end

-- description(d): the fields every pipeline description shares. d = { arch, hidden,
-- layers, heads, ffn, tensors, pipeline }.
function P.description(d)
  return {
    arch = d.arch, family = "encoder", hidden = d.hidden, layers = d.layers, heads = d.heads,
    head_dim = d.head_dim or d.hidden // d.heads, intermediate = d.ffn, tensors = d.tensors,
    block = { q_dim = d.hidden, kv_dim = d.hidden, ffn_dim = d.ffn, gated = false, norm = "layer" },
    pipeline = d.pipeline,
  }
end

return P
