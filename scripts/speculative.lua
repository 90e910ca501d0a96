-- speculative.lua: the draft side of speculative decoding for the serving runtimes
-- (runtime.speculative = { method, model, num_speculative_tokens }). It validates the
-- table, resolves the draft, and appends what the drafter allocates to the target's
-- description as tensors tagged component = "draft" (src/rt_vllm.c counts them apart:
-- they share vLLM's "Model loading took" figure but not the target's layers), and its
-- attention layers as extras spec.kv<i>.* (they join the KV-cache spec).
--
-- What vLLM allocates per method (vllm-project/vllm, V1; files read at the commits the
-- code index holds: llama_eagle.py 00da9231, llama_eagle3.py 00bd1493,
-- v1/spec_decode/llm_base_proposer.py 00c4f22d):
--   eagle  (EagleLlamaForCausalLM): the draft's decoder layers (layer 0 without
--          input_layernorm), fc = torch.nn.Linear(2h, h) replicated on every rank; the
--          embedding and lm_head are the target's (_maybe_share_embeddings /
--          _maybe_share_lm_head: a draft copy is built, then replaced and freed).
--   eagle3 (Eagle3LlamaForCausalLM): layer 0's qkv_proj takes 2h (embeds ++ hidden), every
--          layer has hidden_norm, fc = ReplicatedLinear(3 x target hidden, h), a final norm,
--          its own lm_head of draft_vocab_size rows (ParallelLMHead) and the int64
--          draft_id_to_target_id map (d2t; t2d is skipped at load). The embedding is the
--          target's when the checkpoint has none (the yuhuili heads).
--   mtp    (DeepSeekMTP, deepseek_mtp.py): per MTP layer a decoder layer shaped like the
--          target's layer at that index (MoE for DeepSeek-V3), enorm, hnorm, eh_proj =
--          nn.Linear(2h, h) replicated and shared_head.norm; embed_tokens and
--          shared_head.head are replaced by the target's ("Detected MTP model. Sharing
--          target model embedding / lm_head weights with the draft model").
--   draft_model: a whole second model (its own embedding and head) with the target's TP.
--   ngram: nothing on the GPU.
-- No calibration case in shared/calibration measures speculative decoding: the figures are
-- vLLM's allocation arithmetic, not fitted.
local E = require "engine"
local nn = require "nn"
local scenario = require "scenario"
local S = {}

S.METHODS = { "eagle", "eagle3", "mtp", "ngram", "draft_model" }

-- Draft heads (not models: they do not run alone, so they are not presets). Only configs
-- read from public copies are listed.
-- yuhuili/EAGLE3-LLaMA3.1-Instruct-8B: its config.json as reproduced field for field in
-- SpecForge's LlamaForCausalLMEagle3 loading test and in an Azure ML deployment script
-- (code index; the hub file itself is not in the index). yuhuili/EAGLE-LLaMA3.1-Instruct-8B
-- (EAGLE-1): no copy of its config.json was found, so it has no entry; pass its config.json.
S.drafts = {
  ["yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"] = { arch = "llama", config = {
    architectures = { "LlamaForCausalLMEagle3" }, bos_token_id = 128000, eos_token_id = 128001,
    hidden_act = "silu", hidden_size = 4096, initializer_range = 0.02, intermediate_size = 14336,
    max_position_embeddings = 2048, model_type = "llama", num_attention_heads = 32,
    num_key_value_heads = 8, num_hidden_layers = 1, pad_token_id = 0, rms_norm_eps = 1e-05,
    tie_word_embeddings = false, torch_dtype = "float16", use_cache = true, vocab_size = 128256,
    draft_vocab_size = 32000,
  } },
}

local function find_arch(name, field)
  local a = E.architectures()[name] or (type(name) == "string" and E.architectures()[name:lower()])
  if not a then E.fail(field, "unknown architecture %s", tostring(name)) end
  return a
end

