-- vllm: paged KV cache sized from gpu_memory_utilization after a profile run
-- (src/rt_vllm.c). normalize fills the defaults that do not depend on the GPU and
-- records each as an assumption; the GPU-dependent ones (max_num_seqs,
-- max_num_batched_tokens: vllm/engine/arg_utils.py _set_default_args) are chosen in C.
local E = require "engine"

local LATEST = "0.19.0"
local FP8 = { fp8 = true, fp8_e4m3 = true, fp8_e5m2 = true, fp8_inc = true, fp8_ds_mla = true }

local note = E.note
local ROPE_FP32 = { gpt_oss = true }

-- Hybrids whose V0 model class keeps the recurrent state in its own MambaCacheManager
-- (vllm/model_executor/models/mamba_cache.py; jamba.py, bamba.py, nemotron_h.py,
-- granitemoehybrid.py, falcon_h1.py: HasInnerState, IsHybrid, SupportsV0Only until PR #20016
-- "Enable V1 for Hybrid SSM/Attention Models" (2025-06, first in 0.10.0), and still V0 by default
-- after it: "V1 mamba models are unoptimized" fell back to V0 unless VLLM_USE_V1 was set, as the
-- vllm#23230 log shows (0.10.1, model_runner.py). V1 by default from 0.10.2 (assumed: the first
-- release with V1-only hybrids, Qwen3-Next; 0.11.0 removed V0). src/rt_vllm.c mamba_cache_v0.
local V0_STATE = { jamba = true, bamba = true, nemotron_h = true, granitemoehybrid = true, falcon_h1 = true }
-- MiniMax-Text-01 / M1: V0's MinimaxCacheManager (minimax_text_01.py, SupportsV0Only until
-- vllm-project/vllm PR #22151 "[V1] [Hybrid] Support Minimax-Text-01 in V1", August 2025) holds
-- (lightning layers, max_num_seqs, heads / tp, d, d) in the default (model) dtype; V1 pages it.
-- vllm-project/vllm PR #19592 ("[Model] Fix minimax model cache & lm_head precision", merged
-- 2025-06-13, before MiniMax-M1's PR #19677; 0.9.2 assumed the first release) made that cache
-- MinimaxCacheManager(dtype=torch.float32) and cast the head to fp32 (self.lm_head.float() in
-- MiniMaxText01ForCausalLM.__init__, still there in V1). V1's state dtype is
-- MambaStateDtypeCalculator.linear_attention_state_dtype (mamba_utils.py, PR #22928): one tensor
-- in mamba_cache_dtype (the model dtype for auto), and "fp32 state for minimax is not yet
-- supported" for float32.
V0_STATE.minimax = true
local MINIMAX_FP32 = 9002
-- arch-mamba: the attention-free MambaForCausalLM (vllm-project/vllm PR #6484, 0.6.3),
-- FalconMambaForCausalLM (PR #9325) and Mamba2ForCausalLM: V0 classes with the same
-- MambaCacheManager (V1's oracle: "No Mamba or Encoder-Decoder so far"); V1 came with PR #20016's
-- hybrid allocator for Mamba2 and PR #21249 ("[v1] - Mamba1 Attention Metadata", 2025-07) for Mamba1,
-- behind the same "unoptimized" V0 fallback until 0.10.2 (assumed, as for the hybrids)
V0_STATE.mamba = true
-- Zamba2 (vllm/model_executor/models/zamba2.py, vllm-project/vllm PR #13185 "Add support for Zamba2
-- models", merged 2025-02: 0.8.0 assumed the first release, not read from the release notes): a V0
-- class with the same MambaCacheManager, taken to reach V1 with the other Mamba-2 hybrids (PR #20016's
-- era; assumed, not verified for zamba2.py)
V0_STATE.zamba2 = true
local ZAMBA2_SINCE = 8000
local V1_STATE_DEFAULT = 10002
local MTP_HYBRID_SINCE = { qwen3_next = { 10002, "0.10.2" }, qwen3_5 = { 17000, "0.17.0" } }

local function version_code(v) return E.version_code(v, "a vLLM", "0.19.0") end

-- Recurrent (Mamba-style) state dtypes: --mamba-cache-dtype (conv state, and the SSM state
-- when the next is auto) and --mamba-ssm-cache-dtype (vllm/config/cache.py MambaDType;
-- "auto" = the model dtype). MambaStateDtypeCalculator (vllm/model_executor/layers/mamba/
-- mamba_utils.py, 02d71083): conv = mamba_cache_dtype, temporal = mamba_ssm_cache_dtype,
-- auto -> the conv dtype. Gated DeltaNet ignored the SSM knob before PR #34489 (merged
-- 2026-02-13, first in 0.17.0: gated_delta_net_state_dtype returned (state, state)).
local MAMBA_DTYPES = { auto = 0, float32 = 4, bfloat16 = 2, float16 = 2 }
local GDN_SSM_KNOB_SINCE = { qwen3_next = 17000, qwen3_5 = 17000 }
-- Model classes whose config hook copies hf_text_config.mamba_ssm_dtype into an "auto"
-- mamba_ssm_cache_dtype (vllm/model_executor/models/config.py MODELS_CONFIG_MAP:
-- Qwen3_5ForConditionalGenerationConfig, PR #34489, 0.17.0); Qwen3NextForCausalLM has none.
local SSM_DTYPE_HOOK = { Qwen3_5ForConditionalGeneration = 17000, Qwen3_5MoeForConditionalGeneration = 17000 }
-- NemotronH's hook (vllm/model_executor/models/config.py NemotronHForCausalLMConfig, PR #29978,
-- merged 2025-12-03: 0.13.0 assumed the first release) reads the config's mamba_ssm_cache_dtype
-- into an "auto" --mamba-ssm-cache-dtype, float16 when the config has none; PR #39032 (merged
-- 2026-04-05: 0.20.0 assumed the first release, not verified) made that default float32.
-- Nemotron 3's configs set "float32" (NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 config.json, as #39032
-- quotes it); Nemotron-Nano-9B-v2's has none.
local NEMOTRON_H_SSM_HOOK, NEMOTRON_H_SSM_FP32_DEFAULT = 13000, 20000
local KDA_STATE_FP32 = { kimi_linear = true }

local function mamba_dtypes(n, knobs, code, v)
  local has = false
  for _, g in ipairs(n.model.desc.kv or {}) do has = has or g.kind == "mamba" end
  for _, k in ipairs { "mamba_cache_dtype", "mamba_ssm_cache_dtype" } do
    local v = knobs[k]
    if v ~= nil and MAMBA_DTYPES[v] == nil then
      E.fail("runtime." .. k, "expected auto, float32, bfloat16 or float16, got \"%s\"", tostring(v))
    end
  end
  if not has then return end
  local conv = knobs.mamba_cache_dtype or "auto"
  local ssm, why = knobs.mamba_ssm_cache_dtype or "auto", nil
  local cfg = type(n.model_config) == "table" and n.model_config or {}
  local tc = type(cfg.text_config) == "table" and cfg.text_config or cfg
  local archs = type(cfg.architectures) == "table" and cfg.architectures or {}
  local hook = SSM_DTYPE_HOOK[archs[1] or ""]
  if ssm == "auto" and hook and code >= hook and tc.mamba_ssm_dtype ~= nil then
    ssm = tc.mamba_ssm_dtype
    if MAMBA_DTYPES[ssm] == nil or ssm == "auto" then
      E.fail("runtime.mamba_ssm_cache_dtype", "the config's mamba_ssm_dtype \"%s\" is not float32, bfloat16 or float16", tostring(ssm))
    end
    why = "the config's mamba_ssm_dtype"
  end
  if ssm == "auto" and archs[1] == "NemotronHForCausalLM" and code >= NEMOTRON_H_SSM_HOOK then
    ssm = tc.mamba_ssm_cache_dtype or (code >= NEMOTRON_H_SSM_FP32_DEFAULT and "float32" or "float16")
    if MAMBA_DTYPES[ssm] == nil or ssm == "auto" then
      E.fail("runtime.mamba_ssm_cache_dtype", "the config's mamba_ssm_cache_dtype \"%s\" is not float32, bfloat16 or float16", tostring(ssm))
    end
    why = tc.mamba_ssm_cache_dtype and "the config's mamba_ssm_cache_dtype (vLLM's NemotronH hook)"
      or "vLLM's NemotronH hook default"
  end
  local since = GDN_SSM_KNOB_SINCE[n.model.desc.arch or ""]
  if since and code < since then
    if ssm ~= "auto" then note(n, "vLLM %s keeps the gated-DeltaNet SSM state in mamba_cache_dtype: mamba_ssm_cache_dtype ignored", v) end
    ssm, why = "auto", "gated DeltaNet before 0.17: both in mamba_cache_dtype"
  end
  -- Kimi Delta Attention keeps its recurrent state in float32 whatever the knobs
  -- (mamba_utils.py MambaStateDtypeCalculator.kda_state_dtype: (mamba_cache_dtype or the model
  -- dtype for the conv windows, torch.float32)); the conv windows follow mamba_cache_dtype
  if KDA_STATE_FP32[n.model.desc.arch or ""] then
    if knobs.mamba_ssm_cache_dtype ~= nil and knobs.mamba_ssm_cache_dtype ~= "float32" then
      note(n, "vLLM keeps Kimi Delta Attention's recurrent state in float32: mamba_ssm_cache_dtype ignored")
    end
    ssm, why = "float32", "Kimi Delta Attention: recurrent state always float32"
  end
  if ssm == "auto" then ssm = conv end
  n.extra["vllm.mamba_conv_bytes"] = MAMBA_DTYPES[conv]
  n.extra["vllm.mamba_ssm_bytes"] = MAMBA_DTYPES[ssm]
  if knobs.mamba_cache_dtype == nil or knobs.mamba_ssm_cache_dtype == nil then
    note(n, "vLLM recurrent state: conv in %s, SSM in %s (%s)", conv == "auto" and "the model dtype" or conv,
      ssm == "auto" and "the model dtype" or ssm, why or "mamba_cache_dtype / mamba_ssm_cache_dtype auto")
  end
end

-- MiniMax's lightning-attention state and head (V0_STATE's note above): V0 from PR #19592 keeps
-- the state in float32 whatever the knobs; V1 keeps it in mamba_cache_dtype alone and refuses
-- float32. From PR #19592 the untied lm_head is fp32 (src/rt_vllm.c rank_tensor_bytes).
local function minimax_state(n, knobs, code, v, v1)
  if code >= MINIMAX_FP32 then n.extra["vllm.lm_head_fp32"] = true end
  if not v1 then
    if code >= MINIMAX_FP32 then
      n.extra["vllm.mamba_conv_bytes"], n.extra["vllm.mamba_ssm_bytes"] = 4, 4
      note(n, "vLLM %s (V0) keeps MiniMax's lightning-attention state in float32 (MinimaxCacheManager, PR #19592): "
        .. "mamba_cache_dtype / mamba_ssm_cache_dtype not read", v)
    end
    return
  end
  if code >= V1_STATE_DEFAULT and knobs.mamba_cache_dtype == "float32" then
    E.fail("runtime.mamba_cache_dtype", "vLLM %s refuses float32 for MiniMax's lightning-attention state "
      .. "(MambaStateDtypeCalculator.linear_attention_state_dtype: \"fp32 state for minimax is not yet supported\")", v)
  end
  if knobs.mamba_ssm_cache_dtype ~= nil and knobs.mamba_ssm_cache_dtype ~= "auto" then
    note(n, "vLLM keeps MiniMax's lightning-attention state in one tensor of mamba_cache_dtype: mamba_ssm_cache_dtype not read")
  end
  n.extra["vllm.mamba_ssm_bytes"] = n.extra["vllm.mamba_conv_bytes"]
end

-- mamba_cache_mode (vllm/config/cache.py): how many recurrent-state blocks a request holds.
-- MambaSpec.max_memory_usage_bytes (vllm/v1/kv_cache_interface.py): "none" 1 +
-- num_speculative_blocks, "align" 2 + num_speculative_blocks (the previous block keeps the conv
-- lookback of the block-aligned prefix cache, PR #30877, merged 2025-12-17: 0.14 assumed the
-- first release). With --enable-prefix-caching vLLM sets "align" by default for the gated-DeltaNet
-- hybrids ("Mamba cache mode is set to 'align' for Qwen3_5ForConditionalGeneration by default when
-- prefix caching is enabled", printed by 0.20.0 and 0.23.1 logs; 0.20 assumed the first default:
-- no earlier log was found). Three logs print the concurrency it gives: RedHatAI/Qwen3.6-35B-A3B-
-- NVFP4 at 65,536 tokens, 3.87x = 147 blocks / (32 + 3 x 2) (0.20.0), and with MTP 2, 21.86x =
-- 2973 / (124 + 3 x 4) (0.20.0); nvidia/Qwen3.6-27B-NVFP4 + MTP 2, 5.32x = 936 / (164 + 3 x 4)
-- (0.23.1). Other hybrids keep "none" unless mamba_cache_mode is given ("all", a state block per
-- block of context, is not modelled).
local MAMBA_ALIGN_SINCE = 14000
local MAMBA_ALIGN_DEFAULT = { qwen3_next = 20000, qwen3_5 = 20000 }
local function mamba_cache_mode(n, knobs, code, v)
  local has = false
  for _, g in ipairs(n.model.desc.kv or {}) do has = has or g.kind == "mamba" end
  local m = knobs.mamba_cache_mode
  if m ~= nil then
    m = E.enum_field(m, "runtime.mamba_cache_mode", { "none", "align" })
    if not has then
      E.fail("runtime.mamba_cache_mode", "applies to models with recurrent (Mamba / DeltaNet) layers, and %s has none",
        n.model.id or "the model")
    end
    if m == "align" and code < MAMBA_ALIGN_SINCE then
      E.fail("runtime.mamba_cache_mode", "align needs vLLM 0.14 or later (PR #30877), got %s", v)
    end
  elseif has then
    local since = MAMBA_ALIGN_DEFAULT[n.model.desc.arch or ""]
    if since and code >= since and knobs.enable_prefix_caching == true then
      m = "align"
      note(n, "mamba_cache_mode align (vLLM's default with prefix caching for %s): 2 state blocks a request and group",
        n.model.desc.arch)
    elseif since and code >= since and knobs.enable_prefix_caching == nil then
      -- the logs behind the default all passed --enable-prefix-caching; whether vLLM turns it
      -- on by itself for these hybrids is not pinned, so the choice is said
      note(n, "mamba_cache_mode none assumed (prefix caching not given: 1 state block a request and group; " ..
              "with enable_prefix_caching = true vLLM uses align, 2)")
    end
  end
  n.extra["vllm.mamba_align"] = m == "align" and 1 or 0
end

local function default(n, knobs, key, value, why)
  if knobs[key] ~= nil then return knobs[key] end
  knobs[key] = value
  n.extra["runtime." .. key] = value
  note(n, "vLLM %s %s assumed (%s)", key, tostring(value), why)
  return value
end

-- The vision tower of an encoder-decoder model (mllama), read off its tensors, for the
-- V0 profile run (src/rt_vllm.c vision_bytes): fc1 of the local layers {I, h}, the
-- position embedding {patches, h}, the tile embedding {ratios, tiles x patches x h}, and
-- the projector, which takes the final state concatenated with the kept intermediate
-- states ({text hidden, h x (kept + 1)}: vision_output_dim). Tokens per image: each
-- tile's patches padded to a multiple of 8 (MllamaVisionModel.forward).
-- TODO(contract): a `vision` table in the description once docs/ARCHITECTURES.md and
-- tests/lua/test_architectures.lua admit the key.
local VISION = {
  fc1 = "^vision_model%.transformer%.layers%.[%d*]+%.mlp%.fc1%.weight$",
  pos = "^vision_model%.gated_positional_embedding%.embedding$",
  tile = "^vision_model%.gated_positional_embedding%.tile_embedding%.weight$",
  proj = "^multi_modal_projector%.weight$",
}

-- The first tensor of desc matching each pattern of pats ({key = pattern}), or nil unless
-- every pattern matched.
local function tensors(desc, pats)
  local found, n, want = {}, 0, 0
  for _ in pairs(pats) do want = want + 1 end
  for _, t in ipairs(desc.tensors or {}) do
    for k, pat in pairs(pats) do
      if found[k] == nil and type(t.name) == "string" and t.name:match(pat) then found[k], n = t, n + 1 end
    end
  end
  return n == want and found or nil
end

local function vision_shape(desc)
  local t = tensors(desc, VISION)
  if not t then return nil end
  local I, h, patches = t.fc1.shape[1], t.fc1.shape[2], t.pos.shape[1]
  local tiles = t.tile.shape[2] // (patches * h)
  return { hidden = h, intermediate = I, tokens_per_image = tiles * (patches + (8 - patches % 8) % 8),
           kept_states = t.proj.shape[2] // h - 1 }
end

-- Decoder-only multimodal models (vLLM's SupportsMultiModal): what the profile run feeds
-- the vision tower, read off the description's tensors plus the processor settings that
-- config.json does not hold. Per image at the size with the most features
-- (ProcessingInfo.get_image_size_with_most_features): the LLM tokens it becomes
-- (tokens), the encoder's sequence (patches), the fp32 pixel_values bytes the HF
-- processor hands over (pixel_bytes), the encoder width (hidden, intermediate, gated MLP)
-- and for Qwen2.5-VL the temporal patch (video frames per token group). src/rt_vllm.c
-- mm_profile does the arithmetic.

local function isqrt(x)
  local r = math.floor(math.sqrt(x))
  while r * r > x do r = r - 1 end
  while (r + 1) * (r + 1) <= x do r = r + 1 end
  return r
end

-- Qwen2.5-VL: smart_resize of the largest image to max_pixels (preprocessor_config.json
-- of every Qwen2.5-VL checkpoint: 12845056 = 3584^2) in steps of patch x merge pixels;
-- 2x2 patches merge into one token, and patches carry channels x temporal_patch x p x p
-- values (vllm/model_executor/models/qwen2_vl.py _get_vision_info). The 0.8-0.11 ViT
-- all-gathers the qkv projection under tensor parallelism (qwen2_5_vl.py split_qkv:
-- all_gather_interleave), and V0 copies the batched 3-D pixel tensor once more
-- (_validate_and_reshape_mm_tensor: torch.concat). rope_fp32: the 0.11 tower rotates
-- torch.cat([q, k]) through an fp32 copy (apply_rotary_pos_emb_vision; src/rt_vllm.c
-- mm_encoder_bytes).
local function qwen25_mm(desc, knobs)
  local t = tensors(desc, { pe = "^visual%.patch_embed%.proj%.weight$", m0 = "^visual%.merger%.mlp%.0%.weight$",
    up = "^visual%.blocks%.[%d*]+%.mlp%.up_proj%.weight$" })
  if not t then return nil end
  local pe, up, m0 = t.pe, t.up, t.m0
  local h, ch, tps, p = pe.shape[1], pe.shape[2], pe.shape[3], pe.shape[4]
  local merge = isqrt(m0.shape[2] // h)
  local maxpx = knobs.max_pixels or 12845056
  local side = isqrt(maxpx) // (p * merge) * (p * merge)
  if side == 0 then E.fail("runtime.max_pixels", "%d pixels hold no %dx%d token", maxpx, p * merge, p * merge) end
  local patches = (side // p) * (side // p)
  return { tokens = patches // (merge * merge), patches = patches, pixel_bytes = patches * ch * tps * p * p * 4,
           hidden = h, intermediate = up.shape[1], gated = 1, video_tps = tps, gather_qkv = 1, pixel_copies = 2,
           rope_fp32 = 1 }
end

-- Gemma 3: one 896 px SigLIP crop (pan-and-scan off by default), its patches pooled to
-- mm_tokens_per_image = 256 tokens (Gemma3Config default; vllm/model_executor/models/gemma3_mm.py).
local function gemma3_mm(desc)
  local t = tensors(desc, { pos = "^vision_tower%.vision_model%.embeddings%.position_embedding%.weight$",
    pe = "^vision_tower%.vision_model%.embeddings%.patch_embedding%.weight$",
    fc1 = "^vision_tower%.vision_model%.encoder%.layers%.[%d*]+%.mlp%.fc1%.weight$" })
  if not t then return nil end
  local pos, pe, fc1 = t.pos, t.pe, t.fc1
  local patches, h, ch, p = pos.shape[1], pe.shape[1], pe.shape[2], pe.shape[3]
  return { tokens = 256, patches = patches, pixel_bytes = patches * ch * p * p * 4, hidden = h,
           intermediate = fc1.shape[1], gated = 0, pixel_copies = 1 }
end

-- Llama 4: the image with the most features fills max_patches = 16 tiles of image_size
-- plus the global tile (preprocessor_config.json; vllm/model_executor/models/mllama4.py),
-- each tile's patches (+ class token) pixel-shuffled by 0.5 to a quarter as many tokens.
local function llama4_mm(desc)
  local t = tensors(desc, { pos = "^vision_model%.positional_embedding_vlm$",
    pe = "^vision_model%.patch_embedding%.linear%.weight$", fc1 = "^vision_model%.model%.layers%.[%d*]+%.mlp%.fc1%.weight$" })
  if not t then return nil end
  local pos, pe, fc1 = t.pos, t.pe, t.fc1
  local tiles, per = 16 + 1, pos.shape[1] - 1
  return { tokens = tiles * per // 4, patches = tiles * pos.shape[1], pixel_bytes = tiles * per * pe.shape[2] * 4,
           hidden = pe.shape[1], intermediate = fc1.shape[1], gated = 0, pixel_copies = 1 }
end

-- Mistral Small 3.1: Pixtral at its largest image, vision_config.image_size = 1540 px
-- (Mistral-Small-3.1-24B-Instruct-2503 config.json) in 14 px patches, 2x2 merged, one
-- [IMG_BREAK] per row of tokens (vllm/model_executor/models/mistral3.py get_num_image_tokens).
local function mistral3_mm(desc)
  local t = tensors(desc, { pe = "^vision_tower%.patch_conv%.weight$",
    up = "^vision_tower%.transformer%.layers%.[%d*]+%.feed_forward%.up_proj%.weight$",
    mg = "^multi_modal_projector%.patch_merger%.merging_layer%.weight$" })
  if not t then return nil end
  local pe, up, mg = t.pe, t.up, t.mg
  local h, ch, p = pe.shape[1], pe.shape[2], pe.shape[3]
  local merge, grid = isqrt(mg.shape[2] // h), 1540 // p
  local rows = grid // merge
  return { tokens = rows * (rows + 1), patches = grid * grid, pixel_bytes = grid * grid * ch * p * p * 4,
           hidden = h, intermediate = up.shape[1], gated = 1, pixel_copies = 1 }
end

-- LLaVA-1.5 / LLaVA-NeXT (vllm/model_executor/models/llava.py LlavaProcessingInfo, llava_next.py
-- LlavaNextProcessingInfo): the CLIP tower sees image_size px crops of (image_size / patch)^2
-- patches + the class token; vision_feature_select_strategy "default" drops one token from
-- the LLM tokens ("full" keeps it). LLaVA-1.5: one crop, 576 tokens at 336 px. LLaVA-NeXT: the
-- image with the most features is one of image_grid_pinpoints (get_image_size_with_most_features);
-- an image of h x w px is cut by the pinpoint select_best_resolution picks (the most of the image
-- kept, then the least padding; a pinpoint picks itself) into rows x cols crops
-- (get_anyres_image_grid_shape), and the tokens are the base crop's, the grid's (npatches x rows)
-- x (npatches x cols) features less the unpadding (_get_num_unpadded_features: none when the
-- aspect ratios agree) and one image_newline per feature row; the encoder runs 1 + rows x cols
-- crops. llava-v1.6's pinpoints: 672 x 672 -> 576 + 48 x 48 + 48 = 2928 tokens, 5 crops of 577
-- patches.
-- LLaVA-OneVision (llava_onevision.py LlavaOnevisionProcessingInfo): the SigLIP tower has no class
-- token ((384 // 14)^2 = 729 patches, "full": 729 base tokens); the unpadded grid is pooled back
-- when it exceeds 9 crops' worth by more than 10% (ratio = sqrt(h x w / (9 x npatches^2)) > 1.1:
-- int(h // ratio) x int(w // ratio) features and as many newlines as rows; vLLM hardcodes the 9
-- of anyres_max_9), and the image with the most features is vLLM's hardcoded 1153 x 944 px
-- ("found via processor tests"): pinpoint 1152 x 1536, 3 x 4 crops, 81 x 98 unpadded (ratio
-- 1.0999, not pooled) + 81 newlines + 729 = 8748 tokens from 13 crops of 384 px. Videos (pooled
-- frames of 196 tokens) are not modelled.
-- a pinpoint's height and width, each at least the vision crop
local function llava_pin(pin, size)
  pin = type(pin) == "table" and pin or {}
  local ph, pw = math.tointeger(pin[1]), math.tointeger(pin[2])
  if not ph or not pw or ph < size or pw < size then
    E.fail("model.config.image_grid_pinpoints", "expected [height, width] pairs of at least %d px (the vision crop), got [%s, %s]",
      size, tostring(pin[1]), tostring(pin[2]))
  end
  return ph, pw
end

local function llava_best(oh, ow, pins, size)
  local best, eff_best, waste_best
  for _, pin in ipairs(pins) do
    local ph, pw = llava_pin(pin, size)
    -- select_best_resolution (vllm/model_executor/models/llava_next.py, transformers image_processing_utils)
    local scale = math.min(pw / ow, ph / oh)
    local eff = math.min(math.floor(ow * scale) * math.floor(oh * scale), ow * oh)
    local waste = ph * pw - eff
    if not best or eff > eff_best or (eff == eff_best and waste < waste_best) then
      best, eff_best, waste_best = { ph, pw }, eff, waste
    end
  end
  return best[1] // size, best[2] // size
end

local function llava_tokens(oh, ow, pins, size, npatch, base, pool)
  local rows, cols = llava_best(oh, ow, pins, size)
  local ch_, cw = npatch * rows, npatch * cols
  -- original aspect ow / oh against the grid's cw / ch_, compared as integers
  if ow * ch_ > cw * oh then
    ch_ = ch_ - 2 * ((ch_ - oh * cw // ow) // 2)
  else
    cw = cw - 2 * ((cw - ow * ch_ // oh) // 2)
  end
  local feats, newlines = ch_ * cw, ch_
  if pool then
    local ratio = math.sqrt(ch_ * cw / (9 * npatch * npatch))
    if ratio > 1.1 then
      local hf, wf = math.floor(ch_ / ratio), math.floor(cw / ratio)
      feats, newlines = hf * wf, hf
    end
  end
  return base + feats + newlines, 1 + rows * cols
end

local function llava_mm(desc, knobs, cfg)
  local t = tensors(desc, { pos = "^vision_tower%.vision_model%.embeddings%.position_embedding%.weight$",
    pe = "^vision_tower%.vision_model%.embeddings%.patch_embedding%.weight$",
    fc1 = "^vision_tower%.vision_model%.encoder%.layers%.[%d*]+%.mlp%.fc1%.weight$" })
  if not t then return nil end
  local cls = tensors(desc, { c = "^vision_tower%.vision_model%.embeddings%.class_embedding$" }) and 1 or 0
  local per, h, ch, p = t.pos.shape[1], t.pe.shape[1], t.pe.shape[2], t.pe.shape[3]
  local npatch = isqrt(per - cls)
  cfg = type(cfg) == "table" and cfg or {}
  -- the crop: image_size px (SigLIP-384/14: 384 px, 27 patches a side and 6 px dropped)
  local vc = type(cfg.vision_config) == "table" and cfg.vision_config or {}
  local size = math.tointeger(vc.image_size) or npatch * p
  local base = cfg.vision_feature_select_strategy == "full" and per or per - 1
  local tokens, crops = base, 1
  local pins = cfg.image_grid_pinpoints
  if cfg.model_type == "llava_onevision" and type(pins) == "table" then
    tokens, crops = llava_tokens(944, 1153, pins, size, npatch, base, true)
  elseif cfg.model_type == "llava_next" and type(pins) == "table" then
    for _, pin in ipairs(pins) do
      local ph, pw = llava_pin(pin, size)
      local n, c = llava_tokens(ph, pw, pins, size, npatch, base, false)
      if n > tokens then tokens, crops = n, c end
    end
  end
  return { tokens = tokens, patches = crops * per, pixel_bytes = crops * ch * size * size * 4, hidden = h,
           intermediate = t.fc1.shape[1], gated = 0, pixel_copies = 1 }
end

-- InternVL in transformers' format (vllm/model_executor/models/interns1.py, which serves
-- InternVLForConditionalGeneration): an image is cut into 448 px tiles, each encoded with its
-- class token ((448 / 14)^2 + 1 = 1025 patches) and pixel-shuffled into (1 / downsample_ratio)^-2
-- as many tokens (256: image_seq_length). The image with the most features
-- (InternS1ProcessingInfo.get_image_size_with_most_features over get_interns1_target_ratios) has
-- max_patches tiles plus the thumbnail: GotOcr2ImageProcessor's max_patches 12 and InternVLProcessor's
-- crop_to_patches (its images_kwargs default) assumed, 13 tiles = 3328 tokens (the count vLLM's
-- InternVL2 logs print: "13 x 256 = 3328 multimodal tokens", vllm-project/vllm PR #6514).
local function internvl_mm(desc)
  local t = tensors(desc, { pos = "^model%.vision_tower%.embeddings%.position_embeddings$",
    pe = "^model%.vision_tower%.embeddings%.patch_embeddings%.projection%.weight$",
    fc1 = "^model%.vision_tower%.encoder%.layer%.[%d*]+%.mlp%.fc1%.weight$",
    ln = "^model%.multi_modal_projector%.layer_norm%.weight$" })
  if not t then return nil end
  local per, h, ch, ph, pw = t.pos.shape[2], t.pe.shape[1], t.pe.shape[2], t.pe.shape[3], t.pe.shape[4]
  local shuffle = t.ln.shape[1] // h
  local tiles = 12 + 1
  return { tokens = tiles * ((per - 1) // shuffle), patches = tiles * per,
           pixel_bytes = tiles * ch * (per - 1) * ph * pw * 4, hidden = h, intermediate = t.fc1.shape[1], gated = 0,
           pixel_copies = 1 }
end

-- Idefics3 / SmolVLM (vllm/model_executor/models/idefics3.py Idefics3ProcessingInfo, smolvlm.py):
-- the image with the most features is a square of the image processor's size["longest_edge"],
-- cut into ceil(longest_edge / max_image_size) tiles a side plus the global image, each tile
-- encoded at image_size ((image_size / patch)^2 patches, no class token) and pixel-shuffled by
-- scale_factor^2 into image_seq_len tokens: (grid_w x grid_h + 1) x image_seq_len. The processor
-- sizes are not in config.json; max_image_size = vision image_size and longest_edge = 4 x that
-- (Idefics3ImageProcessor's default 4 x 364; SmolVLM's preprocessor_config.json 2048 = 4 x 512)
-- are assumed: 17 tiles, SmolVLM-256M 17 x 64 = 1088 tokens, Idefics3-8B 17 x 169 = 2873.
local function idefics3_mm(desc)
  local t = tensors(desc, { pos = "^model%.vision_model%.embeddings%.position_embedding%.weight$",
    pe = "^model%.vision_model%.embeddings%.patch_embedding%.weight$",
    fc1 = "^model%.vision_model%.encoder%.layers%.[%d*]+%.mlp%.fc1%.weight$",
    proj = "^model%.connector%.modality_projection%.proj%.weight$" })
  if not t then return nil end
  local per, h, ch, p = t.pos.shape[1], t.pe.shape[1], t.pe.shape[2], t.pe.shape[3]
  local shuffle = t.proj.shape[2] // h
  local tiles = 4 * 4 + 1
  return { tokens = tiles * (per // shuffle), patches = tiles * per, pixel_bytes = tiles * ch * per * p * p * 4,
           hidden = h, intermediate = t.fc1.shape[1], gated = 0, pixel_copies = 1 }
end

-- GLM-4.1V / GLM-4.6V-Flash / GLM-4.5V (vllm/model_executor/models/glm4_1v.py Glm4vProcessingInfo,
-- Glm4vDummyInputsBuilder; GLM-4.5V's class is the same module): the dummy image is
-- get_image_size_with_most_features, _get_vision_info over a 9999999 px square with num_frames 16
-- and max_image_pixels 28 x 28 x 2 x 30000, i.e. transformers' glm4v smart_resize (num_frames,
-- height, width, factor = patch x merge, max_pixels): beta = sqrt(16 x 9999999^2 / 47040000),
-- floor(9999999 / beta / 28) x 28 = 61 x 28 = 1708 px. The image processor (Glm4vImageProcessor.resize:
-- smart_resize with num_frames = temporal_patch_size and max_pixels = size["longest_edge"], the
-- class's 28 x 28 x 15000 assumed: the checkpoints' preprocessor_config.json was not read; any
-- longest_edge of at least 2 x 1708^2 = 5834528 keeps the image) leaves 1708 x 1708: 122 x 122 =
-- 14884 patches of temporal_patch_size x 14 x 14 px (an image is its frame repeated), merged
-- 2 x 2 into 3721 tokens, the placeholder vLLM counts (no get_mm_max_tokens_per_item: the budget
-- is the processed dummy's; get_max_image_tokens' 5832 is not it). The tower: RMSNorm blocks with a
-- fused qkv and a SwiGLU MLP out_hidden_size wide (gate_up 2 x 4096). Not modelled: the
-- bicubic interpolation of the position table per image (Glm4vVisionEmbeddings) and videos (the
-- profile's dummy video of up to _MAX_FRAMES_PER_VIDEO = 600 frames at 1708 px, bounded by the
-- same 47040000 px-frames, can hold more tokens than the image at a long max_model_len).
local function pyround(x)  -- Python's round(): halves to even
  local f = math.floor(x)
  local d = x - f
  if d > 0.5 or (d == 0.5 and f % 2 == 1) then f = f + 1 end
  return math.tointeger(f) or f
end

-- transformers models/glm4v/image_processing_glm4v.py smart_resize, the height it returns for a
-- square (min_pixels 112 x 112 never binds here)
local function glm4v_resize(frames, side, factor, max_px, tf)
  local bar = pyround(side / factor) * factor
  local t_bar = pyround(frames / tf) * tf
  if t_bar * bar * bar > max_px then
    local beta = math.sqrt(frames * side * side / max_px)
    bar = math.max(factor, math.floor(side / beta / factor) * factor)
  end
  return math.tointeger(bar) or bar
end

local function glm4v_mm(desc)
  local t = tensors(desc, { pe = "^model%.visual%.patch_embed%.proj%.weight$",
    up = "^model%.visual%.blocks%.[%d*]+%.mlp%.up_proj%.weight$", ds = "^model%.visual%.downsample%.weight$" })
  if not t then return nil end
  local h, ch, tps, p = t.pe.shape[1], t.pe.shape[2], t.pe.shape[3], t.pe.shape[4]
  local merge = t.ds.shape[3]
  local side = glm4v_resize(16, 9999999, p * merge, 28 * 28 * 2 * 30000, tps)
  side = glm4v_resize(tps, side, p * merge, 28 * 28 * 15000, tps)
  local patches = (side // p) * (side // p)
  return { tokens = patches // (merge * merge), patches = patches, pixel_bytes = patches * ch * tps * p * p * 4,
           hidden = h, intermediate = t.up.shape[1], gated = 1, pixel_copies = 1 }
end

-- Qwen3.5 / 3.6 (Qwen3_5ProcessingInfo = Qwen3VLProcessingInfo, vllm/model_executor/models/
-- qwen3_5.py, qwen3_vl.py): the image with the most features is what
-- Qwen2VLProcessingInfo.get_image_size_with_most_features builds from max_pixels (the image
-- processor's size["longest_edge"] = 16777216 = 4096^2 in the preprocessor_config.json of the
-- Qwen3.5 and Qwen3.6 checkpoints): max_pixels // (patch x merge)^2 tokens, factored into the
-- closest height x width pair whose ratio is at most 200 (fewer tokens until one is), so
-- 16777216 px -> 128 x 128 tokens of 32 px = 16384 tokens, 256 x 256 = 65536 patches of 16 px.
-- A video is no larger: the video processor bounds all its frames together by its own
-- longest_edge 25165824 px (video_smart_resize), at most 25165824 / (32^2 x 2) = 12288 tokens,
-- so the profile encodes images (videos are not modelled). The tower (Qwen3_VisionTransformer):
-- LayerNorm blocks with a fused qkv and a GELU MLP linear_fc1 / linear_fc2 (not gated), fp32
-- pixel_values of channels x temporal_patch x p x p per patch cast once to the model dtype, and
-- before the blocks the learned position table interpolated per image
-- (fast_pos_embed_interpolate: four gathered rows per patch: mm.pos_interp, src/rt_vllm.c).
-- No split_qkv gather (vLLM 0.17+).
local function closest_pair(n)
  for d = isqrt(n), 1, -1 do
    if n % d == 0 then return d, n // d end
  end
  return 1, n
end

local function qwen3_mm(desc, knobs)
  local t = tensors(desc, { pe = "^model%.visual%.patch_embed%.proj%.weight$",
    fc1 = "^model%.visual%.blocks%.[%d*]+%.mlp%.linear_fc1%.weight$",
    m1 = "^model%.visual%.merger%.linear_fc1%.weight$" })
  if not t then return nil end
  local pe, fc1, m1 = t.pe, t.fc1, t.m1
  local h, ch, tps, p = pe.shape[1], pe.shape[2], pe.shape[3], pe.shape[4]
  local merge = isqrt(m1.shape[2] // h)
  local unit = p * merge
  local maxpx = knobs.max_pixels or 16777216
  local tokens = 0
  for n = maxpx // (unit * unit), 1, -1 do
    local a, b = closest_pair(n)
    if b <= 200 * a then tokens = n; break end
  end
  if tokens == 0 then E.fail("runtime.max_pixels", "%d pixels hold no %dx%d token", maxpx, unit, unit) end
  local patches = tokens * merge * merge
  return { tokens = tokens, patches = patches, pixel_bytes = patches * ch * tps * p * p * 4, hidden = h,
           intermediate = fc1.shape[1], gated = 0, pixel_copies = 1, pos_interp = 1 }
end

local MM = { qwen2_vl = qwen25_mm, gemma = gemma3_mm, llama4 = llama4_mm, mistral3 = mistral3_mm, qwen3_5 = qwen3_mm,
  qwen3_vl = qwen3_mm, llava = llava_mm, internvl = internvl_mm, idefics3 = idefics3_mm, glm4v = glm4v_mm }
-- Language-model-only mode: with --limit-mm-per-prompt giving every modality 0, these model
-- classes build no vision tower and projector (self.visual / self.vision_tower = None, and
-- Qwen3-VL no deepstack buffers), so their weights never load and the profile encodes nothing.
-- "Implicit language-model-only mode via limit-mm-per-prompt" (vllm-project/vllm PR #22299,
-- merged 2025-08-06, first in 0.10.1) made Qwen2.5-VL, Gemma 3, Llama 4 and Mistral 3 skip the
-- tower; Qwen3-VL (0.11) and Qwen3.5 skip it from their first release (qwen3_vl.py: the tower
-- and the deepstack buffers are built only when an image or video limit is non-zero; since PR
-- #32605 under _mark_tower_model(vllm_config, {"image", "video"})). Value: the first release
-- (version code) that skips.
-- LLaVA is not listed: its class builds the tower whatever the limits until the _mark_tower_model
-- refactor (PR #32605), whose release is not pinned here, so its weights are always counted.
local LANG_ONLY = { qwen2_vl = 10001, gemma = 10001, llama4 = 10001, mistral3 = 10001, qwen3_vl = 0, qwen3_5 = 0 }
local VIDEO_TOWER = { qwen2_vl = true, qwen3_vl = true, qwen3_5 = true }
-- the models whose image processor takes max_pixels (--mm-processor-kwargs)
local MAX_PIXELS = { qwen2_vl = true, qwen3_5 = true, qwen3_vl = true }

-- --limit-mm-per-prompt as vLLM's CLI takes it: "image=1,video=0".
local function mm_limits(s)
  local out = {}
  for part in tostring(s):gmatch("[^,]+") do
    local k, v = part:match("^%s*(%a+)%s*=%s*(%d+)%s*$")
    if not k or (k ~= "image" and k ~= "video" and k ~= "audio") then
      E.fail("runtime.limit_mm_per_prompt", "expected \"image=N,video=M\", got \"%s\"", tostring(s))
    end
    out[k] = tonumber(v)
  end
  return out
end

-- Multi-LoRA serving (vllm serve --enable-lora): runtime.lora = { max_loras, max_lora_rank,
-- fully_sharded, dtype, max_cpu_loras }, validated as vllm/config/lora.py LoRAConfig does
-- (vllm-project/vllm a78dc92f: MaxLoRARanks, max_loras >= 1, LoRADType, max_cpu_loras >=
-- max_loras). The C side (src/rt_vllm.c lora_*) sizes the stacked adapter buffers.
local LORA_RANKS = { 1, 8, 16, 32, 64, 128, 256, 320, 512 }
-- Model classes whose embedding_modules name embed_tokens and lm_head, so that vLLM wraps
-- them too (VocabParallelEmbeddingWithLoRA, LogitsProcessorWithLoRA; vllm/lora/utils.py
-- get_supported_lora_modules, 0fd15707): LlamaForCausalLM and its subclasses
-- (MistralForCausalLM, Phi3ForCausalLM; models/llama.py e06c9ba2) in every version;
-- Qwen3ForCausalLM from "[Bugfix][Model] Support LoRA on Qwen3 Output Embedding" (after the
-- extra-vocabulary removal of 0.12: 0.13 assumed, approximate). Qwen2, Gemma and the
-- others leave embedding_modules empty (models/qwen2.py).
local LORA_EMBED = { llama = 0, mistral = 0, phi3 = 0, qwen3 = 13000 }
-- Before 0.12 LlamaModel grew its embedding by lora_extra_vocab_size (256) x max_loras rows
-- and the lm_head by 256 rows padded to lora_vocab_padding_size 256 (models/llama.py <= 0.11).
local LORA_EXTRA_VOCAB = { llama = true, mistral = true, phi3 = true }

local function lora(n, lo, code, v)
  local F = "runtime.lora"
  E.strict_field(F, lo, { "max_loras", "max_lora_rank", "fully_sharded", "dtype", "max_cpu_loras" })
  local loras = lo.max_loras == nil and 1 or E.int_field(lo.max_loras, F .. ".max_loras", 1, 1 << 20)
  local rank = lo.max_lora_rank == nil and 16 or E.int_field(lo.max_lora_rank, F .. ".max_lora_rank", 1, 1 << 20)
  local ok = false
  for _, r in ipairs(LORA_RANKS) do ok = ok or r == rank end
  -- rank 1 joined the allowed ranks with vllm/config/lora.py (about 0.11; earlier
  -- possible_max_ranks = (8, 16, 32, 64, 128, 256, 320, 512))
  if not ok or (rank == 1 and code < 11000) then
    E.fail(F .. ".max_lora_rank", "vLLM %s accepts %s, got %d", v,
      code < 11000 and "8, 16, 32, 64, 128, 256, 320 or 512" or "1, 8, 16, 32, 64, 128, 256, 320 or 512", rank)
  end
  local sharded = false
  if lo.fully_sharded ~= nil then sharded = E.bool_field(lo.fully_sharded, F .. ".fully_sharded") end
  local dt = lo.dtype == nil and "auto" or E.enum_field(lo.dtype, F .. ".dtype", { "auto", "bfloat16", "float16" })
  local cpu = loras
  if lo.max_cpu_loras ~= nil then
    cpu = E.int_field(lo.max_cpu_loras, F .. ".max_cpu_loras", 1, 1 << 20)
    if cpu < loras then E.fail(F .. ".max_cpu_loras", "max_cpu_loras (%d) must be >= max_loras (%d)", cpu, loras) end
  end
  local mt = type(n.model_config) == "table" and n.model_config.model_type or n.model.desc.arch
  local since = LORA_EMBED[mt or ""]
  local embed = since ~= nil and code >= since
  n.extra["vllm.lora.max_loras"] = loras
  n.extra["vllm.lora.rank"] = rank
  n.extra["vllm.lora.fully_sharded"] = sharded
  n.extra["vllm.lora.bytes"] = dt == "auto" and 0 or 2
  n.extra["vllm.lora.embed"] = embed
  n.extra["vllm.lora.extra_vocab"] = code < 12000 and 256 or 0
  n.extra["vllm.lora.base_vocab"] = code < 12000 and LORA_EXTRA_VOCAB[mt or ""] == true
  note(n, "vLLM LoRA: %d adapter slot(s) of rank %d on the GPU (%s), %d in the CPU cache (host memory)%s%s",
    loras, rank, dt == "auto" and "model dtype" or dt, cpu, sharded and ", fully sharded" or "",
    embed and "; embed_tokens and lm_head wrapped too" or "")
end

-- The MoE backend of MXFP4 experts (gpt-oss) decides their padded layout (src/rt_vllm.c
-- mx_backend). vLLM's get_mxfp4_backend (model_executor/layers/quantization/mxfp4.py)
-- runs Hopper on Triton only when has_triton_kernels() finds the triton_kernels package
-- (and torch >= 2.8, VLLM_MXFP4_USE_MARLIN unset), else on Marlin. A plain pip install
-- lacked the package until the wheel bundled it as vllm/third_party/triton_kernels (PR
-- #28788, approved 2025-11-18, after 0.11.1; taken as 0.12.0, the first release cut after
-- it: 0.11.2 is not confirmed either way). Logs: pip installs of 0.10.1 (vllm#23278) and
-- 0.11.0 (vllm#27508) print Marlin on H100, 0.14.1 (vllm#33155) Triton. vLLM's images
-- carried triton_kernels earlier (llmd-emp-gpt-oss-20b, v0.11.0 image: Triton's layout).
-- The knob forces a backend on any GPU; without it Blackwell and others keep their
-- defaults in C, and Hopper's is set here.
local function mxfp4_default(n, knobs, code)
  local mx = false
  for _, t in ipairs(n.model.desc.tensors or {}) do mx = mx or t.qtype == "mxfp4" end
  if not mx and knobs.mxfp4_backend ~= nil then
    E.fail("runtime.mxfp4_backend", "applies to MXFP4 MoE experts (gpt-oss), and %s has none", n.model.id or "the model")
  end
  if not mx or knobs.mxfp4_backend ~= nil then return end
  local hopper = code >= 12000 and "triton" or "marlin"
  n.extra["vllm.mxfp4_hopper"] = hopper
  if hopper == "triton" then
    note(n, "vLLM mxfp4_backend by GPU assumed: Hopper triton (triton_kernels bundled since 0.12; "
      .. "VLLM_MXFP4_USE_MARLIN=1: marlin), SM100 flashinfer_trtllm, others marlin")
  else
    note(n, "vLLM mxfp4_backend by GPU assumed: Hopper marlin (a pip install before 0.12 lacks triton_kernels; "
      .. "vLLM's images: triton), SM100 flashinfer_trtllm, others marlin")
  end
end

-- The KV block size. vLLM's default is 16, but for MLA models (DeepSeek-V2/V3/R1, Kimi K2:
-- a kv group with mla = true) it forces the size its MLA attention backend takes, and that
-- backend depends on the GPU: src/rt_vllm.c mla_block_size decides per estimate (fit probes
-- other GPUs), from the given --block-size or none (runtime.block_size left unset). The eras
-- below mirror its VLLM_MLA_* thresholds, whose comment cites the PRs behind each era.
local MLA_ERAS = {
  { 18000, "Hopper 16 (FLASH_ATTN_MLA; fp8 KV: FlashMLA 64), SM10x 32 (FLASHINFER_MLA), others 16; "
      .. "the backend's preferred size (PR #35122)" },
  { 15000, "Hopper 64 (FlashMLA), SM10x 64 (FlashInfer MLA, PR #32615; CUTLASS_MLA 128 if "
      .. "qk_nope_head_dim != 128), others 16" },
  { 10001, "Hopper 64 (FlashMLA), SM100 128 (CUTLASS_MLA, PR #21626), others 16" },
  { 8000, "Hopper 64 (FlashMLA forces it, PR #14451), others 16" },
}

local function block_size(n, knobs, code, v)
  local given = knobs.block_size
  if given ~= nil and given <= 0 then E.fail("runtime.block_size", "expected a positive number of tokens, got %s", tostring(given)) end
  -- an MLA model as the C core tells one (src/estimate.c est_model_mla): an attention group
  -- caching one latent per token, v_dim 0 or absent; not a group vLLM caches expanded
  -- (expanded_by: MiniCPM3's per-head K/V, src/estimate.c est_runtime_layout)
  local mla = false
  for _, g in ipairs(n.model.desc.kv or {}) do
    local attn = g.kind == nil or g.kind == "attention"
    local expanded = false
    for _, r in ipairs(g.expanded_by or {}) do expanded = expanded or r == "vllm" end
    mla = mla or (attn and not expanded and (g.v_dim or 0) == 0 and (g.k_dim or 0) > 0)
  end
  local era
  for _, e in ipairs(MLA_ERAS) do
    if code >= e[1] then era = e; break end
  end
  if not mla or not era then
    default(n, knobs, "block_size", 16, "vLLM's default for CUDA attention backends")
    return
  end
  if given == nil then
    note(n, "vLLM %s KV block size for MLA by GPU assumed: %s", v, era[2])
  elseif code < 18000 then
    note(n, "vLLM %s may replace --block-size %d for MLA: Hopper needs %s (FlashMLA)%s", v, given,
      code < 11000 and "64" or "a multiple of 64",
      code >= 15000 and ", SM10x 32 or a multiple of 64 (FlashInfer MLA)"
        or (code >= 10001 and (code < 11000 and ", SM100 128 (CUTLASS_MLA)" or ", SM100 a multiple of 128 (CUTLASS_MLA)") or ""))
  end
end

-- The model runner (vllm/v1/worker/gpu_worker.py: GPUModelRunner of v1/worker/gpu_model_runner.py,
-- "V1", or of v1/worker/gpu/model_runner.py, "V2"). VllmConfig.use_v2_model_runner
-- (vllm/config/vllm.py) picks V2 when VLLM_USE_V2_MODEL_RUNNER is unset:
-- - from 0.23.0 for the classes in DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES that are neither MoE
--   nor quantized (_is_default_v2_model_runner_model): LlamaForCausalLM, MistralForCausalLM,
--   Qwen3ForCausalLM (the oracle as public v0.23.0 source-reading notes quote it; MiniCPM5-1B, a
--   LlamaForCausalLM, prints model_runner.py on 0.23.0);
-- - from 0.25.1 for dense models ("Model Runner V2 became the default for dense models in
--   0.25.1 ... before 0.25.1 dense FP8 models used the legacy runner": vLLM PR #49233 on issue
--   #49224), quantized ones too (vllm#50159: gemma-4-31B AWQ on V2 in 0.26.0; Qwen2.5-0.5B
--   prints "Using V2 Model Runner" on 0.26.0). MoE models stay on V1 (Qwen3-235B-A22B-FP8 on
--   0.27.1 prints gpu_model_runner.py), and so do the hybrids with recurrent state (LFM2 on
--   0.26.0, Qwen3.6-27B on 0.27.1 print gpu_model_runner.py);
-- - anything V2 lacks falls back to V1 (_get_v2_model_runner_unsupported_features: ngram
--   speculation among them).
-- vllm#53183 ("Use MRV2 for all models by default", first in 0.29.0) widens it again: not
-- modelled. runtime.model_runner overrides the oracle.
local V2_RUNNER_CLASSES = { LlamaForCausalLM = true, MistralForCausalLM = true, Qwen3ForCausalLM = true }
-- the class of an inline config that names none, by its description's architecture
local ARCH_CLASS = { llama = "LlamaForCausalLM", mistral = "MistralForCausalLM", qwen3 = "Qwen3ForCausalLM" }

local function model_runner(n, knobs, code, v1)
  local given = knobs.model_runner
  if given ~= nil then
    if given == "v2" and (not v1 or code < 23000) then
      E.fail("runtime.model_runner", "the V2 model runner is modelled from vLLM 0.23.0 (VLLM_USE_V2_MODEL_RUNNER), got %s", n.runtime_version or "an older release")
    end
    n.extra["vllm.v2_runner"] = given == "v2"
    return
  end
  if not v1 or code < 23000 then return end
  local desc = n.model.desc
  local cfg = type(n.model_config) == "table" and n.model_config or {}
  local archs = type(cfg.architectures) == "table" and cfg.architectures or { ARCH_CLASS[desc.arch or ""] }
  local state = false
  for _, g in ipairs(desc.kv or {}) do state = state or g.kind == "mamba" end
  local moe = type(desc.block) == "table" and (desc.block.experts or 0) > 0
  local why
  if moe then
    why = "MoE models stay on V1"
  elseif state then
    why = "hybrids with recurrent state stay on V1"
  elseif code < 25001 and not V2_RUNNER_CLASSES[archs[1] or ""] then
    why = (archs[1] or "the model") .. " is not among 0.23's V2 default classes"
  elseif code < 25001 and n.extra["quant.name"] ~= nil then
    why = "quantized checkpoints stay on V1 before 0.25.1"
  elseif knobs.speculative ~= nil and knobs.speculative.method == "ngram" then
    why = "ngram speculation is not in the V2 runner"
  end
  local v2 = why == nil
  knobs.model_runner = v2 and "v2" or "v1"
  n.extra["runtime.model_runner"] = knobs.model_runner
  n.extra["vllm.v2_runner"] = v2
  note(n, "vLLM model runner %s assumed (%s; VLLM_USE_V2_MODEL_RUNNER unset)", knobs.model_runner,
    v2 and (code < 25001 and ("0.23's V2 default for " .. archs[1]) or "the V2 default for dense models from 0.25.1") or why)
end

-- --quantization METHOD. vLLM reads a pre-quantized checkpoint's method from its
-- quantization_config, and the flag must agree with it (vllm/config/model.py
-- _verify_quantization: "Quantization method specified in the model config (...) does not
-- match the quantization method specified in the `quantization` argument (...)"; the
-- Marlin, Machete and compressed-tensors overrides take the checkpoint's format). On an
-- unquantized checkpoint two methods quantize at load: fp8 (Fp8LinearMethod without a
-- serialized checkpoint: scaled_fp8_quant, one fp32 scale a tensor; Fp8MoEMethod the same
-- for the experts) and bitsandbytes (the bitsandbytes loader's quantize_4bit, nf4 with
-- compress_statistics=True); the others need the checkpoint's config ("Cannot find the
-- config file for <method>"). FLAG_FORMATS: the vramfit formats each method loads.
local FLAG_FORMATS = {
  fp8 = { "fp8" }, fbgemm_fp8 = { "fp8" }, modelopt = { "fp8" },
  awq = { "awq" }, awq_marlin = { "awq" }, gptq = { "gptq" }, gptq_marlin = { "gptq" },
  ["compressed-tensors"] = { "compressed-tensors-w4a16", "w8a8", "fp8", "nvfp4" },
  modelopt_fp4 = { "nvfp4" }, mxfp4 = { "mxfp4" }, gguf = { "gguf" },
  bitsandbytes = { "bnb-nf4", "bnb-fp4", "bnb-int8" },
}
local LOAD_QUANT = { fp8 = "fp8", bitsandbytes = { name = "bnb-nf4", double_quant = true } }

local function flag_method(knobs)
  local m = knobs.quantization
  if m == nil then return nil end
  if not FLAG_FORMATS[m] then
    local names = {}
    for k in pairs(FLAG_FORMATS) do names[#names + 1] = k end
    table.sort(names)
    E.fail("runtime.quantization", "vLLM method '%s' is not modelled (modelled: %s)", m, table.concat(names, ", "))
  end
  return m
end

-- rt.quant_keep: vLLM's Gemma 4 (vllm/model_executor/models/gemma4_mm.py,
-- Gemma4ForConditionalGeneration.__init__, "Only quantize towers when the quant method supports
-- their dimensions", mgoin's TODO on kernel padding) builds the vision and audio towers and their
-- embedders (embed_vision, embed_audio) with the model's quant_config only for bitsandbytes,
-- torchao and compressed-tensors, or when the vision tower's hidden and intermediate sizes are
-- multiples of 64 (the Marlin and FP8 kernels' requirement). The 26B-A4B and 31B tower (1152
-- wide, FFN 4304) so stays in the model dtype under fp8 (online or checkpoint), fbgemm_fp8, AWQ,
-- GPTQ, ModelOpt; E2B's and E4B's (768, 3072) is quantized with the rest. Applied to every
-- release that runs Gemma 4 (the block's first release is not traced).
local TOWER_QUANT_ANY = { bitsandbytes = true, torchao = true, ["compressed-tensors"] = true }
local GEMMA4_TOWERS = { "^model\\.(vision_tower|embed_vision|audio_tower|embed_audio)\\." }
local function quant_keep(n, spec)
  if n.model.arch ~= "gemma4" then return nil end
  local vc = type(n.model_config) == "table" and n.model_config.vision_config
  if type(vc) ~= "table" then return nil end
  if TOWER_QUANT_ANY[require("quant").method(spec, n.model.qconfig)] then return nil end
  local h, I = math.tointeger(vc.hidden_size), math.tointeger(vc.intermediate_size)
  if h and I and h % 64 == 0 and I % 64 == 0 then return nil end
  note(n, "vLLM's Gemma 4 keeps its vision / audio towers unquantized (vision %s x %s: not multiples of 64)",
    tostring(vc.hidden_size), tostring(vc.intermediate_size))
  return GEMMA4_TOWERS
end

-- The batched-token floor of a multimodal prefix-LM. vLLM forces --disable_chunked_mm_input
-- for a model whose image tokens attend bidirectionally ("Forcing --disable_chunked_mm_input
-- for models with multimodal-bidirectional attention", platforms/cuda.py). After that, one
-- whole multimodal item has to fit in a step: "Chunked MM input disabled but
-- max_tokens_per_mm_item (2496) is larger than max_num_batched_tokens (2048)" for
-- gemma-4-26B-A4B-it (vllm-project/recipes PR #572) and for gemma-4-31b-it on GPUs under 70 GB
-- (vllm-project/vllm issue #42687, 0.20.0). PR #43051 ("Auto-raise max_num_batched_tokens
-- for prefix-LM multimodal models", posted 2026-05-19) changed the defaulting step. When the
-- value is not given and the model is multimodal and a prefix-LM, _set_default_max_num_seqs_
-- and_batched_tokens_args now raises the default to the largest item. For Gemma 4 that is the
-- video budget, 32 frames x (70 + 2 + 6) = 2496 tokens (the PR's figures), clamped to
-- max_model_len afterwards.
-- Which Gemma 4 checkpoints are prefix-LMs: the text config's use_bidirectional_attention =
-- "vision" marks them (26B-A4B, 31B). E2B and E4B carry no such key, and the E4B log of
-- round 18 (0.25.1 on an L40S) matches 2048 to the block. Its sliding-window pages would hold
-- 448 more tokens at 2496.
-- Release: from 0.22.0 (2026-05-30). That is the first release surely after the PR; whether
-- 0.21.0 carries it is not traced. Before the PR, such a default start failed with the
-- ValueError above, which is not modelled.
local MM_PREFIX_FLOOR_SINCE = 22000
local GEMMA4_VIDEO_ITEM = 32 * (70 + 2 + 6)
local function mm_batched_floor(n, knobs, code, v1)
  if n.model.desc.arch ~= "gemma4" or not v1 or code < MM_PREFIX_FLOOR_SINCE then return end
  local cfg = type(n.model_config) == "table" and n.model_config or {}
  local tc = type(cfg.text_config) == "table" and cfg.text_config or {}
  if type(cfg.vision_config) ~= "table" or tc.use_bidirectional_attention ~= "vision" then return end
  n.extra["vllm.mm_batched_floor"] = GEMMA4_VIDEO_ITEM
  if knobs.max_num_batched_tokens == nil then
    note(n, "vLLM raises the default max_num_batched_tokens to Gemma 4's largest multimodal item, %d tokens " ..
      "(a prefix-LM with chunked multimodal input disabled; vllm PR #43051), where the GPU's default is smaller",
      GEMMA4_VIDEO_ITEM)
  end
end

-- rt.quant: what --quantization makes of an unquantized checkpoint
local function load_quant(n, knobs)
  local m = flag_method(knobs)
  if m == nil then return nil end
  if not LOAD_QUANT[m] then
    E.fail("runtime.quantization", "vLLM's %s loads a pre-quantized checkpoint, and %s has no quantization_config " ..
      "(give the checkpoint's layout as quant, see 'vramfit list quants')", m, n.model.id or "the model")
  end
  note(n, "vLLM --quantization %s quantizes the checkpoint at load (quant %s)", m,
    type(LOAD_QUANT[m]) == "table" and LOAD_QUANT[m].name or LOAD_QUANT[m])
  return LOAD_QUANT[m]
end

-- A checkpoint's quantization_config names its method, and vLLM compares the flag with that
-- name, not with the weights' format (vllm/config/model.py _verify_quantization: only a
-- method's override_quantization_method may rename it: gptq_marlin / awq_marlin take "gptq" /
-- "awq" checkpoints when the flag is unset or "marlin"; ModelOpt's own configs answer only to a
-- "modelopt" quant_method). So an FP8 checkpoint of quant_method "fp8" (DeepSeek-V3) refuses
-- --quantization compressed-tensors or modelopt although FLAG_FORMATS lets those methods load FP8
-- weights: theirs are compressed-tensors' and ModelOpt's own FP8 checkpoints. Checkpoint
-- quant_method -> the flags vLLM accepts for it.
local CKPT_FLAGS = {
  fp8 = { fp8 = true }, fbgemm_fp8 = { fbgemm_fp8 = true }, ["compressed-tensors"] = { ["compressed-tensors"] = true },
  modelopt = { modelopt = true, modelopt_fp4 = true }, mxfp4 = { mxfp4 = true }, bitsandbytes = { bitsandbytes = true },
  gptq = { gptq = true, gptq_marlin = true }, awq = { awq = true, awq_marlin = true },
}

-- the flag against the format the checkpoint (or the scenario's quant) carries
local function check_flag(n, knobs)
  local m = flag_method(knobs)
  if m == nil then return end
  local qc = n.model.qconfig
  local qm = qc and type(qc.quant_method) == "string" and qc.quant_method:lower()
  if qm and CKPT_FLAGS[qm] and not CKPT_FLAGS[qm][m] then
    E.fail("runtime.quantization", "vLLM's %s does not match the checkpoint's quantization_config quant_method %s " ..
      "(vLLM refuses the pair; drop the flag or give %s)", m, qm, qm)
  end
  local have = (n.extra["quant.name"] or ""):match("^[^:]*")
  for _, f in ipairs(FLAG_FORMATS[m]) do
    if f == have then return end
  end
  E.fail("runtime.quantization", "vLLM's %s does not load the model's %s weights (vLLM refuses the pair; " ..
    "drop the flag or give the checkpoint's own method)", m, have)
end

local function normalize(n, knobs)
  check_flag(n, knobs)
  local v = n.runtime_version
  local vis = vision_shape(n.model.desc)
  local encdec = vis ~= nil
  for k, x in pairs(vis or {}) do n.extra["vision." .. k] = x end
  if v == nil and encdec then
    -- the V1 engine never ran encoder-decoder models (mllama fell back to V0 from 0.8 and
    -- was removed with V0 in 0.10.2): the last release that ran V0 by default
    v = "0.7.3"
    note(n, "vLLM version %s assumed: %s runs on the V0 engine only (encoder-decoder)", v, n.model.desc.arch or "the model")
  elseif v == nil then
    v = LATEST
    note(n, "vLLM version %s assumed (the newest modelled; V1 engine)", LATEST)
  end
  local code = version_code(v)
  n.extra["vllm.version"] = code
  if code > version_code(LATEST) then
    note(n, "vLLM %s is newer than the newest modelled (%s): changes after %s are not modelled beyond 0.20's "
      .. "CUDA-graph memory profiling default, 0.20.1's KV-cache-size line and the V2 model runner of 0.23 "
      .. "(its default models, no CUDA-graph estimate, no sampler in the profile's non-torch memory)", v, LATEST, LATEST)
  end
  local util = default(n, knobs, "gpu_memory_utilization", 0.9, "vLLM's default")
  if util <= 0 or util > 1 then E.fail("runtime.gpu_memory_utilization", "expected a fraction in (0, 1], got %s", tostring(util)) end
  local mp = n.model.desc.max_position
  -- a request longer than --max-model-len is refused (vLLM's "maximum context length" error):
  -- a workload of longer sequences does not run under the scenario's own flag
  if knobs.max_model_len ~= nil and math.type(knobs.max_model_len) == "integer" and n.context > knobs.max_model_len then
    E.fail("workload.context", "%d tokens is more than runtime.max_model_len %d: vLLM refuses a longer request "
      .. "(raise max_model_len, or leave it out to serve the context)", n.context, knobs.max_model_len)
  end
  local mml = default(n, knobs, "max_model_len", n.context,
    mp and ("workload.context; vLLM's own default is max_position_embeddings " .. mp) or "workload.context")
  if mp and mml > mp then note(n, "max_model_len %d exceeds max_position_embeddings %d (vLLM needs VLLM_ALLOW_LONG_MAX_MODEL_LEN)", mml, mp) end
  block_size(n, knobs, code, v)
  -- --max-cudagraph-capture-size (compilation_config.max_cudagraph_capture_size): the largest
  -- CUDA-graph size, in place of vLLM's min(2 x max_num_seqs (x (1 + speculative tokens) from 0.13),
  -- 512) or gpt-oss's 1024 (src/rt_vllm.c capture_sizes_upto); V1 only, read by the C core
  local mcs = knobs.max_cudagraph_capture_size
  if mcs ~= nil and mcs <= 0 then
    E.fail("runtime.max_cudagraph_capture_size", "expected a positive number of tokens, got %s", tostring(mcs))
  end
  local kvd = knobs.kv_cache_dtype or "auto"
  if kvd ~= "auto" and not FP8[kvd] and kvd ~= "bfloat16" and kvd ~= "float16" then
    E.fail("runtime.kv_cache_dtype", "expected auto, fp8, fp8_e4m3 or fp8_e5m2, got \"%s\"", kvd)
  end
  n.extra["vllm.kv_bytes"] = FP8[kvd] and 1 or (kvd == "auto" and 0 or 2)
  -- DeepSeek-V3.2's sparse attention (a kv group of fixed bytes a token: the indexer's keys,
  -- architectures/deepseek.lua). DeepseekV32ForCausalLM came in 0.11.0 (vllm-project/vllm PR #25896,
  -- merged 2025-09-29). An fp8 KV is stored as "fp8_ds_mla" (src/rt_vllm.c token_bytes). 0.11.x
  -- also turn "auto" into it (model_executor/models/config.py DeepseekV32ForCausalLM
  -- .verify_and_update_config: `cache_dtype == "auto" or startswith("fp8")` -> "fp8_ds_mla", PR
  -- #25988); later releases map only an fp8 KV ("a custom fp8 format is used when fp8 kv-cache is
  -- enabled"), "auto" staying bf16. The release of that change is not pinned: 0.12.0 assumed.
  local sparse = false
  for _, g in ipairs(n.model.desc.kv or {}) do sparse = sparse or g.bytes ~= nil end
  if sparse then
    if code < 11000 then
      E.fail("runtime.version", "vLLM %s has no model class for DeepSeek-V3.2's sparse attention (first in 0.11.0)", v)
    end
    if kvd == "auto" and code < 12000 then
      n.extra["vllm.kv_bytes"] = 1
      note(n, "vLLM %s stores DeepSeek-V3.2's KV as fp8_ds_mla when kv_cache_dtype is auto (656 B a token and layer)", v)
    end
  end
  mamba_dtypes(n, knobs, code, v)
  mamba_cache_mode(n, knobs, code, v)
  -- model classes that build their rotary cos/sin cache in fp32 whatever the model dtype
  -- (vllm/model_executor/models/gpt_oss.py: get_rope(..., dtype=torch.float32))
  if ROPE_FP32[n.model.desc.arch or ""] then n.extra["vllm.rope_bytes"] = 4 end
  -- Qwen3-VL's deepstack buffers: levels x text hidden per batched token, allocated at model
  -- init (qwen3_vl.py deepstack_input_embeds; src/rt_vllm.c deepstack_buffers)
  local ds = tensors(n.model.desc, { fc2 = "^model%.visual%.deepstack_merger_list%.%*%.linear_fc2%.weight$" })
  if ds then n.extra["vllm.deepstack_width"] = ds.fc2.count * ds.fc2.shape[1] end
  mxfp4_default(n, knobs, code)
  -- Which top-k / top-p sampler the profile's dummy sampler run takes (src/rt_vllm.c
  -- sampler_extra, VLLM_FI_SAMPLER_OFF). vllm/v1/sample/ops/topk_topp_sampler.py of 0.8-0.11.0
  -- (code index copies 32277392728, 2867189189): on CUDA, when `import flashinfer` succeeds
  -- and `envs.VLLM_USE_FLASHINFER_SAMPLER is not False` (envs.py: None when unset), FlashInfer
  -- ("Using FlashInfer for top-p & top-k sampling"); installed but set to 0, the sort ("FlashInfer
  -- is available, but it is not enabled"); not importable, the sort too ("FlashInfer is not
  -- available. Falling back to the PyTorch-native implementation"). _dummy_sampler_run passes
  -- top_p = 0.9 and top_k = vocab - 1 for every sequence with generators = {} (gpu_model_runner.py,
  -- copies 68835586706, 36090783594), so forward_cuda reaches flashinfer_sample. Whether it is
  -- importable is the install's doing, by source:
  --   docker: vLLM's image builds FlashInfer into vllm-base (docker/Dockerfile FLASHINFER_GIT_REF,
  --     v0.3.1 at 0.10.2 / 0.11.0: a 1.17 GB layer, image history copy 15096366453;
  --     tools/flashinfer-build.sh "keep in sync with requirements/cuda.txt", copy 32712678602);
  --   pip (a wheel, conda, a source build): flashinfer-python is no dependency of the wheels up to
  --     0.10.0; a nightly made it one in late July 2025 (vllm#21960 "flashinfer-python 0.2.9rc2
  --     from latest vllm nightly requires nvcc"), PR #21959 (2025-07-30) moved it to the extra
  --     vllm[flashinfer] before 0.10.1, and PR #26443 (2025-10-08, after 0.11.0's 2025-10-02) made
  --     it a default dependency, together with PR #26859 (2025-10-15) turning the sampler off
  --     unless VLLM_USE_FLASHINFER_SAMPLER=1: both first in 0.11.1, so from 0.11.1 the install no
  --     longer matters.
  -- Logs: vLLM's image prints FlashInfer (flashinfer-ai/flashinfer#1180, 0.9.x: KV 4.00 GiB,
  -- 2.49 with VLLM_USE_FLASHINFER_SAMPLER=0; Red Hat's dashboard, upstream v0.11.0, round 25b);
  -- pip, conda and derived images print the sort (vllm#27508 0.11.0 conda; LMCache's images,
  -- LMCache#913 / #1384 "FlashInfer is not available", its FAQ table; vllm01011's 0.10.1.1).
  -- runtime.install says which (docker when not given, as before: the held image figures);
  -- flashinfer_sampler, the environment variable, overrides both. Only 0.8-0.16 read it.
  local v0_asked = knobs.use_v1 == false and code >= 8000 and code < 11000
  local pip = knobs.install == "pip"
  local fi_on = code < 11001 and not pip
  if code >= 8000 and code < 17000 and not v0_asked then
    local why = "VLLM_USE_FLASHINFER_SAMPLER off by default"
    if code < 11001 then
      why = pip and "install = pip: no flashinfer-python before 0.11.1 without the vllm[flashinfer] extra"
        or ((knobs.install and "install = docker" or "install = docker assumed")
          .. ": FlashInfer built into vLLM's image; CUDA only: ROCm samples with the PyTorch sort")
    end
    default(n, knobs, "flashinfer_sampler", fi_on, why)
  end
  if knobs.install ~= nil and (code < 8000 or code >= 11001 or v0_asked) then
    note(n, "vLLM install = %s: no effect on vLLM %s's sampler (FlashInfer or not by install only in the V1 "
      .. "engine of 0.8-0.11.0)", knobs.install, v)
  end
  -- V0 turned chunked prefill on by itself above 32K context (vllm/engine/arg_utils.py);
  -- the V1 engine (0.8 and later by default) always schedules in chunks.
  -- V0 never chunks encoder-decoder prefills (vllm/config.py: chunked prefill is not
  -- supported for encoder-decoder models; arg_utils leaves it off for them)
  -- VLLM_USE_V1: the default engine from 0.8; 0.8-0.10 still ran V0 with VLLM_USE_V1=0
  -- (and fell back to it for encoder-decoder models); 0.11 removed V0.
  local v1 = code >= 8000
  if n.model.desc.arch == "zamba2" and code < ZAMBA2_SINCE then
    E.fail("runtime.version", "Zamba2 (zamba2) is served by vLLM 0.8.0 and later (PR #13185 added Zamba2ForCausalLM), got %s", v)
  end
  local v0_state = V0_STATE[n.model.desc.arch or ""] and code < V1_STATE_DEFAULT
  if code >= 8000 and code < 11000 then
    if knobs.use_v1 == nil and not encdec and not v0_state then
      knobs.use_v1 = true -- the default engine: no assumption worth a note
      n.extra["runtime.use_v1"] = true
    end
    v1 = default(n, knobs, "use_v1", false, encdec and "encoder-decoder models fall back to V0" or
      "Mamba models and hybrids fall back to V0 before 0.10.2 (SupportsV0Only, then V1 opt-in only; vllm#23230 runs V0 on 0.10.1)")
    if v1 and v0_state and code < 10000 then
      E.fail("runtime.use_v1", "V1 with %s's Mamba layers is modelled from vLLM 0.10.0 (PR #20016; before it the class is " ..
        "SupportsV0Only), got %s", n.model.desc.arch, v)
    end
  elseif knobs.use_v1 ~= nil and knobs.use_v1 ~= v1 then
    E.fail("runtime.use_v1", "vLLM %s runs only the %s engine", v, v1 and "V1" or "V0")
  end
  n.extra["vllm.v0"] = not v1
  if n.model.desc.arch == "minimax" then minimax_state(n, knobs, code, v, v1) end
  local mm = (MM[n.model.desc.arch or ""] or function() end)(n.model.desc, knobs, n.model_config)
  if knobs.max_pixels ~= nil and not (mm and MAX_PIXELS[n.model.desc.arch or ""]) then
    E.fail("runtime.max_pixels", "applies to the Qwen2.5-VL, Qwen3-VL and Qwen3.5 image processors only")
  end
  if mm then
    for k, x in pairs(mm) do n.extra["mm." .. k] = x end
    -- limit_mm_per_prompt defaults: 1 per modality, 999 on V1 from about 0.9
    -- (MultiModalConfig.get_limit_per_prompt: "999 if envs.VLLM_USE_V1 else 1")
    local lim = knobs.limit_mm_per_prompt and mm_limits(knobs.limit_mm_per_prompt) or {}
    local dflt = (v1 and code >= 9000) and 999 or 1
    n.extra["mm.images"] = lim.image or dflt
    n.extra["mm.videos"] = mm.video_tps and (lim.video or dflt) or 0
    if not knobs.limit_mm_per_prompt then
      note(n, "vLLM limit_mm_per_prompt %s assumed (vLLM's default)",
        mm.video_tps and ("image=%d,video=%d"):format(dflt, dflt) or ("image=%d"):format(dflt))
    end
    local since = LANG_ONLY[n.model.desc.arch or ""]
    -- the Qwen classes take videos too (a video limit keeps the tower even where the profile
    -- does not model videos: Qwen3-VL, Qwen3.5); the others check the image limit only
    local videos = VIDEO_TOWER[n.model.desc.arch or ""] and (lim.video or dflt) or 0
    if n.extra["mm.images"] == 0 and videos == 0 and since and code >= since then
      n.extra["vllm.language_only"] = true
      n.extra["vllm.deepstack_width"] = nil
      note(n, "vLLM %s with every limit_mm_per_prompt 0: language-model-only, no vision tower loaded", v)
    end
  elseif knobs.limit_mm_per_prompt then
    E.fail("runtime.limit_mm_per_prompt", "the model has no vision tower vLLM profiles")
  end
  local chunked = not (encdec and not v1) and (v1 or mml > 32768)
  default(n, knobs, "enable_chunked_prefill", chunked, v1 and "V1 engine"
    or (encdec and "V0: never for encoder-decoder models" or "V0: on above 32K context"))
  local eager = default(n, knobs, "enforce_eager", false, "CUDA graphs captured")
  -- --swap-space: GiB of pinned CPU memory per GPU for the V0 scheduler's swapped-out blocks
  -- (CacheConfig.swap_space; V1 has no CPU swap): host memory, nothing on the GPU
  if knobs.swap_space ~= nil then
    note(n, "vLLM swap_space %s GiB is pinned CPU memory%s: no GPU memory", knobs.swap_space,
         v1 and " (and unused by the V1 engine)" or " for swapped-out KV blocks")
  end
  model_runner(n, knobs, code, v1)
  mm_batched_floor(n, knobs, code, v1)
  local v2 = n.extra["vllm.v2_runner"] == true
  -- VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS: added off (PR #30515, about 0.14), on by
  -- default from 0.20.0: vLLM's startup line says "CUDA graph memory profiling is enabled
  -- (default since v0.21.0)" (gpustack/runner#251, vLLM 0.27.1), but the vllm/vllm-openai:
  -- v0.20.0-cu130-ubuntu2404 image (banner "version 0.20.0") already prints it and subtracts
  -- its "Estimated CUDA graph memory: 0.36 GiB" (util 0.9 "equivalent to 0.8886 without",
  -- RedHatAI/Qwen3.6-35B-A3B-NVFP4 under WSL, 2026-05-01; 0.19.0 still printed "In v0.19, CUDA
  -- graph memory profiling will be enabled by default ... To try it now, set ...=1"): the KV
  -- budget is what is left after the graphs' estimate too
  -- The V2 runner has no estimate to give: Worker.determine_available_memory asks
  -- model_runner.profile_cudagraph_memory(), a placeholder returning 0 in the V2 runner
  -- (vllm#49224; the fix proposed in PR #49233 was closed unmerged); V2 logs print neither
  -- "Estimated CUDA graph memory" nor "CUDA graph memory profiling is enabled", and their KV is
  -- requested - weights - peak - non-torch to the printed digit (0.26.0, Qwen2.5-0.5B: 13.99 -
  -- 0.93 - 1.06 - 0.07 = 11.93, 11.94 printed, 0.40 GiB of graphs captured after)
  if code >= 20000 and not eager and not v2 then
    default(n, knobs, "memory_profiler_estimate_cudagraphs", true,
      "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, on by default since 0.20.0: the CUDA graphs' estimate leaves the KV budget")
  elseif v2 and knobs.memory_profiler_estimate_cudagraphs then
    note(n, "vLLM's V2 model runner estimates no CUDA-graph memory: memory_profiler_estimate_cudagraphs has no effect")
  end
  -- VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE: off when added (vLLM PR #21761,
  -- 0.10), on by default since PR #29627 (about 0.13). Only Llama 4's chunked layers care.
  -- speculative decoding: V1 only (EAGLE/EAGLE-3/ngram in the V1 proposer from 0.8; MTP as
  -- method "mtp" in V1 from 0.9, earlier "deepseek_mtp"; a separate draft model came back
  -- to V1 in v1/spec_decode/draft_model.py, about 0.13: version bounds from the V1
  -- spec_decode history, approximate)
  if knobs.speculative ~= nil then
    local m = knobs.speculative.method
    local since = ({ mtp = 9000, draft_model = 13000 })[m] or 8000
    if not v1 then E.fail("runtime.speculative", "is modelled for vLLM's V1 engine (0.8 and later), not V0") end
    if code < since then
      E.fail("runtime.speculative.method", "%s needs vLLM %s or later, got %s", tostring(m),
        ({ [8000] = "0.8", [9000] = "0.9", [13000] = "0.13" })[since], v)
    end
    -- MTP of the hybrid Qwen models came with the models: Qwen3-Next (qwen3_next_mtp.py) in
    -- 0.10.2, Qwen3.5 (qwen3_5_mtp.py) in 0.17.0, the first release that serves
    -- Qwen3_5MoeForConditionalGeneration (0.16.0 refuses it: runpod-workers/worker-vllm#279)
    local hyb = MTP_HYBRID_SINCE[n.model.desc.arch or ""]
    if m == "mtp" and hyb and code < hyb[1] then
      E.fail("runtime.speculative.method", "MTP of %s needs vLLM %s or later, got %s", n.model.desc.arch, hyb[2], v)
    end
    require("speculative").apply(n, knobs.speculative, "vLLM", { mtp_hybrid = true })
  end
  -- Hybrid classes that vLLM only added later (the V1-only Qwen hybrids came with the MTP files
  -- above: Qwen3NextForCausalLM in 0.10.2, Qwen3.5 in 0.17.0): older releases refuse the model.
  local cls = MTP_HYBRID_SINCE[n.model.desc.arch or ""]
  if cls and code < cls[1] then
    E.fail("runtime.version", "vLLM %s has no model class for %s (first in %s)", v, n.model.desc.arch, cls[2])
  end
  if knobs.lora ~= nil then
    -- MllamaForConditionalGeneration does not implement SupportsLoRA (models/mllama.py)
    if encdec then E.fail("runtime.lora", "vLLM serves no LoRA on %s (its model class lacks SupportsLoRA)", n.model.desc.arch or "the model") end
    lora(n, knobs.lora, code, v)
  end
  local chunked_local = false
  for _, g in ipairs(n.model.desc.kv or {}) do chunked_local = chunked_local or g.kind == "chunked" end
  if chunked_local then
    default(n, knobs, "chunked_local_attn_hybrid", code >= 13000,
      "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE default of this version (PR #21761 off, #29627 on)")
  end
end

return runtime {
  name = "vllm",
  summary = "vLLM serving (paged KV cache)",
  own_attention = "its attention backend (FlashAttention, FlashInfer, FlashMLA, ...)",
  kinds = { "inference" },
  knobs = {
    gpu_memory_utilization = "number", max_model_len = "int", max_num_seqs = "int",
    max_num_batched_tokens = "int", block_size = "int", kv_cache_dtype = "string",
    max_cudagraph_capture_size = "int", -- --max-cudagraph-capture-size: see normalize
    enforce_eager = "bool", enable_prefix_caching = "bool", enable_chunked_prefill = "bool",
    mamba_cache_dtype = "string", mamba_ssm_cache_dtype = "string",
    mamba_cache_mode = "string", -- --mamba-cache-mode none | align (default align with prefix caching: see above)
    swap_space = "number", kv_cache_memory_bytes = "bytes", quantization = "string",
    memory_profiler_estimate_cudagraphs = "bool",
    chunked_local_attn_hybrid = "bool", flashinfer_sampler = "bool",
    install = { "docker", "pip" }, -- vLLM's image or a wheel / conda / source build: the sampler of 0.8-0.11.0
    disable_custom_all_reduce = "bool", -- --disable-custom-all-reduce; off by vLLM's own rule too (src/estimate.c est_custom_ar_off)
    mxfp4_backend = { "triton", "marlin", "flashinfer_trtllm", "flashinfer_cutlass" },
    use_v1 = "bool", limit_mm_per_prompt = "string", max_pixels = "int",
    model_runner = { "v1", "v2" }, -- VLLM_USE_V2_MODEL_RUNNER (0.23+): the V2 oracle's choice by default
    speculative = "table", -- { method, model, num_speculative_tokens }: scripts/speculative.lua
    lora = "table", -- { max_loras, max_lora_rank, fully_sharded, dtype, max_cpu_loras }: --enable-lora
  },
  knob_docs = {
    gpu_memory_utilization = "--gpu-memory-utilization: the fraction of the GPU's total vLLM may use (0.9)",
    max_model_len = "--max-model-len: the longest request; the concurrency is counted at it",
    max_num_seqs = "--max-num-seqs: sequences a step (the profile run's and the CUDA graphs' batch sizes)",
    max_num_batched_tokens = "--max-num-batched-tokens: tokens a step, the profile run's activation peak",
    block_size = "--block-size: tokens a KV block (16; MLA models take their backend's size)",
    max_cudagraph_capture_size = "--max-cudagraph-capture-size: the largest CUDA-graph size (V1; default "
      .. "min(2 x max_num_seqs, 512))",
    kv_cache_dtype = "--kv-cache-dtype: auto or an fp8 type (1 B a KV element)",
    enforce_eager = "--enforce-eager: no CUDA graphs captured or estimated",
    enable_prefix_caching = "--enable-prefix-caching: with hybrid models the Mamba state blocks a request holds",
    enable_chunked_prefill = "--enable-chunked-prefill (V0): off, max_num_batched_tokens defaults to max_model_len",
    mamba_cache_dtype = "--mamba-cache-dtype: the recurrent conv state's dtype (auto: the model's)",
    mamba_ssm_cache_dtype = "--mamba-ssm-cache-dtype: the recurrent SSM state's dtype",
    mamba_cache_mode = "--mamba-cache-mode (none | align): state blocks a request (align with prefix caching)",
    swap_space = "--swap-space GiB: pinned CPU blocks, no GPU bytes (said in the report)",
    kv_cache_memory_bytes = "--kv-cache-memory-bytes: the KV pool's bytes in place of the utilization rule",
    quantization = "--quantization: fp8 and bitsandbytes quantize a bf16 checkpoint at load; the rest must match the checkpoint",
    memory_profiler_estimate_cudagraphs = "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS: the graph estimate left out of the KV budget (0.20+)",
    chunked_local_attn_hybrid = "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE: Llama 4's chunked layers in the hybrid manager",
    flashinfer_sampler = "VLLM_USE_FLASHINFER_SAMPLER (0.8-0.16): false sorts the whole vocabulary in the profile run",
    install = "docker (vLLM's image, the default) or pip (a wheel, conda or source build): 0.8-0.11.0 sample "
      .. "with FlashInfer only where it is installed, which a pip install lacks",
    disable_custom_all_reduce = "--disable-custom-all-reduce: NCCL's all-reduces captured into every CUDA graph",
    mxfp4_backend = "the MoE backend of MXFP4 experts (gpt-oss), whose padding sets their bytes",
    use_v1 = "VLLM_USE_V1 (0.8-0.10): false runs the V0 engine",
    limit_mm_per_prompt = "--limit-mm-per-prompt image=N,video=M: the multimodal items the profile run encodes; all 0 "
      .. "loads no vision tower (language-model-only, 0.10.1+; Qwen3-VL and Qwen3.5 always)",
    max_pixels = "mm_processor_kwargs max_pixels (Qwen2.5-VL, Qwen3-VL, Qwen3.5): the largest dummy image profiled",
    model_runner = "VLLM_USE_V2_MODEL_RUNNER (0.23+): v2 gives no CUDA-graph estimate in the profile",
    speculative = "--speculative-config { method, model, num_speculative_tokens }: the drafter's weights, KV and graphs",
    lora = "--enable-lora { max_loras, max_lora_rank, fully_sharded, dtype, max_cpu_loras }: adapter slots on the GPU",
  },
  modelled = true,
  normalize = normalize,
  quant = load_quant,
  quant_keep = quant_keep,
}
