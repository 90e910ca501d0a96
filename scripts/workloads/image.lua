-- workloads/image.lua: validates an image-generation workload (DESIGN.md: width, height,
-- batch, num_images_per_prompt, steps, cfg, max_sequence_length, offload, vae_tiling,
-- vae_slicing, attention, text_encoders) against the pipeline's shape facts (the
-- description's `pipeline` table: VAE factor, patch size, latent channels, whether the
-- model is guidance-distilled) and derives what src/gen.c needs as extras "gen.*":
-- latent size, tokens per sample, the denoiser's batch, what is decoded at once.
-- workloads/video.lua adds frames.
local E = require "engine"
local fail, int_field, bool_field, enum_field, strict = E.fail, E.int_field, E.bool_field, E.enum_field, E.strict_field

local note = E.note

local KEYS = { "kind", "width", "height", "batch", "num_images_per_prompt", "steps", "cfg", "max_sequence_length",
               "offload", "vae_tiling", "vae_slicing", "attention", "text_encoders", "t2i2v", "input_images",
               "vae_dtype", "image_encoder_dtype", "resident", "pipe_to_gpu", "offload_by_component", "output_type",
               "memory_reserve", "diffusion_forcing", "fuse_qkv" }
local MAX_SIDE = 16384

-- Defaults of the pipelines' __call__ (width/height: the denoiser's native size).
local DEFAULT_SIDE = { unet = 512, dit = 1024, mmdit = 1024 }

local function pipeline_of(n)
  local p = n.model.desc.pipeline
  if type(p) ~= "table" then
    fail("model", "'%s' (architecture %s) is not a diffusion pipeline: image and video workloads need one",
      n.model.id, n.model.arch)
  end
  return p
end

-- width/height must be a multiple of the VAE factor x the patch size.
local function side(w, key, p, dflt, n)
  if w[key] == nil then note(n, "%s %d (the pipeline's default)", key, dflt) end
  local v = int_field(w[key] or dflt, "workload." .. key, 1, MAX_SIDE)
  local m = p.vae_scale * (p.patch or 1)
  if v % m ~= 0 then
    fail("workload." .. key, "%d is not a multiple of %d (VAE factor %d x patch size %d)", v, m, p.vae_scale, p.patch or 1)
  end
  return v
end

local function set(n, k, v) n.extra["gen." .. k] = v end

local M = {}
M.check_side = side -- also used by scripts/train_gen.lua for diffusion training