-- The draft's config (and architecture): a draft head above, a model preset or alias
-- (scenario.preset: matched as a scenario's model is, case ignored), a config.json (or a
-- directory holding one), or an inline { arch, config }.
local function draft_config(spec, field)
  if type(spec) == "table" then
    E.strict_field(field, spec, { "arch", "config", "id" })
    if type(spec.config) ~= "table" then E.fail(field .. ".config", "expected config.json's fields as a table") end
    return spec.config, spec.arch or spec.config.model_type, spec.id or "inline draft"
  end
  if type(spec) ~= "string" or spec == "" then
    E.fail(field, "expected a draft id, a config.json path or { arch, config }")
  end
  for id, d in pairs(S.drafts) do
    if id:lower() == spec:lower() then return d.config, d.arch, id end
  end
  local _, p = scenario.preset(spec)
  if p then return p.config, p.arch, spec end
  local kind = host.path_kind(spec)
  local path = kind == "dir" and (spec .. "/config.json") or spec
  if host.path_kind(path) == "file" and path:match("%.json$") then
    local cfg = host.read_json(path)
    return cfg, cfg.model_type, spec
  end
  local shown = #spec > 200 and (spec:sub(1, 200) .. "...") or spec
  E.fail(field, "unknown draft model '%s': not a draft head, a preset or a config.json", shown)
end

local function attn_dims(cfg)
  local h, nh = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_attention_heads")
  return h, nh, nn.int(cfg, "num_key_value_heads", nh), nn.head_dim(cfg, h, nh)
end

-- EAGLE-1 (llama_eagle.py).
local function eagle_tensors(t, cfg)
  local h, nh, nkv, d = attn_dims(cfg)
  local L = nn.need(cfg, "num_hidden_layers")
  local bias = nn.flag(cfg, "attention_bias", false) or nn.flag(cfg, "bias", false)
  local P = "draft.model.layers.*"
  nn.attention(t, P .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
    qkv_bias = bias, o_bias = bias })
  nn.gated_mlp(t, P .. ".mlp", { hidden = h, width = nn.need(cfg, "intermediate_size"), count = L,
    bias = nn.flag(cfg, "mlp_bias", false) })
  nn.norm(t, P .. ".input_layernorm", h, { count = L - 1 }) -- layer 0: nn.Identity
  nn.norm(t, P .. ".post_attention_layernorm", h, { count = L })
  nn.linear(t, "draft.model.fc", h, 2 * h, { role = "other" })
  if nn.flag(cfg, "add_para_norm", false) then -- the HASS variant
    nn.norm(t, "draft.model.embedding_layernorm", h)
    nn.norm(t, "draft.model.hidden_states_layernorm", h)
  end
  return { layers = L, kv_heads = nkv, head_dim = d }
end

