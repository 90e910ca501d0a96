-- train_gen.lua: training the denoiser of a diffusion or video pipeline on latents
-- (DreamBooth/LoRA scripts of diffusers, cogvideox-factory, finetrainers). The tokens of one
-- training sample come from the scenario's width, height and frames through the
-- description's `pipeline` table (VAE factor, temporal compression, patch size, joint
-- text tokens), as workloads/image.lua derives them for generation; only the denoiser's
-- tensors are trainable (and the text encoder's with train_text_encoder); the text encoders
-- and the VAE are frozen, cast to the load dtype, and on the GPU unless text_encoders is
-- "cpu" or "none". A UNet's saved activations are walked level by level
-- (M.unet_activations). Used by workloads/train.lua.
local E = require "engine"
local fail, int_field, bool_field, enum_field = E.fail, E.int_field, E.bool_field, E.enum_field
local M = {}

local DEFAULT_SIDE = { unet = 512, dit = 1024, mmdit = 1024 }

-- VAE encoding every step (no precomputed latents): live tensors per (pixel x frame x
-- channel of the encoder's first, full-resolution level) at the load dtype: the block input,
-- the norm and activation outputs and the conv output, counted from a GroupNorm resnet
-- block under no_grad. A pipeline's `vae_encode_tensors` overrides it where measured
-- (LTX-Video 5: its RMSNorm's fp32 copy; HunyuanVideo 3, refitted to
-- finetrainers-hunyuanvideo-lora-r128-noprecompute, see architectures/hunyuanvideo.lua).
local ENCODE_TENSORS = 4
-- Channels of the encoder's first level when the pipeline does not say: assumed, the 128
-- of the HunyuanVideo VAE (block_out_channels[1]) that ENCODE_TENSORS was fitted with.
local VAE_PEAK_CHANNELS = 128

-- SAT (THUDM/CogVideo sat/, the CogVideoX fine-tuning recipe of 6d7f6e86): shared_step
-- (sat/diffusion_video.py lines 136-151) encodes the whole clip at once through
-- VideoAutoencoderInferenceWrapper (no frame batches: en_and_decode_n_samples_a_time unset in
-- the configs), then runs gc.collect(); torch.cuda.empty_cache() before the DiT's forward.
-- Every 3D conv of its encoder is a ContextParallelCausalConv3d (sat/vae_modules/
-- cp_enc_dec.py lines 384-430): the input gets two leading copies of its first frame
-- (torch.cat over the transposed time axis, then .contiguous(): two copies of T + 2 frames
-- alive at once), then F.pad's spatial copy, then SafeConv3d (sat/vae_modules/utils.py lines
-- 72-91): when the padded input's numel x 2 / 2^30 exceeds 2 it is cut along time by
-- torch.chunk into floor(that / 2) + 1 parts, every part after the first copied with the 2
-- frames before it, every part's output kept in a list and torch.cat'ed at the end. The peak
-- is a full-resolution resnet block's conv (cp_enc_dec.py lines 676-713): the block input x
-- and the activation h stay referenced by the caller while the padded copy, the chunk
-- copies, the outputs and their concatenation are alive. Bytes, at the VAE's dtype.
local SAFE_CONV_GIB = 2 -- SafeConv3d's threshold, utils.py line 76: memory_count > 2
function M.sat_encode_bytes(B, C, T, H, W, e)
  local plane, pplane = B * C * H * W * e, B * C * (H + 2) * (W + 2) * e
  local U, Ucat, Upad = plane * T, plane * (T + 2), pplane * (T + 2)
  local peak = 2 * U + 2 * Ucat                 -- x, h, the cat and its contiguous copy
  peak = math.max(peak, 2 * U + Ucat + Upad)    -- F.pad beside the contiguous input
  local mc = B * C * (T + 2) * (H + 2) * (W + 2) * 2 / 2 ^ 30
  if mc <= SAFE_CONV_GIB then return math.max(peak, 3 * U + Upad) end -- one conv, its output
  local n = math.floor(mc / 2) + 1
  local cs = -(-(T + 2) // n)                   -- torch.chunk: parts of ceil(len / n)
  local copies, left = 0, T + 2 - cs
  while left > 0 do                             -- parts 2.. with their 2 leading frames
    copies = copies + (math.min(cs, left) + 2) * pplane
    left = left - cs
  end
  return math.max(peak, 2 * U + Upad + copies + 2 * U) -- + the outputs (T frames) and their cat
end
local Q = require "quant"

local note = E.note

-- width/height checked as the generation workload checks them (workloads/image.lua)
local function side(w, key, p, n)
  local dflt = p.default_side or DEFAULT_SIDE[p.kind] or 1024
  return require("workloads.image").check_side(w, key, p, dflt, n)
end

local function frames_of(w, p)
  local ts = p.vae_tscale
  if not ts then
    if w.frames ~= nil and w.frames ~= 1 then fail("workload.frames", "an image pipeline trains on single images (frames 1)") end
    return 1, 1
  end
  if w.frames == nil then fail("workload.frames", "missing (frames of each training video, e.g. 49)") end
  local f = int_field(w.frames, "workload.frames", 1, 100000)
  if (f - 1) % ts ~= 0 then
    fail("workload.frames", "%d frames: the VAE compresses time %dx, so frames must be %d k + 1", f, ts, ts)
  end
  return f, (f - 1) // ts + 1
end

-- Per token and layer, elements a DiT block saves beyond the LLM-shaped block that
-- src/train.c models: q/k norms keep their inputs (2h); a cross-attention block (text not
-- in the sequence) its norm input, query and output (3h); adaLN modulation and gating
-- keep the normalised and the gated tensors when the modulation is trained (4h). Counted
-- from the diffusers blocks (attention_processor.py, normalization.py AdaLayerNorm*), not
-- fitted; finetrainers-cogvideox5b-full-precompute lands within 2%.
local function block_extra(desc, p, full)
  local h, qk = desc.hidden, false
  for _, t in ipairs(desc.tensors) do
    if t.component == "denoiser" and t.name:find("norm_q", 1, true) then qk = true; break end
  end
  local e = 0
  if qk then e = e + 2 * h end
  if not p.joint then e = e + 3 * h end
  if full and p.kind ~= "unet" then e = e + 4 * h end
  return e
end

-- The trainable description: the denoiser's tensors, and the text encoder's when it is
-- trained too (diffusers --train_text_encoder).
local function denoiser_desc(desc, with_te)
  local t = {}
  for _, x in ipairs(desc.tensors) do
    if x.component == "denoiser" or (with_te and x.component == "text_encoder") then t[#t + 1] = x end
  end
  return { tensors = t, hidden = desc.hidden, arch = desc.arch }
end

-- UNet2DConditionModel saved activations, elements per sample (diffusers unet_2d_blocks.py,
-- resnet.py, attention.py). ResnetBlock2D(cin -> c): norm1 input, its output (the SiLU
-- input), the SiLU output (conv1 input), conv1 + temb (norm2 input), norm2 output, SiLU
-- output (conv2 input): 3 cin + 3 c per pixel; convolutions save their input whether the
-- weight is trained or not (one derivative formula for input and weight). Transformer2DModel:
-- GroupNorm input, proj_in and proj_out inputs (3 c) and per BasicTransformerBlock: norm1/2/3
-- inputs (3 c), q k v (3 c), cross q (c), the GEGLU projection (8 c, kept whole by the gate
-- view) and GELU output (4 c), and the inputs of trained Linears: attention inputs (2 c, the
-- adapted to_q/to_v of a PEFT run too), to_out inputs (2 c, or the SDPA outputs it saves),
-- ff.net.0 input (c), ff.net.2 input (4 c). Eager attention keeps the softmax output,
-- heads x tokens x keys (self: tokens, cross: text tokens).
local function resnet_elems(cin, c, hw) return (3 * cin + 3 * c) * hw end

local function block_elems(c, heads, hw, text, full, eager)
  local e = 3 * c + 3 * c + c + 12 * c + 2 * c
  if full then e = e + c + 4 * c end
  if full or not eager then e = e + 2 * c end
  e = e * hw
  if eager then e = e + heads * hw * (hw + text) end
  return e
end

local function transformer_elems(u, lvl, hw, text, full, eager)
  local c = u.channels[lvl]
  return 3 * c * hw + u.depth[lvl] * block_elems(c, u.heads[lvl], hw, text, full, eager)
end

-- Eager attention's transient score tensor, elements per sample: heads x tokens x tokens of
-- a self-attention (the cross-attention's x text tokens is smaller). diffusers'
-- Attention.get_attention_scores (cross_attention.py v0.11, attention_processor.py since)
-- fills torch.baddbmm(torch.empty(b*heads, hw, hw), q, k^T, beta=0) and takes its softmax:
-- in forward the scores (and before them the empty input) are alive beside the kept
-- probabilities, one such tensor beyond what is saved; in backward bmm's grad_probs and
-- _softmax_backward_data's grad_scores are alive together beside the kept probabilities,
-- two such tensors (torch tools/autograd/derivatives.yaml: _softmax backward).
local function scores_elems(u, lvl, hw, eager)
  return eager and u.heads[lvl] * hw * hw or 0
end

-- Walks the UNet in forward order: all saved elements, the checkpointed share (each
-- resnet and transformer keeps only its input under gradient checkpointing), the largest
-- block (recomputed in backward), the forward peak (saved so far plus an attention's live
-- scores: r.fwd) and per stage the largest score tensor (r.scores, backward holds two).
-- hw0: latent pixels at the first level.
function M.unet_activations(u, hw0, text, full, eager)
  local r = { total = 0, ckpt = 0, block = 0, fwd = 0, scores = 0, stage = { 0 }, stage_scores = { 0 } }
  local function add(e, input, whole, sc)
    r.total = r.total + e
    r.stage[#r.stage] = r.stage[#r.stage] + e
    r.ckpt = r.ckpt + (whole and e or input)
    if e > r.block then r.block = e end
    sc = sc or 0
    if r.total + sc > r.fwd then r.fwd = r.total + sc end
    if sc > r.stage_scores[#r.stage] then r.stage_scores[#r.stage] = sc end
    if sc > r.scores then r.scores = sc end
  end
  local function new_stage() r.stage[#r.stage + 1] = 0; r.stage_scores[#r.stage] = 0 end
  local ch, n, L = u.channels, #u.channels, u.layers
  add(u.in_channels * hw0, 0, true)                               -- conv_in input
  local prev, hw = ch[1], hw0
  for i = 1, n do
    new_stage()                                                   -- down_blocks.(i-1)
    for j = 0, L - 1 do
      local cin = j == 0 and prev or ch[i]
      add(resnet_elems(cin, ch[i], hw), cin * hw)
      if u.attn[i] then
        add(transformer_elems(u, i, hw, text, full, eager), ch[i] * hw, false, scores_elems(u, i, hw, eager))
      end
    end
    prev = ch[i]
    if i < n then add(ch[i] * hw, 0, true); hw = hw // 4 end      -- downsampler conv input
  end
  new_stage()
  add(resnet_elems(ch[n], ch[n], hw), ch[n] * hw)                 -- mid block
  add(transformer_elems(u, n, hw, text, full, eager), ch[n] * hw, false, scores_elems(u, n, hw, eager))
  add(resnet_elems(ch[n], ch[n], hw), ch[n] * hw)
  for i = 1, n do
    local lvl = n - i + 1
    local out, inp = ch[lvl], ch[math.max(lvl - 1, 1)]
    new_stage()                                                   -- up_blocks.(i-1)
    for j = 0, L do
      local cin = (j == 0 and prev or out) + (j == L and inp or out) -- torch.cat with the skip
      add(resnet_elems(cin, out, hw), cin * hw)
      if u.attn[lvl] then
        add(transformer_elems(u, lvl, hw, text, full, eager), out * hw, false, scores_elems(u, lvl, hw, eager))
      end
    end
    prev = out
    if i < n then hw = hw * 4; add(out * hw, 0, true) end         -- upsampler conv input
  end
  new_stage()
  add(3 * ch[1] * hw0, 0, true)                                    -- conv_norm_out, SiLU, conv_out inputs
  return r
end

-- CLIP text encoder trained with the UNet, elements per sample: per layer and token the
-- two LayerNorm inputs and outputs, q k v and the attention output (8 h with the trained
-- Linears' inputs, 6 h adapted), the MLP's fc1 output, the quick-GELU sigmoid and output
-- (3 ffn, 2 ffn adapted: fc2 frozen), the softmax output heads x tokens x tokens.
local function text_encoder_elems(te, text, full)
  local h, f = te.hidden, te.ffn or 4 * te.hidden
  local per = (full and 8 * h + 3 * f or 6 * h + 2 * f) * text + (h // 64) * text * text
  return per * te.layers
end

local function uses_text_encoder(w, method, desc)
  if w.train_text_encoder ~= nil then return bool_field(w.train_text_encoder, "workload.train_text_encoder") end
  if method == "full" or method == "freeze" or type((w.lora or {}).targets) ~= "table" then return false end
  -- a PEFT run whose target_modules name the text encoder's modules adapts it too
  for _, x in ipairs(desc.tensors) do
    if x.component == "text_encoder" then
      for _, tg in ipairs(w.lora.targets) do
        if x.name:sub(-#tg - 7) == tg .. ".weight" then return true end
      end
    end
  end
  return false
end

-- Parameters of the denoiser per stage of unet_activations (stem, down_blocks.i, mid_block,
-- up_blocks.i, head), from the description's tensors.
local function stage_params(desc, n)
  local out = {}
  for i = 1, 2 * n + 3 do out[i] = 0 end
  for _, t in ipairs(desc.tensors) do
    if t.component == "denoiser" then
      local e = (t.count or 1) * Q.numel(t.shape)
      local d, u = t.name:match("down_blocks%.(%d+)%."), t.name:match("up_blocks%.(%d+)%.")
      local i = d and tonumber(d) + 2 or t.name:find("mid_block", 1, true) and n + 2 or u and n + 3 + tonumber(u)
                or (t.name:find("conv_norm_out", 1, true) or t.name:find("conv_out", 1, true)) and 2 * n + 3 or 1
      out[i] = out[i] + e
    end
  end
  return out
end

-- The UNet path: latent tokens as seq_len, saved activations as extras.
local function unet_normalize(w, n, method, p, W, H)
  local u, text = p.unet, p.text_len
  local eager = (w.attention or "sdpa") == "eager"
  local full = method == "full" or method == "freeze"
  local hw = (W // p.vae_scale) * (H // p.vae_scale)
  n.seq_len = hw
  local r = M.unet_activations(u, hw, text, full, eager)
  local te = uses_text_encoder(w, method, n.model.desc)
  local te_e = te and text_encoder_elems(p.text_encoder, text, full) or 0
  local x = n.extra
  x["train.act_elems"], x["train.act_ckpt_elems"] = r.total + te_e, r.ckpt + te_e
  x["train.act_block_elems"] = r.block
  x["train.act_fwd_elems"], x["train.act_scores_elems"] = r.fwd + te_e, r.scores
  -- the backward timeline: stages in forward order (stem, down blocks, mid, up blocks, head)
  -- with their activations and trained parameters (full training; adapters are negligible)
  local params = stage_params(n.model.desc, #u.channels)
  x["train.stages"] = #r.stage
  for i, e in ipairs(r.stage) do
    x["train.stage_act." .. i], x["train.stage_params." .. i] = e, full and params[i] or 0
    x["train.stage_scores." .. i] = r.stage_scores[i]
  end
  note(n, "UNet at %d latent pixels: %d saved activation elements per sample%s%s", hw, r.total,
       eager and " (eager attention keeps its softmax; its scores are transient)" or "",
       te and ", text encoder trained" or "")
  return te
end

-- Block swap (musubi-tuner and sd-scripts --blocks_to_swap N): N blocks of the denoiser's
-- block stack keep their weights in host memory and are swapped in place with resident ones
-- (src/train.c swapped_blocks). The stack is the one holding most of the denoiser's
-- parameters; a denoiser with two large stacks (FLUX, HunyuanVideo: double and single
-- blocks, which each trainer splits its own way) is refused, as is a trained base (full
-- fine-tuning would also move gradients and optimizer states). At most num_blocks - 1
-- (musubi-tuner enable_block_swap: "Cannot swap more than {num_blocks - 1} blocks").
function M.block_swap(w, n, method, desc)
  local nb = int_field(w.block_swap, "workload.block_swap", 0, 100000)
  if nb == 0 then return end
  if method == "full" or method == "freeze" then
    fail("workload.block_swap", "swaps the frozen base's blocks: a %s run trains them (not modelled)", method)
  end
  local params, count, total = {}, {}, 0
  for _, t in ipairs(desc.tensors) do
    if t.component == "denoiser" then
      local e = (t.count or 1) * Q.numel(t.shape)
      total = total + e
      local stack = (t.count or 1) > 1 and t.name:match("^([%w_.]-%.%*%.)")
      if stack then params[stack] = (params[stack] or 0) + e; count[stack] = t.count end
    end
  end
  local names = {}
  for k in pairs(params) do names[#names + 1] = k end
  table.sort(names, function(a, b) return params[a] > params[b] end)
  if #names == 0 then fail("workload.block_swap", "%s has no repeated blocks to swap", n.model.id) end
  -- a second stack counts when it holds over a tenth of the denoiser (FLUX.1's 38 single blocks
  -- hold about half of it, Qwen-Image and Wan have one stack): a separation, not a fitted figure
  if #names > 1 and params[names[2]] * 10 > total then
    fail("workload.block_swap", "%s has two block stacks (%s and %s), which trainers swap differently: not modelled",
         n.model.id, names[1]:sub(1, -4), names[2]:sub(1, -4))
  end
  local stack = names[1]
  if nb > count[stack] - 1 then
    fail("workload.block_swap", "%d blocks: %s has %d, at most %d can be swapped", nb, n.model.id, count[stack], count[stack] - 1)
  end
  n.extra["train.block_swap"], n.extra["train.block_swap_stack"] = nb, stack
  note(n, "block swap: the weights of %d of the %d %s blocks in host memory", nb, count[stack], stack:sub(1, -4))
end

-- normalize(w, n, method): nil for a language model; else the denoiser's description,
-- after setting n.seq_len and the extras "train.*" of the pipeline.
function M.normalize(w, n, method)
  local desc = n.model.desc
  local p = desc.pipeline
  if type(p) ~= "table" then
    if w.block_swap ~= nil then fail("workload.block_swap", "swaps a diffusion denoiser's blocks; %s is a language model", n.model.id) end
    if w.trainer ~= nil then fail("workload.trainer", "names a diffusion pipeline's trainer; %s is a language model", n.model.id) end
    return nil
  end
  if w.seq_len ~= nil then fail("workload.seq_len", "derived from width, height and frames for a diffusion pipeline: leave it out") end
  local unet = p.kind == "unet"
  if unet and type(p.unet) ~= "table" then fail("model", "%s describes no UNet levels (pipeline.unet)", n.model.id) end
  local W, H = side(w, "width", p, n), side(w, "height", p, n)
  local frames, lf = frames_of(w, p)
  local with_te = false
  if unet then
    with_te = unet_normalize(w, n, method, p, W, H)
  else
    local pt = p.patch_t or 1
    local img = ((lf + pt - 1) // pt) * (H // (p.vae_scale * p.patch)) * (W // (p.vae_scale * p.patch))
    local text = p.text_len
    if w.max_sequence_length ~= nil then text = int_field(w.max_sequence_length, "workload.max_sequence_length", 1, 4096) end
    n.seq_len = img + (p.joint and text or 0)
    note(n, "%d tokens per sample: %d latent tokens%s", n.seq_len, img, p.joint and (" + %d text tokens"):format(text) or "")
  end
  local pre = w.precomputed_embeddings ~= nil and bool_field(w.precomputed_embeddings, "workload.precomputed_embeddings") or false
  local te = enum_field(w.text_encoders or (pre and "none" or "gpu"), "workload.text_encoders", { "gpu", "cpu", "none" })
  if te ~= "gpu" and not pre then
    fail("workload.text_encoders", "%s needs precomputed_embeddings = true (the encoders run every step otherwise)", te)
  end
  local x = n.extra
  x["train.pipeline"], x["train.aux_on_gpu"] = true, te == "gpu"
  -- Precomputed by this same process just before training, with the encoders dropped but
  -- torch.cuda.empty_cache() never reached after the last reference went (finetrainers
  -- v0.0.1's first run: the loaded components stay referenced by prepare_precomputations'
  -- locals through its free_memory(), and are freed into the cache when it returns; its
  -- LTX printout shows 3.809 GiB allocated yet 10.010 GiB reserved before training, 9.684
  -- GiB max allocated since the reset), the cached segments of their weights stay reserved.
  if w.encoders_cached ~= nil and bool_field(w.encoders_cached, "workload.encoders_cached") then
    if not pre or te == "gpu" then
      fail("workload.encoders_cached", "needs precomputed_embeddings = true and text_encoders \"none\" or \"cpu\" (the encoders ran before training and were dropped)")
    end
    x["train.encoder_pool"] = true
  end
  if w.block_swap ~= nil then M.block_swap(w, n, method, desc) end
  if not unet then x["train.layer_extra_elems"] = block_extra(desc, p, method == "full") end
  local trainer = enum_field(w.trainer or "diffusers", "workload.trainer", { "diffusers", "sat" })
  if trainer == "sat" and not p.sat then
    fail("workload.trainer", "sat: %s has no SwissArmyTransformer training recipe (CogVideoX's sat/ only)", n.model.id)
  end
  if w.sat_encode_samples ~= nil and (trainer ~= "sat" or pre) then
    fail("workload.sat_encode_samples", "SAT's en_and_decode_n_samples_a_time: needs trainer = \"sat\" and the VAE encoding each step (no precomputed_embeddings)")
  end
  if not pre and trainer == "sat" then
    -- SAT's whole-clip encode through SafeConv3d (M.sat_encode_bytes); its empty_cache sits
    -- between the encode and the forward, so the training step's cached segments are still
    -- reserved when the next step encodes (src/train.c step_cache).
    -- encode_first_stage (sat/diffusion_video.py lines 175-193 at 6d7f6e86; the key is read at line 48) encodes
    -- en_and_decode_n_samples_a_time samples per round (default: the whole batch, the
    -- shipped configs leave it unset) and keeps the earlier rounds' latents in all_out
    -- (regularized z: latent_channels x latent frames x H/8 x W/8) until the torch.cat.
    local e = Q.dtype_bytes(n.dtype)
    local k = n.micro_batch
    if w.sat_encode_samples ~= nil then
      k = math.min(k, int_field(w.sat_encode_samples, "workload.sat_encode_samples", 1, 100000))
    end
    local last = n.micro_batch - (n.micro_batch - 1) // k * k -- the last round's samples
    local z = (p.latent_channels or 16) * lf * (H // p.vae_scale) * (W // p.vae_scale) * e
    x["train.encode_bytes"] = math.max(M.sat_encode_bytes(k, p.vae_peak_channels or VAE_PEAK_CHANNELS, frames, H, W, e)
                                         + ((n.micro_batch - 1) // k - 1) * k * z,
                                       M.sat_encode_bytes(last, p.vae_peak_channels or VAE_PEAK_CHANNELS, frames, H, W, e)
                                         + (n.micro_batch - last) * z)
    x["train.encode_after_step"] = true
    note(n, "SAT trainer: the VAE encodes all %d frames at once (SafeConv3d chunks), the cache is emptied only before the forward", frames)
  elseif not pre then
    -- the VAE encodes the clip each step, p.vae_chunk frames at a time where it batches frames
    local f = (p.vae_chunk or 0) > 0 and math.min(frames, p.vae_chunk) or frames
    x["train.encode_bytes"] = W * H * f * (p.vae_peak_channels or VAE_PEAK_CHANNELS) * (p.vae_encode_tensors or ENCODE_TENSORS)
       * Q.dtype_bytes(n.dtype) * n.micro_batch
  end
  -- the frozen encoders and VAE are cast to the weights' dtype (diffusers training scripts:
  -- text_encoder.to(weight_dtype), vae.to(weight_dtype)); quantized tensors keep their bytes
  for _, t in ipairs(desc.tensors) do
    if t.component ~= "denoiser" and not t.qtype and not t.bytes then t.dtype = n.dtype end
  end
  return denoiser_desc(desc, with_te)
end

return M
