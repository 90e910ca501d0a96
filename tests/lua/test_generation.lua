-- test_generation.lua: exact parameter counts of the diffusion pipeline parts
-- (shared/calibration/models.jsonl and models_README.md) built by scripts/gen_parts.lua
-- and the pipeline architectures. Run from the repository root:
-- lua5.4 tests/lua/test_generation.lua
package.path = "scripts/?.lua;architectures/?.lua;" .. package.path
arch = require("prelude").arch
local P = require "gen_parts"
local presets = require "presets"

local passed, failed = 0, 0
local function eq(what, got, want)
  if got == want then passed = passed + 1
  else failed = failed + 1; print(("FAIL %s: %s, expected %s"):format(what, tostring(got), tostring(want))) end
end
local function count(list) local t = 0 for _, x in ipairs(list) do local p = x.count or 1 for _, d in ipairs(x.shape) do p = p * d end t = t + p end return t end
local function build(id)
  local p = presets.models[id]
  return require(({ stable_diffusion = "sd", ltx_video = "ltx" })[p.arch] or p.arch).build(p.config)
end

eq("CLIP-L text", count(P.clip_text(P.CLIP_L)), 123060480)
eq("OpenCLIP-bigG text + projection", count(P.clip_text(P.CLIP_G)), 694659840)
eq("T5-v1.1-XXL encoder", count(P.t5_encoder {}), 4762310656)
-- block-level group offload onloads T5EncoderModel and CLIPTextModel whole (no ModuleList among
-- their children); the Llama-layout LLM encoder keeps its per-block groups: every tensor tagged or none
local function whole(list) local n = 0 for _, x in ipairs(list) do if x.group_whole then n = n + 1 end end return n, #list end
local function all_or_none(list) local n, total = whole(list) return n == total and "all" or n == 0 and "none" or "some" end
eq("T5 whole under block level", all_or_none(P.t5_encoder {}), "all")
eq("CLIP whole under block level", all_or_none(P.clip_text(P.CLIP_L)), "all")
eq("LLM encoder grouped per block", all_or_none(P.llm_encoder { hidden = 4096, layers = 32, heads = 32, kv_heads = 8,
  ffn = 14336, vocab = 128320 }), "none")