-- EAGLE-3 (llama_eagle3.py).
local function eagle3_tensors(t, cfg, target_hidden)
  local h, nh, nkv, d = attn_dims(cfg)
  local L = nn.need(cfg, "num_hidden_layers")
  local qkv_bias = nn.flag(cfg, "attention_bias", false)
  local o_bias = qkv_bias or nn.flag(cfg, "bias", false)
  local q, kv = nh * d, nkv * d
  local function qkv(prefix, inp, count)
    for _, p in ipairs({ { "q_proj", q }, { "k_proj", kv }, { "v_proj", kv } }) do
      nn.linear(t, prefix .. ".self_attn." .. p[1], p[2], inp, { count = count, bias = qkv_bias })
    end
  end
  qkv("draft.model.layers.0", 2 * h, 1)
  qkv("draft.model.layers.*", h, L - 1)
  local P = "draft.model.layers.*"
  nn.linear(t, P .. ".self_attn.o_proj", h, q, { count = L, bias = o_bias })
  nn.gated_mlp(t, P .. ".mlp", { hidden = h, width = nn.need(cfg, "intermediate_size"), count = L,
    bias = nn.flag(cfg, "mlp_bias", false) })
  for _, n in ipairs({ "input_layernorm", "post_attention_layernorm", "hidden_norm" }) do
    nn.norm(t, P .. "." .. n, h, { count = L })
  end
  local ec = type(cfg.eagle_config) == "table" and cfg.eagle_config or {}
  if ec.use_aux_hidden_state ~= false then
    nn.linear(t, "draft.model.fc", h, 3 * nn.int(cfg, "target_hidden_size", target_hidden or h), { role = "other" })
  end
  nn.norm(t, "draft.model.norm", h)
  local dv = nn.int(cfg, "draft_vocab_size", nil) or nn.need(cfg, "vocab_size")
  nn.linear(t, "draft.lm_head", dv, h, { role = "lm_head" })
  t[#t + 1] = { name = "draft.draft_id_to_target_id", shape = { dv }, count = 1, role = "other", dtype = "int64" }
  return { layers = L, kv_heads = nkv, head_dim = d }
end

local function copy(v)
  if type(v) ~= "table" then return v end
  local o = {}
  for k, x in pairs(v) do o[k] = copy(x) end
  return o
end

-- MTP: the decoder layers at indices L .. L + n - 1 are what the target's architecture
-- builds beyond its own layers (the description with num_hidden_layers + n, less the
-- target's); their stored bytes and format are the target's tensor of the same name (a
-- quantized checkpoint quantizes its MTP layer alike), unless the checkpoint's quantization
-- leaves the MTP modules out under their own names: vLLM builds the drafter with the
-- target's quant_config (vllm/model_executor/models/qwen3_5_mtp.py, qwen3_next_mtp.py,
-- deepseek_mtp.py: prefix "mtp" resp. "model.layers.<L + i>"), so an ignore entry such as
-- compressed-tensors' "re:.*mtp.*" (llm-compressor recipes for Qwen3.5 / 3.6 list it: the
-- transformers class they calibrate through has no MTP module, and the head ships in bf16)
-- loads it unquantized ("Using ... Unquantized MoE backend" after "Loading drafter model..."
-- in a vLLM 0.20.0 log of RedHatAI/Qwen3.6-35B-A3B-NVFP4). The quant's keep and
-- modules_to_not_convert rules are matched against that checkpoint name (Q.keeps). Then
-- DeepSeekMultiTokenPredictorLayer's enorm, hnorm, eh_proj and shared_head.norm.
-- GLM-4.5's MTP block (vLLM glm4_moe_mtp.py, SGLang glm4_moe_nextn.py) is DeepSeek's shape:
-- enorm, hnorm, eh_proj (2h -> h), shared_head.norm and one decoder layer of the model's own
-- (a MoE layer), embedding and head shared with the target.
-- The hybrid Qwen models (vLLM only; vllm-project/vllm qwen3_next_mtp.py 055e47c2,
-- qwen3_5_mtp.py 01d99805): Qwen3NextMultiTokenPredictor / Qwen3_5MultiTokenPredictor hold
-- fc = ColumnParallelLinear(2h, h, gather_output) (split over tp), pre_fc_norm_embedding,
-- pre_fc_norm_hidden, decoder layers built with layer_type="full_attention" (gated attention
-- and the model's own MoE or dense MLP) and a final norm. Their layer count is what the model
-- class reads: Qwen3-Next getattr(config, "num_nextn_predict_layers", 1), Qwen3.5
-- getattr(hf_text_config, "mtp_num_hidden_layers", 1). The embedding and lm_head are the
-- target's (the checkpoints carry no mtp.embed_tokens: mtp_use_dedicated_embeddings false in
-- every Qwen3.5 / 3.6 config).
-- n_predict, the default num_speculative_tokens (vllm/config/speculative.py
-- hf_config_override 002e77c1): num_nextn_predict_layers for DeepSeek, GLM-4.5 and Qwen3-Next,
-- mtp_num_hidden_layers (top level, else text_config) for Qwen3.5; None when the config lacks
-- the key, and then num_speculative_tokens is required. Qwen/Qwen3-Next-80B-A3B-* config.json
-- has no num_nextn_predict_layers (its field list as transcribed in public test fixtures):
-- one MTP layer, no default token count.
local MTP_ARCHS = {
  deepseek = { key = "num_nextn_predict_layers" },
  glm4_moe = { key = "num_nextn_predict_layers" },
  qwen3_next = { key = "num_nextn_predict_layers", layers_default = 1, hybrid = true },
  qwen3_5 = { key = "mtp_num_hidden_layers", layers_default = 1, hybrid = true, text = true },
}
S.MTP_ARCHS = MTP_ARCHS

-- The layer_types of a hybrid config with k full-attention layers appended (the MTP layers'
-- layer_type="full_attention"); a config without the list gets the one its
-- full_attention_interval implies (nn.gated_deltanet_mixers reads either).
local function with_mtp_layers(tc, L, k)
  local lt, src = {}, tc.layer_types
  local every = nn.int(tc, "full_attention_interval", 4)
  for i = 1, L do
    lt[i] = type(src) == "table" and src[i] or (i % every == 0 and "full_attention" or "linear_attention")
  end
  for i = L + 1, L + k do lt[i] = "full_attention" end
  tc.layer_types = lt
