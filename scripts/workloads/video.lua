-- workloads/video.lua: a video-generation workload: the image fields (workloads/image.lua)
-- plus frames, which the causal video VAE compresses to (F - 1) / t + 1 latent frames
-- (t = 4 for Wan, HunyuanVideo, CogVideoX; 8 for LTX-Video; 6 for Mochi); the
-- denoiser's tokens are latent frames x (H / (8 x patch)) x (W / (8 x patch)).
local E = require "engine"
local image = require "workloads.image"

local KEYS = { "frames", "i2v" }
for _, k in ipairs(image.KEYS) do KEYS[#KEYS + 1] = k end

-- The reference scripts' date picks what stays resident during the VAE decode where they
-- changed it (p.ref_resident_from): CogVideoX's SAT sample_video.py (THUDM/CogVideo) ran
-- model.to("cpu") and torch.cuda.empty_cache() after sampling and decoded with the VAE
-- alone from 3430df1 (2024-08-06) through b43951a (2024-09-10); from 3a9af5b (2024-11-04)
-- it calls model.decode_first_stage with the DiT, T5 and VAE all on the GPU. runtime.version
-- is that date ("YYYY-MM-DD"); unset, the scripts the model was released with stand
-- (p.ref_decode_alone, architectures/cogvideox.lua).
local function ref_scripts_date(n, p)
  local v = n.runtime_version
  if v == nil then
    E.note(n, "%s's reference scripts as released with the model: %s", n.model.id,
      p.ref_decode_alone and "the DiT and text encoder leave the GPU before the VAE decodes"
      or "the DiT and text encoder stay on the GPU while the VAE decodes")
    return
  end
  local y, m, d = tostring(v):match("^(%d%d%d%d)%-(%d%d)%-(%d%d)$")
  if not y then
    E.fail("runtime.version", "expected the date of %s's reference scripts such as \"2024-08-29\", got \"%s\"",
      n.model.id, tostring(v))
  end
  n.extra["gen.ref_decode_alone"] = ("%s-%s-%s"):format(y, m, d) < p.ref_resident_from
end

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
  -- An image-to-video pipeline VAE-encodes its conditioning image in prepare_latents, after
  -- encode_prompt and before the denoising loop (diffusers @58eb52c0: pipeline_wan_i2v.py,
  -- pipeline_cogvideox_image2video.py, pipeline_consisid.py, pipeline_ltx_image2video.py,
  -- pipeline_hunyuan_video_image2video.py, each `self.vae.encode(...)` in prepare_latents), with
  -- the VAE last in model_cpu_offload_seq ("text_encoder->transformer->vae",
  -- "text_encoder->image_encoder->transformer->transformer_2->vae",
  -- "text_encoder->text_encoder_2->transformer->vae"). Under enable_model_cpu_offload the
  -- transformer's hook offloads only its predecessor in that chain, so the VAE stays on the GPU
  -- through the denoising (src/gen.c gen_phases). Transformers that take the image latents as
  -- input channels (p.image_latent_input) are image-to-video; LTX-Video's and others' I2V
  -- pipelines share the T2V checkpoint, so i2v = true declares them.
  local i2v = type(p) == "table" and p.image_latent_input == true
  if w.i2v ~= nil then
    local v = E.bool_field(w.i2v, "workload.i2v")
    if not v and i2v then
      E.fail("workload.i2v", "%s is an image-to-video model: its transformer takes the conditioning image's "
        .. "latents as input channels", n.model.id)
    end
    i2v = v
  end
  n.extra["gen.i2v"] = i2v
  -- reference scripts that move the DiT and encoders to the CPU before decoding (CogVideoX SAT)
  n.extra["gen.ref_decode_alone"] = type(p) == "table" and p.ref_decode_alone == true
  if type(p) == "table" and p.ref_resident_from and n.runtime == "reference" then ref_scripts_date(n, p) end
end

return { kinds = { "video" }, normalize = normalize }
