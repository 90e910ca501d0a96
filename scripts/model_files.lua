-- model_files.lua: a model file as a scenario model (scripts/scenario.lua's resolve_model):
-- a .gguf (host.read_gguf: the architecture from its metadata, mapped to config.json's
-- fields) or a .safetensors file, a sharded index or a model directory (host.read_safetensors
-- plus the directory's config.json). The file's tensors, with their exact stored bytes and
-- ggml/safetensors types, replace the architecture's inventory; the architecture's build()
-- still provides the KV layout and the block shape.
local M = {}

local function fail(path, fmt, ...)
  error(("model '%s': " .. fmt):format(path, ...), 0)
end

-- ---------------------------------------------------------------- tensor roles

-- llama.cpp tensor names (llama-arch.cpp LLM_TENSOR_NAMES), first match wins
local GGUF_ROLES = {
  { "^token_embd_norm%.", "norm" }, -- lfm2's output norm (LLM_TENSOR_OUTPUT_NORM_LFM2)
  { "^token_embd%.", "embed" }, { "^token_types%.", "embed" }, { "^position_embd%.", "pos_embed" },
  { "^output_norm%.", "norm" }, { "^output%.", "lm_head" },
  { "_norm%.", "norm" }, { "^blk%.%d+%.ln_", "norm" },
  { "%.ffn_gate_inp", "router" }, { "%.ffn_[%a_]*_shexp", "shared_expert" },
  { "%.ffn_[%a_]*_exps", "expert" }, { "%.ffn_", "mlp" }, { "%.attn_", "attn" },
  { "%.shortconv%.", "attn" }, -- lfm2's short-conv mixer (the HF inventory's role for it)
}

-- Hugging Face names
local HF_ROLES = {
  { "embed_tokens%.", "embed" }, { "%.wte%.", "embed" }, { "embed_in%.", "embed" },
  { "word_embeddings%.", "embed" }, { "tok_embeddings%.", "embed" }, { "token_embedding%.", "embed" },
  { "%.wpe%.", "pos_embed" }, { "position_embedding", "pos_embed" }, { "embed_positions%.", "pos_embed" },
  { "embeddings%.weight$", "embed" }, -- Mamba / Nemotron-H: backbone.embeddings.weight
  { "^lm_head%.", "lm_head" }, { "^embed_out%.", "lm_head" },
  { "norm[%w_]*%.", "norm" }, { "%.ln_%w+%.", "norm" }, { "layernorm", "norm" },
  { "shared_expert", "shared_expert" }, { "%.experts%.", "expert" },
  { "%.mlp%.gate%.", "router" }, { "%.router%.", "router" },
  { "%.mlp%.", "mlp" }, { "feed_forward", "mlp" },
  { "self_attn", "attn" }, { "%.attention%.", "attn" }, { "%.attn%.", "attn" },
}

-- A 2-D tensor is never a norm's weight: a diffusion transformer's adaLN modulations
-- (norm1.linear, norm_out.linear: diffusers' AdaLayerNormZero / AdaLayerNormContinuous) are
-- nn.Linear modules under a "norm" name, quantized like any Linear (as in the presets).
function M.role(name, shape)
  local gguf = name:match("^blk%.") or name:match("^token_embd%.") or name:match("^output[%._]")
               or name:match("^position_embd%.")
  local matrix = shape ~= nil and #shape >= 2
  for _, r in ipairs(gguf and GGUF_ROLES or HF_ROLES) do
    if name:find(r[1]) and not (matrix and r[2] == "norm") then return r[2] end
  end
  return "other"
end

-- The roles of a file's tensors: those of the architecture's description built from the same
-- config.json (its names, "*" for a layer or expert index), the one role table the estimate
-- reads, so that a file read from disk and the preset of the same shapes are quantized, split
-- and adapted alike; M.role above only for a tensor the description does not name (GGUF's
-- blk.* names, extra tensors). prefix: a diffusers folder's component prefix ("transformer.").
local function index_key(name) return (name:gsub("%.%d+%f[%.%z]", ".#"):gsub("%.%*%f[%.%z]", ".#")) end

function M.with_arch_roles(tensors, arch_tensors, only_component)
  local by_key = {}
  for _, a in ipairs(arch_tensors or {}) do
    if not only_component or a.component == only_component then
      local k = index_key(a.name)
      local pat = "^" .. a.name:gsub("[%^%$%(%)%%%.%[%]%+%-%?]", "%%%0"):gsub("%*", "%%d+") .. "$"
      by_key[k] = by_key[k] or {}
      table.insert(by_key[k], { pat = pat, role = a.role or "other" })
    end
  end
  for _, t in ipairs(tensors) do
    for _, c in ipairs(by_key[index_key(t.name)] or {}) do
      if t.name:find(c.pat) then t.role = c.role; break end
    end
  end
  return tensors
end

-- ---------------------------------------------------------------- GGUF

-- general.architecture -> vramfit architecture (model_type) ; a function when it depends on
-- the metadata
local GGUF_ARCH = {
  llama = function(md) return (md.expert_count or 0) > 0 and "mixtral" or "llama" end,
  mistral3 = "mistral",
  gptneox = "gpt_neox", qwen2 = "qwen2", qwen2vl = "qwen2", qwen3 = "qwen3", qwen3moe = "qwen3_moe",
  gemma2 = "gemma2", gemma3 = "gemma3_text", phi3 = "phi3", gpt2 = "gpt2", bloom = "bloom",
  falcon = "falcon", deepseek2 = "deepseek_v2", ["gpt-oss"] = "gpt_oss", t5 = "t5",
  glm4moe = "glm4_moe", qwen3next = "qwen3_next", qwen35 = "qwen3_5_text", qwen35moe = "qwen3_5_moe_text",
  llama4 = "llama4_text", lfm2 = "lfm2", granitehybrid = "granitemoehybrid",
  -- architecture families A (llama.cpp src/llama-arch.cpp LLM_ARCH_NAMES)
  gemma = "gemma", phi2 = "phi", phimoe = "phimoe", olmo2 = "olmo2", olmoe = "olmoe",
  granite = "granite", granitemoe = "granitemoe", ["command-r"] = "cohere", cohere2 = "cohere2",
  starcoder2 = "starcoder2", smollm3 = "smollm3",
}

-- arch-families-b: llama.cpp's names for them (src/llama-arch.cpp LLM_ARCH_NAMES: "internlm2",
-- "glm4", "ernie4_5", "hunyuan-dense", "exaone4", "seed_oss"); InternLM3 converts as "llama"
GGUF_ARCH.internlm2, GGUF_ARCH.glm4, GGUF_ARCH.ernie4_5 = "internlm2", "glm4", "ernie4_5"
GGUF_ARCH["hunyuan-dense"], GGUF_ARCH.exaone4, GGUF_ARCH.seed_oss = "hunyuan_v1_dense", "exaone4", "seed_oss"
GGUF_ARCH.dots1, GGUF_ARCH["ernie4_5-moe"] = "dots1", "ernie4_5_moe"
-- Qwen1.5-MoE / Qwen2-57B-A14B (llama.cpp LLM_ARCH_QWEN2MOE, "qwen2moe")
GGUF_ARCH.qwen2moe = "qwen2_moe"
GGUF_ARCH.nemotron_h = "nemotron_h"
-- Nemotron 3 (llama.cpp LLM_ARCH_NEMOTRON_H_MOE, "nemotron_h_moe": conversion/nemotron.py picks it
-- when config.json has num_experts_per_tok) is nemotron_h.lua's 'E' layers
GGUF_ARCH.nemotron_h_moe = "nemotron_h"
-- Hunyuan-A13B (LLM_ARCH_HUNYUAN_MOE, "hunyuan-moe")
GGUF_ARCH["hunyuan-moe"] = "hunyuan_v1_moe"
-- Gemma 4 (LLM_ARCH_GEMMA4, "gemma4"): the text model (the towers are the mmproj file's)
GGUF_ARCH.gemma4 = "gemma4_text"
-- Kimi Linear (LLM_ARCH_KIMI_LINEAR, "kimi-linear")
GGUF_ARCH["kimi-linear"] = "kimi_linear"
GGUF_ARCH["falcon-h1"] = "falcon_h1"
GGUF_ARCH.jamba = "jamba"
-- OLMo 3 converts as "olmo2" (convert_hf_to_gguf.py registers Olmo3ForCausalLM with Olmo2Model) and
-- writes attention.sliding_window; llama.cpp's olmo2 load_hparams then slides that window on 3 layers
-- in 4 (set_swa_pattern(4): every 4th layer global), Olmo3Config's default pattern, which olmo3 builds
-- when layer_types is absent
-- arch-dense: Apertus (LLM_ARCH_APERTUS, "apertus": its xIELU scalars are metadata arrays, no tensors)
GGUF_ARCH.apertus = "apertus"
-- Arcee AFM (LLM_ARCH_ARCEE, "arcee": ffn_up / ffn_down, no gate)
GGUF_ARCH.arcee = "arcee"
-- Nemotron-4 / Minitron (LLM_ARCH_NEMOTRON, "nemotron")
GGUF_ARCH.nemotron = "nemotron"
-- StableLM (LLM_ARCH_STABLELM, "stablelm")
GGUF_ARCH.stablelm = "stablelm"
-- StarCoder / GPTBigCode (LLM_ARCH_STARCODER, "starcoder")
GGUF_ARCH.starcoder = "gpt_bigcode"
-- EXAONE 3.0 / 3.5 (LLM_ARCH_EXAONE, "exaone")
GGUF_ARCH.exaone = "exaone"
GGUF_ARCH.olmo2 = function(md) return (md["attention.sliding_window"] or 0) > 0 and "olmo3" or "olmo2" end
-- arch-moe: DBRX (LLM_ARCH_DBRX, "dbrx")
GGUF_ARCH.dbrx = "dbrx"
-- gguf-new: MiniCPM3 (LLM_ARCH_MINICPM3, "minicpm3") and Arcee AFMoE / Trinity (LLM_ARCH_AFMOE,
-- "afmoe"), both in llama.cpp 80fb11a and 00395eb (src/llama-arch.cpp)
GGUF_ARCH.minicpm3, GGUF_ARCH.afmoe = "minicpm3", "afmoe"

-- families vramfit describes from safetensors that llama.cpp does not load: no LLM_ARCH of theirs
-- in src/llama-arch.cpp (ggml-org/llama.cpp 00395eb, 2026; nor 80fb11a, the conformance build), so
-- no llama.cpp graph or KV cache to model; a GGUF that names one is refused, naming it (by the
-- safetensors model_type and the hyphenated spelling llama.cpp gives its other names)
local GGUF_NOT_IN_LLAMACPP = { longcat_flash = "LongCat-Flash", ["longcat-flash"] = "LongCat-Flash" }

local GGUF_DTYPE = { F32 = "fp32", F16 = "fp16", BF16 = "bf16", F64 = "fp64", I8 = "int8",
                     I16 = "int16", I32 = "int32", I64 = "int64" }

-- a metadata value: a scalar, or a per-layer list whose largest element is taken
local function scalar(v)
  if type(v) ~= "table" then return v end
  local m
  for _, x in ipairs(v) do if not m or x > m then m = x end end
  return m
end

local function find_tensor(tensors, pattern)
  for _, t in ipairs(tensors) do
    if t.name:match(pattern) then return t end
  end
end

-- The gated DeltaNet hybrids (qwen3next, qwen35, qwen35moe; llama.cpp load_arch_hparams):
-- ssm.group_count K heads and ssm.time_step_rank V heads of ssm.state_size (K and V alike),
-- ssm.inner_size = V heads x V head size, ssm.conv_kernel; the recurrent layers from
-- attention.recurrent_layers, else every full_attention_interval-th layer (default 4) is
-- full attention. The conv state is (kernel - 1) x (inner + 2 x groups x state) and the
-- SSM state state x inner per layer (llama-hparams.cpp n_embd_r, n_embd_s), as
-- nn.gated_deltanet_mixers counts them.
local function deltanet_config(path, md, cfg, need)
  local nv, dk = need("ssm.time_step_rank"), need("ssm.state_size")
  cfg.linear_num_key_heads, cfg.linear_num_value_heads = need("ssm.group_count"), nv
  cfg.linear_key_head_dim, cfg.linear_conv_kernel_dim = dk, need("ssm.conv_kernel")
  local inner = need("ssm.inner_size")
  if nv < 1 then fail(path, "ssm.time_step_rank must be at least 1 (the V heads), got %d", nv) end
  if inner % nv ~= 0 then fail(path, "ssm.inner_size %d is not a multiple of ssm.time_step_rank %d", inner, nv) end
  cfg.linear_value_head_dim = inner // nv
  cfg.full_attention_interval = md.full_attention_interval
  local rl = md["attention.recurrent_layers"]
  if type(rl) == "table" then
    cfg.layer_types = {}
    for i = 1, cfg.num_hidden_layers do
      cfg.layer_types[i] = rl[i] == 1 and "linear_attention" or "full_attention"
    end
  end
end

-- the DeltaNet hybrids with sparse MoE layers: the shared expert expert_shared_feed_forward_length
-- wide, else the routed experts' width
local function deltanet_moe_config(path, md, cfg, need)
  deltanet_config(path, md, cfg, need)
  cfg.shared_expert_intermediate_size = md.expert_shared_feed_forward_length or cfg.intermediate_size
end

-- DeepSeek-style MoE (deepseek2, glm4moe): routed and shared expert counts, the leading dense
-- layers and the routing's renormalization and scale
local function deepseek_moe_config(md, cfg, need)
  cfg.n_routed_experts = need("expert_count")
  cfg.n_shared_experts = md.expert_shared_count or 0
  cfg.first_k_dense_replace = md.leading_dense_block_count or 0
  cfg.norm_topk_prob = (md.expert_weights_norm or 0) ~= 0 -- a bool read as 0/1; llama.cpp's default: false
  cfg.routed_scaling_factor = md.expert_weights_scale
end

-- A hybrid whose per-layer attention.head_count_kv is 0 on a recurrent layer (llama.cpp's
-- is_recr: lfm2.cpp, granite-hybrid.cpp): layer_types from it, `recr` or `attn` a layer
local function recurrent_layer_types(path, md, cfg, arch, recr, attn)
  local kvh = md["attention.head_count_kv"]
  if type(kvh) ~= "table" then fail(path, "GGUF metadata '%s.attention.head_count_kv' is not a per-layer list", arch) end
  cfg.layer_types = {}
  for i = 1, cfg.num_hidden_layers do cfg.layer_types[i] = (kvh[i] or 0) == 0 and recr or attn end
end

-- per GGUF architecture: the fields of its config.json from the keys its converter writes
-- (llama.cpp convert_hf_to_gguf.py / conversion/*.py, read back by src/models/<arch>.cpp);
-- a handler returns the file's KV layout when it differs from what the architecture builds
local GGUF_FIELDS = {
  -- Mistral 3 (llama.cpp mistral3.cpp): llama's layer; a nonzero attention.temperature_scale
  -- multiplies Q by a per-token temperature input after RoPE on every layer
  mistral3 = function(path, md, cfg)
    local t = md["attention.temperature_scale"]
    if t and t ~= 0 then cfg.attn_temperature_every_layer = true end
  end,
  -- Qwen2-VL / Qwen2.5-VL's language model (llama.cpp qwen2vl.cpp: qwen2's layer with
  -- ggml_rope_multi over rope.dimension_sections, 4 positions a token); the vision tower is
  -- the mmproj file's
  qwen2vl = function(path, md, cfg, need)
    local sec = md["rope.dimension_sections"]
    if type(sec) ~= "table" then fail(path, "GGUF metadata has no 'qwen2vl.rope.dimension_sections'") end
    cfg.rope_scaling = { type = "mrope", mrope_section = sec }
  end,
  -- GLM-4.5/4.6 (conversion/glm.py Glm4MoeModel): the shared experts are expert_shared_count
  -- x expert_feed_forward_length wide, the first leading_dense_block_count layers dense
  glm4moe = function(path, md, cfg, need, g)
    deepseek_moe_config(md, cfg, need)
    cfg.attention_bias = find_tensor(g.tensors, "^blk%.%d+%.attn_q%.bias$") ~= nil
    cfg.use_qk_norm = find_tensor(g.tensors, "^blk%.%d+%.attn_q_norm%.weight$") ~= nil
  end,
  -- LFM2 (src/models/lfm2.cpp load_arch_hparams): a layer whose attention.head_count_kv entry
  -- is 0 is a short-conv layer (is_recr) of kernel shortconv.l_cache; feed_forward_length is
  -- the FFN's width as stored (no Lfm2MLP adjustment)
  lfm2 = function(path, md, cfg, need)
    recurrent_layer_types(path, md, cfg, "lfm2", "conv", "full_attention")
    cfg.conv_L_cache = need("shortconv.l_cache")
    cfg.block_auto_adjust_ff_dim = false
    cfg.tie_embedding = cfg.tie_word_embeddings
  end,
  -- Granite 4.0 hybrid (src/models/granite-hybrid.cpp load_arch_hparams): a layer whose
  -- attention.head_count_kv entry is 0 is a Mamba-2 layer (is_recr) of ssm.time_step_rank heads
  -- of ssm.inner_size / heads, ssm.group_count groups of ssm.state_size, kernel ssm.conv_kernel;
  -- the dense FFN (feed_forward_length) is the shared MLP's width, with experts the shared
  -- experts' (expert_shared_feed_forward_length)
  granitehybrid = function(path, md, cfg, need)
    recurrent_layer_types(path, md, cfg, "granitehybrid", "mamba", "attention")
    local H, inner = need("ssm.time_step_rank"), need("ssm.inner_size")
    cfg.mamba_n_heads, cfg.mamba_d_head = H, inner // H
    cfg.mamba_n_groups, cfg.mamba_d_state = need("ssm.group_count"), need("ssm.state_size")
    cfg.mamba_d_conv, cfg.mamba_expand = need("ssm.conv_kernel"), inner // cfg.hidden_size
    cfg.shared_intermediate_size = md.expert_shared_feed_forward_length or cfg.intermediate_size
    cfg.intermediate_size = md.expert_feed_forward_length or cfg.intermediate_size
    -- rope.scaling.finetuned (default true) switches RoPE (load_arch_hparams' rope_pattern); the
    -- -H models' converter writes false for position_embedding_type "nope"
    local ft = md["rope.scaling.finetuned"]
    cfg.position_embedding_type = (ft == false or ft == 0) and "nope" or "rope"
  end,
  qwen3next = deltanet_moe_config,
  qwen35 = deltanet_config,
  qwen35moe = deltanet_moe_config,
  -- Llama 4 (src/models/llama4.cpp): routed and shared experts expert_feed_forward_length
  -- wide, dense layers feed_forward_length; chunked attention of 8192 tokens (llama.cpp's
  -- fixed n_swa; attention.sliding_window = 0 turns it off) on 3 of every
  -- attention.sliding_window_pattern (4) layers
  llama4 = function(path, md, cfg, need)
    cfg.intermediate_size, cfg.intermediate_size_mlp = need("expert_feed_forward_length"), cfg.intermediate_size
    cfg.interleave_moe_layer_step = md.interleave_moe_layer_step or 1
    cfg.sliding_window = nil
    if md["attention.sliding_window"] ~= 0 then
      cfg.attention_chunk_size = 8192
      cfg.no_rope_layer_interval = scalar(md["attention.sliding_window_pattern"]) or 4
    end
  end,
  -- DeepSeek-V2/V3/R1 (conversion/deepseek.py DeepseekV2Model): MLA as MQA with one KV head of
  -- key_length = kv_lora_rank + rope dims; key_length_mla / value_length_mla are the
  -- decompressed q/k and v head sizes. A file without key_length_mla is an older non-MLA
  -- conversion, whose KV layout (returned) is K and V of head_count_kv heads
  -- (llama-kv-cache.cpp: V only without MLA).
  deepseek2 = function(path, md, cfg, need)
    local rope = need("rope.dimension_count")
    cfg.kv_lora_rank, cfg.q_lora_rank = need("attention.kv_lora_rank"), md["attention.q_lora_rank"]
    cfg.qk_rope_head_dim = rope
    local kmla = md["attention.key_length_mla"] or need("attention.key_length")
    cfg.qk_nope_head_dim = kmla - rope
    cfg.v_head_dim = md["attention.value_length_mla"] or need("attention.value_length")
    deepseek_moe_config(md, cfg, need)
    cfg.head_dim = nil
    if not md["attention.key_length_mla"] then
      return { { layers = cfg.num_hidden_layers, kv_heads = cfg.num_key_value_heads,
                 k_dim = kmla, v_dim = scalar(md["attention.value_length"]) } }
    end
  end,
}

-- EXAONE 4.0 (src/llama-model.cpp load_hparams, LLM_ARCH_EXAONE4): the 64-layer 32B model slides a
-- 4096-token window (attention.sliding_window overrides it) on 3 of every 4 layers (set_swa_pattern(4):
-- every 4th layer global); the 30-layer 1.2B model has no window
GGUF_FIELDS.exaone4 = function(path, md, cfg)
  if cfg.num_hidden_layers == 64 then
    cfg.sliding_window = md["attention.sliding_window"] or 4096
    cfg.sliding_window_pattern = 4
  else
    cfg.sliding_window = nil
  end
end

-- Nemotron-4 / Minitron (convert_hf_to_gguf.py NemotronModel): the partial RoPE's rotated dimensions
-- as rope.dimension_count (head_dim x partial_rotary_factor)
GGUF_FIELDS.nemotron = function(path, md, cfg)
  local rd = scalar(md["rope.dimension_count"])
  if rd then cfg.rotary_dim = rd end
end

-- StableLM (convert_hf_to_gguf.py StableLMModel): rope.dimension_count the rotated dimensions,
-- use_parallel_residual, q/k/v biases and the per-head q/k LayerNorms (stacked {head_dim, heads} as
-- attn_q_norm / attn_k_norm) as tensors
GGUF_FIELDS.stablelm = function(path, md, cfg, need, g)
  local rd = scalar(md["rope.dimension_count"])
  if rd then cfg.rotary_dim = rd end
  cfg.use_parallel_residual = md.use_parallel_residual == true or md.use_parallel_residual == 1
  cfg.use_qkv_bias = find_tensor(g.tensors, "^blk%.%d+%.attn_q%.bias$") ~= nil
  cfg.qk_layernorm = find_tensor(g.tensors, "^blk%.%d+%.attn_q_norm%.weight$") ~= nil
end

-- StarCoder (convert_hf_to_gguf.py StarCoderModel): head_count_kv 1 under multi_query, the MLP
-- feed_forward_length wide
GGUF_FIELDS.starcoder = function(path, md, cfg)
  cfg.multi_query = cfg.num_key_value_heads == 1
  cfg.n_inner = cfg.intermediate_size
end

-- GPT-2, BLOOM, Falcon (convert_hf_to_gguf.py GPT2Model, BloomModel, FalconModel): the MLP width
-- the architecture script reads (gpt2.lua's and bloom.lua's n_inner, falcon.lua's ffn_hidden_size,
-- 4 x hidden when absent) is the file's feed_forward_length, llama.cpp's n_ff; without it the
-- replayed FFN was 4 x hidden wide whatever the file's (make conformance gpt2, falcon: +1 MiB)
GGUF_FIELDS.gpt2 = function(path, md, cfg)
  cfg.n_inner = cfg.intermediate_size
end
GGUF_FIELDS.bloom = GGUF_FIELDS.gpt2
GGUF_FIELDS.falcon = function(path, md, cfg)
  cfg.ffn_hidden_size = cfg.intermediate_size
end

-- dots.llm1 (convert_hf_to_gguf.py Dots1Model): DeepSeek's MoE keys (expert_count,
-- expert_shared_count, leading_dense_block_count, expert_weights_norm / _scale)
GGUF_FIELDS.dots1 = function(path, md, cfg, need) deepseek_moe_config(md, cfg, need) end
-- Qwen2-MoE (src/models/qwen2moe.cpp load_arch_hparams / load_arch_tensors): every layer sparse
-- (the graph has no dense layer), the shared expert expert_shared_feed_forward_length wide, else
-- feed_forward_length (n_ff_shexp ? n_ff_shexp : n_ff), gated by ffn_gate_inp_shexp
GGUF_FIELDS.qwen2moe = function(path, md, cfg, need)
  cfg.num_experts = need("expert_count")
  cfg.shared_expert_intermediate_size = md.expert_shared_feed_forward_length or cfg.intermediate_size
  cfg.decoder_sparse_step, cfg.mlp_only_layers = 1, {}
end
-- Nemotron-H (conversion/nemotron.py NemotronHModel, src/models/nemotron-h.cpp load_arch_hparams):
-- per layer, a nonzero attention.head_count_kv is an attention layer ('*'), a nonzero
-- feed_forward_length an MLP layer ('-'), both 0 a Mamba-2 layer ('M', is_recr) of
-- ssm.time_step_rank heads of ssm.inner_size / heads, ssm.group_count groups of ssm.state_size,
-- kernel ssm.conv_kernel. nemotron_h_moe (Nemotron 3): the converter writes
-- feed_forward_length = moe_intermediate_size on the MoE layers ('E'), and
-- load_arch_tensors (n_expert != 0) creates there the router, exp_probs_b (the score
-- correction bias), ffn_up/down_exps of expert_feed_forward_length (per layer, else n_ff /
-- n_expert_used) and one shared expert ffn_up/down_shexp of expert_shared_feed_forward_length;
-- moe_latent_size (Nemotron 3 Super) puts the experts on the latent width
GGUF_FIELDS.nemotron_h = function(path, md, cfg, need, g)
  local kvh, ff = md["attention.head_count_kv"], md.feed_forward_length
  if type(kvh) ~= "table" or type(ff) ~= "table" then
    fail(path, "GGUF metadata '%s.attention.head_count_kv' and 'feed_forward_length' must be per-layer lists", g.arch)
  end
  local moe = g.arch == "nemotron_h_moe"
  if not moe and md.expert_count and md.expert_count > 0 then
    fail(path, "GGUF metadata 'nemotron_h.expert_count' is set: a file with experts is nemotron_h_moe")
  end
  local pat = {}
  for i = 1, cfg.num_hidden_layers do
    pat[i] = (kvh[i] or 0) > 0 and "*" or (ff[i] or 0) > 0 and (moe and "E" or "-") or "M"
  end
  cfg.hybrid_override_pattern = table.concat(pat)
  local H, inner = need("ssm.time_step_rank"), need("ssm.inner_size")
  cfg.mamba_num_heads, cfg.mamba_head_dim = H, inner // H
  cfg.n_groups, cfg.ssm_state_size, cfg.conv_kernel = need("ssm.group_count"), need("ssm.state_size"), need("ssm.conv_kernel")
  if moe then
    cfg.n_routed_experts, cfg.num_experts_per_tok = need("expert_count"), need("expert_used_count")
    cfg.moe_intermediate_size = md.expert_feed_forward_length and scalar(md.expert_feed_forward_length)
      or cfg.intermediate_size // cfg.num_experts_per_tok
    -- one shared expert of the stored width (load_arch_tensors reads n_ff_shexp alone)
    local sh = find_tensor(g.tensors, "^blk%.%d+%.ffn_up_shexp%.weight$")
    cfg.n_shared_experts = sh and 1 or 0
    cfg.moe_shared_expert_intermediate_size = sh and sh.shape[2] or 0
    cfg.moe_latent_size = (md.moe_latent_size or 0) > 0 and md.moe_latent_size or nil
    cfg.norm_topk_prob = (md.expert_weights_norm or 0) ~= 0 and md.expert_weights_norm ~= false
    cfg.routed_scaling_factor = md.expert_weights_scale
    cfg.num_experts, cfg.num_local_experts = nil, nil
  end
end
GGUF_FIELDS.nemotron_h_moe = GGUF_FIELDS.nemotron_h
-- MiniCPM3 (conversion/minicpm.py MiniCPM3Model, src/models/minicpm3.cpp): attention.q_lora_rank
-- (optional), attention.kv_lora_rank, key_length = qk_nope + qk_rope, rope.dimension_count = qk_rope,
-- no value_length: llama.cpp's V head is embedding_length / head_count (minicpm3.lua's v_head_dim
-- default), and its cache the expanded per-head K and V (minicpm3.lua expanded_by llamacpp). The
-- rope_factors_long / _short tensors (rope_scaling long_factor / short_factor) are the file's, counted
GGUF_FIELDS.minicpm3 = function(path, md, cfg, need)
  local rope, kl = need("rope.dimension_count"), need("attention.key_length")
  if rope >= kl then fail(path, "GGUF metadata 'minicpm3.rope.dimension_count' %d must be below attention.key_length %d", rope, kl) end
  cfg.q_lora_rank, cfg.kv_lora_rank = md["attention.q_lora_rank"], need("attention.kv_lora_rank")
  cfg.qk_rope_head_dim, cfg.qk_nope_head_dim = rope, kl - rope
  cfg.v_head_dim = md["attention.value_length"]
  cfg.head_dim = nil
end
-- Arcee AFMoE / Trinity (conversion/afmoe.py AfmoeModel, src/models/afmoe.cpp load_arch_hparams):
-- expert_feed_forward_length (moe_intermediate_size), expert_shared_count, leading_dense_block_count
-- (num_dense_layers), expert_weights_norm / _scale (route_norm / route_scale), sigmoid gating;
-- attention.sliding_window on il % period < period - 1 (set_swa_pattern(period)), the period
-- attention.sliding_window_pattern, else 4: afmoe.lua's global_attn_every_n_layers. Without a window
-- (n_swa 0) llama.cpp attends every layer in full
GGUF_FIELDS.afmoe = function(path, md, cfg, need)
  cfg.num_experts, cfg.num_experts_per_tok = need("expert_count"), need("expert_used_count")
  cfg.moe_intermediate_size = need("expert_feed_forward_length")
  cfg.num_shared_experts = md.expert_shared_count or 0
  cfg.num_dense_layers = md.leading_dense_block_count or 0
  cfg.route_norm = (md.expert_weights_norm or 0) ~= 0 and md.expert_weights_norm ~= false
  cfg.route_scale = md.expert_weights_scale
  cfg.num_local_experts = nil
  local pat = md["attention.sliding_window_pattern"]
  if (cfg.sliding_window or 0) == 0 then
    cfg.sliding_window, cfg.layer_types = 0, {}
    for i = 1, cfg.num_hidden_layers do cfg.layer_types[i] = "full_attention" end
  elseif type(pat) == "table" then -- per layer: true where the layer slides
    cfg.layer_types = {}
    for i = 1, cfg.num_hidden_layers do
      cfg.layer_types[i] = (pat[i] == true or pat[i] == 1) and "sliding_attention" or "full_attention"
    end
  else
    cfg.global_attn_every_n_layers = pat or 4
  end
end
-- Hunyuan-A13B (conversion/hunyuan.py HunYuanMoEModel, src/models/hunyuan-moe.cpp): every layer
-- MoE (expert_count of expert_feed_forward_length, top expert_used_count, softmax, renormalized)
-- plus one shared expert of expert_shared_feed_forward_length (the converter writes
-- intermediate_size; load_arch_tensors creates ffn_*_shexp of n_ff_shexp, one of them whatever
-- expert_shared_count says), q/k norms
GGUF_FIELDS["hunyuan-moe"] = function(path, md, cfg, need, g)
  cfg.num_experts, cfg.moe_topk = need("expert_count"), need("expert_used_count")
  cfg.moe_intermediate_size = scalar(md.expert_feed_forward_length) or cfg.intermediate_size
  local sh = find_tensor(g.tensors, "^blk%.%d+%.ffn_up_shexp%.weight$")
  cfg.num_shared_expert = sh and 1 or 0
  cfg.intermediate_size = sh and sh.shape[2] or md.expert_shared_feed_forward_length or cfg.intermediate_size
  cfg.use_qk_norm = find_tensor(g.tensors, "^blk%.%d+%.attn_q_norm%.weight$") ~= nil
  cfg.attention_bias = find_tensor(g.tensors, "^blk%.%d+%.attn_q%.bias$") ~= nil
end
-- Falcon-H1 (conversion/falcon_h1.py FalconH1Model, src/models/falcon-h1.cpp): attention and a
-- Mamba-2 mixer in every layer, ssm.time_step_rank heads of ssm.inner_size / heads, ssm.group_count
-- groups of ssm.state_size, kernel ssm.conv_kernel; the grouped norm only where the file has ssm_norm
GGUF_FIELDS["falcon-h1"] = function(path, md, cfg, need, g)
  local H, inner = need("ssm.time_step_rank"), need("ssm.inner_size")
  cfg.mamba_n_heads, cfg.mamba_d_head, cfg.mamba_d_ssm = H, inner // H, inner
  cfg.mamba_n_groups, cfg.mamba_d_state, cfg.mamba_d_conv = need("ssm.group_count"), need("ssm.state_size"), need("ssm.conv_kernel")
  cfg.mamba_rms_norm = find_tensor(g.tensors, "^blk%.%d+%.ssm_norm%.weight$") ~= nil
  cfg.mamba_conv_bias = find_tensor(g.tensors, "^blk%.%d+%.ssm_conv1d%.bias$") ~= nil
end
-- Jamba (conversion/jamba.py JambaModel, src/models/jamba.cpp): a layer whose attention.head_count_kv
-- entry is 0 is a Mamba-1 layer of ssm.inner_size channels (d_inner = 2 x hidden), ssm.state_size,
-- ssm.conv_kernel, dt rank ssm.time_step_rank; the attention layers and the routed-expert layers
-- (blk.<il>.ffn_gate_inp) read back as JambaConfig's period and offset (evenly spaced in the
-- released models), which jamba.lua builds from: layer i is one of them when i % period == offset
-- (transformers JambaConfig.layers_block_type / layers_num_experts). period_of(path, ids, L, what)
-- gives the period and offset that select exactly the layers ids of 0 .. L - 1 (one layer: period
-- L, offset its index), and refuses a set no period and offset reproduces (uneven spacing, or a
-- first layer at or past the spacing, e.g. 3, 5, 7, which period 2 / offset 1 would extend to 1)
local function period_of(path, ids, L, what)
  if #ids == 0 then return nil end
  local p = #ids > 1 and ids[2] - ids[1] or L
  local off = ids[1] % p
  local set = {}
  for _, i in ipairs(ids) do set[i] = true end
  for i = 0, L - 1 do
    if (i % p == off) ~= (set[i] == true) then
      local got = {}
      for _, j in ipairs(ids) do got[#got + 1] = tostring(j) end
      fail(path, "jamba: the %s layers (%s of %d) are not every %d-th layer from %d, the only layout JambaConfig's "
        .. "%s_layer_period / %s_layer_offset describe", what, table.concat(got, ", "), L, p, off,
        what == "attention" and "attn" or "expert", what == "attention" and "attn" or "expert")
    end
  end
  return p, off
end
M.period_of = period_of -- for the tests
M.gguf_arch = GGUF_ARCH -- for the tests: general.architecture -> model_type
-- arch-mamba: attention-free Mamba-1 / Mamba-2 (llama.cpp conversion/mamba.py MambaModel /
-- Mamba2Model, src/llama-model.cpp LLM_ARCH_MAMBA / LLM_ARCH_MAMBA2): attention.head_count 0,
-- feed_forward_length 0, context_length 2^20; d_inner ssm.inner_size, ssm.state_size,
-- ssm.conv_kernel, and ssm.time_step_rank (Mamba-1: the dt rank; Mamba-2: the head count, of
-- inner / heads each) with ssm.group_count groups on Mamba-2. architectures/mamba.lua builds them.
GGUF_ARCH.mamba, GGUF_ARCH.mamba2 = "mamba", "mamba2"
GGUF_FIELDS.mamba = function(path, md, cfg, need)
  cfg.intermediate_size, cfg.state_size = need("ssm.inner_size"), need("ssm.state_size")
  cfg.conv_kernel, cfg.time_step_rank = need("ssm.conv_kernel"), need("ssm.time_step_rank")
  cfg.mamba_dt_b_c_rms = md["ssm.dt_b_c_rms"] == true -- FalconMamba (conversion/mamba.py add_ssm_dt_b_c_rms)
end
GGUF_FIELDS.mamba2 = function(path, md, cfg, need)
  local H, inner = need("ssm.time_step_rank"), need("ssm.inner_size")
  if H <= 0 or inner % H ~= 0 then fail(path, "GGUF metadata 'mamba2.ssm.inner_size' %d is not a multiple of 'mamba2.ssm.time_step_rank' %d", inner, H) end
  cfg.intermediate_size, cfg.num_heads, cfg.head_dim = inner, H, inner // H
  cfg.state_size, cfg.conv_kernel, cfg.n_groups = need("ssm.state_size"), need("ssm.conv_kernel"), need("ssm.group_count")
end
GGUF_FIELDS.jamba = function(path, md, cfg, need, g)
  local kvh = md["attention.head_count_kv"]
  if type(kvh) ~= "table" then fail(path, "GGUF metadata 'jamba.attention.head_count_kv' is not a per-layer list") end
  local attn, moe = {}, {}
  for i = 1, cfg.num_hidden_layers do if (kvh[i] or 0) > 0 then attn[#attn + 1] = i - 1 end end
  for i = 0, cfg.num_hidden_layers - 1 do
    if find_tensor(g.tensors, "^blk%." .. i .. "%.ffn_gate_inp%.weight$") then moe[#moe + 1] = i end
  end
  cfg.attn_layer_period, cfg.attn_layer_offset = period_of(path, attn, cfg.num_hidden_layers, "attention")
  if #attn == 0 then cfg.attn_layer_period, cfg.attn_layer_offset = cfg.num_hidden_layers + 1, cfg.num_hidden_layers end
  cfg.expert_layer_period, cfg.expert_layer_offset = period_of(path, moe, cfg.num_hidden_layers, "expert")
  cfg.num_experts = #moe > 0 and need("expert_count") or 1
  cfg.num_experts_per_tok = md.expert_used_count or 2
  cfg.mamba_d_state, cfg.mamba_d_conv = need("ssm.state_size"), need("ssm.conv_kernel")
  cfg.mamba_expand, cfg.mamba_dt_rank = need("ssm.inner_size") // cfg.hidden_size, need("ssm.time_step_rank")
end
-- ERNIE 4.5 MoE (convert_hf_to_gguf.py Ernie4_5MoeModel, src/models/ernie4-5-moe.cpp): the leading
-- dense layers (leading_dense_block_count = moe_layer_start_index), the sparse step
-- (interleave_moe_layer_step), and the shared experts' fused width read off ffn_up_shexp
GGUF_FIELDS["ernie4_5-moe"] = function(path, md, cfg, need, g)
  cfg.moe_num_experts, cfg.moe_k = need("expert_count"), need("expert_used_count")
  cfg.moe_layer_start_index = md.leading_dense_block_count or 0
  cfg.moe_layer_interval = md.interleave_moe_layer_step or 1
  local sh = find_tensor(g.tensors, "ffn_up_shexp%.weight$")
  cfg.moe_num_shared_experts = sh and sh.shape[2] // cfg.moe_intermediate_size or 0
  cfg.use_bias = find_tensor(g.tensors, "^blk%.%d+%.attn_q%.bias$") ~= nil
end

-- Gemma 4 (conversion/gemma.py Gemma4Model.set_gguf_parameters, src/models/gemma4.cpp
-- load_arch_hparams / load_arch_tensors): attention.sliding_window_pattern one bool a layer
-- (layer_types), key_length / key_length_swa the full and sliding head sizes (global_head_dim,
-- head_dim), head_count_kv per layer (the full layers' num_global_key_value_heads), the last
-- attention.shared_kv_layers layers without K/V (n_layer_kv_from_start), a full layer that owns
-- its K/V but has no attn_v uses K as V (attention_k_eq_v), feed_forward_length per layer twice
-- as wide on the shared layers (use_double_wide_mlp), embedding_length_per_layer_input the PLE
-- width, expert_count the MoE block beside the dense FFN; the embedding is tied
GGUF_FIELDS.gemma4 = function(path, md, cfg, need, g)
  local L = cfg.num_hidden_layers
  local pat = md["attention.sliding_window_pattern"]
  if type(pat) ~= "table" or #pat < L then
    fail(path, "GGUF metadata 'gemma4.attention.sliding_window_pattern' must list one bool per layer (%d)", L)
  end
  local shared = md["attention.shared_kv_layers"] or 0
  if shared >= L then fail(path, "GGUF metadata 'gemma4.attention.shared_kv_layers' (%d) must be below block_count (%d)", shared, L) end
  local kvh, ff = md["attention.head_count_kv"], md.feed_forward_length
  local function at(v, i) return type(v) == "table" and v[i] or v end
  cfg.layer_types = {}
  local first_full, first_swa
  for i = 1, L do
    local swa = pat[i] == true or pat[i] == 1
    cfg.layer_types[i] = swa and "sliding_attention" or "full_attention"
    if swa then first_swa = first_swa or i else first_full = first_full or i end
  end
  cfg.head_dim, cfg.global_head_dim = need("attention.key_length_swa"), need("attention.key_length")
  cfg.num_key_value_heads = at(kvh, first_swa or 1) or cfg.num_attention_heads
  local nkv_g = first_full and at(kvh, first_full) or cfg.num_key_value_heads
  cfg.num_kv_shared_layers = shared
  -- K as V: a full layer owning its cache (il < L - shared) without blk.<il>.attn_v
  cfg.attention_k_eq_v = first_full ~= nil and first_full <= L - shared
    and find_tensor(g.tensors, "^blk%." .. (first_full - 1) .. "%.attn_v%.weight$") == nil
  if cfg.attention_k_eq_v then
    cfg.num_global_key_value_heads = nkv_g
  elseif first_full and nkv_g ~= cfg.num_key_value_heads then
    cfg.per_layer_config = { [tostring(first_full - 1)] = { head_dim = cfg.global_head_dim, num_key_value_heads = nkv_g } }
  end
  cfg.intermediate_size = at(ff, 1)
  cfg.use_double_wide_mlp = shared > 0 and at(ff, L) == 2 * at(ff, 1)
  cfg.sliding_window = need("attention.sliding_window")
  local p = md.embedding_length_per_layer_input or 0
  cfg.hidden_size_per_layer_input = p
  if p > 0 then
    local pe = find_tensor(g.tensors, "^per_layer_token_embd%.weight$")
    if pe then cfg.vocab_size_per_layer_input = pe.shape[2] end
  end
  if (md.expert_count or 0) > 0 then
    cfg.enable_moe_block, cfg.num_experts, cfg.top_k_experts = true, md.expert_count, need("expert_used_count")
    cfg.moe_intermediate_size = need("expert_feed_forward_length")
  end
  cfg.tie_word_embeddings = true
end

-- Kimi Linear (conversion/kimi_linear.py KimiLinearModel.set_gguf_parameters, src/models/kimi-linear.cpp):
-- attention.head_count_kv per layer, 0 on a KDA layer (is_recr) and 1 on an MLA one (MLA as MQA:
-- the converter sets num_key_value_heads 1); the KDA layers head_count heads of kda.head_dim with
-- a short conv of ssm.conv_kernel; MLA of kv_lora_rank, rope.dimension_count (qk_rope_head_dim),
-- key_length_mla = nope + rope, value_length_mla, q_lora_rank when Q is compressed; experts of
-- expert_feed_forward_length, expert_shared_count shared ones, the first leading_dense_block_count
-- layers dense (feed_forward_length)
GGUF_FIELDS["kimi-linear"] = function(path, md, cfg, need, g)
  local kvh = md["attention.head_count_kv"]
  if type(kvh) ~= "table" then fail(path, "GGUF metadata 'kimi-linear.attention.head_count_kv' is not a per-layer list") end
  local full, kda = {}, {}
  for i = 1, cfg.num_hidden_layers do
    if (kvh[i] or 0) > 0 then full[#full + 1] = i else kda[#kda + 1] = i end
  end
  cfg.linear_attn_config = { num_heads = cfg.num_attention_heads, head_dim = need("kda.head_dim"),
                             short_conv_kernel_size = need("ssm.conv_kernel"), full_attn_layers = full, kda_layers = kda }
  cfg.num_key_value_heads = cfg.num_attention_heads
  local rope = need("rope.dimension_count")
  cfg.kv_lora_rank, cfg.q_lora_rank, cfg.qk_rope_head_dim = need("attention.kv_lora_rank"), md["attention.q_lora_rank"], rope
  cfg.qk_nope_head_dim = need("attention.key_length_mla") - rope
  cfg.v_head_dim = need("attention.value_length_mla")
  cfg.head_dim = nil
  cfg.num_experts, cfg.num_experts_per_token = need("expert_count"), need("expert_used_count")
  cfg.num_shared_experts = md.expert_shared_count or 0
  cfg.first_k_dense_replace = md.leading_dense_block_count or 0
  cfg.routed_scaling_factor = md.expert_weights_scale
  cfg.num_local_experts = nil
end

-- DBRX (convert_hf_to_gguf.py DbrxModel.set_gguf_parameters, src/models/dbrx.cpp): config.json nests
-- its sizes (architectures/dbrx.lua); the converter writes block_count n_layers, context_length
-- max_seq_len, embedding_length d_model, feed_forward_length ffn_config.ffn_hidden_size, head_count
-- n_heads, head_count_kv attn_config.kv_n_heads, attention.clamp_kqv clip_qkv, expert_count and
-- expert_used_count; the graph renormalizes the top-k weights (build_moe_ffn norm_w true)
GGUF_FIELDS.dbrx = function(path, md, cfg, need)
  cfg.d_model, cfg.n_layers, cfg.n_heads = cfg.hidden_size, cfg.num_hidden_layers, cfg.num_attention_heads
  cfg.max_seq_len = cfg.max_position_embeddings
  cfg.attn_config = { kv_n_heads = cfg.num_key_value_heads, clip_qkv = md["attention.clamp_kqv"] }
  cfg.ffn_config = { ffn_hidden_size = need("feed_forward_length"), moe_num_experts = need("expert_count"),
                     moe_top_k = need("expert_used_count"), moe_normalize_expert_weights = 1 }
end

-- Ling 2.0 (convert_hf_to_gguf.py BailingMoeV2Model, src/models/bailingmoe2.cpp): the first
-- leading_dense_block_count layers dense (feed_forward_length), the others expert_count experts of
-- expert_feed_forward_length (top expert_used_count) with expert_shared_count shared ones
-- expert_shared_feed_forward_length wide in all, exp_probs_b the expert bias, the top-k weights
-- renormalized per expert_weights_norm and scaled by expert_weights_scale; rope.dimension_count the
-- rotated part of the head (partial_rotary_factor); q/k norms and a qkv bias as the file has them
GGUF_ARCH.bailingmoe2 = "bailing_moe_v2"
GGUF_FIELDS.bailingmoe2 = function(path, md, cfg, need, g)
  cfg.num_experts, cfg.num_experts_per_tok = need("expert_count"), need("expert_used_count")
  cfg.moe_intermediate_size = need("expert_feed_forward_length")
  cfg.first_k_dense_replace = md.leading_dense_block_count or 0
  cfg.num_shared_experts = md.expert_shared_count or 0
  cfg.moe_shared_expert_intermediate_size = md.expert_shared_feed_forward_length
  cfg.norm_topk_prob = (md.expert_weights_norm or 0) ~= 0 and md.expert_weights_norm ~= false
  cfg.routed_scaling_factor = md.expert_weights_scale
  cfg.use_qk_norm = find_tensor(g.tensors, "^blk%.%d+%.attn_q_norm%.weight$") ~= nil
  cfg.use_qkv_bias = find_tensor(g.tensors, "^blk%.%d+%.attn_qkv%.bias$") ~= nil
  cfg.moe_router_enable_expert_bias = find_tensor(g.tensors, "^blk%.%d+%.exp_probs_b%.bias$") ~= nil
  local d, rope = cfg.head_dim or cfg.hidden_size // cfg.num_attention_heads, md["rope.dimension_count"]
  if rope and rope < d then cfg.partial_rotary_factor = rope / d end
  cfg.num_local_experts = nil
end

-- config.json fields the architecture scripts read, from the GGUF metadata, and the file's
-- KV layout where its GGUF_FIELDS handler gives one
local function gguf_config(path, g, mt)
  local md = g.metadata
  local function need(key)
    local v = scalar(md[key])
    if v == nil then fail(path, "GGUF metadata has no '%s.%s'", g.arch, key) end
    return v
  end
  local h, nh = need("embedding_length"), need("attention.head_count")
  -- block_count counts the MTP blocks a converter appends (nextn_predict_layers: GLM-4.5,
  -- Qwen3-Next, Qwen3.5, DeepSeek-V3.2); the model's layers are the trunk before them
  local nextn = md.nextn_predict_layers or 0
  local cfg = {
    model_type = mt, hidden_size = h, num_hidden_layers = need("block_count") - nextn,
    num_attention_heads = nh, num_key_value_heads = scalar(md["attention.head_count_kv"]) or nh,
    intermediate_size = scalar(md.feed_forward_length) or 4 * h,
    vocab_size = md.vocab_size, max_position_embeddings = md.context_length,
    tie_word_embeddings = find_tensor(g.tensors, "^output%.weight$") == nil,
  }
  if md["attention.key_length"] then cfg.head_dim = md["attention.key_length"] end
  if not cfg.vocab_size then
    local e = find_tensor(g.tensors, "^token_embd%.weight$")
    if not e then fail(path, "no vocabulary size: neither tokenizer tokens nor token_embd.weight") end
    cfg.vocab_size = e.shape[2]
  end
  if md.expert_count then
    cfg.num_local_experts, cfg.num_experts = md.expert_count, md.expert_count
    cfg.num_experts_per_tok = md.expert_used_count or 2
    local ex = find_tensor(g.tensors, "ffn_gate_exps%.weight$") or find_tensor(g.tensors, "ffn_up_exps%.weight$")
    cfg.moe_intermediate_size = scalar(md.expert_feed_forward_length) or ex and ex.shape[2] or cfg.intermediate_size
  end
  if md["attention.sliding_window"] then cfg.sliding_window = md["attention.sliding_window"] end
  if mt == "gpt_neox" then cfg.use_parallel_residual = true end
  if nextn > 0 then cfg.num_nextn_predict_layers = nextn end
  local kv
  if GGUF_FIELDS[g.arch] then kv = GGUF_FIELDS[g.arch](path, md, cfg, need, g) end
  return cfg, kv
end

local function gguf_tensor(t)
  local shape = {}
  for i = #t.shape, 1, -1 do shape[#shape + 1] = t.shape[i] end   -- ggml ne -> outermost first
  return { name = t.name, shape = shape, count = 1, role = M.role(t.name), bytes = t.bytes,
           qtype = t.type, dtype = GGUF_DTYPE[t.type] }
end

-- the GGUF architectures whose MTP blocks create a fused ffn_gate_up_exps through
-- create_tensor_gate_up_exps (src/models/qwen3next.cpp, qwen35moe.cpp, deepseek2.cpp at 80fb11a)
local FUSED_MTP = { qwen3next = true, qwen35moe = true, deepseek2 = true }

local function from_gguf(path)
  local g = host.read_gguf(path)
  local map = GGUF_ARCH[g.arch]
  if map == nil and GGUF_NOT_IN_LLAMACPP[g.arch] then
    fail(path, "GGUF architecture '%s' (%s) is not one llama.cpp loads (no LLM_ARCH for it in src/llama-arch.cpp); vramfit models %s from its safetensors checkpoint",
      g.arch, GGUF_NOT_IN_LLAMACPP[g.arch], GGUF_NOT_IN_LLAMACPP[g.arch])
  end
  if map == nil then
    local known = {}
    for k in pairs(GGUF_ARCH) do known[#known + 1] = k end
    table.sort(known)
    fail(path, "GGUF architecture '%s' is not modelled (known: %s)", g.arch, table.concat(known, ", "))
  end
  local mt = type(map) == "function" and map(g.metadata) or map
  local cfg, kv = gguf_config(path, g, mt)
  -- the MTP blocks' tensors (blk.<n>.* from the trunk's n on): llama.cpp creates them with
  -- TENSOR_SKIP unless MTP drafting loads them (llama-model-loader.cpp: "model has unused
  -- tensor ... ignoring"), and the architectures leave MTP layers out. All but a fused
  -- ffn_gate_up_exps: create_tensor_gate_up_exps (llama-model.cpp, 80fb11a) creates it with
  -- TENSOR_NOT_REQUIRED alone, not the block's TENSOR_SKIP, so it is loaded (make
  -- conformance: qwen3next, qwen35moe and deepseek2 files with --gate-up)
  -- The mapped range llama.cpp prints runs from the first to the last tensor it reads, by
  -- their data offsets: a kept tensor carries the file's bytes between it and the kept one
  -- before (skipped_before: tensors not read, and alignment beyond the 32 bytes a step of
  -- src/rt_llamacpp.c lc_range_add pads to).
  local tensors, last_end = {}, nil
  local fused_mtp = FUSED_MTP[g.arch]
  for _, t in ipairs(g.tensors) do
    local il = tonumber(t.name:match("^blk%.(%d+)%."))
    if not il or il < cfg.num_hidden_layers or (fused_mtp and t.name:find("%.ffn_gate_up_exps%.weight$")) then
      local x = gguf_tensor(t)
      if last_end and t.offset > last_end then x.skipped_before = t.offset - last_end end
      last_end = t.offset + (t.bytes + 31) // 32 * 32
      tensors[#tensors + 1] = x
    end
  end
  return { id = path, arch = mt, config = cfg, tensors = tensors, file_type = g.file_type, kv = kv }
end

-- ---------------------------------------------------------------- safetensors

local function dir_of(path)
  return path:match("^(.*)/[^/]*$") or "."
end

local function st_tensors(st)
  local out = {}
  for i, t in ipairs(st.tensors) do
    out[i] = { name = t.name, shape = #t.shape > 0 and t.shape or { 1 }, count = 1,
               role = M.role(t.name, t.shape), bytes = t.bytes, dtype = t.type:lower() }
  end
  return out
end

local function config_in(dir, path)
  local cfg_path = dir .. "/config.json"
  if host.path_kind(cfg_path) ~= "file" then
    fail(path, "no config.json beside it (%s): the architecture comes from config.json", cfg_path)
  end
  local cfg = host.read_json(cfg_path)
  if type(cfg) ~= "table" or type(cfg.model_type) ~= "string" then
    fail(path, "%s has no 'model_type'", cfg_path)
  end
  return cfg
end

-- A diffusers model folder (transformer/: config.json with _class_name and no model_type,
-- e.g. FluxTransformer2DModel): the pipeline architecture the class names, its
-- config under the folder's key, and the file's tensors as that pipeline's denoiser, which
-- replace the preset's denoiser only (scripts/scenario.lua model_part). The fields are also
-- given at the top level: the architectures that describe a transformer from a flat config
-- (ltx, mochi, hunyuanvideo, pixart, cogvideox) read them there, and would otherwise take
-- their defaults' shapes beside the file's tensors.
-- Only a denoiser class an architecture lists (its model_types: FluxTransformer2DModel, ...) is
-- read: a vae/ folder (AutoencoderKL*) or a unet/ one (UNet2DConditionModel: Stable Diffusion's UNet
-- is described by the stable_diffusion pipeline presets, not read from a file) exits 2 naming the
-- folder and what is expected, not "unknown architecture".
local function denoiser_classes()
  local out = {}
  for k, a in pairs(require("engine").architectures()) do
    local pipeline = false
    for _, t in ipairs(a.model_types or {}) do pipeline = pipeline or t:match("Pipeline$") ~= nil end
    if pipeline and type(k) == "string" and k:match("Model$") then out[#out + 1] = k end
  end
  table.sort(out)
  return out
end

local function diffusers_model(path, dir, cfg, kind)
  local key = dir:match("([^/]+)/*$")
  local cls = cfg._class_name
  if not require("engine").architectures()[cls] then
    local what = cls:match("^Autoencoder") and "a VAE, not a denoiser"
      or cls:match("^UNet") and "a UNet, which vramfit describes from the pipeline presets only (e.g. " ..
        "stabilityai/stable-diffusion-xl-base-1.0), not from its files"
      or "not a modelled denoiser"
    fail(path, "%s/config.json: diffusers class %s is %s; expected a transformer/ folder of %s", dir, cls, what,
         table.concat(denoiser_classes(), ", "))
  end
  if key ~= "transformer" and key ~= "unet" then key = "transformer" end
  local st = host.read_safetensors(path, kind)
  local config = {}
  for k, v in pairs(cfg) do config[k] = v end
  config.model_type, config[key] = cfg._class_name, cfg
  return { id = path, arch = cfg._class_name, config = config,
           component = { name = "denoiser", tensors = st_tensors(st) } }
end

local function from_safetensors(path, kind)
  local dir = kind == "dir" and path or dir_of(path)
  if kind == "dir" and host.path_kind(dir .. "/model_index.json") == "file" then
    fail(path, "a diffusers pipeline folder is not an LLM checkpoint; name a component folder")
  end
  local cfg_path = dir .. "/config.json"
  if host.path_kind(cfg_path) == "file" then
    local c = host.read_json(cfg_path)
    if type(c) == "table" and c.model_type == nil and type(c._class_name) == "string" then
      return diffusers_model(path, dir, c, kind)
    end
  end
  local cfg = config_in(dir, path)
  local text = type(cfg.text_config) == "table" and cfg.hidden_size == nil and cfg.text_config or cfg
  local st = host.read_safetensors(path, kind)
  return { id = path, arch = text.model_type or cfg.model_type, config = cfg, tensors = st_tensors(st) }
end

-- resolve(path, n): the model description parts for scenario.lua
function M.resolve(path, n)
  local kind = host.path_kind(path)
  if kind == "dir" then return from_safetensors(path, "dir") end
  if path:match("%.gguf$") then return from_gguf(path) end
  if path:match("%.safetensors$") then return from_safetensors(path, "file") end
  if path:match("%.index%.json$") then return from_safetensors(path, "index") end
  fail(path, "unknown model file type: expected .gguf, .safetensors, *.index.json, config.json or a directory")
end

return M
