-- transformers: generate() for inference (dynamic or static KV cache, sdpa/flash/eager
-- attention) and the HF Trainer / accelerate for training (autocast mixed precision:
-- fp32 weights and gradients, 16-bit activations). runtime.version selects generate()'s
-- version-dependent behaviour (src/infer.c): logits of every prompt position before 4.45,
-- enable_gqa for sdpa from 4.48, boolean sdpa masks from 4.53, cache layers that follow the
-- config's sliding windows from 4.54; GPT-2's and (before 4.48) GPT-NeoX's attention register a
-- bool causal-mask buffer of max_positions^2 per layer, and before 4.39 Llama-family attention
-- layers RoPE cos/sin tables of max_positions x head dim (model_buffers). cache = "offloaded" /
-- "offloaded_static" keep two layers
-- on the GPU and the rest in pinned CPU memory; "quantized" is QuantizedCache (cache_backend,
-- cache_nbits, cache_q_group_size, cache_residual_length: its cache_config).
local E = require "engine"

-- QuantizedCache's nbits per backend: quanto qint2/qint4; HQQ 1, 2, 4, 8 (its 3-bit
-- packing into int32 is not modelled). transformers src/transformers/cache_utils.py.
local NBITS = { quanto = { [2] = true, [4] = true }, hqq = { [1] = true, [2] = true, [4] = true, [8] = true } }
local QUANT_KNOBS = { "cache_backend", "cache_nbits", "cache_q_group_size", "cache_residual_length" }

local function quant_knobs(n, knobs)
  if knobs.cache ~= "quantized" then
    for _, k in ipairs(QUANT_KNOBS) do
      if knobs[k] ~= nil then E.fail("runtime." .. k, "only applies with cache = \"quantized\" (got cache = \"%s\")", tostring(knobs.cache or "dynamic")) end
    end
    return
  end
  local backend = knobs.cache_backend or "quanto"
  local nbits = knobs.cache_nbits or 4
  if not NBITS[backend][nbits] then
    E.fail("runtime.cache_nbits", "%s supports %s bits, got %d", backend,
           backend == "quanto" and "2 or 4" or "1, 2, 4 or 8", nbits)
  end
  if knobs.cache_q_group_size == 0 then E.fail("runtime.cache_q_group_size", "must be at least 1") end
  if knobs.cache_residual_length == 0 then E.fail("runtime.cache_residual_length", "must be at least 1") end
  n.extra["runtime.cache_backend"], n.extra["runtime.cache_nbits"] = backend, nbits
  if knobs.cache_backend == nil or knobs.cache_nbits == nil then
    E.note(n, "quantized cache: %s backend, %d bits assumed (cache_config defaults)", backend, nbits)
  end
end

local NEWEST = "4.57.0"

-- "4.54.1" -> 4054 (major x 1000 + minor: engine.lua major_minor_code); 5.x counts as newest
-- behaviour.
local function version_code(v)
  return math.min(E.major_minor_code(v, "runtime.version", "4.54.0", "a transformers"), 5000)
end

