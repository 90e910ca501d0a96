-- workloads/video.lua: a video-generation workload: the image fields (workloads/image.lua)
-- plus frames, which the causal video VAE compresses to (F - 1) / t + 1 latent frames
-- (t = 4 for Wan, HunyuanVideo, CogVideoX; 8 for LTX-Video; 6 for Mochi); the
-- denoiser's tokens are latent frames x (H / (8 x patch)) x (W / (8 x patch)).
local E = require "engine"
local image = require "workloads.image"

local KEYS = { "frames" }
for _, k in ipairs(image.KEYS) do KEYS[#KEYS + 1] = k end

local function normalize(w, n, cfg)
  local _ = cfg
  local p = n.model.desc.pipeline
  if type(w) == "table" and w.frames == nil then E.fail("workload.frames", "missing (frames of the video, e.g. 81)") end
  local frames = E.int_field(w.frames, "workload.frames", 1, 100000)
  local ts = type(p) == "table" and p.vae_tscale or 1
  -- an image pipeline's 2-D VAE has no time axis: it makes images, not videos
  if type(p) == "table" and ts == 1 then
    E.fail("workload.kind", "%s is an image pipeline (its VAE has no time axis): use kind = \"image\"", n.model.id)
  end
  if type(p) == "table" and (frames - 1) % ts ~= 0 then
    E.fail("workload.frames", "%d frames: the VAE compresses time %dx, so frames must be %d k + 1 (e.g. %d)",
      frames, ts, ts, ((frames - 1) // ts) * ts + 1)
  end
  image.normalize_with(w, n, frames, KEYS)
  -- reference scripts that move the DiT and encoders to the CPU before decoding (CogVideoX SAT)
  n.extra["gen.ref_decode_alone"] = type(p) == "table" and p.ref_decode_alone == true
end

return { kinds = { "video" }, normalize = normalize }
