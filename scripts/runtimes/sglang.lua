-- sglang: a token pool sized from mem_fraction_static (src/rt_sglang.c). normalize checks
-- the knobs, records the version whose default mem_fraction_static applies, the context
-- length the request pool is sized for, and which pool layout SGLang picks for the model:
-- the hybrid sliding-window pool (full and SWA sub-pools) for the architectures SGLang lists,
-- the Mamba state pool beside the token pool for models with recurrent-state layers.
local E = require "engine"
local nn = require "nn"

local note = E.note

-- The architectures whose sliding-window layers SGLang keeps in a separate, smaller SWA pool
-- (python/sglang/srt/configs/model_config.py is_hybrid_swa_model, sgl-project/sglang main at
-- 8b5e1bbf: Llama4ForConditionalGeneration, GptOssForCausalLM, MiMo-V2, Step-3.5, Gemma 4,
-- Laguna). Gemma 2 / 3 and Mistral are not among them: their sliding-window layers get a
-- full-length slot in the one token pool.
local HYBRID_SWA = { gpt_oss = true, llama4 = true }
-- gemma4: Gemma4ForCausalLM / Gemma4ForConditionalGeneration are in that set (the SWA pool holds
-- the sliding layers' 256-wide heads, the full pool the 512-wide global ones)
HYBRID_SWA.gemma4 = true
local SSM_DTYPES = { float32 = 4, bfloat16 = 2, float16 = 2 }

local function has_kind(desc, pred)
  for _, g in ipairs(desc.kv or {}) do if pred(g) then return true end end
  return false
end

-- The pool layout for the model: Mamba state pool, hybrid SWA pool, or one token pool.
local function pools(n, knobs)
  local desc = n.model.desc or {}
  if has_kind(desc, function(g) return g.kind == "mamba" end) then
    local dt = knobs.mamba_ssm_dtype or "float32"
    if not SSM_DTYPES[dt] then
      E.fail("runtime.mamba_ssm_dtype", "expected float32, bfloat16 or float16, got \"%s\"", dt)
    end
    n.extra["sglang.ssm_bytes"] = SSM_DTYPES[dt]
    if knobs.mamba_ssm_dtype == nil then
      note(n, "SGLang Mamba state pool: SSM state in float32 (mamba_ssm_dtype default), conv state in bfloat16 (SGLANG_MAMBA_CONV_DTYPE default)")
    end
    return
  end
  local windowed = has_kind(desc, function(g) return (g.window or 0) > 0 end)
  if not windowed then return end
  -- Gemma 4's KV-shared layers keep their buffers: the hybrid pool's SWA / full sub-pools hold
  -- every layer of layer_types (configs/model_config.py get_hybrid_layer_ids), and the one
  -- MHATokenToKVPool of disable_hybrid_swa_memory is built with layer_num = num_effective_layers,
  -- end_layer - start_layer over all num_hidden_layers (model_executor/model_runner.py); src/
  -- rt_sglang.c pool_shared_layers
  local shared = desc.kv_shared_layers or 0
  local cfg = type(n.model_config) == "table" and n.model_config or {}
  local tc = type(cfg.text_config) == "table" and cfg.text_config or cfg
  local types = type(tc.layer_types) == "table" and tc.layer_types or {}
  local hybrid = HYBRID_SWA[desc.arch or ""] and not knobs.disable_hybrid_swa_memory
  if HYBRID_SWA[desc.arch or ""] and shared > 0 and #types >= shared then
    local nf, ns = 0, 0
    for i = #types - shared + 1, #types do
      if types[i] == "sliding_attention" then ns = ns + 1 else nf = nf + 1 end
    end
    n.extra["sglang.kv_shared_full"], n.extra["sglang.kv_shared_swa"] = nf, ns
    note(n, "SGLang pools the %d KV-shared layers too (%d full, %d sliding): %s",
      shared, nf, ns, hybrid and "SWAKVPool holds every layer of layer_types"
        or "the one token pool holds every one of num_hidden_layers")
  end
  if HYBRID_SWA[desc.arch or ""] and not knobs.disable_hybrid_swa_memory then
    n.extra["sglang.hybrid_swa"] = true
    if knobs.swa_full_tokens_ratio == nil then
      note(n, "SGLang hybrid SWA pool: swa_full_tokens_ratio 0.8 (server_args.py default)")
    end
  else
    note(n, "SGLang keeps the sliding-window layers at full length in the token pool (%s)",
      knobs.disable_hybrid_swa_memory and "disable_hybrid_swa_memory" or
      ("%s is not one of SGLang's hybrid-SWA architectures"):format(desc.arch or "the model"))
  end
end

-- A release candidate counts as its release, which it mostly is, except the candidates known
-- to come before a change the release has: 0.5.3rc0 precedes PR #10975's GPU-size table
-- (first in 0.5.3rc2; rc1 not checked) and counts as 0.5.2 with every post.
local EARLY_RC = { ["0.5.3rc0"] = true }
local function is_early_rc(v) return EARLY_RC[(v:gsub("^v", ""))] == true end

local function version_code(v)
  local code = E.version_code(v, "an SGLang", "0.5.3")
  return is_early_rc(v) and code - 1 or code
end

-- The release as major.minor.patch and .postN in one number (0.4.9.post3: 400903), for the
-- defaults that changed between post releases; no version: the newest.
local function release_code(v, code)
  if not v then return 99999999 end
  if is_early_rc(v) then return code * 100 + 99 end
  return code * 100 + math.min(tonumber(v:match("%.post(%d+)")) or 0, 99)
end

-- Multimodal models (sgl-project/sglang server_args.py adjust_mem_fraction_for_vlm, PR #6881,
-- commit 3964b352c, first released in 0.4.9.post3; unchanged in 0.5.6 _handle_gpu_memory_settings):
-- when mem_fraction_static is not given, the default is multiplied by 0.95 x
-- clamp(1 - 0.1 x (L x H^2 / (24 x 1024^2) - 1), 0.8, 1.05), L and H read off the HF
-- vision_config as getattr(vision_config, "num_hidden_layers", 24) and
-- getattr(vision_config, "hidden_size", 1024) (Qwen2.5-VL names its depth "depth": 24 applies),
-- not rounded. SGLang's is_multimodal is an architecture list (configs/model_config.py
-- is_multimodal_model); here: a vision_config in the config and a vision tower among the
-- description's tensors. Before 0.4.9.post3 the factor is flat (sgl-project/sglang at the
-- version-bump commits):
-- - 0.4.9 to 0.4.9.post2: 0.90 on the default only, in server_args.py __post_init__ after
--   the rounding (PR #7748, 14229ccf8, first in 0.4.9 ec5f9c626);
-- - 0.4.4.post4 to 0.4.8.post1: 0.90 in ModelRunner.model_specific_adjustment, on the runner's
--   fraction whether given or default (PR #4754, 5cb552b1d, first in 0.4.4.post4 35e0856b9;
--   as at 0.4.8.post1 69183f880);
-- - 0.3.5 to 0.4.4.post3: 0.95 there, likewise (PR #1839, b548801dd, first in 0.3.5 65859754f);
-- - before 0.3.5 the 0.95 (PR #1247) scales server_args' copy after the runner took its own:
--   no effect on the pool, none applied here.
local VLM_SINCE = 400903
local VLM_FLAT = { { 400900, 0.90, false }, { 400404, 0.90, true }, { 300500, 0.95, true } }

-- The factor for release rel, whether it scales a given fraction too, and what to say of it;
-- nil for a model that is not multimodal or a release without one.
local function vlm_factor(n, rel)
  local cfg = type(n.model_config) == "table" and n.model_config or {}
  local vc = cfg.vision_config
  if type(vc) ~= "table" then return nil end
  local vision = false
  for _, t in ipairs(n.model.desc.tensors or {}) do
    vision = vision or nn.vision_tensor(t.name)
  end
  if not vision then return nil end
  if rel < VLM_SINCE then
    for _, e in ipairs(VLM_FLAT) do
      if rel >= e[1] then
        return e[2], e[3], ("x %.2f (%s)"):format(e[2], e[3] and "model_runner.py, given or default" or "server_args.py")
      end
    end
    return nil
  end
  local layers = tonumber(vc.num_hidden_layers) or 24
  local hidden = tonumber(vc.hidden_size) or 1024
  local ratio = layers * hidden * hidden / (24 * 1024 * 1024)
  local dyn = math.max(0.8, math.min(1.05, 1.0 - 0.1 * (ratio - 1.0)))
  return 0.95 * dyn, false, ("x %.7g (adjust_mem_fraction_for_vlm, ViT %d layers x hidden %d%s)"):format(0.95 * dyn,
    layers, hidden, vc.num_hidden_layers == nil and "; num_hidden_layers absent: SGLang's default 24" or "")
end

-- Speculative decoding (runtime.speculative, scripts/speculative.lua builds the drafter):
-- SGLang's --speculative-algorithm EAGLE / EAGLE3 / NEXTN (DeepSeek MTP: EAGLE with the
-- model's own NextN layer) / STANDALONE / NGRAM are methods eagle / eagle3 / mtp /
-- draft_model / ngram; num_speculative_tokens is --speculative-num-steps (NGRAM:
-- --speculative-num-draft-tokens), eagle_topk and num_draft_tokens the two other flags.
-- Defaults and adjustments: server_args.py _handle_speculative_decoding and
-- auto_choose_speculative_params (sgl-project/sglang, code index copies of the 0.5.x file):
-- steps, topk, draft tokens (5, 4, 8), (3, 1, 4) for DeepSeek V2/V3; topk 1 forces
-- num_draft_tokens = steps + 1; max_running_requests reset to 48 unless given. The version
-- eras (src/rt_sglang.c): before 0.5.11 the draft and its pool live outside
-- mem_fraction_static (2 / 6 GiB more reserved); PR #23862 (merged 2026-04-27, 0.5.11 here)
-- scales the pool's bytes per token by the draft's layers; PR #28855 (2026-06-21, 0.5.14
-- here) counts the draft's weights in the static budget. Release numbers from merge dates
-- and release dates (v0.5.13 2026-06-17), approximate.
local SPEC_SINCE = 5003
local SG_METHOD = { eagle = "EAGLE", eagle3 = "EAGLE3", mtp = "NEXTN", draft_model = "STANDALONE", ngram = "NGRAM" }

local function spec_defaults(n)
  local cfg = n.model_config or {}
  local arch = type(cfg.architectures) == "table" and cfg.architectures[1] or ""
  -- (a preset without architectures: its model_type)
  if arch == "DeepseekV3ForCausalLM" or arch == "DeepseekV2ForCausalLM" or
     (arch == "" and (cfg.model_type == "deepseek_v3" or cfg.model_type == "deepseek_v2")) then return 3, 1, 4 end
  return 5, 4, 8
end

local function speculative(n, knobs, code)
  local sp, F = knobs.speculative, "runtime.speculative"
  if code < SPEC_SINCE then
    E.fail(F, "is modelled for SGLang 0.5.3 and later, got %s", n.runtime_version)
  end
  local steps0, topk0, nd0 = spec_defaults(n)
  local given = sp.num_speculative_tokens ~= nil
  if type(sp) == "table" and sp.method == "ngram" and not given then
    E.fail(F .. ".num_speculative_tokens", "method ngram needs num_speculative_tokens (NGRAM's --speculative-num-draft-tokens; "
      .. "its default from --speculative-ngram-max-match-window-size is not modelled)")
  end
  if type(sp) == "table" and sp.method ~= "ngram" and not given then
    for _, k in ipairs { "eagle_topk", "num_draft_tokens" } do
      if sp[k] ~= nil then
        E.fail(F .. "." .. k, "needs num_speculative_tokens too (SGLang chooses steps, eagle_topk and num_draft_tokens together)")
      end
    end
  end
  local r = require("speculative").apply(n, sp, "SGLang", { keys = { "eagle_topk", "num_draft_tokens" },
    default_tokens = function(m) return m ~= "ngram" and steps0 or nil end })
  local m, steps = r.method, r.tokens
  if m == "ngram" then
    for _, k in ipairs { "eagle_topk", "num_draft_tokens" } do
      if sp[k] ~= nil then
        E.fail(F .. "." .. k, "method ngram takes no %s (num_speculative_tokens is NGRAM's --speculative-num-draft-tokens)", k)
      end
    end
    n.extra["spec.topk"], n.extra["spec.draft_tokens"] = 1, steps
  else
    local topk, nd = topk0, nd0
    if given then
      if sp.eagle_topk == nil then
        E.fail(F .. ".eagle_topk", "SGLang needs --speculative-eagle-topk with --speculative-num-steps (num_speculative_tokens)")
      end
      topk = E.int_field(sp.eagle_topk, F .. ".eagle_topk", 1, 64)
      nd = sp.num_draft_tokens ~= nil and E.int_field(sp.num_draft_tokens, F .. ".num_draft_tokens", 1, 1024) or nil
      if nd == nil and topk > 1 then
        E.fail(F .. ".num_draft_tokens", "SGLang needs --speculative-num-draft-tokens with eagle_topk %d", topk)
      end
      if topk == 1 and nd ~= nil and nd ~= steps + 1 then
        note(n, "SGLang sets num_draft_tokens to num_speculative_tokens + 1 = %d with eagle_topk 1", steps + 1)
      end
      if topk == 1 then nd = steps + 1 end
    else
      note(n, "SGLang speculative defaults: %d steps, eagle_topk %d, %d draft tokens (auto_choose_speculative_params)",
        steps, topk, nd)
    end
    if topk > 1 and (knobs.page_size or 1) > 1 then
      E.fail(F .. ".eagle_topk", "eagle_topk %d with page_size %d needs the flashinfer or fa3 attention backend, not modelled",
        topk, knobs.page_size)
    end
    n.extra["spec.topk"], n.extra["spec.draft_tokens"] = topk, nd
  end
  -- the vocabulary of the draft's logits, and the embedding / lm_head copies SGLang's draft
  -- model builds before EagleDraftWorker.init_lm_head swaps in the target's (freed after the
  -- pool is sized, sgl-project/sglang issue #36452): EAGLE embedding + head, EAGLE-3 embedding,
  -- NextN embedding + shared_head.head; a STANDALONE draft keeps its own
  local cfg, desc = r.config or {}, n.model.desc
  n.extra["spec.draft_vocab"] = m == "eagle3" and (cfg.draft_vocab_size or cfg.vocab_size) or desc.vocab
  n.extra["spec.copy_count"] = ({ eagle = 2, eagle3 = 1, mtp = 2 })[m] or 0
  n.extra["spec.copy_rows"] = cfg.vocab_size or desc.vocab
  n.extra["spec.copy_hidden"] = cfg.hidden_size or desc.hidden
  if knobs.max_running_requests == nil then
    n.extra["sglang.spec_max_reqs"] = 48
    note(n, "SGLang resets max_running_requests to 48 for speculative decoding (%s)", SG_METHOD[m])
  end
end

-- --enable-piecewise-cuda-graph (PR #10062) reserves piecewise_cuda_graph_max_tokens // 4 MiB
-- more when the fraction is not given (server_args.py _handle_gpu_memory_settings, PR #12996,
-- commit 58b12ccb4, first in 0.5.5.post1; max tokens 4096 by default, as in 0.5.6). PR #15927
-- (2026-01-10, after 0.5.6.post2; 0.5.7 here) reserves 8 MiB per captured token size instead,
-- before the 10 GiB floor, and PR #16331 (2026-03-02; 0.5.10 here) turns the graphs on by default:
-- src/rt_sglang.c fraction counts the sizes (piecewise_sizes).
local PIECEWISE_SINCE, PIECEWISE_UNTIL = 500501, 500700

local function piecewise(n, knobs, rel, f)
  local mt = knobs.piecewise_cuda_graph_max_tokens
  if mt ~= nil then E.int_field(mt, "runtime.piecewise_cuda_graph_max_tokens", 1, 1 << 30) end
  if not knobs.enable_piecewise_cuda_graph or f ~= nil then return end
  if rel < PIECEWISE_SINCE then
    note(n, "SGLang %s reserves nothing for piecewise CUDA graphs (from 0.5.5.post1, PR #12996)", n.runtime_version)
  elseif rel < PIECEWISE_UNTIL then
    n.extra["sglang.piecewise_reserve_mib"] = (mt or 4096) // 4
  end
end

-- The default mem_fraction_static before 0.5.3, by release, for the assumptions (src/rt_sglang.c
-- fraction_before_053 has the rules and their commits; gpu: the GPU's total in MiB).
local TP_TABLE = "0.88 on one GPU, 0.87 at 2, 0.85 at 4, 0.81 at 8, 0.79 at 16"
local function base_rule(rel)
  if rel < 400503 then return "by tp (" .. TP_TABLE .. ")" end
  if rel < 400602 then
    return "by tp (" .. TP_TABLE .. ") up to 81,920 MiB of GPU, above it (gpu - 13 GiB) / gpu (PR #5604, 0.4.5.post3 to 0.4.6.post1)"
  end
  if rel < 400701 then
    return ("by tp x pp (%s) up to 81,920 MiB of GPU, else 0.88; above 96 GiB min(f + 48 GiB x (1 - f) / gpu, " ..
      "(gpu - 18 GiB) / gpu) (PR #5893, 0.4.6.post2 to 0.4.7)%s"):format(TP_TABLE,
      rel >= 400700 and "; 0.79 above 180,000 MiB on CUDA GPUs (PR #6718, 0.4.7)" or "")
  end
  return "(gpu - reserved) / gpu rounded to 3 decimals, reserved (2.8 + tp x pp / 10) GiB below 35 GiB, " ..
    "(9.5 + tp x pp / 2) GiB below 90 GiB, (12 + tp x pp / 2) GiB below 160 GiB, else 32 GiB (PR #7054, 0.4.7.post1 to 0.5.2)"
end

local function normalize(n, knobs)
  -- Zamba2 (Zamba2ForCausalLM): SGLang has no model class for it (python/sglang/srt/models has no
  -- zamba2.py), so it cannot serve it
  if n.model.desc.arch == "zamba2" then
    E.fail("runtime.name", "SGLang has no Zamba2 model class (zamba2: %s); use runtime vllm or transformers", n.model.id)
  end
  local f = knobs.mem_fraction_static
  if f ~= nil and (f <= 0 or f >= 1) then
    E.fail("runtime.mem_fraction_static", "expected a fraction in (0, 1), got %s", tostring(f))
  end
  local kvd = knobs.kv_cache_dtype or "auto"
  if kvd ~= "auto" and kvd ~= "fp8" and kvd ~= "fp8_e4m3" and kvd ~= "fp8_e5m2" then
    E.fail("runtime.kv_cache_dtype", "expected auto, fp8, fp8_e4m3 or fp8_e5m2, got \"%s\"", kvd)
  end
  if kvd ~= "auto" then n.kv_dtype = kvd == "fp8_e5m2" and "fp8_e5m2" or "fp8" end
  local code = n.runtime_version and version_code(n.runtime_version) or 999999
  n.extra["sglang.version"] = code
  local rel = release_code(n.runtime_version, code)
  n.extra["sglang.release"] = rel
  local vf, given_too, how = vlm_factor(n, rel)
  -- a release that multiplies a given fraction too: fit's --mem-fraction-static divides by it
  if vf and given_too then n.extra["sglang.vlm_factor_given"] = vf end
  if vf and (f == nil or given_too) then
    n.extra["sglang.vlm_factor"] = vf
    note(n, "SGLang multimodal model: %s mem_fraction_static %s", f == nil and "default" or "given", how)
  end
  piecewise(n, knobs, rel, f)
  -- The Hugging Face architecture, for SGLang's piecewise auto-disable ladder (src/rt_sglang.c
  -- sg_prefill_backend_why: piecewise_cuda_graph_disabled_model_archs, the breakable multimodal allowlist)
  local cfg = n.model_config or {}
  n.extra["sglang.hf_arch"] = type(cfg.architectures) == "table" and cfg.architectures[1] or ""
  -- Llama 3.2 Vision: ModelRunner.model_specific_adjustment turns chunked prefill off, given or
  -- not ("Automatically turn off --chunked-prefill-size for mllama", chunked_prefill_size = -1),
  -- in the multimodal block beside the 0.95 / 0.90 fraction factor (PR #1839, 0.3.5; as at
  -- 0.4.8.post1). From 0.4.9 the fraction factor moved to server_args.py (PR #7748); whether the
  -- mllama rule moved with it was not checked, so it is applied through 0.4.8.post1 only.
  -- Hold-out round 21: the docs' CI run of Llama-3.2-11B-Vision-Instruct (2025-03-28, ~0.4.4)
  -- prints "chunked_prefill_size=-1" (src/rt_sglang.c chunk_off).
  if n.extra["sglang.hf_arch"] == "MllamaForConditionalGeneration" and rel >= 300500 and rel < 400900 then
    n.extra["sglang.chunked_off"] = true
    note(n, "SGLang %s turns chunked prefill off for mllama (model_runner.py model_specific_adjustment): "
      .. "a request's whole prompt is one prefill%s", n.runtime_version or "",
      knobs.chunked_prefill_size and "; the given chunked_prefill_size is overridden" or "")
  end
  -- Images a request carries (workload.images): MllamaForConditionalGeneration.pad_input_ids
  -- (models/mllama.py @013902a8) prepends image_len = num_concurrent_media x num_tiles x num_patches
  -- pad tokens to the request's input_ids, and the scheduler validates and pools the padded request
  -- (its K / V slots hold the cross-attention states, src/rt_sglang.c pool_cells); num_tiles is
  -- pixel_values' tile axis, which the Hugging Face MllamaImageProcessor pads to max_image_tiles
  -- (pack_images), so every picture costs max_num_tiles x ((image_size / patch_size)^2 + 1) tokens
  -- whatever its size: 4 x 1601 = 6,404 for Llama 3.2 Vision. workload.context counts the text,
  -- so a request's tokens, its pool need and the default context_length grow by them.
  if (n.images or 0) > 0 then
    local vc = cfg.vision_config
    if n.extra["sglang.hf_arch"] ~= "MllamaForConditionalGeneration" or type(vc) ~= "table" then
      E.fail("workload.images", "images per request are modelled for Llama 3.2 Vision (MllamaForConditionalGeneration) only, "
        .. "not %s", n.extra["sglang.hf_arch"] ~= "" and n.extra["sglang.hf_arch"] or n.model.id)
    end
    local side = vc.image_size // vc.patch_size
    local per = vc.max_num_tiles * (side * side + 1)
    n.extra["sglang.image_tokens"] = n.images * per
    note(n, "workload.images %d: SGLang's mllama pad_input_ids puts %d x %d tiles x %d = %d image tokens before "
      .. "each request's %d text tokens: %d tokens a request", n.images, n.images, vc.max_num_tiles, side * side + 1,
      n.images * per, n.context, n.context + n.images * per)
    n.context = n.context + n.images * per
  end
  if knobs.enforce_piecewise_cuda_graph and rel < 501000 then
    note(n, "SGLang %s: enforce_piecewise_cuda_graph changes nothing before 0.5.10 (no auto-disable ladder, "
      .. "PR #16331; piecewise graphs only with enable_piecewise_cuda_graph)", n.runtime_version)
  end
  if knobs.enforce_piecewise_cuda_graph and knobs.disable_piecewise_cuda_graph and rel >= 501000 then
    note(n, "SGLang's --enforce-piecewise-cuda-graph clears --disable-piecewise-cuda-graph "
      .. "(server_args.py _handle_piecewise_cuda_graph)")
  end
  if f == nil then
    if code >= 5003 then
      note(n, "SGLang mem_fraction_static from its reserved-memory rule (0.5.3 and later, PR #10975)%s",
        n.runtime_version and "" or "; runtime.version not given: the newest rule assumed")
    else
      note(n, "SGLang %s mem_fraction_static: %s", n.runtime_version, base_rule(rel))
    end
  end
  if knobs.context_length == nil then
    note(n, "SGLang context_length = workload.context %d (SGLang's own default is the model's maximum)", n.context)
  elseif math.type(knobs.context_length) == "integer" and knobs.context_length > 0 and n.context > knobs.context_length then
    -- a request longer than --context-length is refused (SGLang's "longer than the model's context length")
    E.fail("workload.context", "%d tokens is more than runtime.context_length %d: SGLang refuses a longer request "
      .. "(raise context_length, or leave it out to serve the context)", n.context, knobs.context_length)
  end
  for _, k in ipairs { "page_size", "max_running_requests", "context_length", "max_mamba_cache_size" } do
    if knobs[k] == 0 then E.fail("runtime." .. k, "expected a positive integer, got 0") end
  end
  -- DeepSeek-V3.2 (DSA: a kv group of fixed bytes, the indexer's keys; src/rt_sglang.c group_kv):
  -- server_args.py _handle_model_specific_adjustments sets page_size 64 on CUDA ("Setting page size
  -- to 64 for DeepSeek NSA/DSA"; 1 on ROCm, not modelled). Its other NSA defaults (DP attention in
  -- the first releases, fp8_e4m3 KV on Blackwell) are not modelled: set them by hand.
  local sparse = false
  for _, g in ipairs(n.model.desc.kv or {}) do sparse = sparse or g.bytes ~= nil end
  if sparse and knobs.page_size == nil then
    knobs.page_size = 64
    n.extra["runtime.page_size"] = 64
    note(n, "SGLang page_size 64 for DeepSeek's sparse attention (server_args.py: \"Setting page size to 64 for DeepSeek NSA\")")
  end
  local r = knobs.swa_full_tokens_ratio
  if r ~= nil and (r <= 0 or r > 1) then
    E.fail("runtime.swa_full_tokens_ratio", "expected a ratio in (0, 1], got %s", tostring(r))
  end
  r = knobs.mamba_full_memory_ratio
  if r ~= nil and r <= 0 then
    E.fail("runtime.mamba_full_memory_ratio", "expected a positive ratio, got %s", tostring(r))
  end
  pools(n, knobs)
  if knobs.speculative ~= nil then speculative(n, knobs, code) end
  if knobs.dp_size ~= nil and not knobs.enable_dp_attention then
    E.fail("runtime.dp_size", "is read only with enable_dp_attention = true (SGLang's --dp-size alone runs independent "
      .. "replicas: give parallel.dp for those)")
  end
  if knobs.enable_dp_attention and knobs.dp_size == nil then
    E.fail("runtime.enable_dp_attention", "needs runtime.dp_size, the attention data-parallel groups (--dp-size)")
  end
  -- models/deepseek_v2.py keeps the fusion for DeepseekV3ForCausalLM with 256 routed experts only
  local f = knobs.n_share_experts_fusion
  local cfg = type(n.model_config) == "table" and n.model_config or {}
  local archs = type(cfg.architectures) == "table" and cfg.architectures or {}
  local v3 = archs[1] == "DeepseekV3ForCausalLM" or (archs[1] == nil and cfg.model_type == "deepseek_v3")
  if f ~= nil and f ~= 0 and not (v3 and cfg.n_routed_experts == 256) then
    E.fail("runtime.n_share_experts_fusion", "SGLang fuses the shared expert of DeepSeek-V3/R1 only "
      .. "(DeepseekV3ForCausalLM with 256 routed experts, models/deepseek_v2.py), not of %s", n.model.id or "this model")
  end
end

-- After parallel: --dp-size must divide --tp-size under DP attention (server_args.py asserts
-- tp_size % dp_size == 0; layers/dp_attention.py attn_tp_size = tp_size // dp_size), and
-- --n-share-experts-fusion must equal tp_size (models/deepseek_v2.py: "set it to {tp_size}").
local function parallel_check(n, knobs)
  local d = knobs.dp_size
  if d ~= nil and (d < 1 or n.tp % d ~= 0) then
    E.fail("runtime.dp_size", "expected a divisor of parallel.tp %d (attention groups of tp / dp_size ranks), got %d", n.tp, d)
  end
  local f = knobs.n_share_experts_fusion
  if f ~= nil and f ~= 0 and f ~= n.tp then
    E.fail("runtime.n_share_experts_fusion", "expected 0 or parallel.tp %d (SGLang asserts tp_size replicas), got %d", n.tp, f)
  end
end

return runtime {
  name = "sglang",
  summary = "SGLang serving (token pool)",
  own_attention = "its attention backend (FlashInfer, FlashAttention 3, ...)",
  kinds = { "inference" },
  knobs = { mem_fraction_static = "number", context_length = "int", max_running_requests = "int",
            kv_cache_dtype = "string", chunked_prefill_size = "int", max_total_tokens = "int",
            page_size = "int", cuda_graph_max_bs = "int", disable_radix_cache = "bool",
            -- disable_cuda_graph: no decode graphs; disable_piecewise_cuda_graph: no piecewise graphs
            -- (on by default from 0.5.10 here, src/rt_sglang.c piecewise_sizes)
            disable_cuda_graph = "bool", disable_piecewise_cuda_graph = "bool",
            -- --enforce-piecewise-cuda-graph: skips SGLang's auto-disable ladder (src/rt_sglang.c)
            enforce_piecewise_cuda_graph = "bool",
            -- --disable-custom-all-reduce; off by SGLang's own rule too, vLLM's (src/estimate.c est_custom_ar_off):
            -- NCCL's all-reduces are then captured into the CUDA graphs
            disable_custom_all_reduce = "bool",
            enable_piecewise_cuda_graph = "bool", -- attention_backend: SGLang's --attention-backend choices (server_args.py
            -- ATTENTION_BACKEND_CHOICES, 0.5.x); "aiter" changes the fraction (rt_sglang.c aiter_derate), every
            -- backend its CUDA-graph state (rt_sglang.c attn_state)
            attention_backend = { "aiter", "triton", "torch_native", "flex_attention", "flashinfer", "fa3", "fa4",
                                  "flashmla", "cutlass_mla", "trtllm_mla", "trtllm_mha", "nsa", "wave",
                                  "dual_chunk_flash_attn", "hybrid_linear_attn", "intel_amx", "intel_xpu", "ascend" }, piecewise_cuda_graph_max_tokens = "int",
            -- --cuda-graph-backend-prefill (PR #23906's runner / backend split; prefill choices breakable,
            -- tc_piecewise, full, disabled, model_executor/cuda_graph_mode.py): the default by release and
            -- what each keeps, src/rt_sglang.c sg_prefill_backend
            cuda_graph_backend_prefill = { "breakable", "tc_piecewise", "full", "disabled" },
            swa_full_tokens_ratio = "number", disable_hybrid_swa_memory = "bool",
            mamba_full_memory_ratio = "number", max_mamba_cache_size = "int", mamba_ssm_dtype = "string",
            -- { method, model, num_speculative_tokens, eagle_topk, num_draft_tokens }: see speculative()
            speculative = "table",
            -- --enable-dp-attention --dp-size: the pools by attention groups of tp / dp_size ranks
            -- (src/rt_sglang.c sg_attn_tp); --n-share-experts-fusion: DeepSeek-V3/R1's shared expert
            -- cloned into the MoE tp times (sg_shared_fusion_bytes)
            enable_dp_attention = "bool", dp_size = "int", n_share_experts_fusion = "int" },
  knob_docs = {
    mem_fraction_static = "--mem-fraction-static: weights and KV pool's share of the GPU (default from SGLang's rule)",
    context_length = "--context-length: the longest request",
    max_running_requests = "--max-running-requests: requests at once (the request-to-token pool's rows)",
    kv_cache_dtype = "--kv-cache-dtype: auto or an fp8 type",
    chunked_prefill_size = "--chunked-prefill-size: tokens a prefill chunk (the activation reserve, piecewise graph sizes)",
    max_total_tokens = "--max-total-tokens: a cap on the token pool",
    page_size = "--page-size: tokens a KV page",
    cuda_graph_max_bs = "--cuda-graph-max-bs: the largest decode batch captured",
    disable_radix_cache = "--disable-radix-cache: one recurrent-state slot a request instead of three (hybrid models)",
    disable_cuda_graph = "--disable-cuda-graph: no decode graphs",
    disable_piecewise_cuda_graph = "--disable-piecewise-cuda-graph: no piecewise prefill graphs (default on from 0.5.10 on CUDA, "
      .. "off by SGLang's own ladder for pp > 1, AMD GPUs, multimodal models, Qwen3-Next and others)",
    enforce_piecewise_cuda_graph = "--enforce-piecewise-cuda-graph (0.5.10 and later): prefill graphs even where SGLang's auto-disable ladder "
      .. "turns them off (architecture list, speculative decoding in 0.5.10, pp > 1, non-CUDA GPUs, multimodal models)",
    disable_custom_all_reduce = "--disable-custom-all-reduce: NCCL's all-reduces captured into the graphs",
    enable_piecewise_cuda_graph = "--enable-piecewise-cuda-graph: piecewise prefill graphs before they were the default",
    attention_backend = "--attention-backend: its CUDA-graph state and workspace; aiter changes the fraction",
    piecewise_cuda_graph_max_tokens = "--piecewise-cuda-graph-max-tokens: the largest piecewise size captured",
    cuda_graph_backend_prefill = "--cuda-graph-backend-prefill: breakable (default from 0.5.14), tc_piecewise (torch.compile, "
      .. "default 0.5.10-0.5.13), full (priced as breakable; experimental, unchecked) or disabled",
    swa_full_tokens_ratio = "--swa-full-tokens-ratio: the sliding-window pool against the full one (0.8)",
    disable_hybrid_swa_memory = "--disable-hybrid-swa-memory: one pool for sliding-window and full layers",
    mamba_full_memory_ratio = "--mamba-full-memory-ratio: the recurrent state pool's share of the pool memory (0.9)",
    max_mamba_cache_size = "--max-mamba-cache-size: recurrent states allocated",
    mamba_ssm_dtype = "--mamba-ssm-dtype: the SSM state's dtype (float32)",
    speculative = "--speculative-algorithm and its sizes { method, model, num_speculative_tokens, eagle_topk, num_draft_tokens }",
    enable_dp_attention = "--enable-dp-attention: attention in dp_size groups of tp / dp_size ranks (the pools' heads and state)",
    dp_size = "--dp-size with --enable-dp-attention: the attention data-parallel groups (a divisor of parallel.tp)",
    n_share_experts_fusion = "--n-share-experts-fusion: DeepSeek-V3/R1's shared expert cloned into the MoE (0 or parallel.tp)",
  },
  modelled = true,
  normalize = normalize,
  parallel_check = parallel_check,
}