local function normalize(n, knobs)
  local v = n.runtime_version
  local given = v ~= nil
  -- from 5.0 the MoE models hold their routed experts as one gate_up_proj and one down_proj
  -- 3-D parameter per layer instead of a ModuleList of per-expert Linears (huggingface/
  -- transformers 8598421b, the unified "Experts" classes): the caching allocator rounds
  -- those instead (src/estimate.c fused_expert); the default, the newest modelled 4.57,
  -- keeps per-expert modules
  n.extra["transformers.fused_experts"] = v ~= nil and version_code(v) >= 5000 and 1 or 0
  -- before 4.46 the causal-LM forward upcasts its own logits (`logits = logits.float()`) and
  -- computes the loss on a shifted copy; 4.46 moved it to self.loss_function (huggingface/
  -- transformers PR #34191): src/train.c logits_bytes
  if n.kind == "train" and v ~= nil and version_code(v) < 4046 then n.extra["train.model_upcast"] = true end
  if n.kind ~= "inference" then return end
  if v == nil then
    v = NEWEST
    n.notes[#n.notes + 1] = ("transformers version %s assumed (the newest modelled)"):format(NEWEST)
  end
  n.extra["transformers.version"] = version_code(v)
  -- sparse-attention MLA models reached transformers only in the 5.x line: GlmMoeDsaForCausalLM
  -- (GLM-5, model_doc/glm_moe_dsa.md: "contributed to Hugging Face Transformers on 2026-02-09")
  -- and DeepseekV32ForCausalLM (model_doc/deepseek_v32.md: "on 2026-06-10"); no 4.x release has
  -- either class (the first 5.x release with each is not pinned here)
  local mt = type(n.model_config) == "table" and n.model_config.model_type or nil
  local SPARSE_MLA = { deepseek_v32 = "DeepSeek-V3.2 (DeepseekV32ForCausalLM)", glm_moe_dsa = "GLM-5 (GlmMoeDsaForCausalLM)" }
  if SPARSE_MLA[mt] and version_code(v) < 5000 then
    E.fail("runtime.version", "%s is in no transformers 4.x release (model_type %s reached transformers in the 5.x line); "
           .. "got %s%s: set runtime.version to the 5.x release you run", SPARSE_MLA[mt], mt, v, given and "" or " (assumed)")
  end
  n.extra["transformers.cache"] = knobs.cache or "default"
  quant_knobs(n, knobs)
end

return runtime {
  name = "transformers",
  summary = "Hugging Face transformers generate() and Trainer",
  aliases = { "hf", "accelerate", "trl" },
  kinds = { "inference", "train" },
  -- torch: the PyTorch version under the Trainer (training; workloads/train.lua era_part)
  -- peft, autocast_adapter_dtype: the PEFT release and get_peft_model's argument, which
  -- decide the adapters' dtype under pure 16-bit training (workloads/train.lua upcast_adapters)
  -- expandable_segments: a training run under PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,
  -- as Unsloth's unsloth/__init__.py sets it since c599ae0f2 (2024-03-17, #249; torch >= 2.2)
  -- (src/train.c train_slack_expandable)
  -- keep_outputs: the training loop is not the Trainer and keeps `output` to the step's end
  -- (AnswerDotAI/fsdp_qlora train.py 50efa1e: `output = None` after optimizer.step()) (src/train.c logits_bytes)
  -- bnb_4bit_quant_storage: Params4bit's storage dtype (workloads/train.lua float_quant_storage)
  -- kbit_prepare: PEFT's prepare_model_for_kbit_training under TRL (workloads/train.lua kbit_part)
  -- fsdp_version: FullyShardedDataParallel (1) or fully_shard (2) (workloads/train.lua fsdp_part)
  knobs = { cache = { "dynamic", "static", "offloaded", "offloaded_static", "quantized" }, torch = "string",
            peft = "string", autocast_adapter_dtype = "bool",
            cache_backend = { "quanto", "hqq" }, cache_nbits = "int", cache_q_group_size = "int",
            cache_residual_length = "int", expandable_segments = "bool", fsdp_version = "int", kbit_prepare = "bool",
            keep_outputs = "bool", bnb_4bit_quant_storage = { "uint8", "bf16", "fp16", "fp32" } },
  knob_docs = {
    fsdp_version = "the FSDP implementation: 1 FullyShardedDataParallel (accelerate's default, fsdp_qlora), 2 fully_shard; the sharding strategy is parallel.fsdp_sharding / dp_shard / reshard_after_forward (docs/TRAINING.md)",
    cache = "generate()'s cache_implementation (offloaded: two layers' K/V on the GPU; quantized: QuantizedCache)",
    torch = "the PyTorch release under the Trainer (before 2.0 zero_grad kept gradients; 2.0's foreach AdamW two step temporaries)",
    peft = "the PEFT release: 0.6 to 0.11 adapters take the base layer's dtype, below 0.6 fp32",
    autocast_adapter_dtype = "get_peft_model's autocast_adapter_dtype (true: fp32 adapters)",
    cache_backend = "QuantizedCache's backend",
    cache_nbits = "QuantizedCache's nbits",
    cache_q_group_size = "QuantizedCache's q_group_size (64)",
    cache_residual_length = "QuantizedCache's residual_length (128): recent tokens kept unquantized",
    expandable_segments = "PYTORCH_CUDA_ALLOC_CONF expandable_segments:True: reserved = allocated peak in 20 MiB pages, no fragmentation share (Unsloth and axolotl set it for training)",
    keep_outputs = "a training loop of its own that holds the model's outputs (the fp32 logits before 4.46) through backward and the step, as AnswerDotAI/fsdp_qlora's train.py (the Trainer drops them)",
    bnb_4bit_quant_storage = "bitsandbytes 4-bit storage dtype (FSDP QLoRA: the policy's 16-bit dtype); a float storage gives PEFT 0.6-0.11 adapters that dtype",
    kbit_prepare = "QLoRA base prepared by PEFT's prepare_model_for_kbit_training as TRL's SFTTrainer runs it: fp32 norms, so an fp32 residual stream after the first block",
  },
  modelled = true,
  normalize = normalize,
}