-- Frames decoded by the first call of a VAE that decodes b latent frames at a time
-- (diffusers AutoencoderKLCogVideoX._decode, num_latent_frames_batch_size = 2): the first
-- batch takes the remainder too. The latent frames a CogVideoX1.5 pipeline pads to a multiple
-- of patch_size_t for the denoiser are dropped before decoding (pipeline_cogvideox.py and
-- _image2video.py: latents = latents[:, additional_frames:] before decode_latents, diffusers
-- PR #9877), so the VAE sees (F - 1) / t + 1 latent frames. A causal batch of n latent
-- frames decodes to 1 + (n - 1) t frames when n is odd (its first frame is not upsampled in
-- time), n t when even. src/gen.c gen_batch_frames mirrors this.
function M.batch_frames(frames, p)
  local ts, b = p.vae_tscale or 1, p.vae_latent_batch
  local lf = (frames - 1) // ts + 1
  local n = lf < b and lf or b + lf % b
  return n % 2 == 1 and 1 + (n - 1) * ts or n * ts
end

-- Shape: latent grid, tokens, batch. frames = 1 for images.
local function shape(w, n, p, frames)
  local def = p.default_side or DEFAULT_SIDE[p.kind] or 1024
  if p.kind == "unet" and p.vae_upcast then def = 1024 end
  -- a pipeline whose default is not square (HunyuanVideo-1.5's 16:9 bucket of its target size)
  local W, H = side(w, "width", p, p.default_width or def, n), side(w, "height", p, p.default_height or def, n)
  local lw, lh = W // p.vae_scale, H // p.vae_scale
  local ts = p.vae_tscale or 1
  local lf = frames == 1 and 1 or (frames - 1) // ts + 1
  local pt = p.patch_t or 1
  local tf = (lf + pt - 1) // pt
  local img = tf * (lh // p.patch) * (lw // p.patch)
  set(n, "width", W); set(n, "height", H); set(n, "frames", frames); set(n, "latent_frames", lf)
  set(n, "latent_elems", lf * lh * lw * p.latent_channels)
  return W, H, img
end

local function guidance(w, n, p)
  if w.cfg == nil then
    note(n, "classifier-free guidance %s (%s)", p.cfg and "on" or "off",
      p.cfg_note or ("the pipeline's default" .. (p.cfg and "" or ": guidance-distilled")))
    return p.cfg
  end
  return bool_field(w.cfg, "workload.cfg")
end

local function text_part(w, n, p)
  local len = p.text_len
  if w.max_sequence_length ~= nil then len = int_field(w.max_sequence_length, "workload.max_sequence_length", 1, 4096) end
  set(n, "text_tokens", len)
  set(n, "text_hidden", p.text_hidden or 4096)
  set(n, "te_layers", p.te_layers or 24)
  local te = enum_field(w.text_encoders or "gpu", "workload.text_encoders", { "gpu", "cpu", "none" })
  set(n, "text_encoders", te)
  return len
end

local function memory_part(w, n, p, frames, W, H)
  local off = enum_field(w.offload or "none", "workload.offload", { "none", "model", "sequential", "group", "auto" })
  if w.offload == nil then note(n, "offload none: every component resident on the GPU") end
  -- a model's own reference scripts offer only their own flags (architectures' ref_offload);
  -- diffusers offers all four, and ComponentsManager auto offload where the release has a
  -- ModularPipeline for the model (the architectures' `modular`, its first release; fit searches
  -- it after "none": it moves a component only when the next one would not fit)
  local modes = n.runtime == "reference" and (p.ref_offload or { "none" }) or { "none", "model", "group", "sequential" }
  if n.runtime == "reference" and not p.ref_offload and p.ref_decode_alone == nil then
    -- the reference runtime describes Wan's generate.py, HunyuanVideo's sample_video.py,
    -- CogVideoX's SAT and Open-Sora (their ref_* fields); any other model's own scripts (Mochi's
    -- MochiSingleGPUPipeline: fp32 T5, a 4 x 2 tiled decode) are not: say what is computed
    note(n, "reference: %s's own scripts are not described (only Wan, HunyuanVideo, CogVideoX SAT and "
      .. "Open-Sora are); its diffusers pipeline's layout is computed, every component resident", n.model.id)
  end
  if n.runtime == "diffusers" then
    local code = n.runtime_version and E.version_code(n.runtime_version, "a diffusers", "0.32.2")
    local modular = p.modular and (code == nil or code >= E.version_code(p.modular, "a diffusers", "0.32.2"))
    if modular then table.insert(modes, 2, "auto") end
    if off == "auto" and not modular then
      note(n, "offload auto: diffusers %s has no ModularPipeline for %s (%s); ComponentsManager's hooks assumed "
        .. "on its components", n.runtime_version or "(newest)", n.model.id,
        p.modular and ("first in v" .. p.modular) or "none up to v0.40.0")
    end
  end
  local offered = off == "auto" and n.runtime == "diffusers"
  for _, m in ipairs(modes) do offered = offered or m == off end
  if off == "auto" and n.runtime ~= "diffusers" then
    fail("workload.offload", "\"auto\" is diffusers' ComponentsManager.enable_auto_cpu_offload (runtime.name = \"diffusers\")")
  end
  -- ComponentsManager.enable_auto_cpu_offload(memory_reserve_margin="3GB") (diffusers
  -- modular_pipelines/components_manager.py AutoOffloadStrategy, from v0.35.0; renamed
  -- memory_reserve in PR #14304): the free memory each load decision keeps, in GB as diffusers
  -- parses "3GB" (accelerate convert_file_size_to_int: 10^9 bytes a GB); src/gen.c gen_auto
  if w.memory_reserve ~= nil then
    if off ~= "auto" then fail("workload.memory_reserve", "the auto offload's reserve: needs offload = \"auto\"") end
    local r = E.num_field(w.memory_reserve, "workload.memory_reserve", 0, 1024)
    set(n, "memory_reserve", math.floor(r * 1e9 + 0.5))
  elseif off == "auto" then
    note(n, "memory_reserve 3 GB (enable_auto_cpu_offload's default)")
    set(n, "memory_reserve", 3000000000)
  end
  if not offered then
    fail("workload.offload", "\"%s\" is not offered by %s's reference scripts (they offer: %s)", off, n.model.id,
      table.concat(modes, ", "))
  end
  set(n, "offload_modes", table.concat(modes, ","))
  set(n, "offload", off)
  -- some reference scripts tile by default (Open-Sora's ae use_spatial_tiling = True)
  local tiling = p.vae_tiling_default == true
  if w.vae_tiling ~= nil then tiling = bool_field(w.vae_tiling, "workload.vae_tiling") end
  local slicing = w.vae_slicing ~= nil and bool_field(w.vae_slicing, "workload.vae_slicing") or false
  set(n, "vae_tiling", tiling); set(n, "vae_slicing", slicing)
  -- pixels x frames decoded at once by one decode call
  -- a tile is vae_tile pixels high and vae_tile_w wide (square unless the VAE says otherwise)
  local tile = p.vae_tile or (p.vae_scale * 64)
  local tile_w = p.vae_tile_w or tile
  local pw, ph = W, H
  if tiling then pw, ph = math.min(W, tile_w), math.min(H, tile) end
  local f = frames
  -- frames one decoder call takes: the VAE's own chunk, or the runtime's where its decoder
  -- chunks frames whatever the tiling (vae_chunk_by_runtime, e.g. diffusers' framewise decode)
  local chunk = (p.vae_chunk_by_runtime or {})[n.runtime] or p.vae_chunk or 0
  if frames > 1 then
    if tiling and p.vae_tile_frames then f = math.min(frames, p.vae_tile_frames) end
    if chunk > 0 then f = math.min(f, chunk) end
    if (p.vae_latent_batch or 0) > 0 then f = math.min(f, M.batch_frames(frames, p)) end
  end
  set(n, "vae_pixels", pw * ph * f)
  -- what src/gen.c needs to re-derive the shape for another resolution or length (fit)
  set(n, "vae_scale", p.vae_scale); set(n, "patch", p.patch or 1); set(n, "vae_tscale", p.vae_tscale or 1)
  set(n, "patch_t", p.patch_t or 1); set(n, "vae_tile", tiling and tile or 0)
  set(n, "vae_tile_w", tiling and tile_w or 0)
  set(n, "vae_tile_frames", (tiling and p.vae_tile_frames) or 0); set(n, "vae_chunk", chunk)
  set(n, "vae_latent_batch", p.vae_latent_batch or 0)
  set(n, "latent_channels", p.latent_channels)
  set(n, "vae_channels", p.vae_peak_channels or 128)
  -- the family whose VAE decode constants apply (an image pipeline with a video VAE: Qwen-Image)
  set(n, "vae_family", p.vae_family or p.act_family or "image")
  set(n, "vae_assumed", p.vae_assumed == true) -- its decode constant is not fitted to a case of its own
  set(n, "vae_upcast", p.vae_upcast == true)
  set(n, "out_pixels", W * H * frames)
  local att = enum_field(w.attention or "sdpa", "workload.attention", { "sdpa", "eager", "sliced", "flash" })
  if w.attention == nil then note(n, "attention sdpa assumed (PyTorch 2 default)") end
  n.attention = att == "eager" and "eager" or "sdpa"
  set(n, "attention", att)
end

-- Components loaded apart from the pipeline in another dtype (diffusers: a component passed to
-- from_pretrained keeps its own torch_dtype; the Wan docs load AutoencoderKLWan and
-- CLIPVisionModel with torch_dtype=torch.float32 beside a bf16 pipeline), and the components left
-- on the GPU when group offloading is applied per module: pipe.to("cuda") moves every module
-- without a group-offloading hook (diffusers pipeline_utils DiffusionPipeline.to skips those),
-- so the VAE and an image encoder stay resident beside the streamed transformer and text encoder.
-- Group offload set per component (workload.offload_by_component): diffusers applies it module
-- by module, each call with its own arguments (the LTX-Video docs' memory example,
-- docs/source/en/api/pipelines/ltx_video.md @58eb52c0 lines 63-65: the transformer's
-- enable_group_offload(offload_type="leaf_level", use_stream=True), the text encoder's
-- apply_group_offloading(offload_type="block_level", num_blocks_per_group=2), the VAE's
-- apply_group_offloading(offload_type="leaf_level")). Keys: the pipeline's attribute names
-- (the tensors' folders: transformer, text_encoder, text_encoder_2, image_encoder, vae, ...);
-- values: "none" (no hook: pipe.to("cuda") keeps it on the GPU, as workload.resident) or a
-- table of that call's arguments under the runtime knobs' names - offload_type, num_blocks_per_group,
-- use_stream - whose omitted ones take apply_group_offloading's defaults (hooks/group_offloading.py:
-- offload_type "block_level", use_stream False; num_blocks_per_group has none and block_level
-- raises without it). A component not named keeps the runtime knobs (runtime.offload_type, ...).
-- Sets gen.group.<den|vae|encoder name>.* for src/gen.c gen_group_of.
function M.offload_by_component(w, n, kept, has_img)
  local by = w.offload_by_component
  if by == nil then return end
  local F = "workload.offload_by_component"
  if type(by) ~= "table" then
    fail(F, "a table of the pipeline's components, e.g. { transformer = { offload_type = \"leaf_level\", "
      .. "use_stream = true }, text_encoder = { offload_type = \"block_level\", num_blocks_per_group = 2 }, vae = \"none\" }")
  end
  if n.runtime ~= "diffusers" then fail(F, "is diffusers' per-module group offloading (runtime.name = \"diffusers\")") end
  if n.extra["gen.offload"] ~= "group" then fail(F, "group offload settings per component: needs offload = \"group\"") end
  -- the pipeline's attributes: each tensor's folder and its component
  local comp_of, names = {}, {}
  for _, t in ipairs(n.model.desc.tensors) do
    local folder = t.component and t.name:match("^([^.]+)%.")
    if folder and t.component ~= "face_encoder" and not comp_of[folder] then
      comp_of[folder] = t.component
      names[#names + 1] = folder
    end
  end
  local keys = {}
  for k in pairs(by) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local den_first
  for _, k in ipairs(keys) do
    local comp, v = comp_of[k], by[k]
    local f = F .. "." .. tostring(k)
    if comp == nil then
      fail(F, "'%s' is not a component of %s (it has: %s)", tostring(k), n.model.id, table.concat(names, ", "))
    end
    local key = comp == "denoiser" and "den" or comp
    local set_to
    if v == "none" then
      set_to = { offload_type = "none" }
    elseif type(v) == "table" then
      strict(f, v, { "offload_type", "num_blocks_per_group", "use_stream" })
      local ty = enum_field(v.offload_type or "block_level", f .. ".offload_type", { "block_level", "leaf_level" })
      local per = 1
      if ty == "block_level" then
        if v.num_blocks_per_group == nil then
          fail(f .. ".num_blocks_per_group", "missing: diffusers' block_level offload needs num_blocks_per_group "
            .. "(apply_group_offloading raises without it)")
        end
        per = int_field(v.num_blocks_per_group, f .. ".num_blocks_per_group", 1, 100000)
      elseif v.num_blocks_per_group ~= nil then
        fail(f .. ".num_blocks_per_group", "applies to offload_type \"block_level\" only")
      end
      local stream = v.use_stream ~= nil and bool_field(v.use_stream, f .. ".use_stream") or false
      set_to = { offload_type = ty, num_blocks_per_group = per, use_stream = stream }
    else
      fail(f, "\"none\" or a table { offload_type = ..., num_blocks_per_group = ..., use_stream = ... }, got %s",
        type(v) == "string" and ("\"" .. v .. "\"") or type(v))
    end
    -- a two-expert pipeline's transformer and transformer_2 are modelled with one setting
    if key == "den" then
      local sig = ("%s/%s/%s"):format(set_to.offload_type, tostring(set_to.num_blocks_per_group), tostring(set_to.use_stream))
      if den_first and den_first ~= sig then
        fail(f, "the denoisers of %s are modelled with one group offload setting: give each the same", n.model.id)
      end
      den_first = sig
    end
    if set_to.offload_type == "none" then
      if comp == "vae" then kept.vae = true
      elseif comp == "image_encoder" and has_img then kept.image_encoder = true end
    end
    for name, val in pairs(set_to) do set(n, "group." .. key .. "." .. name, val) end
  end
end

-- the diffusers VAE classes with _group_offload_block_modules from v0.36.0 (#12692; see below)
local BLOCK_MODULE_VAES = { AutoencoderKL = true, AutoencoderKLWan = true }

local function component_part(w, n, p)
  local function dtype_of(key)
    if w[key] == nil then return false end
    local d = enum_field(w[key], "workload." .. key, { "fp32", "bf16", "fp16" })
    if d ~= "fp32" and d ~= n.dtype then
      fail("workload." .. key, "%s: only fp32 or the pipeline's dtype (%s) is modelled", d, n.dtype)
    end
    if n.runtime ~= "diffusers" then fail("workload." .. key, "is a diffusers loading option (runtime.name = \"diffusers\")") end
    return d == "fp32" and n.dtype ~= "fp32"
  end
  set(n, "vae_fp32", dtype_of("vae_dtype"))
  local img32 = dtype_of("image_encoder_dtype")
  local has_img = false
  for _, t in ipairs(n.model.desc.tensors) do has_img = has_img or t.component == "image_encoder" end
  if w.image_encoder_dtype ~= nil and not has_img then
    fail("workload.image_encoder_dtype", "%s has no image encoder", n.model.id)
  end
  set(n, "image_encoder_fp32", img32)
  local kept = { vae = false, image_encoder = false }
  if w.resident ~= nil then
    if type(w.resident) ~= "table" then fail("workload.resident", "a list of components: { \"vae\", \"image_encoder\" }") end
    if n.extra["gen.offload"] ~= "group" then
      fail("workload.resident", "components left on the GPU beside group-offloaded ones: needs offload = \"group\"")
    end
    for i, c in ipairs(w.resident) do
      local v = enum_field(c, "workload.resident[" .. i .. "]", { "vae", "image_encoder" })
      if v == "image_encoder" and not has_img then fail("workload.resident", "%s has no image encoder", n.model.id) end
      kept[v] = true
    end
  end
  M.offload_by_component(w, n, kept, has_img)
  set(n, "resident_vae", kept.vae); set(n, "resident_image_encoder", kept.image_encoder)
  -- pipe.to("cuda") beside enable_model_cpu_offload (the docs' examples load with pipe.to("cuda")):
  -- DiffusionPipeline.to only warns ("memory gains from offloading are likely to be lost") and
  -- moves every component; the offload chain then sends each one back as its successor runs
  -- (src/gen.c gen_phases). After enable_sequential_cpu_offload diffusers raises instead, and
  -- under group offload the modules it moves are workload.resident.
  local to_gpu = w.pipe_to_gpu ~= nil and bool_field(w.pipe_to_gpu, "workload.pipe_to_gpu") or false
  if to_gpu and n.runtime ~= "diffusers" then fail("workload.pipe_to_gpu", "is a diffusers call (runtime.name = \"diffusers\")") end
  if to_gpu and n.extra["gen.offload"] ~= "model" then
    fail("workload.pipe_to_gpu", "pipe.to(\"cuda\") beside enable_model_cpu_offload: needs offload = \"model\" "
      .. "(diffusers raises after enable_sequential_cpu_offload; under group offload name the kept modules in workload.resident)")
  end
  set(n, "pipe_to_gpu", to_gpu)
  -- the encoders that block-level group offload onloads whole (scripts/gen_parts.lua
  -- whole_under_block_level: no ModuleList among the top module's children), per component
  for _, t in ipairs(n.model.desc.tensors) do
    if t.group_whole and t.component then set(n, "group_whole." .. t.component, true) end
  end
  -- block-level group offload of a VAE: _apply_group_offloading_block_level groups only the
  -- direct ModuleList / Sequential children of the module it is given, and AutoencoderKL's are
  -- encoder, decoder, quant_conv, post_quant_conv: before diffusers v0.36.0 the whole VAE was one
  -- "unmatched" group. #12692 (f12d161d67, 2025-12-05, first released in v0.36.0) added
  -- _group_offload_block_modules = ["quant_conv", "post_quant_conv", "encoder", "decoder"] to
  -- AutoencoderKL and AutoencoderKLWan (autoencoder_kl.py line 75, autoencoder_kl_wan.py line 970
  -- @58eb52c0), through which the grouping recurses: the decoder's up_blocks go in groups, its
  -- conv_in, mid_block, norm and conv_out in the decoder's own group (src/gen.c gen_vae_groups).
  -- The other VAE classes (CogVideoX, LTX, HunyuanVideo, Mochi, Qwen-Image ...) carry no such list
  -- at 58eb52c0: onloaded whole in every release. An architecture names its VAE's class in
  -- p.vae_class; runtime.version unset reads as the newest release.
  if BLOCK_MODULE_VAES[p.vae_class] and n.runtime == "diffusers" and n.extra["gen.offload"] == "group" then
    local code = n.runtime_version and E.version_code(n.runtime_version, "a diffusers", "0.32.2")
    set(n, "vae_block_modules", code == nil or code >= 36000)
  end
  -- enable_group_offload(use_stream=True) onloads the next group on a side stream while one
  -- runs (diffusers hooks/group_offloading.py): two groups resident; without the stream one
  -- (src/gen.c gen_resident). diffusers' own default is use_stream=False; the calibration's
  -- group-offload runs (HunyuanVideo blog, Wan docs) are read with the stream
  if n.extra["gen.offload"] == "group" and n.runtime == "diffusers" and (n.knobs or {}).use_stream == nil then
    note(n, "diffusers group offload with use_stream assumed: the group in use and the next, prefetched "
      .. "(use_stream = false keeps one group, diffusers' own default)")
  end
  if n.extra["gen.offload"] == "group" and n.runtime == "diffusers" then M.stream_one_block(n) end
end

-- From v0.34.0 a block-level group offload with a stream holds one block a group:
-- _apply_group_offloading_block_level warns "Using streams is only supported for
-- num_blocks_per_group=1 ... Setting it to 1." and sets config.num_blocks_per_group = 1
-- (hooks/group_offloading.py lines 723-727 @58eb52c0; diffusers #11375, 6cef71de3a, first in
-- v0.34.0: with prefetching, onloading more than one block at a time buys nothing). The rule
-- applies where the stream is asked for: a use_stream = true knob (runtime or per component,
-- src/gen.c gen_group_of), release given or not (unset reads as the newest). The stream
-- vramfit assumes when runtime.use_stream is left out keeps num_blocks_per_group as given:
-- diffusers' own default has no stream, where every release honours it.
function M.stream_one_block(n)
  local code = n.runtime_version and E.version_code(n.runtime_version, "a diffusers", "0.32.2")
  local on = code == nil or code >= 34000
  set(n, "stream_one_block", on)
  local per = (n.knobs or {}).num_blocks_per_group
  if on and (n.knobs or {}).use_stream == true and (n.knobs or {}).offload_type ~= "leaf_level" and per and per > 1 then
    note(n, "diffusers %s: block_level with use_stream holds one block a group (num_blocks_per_group %d set to 1, "
      .. "from v0.34.0, #11375)", n.runtime_version or "(newest)", per)
  end
end

-- output_type, the diffusers pipelines' __call__ argument: "latent" returns the denoised latents
-- without decoding them (pipeline_cogvideox.py line 784 `if not output_type == "latent":` around
-- decode_latents, pipeline_flux.py line 956, pipeline_wan.py line 656 @58eb52c0), so no VAE decode
-- phase runs (src/gen.c gen_estimate); benchmark scripts decode after their measurement this way
-- (diffusers PR #9562's "5. Decode latents"). "pil", "np" and "pt" all decode.
local function output_part(w, n)
  if w.output_type == nil then return end
  local t = enum_field(w.output_type, "workload.output_type", { "pil", "np", "pt", "latent" })
  if t == "latent" and n.runtime ~= "diffusers" then
    fail("workload.output_type", "\"latent\" is diffusers' __call__ argument (runtime.name = \"diffusers\")")
  end
  set(n, "output_latent", t == "latent")
end

-- workload.fuse_qkv: the denoiser's fuse_qkv_projections() (diffusers models/attention_processor.py
-- Attention.fuse_projections, the same at bce9105ac7 and 58eb52c080): each Attention module gains
-- to_qkv, its q, k and v weights (and biases) concatenated, or to_kv (k and v) for a
-- cross-attention module (is_cross_attention: a cross_attention_dim given), and to_added_qkv
-- for a module with added projections (SD3's joint attention: add_q_proj, add_k_proj,
-- add_v_proj). Nothing deletes to_q / to_k / to_v, so the fused copies are resident beside
-- them. A module fused before it is quantized (optimum-quanto's quantize() + freeze() after
-- fuse_qkv_projections(), ai-compiler-study/quanto benchmark.py @85823e29ed load_pipeline) is
-- quantized like its parts, row by row, so a fused tensor stores the sum of its parts' bytes.
-- Which modules are cross attention is the description's pipeline.fuse_qkv.cross (module
-- names); a pipeline without that table is refused rather than guessed.
local function fuse_qkv(w, n, p)
  if w.fuse_qkv == nil or not bool_field(w.fuse_qkv, "workload.fuse_qkv") then return end
  local F = "workload.fuse_qkv"
  if n.runtime ~= "diffusers" then fail(F, "is diffusers' fuse_qkv_projections() (runtime.name = \"diffusers\")") end
  if type(p.fuse_qkv) ~= "table" then
    fail(F, "the attention modules of %s (architecture %s) are not described for fuse_qkv_projections(): "
      .. "supported for pixart, sd3", n.model.id, n.model.arch)
  end
  local cross = {}
  for _, m in ipairs(p.fuse_qkv.cross or {}) do cross[m] = true end
  local by, list = {}, n.model.desc.tensors
  for _, t in ipairs(list) do by[t.name] = t end
  local added, modules = {}, 0
  local function fused(pre, parts, to)
    local ws = {}
    for i, q in ipairs(parts) do
      ws[i] = by[pre .. "." .. q .. ".weight"]
      if not ws[i] then return end
    end
    for _, suffix in ipairs { "weight", "bias" } do
      local first = by[pre .. "." .. parts[1] .. "." .. suffix]
      if first then
        local out, bytes = 0, first.bytes and 0 or nil
        for _, q in ipairs(parts) do
          local x = by[pre .. "." .. q .. "." .. suffix]
          out = out + x.shape[1]
          if bytes then bytes = bytes + x.bytes end
        end
        local shape = { out }
        for i = 2, #first.shape do shape[i] = first.shape[i] end
        added[#added + 1] = { name = pre .. "." .. to .. "." .. suffix, shape = shape, count = first.count,
                              role = first.role, component = first.component, dtype = first.dtype,
                              qtype = first.qtype, bytes = bytes }
      end
    end
    modules = modules + 1
  end
  for _, t in ipairs(list) do
    local pre = t.component == "denoiser" and t.name:match("^(.*)%.to_q%.weight$")
    if pre then
      if cross[pre:match("([^.]+)$")] then fused(pre, { "to_k", "to_v" }, "to_kv")
      else fused(pre, { "to_q", "to_k", "to_v" }, "to_qkv") end
      fused(pre, { "add_q_proj", "add_k_proj", "add_v_proj" }, "to_added_qkv")
    end
  end
  for _, t in ipairs(added) do list[#list + 1] = t end
  note(n, "fuse_qkv: %d fused projections added beside the originals (Attention.fuse_projections keeps to_q, to_k, to_v)",
    modules)
end
M.fuse_qkv = fuse_qkv

local function normalize_with(w, n, frames, keys)
  strict("workload", w, keys)
  local p = pipeline_of(n)
  local W, H, img = shape(w, n, p, frames)
  if w.batch == nil then note(n, "batch 1 assumed") end
  local batch = int_field(w.batch or 1, "workload.batch", 1, 1024)
  batch = batch * int_field(w.num_images_per_prompt or 1, "workload.num_images_per_prompt", 1, 1024)
  local cfg = guidance(w, n, p)
  local steps = int_field(w.steps or 50, "workload.steps", 1, 10000)
  local len = text_part(w, n, p)
  -- images the pipeline conditions on (FLUX.1 Kontext's and Qwen-Image-Edit's input image,
  -- FLUX.2's reference images): VAE-encoded and packed like the output's latents, their
  -- tokens join the denoiser's sequence (taken at the output's size, as the edit pipelines
  -- resize the input to the output's area)
  local n_in = int_field(w.input_images or 0, "workload.input_images", 0, 16)
  if n_in > 0 and frames > 1 then fail("workload.input_images", "image conditioning is modelled for image pipelines only") end
  set(n, "input_images", n_in)
  local tokens = img * (1 + n_in) + (p.joint and len or 0)
  -- CFG runs the conditional and unconditional passes as one doubled batch unless the
  -- pipeline runs them one after the other (Wan, HunyuanVideo's true CFG, Mochi)
  -- (cfg_mult: Open-Sora 2.0's I2V denoiser batches text and image guidance: 3 passes)
  local den = batch * ((cfg and p.cfg_batched ~= false) and (p.cfg_mult or 2) or 1)
  set(n, "batch", batch); set(n, "den_batch", den); set(n, "cfg", cfg); set(n, "steps", steps)
  -- encode_prompt runs the negative prompt through the text encoders again, in their order
  -- (SD3, SDXL): under model offload the chain re-enters (src/gen.c gen_phases)
  set(n, "te_cfg_reentry", cfg and p.te_cfg_reentry == true)
  set(n, "img_tokens", img); set(n, "tokens", tokens)
  set(n, "hidden", n.model.desc.hidden); set(n, "heads", n.model.desc.heads or 1)
  set(n, "ffn", n.model.desc.intermediate or 4 * n.model.desc.hidden)
  set(n, "layers", n.model.desc.layers); set(n, "family", p.act_family or "image")
  set(n, "experts", p.experts or 1)
  -- the attention processor expands the [B, S] padding mask to a dense [B, 1, S, S] one per
  -- call (HunyuanVideo-1.5: two boolean copies, a repeat and an &; src/gen.c gen_dense_mask);
  -- the diffusers releases up to p.dense_attn_mask_until build one [B, S, S] mask instead
  -- (runtimes/diffusers.lua, which reads runtime.version); Chroma's blocks multiply a padding
  -- mask of the latents' dtype with its transpose: no boolean copy, one mask of the compute
  -- dtype that SDPA takes as it is (dense_attn_mask_float)
  set(n, "dense_attn_mask", p.dense_attn_mask == true); set(n, "dense_attn_mask_bools", p.dense_attn_mask_bools or 2)
  set(n, "dense_attn_mask_float", p.dense_attn_mask_float == true)
  -- the model's own reference scripts (runtime "reference"): what they keep in fp32
  set(n, "ref_fp32", p.ref_fp32 or "never"); set(n, "ref_vae_fp32", p.ref_vae_fp32 == true)
  set(n, "ref_vae_resident", p.ref_vae_resident == true)
  -- Wan2.2's generate.py --convert_model_dtype (runtimes/reference.lua): only Wan2.2's scripts
  -- have the flag (ref_fp32 "fsdp"); Wan2.1's keep the fp32 DiT whatever is asked
  if (n.knobs or {}).convert_model_dtype ~= nil and p.ref_fp32 ~= "fsdp" then
    fail("runtime.convert_model_dtype", "is Wan2.2 generate.py's --convert_model_dtype: expected a Wan2.2 model "
      .. "(got %s, whose reference scripts have no such flag)", n.model.id)
  end
  set(n, "token_timestep", p.token_timestep == true)
  -- diffusion forcing (SkyReels-V2's DF checkpoints: diffusers SkyReelsV2DiffusionForcingPipeline,
  -- from v0.35.0, transformer_skyreels_v2.py with enable_diffusion_forcing): a timestep per latent
  -- frame, which the transformer repeats over the frame's tokens (temb [B, L, dim] and
  -- timestep_proj [B, 6, L, dim] in the compute dtype, each block's fp32 sum with its
  -- scale_shift_table): the Wan2.2 TI2V per-token layout, src/gen.c gen_token_timestep
  local df = w.diffusion_forcing ~= nil and bool_field(w.diffusion_forcing, "workload.diffusion_forcing")
  if df and (n.runtime ~= "diffusers" or p.act_family ~= "wan") then
    fail("workload.diffusion_forcing", "SkyReels-V2's DiffusionForcingPipeline: expected a Wan-shaped transformer on "
      .. "runtime.name = \"diffusers\" (got %s on %s)", n.model.id, n.runtime)
  end
  set(n, "diffusers_token_timestep", p.diffusers_token_timestep == true or df == true)
  -- Open-Sora 2.0's text-to-image-to-video flow (configs t2i2v_*.py): an image model makes the
  -- first frame; offload "model" is its --offload True (src/gen.c gen_t2i_phase)
  local t2i2v = w.t2i2v ~= nil and bool_field(w.t2i2v, "workload.t2i2v")
  if t2i2v then
    if not p.t2i_params then
      fail("workload.t2i2v", "%s has no text-to-image stage (Open-Sora 2.0's FLUX.1-dev t2i2v flow)", n.model.id)
    end
    set(n, "t2i_params", p.t2i_params)
  elseif p.t2i_params and w.t2i2v == nil then
    note(n, "t2i2v off: direct text-to-video (configs/diffusion/inference/256px.py, 768px.py); the README's " ..
      "text-to-video commands (t2i2v_*.py) build FLUX.1-dev first: set workload.t2i2v = true for them")
  end
  memory_part(w, n, p, frames, W, H)
  -- Open-Sora's --offload (offload_model) acts only around the t2i2v image stage: prepare_models
  -- builds the video DiT and AE on the CPU only when img_flux is configured, and
  -- scripts/diffusion/inference.py moves models only inside `if use_t2i2v` (hpcaitech/Open-Sora
  -- @7ad6a96); without that stage every component stays resident
  if p.offload_t2i_only and n.runtime == "reference" and not t2i2v and n.extra["gen.offload"] ~= "none" then
    note(n, "offload %s has no effect without t2i2v in the reference scripts: every component resident",
      n.extra["gen.offload"])
    set(n, "offload", "none")
  end
  component_part(w, n, p)
  output_part(w, n)
  if w.vae_slicing and batch > 1 then set(n, "vae_pixels", n.extra["gen.vae_pixels"]) end
  set(n, "vae_images", (w.vae_slicing and 1 or batch))
  n.precision = { name = n.dtype, weights = n.dtype, grads = n.dtype, activations = n.dtype, master = false }
  n.optimizer = { name = "none", states = 0, state_extra_bits = 0, step_temps = 0 }
  -- T5's 'wo' stays fp32 when loading in fp16 (transformers _keep_in_fp32_modules)
  if n.dtype == "fp16" then
    for _, t in ipairs(n.model.desc.tensors) do
      if t.keep_fp32 and not t.qtype and not t.bytes then t.dtype = "fp32" end
    end
  end
  fuse_qkv(w, n, p)
end

M.kinds, M.KEYS, M.normalize_with = { "image" }, KEYS, normalize_with

function M.normalize(w, n, cfg)
  local _ = cfg
  normalize_with(w, n, 1, KEYS)
end

return M
