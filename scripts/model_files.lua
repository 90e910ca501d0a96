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
  { "^token_embd%.", "embed" }, { "^token_types%.", "embed" }, { "^position_embd%.", "pos_embed" },
  { "^output_norm%.", "norm" }, { "^output%.", "lm_head" },
  { "_norm%.", "norm" }, { "^blk%.%d+%.ln_", "norm" },
  { "%.ffn_gate_inp", "router" }, { "%.ffn_[%a_]*_shexp", "shared_expert" },
  { "%.ffn_[%a_]*_exps", "expert" }, { "%.ffn_", "mlp" }, { "%.attn_", "attn" },
}

-- Hugging Face names
local HF_ROLES = {
  { "embed_tokens%.", "embed" }, { "%.wte%.", "embed" }, { "embed_in%.", "embed" },
  { "word_embeddings%.", "embed" }, { "%.wpe%.", "pos_embed" }, { "position_embeddings", "pos_embed" },
  { "^lm_head%.", "lm_head" }, { "^embed_out%.", "lm_head" },
  { "norm[%w_]*%.", "norm" }, { "%.ln_%w+%.", "norm" }, { "layernorm", "norm" },
  { "shared_expert", "shared_expert" }, { "%.experts%.", "expert" },
  { "%.mlp%.gate%.", "router" }, { "%.router%.", "router" },
  { "%.mlp%.", "mlp" }, { "feed_forward", "mlp" },
  { "self_attn", "attn" }, { "%.attention%.", "attn" }, { "%.attn%.", "attn" },
}

function M.role(name)
  local gguf = name:match("^blk%.") or name:match("^token_embd%.") or name:match("^output[%._]")
               or name:match("^position_embd%.")
  for _, r in ipairs(gguf and GGUF_ROLES or HF_ROLES) do
    if name:find(r[1]) then return r[2] end
  end
  return "other"
end

-- ---------------------------------------------------------------- GGUF

-- general.architecture -> vramfit architecture (model_type) ; a function when it depends on
-- the metadata
local GGUF_ARCH = {
  llama = function(md) return (md.expert_count or 0) > 0 and "mixtral" or "llama" end,
  mistral3 = "mistral",
  gptneox = "gpt_neox", qwen2 = "qwen2", qwen3 = "qwen3", qwen3moe = "qwen3_moe",
  gemma2 = "gemma2", gemma3 = "gemma3_text", phi3 = "phi3", gpt2 = "gpt2", bloom = "bloom",
  falcon = "falcon", deepseek2 = "deepseek_v2", ["gpt-oss"] = "gpt_oss", t5 = "t5",
}

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

-- config.json fields the architecture scripts read, from the GGUF metadata
local function gguf_config(path, g, mt)
  local md = g.metadata
  local function need(key)
    local v = scalar(md[key])
    if v == nil then fail(path, "GGUF metadata has no '%s.%s'", g.arch, key) end
    return v
  end
  local h, nh = need("embedding_length"), need("attention.head_count")
  local cfg = {
    model_type = mt, hidden_size = h, num_hidden_layers = need("block_count"),
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
    cfg.moe_intermediate_size = ex and ex.shape[2] or cfg.intermediate_size
  end
  if md["attention.sliding_window"] then cfg.sliding_window = md["attention.sliding_window"] end
  if mt == "gpt_neox" then cfg.use_parallel_residual = true end
  return cfg
end

local function gguf_tensor(t)
  local shape = {}
  for i = #t.shape, 1, -1 do shape[#shape + 1] = t.shape[i] end   -- ggml ne -> outermost first
  return { name = t.name, shape = shape, count = 1, role = M.role(t.name), bytes = t.bytes,
           qtype = t.type, dtype = GGUF_DTYPE[t.type] }
end

local function from_gguf(path)
  local g = host.read_gguf(path)
  local map = GGUF_ARCH[g.arch]
  if map == nil then
    local known = {}
    for k in pairs(GGUF_ARCH) do known[#known + 1] = k end
    table.sort(known)
    fail(path, "GGUF architecture '%s' is not modelled (known: %s)", g.arch, table.concat(known, ", "))
  end
  local mt = type(map) == "function" and map(g.metadata) or map
  local tensors = {}
  for i, t in ipairs(g.tensors) do tensors[i] = gguf_tensor(t) end
  return { id = path, arch = mt, config = gguf_config(path, g, mt), tensors = tensors,
           file_type = g.file_type }
end

-- ---------------------------------------------------------------- safetensors

local function dir_of(path)
  return path:match("^(.*)/[^/]*$") or "."
end

local function st_tensors(st)
  local out = {}
  for i, t in ipairs(st.tensors) do
    out[i] = { name = t.name, shape = #t.shape > 0 and t.shape or { 1 }, count = 1,
               role = M.role(t.name), bytes = t.bytes, dtype = t.type:lower() }
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

local function from_safetensors(path, kind)
  local dir = kind == "dir" and path or dir_of(path)
  if kind == "dir" and host.path_kind(dir .. "/model_index.json") == "file" then
    fail(path, "a diffusers pipeline folder is not an LLM checkpoint; name a component folder")
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
