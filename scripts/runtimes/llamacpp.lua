-- llamacpp: llama.cpp's backend buffers: model buffers per device, the contiguous KV
-- buffer, the compute buffers of the graph reserve, the host output buffer
-- (src/rt_llamacpp.c). n_ctx counts every sequence's cells (llama.cpp's -c); the scenario's
-- context is per sequence, so n_ctx = context x n_seq_max.
local E = require "engine"
local nn = require "nn"

local CACHE_TYPES = { "f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "iq4_nl" }

local note = E.note

-- "b4385", "4385" or "build 4385" -> 4385; nil -> 0 (the newest behaviour)
local function build_number(v)
  if v == nil then return 0 end
  local b = tostring(v):match("^b?(%d+)$") or tostring(v):match("^build%s+(%d+)")
  if not b then E.fail("runtime.version", "expected a llama.cpp build such as \"b4385\", got '%s'", tostring(v)) end
  return tonumber(b)
end


local function normalize(n, knobs)
  -- Zamba2: llama.cpp has no zamba2 architecture (src/llama-arch.cpp names none; convert_hf_to_gguf.py
  -- registers no Zamba2ForCausalLM), so no GGUF of it loads
  if n.model.desc.arch == "zamba2" then
    E.fail("runtime.name", "llama.cpp has no Zamba2 architecture (zamba2: %s); use runtime vllm or transformers", n.model.id)
  end
  local x = n.extra
  x["runtime.build"] = build_number(n.runtime_version)
  if n.runtime_version == nil then note(n, "llama.cpp: the newest build's behaviour assumed (runtime.version unset)") end
  if knobs.n_seq_max then
    if knobs.n_seq_max < 1 then E.fail("runtime.n_seq_max", "must be at least 1") end
    n.concurrency = knobs.n_seq_max
  end
  local build = x["runtime.build"]
  -- DeepSeek-V3.2 (DeepseekV32ForCausalLM): llama.cpp reads it from ggml-org/llama.cpp PR #23346
  -- ("Support for DeepseekV32ForCausalLM with generic DeepSeek Sparse Attention (DSA)
  -- implementation", merged 2026-05); build b9411 as review notes quote a public changelog (not
  -- read from the release page; it fits the build cadence: b7770 of 2026-01-18, b10621 of
  -- 2026-08-30). The earlier PRs #18849 (dense only) and #21149 were closed unmerged.
  local mt = type(n.model_config) == "table" and n.model_config.model_type or nil
  if mt == "deepseek_v32" and build ~= 0 and build < 9411 then
    E.fail("runtime.version", "DeepSeek-V3.2 (deepseek_v32) needs llama.cpp b9411 or later (PR #23346 added "
           .. "DeepseekV32ForCausalLM), got b%d", build)
  end
  -- ollama's vendored llama.cpp carries its "embeddings" patch (ollama/ollama PR #5475 of
  -- 2024-07-05, llama.cpp b3305, through llama/patches/0003-embeddings.patch): output_reserve
  -- keeps the logits beside the embeddings (has_logits = cparams.causal_attn), where mainline
  -- replaced them before PR #14208 (src/rt_llamacpp.c LC_B_OLLAMA_EMBD)
  if n.runtime_alias == "ollama" then x["runtime.ollama"] = true end
  -- --fit, on by default since PR #16653 (December 2025; the build threshold b7400 is approximate)
  local fit = knobs.fit
  if fit == nil then fit = build == 0 or build >= 7400 end
  fit = fit and knobs.device ~= "cpu"
  if knobs.n_ctx then
    if knobs.n_ctx == 0 then
      -- -c 0, llama-server's default: the context the model was trained with; --fit gives
      -- every KV stream that much, then shrinks it to the GPUs' free memory
      local train = n.model.desc.max_position
      if not train then
        E.fail("runtime.n_ctx", "0 takes the trained context, which model %s does not state (max_position_embeddings / context_length)", n.model.id)
      end
      if fit then
        -- common_params_fit_impl (common/fit.cpp, ggml-org/llama.cpp 08033df0): n_ctx 0 becomes
        -- n_ctx_train x n_streams, n_streams = kv_unified ? 1 : n_seq_max ("llama_context would
        -- use only hp_nct in total for n_ctx == 0"): one unified stream (llama-server's -np auto,
        -- 4 sequences with kv_unified) starts from the trained context in total, not per
        -- sequence. ROCm/ROCm#6227 (b9106): "context size reduced from 131072 to 31488" for
        -- granite-4.1-8b with n_parallel 4 and kv_unified
        local streams = knobs.kv_unified and 1 or n.concurrency
        n.context = math.max(1, train * streams // n.concurrency)
        x["runtime.fit_ctx"] = true
        -- said before the GPU is known: whether --fit shrinks it is the kv_cache row's cells
        note(n, "llama.cpp -c 0 with --fit: the trained %d tokens %s, reduced only where a GPU would not " ..
                "keep %d MiB free (its free memory taken as the total less the CUDA context; the KV buffer's cells " ..
                "are the result)", train, streams == 1 and n.concurrency > 1 and "in total (one unified KV stream)"
                or "per sequence", knobs.fit_target or 1024)
      else
        n.context = math.max(1, train // n.concurrency)
      end
    else
      n.context = math.max(1, knobs.n_ctx // n.concurrency)
    end
  end
  if knobs.fit_ctx ~= nil and knobs.fit_ctx < 1 then E.fail("runtime.fit_ctx", "must be at least 1") end
  if knobs.fit_target then x["runtime.fit_target_mib"] = knobs.fit_target end
  if knobs.fit_ctx then x["runtime.fit_ctx_min"] = knobs.fit_ctx end
  for _, k in ipairs({ "type_k", "type_v" }) do
    local v = knobs[k] or "f16"
    E.enum_field(v, "runtime." .. k, CACHE_TYPES)
    x["runtime." .. k] = v
  end
  local fa = knobs.flash_attn
  if fa == nil then
    fa = build == 0 or build >= 6500
    note(n, "llama.cpp flash attention %s assumed (default of build %s)", fa and "on" or "off",
         build == 0 and "newest" or tostring(build))
    x["runtime.flash_attn"] = fa
  end
  if not fa and knobs.type_v and knobs.type_v ~= "f16" and knobs.type_v ~= "f32" and knobs.type_v ~= "bf16" then
    E.fail("runtime.type_v", "a quantized V cache (%s) needs flash_attn = true in llama.cpp", knobs.type_v)
  end
  if knobs.device ~= "cpu" and knobs.n_gpu_layers == nil then
    x["runtime.n_gpu_layers"] = 999
    if fit and knobs.n_cpu_moe == nil and not knobs.cpu_moe and knobs.tensor_split == nil
       and knobs.override_tensor == nil then
      -- -ngl auto (-1): --fit keeps every layer when they fit, else the most layers (a MoE
      -- model's experts first) that leave fit_target MiB free; tensor overrides set by hand
      -- (--n-cpu-moe, -ot) or a tensor_split stop that search (common_params_fit_impl)
      x["runtime.fit_ngl"] = true
      note(n, "llama.cpp -ngl auto with --fit: every layer and the output on the GPU when they leave %d MiB free, " ..
              "else as many as do (a MoE model's routed experts of the last layers go to the host first; " ..
              "several GPUs filled as common/fit.cpp fills them)",
           knobs.fit_target or 1024)
    else
      note(n, "llama.cpp n_gpu_layers 999 assumed (every layer and the output on the GPU)")
    end
  end
  if knobs.host_memory ~= nil then
    -- the machine's RAM: the CPU backend's device; with GPUs what the host holds (weights left
    -- there, a MoE model's experts above all) must fit it too
    if knobs.host_memory < 1 << 28 then
      E.fail("runtime.host_memory", "%d bytes is below 256 MiB; give the machine's RAM, e.g. \"64GiB\"", knobs.host_memory)
    end
  end
  if knobs.device == "cpu" and knobs.cpu_features == nil then
    note(n, "llama.cpp CPU backend with AVX2 assumed (Q4_0/Q4_K weights repacked; cpu_features = \"amx\" on Sapphire Rapids and later)")
  end
  if knobs.n_ubatch == nil then note(n, "llama.cpp n_ubatch 512 assumed") end
  -- row_rounding rounds the rows of split_mode row's split tensors (lc_row_setup); 0 takes ggml-cuda's
  if knobs.row_rounding ~= nil and knobs.split_mode ~= "row" then
    E.fail("runtime.row_rounding", "applies to split_mode = \"row\" only (the rows of its split buffers), and split_mode is \"%s\"",
           tostring(knobs.split_mode or "layer"))
  end
  -- --split-mode row (src/rt_llamacpp.c lc_row_setup): the layout of PR #10026 (October 2024)
  -- until CUDA's split buffers went away
  if knobs.split_mode == "row" and build ~= 0 and build < 3990 then
    note(n, "llama.cpp -sm row before PR #10026 (b3990 assumed) kept every layer's other weights, the KV and " ..
            "the compute on main_gpu with one split buffer: not modelled, the later per-GPU layout is given")
  end
  if knobs.split_mode == "row" and (build == 0 or build >= 9890) then
    note(n, "llama.cpp -sm row: from b9890 (74976e1) a backend without split buffers refuses it (\"device ... does " ..
            "not support split buffers\"), as a CUDA build of August 2026 (b10524) does; the layout of the builds " ..
            "with CUDA's split buffer type is given")
  end
  -- a GGUF's MTP blocks (nextn_predict_layers, scripts/model_files.lua): counted in llama.cpp's
  -- n_layer_all (layer placement) and, outside the hybrid memory, given KV cells
  local cfg = n.model_config
  -- a .gguf file's tensors come in the file's order with their data offsets; a built-in
  -- model's are put in llama-quantize's order for the mapped range (src/rt_llamacpp.c)
  if type(n.model.id) == "string" and n.model.id:match("%.gguf$") then x["runtime.gguf_file"] = true end
  -- Jamba's replayed graph (src/rt_llamacpp.c, lc_graph.c lg_moe_layer) routes every second layer
  -- from layer 1, the released models' expert_layer_period 2 / offset 1 (JambaConfig's defaults);
  -- a config with another layout is not replayed (a GGUF's is caught by its blk.<il>.ffn_gate_inp)
  if n.model.desc.arch == "jamba" and type(cfg) == "table" then
    local function num(v, d) return type(v) == "number" and v or d end
    local p, o = num(cfg.expert_layer_period, 2), num(cfg.expert_layer_offset, 1)
    if num(cfg.num_experts, 16) > 1 and (p ~= 2 or o ~= 1) then x["llamacpp.jamba_moe_other"] = true end
  end
  -- FalconMamba's dt / B / C RMS norms without weights (src/models/mamba-base.cpp build_mamba_layer:
  -- ssm_dt_b_c_rms, the GGUF key mamba.ssm.dt_b_c_rms that conversion/mamba.py writes for
  -- falcon_mamba): the replayed graph (src/lc_graph.c lg_m1_norm) takes them from here
  if n.model.desc.arch == "mamba" and type(cfg) == "table"
     and (cfg.model_type == "falcon_mamba" or cfg.mamba_dt_b_c_rms == true) then
    x["llamacpp.mamba_dt_b_c_rms"] = true
  end
  if type(n.model.id) == "string" and n.model.id:match("%.gguf$") and type(cfg) == "table"
     and (cfg.num_nextn_predict_layers or 0) > 0 then
    x["runtime.n_layer_nextn"] = cfg.num_nextn_predict_layers
  end
  -- a built-in model's GGUF with its MTP blocks: convert_hf_to_gguf writes the checkpoint's MTP
  -- layers as blocks after the trunk and their count as nextn_predict_layers (block_count the
  -- sum), a file converted before a family's MTP support without them (unsloth's Qwen3.5-27B
  -- Q4_K_S: 851 tensors, the trunk's alone, tests/test_llamacpp.c). llama.cpp counts them in
  -- -ngl's blocks ("offloaded 34/34 layers" for Qwen3.5-4B's 32 layers, its MTP block and the
  -- output, tests/test_holdout17_llamacpp.c) and skips their tensors without MTP drafting, as
  -- the .gguf path does (scripts/model_files.lua): what this sets is the blocks' count
  if knobs.nextn_predict_layers ~= nil and knobs.nextn_predict_layers > 0 then
    local f = "runtime.nextn_predict_layers"
    if type(n.model.id) == "string" and n.model.id:match("%.gguf$") then
      E.fail(f, "a .gguf file states its own MTP blocks (its nextn_predict_layers metadata)")
    end
    local m = require("speculative").MTP_ARCHS[n.model.desc.arch or ""]
    local tc = type(cfg) == "table" and (m and m.text and (nn.sub(cfg, "text_config") or cfg) or cfg) or nil
    local k = m and tc and (nn.count(tc, m.key, nil) or nn.count(cfg, m.key, nil)) or 0
    if k ~= knobs.nextn_predict_layers then
      E.fail(f, "%d, but model %s's config has %d MTP layer%s%s (the converter writes them all)",
             knobs.nextn_predict_layers, n.model.id, k, k == 1 and "" or "s", m and (" (" .. m.key .. ")") or "")
    end
    x["runtime.n_layer_nextn"] = k
  end
  -- llama.cpp always loads a GGUF: a built-in model given by its dtype alone is the converter's
  -- F16/BF16 file, so a token embedding keeps the rows the conversion writes (t.gguf_rows:
  -- Gemma 3's 262,144 of the config's 262,208, architectures/gemma.lua), as the gguf:<TYPE>
  -- expansion does (scripts/quant/_gguf_rules.lua); the entry is replaced, not edited
  local ts = n.model.desc.tensors or {}
  for i, t in ipairs(ts) do
    if t.gguf_rows and t.shape[1] ~= t.gguf_rows then
      local c = {}
      for k, v in pairs(t) do c[k] = v end
      c.shape = { t.gguf_rows, t.shape[2] }
      ts[i] = c
    end
  end
  -- a multimodal model's vision tower and projector live in a separate mmproj file: counted
  -- only when llama-server loads it (--mmproj; runtime.mmproj = its type)
  -- (nn.vision_tensor: the engine's list, which also places the tensors)
  local vision = false
  for _, t in ipairs(n.model.desc.tensors or {}) do
    vision = vision or nn.vision_tensor(t.name)
  end
  if knobs.mmproj ~= nil then
    E.enum_field(knobs.mmproj, "runtime.mmproj", { "f16", "bf16", "f32", "q8_0" })
    if not vision then E.fail("runtime.mmproj", "model %s has no vision tower", n.model.id) end
  elseif vision then
    note(n, "llama.cpp: the vision tower and projector are in a separate mmproj file, not loaded (runtime.mmproj = \"f16\" counts llama-server --mmproj)")
  end
  -- --cpu-moe / --n-cpu-moe N: the routed experts' weights of all / the first N layers on the host
  if knobs.n_cpu_moe ~= nil or knobs.cpu_moe then
    local experts = false
    for _, t in ipairs(n.model.desc.tensors or {}) do experts = experts or t.role == "expert" end
    if not experts then
      E.fail(knobs.cpu_moe and "runtime.cpu_moe" or "runtime.n_cpu_moe",
             "model %s has no MoE expert weights to keep on the host (llama.cpp's --n-cpu-ffn moves dense FFNs)", n.model.id)
    end
    if knobs.device == "cpu" then
      E.fail(knobs.cpu_moe and "runtime.cpu_moe" or "runtime.n_cpu_moe", "has no effect with device = \"cpu\" (every weight is on the host)")
    end
  end
  -- -ot / --override-tensor PATTERN=BUFFER_TYPE,... (common/arg.cpp parse_tensor_buffer_overrides:
  -- each value split at ',', each entry at its first '='; the buffer type one of the devices' own,
  -- ggml_backend_dev_buffer_type: "CPU", "CUDA0".., "ROCm0".., "Vulkan0".., "MTL0"; llama-model-loader
  -- create_tensor: the first pattern std::regex_search finds in a tensor's name gives its buffer).
  -- Passed to src/rt_llamacpp.c one entry a line; the GPU indices are checked there
  if knobs.override_tensor ~= nil then
    local v = knobs.override_tensor
    local items, out = type(v) == "string" and { v } or v, {}
    for i, item in ipairs(items) do
      local field = type(v) == "string" and "runtime.override_tensor" or ("runtime.override_tensor[%d]"):format(i)
      for entry in (item .. ","):gmatch("([^,]*),") do
        local pat, buft = entry:match("^([^=]*)=(.*)$")
        if not pat then E.fail(field, "expected PATTERN=BUFFER_TYPE, got '%s'", entry) end
        if pat == "" then E.fail(field, "'%s': empty pattern", entry) end
        if buft ~= "CPU" and not (buft:match("^CUDA%d+$") or buft:match("^ROCm%d+$") or buft:match("^Vulkan%d+$")
                                  or buft:match("^MTL%d+$")) then
          E.fail(field, "unknown buffer type '%s' (CPU, or a GPU's: CUDA0, ROCm0, Vulkan0, MTL0, ...)", buft)
        end
        local ok, err = pcall(host.match, pat, "blk.0.ffn_up_exps.weight")
        if not ok then E.fail(field, "bad regular expression '%s': %s", pat, tostring(err)) end
        if knobs.device == "cpu" and buft ~= "CPU" then
          E.fail(field, "%s names a GPU, and device is \"cpu\"", buft)
        end
        out[#out + 1] = pat .. "=" .. buft
      end
    end
    x["runtime.override_tensor"] = table.concat(out, "\n")
  end
  -- PR #23861 (b9443..b9479): the prompt reserve's logits rows are min(n_ubatch, n_outputs_max)
  -- (n_batch with embeddings: llama-server's server_output_limits, the library's default 0)
  if knobs.n_outputs_max == nil and not knobs.embeddings and (build == 0 or build >= 9443) then
    note(n, "llama.cpp logits reserved for n_seq_max rows assumed (llama-server's n_outputs_max; " ..
            "runtime.n_outputs_max = 0 for a library default of n_batch, e.g. node-llama-cpp)")
  end
end

return runtime {
  name = "llamacpp",
  summary = "llama.cpp (llama-server, llama-cli)",
  own_attention = "runtime.flash_attn (-fa) sets llama.cpp's",
  aliases = { "llama.cpp", "llama-cpp", "ollama" },
  kinds = { "inference" },
  knobs = {
    n_ctx = "int", n_batch = "int", n_ubatch = "int", n_gpu_layers = "int", n_seq_max = "int",
    flash_attn = "bool", type_k = "string", type_v = "string", split_mode = { "none", "layer", "row" },
    tensor_split = "string", use_mmap = "bool", device = { "gpu", "cpu" }, no_kv_offload = "bool",
    swa_full = "bool", cpu_features = { "avx2", "amx", "none" }, op_offload = "bool",
    n_outputs_max = "int", n_cpu_moe = "int", cpu_moe = "bool", mmproj = "string",
    fit = "bool", fit_target = "int", fit_ctx = "int", host_memory = "bytes", kv_unified = "bool",
    embeddings = "bool", row_rounding = "int", gpu_backend = { "cuda", "metal" },
    override_tensor = "strings", nextn_predict_layers = "int", n_rs_seq = "int",
  },
  knob_docs = {
    n_ctx = "-c: KV cells over all sequences (0: the trained context, shrunk by --fit)",
    n_batch = "-b: the logical batch (output rows of the prompt reserve)",
    n_ubatch = "-ub: the physical batch the compute buffer is reserved for (512)",
    n_gpu_layers = "-ngl: layers offloaded, the output layer counted as llama.cpp counts it",
    n_seq_max = "-np: parallel sequences, each its own KV stream unless kv_unified",
    flash_attn = "-fa: off, the compute buffer holds the f32 KQ matrix",
    type_k = "-ctk: the K cache's ggml type (f16, q8_0, q4_0, ...)",
    type_v = "-ctv: the V cache's ggml type",
    split_mode = "-sm: how tensors spread over GPUs",
    tensor_split = "-ts: the GPUs' shares, comma-separated",
    use_mmap = "--no-mmap when false: a plain host buffer of the weights left on the CPU",
    device = "the CPU backend holds everything in host memory, repacked copies counted",
    no_kv_offload = "-nkvo: every layer's KV in host memory",
    swa_full = "--swa-full: sliding-window layers keep the full context",
    cpu_features = "which repacked CPU copies the CPU backend makes",
    op_offload = "--no-op-offload when false: ops on host weights stay on the CPU",
    n_outputs_max = "output rows the prompt reserve holds (0: n_batch), from b9443",
    n_cpu_moe = "--n-cpu-moe N: the first N layers' experts stay in host memory",
    cpu_moe = "--cpu-moe: every layer's experts in host memory",
    n_rs_seq = "recurrent-state snapshots per sequence (cparams.n_rs_seq; llama-server: --spec-draft-n-max with --spec-type draft-mtp): the RS buffer holds 1 + n_rs_seq rows per sequence",
    nextn_predict_layers = "the MTP blocks a built-in model's GGUF carries (its config's count, or 0): -ngl counts them, their tensors are skipped",
    override_tensor = "-ot PATTERN=BUFFER_TYPE,...: a tensor whose GGUF name the first PCRE2 pattern finds goes to that buffer (CPU, CUDA0, ...); a string or a list",
    mmproj = "the multimodal projector file's type (f16, bf16, f32, q8_0): its buffer on the GPU",
    fit = "--fit (on by default): shrink n_ctx 0 to what fits with fit_target MiB free",
    fit_target = "--fit-target MiB kept free per GPU (1024)",
    fit_ctx = "--fit-ctx: the smallest context per sequence --fit goes down to (4096)",
    host_memory = "the machine's RAM: a row fits only when the host holds the rest",
    kv_unified = "--kv-unified: one KV stream for every sequence",
    embeddings = "--embeddings (cparams.embeddings): n_embd f32 per sequence in the output buffer",
    row_rounding = "the rows a GPU's share is rounded to under split_mode row (ggml-cuda get_row_rounding)",
    gpu_backend = "metal: the GPU maps its weights from the file (Metal_Mapped, the file's range) instead of CUDA buffers; one GPU only",
  },
  normalize = normalize,
  modelled = true,
}
