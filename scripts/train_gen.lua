-- train_gen.lua: training the denoiser of a diffusion or video pipeline on latents
-- (DreamBooth/LoRA scripts of diffusers, cogvideox-factory, finetrainers). The tokens of one
-- training sample come from the scenario's width, height and frames through the
-- description's `pipeline` table (VAE factor, temporal compression, patch size, joint
-- text tokens), as workloads/image.lua derives them for generation; only the denoiser's
-- tensors are trainable; the text encoders and the VAE are frozen, cast to the load dtype,
-- and on the GPU unless text_encoders is "cpu" or "none". Used by workloads/train.lua.
local E = require "engine"
local fail, int_field, bool_field, enum_field = E.fail, E.int_field, E.bool_field, E.enum_field
local M = {}

local DEFAULT_SIDE = { unet = 512, dit = 1024, mmdit = 1024 }

-- VAE encoding every step (no precomputed latents): live tensors per (pixel x frame x
-- channel of the encoder's first, full-resolution level) at the load dtype: the block input,
-- the norm and activation outputs and the conv output. 4 closes
-- finetrainers-hunyuanvideo-lora-r128-noprecompute (49 x 512 x 768 x 128 x 4 x 2 B = 18.4 GiB
-- over the 39 GiB loaded; measured 56.3 GiB reserved).
local ENCODE_TENSORS = 4
local DT_BYTES = { fp32 = 4, bf16 = 2, fp16 = 2 }

local function note(n, fmt, ...) n.notes[#n.notes + 1] = fmt:format(...) end

local function side(w, key, p, n)
  local dflt = p.default_side or DEFAULT_SIDE[p.kind] or 1024
  if w[key] == nil then note(n, "%s %d (the pipeline's default)", key, dflt) end
  local v = int_field(w[key] or dflt, "workload." .. key, 1, 16384)
  local m = p.vae_scale * (p.patch or 1)
  if v % m ~= 0 then
    fail("workload." .. key, "%d is not a multiple of %d (VAE factor %d x patch size %d)", v, m, p.vae_scale, p.patch or 1)
  end
  return v
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
-- keep the normalised and the gated tensors when the modulation is trained (4h).
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

-- The denoiser's own tensors: the description that PEFT methods and full training see.
local function denoiser_desc(desc)
  local t = {}
  for _, x in ipairs(desc.tensors) do
    if x.component == "denoiser" then t[#t + 1] = x end
  end
  return { tensors = t, hidden = desc.hidden, arch = desc.arch }
end

-- normalize(w, n, method): nil for a language model; else the denoiser's description,
-- after setting n.seq_len and the extras "train.*" of the pipeline.
function M.normalize(w, n, method)
  local desc = n.model.desc
  local p = desc.pipeline
  if type(p) ~= "table" then return nil end
  if p.kind == "unet" then
    fail("model", "training the UNet of %s is not modelled yet (DiT/MMDiT denoisers are)", n.model.id)
  end
  if w.seq_len ~= nil then fail("workload.seq_len", "derived from width, height and frames for a diffusion pipeline: leave it out") end
  local W, H = side(w, "width", p, n), side(w, "height", p, n)
  local frames, lf = frames_of(w, p)
  local pt = p.patch_t or 1
  local img = ((lf + pt - 1) // pt) * (H // (p.vae_scale * p.patch)) * (W // (p.vae_scale * p.patch))
  local text = p.text_len
  if w.max_sequence_length ~= nil then text = int_field(w.max_sequence_length, "workload.max_sequence_length", 1, 4096) end
  n.seq_len = img + (p.joint and text or 0)
  note(n, "%d tokens per sample: %d latent tokens%s", n.seq_len, img, p.joint and (" + %d text tokens"):format(text) or "")
  local pre = w.precomputed_embeddings ~= nil and bool_field(w.precomputed_embeddings, "workload.precomputed_embeddings") or false
  local te = enum_field(w.text_encoders or (pre and "none" or "gpu"), "workload.text_encoders", { "gpu", "cpu", "none" })
  if te ~= "gpu" and not pre then
    fail("workload.text_encoders", "%s needs precomputed_embeddings = true (the encoders run every step otherwise)", te)
  end
  local x = n.extra
  x["train.pipeline"], x["train.aux_on_gpu"] = true, te == "gpu"
  x["train.layer_extra_elems"] = block_extra(desc, p, method == "full")
  if not pre then
    -- the VAE encodes the clip each step, p.vae_chunk frames at a time where it batches frames
    local f = (p.vae_chunk or 0) > 0 and math.min(frames, p.vae_chunk) or frames
    x["train.encode_bytes"] = W * H * f * (p.vae_peak_channels or 128) * ENCODE_TENSORS * (DT_BYTES[n.dtype] or 2)
       * n.micro_batch
  end
  -- the frozen encoders and VAE are cast to the weights' dtype (diffusers training scripts:
  -- text_encoder.to(weight_dtype), vae.to(weight_dtype)); quantized tensors keep their bytes
  for _, t in ipairs(desc.tensors) do
    if t.component ~= "denoiser" and not t.qtype and not t.bytes then t.dtype = n.dtype end
  end
  return denoiser_desc(desc)
end

return M