end

local function mtp_tensors(t, n, field, hybrid_ok)
  local desc, cfg = n.model.desc, n.model_config
  local m = MTP_ARCHS[desc.arch or ""]
  if not m or type(cfg) ~= "table" or (m.hybrid and not hybrid_ok) then
    E.fail(field, "MTP is modelled for %s, not for %s", hybrid_ok and
      "DeepSeek-V3/R1, GLM-4.5, Qwen3-Next (num_nextn_predict_layers) and Qwen3.5 (mtp_num_hidden_layers)" or
      "DeepSeek-V3/R1 and GLM-4.5 (num_nextn_predict_layers)", tostring(desc.arch))
  end
  local tc = m.text and (nn.sub(cfg, "text_config") or cfg) or cfg
  local n_predict = nn.count(cfg, m.key, nil) or nn.count(tc, m.key, nil)
  local k = nn.count(tc, m.key, nil) or m.layers_default or 0
  if k < 1 then E.fail(field, "the model's config has no MTP layers (%s is 0 or missing)", m.key) end
  if nn.flag(tc, "mtp_use_dedicated_embeddings", false) then
    E.fail(field, "an MTP block with its own embedding (mtp_use_dedicated_embeddings) is not modelled")
  end
  local bigger = copy(cfg)
  local btc = m.text and (nn.sub(bigger, "text_config") or bigger) or bigger
  local L = nn.need(tc, "num_hidden_layers")
  btc.num_hidden_layers = L + k
  if m.hybrid then with_mtp_layers(btc, L, k) end
  local d2 = find_arch(desc.arch, field).build(bigger)
  local have = {}
  for _, x in ipairs(desc.tensors) do have[x.name] = x end
  local Q = require "quant"
  for _, x in ipairs(d2.tensors) do
    local own = have[x.name]
    local extra = x.count - (own and own.count or 0)
    if extra > 0 and (x.name:match("^model%.layers%.") or x.name:match("^model%.language_model%.layers%.")) then
      local d = { name = "draft." .. x.name, shape = x.shape, count = extra, role = x.role,
                  bytes = own and own.bytes, dtype = own and own.dtype, qtype = own and own.qtype }
      -- the checkpoint's name of the first MTP layer's module (Qwen3.5 / Qwen3-Next
      -- "mtp.layers.0.*", DeepSeek / GLM-4.5 "model.layers.<L>.*")
      local suffix = x.name:match("^model%.language_model%.layers%.[^.]+%.(.*)$") or x.name:match("^model%.layers%.[^.]+%.(.*)$")
      local ck = suffix and (m.hybrid and ("mtp.layers.0." .. suffix) or ("model.layers." .. L .. "." .. suffix))
      if d.qtype and ck and Q.keeps(n, ck, x.role) then d.bytes, d.dtype, d.qtype = nil, nil, nil end
      t[#t + 1] = d
    end
  end
  local h = desc.hidden
  if m.hybrid then
    local P = "draft.mtp"
    nn.linear(t, P .. ".fc", h, 2 * h, { role = "mlp" }) -- ColumnParallelLinear: split over tp
    nn.norm(t, P .. ".pre_fc_norm_embedding", h)
    nn.norm(t, P .. ".pre_fc_norm_hidden", h)
    nn.norm(t, P .. ".norm", h)
  else
    local P = "draft.model.mtp.*"
    nn.norm(t, P .. ".enorm", h, { count = k })
    nn.norm(t, P .. ".hnorm", h, { count = k })
    nn.linear(t, P .. ".eh_proj", h, 2 * h, { count = k, role = "other" })
    nn.norm(t, P .. ".shared_head.norm", h, { count = k })
  end
  local g = desc.kv[1]
  for _, x in ipairs(desc.kv) do
    if (x.kind == nil or x.kind == "attention") and not x.window then g = x; break end
  end
  return { layers = k, kv_heads = g.kv_heads, k_dim = g.k_dim, v_dim = g.v_dim }, k, n_predict, m.hybrid and tc
end

-- A hybrid target's gated-DeltaNet state grows with speculative decoding: the conv window
-- keeps num_speculative_tokens more columns of its q, k, v channels (MambaStateShapeCalculator.
-- gated_delta_net_state_shape: conv_kernel_size - 1 + num_spec, vllm/model_executor/layers/
-- mamba/mamba_utils.py), and each request holds 1 + num_speculative_tokens state blocks
-- (MambaSpec.num_speculative_blocks, vllm/v1/kv_cache_interface.py max_memory_usage_bytes,
-- mamba_cache_mode "none"). src/rt_vllm.c reads spec.state_conv_extra (elements per layer) and
-- spec.state_blocks.
local function hybrid_state(n, tc, tokens)
  local conv_dim = 2 * nn.need(tc, "linear_num_key_heads") * nn.need(tc, "linear_key_head_dim") +
    nn.need(tc, "linear_num_value_heads") * nn.need(tc, "linear_value_head_dim")
  n.extra["spec.state_conv_extra"] = tokens * conv_dim
  n.extra["spec.state_blocks"] = tokens
end

local function draft_model_tensors(t, cfg, arch, field)
  local ok, d = pcall(find_arch(arch, field).build, cfg)
  if not ok then E.fail(field, "%s", tostring(d)) end
  for _, x in ipairs(d.tensors) do
    t[#t + 1] = { name = "draft." .. x.name, shape = x.shape, count = x.count, role = x.role }
  end
  return d
end

local function set_kv(n, i, g)
  local p = ("spec.kv%d."):format(i)
  n.extra[p .. "layers"], n.extra[p .. "heads"] = g.layers, g.kv_heads
  n.extra[p .. "k_dim"], n.extra[p .. "v_dim"] = g.k_dim or g.head_dim, g.v_dim or g.head_dim
  n.extra[p .. "window"] = g.window or 0
end

-- apply(n, sp, runtime[, opts]): validates runtime.speculative and adds the drafter to n.
-- opts (SGLang): keys = more allowed keys of the table (the runtime validates them),
-- default_tokens(method) = the runtime's own default for num_speculative_tokens; (vLLM)
-- mtp_hybrid = the hybrid Qwen models' MTP (MTP_ARCHS .hybrid) is modelled. Returns
-- { method, tokens, config (the draft's config.json fields; nil for mtp and ngram) }.
function S.apply(n, sp, rt, opts)
  opts = opts or {}
  local F = "runtime.speculative"
  local keys = { "method", "model", "num_speculative_tokens" }
  for _, k in ipairs(opts.keys or {}) do keys[#keys + 1] = k end
  E.strict_field(F, sp, keys)
  local method = E.enum_field(sp.method, F .. ".method", S.METHODS)
  local own_model = method == "eagle" or method == "eagle3" or method == "draft_model"
  if own_model and sp.model == nil then
    E.fail(F .. ".model", "method %s needs the draft model (a draft id, a config.json path or { arch, config })", method)
  end
  if not own_model and sp.model ~= nil then
    E.fail(F .. ".model", "method %s takes no draft model (%s)", method,
      method == "mtp" and "its layers come from the target's checkpoint" or "it drafts from the prompt")
  end
  local k = sp.num_speculative_tokens
  if k == nil and opts.default_tokens then k = opts.default_tokens(method) end
  if k == nil and method ~= "mtp" then
    E.fail(F .. ".num_speculative_tokens", "method %s needs num_speculative_tokens (vLLM has no default for it)", method)
  end
  if k ~= nil then k = E.int_field(k, F .. ".num_speculative_tokens", 1, 64) end
  n.extra["spec.method"] = method
  local t, kv, draft_id, dcfg = n.model.desc.tensors, nil, nil, nil
  if method == "eagle" or method == "eagle3" then
    local cfg, _, id = draft_config(sp.model, F .. ".model")
    dcfg = cfg
    draft_id = id
    kv = method == "eagle" and eagle_tensors(t, cfg) or eagle3_tensors(t, cfg, n.model.desc.hidden)
    -- the drafter's rotary cache (get_rope keyed by head size, max_position, base, scaling:
    -- the head's 2048 positions differ from the target's, so it gets its own). vLLM reads the
    -- head's config.json through transformers (the EAGLE heads are model_type llama), so one
    -- without max_position_embeddings holds LlamaConfig's default 2048 (transformers
    -- models/llama/configuration_llama.py); the 8192 of vLLM's getattr(config,
    -- "max_position_embeddings", 8192) (llama.py, llama_eagle3.py) never applies to it.
    local mp = nn.int(cfg, "max_position_embeddings", 2048)
    local tcfg = n.model_config or {}
    local same = mp == n.model.desc.max_position and kv.head_dim == n.model.desc.head_dim and
      cfg.rope_theta == tcfg.rope_theta
    n.extra["spec.rope_elems"] = same and 0 or mp * kv.head_dim
    n.extra["spec.hidden"] = nn.need(cfg, "hidden_size")
    n.extra["spec.ffn"] = nn.need(cfg, "intermediate_size")
    n.extra["spec.heads"] = select(2, attn_dims(cfg)) * kv.head_dim
    n.extra["spec.kv_dim"] = kv.kv_heads * kv.head_dim
    n.extra["spec.in_width"] = (method == "eagle3" and 3 or 2) * n.model.desc.hidden
    set_kv(n, 1, kv)
    n.extra["spec.kv_groups"] = 1
  elseif method == "mtp" then
    local g, layers, n_predict, hybrid_tc = mtp_tensors(t, n, F .. ".method", opts.mtp_hybrid)
    if k == nil and n_predict == nil then
      E.fail(F .. ".num_speculative_tokens", "%s's config has no %s (vLLM's n_predict is None): num_speculative_tokens "
        .. "is required", tostring(n.model.desc.arch), MTP_ARCHS[n.model.desc.arch].key)
    end
    -- vllm/config/speculative.py: "num_speculative_tokens ... must be divisible by n_predict"
    if k ~= nil and n_predict ~= nil and k > n_predict and k % n_predict ~= 0 then
      E.fail(F .. ".num_speculative_tokens", "%d must be divisible by the %d MTP layers (n_predict)", k, n_predict)
    end
    k = k or n_predict
    if hybrid_tc then hybrid_state(n, hybrid_tc, k) end
    set_kv(n, 1, g)
    n.extra["spec.kv_groups"] = 1
    n.extra["spec.in_width"] = 2 * n.model.desc.hidden
  elseif method == "draft_model" then
    local cfg, arch, id = draft_config(sp.model, F .. ".model")
    draft_id, dcfg = id, cfg
    local d = draft_model_tensors(t, cfg, arch, F .. ".model")
    if (d.vocab or 0) ~= (n.model.desc.vocab or 0) then
      E.fail(F .. ".model", "the draft's vocabulary (%s) differs from the target's (%s): %s needs one tokenizer",
        tostring(d.vocab), tostring(n.model.desc.vocab), rt)
    end
    for i, g in ipairs(d.kv or {}) do
      if g.kind and g.kind ~= "attention" then E.fail(F .. ".model", "a draft with %s layers is not modelled", g.kind) end
      if i > 2 then E.fail(F .. ".model", "a draft with more than two kinds of attention layer is not modelled") end
      set_kv(n, i, { layers = g.layers, kv_heads = g.kv_heads, k_dim = g.k_dim, v_dim = g.v_dim, window = g.window })
    end
    n.extra["spec.kv_groups"] = #(d.kv or {})
    n.extra["spec.rope_elems"] = (d.max_position or 0) * (d.rotary_dim or d.head_dim or 0)
    -- the drafter's dummy forward runs over its own widths (src/rt_vllm.c drafter_bytes)
    n.extra["spec.hidden"], n.extra["spec.ffn"] = d.hidden, d.intermediate
    n.extra["spec.heads"] = (d.heads or 0) * (d.head_dim or 0)
    n.extra["spec.kv_dim"] = (d.kv_heads or 0) * (d.head_dim or 0)
  end
  for i = 1, #t do
    if t[i].name:match("^draft%.") then t[i].component = "draft" end
  end
  n.extra["spec.tokens"] = k
  E.note(n, "%s speculative decoding: %s%s, %d speculative token(s)", rt, method,
    draft_id and (" with " .. draft_id) or "", k)
  return { method = method, tokens = k, config = dcfg }
end

return S