eq("SD VAE", count(P.vae_kl(P.SD_VAE)), 83653863)
eq("FLUX VAE", count(P.vae_kl(P.FLUX_VAE)), 83819683)
local sd15 = build("stable-diffusion-v1-5/stable-diffusion-v1-5")
eq("SD1.5 UNet", P.params(sd15.tensors, "denoiser"), 859520964)
eq("SD1.5 pipeline", P.params(sd15.tensors), 1066235307)
local sdxl = build("stabilityai/stable-diffusion-xl-base-1.0")
eq("SDXL UNet", P.params(sdxl.tensors, "denoiser"), 2567463684)
eq("SDXL encoders", P.params(sdxl.tensors, "text_encoder") + P.params(sdxl.tensors, "text_encoder_2"), 817720320)
eq("SDXL pipeline", P.params(sdxl.tensors), 3468837867)
local flux = build("black-forest-labs/FLUX.1-dev")
eq("FLUX.1-dev transformer", P.params(flux.tensors, "denoiser"), 11901408320)
eq("FLUX.1-dev pipeline", P.params(flux.tensors), 16870599139)
-- Qwen-Image: the transformer checkpoint's 20,430,401,088 parameters, and the whole
-- Qwen2.5-VL-7B-Instruct (8,292,166,656, its preset's published count) as the text encoder
local qi = build("Qwen/Qwen-Image")
eq("Qwen-Image transformer", P.params(qi.tensors, "denoiser"), 20430401088)
eq("Qwen-Image text encoder", P.params(qi.tensors, "text_encoder"), 8292166656)
-- FLUX.2 [dev]: Flux2Transformer2DModel at convert_flux2_to_diffusers.py's "flux2-dev" config,
-- 32,223,281,152 parameters (the published "32B"); the whole Mistral-Small-3.2-24B (vision
-- tower and lm_head: Mistral3ForConditionalGeneration, 24,011,361,280 as the Mistral Small 3.1
-- preset); AutoencoderKLFlux2 84,046,115 (FLUX.1's AE + 16 more latent channels + quant convs).
-- The same three figures and 331 / 585 / 248 tensors (+3 BatchNorm buffers: 257 elements) were
-- read from the black-forest-labs/FLUX.2-dev safetensors headers by the public report "Seven
-- FLUX Artifacts Under the Microscope" (2026-08-02: denoiser 32,223,281,152, conditioner
-- 24,011,361,280, VAE 84,046,372 with the buffers, 1,167 tensors).
local f2 = build("black-forest-labs/FLUX.2-dev")
local function ntensors(list, comp)
  local n = 0 for _, x in ipairs(list) do if x.component == comp then n = n + (x.count or 1) end end return n
end
eq("FLUX.2-dev transformer", P.params(f2.tensors, "denoiser"), 32223281152)
eq("FLUX.2-dev text encoder", P.params(f2.tensors, "text_encoder"), 24011361280)
eq("FLUX.2-dev VAE", P.params(f2.tensors, "vae"), 84046115)
eq("FLUX.2-dev pipeline", P.params(f2.tensors), 56318688547)
eq("FLUX.2-dev tensors", ntensors(f2.tensors, "denoiser") + ntensors(f2.tensors, "text_encoder") + ntensors(f2.tensors, "vae") + 3, 1167)
eq("FLUX.2-dev text hidden (3 stacked layers = joint_attention_dim / 3)", f2.pipeline.text_hidden * 3, 15360)
eq("FLUX.2-dev guidance-distilled", f2.pipeline.cfg, false)
-- Z-Image-Turbo (architectures/zimage.lua): ZImageTransformer2DModel at the Hub's
-- transformer/config.json, 6,154,908,736 parameters (public safetensors-header reads of the
-- fp32 checkpoint; 453 tensors there with each block's q/k/v fused, 521 in diffusers' layout);
-- Qwen3-4B 4,022,468,096 (tied embedding once); FLUX.1's VAE
local zi = build("Tongyi-MAI/Z-Image-Turbo")
eq("Z-Image-Turbo transformer", P.params(zi.tensors, "denoiser"), 6154908736)
eq("Z-Image-Turbo transformer tensors, q/k/v fused", ntensors(zi.tensors, "denoiser") - 2 * 34, 453)
eq("Z-Image-Turbo text encoder (Qwen3-4B)", P.params(zi.tensors, "text_encoder"), 4022468096)
eq("Qwen3-4B preset", P.params(require("llama").build(presets.models["Qwen/Qwen3-4B"].config).tensors), 4022468096)
eq("Z-Image-Turbo VAE (FLUX.1's)", P.params(zi.tensors, "vae"), 83819683)
eq("Z-Image-Turbo pipeline", P.params(zi.tensors), 10261196515)
eq("Z-Image-Turbo CFG off (distilled), batched when on", tostring(zi.pipeline.cfg) .. tostring(zi.pipeline.cfg_batched), "falsetrue")
eq("Z-Image-Turbo prompt width = cap_feat_dim", zi.pipeline.text_hidden, 2560)
-- SANA (architectures/sana.lua): SanaTransformer2DModel 1,604,462,752 (Sana_1600M) and 591,747,872
-- (Sana_600M) by the diffusers layout (the paper's configuration table rounds them to 1604M and
-- 590M; by hand, 1600M: 20 blocks x 77,920,640 + embedders, caption projection, final layer
-- 46,049,952); Gemma-2-2B 2,614,341,888 (the count of google/gemma-2-2b's GGUF metadata and of
-- sum(p.numel()) in public loaders); AutoencoderDC dc-ae-f32c32-sana-1.0 312,250,275 (its
-- layout's count; no published figure was found to check it against)
local sana = build("Efficient-Large-Model/Sana_1600M_1024px_diffusers")
eq("Sana 1600M transformer", P.params(sana.tensors, "denoiser"), 1604462752)
eq("Sana 1600M transformer rounds to the paper's 1604M", math.floor(P.params(sana.tensors, "denoiser") / 1e6 + 0.5), 1604)
eq("Sana text encoder (Gemma-2-2B)", P.params(sana.tensors, "text_encoder"), 2614341888)
eq("Sana DC-AE f32c32", P.params(sana.tensors, "vae"), 312250275)
eq("Sana 1600M pipeline", P.params(sana.tensors), 4531054915)
eq("Sana 600M transformer", P.params(build("Efficient-Large-Model/Sana_600M_1024px_diffusers").tensors, "denoiser"), 591747872)
eq("Sana Mix-FFN width int(2.5 x 2240)", sana.intermediate, 5600)
eq("Sana 32x VAE, patch 1, 32 latent channels", sana.pipeline.vae_scale * 100 + sana.pipeline.patch * 10 + sana.pipeline.latent_channels // 32, 3211)
eq("Sana CFG batched, cross-attention (not joint)", tostring(sana.pipeline.cfg) .. tostring(sana.pipeline.cfg_batched) .. tostring(sana.pipeline.joint), "truetruefalse")
eq("Sana prompt width = caption_channels", sana.pipeline.text_hidden, 2304)
-- Chroma1-HD (architectures/chroma.lua): ChromaTransformer2DModel 8,899,983,424 = FLUX.1's
-- transformer (11,901,408,320) less its 19 x 2 + 38 modulation Linears, norm_out's Linear and the
-- time / guidance / pooled-text embedders (3,279,710,208: the card's "3.3B") plus the
-- distilled_guidance_layer (278,285,312: the card's "250M"); the card's "8.9 billion"; T5-XXL and
-- FLUX.1's VAE as above
local chroma = build("lodestones/Chroma1-HD")
eq("Chroma1-HD transformer", P.params(chroma.tensors, "denoiser"), 8899983424)
eq("Chroma1-HD = FLUX.1-dev transformer - modulation + approximator",
  P.params(flux.tensors, "denoiser") - 3279710208 + 278285312, 8899983424)
eq("Chroma1-HD T5-XXL", P.params(chroma.tensors, "text_encoder"), 4762310656)
eq("Chroma1-HD VAE (FLUX.1's)", P.params(chroma.tensors, "vae"), 83819683)
eq("Chroma1-HD pipeline", P.params(chroma.tensors), 13746113763)
eq("Chroma1-HD CFG on, sequential passes", tostring(chroma.pipeline.cfg) .. tostring(chroma.pipeline.cfg_batched), "truefalse")
eq("Chroma1-HD dense float mask, no boolean copy", tostring(chroma.pipeline.dense_attn_mask_float) .. chroma.pipeline.dense_attn_mask_bools, "true0")
-- Lumina-Image 2.0 (architectures/lumina2.lua): Lumina2Transformer2DModel 2,609,769,152 (the
-- checkpoint total the Unsloth Studio diffusion catalog lists for Alpha-VLLM/Lumina-Image-2.0; by
-- hand: 28 modulated blocks x 87,312,576 + 2 context refiners x 77,866,176 + embedders and final
-- layer 9,284,672); Gemma-2-2B as SANA's; FLUX.1's VAE
local lu = build("Alpha-VLLM/Lumina-Image-2.0")
eq("Lumina-Image-2.0 transformer", P.params(lu.tensors, "denoiser"), 2609769152)
eq("Lumina-Image-2.0 text encoder (Gemma-2-2B)", P.params(lu.tensors, "text_encoder"), 2614341888)
eq("Lumina-Image-2.0 VAE (FLUX.1's)", P.params(lu.tensors, "vae"), 83819683)
eq("Lumina-Image-2.0 pipeline", P.params(lu.tensors), 5307930723)
eq("Lumina-Image-2.0 SwiGLU width 4 d rounded to 256", lu.intermediate, 9216)
eq("Lumina-Image-2.0 CFG sequential, every Gemma layer's states", tostring(lu.pipeline.cfg) .. tostring(lu.pipeline.cfg_batched) .. lu.pipeline.te_layers, "truefalse26")
-- HunyuanImage-2.1 (architectures/hunyuanimage.lua): HunyuanImageTransformer2DModel 17,425,795,520
-- (the checkpoint total the Unsloth Studio diffusion catalog lists for
-- hunyuanvideo-community/HunyuanImage-2.1-Diffusers); Qwen2.5-VL-7B-Instruct whole, 8,292,166,656
-- (its preset, as Qwen-Image's); the glyph ByT5 219,314,944 (as HunyuanVideo-1.5's);
-- AutoencoderKLHunyuanImage 405,575,491 (its layout's count; no published figure found)
local hyi = build("hunyuanvideo-community/HunyuanImage-2.1-Diffusers")
eq("HunyuanImage-2.1 transformer", P.params(hyi.tensors, "denoiser"), 17425795520)
eq("HunyuanImage-2.1 text encoder (Qwen2.5-VL-7B)", P.params(hyi.tensors, "text_encoder"), 8292166656)
eq("HunyuanImage-2.1 ByT5", P.params(hyi.tensors, "text_encoder_2"), 219314944)
eq("HunyuanImage-2.1 VAE", P.params(hyi.tensors, "vae"), 405575491)
eq("HunyuanImage-2.1 pipeline", P.params(hyi.tensors), 26342852611)
eq("HunyuanImage-2.1 32x VAE, 64 channels, 2048 default", hyi.pipeline.vae_scale * 100000 + hyi.pipeline.latent_channels * 10000 + hyi.pipeline.default_side, 3200000 + 640000 + 2048)
eq("HunyuanImage-2.1 guider: sequential CFG", tostring(hyi.pipeline.cfg) .. tostring(hyi.pipeline.cfg_batched), "truefalse")
eq("HunyuanImage-2.1 text slots 1000 + 128", hyi.pipeline.text_len, 1128)
-- HunyuanVideo-1.5 (architectures/hunyuanvideo15.lua): DiT 8,326,608,160 (the published 8.3B),
-- ByT5 219,314,944 and VAE 1,260,634,115 as public checkpoint translators count them;
-- Qwen2.5-VL-7B's language model without lm_head 7,070,619,136
local hv = build("hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-480p_t2v")
eq("HunyuanVideo-1.5 transformer", P.params(hv.tensors, "denoiser"), 8326608160)
eq("HunyuanVideo-1.5 text encoder", P.params(hv.tensors, "text_encoder"), 7070619136)
eq("HunyuanVideo-1.5 ByT5", P.params(hv.tensors, "text_encoder_2"), 219314944)
eq("HunyuanVideo-1.5 VAE", P.params(hv.tensors, "vae"), 1260634115)
eq("HunyuanVideo-1.5 pipeline", P.params(hv.tensors), 16877176355)
eq("HunyuanVideo-1.5 default 848 x 480", hv.pipeline.default_width * 10000 + hv.pipeline.default_height, 8480480)
eq("HunyuanVideo-1.5 720p default 1280 x 720", build("hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-720p_t2v").pipeline.default_width, 1280)
eq("HunyuanVideo-1.5 CFG (sequential guider)", tostring(hv.pipeline.cfg) .. tostring(hv.pipeline.cfg_batched), "truefalse")
eq("HunyuanVideo-1.5 cfg-distilled: one pass", build("hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-480p_t2v_distilled").pipeline.cfg, false)
eq("HunyuanVideo-1.5 text tokens 729 + 256 + 1000", hv.pipeline.text_len, 1985)
-- HiDream-I1 (architectures/hidream.lua): HiDreamImageTransformer2DModel 17,105,733,184 (the
-- checkpoint total public model catalogs list for Full and Dev; by hand: 16 dual-stream blocks x
-- 424,089,600 + 32 single-stream x 305,438,720 + caption projections 49 x 4096 x 2560 + embedders
-- and final layer 32,458,304); CLIP-L with projection 123,650,304; OpenCLIP-bigG 694,659,840;
-- T5-XXL 4,762,310,656; Llama-3.1-8B-Instruct with lm_head 8,030,261,248 (the Llama-3.1-8B preset);
-- FLUX.1's VAE
local hi = build("HiDream-ai/HiDream-I1-Full")
eq("HiDream-I1 transformer", P.params(hi.tensors, "denoiser"), 17105733184)
eq("HiDream-I1 CLIP-L", P.params(hi.tensors, "text_encoder"), 123650304)
eq("HiDream-I1 CLIP-G", P.params(hi.tensors, "text_encoder_2"), 694659840)
eq("HiDream-I1 T5", P.params(hi.tensors, "text_encoder_3"), 4762310656)
eq("HiDream-I1 Llama-3.1-8B", P.params(hi.tensors, "text_encoder_4"), 8030261248)
eq("HiDream-I1 VAE", P.params(hi.tensors, "vae"), 83819683)
eq("HiDream-I1 pipeline", P.params(hi.tensors), 30800434915)
eq("HiDream-I1 expert width 6912 (int(2/3 x 4d) to 256)", hi.intermediate, 6912)
eq("HiDream-I1-Full CFG batched, Dev / Fast distilled", tostring(hi.pipeline.cfg) .. tostring(hi.pipeline.cfg_batched)
  .. tostring(build("HiDream-ai/HiDream-I1-Dev").pipeline.cfg) .. tostring(build("HiDream-ai/HiDream-I1-Fast").pipeline.cfg),
  "truetruefalsefalse")
eq("HiDream-I1 Dev = Full transformer", P.params(build("HiDream-ai/HiDream-I1-Dev").tensors, "denoiser"), 17105733184)
eq("HiDream-I1 joint text slots 3 x 128", hi.pipeline.text_len, 384)
-- the edit models that share a preset's shapes resolve to it
for alias, base in pairs { ["black-forest-labs/FLUX.1-Kontext-dev"] = "black-forest-labs/FLUX.1-dev",
                           ["Qwen/Qwen-Image-Edit"] = "Qwen/Qwen-Image", ["Qwen/Qwen-Image-Edit-2509"] = "Qwen/Qwen-Image" } do
  eq(alias .. " alias", presets.aliases[alias], base)
end
-- every pipeline preset builds, tags every tensor with a component and has a pipeline table
for id, p in pairs(presets.models) do
  if ({ stable_diffusion = 1, flux = 1, sd3 = 1, pixart = 1, wan = 1, hunyuanvideo = 1, cogvideox = 1,
        ltx_video = 1, mochi = 1, opensora = 1, hunyuandit = 1, qwenimage = 1, flux2 = 1, zimage = 1,
        hunyuanvideo15 = 1, hidream = 1, sana = 1, chroma = 1, lumina2 = 1, hunyuanimage = 1 })[p.arch] then
    local d = build(id)
    local untagged = 0
    for _, t in ipairs(d.tensors) do if not t.component then untagged = untagged + 1 end end
    eq(id .. " untagged tensors", untagged, 0)
    eq(id .. " pipeline table", type(d.pipeline), "table")
  end
end
-- Open-Sora 2.0's t2i2v stage: the FLUX.1-dev transformer and FLUX AE counts above
local os2 = build("hpcai-tech/Open-Sora-v2")
eq("Open-Sora t2i2v stage", os2.pipeline.t2i_params, 11901408320 + 83819683)
-- Hunyuan-DiT: the "1.5B" DiT (40 blocks of 1408, long skips into the last 19)
local hdit = build("Tencent-Hunyuan/HunyuanDiT-Diffusers")
eq("Hunyuan-DiT DiT 1.5B", math.floor(P.params(hdit.tensors, "denoiser") / 1e8 + 0.5), 15)
print(("test_generation: %d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
