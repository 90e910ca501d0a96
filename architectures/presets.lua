-- presets.lua: Hugging Face repo id -> { arch = config.json model_type, config = config.json fields }.
-- Configs are copied from shared/calibration/models.jsonl and the expect/*.jsonl fallback configs
-- (JSON null fields left out); gemma-3-27b-it adds its published vision_config (SigLIP, 27 layers).
-- aliases: -Instruct/-it/-chat and re-packaged repos whose weight shapes equal the base's.
local models = {}

models["bigscience/bloomz-7b1"] = { arch = "bloom", config = {
    architectures = { "BloomForCausalLM" }, hidden_size = 4096, model_type = "bloom", n_head = 32,
    n_layer = 30, vocab_size = 250880,
} }
models["bigscience/mt0-xxl"] = { arch = "mt5", config = {
    architectures = { "MT5ForConditionalGeneration" }, d_ff = 10240, d_kv = 64, d_model = 4096,
    feed_forward_proj = "gated-gelu", model_type = "mt5", num_decoder_layers = 24, num_heads = 64,
    num_layers = 24, tie_word_embeddings = false, vocab_size = 250112,
} }
models["bigscience/T0_3B"] = { arch = "t5", config = {
    architectures = { "T5ForConditionalGeneration" }, d_ff = 5120, d_kv = 64, d_model = 2048,
    feed_forward_proj = "gated-gelu", model_type = "t5", num_decoder_layers = 24, num_heads = 32,
    num_layers = 24, tie_word_embeddings = false, vocab_size = 32128,
} }
models["deepseek-ai/DeepSeek-V2-Lite"] = { arch = "deepseek_v2", config = {
    architectures = { "DeepseekV2ForCausalLM" }, attention_bias = false, bos_token_id = 100000,
    eos_token_id = 100001, first_k_dense_replace = 1, hidden_act = "silu", hidden_size = 2048,
    initializer_range = 0.02, intermediate_size = 10944, kv_lora_rank = 512,
    max_position_embeddings = 163840, model_type = "deepseek_v2", moe_intermediate_size = 1408,
    moe_layer_freq = 1, n_group = 1, n_routed_experts = 64, n_shared_experts = 2,
    norm_topk_prob = false, num_attention_heads = 16, num_experts_per_tok = 6,
    num_hidden_layers = 27, num_key_value_heads = 16, pretraining_tp = 1, qk_nope_head_dim = 128,
    qk_rope_head_dim = 64, rms_norm_eps = 1e-06,
    rope_scaling = { beta_fast = 32, beta_slow = 1, factor = 40, mscale = 0.707, mscale_all_dim = 0.707, original_max_position_embeddings = 4096, type = "yarn" },
    rope_theta = 10000, routed_scaling_factor = 1.0, scoring_func = "softmax", topk_group = 1,
    topk_method = "greedy", torch_dtype = "bfloat16", transformers_version = "4.33.1",
    use_cache = true, v_head_dim = 128, vocab_size = 102400,
} }
models["deepseek-ai/DeepSeek-V3"] = { arch = "deepseek_v3", config = {
    first_k_dense_replace = 3, hidden_size = 7168, intermediate_size = 18432, kv_lora_rank = 512,
    max_position_embeddings = 163840, model_type = "deepseek_v3", moe_intermediate_size = 2048,
    moe_layer_freq = 1, n_routed_experts = 256, n_shared_experts = 1, num_attention_heads = 128,
    num_experts_per_tok = 8, num_hidden_layers = 61, num_key_value_heads = 128,
    num_nextn_predict_layers = 1, q_lora_rank = 1536, qk_nope_head_dim = 128, qk_rope_head_dim = 64,
    quantization_config = { quant_method = "fp8", fmt = "e4m3", activation_scheme = "dynamic", weight_block_size = { 128, 128 } },
    tie_word_embeddings = false, v_head_dim = 128,
    vocab_size = 129280,
} }
-- DeepSeek-V3.2-Exp (architectures/deepseek.lua: V3 plus the sparse-attention indexer): the Hub's
-- config.json (huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp) is V3's with model_type deepseek_v32,
-- architectures DeepseekV32ForCausalLM and index_n_heads 64, index_head_dim 128, index_topk 2048
-- (the values vLLM's and SGLang's DeepSeek-V3.2 code comments and tests quote); DeepSeek-V3.2 and
-- V3.2-Speciale ship the same shape (aliases below).
models["deepseek-ai/DeepSeek-V3.2-Exp"] = { arch = "deepseek_v32", config = {
    architectures = { "DeepseekV32ForCausalLM" },
    first_k_dense_replace = 3, hidden_size = 7168, index_head_dim = 128, index_n_heads = 64,
    index_topk = 2048, intermediate_size = 18432, kv_lora_rank = 512,
    max_position_embeddings = 163840, model_type = "deepseek_v32", moe_intermediate_size = 2048,
    moe_layer_freq = 1, n_group = 8, n_routed_experts = 256, n_shared_experts = 1,
    norm_topk_prob = true, num_attention_heads = 128, num_experts_per_tok = 8,
    num_hidden_layers = 61, num_key_value_heads = 128, num_nextn_predict_layers = 1,
    q_lora_rank = 1536, qk_nope_head_dim = 128, qk_rope_head_dim = 64,
    quantization_config = { quant_method = "fp8", fmt = "e4m3", activation_scheme = "dynamic", weight_block_size = { 128, 128 } },
    rope_scaling = { beta_fast = 32, beta_slow = 1, factor = 40, mscale = 1.0, mscale_all_dim = 1.0, original_max_position_embeddings = 4096, type = "yarn" },
    rope_theta = 10000, routed_scaling_factor = 2.5, scoring_func = "sigmoid", tie_word_embeddings = false,
    topk_group = 4, topk_method = "noaux_tc", torch_dtype = "bfloat16", v_head_dim = 128, vocab_size = 129280,
} }
models["EleutherAI/pythia-2.8b"] = { arch = "gpt_neox", config = {
    architectures = { "GPTNeoXForCausalLM" }, bos_token_id = 0, eos_token_id = 0,
    hidden_size = 2560, intermediate_size = 10240, layer_norm_eps = 1e-05,
    max_position_embeddings = 2048, model_type = "gpt_neox", num_attention_heads = 32,
    num_hidden_layers = 32, rotary_emb_base = 10000, rotary_pct = 0.25, tie_word_embeddings = false,
    use_parallel_residual = true, vocab_size = 50304,
} }
models["google-bert/bert-large-uncased"] = { arch = "bert", config = {
    attention_probs_dropout_prob = 0.1, hidden_act = "gelu", hidden_dropout_prob = 0.1,
    hidden_size = 1024, initializer_range = 0.02, intermediate_size = 4096,
    max_position_embeddings = 512, num_attention_heads = 16, num_hidden_layers = 24,
    type_vocab_size = 2, vocab_size = 30522,
} }
models["google-t5/t5-3b"] = { arch = "t5", config = {
    architectures = { "T5WithLMHeadModel" }, d_ff = 16384, d_kv = 128, d_model = 1024,
    num_heads = 32, num_layers = 24, vocab_size = 32128,
} }
models["google/gemma-2-27b-it"] = { arch = "gemma2", config = {
    _attn_implementation = "eager", architectures = { "Gemma2ForCausalLM" }, attention_bias = false,
    attention_dropout = 0.0, attn_logit_softcapping = 50.0, bos_token_id = 2,
    cache_implementation = "hybrid", eos_token_id = 1, final_logit_softcapping = 30.0,
    head_dim = 128, hidden_act = "gelu_pytorch_tanh", hidden_activation = "gelu_pytorch_tanh",
    hidden_size = 4608, initializer_range = 0.02, intermediate_size = 36864,
    max_position_embeddings = 8192, model_type = "gemma2", num_attention_heads = 32,
    num_hidden_layers = 46, num_key_value_heads = 16, pad_token_id = 0, query_pre_attn_scalar = 144,
    rms_norm_eps = 1e-06, rope_theta = 10000.0, sliding_window = 4096, sliding_window_size = 4096,
    torch_dtype = "bfloat16", transformers_version = "4.42.0.dev0", use_cache = true,
    vocab_size = 256000,
} }
models["google/gemma-2-9b-it"] = { arch = "gemma2", config = {
    architectures = { "Gemma2ForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    attn_logit_softcapping = 50.0, bos_token_id = 2, cache_implementation = "hybrid",
    eos_token_id = 1, final_logit_softcapping = 30.0, head_dim = 256,
    hidden_act = "gelu_pytorch_tanh", hidden_activation = "gelu_pytorch_tanh", hidden_size = 3584,
    initializer_range = 0.02, intermediate_size = 14336, max_position_embeddings = 8192,
    model_type = "gemma2", num_attention_heads = 16, num_hidden_layers = 42,
    num_key_value_heads = 8, pad_token_id = 0, query_pre_attn_scalar = 256, rms_norm_eps = 1e-06,
    rope_theta = 10000.0, sliding_window = 4096, sliding_window_size = 4096,
    torch_dtype = "bfloat16", transformers_version = "4.42.0.dev0", use_cache = true,
    vocab_size = 256000,
} }
models["google/gemma-3-27b-it"] = { arch = "gemma3", config = {
    architectures = { "Gemma3ForConditionalGeneration" }, mm_tokens_per_image = 256,
    model_type = "gemma3",
    text_config = { head_dim = 128, hidden_size = 5376, intermediate_size = 21504, max_position_embeddings = 131072, model_type = "gemma3_text", num_attention_heads = 32, num_hidden_layers = 62, num_key_value_heads = 16, sliding_window = 1024, sliding_window_pattern = 6, vocab_size = 262208,
      rope_local_base_freq = 10000.0, rope_scaling = { factor = 8.0, rope_type = "linear" }, rope_theta = 1000000.0 },
    vision_config = { hidden_size = 1152, image_size = 896, intermediate_size = 4304, model_type = "siglip_vision_model", num_attention_heads = 16, num_hidden_layers = 27, patch_size = 14, vision_use_head = false },
} }
models["meta-llama/Llama-2-13b-hf"] = { arch = "llama", config = {
    _name_or_path = "meta-llama/Llama-2-13b-hf", architectures = { "LlamaForCausalLM" },
    bos_token_id = 1, eos_token_id = 2, hidden_act = "silu", hidden_size = 5120,
    initializer_range = 0.02, intermediate_size = 13824, max_position_embeddings = 4096,
    model_type = "llama", num_attention_heads = 40, num_hidden_layers = 40,
    num_key_value_heads = 40, pretraining_tp = 1, rms_norm_eps = 1e-05, torch_dtype = "float16",
    transformers_version = "4.32.0.dev0", vocab_size = 32000,
} }
models["meta-llama/Llama-2-70b-hf"] = { arch = "llama", config = {
    _name_or_path = "meta-llama/Llama-2-70b-hf", architectures = { "LlamaForCausalLM" },
    bos_token_id = 1, eos_token_id = 2, hidden_act = "silu", hidden_size = 8192,
    initializer_range = 0.02, intermediate_size = 28672, max_position_embeddings = 4096,
    model_type = "llama", num_attention_heads = 64, num_hidden_layers = 80, num_key_value_heads = 8,
    pretraining_tp = 1, rms_norm_eps = 1e-05, torch_dtype = "float16",
    transformers_version = "4.32.0.dev0", vocab_size = 32000,
} }
models["meta-llama/Llama-2-7b-hf"] = { arch = "llama", config = {
    _name_or_path = "meta-llama/Llama-2-7b-hf", architectures = { "LlamaForCausalLM" },
    bos_token_id = 1, eos_token_id = 2, hidden_act = "silu", hidden_size = 4096,
    initializer_range = 0.02, intermediate_size = 11008, max_position_embeddings = 4096,
    model_type = "llama", num_attention_heads = 32, num_hidden_layers = 32,
    num_key_value_heads = 32, pretraining_tp = 1, rms_norm_eps = 1e-05, torch_dtype = "float16",
    transformers_version = "4.31.0.dev0", vocab_size = 32000,
} }
models["meta-llama/Llama-3.1-405B"] = { arch = "llama", config = {
    head_dim = 128, hidden_size = 16384, intermediate_size = 53248, num_attention_heads = 128,
    num_hidden_layers = 126, num_key_value_heads = 8, vocab_size = 128256,
} }
models["meta-llama/Llama-3.1-70B"] = { arch = "llama", config = {
    architectures = { "LlamaForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 128000, eos_token_id = { 128001, 128008, 128009 }, hidden_act = "silu",
    hidden_size = 8192, initializer_range = 0.02, intermediate_size = 28672,
    max_position_embeddings = 131072, mlp_bias = false, model_type = "llama",
    num_attention_heads = 64, num_hidden_layers = 80, num_key_value_heads = 8, pretraining_tp = 1,
    rms_norm_eps = 1e-05,
    rope_scaling = { factor = 8.0, high_freq_factor = 4.0, low_freq_factor = 1.0, original_max_position_embeddings = 8192, rope_type = "llama3" },
    rope_theta = 500000.0, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.42.3", use_cache = true, vocab_size = 128256,
} }
models["meta-llama/Llama-3.1-8B"] = { arch = "llama", config = {
    architectures = { "LlamaForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 128000, eos_token_id = 128001, hidden_act = "silu", hidden_size = 4096,
    initializer_range = 0.02, intermediate_size = 14336, max_position_embeddings = 131072,
    mlp_bias = false, model_type = "llama", num_attention_heads = 32, num_hidden_layers = 32,
    num_key_value_heads = 8, pretraining_tp = 1, rms_norm_eps = 1e-05,
    rope_scaling = { factor = 8.0, high_freq_factor = 4.0, low_freq_factor = 1.0, original_max_position_embeddings = 8192, rope_type = "llama3" },
    rope_theta = 500000.0, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.43.0.dev0", use_cache = true, vocab_size = 128256,
} }
models["meta-llama/Llama-3.2-1B"] = { arch = "llama", config = {
    architectures = { "LlamaForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 128000, eos_token_id = { 128001, 128008, 128009 }, head_dim = 64,
    hidden_act = "silu", hidden_size = 2048, initializer_range = 0.02, intermediate_size = 8192,
    max_position_embeddings = 131072, mlp_bias = false, model_type = "llama",
    num_attention_heads = 32, num_hidden_layers = 16, num_key_value_heads = 8, pretraining_tp = 1,
    rms_norm_eps = 1e-05,
    rope_scaling = { factor = 32.0, high_freq_factor = 4.0, low_freq_factor = 1.0, original_max_position_embeddings = 8192, rope_type = "llama3" },
    rope_theta = 500000.0, tie_word_embeddings = true, torch_dtype = "bfloat16",
    transformers_version = "4.45.0.dev0", use_cache = true, vocab_size = 128256,
} }
models["meta-llama/Llama-3.2-3B"] = { arch = "llama", config = {
    architectures = { "LlamaForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 128000, eos_token_id = 128001, head_dim = 128, hidden_act = "silu",
    hidden_size = 3072, initializer_range = 0.02, intermediate_size = 8192,
    max_position_embeddings = 131072, mlp_bias = false, model_type = "llama",
    num_attention_heads = 24, num_hidden_layers = 28, num_key_value_heads = 8, pretraining_tp = 1,
    rms_norm_eps = 1e-05,
    rope_scaling = { factor = 32.0, high_freq_factor = 4.0, low_freq_factor = 1.0, original_max_position_embeddings = 8192, rope_type = "llama3" },
    rope_theta = 500000.0, tie_word_embeddings = true, torch_dtype = "bfloat16",
    transformers_version = "4.45.0.dev0", use_cache = true, vocab_size = 128256,
} }
models["meta-llama/Meta-Llama-3-8B"] = { arch = "llama", config = {
    architectures = { "LlamaForCausalLM" }, attention_dropout = 0.0, bos_token_id = 128000,
    eos_token_id = 128001, hidden_act = "silu", hidden_size = 4096, initializer_range = 0.02,
    intermediate_size = 14336, max_position_embeddings = 8192, model_type = "llama",
    num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 8, pretraining_tp = 1,
    rms_norm_eps = 1e-05, rope_theta = 500000.0, torch_dtype = "bfloat16",
    transformers_version = "4.40.0.dev0", vocab_size = 128256,
} }
models["microsoft/Phi-3-mini-4k-instruct"] = { arch = "phi3", config = {
    architectures = { "Phi3ForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 1, embd_pdrop = 0.0, eos_token_id = 32000, hidden_act = "silu",
    hidden_size = 3072, initializer_range = 0.02, intermediate_size = 8192,
    max_position_embeddings = 4096, model_type = "phi3", num_attention_heads = 32,
    num_hidden_layers = 32, num_key_value_heads = 32, original_max_position_embeddings = 4096,
    pad_token_id = 32000, resid_pdrop = 0.0, rms_norm_eps = 1e-05, rope_theta = 10000.0,
    sliding_window = 2047, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.40.2", use_cache = true, vocab_size = 32064,
} }
models["microsoft/phi-4"] = { arch = "phi3", config = {
    hidden_size = 5120, intermediate_size = 17920, max_position_embeddings = 16384,
    model_type = "phi3", num_attention_heads = 40, num_hidden_layers = 40, num_key_value_heads = 10,
    tie_word_embeddings = false, vocab_size = 100352,
} }
models["mistralai/Mistral-7B-v0.1"] = { arch = "mistral", config = {
    architectures = { "MistralForCausalLM" }, bos_token_id = 1, eos_token_id = 2,
    hidden_act = "silu", hidden_size = 4096, initializer_range = 0.02, intermediate_size = 14336,
    max_position_embeddings = 32768, model_type = "mistral", num_attention_heads = 32,
    num_hidden_layers = 32, num_key_value_heads = 8, rms_norm_eps = 1e-05, rope_theta = 10000.0,
    sliding_window = 4096, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.34.0.dev0", use_cache = true, vocab_size = 32000,
} }
models["mistralai/Mistral-7B-v0.3"] = { arch = "mistral", config = {
    architectures = { "MistralForCausalLM" }, attention_dropout = 0.0, bos_token_id = 1,
    eos_token_id = 2, hidden_act = "silu", hidden_size = 4096, initializer_range = 0.02,
    intermediate_size = 14336, max_position_embeddings = 32768, model_type = "mistral",
    num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 8, rms_norm_eps = 1e-05,
    rope_theta = 1000000.0, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.42.0.dev0", use_cache = true, vocab_size = 32768,
} }
models["mistralai/Mixtral-8x22B-v0.1"] = { arch = "mixtral", config = {
    architectures = { "MixtralForCausalLM" }, attention_dropout = 0.0, bos_token_id = 1,
    eos_token_id = 2, hidden_act = "silu", hidden_size = 6144, initializer_range = 0.02,
    intermediate_size = 16384, max_position_embeddings = 65536, model_type = "mixtral",
    num_attention_heads = 48, num_experts_per_tok = 2, num_hidden_layers = 56,
    num_key_value_heads = 8, num_local_experts = 8, rms_norm_eps = 1e-05, rope_theta = 1000000,
    router_aux_loss_coef = 0.001, router_jitter_noise = 0.0, torch_dtype = "bfloat16",
    transformers_version = "4.40.0.dev0", vocab_size = 32000,
} }
models["mistralai/Mixtral-8x7B-v0.1"] = { arch = "mixtral", config = {
    architectures = { "MixtralForCausalLM" }, attention_dropout = 0.0, bos_token_id = 1,
    eos_token_id = 2, hidden_act = "silu", hidden_size = 4096, initializer_range = 0.02,
    intermediate_size = 14336, max_position_embeddings = 32768, model_type = "mixtral",
    num_attention_heads = 32, num_experts_per_tok = 2, num_hidden_layers = 32,
    num_key_value_heads = 8, num_local_experts = 8, output_router_logits = false,
    rms_norm_eps = 1e-05, rope_theta = 1000000.0, router_aux_loss_coef = 0.02,
    tie_word_embeddings = false, torch_dtype = "bfloat16", transformers_version = "4.36.0.dev0",
    use_cache = true, vocab_size = 32000,
} }
models["openai-community/gpt2"] = { arch = "gpt2", config = {
    activation_function = "gelu_new", architectures = { "GPT2LMHeadModel" }, attn_pdrop = 0.1,
    bos_token_id = 50256, embd_pdrop = 0.1, eos_token_id = 50256, initializer_range = 0.02,
    layer_norm_epsilon = 1e-05, model_type = "gpt2", n_ctx = 1024, n_embd = 768, n_head = 12,
    n_layer = 12, n_positions = 1024, resid_pdrop = 0.1, summary_first_dropout = 0.1,
    summary_proj_to_labels = true, summary_type = "cls_index", summary_use_proj = true,
    task_specific_params = { ["text-generation"] = { do_sample = true, max_length = 50 } },
    vocab_size = 50257,
} }
models["openai/gpt-oss-120b"] = { arch = "gpt_oss", config = {
    experts_per_token = 4, head_dim = 64, hidden_size = 2880, intermediate_size = 2880,
    layer_types = { "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention" },
    max_position_embeddings = 131072, model_type = "gpt_oss", num_attention_heads = 64,
    num_experts_per_tok = 4, num_hidden_layers = 36, num_key_value_heads = 8,
    num_local_experts = 128, quantization_config = { quant_method = "mxfp4" }, sliding_window = 128,
    tie_word_embeddings = false, vocab_size = 201088,
} }
models["openai/gpt-oss-20b"] = { arch = "gpt_oss", config = {
    experts_per_token = 4, head_dim = 64, hidden_size = 2880, intermediate_size = 2880,
    layer_types = { "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention" },
    max_position_embeddings = 131072, model_type = "gpt_oss", num_attention_heads = 64,
    num_experts_per_tok = 4, num_hidden_layers = 24, num_key_value_heads = 8,
    num_local_experts = 32, quantization_config = { quant_method = "mxfp4" }, sliding_window = 128,
    tie_word_embeddings = false, vocab_size = 201088,
} }
models["Qwen/Qwen2.5-0.5B"] = { arch = "qwen2", config = {
    architectures = { "Qwen2ForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    eos_token_id = 151643, hidden_act = "silu", hidden_size = 896, initializer_range = 0.02,
    intermediate_size = 4864, max_position_embeddings = 32768, max_window_layers = 24,
    model_type = "qwen2", num_attention_heads = 14, num_hidden_layers = 24, num_key_value_heads = 2,
    rms_norm_eps = 1e-06, rope_theta = 1000000.0, sliding_window = 32768,
    tie_word_embeddings = true, torch_dtype = "bfloat16", transformers_version = "4.40.1",
    use_cache = true, use_mrope = false, use_sliding_window = false, vocab_size = 151936,
} }
models["Qwen/Qwen2.5-14B"] = { arch = "qwen2", config = {
    architectures = { "Qwen2ForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    eos_token_id = 151643, hidden_act = "silu", hidden_size = 5120, initializer_range = 0.02,
    intermediate_size = 13824, max_position_embeddings = 131072, max_window_layers = 48,
    model_type = "qwen2", num_attention_heads = 40, num_hidden_layers = 48, num_key_value_heads = 8,
    rms_norm_eps = 1e-05, rope_theta = 1000000.0, sliding_window = 131072,
    tie_word_embeddings = false, torch_dtype = "bfloat16", transformers_version = "4.43.1",
    use_cache = true, use_sliding_window = false, vocab_size = 152064,
} }
models["Qwen/Qwen2.5-32B"] = { arch = "qwen2", config = {
    architectures = { "Qwen2ForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    eos_token_id = 151643, hidden_act = "silu", hidden_size = 5120, initializer_range = 0.02,
    intermediate_size = 27648, max_position_embeddings = 131072, max_window_layers = 64,
    model_type = "qwen2", num_attention_heads = 40, num_hidden_layers = 64, num_key_value_heads = 8,
    rms_norm_eps = 1e-05, rope_theta = 1000000.0, sliding_window = 131072,
    tie_word_embeddings = false, torch_dtype = "bfloat16", transformers_version = "4.43.1",
    use_cache = true, use_sliding_window = false, vocab_size = 152064,
} }
models["Qwen/Qwen2.5-72B-Instruct"] = { arch = "qwen2", config = {
    architectures = { "Qwen2ForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    eos_token_id = 151645, hidden_act = "silu", hidden_size = 8192, initializer_range = 0.02,
    intermediate_size = 29568, max_position_embeddings = 32768, max_window_layers = 70,
    model_type = "qwen2", num_attention_heads = 64, num_hidden_layers = 80, num_key_value_heads = 8,
    rms_norm_eps = 1e-06, rope_theta = 1000000.0, sliding_window = 131072,
    tie_word_embeddings = false, torch_dtype = "bfloat16", transformers_version = "4.43.1",
    use_cache = true, use_sliding_window = false, vocab_size = 152064,
} }
-- Qwen2.5-3B: Qwen/Qwen2.5-3B's config.json (hidden 2048, FFN 11008, 36 layers, 16 heads / 2 KV
-- heads of 128, tied 151,936-token embeddings); its 434 GGUF tensors (36 x 12 + 2: no output.weight)
-- and 36 x 256-wide KV are what SciSharp/LLamaSharp#1099's log prints (round 25, lcpp25b)
models["Qwen/Qwen2.5-3B"] = { arch = "qwen2", config = {
    architectures = { "Qwen2ForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    eos_token_id = 151643, hidden_act = "silu", hidden_size = 2048, initializer_range = 0.02,
    intermediate_size = 11008, max_position_embeddings = 32768, max_window_layers = 36,
    model_type = "qwen2", num_attention_heads = 16, num_hidden_layers = 36, num_key_value_heads = 2,
    rms_norm_eps = 1e-06, rope_theta = 1000000.0, sliding_window = 32768,
    tie_word_embeddings = true, torch_dtype = "bfloat16", transformers_version = "4.40.1",
    use_cache = true, use_mrope = false, use_sliding_window = false, vocab_size = 151936,
} }
models["Qwen/Qwen2.5-7B"] = { arch = "qwen2", config = {
    architectures = { "Qwen2ForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    eos_token_id = 151643, hidden_act = "silu", hidden_size = 3584, initializer_range = 0.02,
    intermediate_size = 18944, max_position_embeddings = 131072, max_window_layers = 28,
    model_type = "qwen2", num_attention_heads = 28, num_hidden_layers = 28, num_key_value_heads = 4,
    rms_norm_eps = 1e-06, rope_theta = 1000000.0, sliding_window = 131072,
    tie_word_embeddings = false, torch_dtype = "bfloat16", transformers_version = "4.40.1",
    use_cache = true, use_mrope = false, use_sliding_window = false, vocab_size = 152064,
} }
models["Qwen/Qwen3-14B"] = { arch = "qwen3", config = {
    architectures = { "Qwen3ForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 151643, eos_token_id = 151645, head_dim = 128, hidden_act = "silu",
    hidden_size = 5120, initializer_range = 0.02, intermediate_size = 17408,
    max_position_embeddings = 40960, max_window_layers = 40, model_type = "qwen3",
    num_attention_heads = 40, num_hidden_layers = 40, num_key_value_heads = 8, rms_norm_eps = 1e-06,
    rope_theta = 1000000, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.51.0", use_cache = true, use_sliding_window = false,
    vocab_size = 151936,
} }
models["Qwen/Qwen3-30B-A3B"] = { arch = "qwen3_moe", config = {
    architectures = { "Qwen3MoeForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 151643, decoder_sparse_step = 1, eos_token_id = 151645, head_dim = 128,
    hidden_act = "silu", hidden_size = 2048, initializer_range = 0.02, intermediate_size = 6144,
    max_position_embeddings = 40960, max_window_layers = 48, mlp_only_layers = {  },
    model_type = "qwen3_moe", moe_intermediate_size = 768, norm_topk_prob = true,
    num_attention_heads = 32, num_experts = 128, num_experts_per_tok = 8, num_hidden_layers = 48,
    num_key_value_heads = 4, output_router_logits = false, rms_norm_eps = 1e-06,
    rope_theta = 1000000.0, router_aux_loss_coef = 0.001, tie_word_embeddings = false,
    torch_dtype = "bfloat16", transformers_version = "4.51.0", use_cache = true,
    use_sliding_window = false, vocab_size = 151936,
} }
-- Qwen2-MoE family (architectures/moe.lua, model_type qwen2_moe). Qwen1.5-MoE-A2.7B: config.json
-- as quoted verbatim in public test fixtures of Qwen2-MoE loaders (max_position_embeddings 8192,
-- the base model's; the -Chat model's reads 32768); Qwen2-57B-A14B: config.json as NVIDIA
-- TensorRT-LLM vendors it (tests/unittest/_torch/modeling/test_modeling_qwen_moe.py
-- QWEN2_57B_A14B_CONFIG).
models["Qwen/Qwen1.5-MoE-A2.7B"] = { arch = "qwen2_moe", config = {
    architectures = { "Qwen2MoeForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    decoder_sparse_step = 1, eos_token_id = 151643, hidden_act = "silu", hidden_size = 2048,
    initializer_range = 0.02, intermediate_size = 5632, max_position_embeddings = 8192,
    max_window_layers = 21, model_type = "qwen2_moe", moe_intermediate_size = 1408,
    norm_topk_prob = false, num_attention_heads = 16, num_experts = 60, num_experts_per_tok = 4,
    num_hidden_layers = 24, num_key_value_heads = 16, rms_norm_eps = 1e-06, rope_theta = 1000000.0,
    shared_expert_intermediate_size = 5632, sliding_window = 32768, tie_word_embeddings = false,
    torch_dtype = "bfloat16", use_sliding_window = false, vocab_size = 151936,
} }
models["Qwen/Qwen2-57B-A14B"] = { arch = "qwen2_moe", config = {
    architectures = { "Qwen2MoeForCausalLM" }, attention_dropout = 0.0, bos_token_id = 151643,
    decoder_sparse_step = 1, eos_token_id = 151643, hidden_act = "silu", hidden_size = 3584,
    initializer_range = 0.02, intermediate_size = 18944, max_position_embeddings = 131072,
    max_window_layers = 28, model_type = "qwen2_moe", moe_intermediate_size = 2560,
    norm_topk_prob = false, num_attention_heads = 28, num_experts = 64, num_experts_per_tok = 8,
    num_hidden_layers = 28, num_key_value_heads = 4, output_router_logits = false, rms_norm_eps = 1e-06,
    rope_theta = 1000000.0, router_aux_loss_coef = 0.001, shared_expert_intermediate_size = 20480,
    sliding_window = 131072, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.40.1", use_cache = true, use_sliding_window = false, vocab_size = 151936,
} }
models["Qwen/Qwen3-32B"] = { arch = "qwen3", config = {
    architectures = { "Qwen3ForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 151643, eos_token_id = 151645, head_dim = 128, hidden_act = "silu",
    hidden_size = 5120, initializer_range = 0.02, intermediate_size = 25600,
    max_position_embeddings = 40960, max_window_layers = 64, model_type = "qwen3",
    num_attention_heads = 64, num_hidden_layers = 64, num_key_value_heads = 8, rms_norm_eps = 1e-06,
    rope_theta = 1000000, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.51.0", use_cache = true, use_sliding_window = false,
    vocab_size = 151936,
} }
-- Qwen3-4B: config.json as Z-Image-Turbo's text_encoder/config.json carries it (verbatim copies
-- in public repos); 4,022,468,096 parameters with the tied embedding counted once.
models["Qwen/Qwen3-4B"] = { arch = "qwen3", config = {
    architectures = { "Qwen3ForCausalLM" }, attention_bias = false, head_dim = 128, hidden_act = "silu",
    hidden_size = 2560, intermediate_size = 9728, max_position_embeddings = 40960, model_type = "qwen3",
    num_attention_heads = 32, num_hidden_layers = 36, num_key_value_heads = 8, rms_norm_eps = 1e-06,
    rope_theta = 1000000, tie_word_embeddings = true, torch_dtype = "bfloat16", vocab_size = 151936,
} }
models["Qwen/Qwen3-8B"] = { arch = "qwen3", config = {
    architectures = { "Qwen3ForCausalLM" }, attention_bias = false, attention_dropout = 0.0,
    bos_token_id = 151643, eos_token_id = 151645, head_dim = 128, hidden_act = "silu",
    hidden_size = 4096, initializer_range = 0.02, intermediate_size = 12288,
    max_position_embeddings = 40960, max_window_layers = 36, model_type = "qwen3",
    num_attention_heads = 32, num_hidden_layers = 36, num_key_value_heads = 8, rms_norm_eps = 1e-06,
    rope_theta = 1000000, tie_word_embeddings = false, torch_dtype = "bfloat16",
    transformers_version = "4.51.0", use_cache = true, use_sliding_window = false,
    vocab_size = 151936,
} }
models["tiiuae/falcon-7b"] = { arch = "falcon", config = {
    architectures = { "RWForCausalLM" }, hidden_size = 4544, n_head = 71, n_layer = 32,
    vocab_size = 65024,
} }

-- --- gen: diffusion and video pipelines (architectures/sd.lua, flux.lua, sd3.lua, pixart.lua,
-- wan.lua, hunyuanvideo.lua, cogvideox.lua, ltx.lua, mochi.lua, opensora.lua). Configs are the
-- components' config.json fields (models.jsonl, the expect/ fallback configs, diffusers'
-- convert_*_to_diffusers.py); down_attn lists which UNet levels carry cross-attention.
local SD15_UNET = { block_out_channels = { 320, 640, 1280, 1280 }, layers_per_block = 2, attention_head_dim = 8,
  cross_attention_dim = 768, down_attn = { true, true, true, false } }
models["stable-diffusion-v1-5/stable-diffusion-v1-5"] = { arch = "stable_diffusion", config = { unet = SD15_UNET } }
models["stabilityai/stable-diffusion-xl-base-1.0"] = { arch = "stable_diffusion", config = {
  unet = { block_out_channels = { 320, 640, 1280 }, layers_per_block = 2, attention_head_dim = { 5, 10, 20 },
    transformer_layers_per_block = { 1, 2, 10 }, cross_attention_dim = 2048, use_linear_projection = true,
    projection_class_embeddings_input_dim = 2816, down_attn = { false, true, true } },
  text_encoders = { { hidden = 768, layers = 12, ffn = 3072 }, { hidden = 1280, layers = 32, ffn = 5120, proj = 1280 } },
  vae_force_upcast = true,
} }
models["stabilityai/stable-diffusion-3-medium-diffusers"] = { arch = "sd3", config = { transformer = {
  num_layers = 24, num_attention_heads = 24, attention_head_dim = 64, caption_projection_dim = 1536,
  joint_attention_dim = 4096, pooled_projection_dim = 2048, in_channels = 16, patch_size = 2,
  pos_embed_max_size = 192 } } }   -- transformer/config.json
models["stabilityai/stable-diffusion-3.5-large"] = { arch = "sd3", config = { transformer = {
  num_layers = 38, num_attention_heads = 38, attention_head_dim = 64, caption_projection_dim = 2432,
  joint_attention_dim = 4096, pooled_projection_dim = 2048, in_channels = 16, patch_size = 2, qk_norm = "rms_norm",
  pos_embed_max_size = 192 } } }   -- transformer/config.json
models["black-forest-labs/FLUX.1-dev"] = { arch = "flux", config = { transformer = {
  num_layers = 19, num_single_layers = 38, attention_head_dim = 128, num_attention_heads = 24,
  joint_attention_dim = 4096, pooled_projection_dim = 768, in_channels = 64, guidance_embeds = true } } }
models["black-forest-labs/FLUX.1-schnell"] = { arch = "flux", config = { transformer = {
  num_layers = 19, num_single_layers = 38, attention_head_dim = 128, num_attention_heads = 24,
  joint_attention_dim = 4096, pooled_projection_dim = 768, in_channels = 64, guidance_embeds = false } } }
models["PixArt-alpha/PixArt-Sigma-XL-2-1024-MS"] = { arch = "pixart", config = {
  num_layers = 28, num_attention_heads = 16, attention_head_dim = 72, in_channels = 4, out_channels = 8,
  patch_size = 2, caption_channels = 4096, max_sequence_length = 300 } }
models["Wan-AI/Wan2.1-T2V-1.3B"] = { arch = "wan", config = { model_type = "t2v", dim = 1536, ffn_dim = 8960,
  num_heads = 12, num_layers = 30, in_dim = 16, out_dim = 16, freq_dim = 256, text_dim = 4096 } }
models["Wan-AI/Wan2.1-T2V-14B"] = { arch = "wan", config = { model_type = "t2v", dim = 5120, ffn_dim = 13824,
  num_heads = 40, num_layers = 40, in_dim = 16, out_dim = 16, freq_dim = 256, text_dim = 4096 } }
models["Wan-AI/Wan2.1-I2V-14B-720P"] = { arch = "wan", config = { model_type = "i2v", dim = 5120, ffn_dim = 13824,
  num_heads = 40, num_layers = 40, in_dim = 36, out_dim = 16, freq_dim = 256, text_dim = 4096 } }
models["Wan-AI/Wan2.2-TI2V-5B"] = { arch = "wan", config = { model_type = "ti2v", dim = 3072, ffn_dim = 14336,
  num_heads = 24, num_layers = 30, in_dim = 48, out_dim = 48, freq_dim = 256, text_dim = 4096, vae_scale = 16 } }
models["Wan-AI/Wan2.2-T2V-A14B"] = { arch = "wan", config = { model_type = "t2v", dim = 5120, ffn_dim = 13824,
  num_heads = 40, num_layers = 40, in_dim = 16, out_dim = 16, freq_dim = 256, text_dim = 4096, experts = 2 } }
models["Wan-AI/Wan2.2-I2V-A14B"] = { arch = "wan", config = { model_type = "t2v", dim = 5120, ffn_dim = 13824,
  num_heads = 40, num_layers = 40, in_dim = 36, out_dim = 16, freq_dim = 256, text_dim = 4096, experts = 2 } }
models["hunyuanvideo-community/HunyuanVideo"] = { arch = "hunyuanvideo", config = {
  in_channels = 16, out_channels = 16, num_attention_heads = 24, attention_head_dim = 128, num_layers = 20,
  num_single_layers = 40, num_refiner_layers = 2, mlp_ratio = 4.0, patch_size = 2, patch_size_t = 1,
  guidance_embeds = true, text_embed_dim = 4096, pooled_projection_dim = 768 } }
models["THUDM/CogVideoX-2b"] = { arch = "cogvideox", config = { num_attention_heads = 30, attention_head_dim = 64,
  num_layers = 30, in_channels = 16, out_channels = 16, time_embed_dim = 512, text_embed_dim = 4096, patch_size = 2 } }
models["THUDM/CogVideoX-5b"] = { arch = "cogvideox", config = { num_attention_heads = 48, attention_head_dim = 64,
  num_layers = 42, in_channels = 16, out_channels = 16, time_embed_dim = 512, text_embed_dim = 4096, patch_size = 2 } }
models["THUDM/CogVideoX1.5-5B"] = { arch = "cogvideox", config = { num_attention_heads = 48, attention_head_dim = 64,
  num_layers = 42, in_channels = 16, out_channels = 16, time_embed_dim = 512, text_embed_dim = 4096, patch_size = 2,
  patch_size_t = 2 } }
-- ConsisID: a CogVideoX-5B-I2V transformer (32 input channels) with its identity modules.
models["BestWishYsh/ConsisID-preview"] = { arch = "cogvideox", config = { num_attention_heads = 48, attention_head_dim = 64,
  num_layers = 42, in_channels = 32, out_channels = 16, time_embed_dim = 512, text_embed_dim = 4096, patch_size = 2,
  is_train_face = true, cross_attn_interval = 2 } } -- gen4: identity modules + face helpers (architectures/cogvideox.lua)
models["Lightricks/LTX-Video"] = { arch = "ltx_video", config = { num_attention_heads = 32, attention_head_dim = 64,
  num_layers = 28, in_channels = 128, out_channels = 128, cross_attention_dim = 2048, caption_channels = 4096 } }
models["genmo/mochi-1-preview"] = { arch = "mochi", config = { num_layers = 48, num_attention_heads = 24,
  attention_head_dim = 128, pooled_projection_dim = 1536, in_channels = 12, text_embed_dim = 4096 } }
models["hpcai-tech/Open-Sora-v2"] = { arch = "opensora", config = { in_channels = 64, out_channels = 64,
  hidden_size = 3072, num_heads = 24, depth = 19, depth_single_blocks = 38, guidance_embed = false } }
-- Qwen-Image (transformer/config.json; text_encoder/config.json is Qwen2.5-VL-7B-Instruct's)
models["Qwen/Qwen-Image"] = { arch = "qwenimage", config = { transformer = {
  num_layers = 60, num_attention_heads = 24, attention_head_dim = 128, joint_attention_dim = 3584,
  in_channels = 64, out_channels = 16, patch_size = 2, guidance_embeds = false },
  text_encoder = { hidden_size = 3584, num_hidden_layers = 28, num_attention_heads = 28, num_key_value_heads = 4,
    intermediate_size = 18944, vocab_size = 152064 },
  vision_config = { depth = 32, hidden_size = 1280, intermediate_size = 3420, patch_size = 14, in_chans = 3,
    temporal_patch_size = 2, spatial_merge_size = 2, out_hidden_size = 3584 } } }
-- gen3: Hunyuan-DiT v1.0 (transformer/config.json; v1.2 sets use_style_cond_and_image_meta_size false)
models["Tencent-Hunyuan/HunyuanDiT-Diffusers"] = { arch = "hunyuandit", config = { transformer = {
  num_attention_heads = 16, attention_head_dim = 88, num_layers = 40, in_channels = 4, patch_size = 2,
  mlp_ratio = 4.3637, cross_attention_dim = 1024, cross_attention_dim_t5 = 2048, pooled_projection_dim = 1024,
  text_len = 77, text_len_t5 = 256, learn_sigma = true, use_style_cond_and_image_meta_size = true } } }
models["Tencent-Hunyuan/HunyuanDiT-v1.2-Diffusers"] = { arch = "hunyuandit", config = { transformer = {
  num_attention_heads = 16, attention_head_dim = 88, num_layers = 40, in_channels = 4, patch_size = 2,
  mlp_ratio = 4.3637, cross_attention_dim = 1024, cross_attention_dim_t5 = 2048, pooled_projection_dim = 1024,
  text_len = 77, text_len_t5 = 256, learn_sigma = true, use_style_cond_and_image_meta_size = false } } }

-- --- serve2: Llama 4, Qwen3-Next, Qwen2.5-VL, Llama 3.2 Vision, Mistral Small 3.1 (config.json
-- fields that change shapes; Hugging Face repos of the same names).
local L4_VISION = { hidden_size = 1408, image_size = 336, intermediate_size = 5632, num_attention_heads = 16,
  num_channels = 3, num_hidden_layers = 34, patch_size = 14, pixel_shuffle_ratio = 0.5,
  projector_input_dim = 4096, projector_output_dim = 4096, vision_output_dim = 4096,
  multi_modal_projector_bias = false, norm_eps = 1e-05, model_type = "llama4_vision_model" }
models["meta-llama/Llama-4-Scout-17B-16E-Instruct"] = { arch = "llama4", config = {
  architectures = { "Llama4ForConditionalGeneration" }, model_type = "llama4", tie_word_embeddings = false,
  text_config = { model_type = "llama4_text", attention_bias = false, attention_chunk_size = 8192, head_dim = 128,
    hidden_size = 5120, interleave_moe_layer_step = 1, intermediate_size = 8192, intermediate_size_mlp = 16384,
    max_position_embeddings = 10485760, num_attention_heads = 40, num_experts_per_tok = 1, num_hidden_layers = 48,
    num_key_value_heads = 8, num_local_experts = 16, rms_norm_eps = 1e-05, rope_theta = 500000.0,
    use_qk_norm = true, vocab_size = 202048 },
  vision_config = L4_VISION } }
models["meta-llama/Llama-4-Maverick-17B-128E-Instruct"] = { arch = "llama4", config = {
  architectures = { "Llama4ForConditionalGeneration" }, model_type = "llama4", tie_word_embeddings = false,
  text_config = { model_type = "llama4_text", attention_bias = false, attention_chunk_size = 8192, head_dim = 128,
    hidden_size = 5120, interleave_moe_layer_step = 2, intermediate_size = 8192, intermediate_size_mlp = 16384,
    max_position_embeddings = 1048576, num_attention_heads = 40, num_experts_per_tok = 1, num_hidden_layers = 48,
    num_key_value_heads = 8, num_local_experts = 128, rms_norm_eps = 1e-05, rope_theta = 500000.0,
    use_qk_norm = false, vocab_size = 202048 },
  vision_config = L4_VISION } }
models["Qwen/Qwen3-Next-80B-A3B-Instruct"] = { arch = "qwen3_next", config = {
  architectures = { "Qwen3NextForCausalLM" }, model_type = "qwen3_next", hidden_size = 2048, num_hidden_layers = 48,
  num_attention_heads = 16, num_key_value_heads = 2, head_dim = 256, vocab_size = 151936, intermediate_size = 5120,
  moe_intermediate_size = 512, shared_expert_intermediate_size = 512, num_experts = 512, num_experts_per_tok = 10,
  decoder_sparse_step = 1, mlp_only_layers = {}, norm_topk_prob = true, full_attention_interval = 4,
  linear_conv_kernel_dim = 4, linear_key_head_dim = 128, linear_value_head_dim = 128, linear_num_key_heads = 16,
  linear_num_value_heads = 32, max_position_embeddings = 262144, partial_rotary_factor = 0.25,
  rope_theta = 10000000, rms_norm_eps = 1e-06, tie_word_embeddings = false, attention_bias = false } }
-- Qwen3.5 family (architectures/qwen3_5.lua): config.json as vendored verbatim in
-- ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/Qwen--Qwen3.5-397B-A17B_config.json,
-- alibaba/InferSim hf_configs/qwen3.5-35B-A3B_config.json, and Qwen3.6-27B's in a published model
-- report (config.json + the checkpoint's tensor list, 27,781,427,952 parameters with MTP and vision).
-- layer_types are 3 linear_attention + 1 full_attention repeated (== full_attention_interval 4).
local function q35_layers(n)
  local lt = {}
  for i = 1, n do lt[i] = i % 4 == 0 and "full_attention" or "linear_attention" end
  return lt
end
local function q35_vision(out, mt)
  return { model_type = mt, depth = 27, hidden_act = "gelu_pytorch_tanh", hidden_size = 1152, in_channels = 3,
    intermediate_size = 4304, num_heads = 16, num_position_embeddings = 2304, out_hidden_size = out, patch_size = 16,
    spatial_merge_size = 2, temporal_patch_size = 2 }
end
models["Qwen/Qwen3.5-397B-A17B"] = { arch = "qwen3_5", config = {
  architectures = { "Qwen3_5MoeForConditionalGeneration" }, model_type = "qwen3_5_moe", tie_word_embeddings = false,
  text_config = { model_type = "qwen3_5_moe_text", attention_bias = false, attn_output_gate = true, head_dim = 256,
    hidden_size = 4096, num_hidden_layers = 60, num_attention_heads = 32, num_key_value_heads = 2, vocab_size = 248320,
    full_attention_interval = 4, layer_types = q35_layers(60), linear_conv_kernel_dim = 4, linear_key_head_dim = 128,
    linear_num_key_heads = 16, linear_num_value_heads = 64, linear_value_head_dim = 128,
    max_position_embeddings = 262144, mlp_only_layers = {}, moe_intermediate_size = 1024, mtp_num_hidden_layers = 1,
    num_experts = 512, num_experts_per_tok = 10, shared_expert_intermediate_size = 1024, rms_norm_eps = 1e-06 },
  vision_config = q35_vision(4096, "qwen3_5_moe") } }
models["Qwen/Qwen3.5-35B-A3B"] = { arch = "qwen3_5", config = {
  architectures = { "Qwen3_5MoeForConditionalGeneration" }, model_type = "qwen3_5_moe", tie_word_embeddings = false,
  text_config = { model_type = "qwen3_5_moe_text", attention_bias = false, attn_output_gate = true, head_dim = 256,
    hidden_size = 2048, num_hidden_layers = 40, num_attention_heads = 16, num_key_value_heads = 2, vocab_size = 248320,
    full_attention_interval = 4, layer_types = q35_layers(40), linear_conv_kernel_dim = 4, linear_key_head_dim = 128,
    linear_num_key_heads = 16, linear_num_value_heads = 32, linear_value_head_dim = 128,
    max_position_embeddings = 262144, mlp_only_layers = {}, moe_intermediate_size = 512, mtp_num_hidden_layers = 1,
    num_experts = 256, num_experts_per_tok = 8, shared_expert_intermediate_size = 512, rms_norm_eps = 1e-06,
    mamba_ssm_dtype = "float32", rope_parameters = { rope_type = "default", rope_theta = 10000000,
      partial_rotary_factor = 0.25, mrope_interleaved = true, mrope_section = { 11, 11, 10 } } },
  vision_config = q35_vision(2048, "qwen3_5_moe") } }
-- Qwen3.5-9B: hidden 4096, 16 heads / 4 KV heads of 256, FFN 12288 (a public shape contract,
-- "Qwen3.5-9B config constants": HIDDEN 4096, N_HEADS 16, N_KV_HEADS 4, D_K 256, INTERMEDIATE
-- 12288), 32 layers with full_attention_interval 4, DeltaNet 16 key / 32 value heads of 128, conv 4
-- and one MTP block (a public GGUF metadata reading of a Qwen3.5-9B fine-tune: qwen35, 33 blocks,
-- nextn_predict_layers 1, head_count_kv 4, key_length 256, ssm.time_step_rank 32, ssm.state_size
-- 128, ssm.group_count 16, ssm.inner_size 4096, ssm.conv_kernel 4). Checked against llama.cpp's
-- prints (HilbertRaum issue #318 session, b9849): KV 256.00 MiB for 8192 cells (8 layers x 4 x 256
-- x 2 x 2 B per cell) and RS 50.25 MiB a sequence (24 layers x (32 x 128 x 128 + 3 x 8192) x 4 B).
-- Untied (the 0.8B-4B tie their embeddings): assumed, no copy of config.json was found.
models["Qwen/Qwen3.5-9B"] = { arch = "qwen3_5", config = {
  architectures = { "Qwen3_5ForConditionalGeneration" }, model_type = "qwen3_5", tie_word_embeddings = false,
  text_config = { model_type = "qwen3_5_text", attention_bias = false, attn_output_gate = true, head_dim = 256,
    hidden_size = 4096, intermediate_size = 12288, num_hidden_layers = 32, num_attention_heads = 16,
    num_key_value_heads = 4, vocab_size = 248320, full_attention_interval = 4, layer_types = q35_layers(32),
    linear_conv_kernel_dim = 4, linear_key_head_dim = 128, linear_num_key_heads = 16, linear_num_value_heads = 32,
    linear_value_head_dim = 128, max_position_embeddings = 262144, mtp_num_hidden_layers = 1,
    output_gate_type = "swish", rms_norm_eps = 1e-06, mamba_ssm_dtype = "float32",
    rope_parameters = { rope_type = "default", rope_theta = 10000000, partial_rotary_factor = 0.25,
      mrope_interleaved = true, mrope_section = { 11, 11, 10 } } },
  vision_config = q35_vision(4096, "qwen3_5_vision") } }
models["Qwen/Qwen3.6-27B"] = { arch = "qwen3_5", config = {
  architectures = { "Qwen3_5ForConditionalGeneration" }, model_type = "qwen3_5", tie_word_embeddings = false,
  text_config = { model_type = "qwen3_5_text", attention_bias = false, attn_output_gate = true, head_dim = 256,
    hidden_size = 5120, intermediate_size = 17408, num_hidden_layers = 64, num_attention_heads = 24,
    num_key_value_heads = 4, vocab_size = 248320, full_attention_interval = 4, layer_types = q35_layers(64),
    linear_conv_kernel_dim = 4, linear_key_head_dim = 128, linear_num_key_heads = 16, linear_num_value_heads = 48,
    linear_value_head_dim = 128, max_position_embeddings = 262144, mtp_num_hidden_layers = 1,
    output_gate_type = "swish", rms_norm_eps = 1e-06, mamba_ssm_dtype = "float32",
    rope_parameters = { rope_type = "default", rope_theta = 10000000, partial_rotary_factor = 0.25,
      mrope_interleaved = true, mrope_section = { 11, 11, 10 } } },
  vision_config = q35_vision(5120, "qwen3_5_vision") } }
-- Qwen3-VL family (architectures/qwen3_vl.lua): the fields of the Qwen/Qwen3-VL-*-Instruct
-- config.json files (as public copies quote them: the 4B's verbatim in a kohya-ss/musubi-tuner
-- port, the 30B-A3B text_config in public Qwen3-VL-MoE config dataclasses, the 8B's
-- text and vision widths beside its model.safetensors.index.json total_size 17,534,247,392 in a
-- public loader test); the 2B, 32B and 235B-A22B fields could not be read from a copy of their
-- config.json and are confirmed by their exact published parameter totals below. Vision: the 2B/4B tower is 24 blocks of 1024 (intermediate 4096,
-- deepstack after blocks 5, 11, 17); the others 27 blocks of 1152 (4304; 8, 16, 24); all with
-- 16 px patches over 2 frames, 2x2 merge, 2304 position rows. Text: head_dim 128, vocabulary
-- 151,936, 262,144 positions, interleaved M-RoPE sections 24/20/20.
-- Parameter counts (tests/test_catalog.c test_qwen3_vl_presets) against the Hub API's
-- safetensors totals: 2B 2,127,532,032, 8B 8,767,123,696.
local function q3vl_vision(out, small)
  return { model_type = "qwen3_vl", depth = small and 24 or 27, hidden_act = "gelu_pytorch_tanh",
    hidden_size = small and 1024 or 1152, in_channels = 3, intermediate_size = small and 4096 or 4304,
    num_heads = 16, num_position_embeddings = 2304, out_hidden_size = out, patch_size = 16,
    spatial_merge_size = 2, temporal_patch_size = 2,
    deepstack_visual_indexes = small and { 5, 11, 17 } or { 8, 16, 24 } }
end
local function q3vl_text(mt, t)
  local c = { model_type = mt, attention_bias = false, head_dim = 128, hidden_act = "silu", vocab_size = 151936,
    max_position_embeddings = 262144, rms_norm_eps = 1e-06, rope_theta = 5000000,
    rope_scaling = { rope_type = "default", mrope_interleaved = true, mrope_section = { 24, 20, 20 } } }
  for k, v in pairs(t) do c[k] = v end
  return c
end
local function q3vl(h, I, L, nh, tied, small)
  return { arch = "qwen3_vl", config = {
    architectures = { "Qwen3VLForConditionalGeneration" }, model_type = "qwen3_vl", tie_word_embeddings = tied,
    text_config = q3vl_text("qwen3_vl_text", { hidden_size = h, intermediate_size = I, num_hidden_layers = L,
      num_attention_heads = nh, num_key_value_heads = 8, tie_word_embeddings = tied }),
    vision_config = q3vl_vision(h, small) } }
end
local function q3vl_moe(h, L, nh, EI)
  return { arch = "qwen3_vl", config = {
    architectures = { "Qwen3VLMoeForConditionalGeneration" }, model_type = "qwen3_vl_moe", tie_word_embeddings = false,
    text_config = q3vl_text("qwen3_vl_moe_text", { hidden_size = h, intermediate_size = 3 * h, num_hidden_layers = L,
      num_attention_heads = nh, num_key_value_heads = 4, moe_intermediate_size = EI, num_experts = 128,
      num_experts_per_tok = 8, decoder_sparse_step = 1, mlp_only_layers = {}, norm_topk_prob = true,
      tie_word_embeddings = false }),
    vision_config = q3vl_vision(h, false) } }
end
models["Qwen/Qwen3-VL-2B-Instruct"] = q3vl(2048, 6144, 28, 16, true, true)
models["Qwen/Qwen3-VL-4B-Instruct"] = q3vl(2560, 9728, 36, 32, true, true)
models["Qwen/Qwen3-VL-8B-Instruct"] = q3vl(4096, 12288, 36, 32, false, false)
models["Qwen/Qwen3-VL-32B-Instruct"] = q3vl(5120, 25600, 64, 64, false, false)
models["Qwen/Qwen3-VL-30B-A3B-Instruct"] = q3vl_moe(2048, 48, 32, 768)
models["Qwen/Qwen3-VL-235B-A22B-Instruct"] = q3vl_moe(4096, 94, 64, 1536)
models["Qwen/Qwen2.5-VL-72B-Instruct"] = { arch = "qwen2_5_vl", config = {
  architectures = { "Qwen2_5_VLForConditionalGeneration" }, model_type = "qwen2_5_vl", hidden_size = 8192,
  intermediate_size = 29568, num_hidden_layers = 80, num_attention_heads = 64, num_key_value_heads = 8,
  vocab_size = 152064, max_position_embeddings = 128000, max_window_layers = 80, rms_norm_eps = 1e-06,
  rope_theta = 1000000.0, sliding_window = 32768, use_sliding_window = false, tie_word_embeddings = false,
  rope_scaling = { type = "mrope", mrope_section = { 16, 24, 24 } },
  vision_config = { depth = 32, hidden_act = "silu", hidden_size = 1280, intermediate_size = 3456, num_heads = 16,
    in_chans = 3, out_hidden_size = 8192, patch_size = 14, spatial_merge_size = 2, spatial_patch_size = 14,
    window_size = 112, fullatt_block_indexes = { 7, 15, 23, 31 }, tokens_per_second = 2, temporal_patch_size = 2 } } }
models["Qwen/Qwen2.5-VL-7B-Instruct"] = { arch = "qwen2_5_vl", config = {
  architectures = { "Qwen2_5_VLForConditionalGeneration" }, model_type = "qwen2_5_vl", hidden_size = 3584,
  intermediate_size = 18944, num_hidden_layers = 28, num_attention_heads = 28, num_key_value_heads = 4,
  vocab_size = 152064, max_position_embeddings = 128000, max_window_layers = 28, rms_norm_eps = 1e-06,
  rope_theta = 1000000.0, sliding_window = 32768, use_sliding_window = false, tie_word_embeddings = false,
  rope_scaling = { type = "mrope", mrope_section = { 16, 24, 24 } },
  vision_config = { depth = 32, hidden_act = "silu", hidden_size = 1280, intermediate_size = 3420, num_heads = 16,
    in_chans = 3, out_hidden_size = 3584, patch_size = 14, spatial_merge_size = 2, spatial_patch_size = 14,
    window_size = 112, fullatt_block_indexes = { 7, 15, 23, 31 }, tokens_per_second = 2, temporal_patch_size = 2 } } }
-- vlmm25: Qwen2.5-VL-3B-Instruct (config.json of the Hugging Face repo of that name: the 7B's vision tower
-- with out_hidden_size 2048; 36 layers, 2 KV heads, tied embeddings)
models["Qwen/Qwen2.5-VL-3B-Instruct"] = { arch = "qwen2_5_vl", config = {
  architectures = { "Qwen2_5_VLForConditionalGeneration" }, model_type = "qwen2_5_vl", hidden_size = 2048,
  intermediate_size = 11008, num_hidden_layers = 36, num_attention_heads = 16, num_key_value_heads = 2,
  vocab_size = 151936, max_position_embeddings = 128000, max_window_layers = 70, rms_norm_eps = 1e-06,
  rope_theta = 1000000.0, sliding_window = 32768, use_sliding_window = false, tie_word_embeddings = true,
  rope_scaling = { type = "mrope", mrope_section = { 16, 24, 24 } },
  vision_config = { depth = 32, hidden_act = "silu", hidden_size = 1280, intermediate_size = 3420, num_heads = 16,
    in_chans = 3, out_hidden_size = 2048, patch_size = 14, spatial_merge_size = 2, spatial_patch_size = 14,
    window_size = 112, fullatt_block_indexes = { 7, 15, 23, 31 }, tokens_per_second = 2, temporal_patch_size = 2 } } }
models["meta-llama/Llama-3.2-11B-Vision"] = { arch = "mllama", config = {
  architectures = { "MllamaForConditionalGeneration" }, model_type = "mllama",
  text_config = { model_type = "mllama_text_model", hidden_size = 4096, intermediate_size = 14336,
    num_hidden_layers = 40, num_attention_heads = 32, num_key_value_heads = 8, vocab_size = 128256,
    cross_attention_layers = { 3, 8, 13, 18, 23, 28, 33, 38 }, max_position_embeddings = 131072,
    rms_norm_eps = 1e-05, rope_theta = 500000.0, tie_word_embeddings = false },
  vision_config = { model_type = "mllama_vision_model", hidden_size = 1280, intermediate_size = 5120,
    num_hidden_layers = 32, num_global_layers = 8, attention_heads = 16, image_size = 560, patch_size = 14,
    num_channels = 3, max_num_tiles = 4, vision_output_dim = 7680, norm_eps = 1e-05,
    intermediate_layers_indices = { 3, 7, 15, 23, 30 },
    supported_aspect_ratios = { { 1, 1 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 1 }, { 2, 2 }, { 3, 1 }, { 4, 1 } } } } }
models["mistralai/Mistral-Small-3.1-24B-Instruct-2503"] = { arch = "mistral3", config = {
  architectures = { "Mistral3ForConditionalGeneration" }, model_type = "mistral3", image_token_index = 10,
  multimodal_projector_bias = false, projector_hidden_act = "gelu", spatial_merge_size = 2, vision_feature_layer = -1,
  text_config = { model_type = "mistral", hidden_size = 5120, intermediate_size = 32768, num_hidden_layers = 40,
    num_attention_heads = 32, num_key_value_heads = 8, head_dim = 128, vocab_size = 131072,
    max_position_embeddings = 131072, rms_norm_eps = 1e-05, rope_theta = 1000000000.0, tie_word_embeddings = false },
  vision_config = { model_type = "pixtral", hidden_size = 1024, intermediate_size = 4096, num_hidden_layers = 24,
    num_attention_heads = 16, head_dim = 64, image_size = 1540, patch_size = 14, num_channels = 3,
    rope_theta = 10000.0, hidden_act = "silu" } } }
-- LLaVA (architectures/llava.lua): the llava-hf config.json files as published (transformers
-- 4.36 / 4.39 conversions): text_config gives only what differs from LlamaConfig / MistralConfig
-- (the script fills the class defaults); JSON null fields (sliding_window) left out.
local LLAVA_CLIP = { model_type = "clip_vision_model", hidden_size = 1024, image_size = 336, intermediate_size = 4096,
  num_attention_heads = 16, num_hidden_layers = 24, patch_size = 14, projection_dim = 768, vocab_size = 32000 }
models["llava-hf/llava-1.5-7b-hf"] = { arch = "llava", config = {
  architectures = { "LlavaForConditionalGeneration" }, model_type = "llava", ignore_index = -100,
  image_token_index = 32000, pad_token_id = 32001, projector_hidden_act = "gelu", tie_word_embeddings = false,
  text_config = { architectures = { "LlamaForCausalLM" }, max_position_embeddings = 4096, model_type = "llama",
    rms_norm_eps = 1e-05, vocab_size = 32064 },
  vision_config = LLAVA_CLIP, vision_feature_layer = -2, vision_feature_select_strategy = "default",
  vocab_size = 32064 } }
models["llava-hf/llava-v1.6-mistral-7b-hf"] = { arch = "llava_next", config = {
  architectures = { "LlavaNextForConditionalGeneration" }, model_type = "llava_next", ignore_index = -100,
  image_grid_pinpoints = { { 336, 672 }, { 672, 336 }, { 672, 672 }, { 1008, 336 }, { 336, 1008 } },
  image_token_index = 32000, projector_hidden_act = "gelu", use_image_newline_parameter = true,
  text_config = { architectures = { "MistralForCausalLM" }, intermediate_size = 14336, max_position_embeddings = 32768,
    model_type = "mistral", num_key_value_heads = 8, rms_norm_eps = 1e-05, rope_theta = 1000000.0, vocab_size = 32064 },
  vision_config = LLAVA_CLIP, vision_feature_layer = -2, vision_feature_select_strategy = "default",
  vocab_size = 32064 } }
-- LLaVA-OneVision-Qwen2-7B (architectures/llava.lua, llava_onevision): SigLIP-so400m-patch14-384
-- with 26 layers and no head, Qwen2-7B-Instruct's text model with its vocabulary grown by <image>
-- and <video> and padded to a multiple of 64 (152,064 + 2 -> 152,128 rows, embedding and lm_head),
-- the 36 pinpoints 384..2304 px, anyres_max_9: what transformers' convert_llava_onevision_weights_to_hf.py
-- writes for lmms-lab/llava-onevision-qwen2-7b-ov.
models["llava-hf/llava-onevision-qwen2-7b-ov-hf"] = { arch = "llava_onevision", config = {
  architectures = { "LlavaOnevisionForConditionalGeneration" }, model_type = "llava_onevision",
  image_token_index = 151646, video_token_index = 151647, projector_hidden_act = "gelu",
  use_image_newline_parameter = true, tie_word_embeddings = false, vision_aspect_ratio = "anyres_max_9",
  vision_feature_layer = -1, vision_feature_select_strategy = "full",
  image_grid_pinpoints = { { 384, 384 }, { 384, 768 }, { 384, 1152 }, { 384, 1536 }, { 384, 1920 }, { 384, 2304 }, { 768, 384 }, { 768, 768 }, { 768, 1152 }, { 768, 1536 }, { 768, 1920 }, { 768, 2304 }, { 1152, 384 }, { 1152, 768 }, { 1152, 1152 }, { 1152, 1536 }, { 1152, 1920 }, { 1152, 2304 }, { 1536, 384 }, { 1536, 768 }, { 1536, 1152 }, { 1536, 1536 }, { 1536, 1920 }, { 1536, 2304 }, { 1920, 384 }, { 1920, 768 }, { 1920, 1152 }, { 1920, 1536 }, { 1920, 1920 }, { 1920, 2304 }, { 2304, 384 }, { 2304, 768 }, { 2304, 1152 }, { 2304, 1536 }, { 2304, 1920 }, { 2304, 2304 } },
  text_config = { architectures = { "Qwen2ForCausalLM" }, model_type = "qwen2", hidden_size = 3584,
    intermediate_size = 18944, num_hidden_layers = 28, num_attention_heads = 28, num_key_value_heads = 4,
    vocab_size = 152128, max_position_embeddings = 32768, rms_norm_eps = 1e-06, rope_theta = 1000000.0,
    use_sliding_window = false, tie_word_embeddings = false },
  vision_config = { model_type = "siglip_vision_model", hidden_size = 1152, intermediate_size = 4304,
    num_hidden_layers = 26, num_attention_heads = 16, image_size = 384, patch_size = 14, num_channels = 3,
    layer_norm_eps = 1e-06, vision_use_head = false } } }
-- InternVL3-8B in transformers' format (architectures/internvl.lua): InternViT-300M-448px-V2.5
-- (the vision_config transformers' InternVL conversion writes for the 300M tower: 24 layers of
-- 1024, biased attention, LayerNorm, mean pooling) and Qwen2.5-7B's text model with InternVL's
-- 151,674-token vocabulary (llm_config of OpenGVLab/InternVL3-8B; the -hf config.json as
-- vllm-project/vllm#17634 quotes it: downsample_ratio 0.5, image_seq_length 256, sliding_window null).
models["OpenGVLab/InternVL3-8B-hf"] = { arch = "internvl", config = {
  architectures = { "InternVLForConditionalGeneration" }, model_type = "internvl", downsample_ratio = 0.5,
  image_seq_length = 256, image_token_id = 151667, projector_hidden_act = "gelu", vision_feature_layer = -1,
  vision_feature_select_strategy = "default",
  text_config = { architectures = { "Qwen2ForCausalLM" }, model_type = "qwen2", hidden_size = 3584,
    intermediate_size = 18944, num_hidden_layers = 28, num_attention_heads = 28, num_key_value_heads = 4,
    vocab_size = 151674, max_position_embeddings = 32768, rms_norm_eps = 1e-06, rope_theta = 1000000.0,
    use_sliding_window = false, tie_word_embeddings = false },
  vision_config = { model_type = "internvl_vision", hidden_size = 1024, intermediate_size = 4096, num_hidden_layers = 24,
    num_attention_heads = 16, image_size = { 448, 448 }, patch_size = { 14, 14 }, num_channels = 3,
    attention_bias = true, norm_type = "layer_norm", layer_norm_eps = 1e-06, layer_scale_init_value = 0.1,
    use_absolute_position_embeddings = true, use_mask_token = false, use_mean_pooling = true, use_qk_norm = false,
    hidden_act = "gelu" } } }
-- InternVL3.5-8B in transformers' format (architectures/internvl.lua): the same InternViT-300M tower
-- and pixel-shuffle projector over Qwen3-8B's text model (q/k RMSNorms, head_dim 128, 151,936-token
-- vocabulary, untied; InternVL3.5's llm_config is Qwen3-8B's config). The -hf conversion writes the
-- tower's vision_config as for InternVL3-8B-hf.
models["OpenGVLab/InternVL3_5-8B-HF"] = { arch = "internvl", config = {
  architectures = { "InternVLForConditionalGeneration" }, model_type = "internvl", downsample_ratio = 0.5,
  image_seq_length = 256, projector_hidden_act = "gelu", vision_feature_layer = -1,
  vision_feature_select_strategy = "default",
  text_config = { architectures = { "Qwen3ForCausalLM" }, model_type = "qwen3", hidden_size = 4096,
    intermediate_size = 12288, num_hidden_layers = 36, num_attention_heads = 32, num_key_value_heads = 8,
    head_dim = 128, vocab_size = 151936, max_position_embeddings = 40960, rms_norm_eps = 1e-06,
    rope_theta = 1000000, attention_bias = false, use_sliding_window = false, tie_word_embeddings = false },
  vision_config = models["OpenGVLab/InternVL3-8B-hf"].config.vision_config } }
-- InternVL3.5-1B in transformers' format: the same tower and projector over Qwen3-0.6B's shapes with an
-- untied lm_head (InternVL3.5's language model unties it: the checkpoint's 1,060,897,792 parameters
-- hold both matrices; tied they would be 905,315,328).
models["OpenGVLab/InternVL3_5-1B-HF"] = { arch = "internvl", config = {
  architectures = { "InternVLForConditionalGeneration" }, model_type = "internvl", downsample_ratio = 0.5,
  image_seq_length = 256, projector_hidden_act = "gelu", vision_feature_layer = -1,
  vision_feature_select_strategy = "default",
  text_config = { architectures = { "Qwen3ForCausalLM" }, model_type = "qwen3", hidden_size = 1024,
    intermediate_size = 3072, num_hidden_layers = 28, num_attention_heads = 16, num_key_value_heads = 8,
    head_dim = 128, vocab_size = 151936, max_position_embeddings = 40960, rms_norm_eps = 1e-06,
    rope_theta = 1000000, attention_bias = false, use_sliding_window = false, tie_word_embeddings = false },
  vision_config = models["OpenGVLab/InternVL3-8B-hf"].config.vision_config } }
-- SmolVLM-256M (architectures/idefics3.lua; Idefics3ForConditionalGeneration): SmolLM2-135M's
-- Llama shapes with a 49,280-token vocabulary and an untied lm_head, a SigLIP-B/16 tower at 512 px,
-- scale_factor 4 (64 tokens a 512 px tile); the shapes HuggingFaceTB/SmolVLM-256M-Instruct's
-- config.json gives (SmolDocling-256M-preview has the same).
models["HuggingFaceTB/SmolVLM-256M-Instruct"] = { arch = "idefics3", config = {
  architectures = { "Idefics3ForConditionalGeneration" }, model_type = "idefics3", image_token_id = 49190,
  scale_factor = 4, tie_word_embeddings = false, vocab_size = 49280,
  text_config = { architectures = { "LlamaForCausalLM" }, model_type = "llama", hidden_size = 576,
    intermediate_size = 1536, num_hidden_layers = 30, num_attention_heads = 9, num_key_value_heads = 3, head_dim = 64,
    vocab_size = 49280, max_position_embeddings = 8192, rms_norm_eps = 1e-05, rope_theta = 100000.0,
    tie_word_embeddings = false },
  vision_config = { model_type = "idefics3_vision", hidden_size = 768, intermediate_size = 3072, num_hidden_layers = 12,
    num_attention_heads = 12, image_size = 512, patch_size = 16, num_channels = 3, layer_norm_eps = 1e-06 } } }
-- GLM-4.6V-Flash (architectures/glm4v.lua; Glm4vForConditionalGeneration): GLM-4.1V-9B's shapes
-- (transformers' Glm4vTextConfig / Glm4vVisionConfig defaults: GLM-4-9B-0414's decoder, a 24-block
-- 1536-wide tower merging into 4096) with the 128K context of its card; M-RoPE over half of each
-- 128-wide head (mrope_section 8 + 12 + 12 = 32 frequency pairs).
models["zai-org/GLM-4.6V-Flash"] = { arch = "glm4v", config = {
  architectures = { "Glm4vForConditionalGeneration" }, model_type = "glm4v", image_token_id = 151363,
  text_config = { model_type = "glm4v_text", vocab_size = 151552, hidden_size = 4096, intermediate_size = 13696,
    num_hidden_layers = 40, num_attention_heads = 32, num_key_value_heads = 2, max_position_embeddings = 131072,
    partial_rotary_factor = 0.5, rms_norm_eps = 1e-05, attention_bias = true, tie_word_embeddings = false,
    rope_scaling = { rope_type = "default", mrope_section = { 8, 12, 12 } } },
  vision_config = { model_type = "glm4v", depth = 24, hidden_size = 1536, intermediate_size = 13696,
    out_hidden_size = 4096, num_heads = 12, image_size = 336, patch_size = 14, in_channels = 3,
    spatial_merge_size = 2, temporal_patch_size = 2, attention_bias = false, rms_norm_eps = 1e-05,
    hidden_act = "silu" } } }
-- GLM-4.5V (architectures/glm4v.lua, model_type glm4v_moe; Glm4vMoeForConditionalGeneration):
-- GLM-4.5-Air's MoE decoder (46 layers, the first dense, 128 experts of 1408 and a shared one,
-- 8 per token, head_dim 128, q/k/v biased, no q/k norm) with a 64K context and the GLM-4.1V tower
-- whose merger is 10944 wide; the config.json fields as a public dump of the checkpoint's
-- Glm4vMoeConfig prints them (M-RoPE sections 8 + 12 + 12 over half of each head).
models["zai-org/GLM-4.5V"] = { arch = "glm4v_moe", config = {
  architectures = { "Glm4vMoeForConditionalGeneration" }, model_type = "glm4v_moe", image_token_id = 151363,
  image_start_token_id = 151339, image_end_token_id = 151340, video_token_id = 151364, tie_word_embeddings = false,
  text_config = { model_type = "glm4v_moe_text", vocab_size = 151552, hidden_size = 4096, intermediate_size = 10944,
    num_hidden_layers = 46, num_attention_heads = 96, num_key_value_heads = 8, head_dim = 128,
    max_position_embeddings = 65536, partial_rotary_factor = 0.5, rms_norm_eps = 1e-05, attention_bias = true,
    moe_intermediate_size = 1408, n_routed_experts = 128, n_shared_experts = 1, num_experts_per_tok = 8,
    first_k_dense_replace = 1, n_group = 1, topk_group = 1, norm_topk_prob = true, routed_scaling_factor = 1.0,
    use_qk_norm = false, tie_word_embeddings = false,
    rope_scaling = { rope_type = "default", mrope_section = { 8, 12, 12 } } },
  vision_config = { model_type = "glm4v_moe", depth = 24, hidden_size = 1536, intermediate_size = 10944,
    out_hidden_size = 4096, num_heads = 12, image_size = 336, patch_size = 14, in_channels = 3,
    spatial_merge_size = 2, temporal_patch_size = 2, attention_bias = false, rms_norm_eps = 1e-05,
    hidden_act = "silu" } } }
-- FLUX.2 [dev] (architectures/flux2.lua): transformer/config.json = diffusers
-- scripts/convert_flux2_to_diffusers.py get_flux2_transformer_config("flux2-dev") (guidance_embeds
-- absent there and in the repo's config: the class default, true); text_encoder is
-- Mistral-Small-3.2-24B-Instruct-2506's config (the convert script's text_encoder_id), an alias of
-- the Mistral Small 3.1 preset above; vae = AutoencoderKLFlux2's defaults (32 latent channels).
models["black-forest-labs/FLUX.2-dev"] = { arch = "flux2", config = {
  transformer = { patch_size = 1, in_channels = 128, num_layers = 8, num_single_layers = 48, attention_head_dim = 128,
    num_attention_heads = 48, joint_attention_dim = 15360, timestep_guidance_channels = 256, mlp_ratio = 3.0,
    guidance_embeds = true },
  text_encoder = models["mistralai/Mistral-Small-3.1-24B-Instruct-2503"].config,
  vae = { block_out_channels = { 128, 256, 512, 512 }, layers_per_block = 2, latent_channels = 32, use_quant_conv = true } } }

-- Z-Image-Turbo (architectures/zimage.lua): transformer/config.json as public copies of the Hub
-- file quote it; text_encoder is Qwen3-4B (model_index.json: Qwen3Model); vae is FLUX.1's.
models["Tongyi-MAI/Z-Image-Turbo"] = { arch = "zimage", config = {
  transformer = { all_patch_size = { 2 }, all_f_patch_size = { 1 }, in_channels = 16, dim = 3840, n_layers = 30,
    n_refiner_layers = 2, n_heads = 30, n_kv_heads = 30, norm_eps = 1e-05, qk_norm = true, cap_feat_dim = 2560,
    rope_theta = 256.0, t_scale = 1000.0, axes_dims = { 32, 48, 48 }, axes_lens = { 1536, 512, 512 } },
  text_encoder = models["Qwen/Qwen3-4B"].config } }
-- SANA (architectures/sana.lua): transformer/config.json of Efficient-Large-Model/Sana_1600M_1024px_diffusers
-- and Sana_600M_1024px_diffusers (their values are the convert script's, diffusers
-- scripts/convert_sana_to_diffusers.py: 1600M = 70 heads x 32, 20 layers, cross 20 x 112; 600M = 36 x 32,
-- 28 layers, cross 16 x 72); text_encoder/config.json is google/gemma-2-2b-it's (loaded as Gemma2Model).
local GEMMA2_2B = {
    architectures = { "Gemma2Model" }, attention_bias = false, attention_dropout = 0.0,
    attn_logit_softcapping = 50.0, bos_token_id = 2, cache_implementation = "hybrid",
    eos_token_id = 1, final_logit_softcapping = 30.0, head_dim = 256,
    hidden_act = "gelu_pytorch_tanh", hidden_activation = "gelu_pytorch_tanh", hidden_size = 2304,
    initializer_range = 0.02, intermediate_size = 9216, max_position_embeddings = 8192,
    model_type = "gemma2", num_attention_heads = 8, num_hidden_layers = 26,
    num_key_value_heads = 4, pad_token_id = 0, query_pre_attn_scalar = 256, rms_norm_eps = 1e-06,
    rope_theta = 10000.0, sliding_window = 4096, torch_dtype = "bfloat16", vocab_size = 256000,
}
models["Efficient-Large-Model/Sana_1600M_1024px_diffusers"] = { arch = "sana", config = {
  transformer = { in_channels = 32, out_channels = 32, num_attention_heads = 70, attention_head_dim = 32, num_layers = 20,
    num_cross_attention_heads = 20, cross_attention_head_dim = 112, cross_attention_dim = 2240, caption_channels = 2304,
    mlp_ratio = 2.5, attention_bias = false, sample_size = 32, patch_size = 1, norm_elementwise_affine = false,
    norm_eps = 1e-06 },
  text_encoder = GEMMA2_2B } }
models["Efficient-Large-Model/Sana_600M_1024px_diffusers"] = { arch = "sana", config = {
  transformer = { in_channels = 32, out_channels = 32, num_attention_heads = 36, attention_head_dim = 32, num_layers = 28,
    num_cross_attention_heads = 16, cross_attention_head_dim = 72, cross_attention_dim = 1152, caption_channels = 2304,
    mlp_ratio = 2.5, attention_bias = false, sample_size = 32, patch_size = 1, norm_elementwise_affine = false,
    norm_eps = 1e-06 },
  text_encoder = GEMMA2_2B } }
-- Chroma1-HD (architectures/chroma.lua): transformer/config.json of lodestones/Chroma1-HD (the
-- ChromaTransformer2DModel defaults); text_encoder is T5-v1.1-XXL, vae FLUX.1's.
models["lodestones/Chroma1-HD"] = { arch = "chroma", config = {
  transformer = { patch_size = 1, in_channels = 64, num_layers = 19, num_single_layers = 38, attention_head_dim = 128,
    num_attention_heads = 24, joint_attention_dim = 4096, axes_dims_rope = { 16, 56, 56 }, approximator_num_channels = 64,
    approximator_hidden_dim = 5120, approximator_layers = 5 } } }
-- Lumina-Image 2.0 (architectures/lumina2.lua): transformer/config.json of Alpha-VLLM/Lumina-Image-2.0
-- (the Lumina2Transformer2DModel defaults with cap_feat_dim 2304); text_encoder is gemma-2-2b's
-- config (Gemma2Model, as SANA's); vae FLUX.1's.
models["Alpha-VLLM/Lumina-Image-2.0"] = { arch = "lumina2", config = {
  transformer = { sample_size = 128, patch_size = 2, in_channels = 16, hidden_size = 2304, num_layers = 26,
    num_refiner_layers = 2, num_attention_heads = 24, num_kv_heads = 8, multiple_of = 256, norm_eps = 1e-05,
    scaling_factor = 1.0, axes_dim_rope = { 32, 32, 32 }, axes_lens = { 300, 512, 512 }, cap_feat_dim = 2304 },
  text_encoder = GEMMA2_2B } }
-- HunyuanImage-2.1 (architectures/hunyuanimage.lua): transformer/config.json and vae/config.json as
-- diffusers' scripts/convert_hunyuan_image_to_diffusers.py writes them for "hunyuanimage2.1";
-- text_encoder is Qwen2.5-VL-7B-Instruct's config; the guider's guidance_scale 3.5.
models["hunyuanvideo-community/HunyuanImage-2.1-Diffusers"] = { arch = "hunyuanimage", config = {
  transformer = { in_channels = 64, out_channels = 64, num_attention_heads = 28, attention_head_dim = 128, num_layers = 20,
    num_single_layers = 40, num_refiner_layers = 2, patch_size = { 1, 1 }, qk_norm = "rms_norm", guidance_embeds = false,
    text_embed_dim = 3584, text_embed_2_dim = 1472, rope_theta = 256.0, rope_axes_dim = { 64, 64 } },
  vae = { in_channels = 3, out_channels = 3, latent_channels = 64, block_out_channels = { 128, 256, 512, 512, 1024, 1024 },
    layers_per_block = 2, spatial_compression_ratio = 32, sample_size = 384, scaling_factor = 0.75289 },
  text_encoder = models["Qwen/Qwen2.5-VL-7B-Instruct"].config, guider = { guidance_scale = 3.5 } } }
-- HiDream-I1 (architectures/hidream.lua): transformer/config.json as diffusers'
-- scripts/convert_hidream_to_diffusers.py writes it (the Hub's transformer/config.json: the same
-- transformer for Full, Dev and Fast); Dev and Fast are guidance-distilled (their model cards run
-- guidance_scale 0.0). text_encoder_4 is meta-llama/Llama-3.1-8B-Instruct, loaded separately
-- (the shapes of the Llama-3.1-8B preset).
local HIDREAM = { patch_size = 2, in_channels = 16, out_channels = 16, num_layers = 16, num_single_layers = 32,
  attention_head_dim = 128, num_attention_heads = 20, caption_channels = { 4096, 4096 }, text_emb_dim = 2048,
  num_routed_experts = 4, num_activated_experts = 2, axes_dims_rope = { 64, 32, 32 }, max_resolution = { 128, 128 } }
models["HiDream-ai/HiDream-I1-Full"] = { arch = "hidream", config = { transformer = HIDREAM, text_encoder_4 = models["meta-llama/Llama-3.1-8B"].config } }
models["HiDream-ai/HiDream-I1-Dev"] = { arch = "hidream", config = { transformer = HIDREAM, text_encoder_4 = models["meta-llama/Llama-3.1-8B"].config, guidance_distilled = true } }
models["HiDream-ai/HiDream-I1-Fast"] = { arch = "hidream", config = { transformer = HIDREAM, text_encoder_4 = models["meta-llama/Llama-3.1-8B"].config, guidance_distilled = true } }
-- HunyuanVideo-1.5 480p text-to-video, diffusers layout (architectures/hunyuanvideo15.lua):
-- transformer/config.json as public copies quote it (= the class defaults, target_size 640);
-- vae/config.json likewise (AutoencoderKLHunyuanVideo15 defaults).
models["hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-480p_t2v"] = { arch = "hunyuanvideo15", config = {
  transformer = { in_channels = 65, out_channels = 32, num_attention_heads = 16, attention_head_dim = 128, num_layers = 54,
    num_refiner_layers = 2, mlp_ratio = 4.0, patch_size = 1, patch_size_t = 1, qk_norm = "rms_norm", text_embed_dim = 3584,
    text_embed_2_dim = 1472, image_embed_dim = 1152, rope_theta = 256.0, rope_axes_dim = { 16, 56, 56 }, target_size = 640,
    task_type = "t2v", use_meanflow = false },
  vae = { block_out_channels = { 128, 256, 512, 1024, 1024 }, latent_channels = 32, layers_per_block = 2,
    spatial_compression_ratio = 16, temporal_compression_ratio = 4 } } }
-- the 720p text-to-video checkpoint: the same shapes, target_size 960 (convert script
-- TRANSFORMER_CONFIGS "720p_t2v"); the CFG-distilled 480p one: guider guidance_scale 1.0
-- (GUIDANCE_CONFIGS "480p_t2v_distilled"), which turns ClassifierFreeGuidance off
local HV15 = models["hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-480p_t2v"].config
local function hv15(target, guidance)
  local tc = {}
  for k, v in pairs(HV15.transformer) do tc[k] = v end
  tc.target_size = target
  return { arch = "hunyuanvideo15", config = { transformer = tc, vae = HV15.vae, guider = { guidance_scale = guidance } } }
end
models["hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-720p_t2v"] = hv15(960, 6.0)
models["hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-480p_t2v_distilled"] = hv15(640, 1.0)
-- GLM-4.5 family (architectures/glm4_moe.lua). config.json fields as vendored in public
-- fixtures of the official configs (the 355B one with every field below; GLM-4.5-Air's in
-- llm-compressor-style convert scripts) and matching THUDM/slime's Megatron arguments
-- (scripts/models/glm4.5-355B-A32B.sh, glm4.5-106B-A12B.sh) and Megatron-Bridge's GLM 4.5 page
-- (131,072-token context for both; GLM-4.5 has q/k norm, Air has none). Air's
-- num_nextn_predict_layers = 1: its GGUF conversion has 47 blocks for 46 layers (llama.cpp
-- PR #14939). Air's rope_theta is left out: the copies disagree and no shape depends on it.
models["zai-org/GLM-4.5"] = { arch = "glm4_moe", config = {
    architectures = { "Glm4MoeForCausalLM" }, attention_bias = true,
    eos_token_id = { 151329, 151336, 151338 }, first_k_dense_replace = 3, head_dim = 128,
    hidden_act = "silu", hidden_size = 5120, intermediate_size = 12288,
    max_position_embeddings = 131072, model_type = "glm4_moe", moe_intermediate_size = 1536,
    n_group = 1, n_routed_experts = 160, n_shared_experts = 1, norm_topk_prob = true,
    num_attention_heads = 96, num_experts_per_tok = 8, num_hidden_layers = 92,
    num_key_value_heads = 8, num_nextn_predict_layers = 1, partial_rotary_factor = 0.5,
    rms_norm_eps = 1e-05, rope_theta = 1000000, routed_scaling_factor = 2.5,
    tie_word_embeddings = false, topk_group = 1, use_qk_norm = true, vocab_size = 151552,
} }
models["zai-org/GLM-4.5-Air"] = { arch = "glm4_moe", config = {
    architectures = { "Glm4MoeForCausalLM" }, attention_bias = true,
    eos_token_id = { 151329, 151336, 151338 }, first_k_dense_replace = 1, head_dim = 128,
    hidden_act = "silu", hidden_size = 4096, intermediate_size = 10944,
    max_position_embeddings = 131072, model_type = "glm4_moe", moe_intermediate_size = 1408,
    n_group = 1, n_routed_experts = 128, n_shared_experts = 1, norm_topk_prob = true,
    num_attention_heads = 96, num_experts_per_tok = 8, num_hidden_layers = 46,
    num_key_value_heads = 8, num_nextn_predict_layers = 1, partial_rotary_factor = 0.5,
    rms_norm_eps = 1e-05, routed_scaling_factor = 1.0, tie_word_embeddings = false,
    topk_group = 1, use_qk_norm = false, vocab_size = 151552,
} }

-- Kimi-K2 (architectures/deepseek.lua: model_type kimi_k2 is DeepSeek-V3's shape). Shape fields
-- as NVIDIA's aiconfigurator vendors the official configs (src/aiconfigurator/model_configs/
-- moonshotai--Kimi-K2-Instruct_config.json, ...Kimi-K2-Thinking_config.json: identical but for
-- max_position_embeddings 131072 / 262144); topk_method and num_nextn_predict_layers as the
-- official config.json has them (vendored Kimi-K2 configs in public test fixtures: noaux_tc
-- sigmoid routing with e_score_correction_bias, no MTP layer). Kimi-K2-Instruct ships
-- DeepSeek-V3's block FP8 (e4m3, 128 x 128 weight_scale_inv; KTransformers' Kimi-K2 guide
-- converts it with DeepSeek-V3's fp8_cast_bf16.py).
models["moonshotai/Kimi-K2-Instruct"] = { arch = "kimi_k2", config = {
    architectures = { "DeepseekV3ForCausalLM" }, first_k_dense_replace = 1, hidden_size = 7168,
    intermediate_size = 18432, kv_lora_rank = 512, max_position_embeddings = 131072,
    model_type = "kimi_k2", moe_intermediate_size = 2048, moe_layer_freq = 1, n_routed_experts = 384,
    n_shared_experts = 1, num_attention_heads = 64, num_experts_per_tok = 8, num_hidden_layers = 61,
    num_key_value_heads = 64, num_nextn_predict_layers = 0, q_lora_rank = 1536, qk_nope_head_dim = 128,
    qk_rope_head_dim = 64, routed_scaling_factor = 2.827, scoring_func = "sigmoid",
    quantization_config = { quant_method = "fp8", fmt = "e4m3", activation_scheme = "dynamic", weight_block_size = { 128, 128 } },
    tie_word_embeddings = false, topk_method = "noaux_tc", torch_dtype = "bfloat16", v_head_dim = 128,
    vocab_size = 163840,
} }
-- MiniMax-M2 (architectures/minimax_m2.lua): its config.json as vendored byte for byte in public
-- loaders' tests (attn_type_list: 62 ones, left out: all full attention), with the MTP fields
-- of the same configs (num_mtp_modules 3, not in the served model). Block FP8 with the gate,
-- e_score_correction_bias and lm_head left unconverted.
models["MiniMaxAI/MiniMax-M2"] = { arch = "minimax_m2", config = {
    architectures = { "MiniMaxM2ForCausalLM" }, attention_dropout = 0.0, head_dim = 128,
    hidden_act = "silu", hidden_size = 3072, intermediate_size = 1536, max_position_embeddings = 196608,
    model_type = "minimax_m2", mtp_transformer_layers = 1, num_attention_heads = 48,
    num_experts_per_tok = 8, num_hidden_layers = 62, num_key_value_heads = 8, num_local_experts = 256,
    num_mtp_modules = 3, partial_rotary_factor = 0.5, qk_norm_type = "per_layer",
    quantization_config = { activation_scheme = "dynamic", fmt = "float8_e4m3fn", quant_method = "fp8",
      weight_block_size = { 128, 128 }, modules_to_not_convert = { "gate", "e_score_correction_bias", "lm_head" } },
    rms_norm_eps = 1e-06, rope_theta = 5000000, rotary_dim = 64, scoring_func = "sigmoid",
    shared_intermediate_size = 0, tie_word_embeddings = false, use_mtp = true, use_qk_norm = true,
    use_routing_bias = true, vocab_size = 200064,
} }

-- Aliases. Those marked (calibration) are the ones the calibration set resolves this way.
-- Instruct releases whose config differs from the base model's only in the context they
-- were published for: Qwen2-7B-Instruct and the Qwen2.5 Instruct models set
-- max_position_embeddings (and sliding_window) to 32768 where the Qwen2.5 bases say 131072
-- (their config.json on the Hub); vLLM sizes its rotary cache from it.
local function variant(base, changes)
  local c = {}
  for k, v in pairs(models[base].config) do c[k] = v end
  for k, v in pairs(changes) do c[k] = v end
  return { arch = models[base].arch, config = c }
end
local CTX32K = { max_position_embeddings = 32768, sliding_window = 32768 }
models["Qwen/Qwen2-7B-Instruct"] = variant("Qwen/Qwen2.5-7B", CTX32K)  -- (calibration)
models["Qwen/Qwen2.5-7B-Instruct"] = variant("Qwen/Qwen2.5-7B", CTX32K)  -- (calibration)
models["Qwen/Qwen2.5-3B-Instruct"] = variant("Qwen/Qwen2.5-3B", {})
-- Mistral-7B-Instruct-v0.2: v0.1's shapes with rope_theta 1e6 and no sliding window (its
-- config.json: "rope_theta": 1000000.0, "sliding_window": null); fedora-copr/logdetective PR #106's
-- llama.cpp log prints freq_base 1000000.0 and a full 32768-cell cache (round 25, lcpp25b)
models["mistralai/Mistral-7B-Instruct-v0.2"] = variant("mistralai/Mistral-7B-v0.1", { rope_theta = 1000000.0 })
models["mistralai/Mistral-7B-Instruct-v0.2"].config.sliding_window = nil
models["Qwen/Qwen2.5-14B-Instruct"] = variant("Qwen/Qwen2.5-14B", CTX32K)
models["Qwen/Qwen2.5-32B-Instruct"] = variant("Qwen/Qwen2.5-32B", CTX32K)
-- GLM-4.6: GLM-4.5's shapes with a 202,752-token context (its config.json; xinference's
-- GLM-4.6 spec "Context Length: 202752")
models["zai-org/GLM-4.6"] = variant("zai-org/GLM-4.5", { max_position_embeddings = 202752 })
-- Kimi-K2-Instruct-0905: K2's shapes with a 262,144-token context. Kimi-K2-Thinking: the same
-- with native INT4 routed experts (compressed-tensors pack-quantized, symmetric groups of 32,
-- weights only; attention, shared experts, the dense layer's MLP and lm_head ignored: the
-- ignore list tensor_cast's tests read from its config.json, the group settings per its README
-- "Native INT4 Quantization").
models["moonshotai/Kimi-K2-Instruct-0905"] = variant("moonshotai/Kimi-K2-Instruct", { max_position_embeddings = 262144 })
models["moonshotai/Kimi-K2-Thinking"] = variant("moonshotai/Kimi-K2-Instruct", { max_position_embeddings = 262144,
  quantization_config = { quant_method = "compressed-tensors", format = "pack-quantized",
    ignore = { "lm_head", "re:.*self_attn.*", "re:.*shared_experts.*", "re:.*mlp\\.(gate|up|gate_up|down)_proj.*" },
    config_groups = { group_0 = { targets = { "Linear" }, weights = { num_bits = 4, type = "int",
      symmetric = true, strategy = "group", group_size = 32, dynamic = false } } } } })

-- RedHatAI's llm-compressor checkpoints: the shapes of their base with the compressed-tensors
-- quantization_config of the scheme they name (compressed-tensors quantization/quant_scheme.py
-- presets FP8_DYNAMIC: fp8 weights per output channel, dynamic per-token fp8 activations;
-- W4A16: int4 weights, symmetric groups of 128); lm_head is left in the model dtype
local function ct_config(weights, acts)
  return { quantization_config = { quant_method = "compressed-tensors", ignore = { "lm_head" },
    config_groups = { group_0 = { targets = { "Linear" }, weights = weights, input_activations = acts } } } }
end
models["RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic"] = variant("meta-llama/Llama-3.1-70B", ct_config(  -- (calibration)
  { num_bits = 8, type = "float", strategy = "channel", symmetric = true, dynamic = false },
  { num_bits = 8, type = "float", strategy = "token", symmetric = true, dynamic = true }))
models["RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16"] = variant("meta-llama/Llama-3.1-8B", ct_config(  -- (calibration)
  { num_bits = 4, type = "int", strategy = "group", group_size = 128, symmetric = true, dynamic = false }))

-- --- IBM Granite 4.0 (granitemoehybrid). Fields of the published config.json files as public
-- copies quote them: granite-4.0-h-tiny's in a hardware-simulator test's GRANITE_H_TINY_HF
-- (hidden 1536, 40 layers, 12/4 heads, 64 experts of 512, top 6, shared 1024, Mamba-2 48 heads
-- x 64, d_state 128, one group, conv 4, expand 2, vocab 100352, tied, 131072 positions,
-- attention at layers 5, 15, 25, 35); granite-4.0-h-micro's in an iOS planner's test ("the REAL
-- published config", 2048 hidden, 32/8 heads, 64 Mamba heads x 64, no experts, shared 8192, the
-- same layer_types); granite-4.0-h-small's in a capacity planner's worked example (4096 hidden,
-- 32/8 heads, 72 experts of 768, top 10, shared 1536, d_state 128, conv 4, expand 2, tied,
-- vocab 100352; 36 mamba + 4 attention layers); granite-4.0-micro's (dense, 2560 hidden, 40/8
-- heads, 8192 MLP, 40 attention layers, RoPE) in a Granite equivalence-test suite's
-- GRANITE4_FULLSIZE. mamba_conv_bias true / mamba_proj_bias false as granite-4.0-h-350m's
-- config.json (an MLX port's test) and the h-tiny parameter test state. Inferred, not read:
-- h-small's mamba_n_heads 128 x mamba_d_head 64 (= expand 2 x 4096, the family's head width)
-- and its attention layers at 5, 15, 25, 35 (the -H models' pattern; the source only gives the
-- 36 / 4 split); h-micro's vocab_size 100352 (the family's).
local function granite_h_layers()
  local lt = {}
  for i = 0, 39 do lt[#lt + 1] = (i % 10 == 5) and "attention" or "mamba" end
  return lt
end
local function granite4(c)
  local base = {
    architectures = { "GraniteMoeHybridForCausalLM" }, model_type = "granitemoehybrid", num_hidden_layers = 40,
    vocab_size = 100352, max_position_embeddings = 131072, tie_word_embeddings = true, attention_bias = false,
    hidden_act = "silu", rms_norm_eps = 1e-05, mamba_conv_bias = true, mamba_proj_bias = false,
    mamba_d_conv = 4, mamba_d_state = 128, mamba_expand = 2, mamba_n_groups = 1, mamba_chunk_size = 256,
    position_embedding_type = "nope", torch_dtype = "bfloat16",
  }
  for k, v in pairs(c) do base[k] = v end
  return { arch = "granitemoehybrid", config = base }
end
models["ibm-granite/granite-4.0-h-small"] = granite4 {
  hidden_size = 4096, num_attention_heads = 32, num_key_value_heads = 8, num_local_experts = 72,
  num_experts_per_tok = 10, intermediate_size = 768, shared_intermediate_size = 1536, mamba_n_heads = 128,
  mamba_d_head = 64, layer_types = granite_h_layers() }
models["ibm-granite/granite-4.0-h-tiny"] = granite4 {
  hidden_size = 1536, num_attention_heads = 12, num_key_value_heads = 4, num_local_experts = 64,
  num_experts_per_tok = 6, intermediate_size = 512, shared_intermediate_size = 1024, mamba_n_heads = 48,
  mamba_d_head = 64, layer_types = granite_h_layers() }
models["ibm-granite/granite-4.0-h-micro"] = granite4 {
  hidden_size = 2048, num_attention_heads = 32, num_key_value_heads = 8, num_local_experts = 0,
  num_experts_per_tok = 0, intermediate_size = 8192, shared_intermediate_size = 8192, mamba_n_heads = 64,
  mamba_d_head = 64, layer_types = granite_h_layers() }
models["ibm-granite/granite-4.0-micro"] = granite4 {
  hidden_size = 2560, num_attention_heads = 40, num_key_value_heads = 8, num_local_experts = 0,
  num_experts_per_tok = 0, intermediate_size = 8192, shared_intermediate_size = 8192,
  position_embedding_type = "rope", rope_theta = 10000000, layer_types = (function()
    local lt = {}
    for i = 1, 40 do lt[i] = "attention" end
    return lt
  end)() }

-- --- TII Falcon-H1 (falcon_h1). Falcon-H1-7B's shape fields as a hardware simulator's test quotes
-- its config.json (FALCON_H1_7B_HF: hidden 3072, 44 layers, 12/2 heads x 128, MLP 12288, vocab
-- 130048, untied, Mamba-2 24 heads x 128, d_ssm 3072, d_state 256, one group, conv 4, 262144
-- positions); Falcon-H1-Tiny-90M's from an MLX port's test ("values mirror the real checkpoint":
-- hidden 512, 24 layers, 8/2 heads x 64, d_ssm 768 = 24 heads x 32, d_state 64, tied) with its
-- MLP width 768 and max_position 262144 from two other ports' readers of the same config.json.
-- The bias and norm flags (attention_bias, mlp_bias, mamba_proj_bias, projectors_bias,
-- mamba_rms_norm false; mamba_conv_bias true) are the Tiny config's and Falcon-H1-0.5B's full
-- config.json as a Megatron bridge test copies it; for the 7B they are inferred (the family's).
local function falcon_h1(c)
  local base = {
    architectures = { "FalconH1ForCausalLM" }, model_type = "falcon_h1", attention_bias = false, mlp_bias = false,
    mamba_conv_bias = true, mamba_proj_bias = false, projectors_bias = false, mamba_rms_norm = false,
    mamba_norm_before_gate = false, mamba_d_conv = 4, mamba_n_groups = 1, mamba_expand = 2, mamba_chunk_size = 128,
    hidden_act = "silu", rms_norm_eps = 1e-05, rope_theta = 100000000000.0, max_position_embeddings = 262144,
    torch_dtype = "bfloat16",
  }
  for k, v in pairs(c) do base[k] = v end
  return { arch = "falcon_h1", config = base }
end
models["tiiuae/Falcon-H1-7B-Instruct"] = falcon_h1 {
  hidden_size = 3072, num_hidden_layers = 44, num_attention_heads = 12, num_key_value_heads = 2, head_dim = 128,
  intermediate_size = 12288, vocab_size = 130048, tie_word_embeddings = false, mamba_d_state = 256,
  mamba_n_heads = 24, mamba_d_head = 128, mamba_d_ssm = 3072 }
-- Falcon-H1-1.5B: the shape fields two capacity planners' tests quote (hidden 2048, 24 layers, 8/2
-- heads x 128, MLP 4608, vocab 65537, Mamba-2 48 heads x 64, d_ssm 3072, d_state 256, conv 4, one
-- group); tie_word_embeddings not quoted: false assumed (the 7B's and 0.5B's).
models["tiiuae/Falcon-H1-1.5B-Instruct"] = falcon_h1 {
  hidden_size = 2048, num_hidden_layers = 24, num_attention_heads = 8, num_key_value_heads = 2, head_dim = 128,
  intermediate_size = 4608, vocab_size = 65537, tie_word_embeddings = false, mamba_d_state = 256,
  mamba_n_heads = 48, mamba_d_head = 64, mamba_d_ssm = 3072, max_position_embeddings = 131072 }
models["tiiuae/Falcon-H1-Tiny-90M-Instruct"] = falcon_h1 {
  hidden_size = 512, num_hidden_layers = 24, num_attention_heads = 8, num_key_value_heads = 2, head_dim = 64,
  intermediate_size = 768, vocab_size = 32768, tie_word_embeddings = true, mamba_d_state = 64,
  mamba_n_heads = 24, mamba_d_head = 32, mamba_d_ssm = 768 }

-- --- Liquid AI LFM2 (lfm2). LFM2-1.2B's config.json as an inference port's test quotes "the REAL
-- LiquidAI/LFM2-1.2B/config.json, read from the Hub" (hidden 2048, 16 layers, 32/8 heads,
-- full_attn_idxs 2, 5, 8, 10, 12, 14, block_ff_dim 12288 with block_auto_adjust_ff_dim and
-- block_multiple_of 256, conv_L_cache 3, no conv bias, vocab 65536, 128000 positions), with
-- block_ffn_dim_multiplier 1.0 and tie_embedding true from two other verbatim copies of it.
models["LiquidAI/LFM2-1.2B"] = { arch = "lfm2", config = {
  architectures = { "Lfm2ForCausalLM" }, model_type = "lfm2", hidden_size = 2048, num_hidden_layers = 16,
  num_attention_heads = 32, num_key_value_heads = 8, vocab_size = 65536, max_position_embeddings = 128000,
  block_ff_dim = 12288, block_auto_adjust_ff_dim = true, block_ffn_dim_multiplier = 1.0, block_multiple_of = 256,
  conv_L_cache = 3, conv_bias = false, full_attn_idxs = { 2, 5, 8, 10, 12, 14 }, norm_eps = 1e-05,
  rope_theta = 1000000.0, tie_embedding = true, torch_dtype = "bfloat16",
} }

-- --- architecture families A (Gemma 1, Phi-2, PhiMoE, OLMo 2, OLMoE, Granite 3 dense / MoE,
-- Cohere Command R / R7B / A, StarCoder2, SmolLM3): the shape fields of each repo's config.json
-- on the Hugging Face Hub (fields that change no shape left out)
models["google/gemma-7b"] = { arch = "gemma", config = {
    architectures = { "GemmaForCausalLM" }, head_dim = 256, hidden_act = "gelu", hidden_size = 3072,
    intermediate_size = 24576, max_position_embeddings = 8192, model_type = "gemma",
    num_attention_heads = 16, num_hidden_layers = 28, num_key_value_heads = 16, rope_theta = 10000.0,
    vocab_size = 256000,
} }
models["google/gemma-2b"] = { arch = "gemma", config = {
    architectures = { "GemmaForCausalLM" }, head_dim = 256, hidden_act = "gelu", hidden_size = 2048,
    intermediate_size = 16384, max_position_embeddings = 8192, model_type = "gemma",
    num_attention_heads = 8, num_hidden_layers = 18, num_key_value_heads = 1, rope_theta = 10000.0,
    vocab_size = 256000,
} }
models["microsoft/phi-2"] = { arch = "phi", config = {
    architectures = { "PhiForCausalLM" }, hidden_act = "gelu_new", hidden_size = 2560,
    intermediate_size = 10240, layer_norm_eps = 1e-05, max_position_embeddings = 2048, model_type = "phi",
    num_attention_heads = 32, num_hidden_layers = 32, partial_rotary_factor = 0.4, qk_layernorm = false,
    rope_theta = 10000.0, tie_word_embeddings = false, vocab_size = 51200,
} }
models["microsoft/Phi-3.5-MoE-instruct"] = { arch = "phimoe", config = {
    architectures = { "PhiMoEForCausalLM" }, attention_bias = true, hidden_size = 4096,
    intermediate_size = 6400, lm_head_bias = true, max_position_embeddings = 131072, model_type = "phimoe",
    num_attention_heads = 32, num_experts_per_tok = 2, num_hidden_layers = 32, num_key_value_heads = 8,
    num_local_experts = 16, original_max_position_embeddings = 4096, sliding_window = 131072,
    tie_word_embeddings = false, vocab_size = 32064,
} }
models["allenai/OLMo-2-1124-7B"] = { arch = "olmo2", config = {
    architectures = { "Olmo2ForCausalLM" }, attention_bias = false, hidden_size = 4096,
    intermediate_size = 11008, max_position_embeddings = 4096, model_type = "olmo2",
    num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 32, rope_theta = 500000,
    tie_word_embeddings = false, vocab_size = 100352,
} }
models["allenai/OLMo-2-1124-13B"] = { arch = "olmo2", config = {
    architectures = { "Olmo2ForCausalLM" }, attention_bias = false, hidden_size = 5120,
    intermediate_size = 13824, max_position_embeddings = 4096, model_type = "olmo2",
    num_attention_heads = 40, num_hidden_layers = 40, num_key_value_heads = 40, rope_theta = 500000,
    tie_word_embeddings = false, vocab_size = 100352,
} }
models["allenai/OLMoE-1B-7B-0924"] = { arch = "olmoe", config = {
    architectures = { "OlmoeForCausalLM" }, hidden_size = 2048, intermediate_size = 1024,
    max_position_embeddings = 4096, model_type = "olmoe", norm_topk_prob = false, num_attention_heads = 16,
    num_experts = 64, num_experts_per_tok = 8, num_hidden_layers = 16, num_key_value_heads = 16,
    tie_word_embeddings = false, vocab_size = 50304,
} }
models["ibm-granite/granite-3.1-8b-instruct"] = { arch = "granite", config = {
    architectures = { "GraniteForCausalLM" }, attention_bias = false, hidden_size = 4096,
    intermediate_size = 12800, max_position_embeddings = 131072, mlp_bias = false, model_type = "granite",
    num_attention_heads = 32, num_hidden_layers = 40, num_key_value_heads = 8, rope_theta = 10000000.0,
    tie_word_embeddings = true, vocab_size = 49155,
} }
models["ibm-granite/granite-3.1-2b-instruct"] = { arch = "granite", config = {
    architectures = { "GraniteForCausalLM" }, attention_bias = false, hidden_size = 2048,
    intermediate_size = 8192, max_position_embeddings = 131072, mlp_bias = false, model_type = "granite",
    num_attention_heads = 32, num_hidden_layers = 40, num_key_value_heads = 8, rope_theta = 5000000.0,
    tie_word_embeddings = true, vocab_size = 49155,
} }
models["ibm-granite/granite-3.1-3b-a800m-instruct"] = { arch = "granitemoe", config = {
    architectures = { "GraniteMoeForCausalLM" }, attention_bias = false, hidden_size = 1536,
    intermediate_size = 512, max_position_embeddings = 131072, model_type = "granitemoe",
    num_attention_heads = 24, num_experts_per_tok = 8, num_hidden_layers = 32, num_key_value_heads = 8,
    num_local_experts = 40, tie_word_embeddings = true, vocab_size = 49155,
} }
models["ibm-granite/granite-3.1-1b-a400m-instruct"] = { arch = "granitemoe", config = {
    architectures = { "GraniteMoeForCausalLM" }, attention_bias = false, hidden_size = 1024,
    intermediate_size = 512, max_position_embeddings = 131072, model_type = "granitemoe",
    num_attention_heads = 16, num_experts_per_tok = 8, num_hidden_layers = 24, num_key_value_heads = 8,
    num_local_experts = 32, tie_word_embeddings = true, vocab_size = 49155,
} }
models["ibm-granite/granite-3.3-8b-instruct"] = { arch = "granite", config = {
    architectures = { "GraniteForCausalLM" }, attention_bias = false, hidden_size = 4096,
    intermediate_size = 12800, max_position_embeddings = 131072, mlp_bias = false, model_type = "granite",
    num_attention_heads = 32, num_hidden_layers = 40, num_key_value_heads = 8, rope_theta = 10000000.0,
    tie_word_embeddings = true, vocab_size = 49159,
} }
models["ibm-granite/granite-3.3-2b-instruct"] = { arch = "granite", config = {
    architectures = { "GraniteForCausalLM" }, attention_bias = false, hidden_size = 2048,
    intermediate_size = 8192, max_position_embeddings = 131072, mlp_bias = false, model_type = "granite",
    num_attention_heads = 32, num_hidden_layers = 40, num_key_value_heads = 8, rope_theta = 10000000.0,
    tie_word_embeddings = true, vocab_size = 49159,
} }
models["CohereForAI/aya-expanse-8b"] = { arch = "cohere", config = {
    architectures = { "CohereForCausalLM" }, attention_bias = false, hidden_size = 4096,
    intermediate_size = 14336, max_position_embeddings = 8192, model_type = "cohere",
    num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 8, use_qk_norm = false,
    vocab_size = 256000,
} }
models["CohereForAI/c4ai-command-r-v01"] = { arch = "cohere", config = {
    architectures = { "CohereForCausalLM" }, attention_bias = false, hidden_size = 8192,
    intermediate_size = 22528, max_position_embeddings = 8192, model_type = "cohere",
    num_attention_heads = 64, num_hidden_layers = 40, num_key_value_heads = 64, use_qk_norm = false,
    vocab_size = 256000,
} }
models["CohereForAI/c4ai-command-r-plus"] = { arch = "cohere", config = {
    architectures = { "CohereForCausalLM" }, attention_bias = false, hidden_size = 12288,
    intermediate_size = 33792, max_position_embeddings = 8192, model_type = "cohere",
    num_attention_heads = 96, num_hidden_layers = 64, num_key_value_heads = 8, use_qk_norm = true,
    vocab_size = 256000,
} }
models["CohereForAI/c4ai-command-r7b-12-2024"] = { arch = "cohere2", config = {
    architectures = { "Cohere2ForCausalLM" }, attention_bias = false, head_dim = 128, hidden_size = 4096,
    intermediate_size = 14336, max_position_embeddings = 8192, model_type = "cohere2",
    num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 8, sliding_window = 4096,
    sliding_window_pattern = 4, vocab_size = 256000,
} }
models["CohereForAI/c4ai-command-a-03-2025"] = { arch = "cohere2", config = {
    architectures = { "Cohere2ForCausalLM" }, attention_bias = false, head_dim = 128, hidden_size = 12288,
    intermediate_size = 36864, max_position_embeddings = 131072, model_type = "cohere2",
    num_attention_heads = 96, num_hidden_layers = 64, num_key_value_heads = 8, sliding_window = 4096,
    sliding_window_pattern = 4, vocab_size = 256000,
} }
models["bigcode/starcoder2-3b"] = { arch = "starcoder2", config = {
    architectures = { "Starcoder2ForCausalLM" }, hidden_size = 3072, intermediate_size = 12288,
    max_position_embeddings = 16384, model_type = "starcoder2", num_attention_heads = 24,
    num_hidden_layers = 30, num_key_value_heads = 2, rope_theta = 999999.4420358813, sliding_window = 4096,
    use_bias = true, vocab_size = 49152,
} }
models["bigcode/starcoder2-7b"] = { arch = "starcoder2", config = {
    architectures = { "Starcoder2ForCausalLM" }, hidden_size = 4608, intermediate_size = 18432,
    max_position_embeddings = 16384, model_type = "starcoder2", num_attention_heads = 36,
    num_hidden_layers = 32, num_key_value_heads = 4, rope_theta = 1000000, sliding_window = 4096,
    use_bias = true, vocab_size = 49152,
} }
models["bigcode/starcoder2-15b"] = { arch = "starcoder2", config = {
    architectures = { "Starcoder2ForCausalLM" }, hidden_size = 6144, intermediate_size = 24576,
    max_position_embeddings = 16384, model_type = "starcoder2", num_attention_heads = 48,
    num_hidden_layers = 40, num_key_value_heads = 4, rope_theta = 100000, sliding_window = 4096,
    tie_word_embeddings = false, use_bias = true, vocab_size = 49152,
} }
models["HuggingFaceTB/SmolLM3-3B"] = { arch = "smollm3", config = {
    architectures = { "SmolLM3ForCausalLM" }, attention_bias = false, hidden_size = 2048,
    intermediate_size = 11008, max_position_embeddings = 65536, mlp_bias = false, model_type = "smollm3",
    no_rope_layer_interval = 4, num_attention_heads = 16, num_hidden_layers = 36, num_key_value_heads = 4,
    rope_theta = 5000000.0, tie_word_embeddings = true, use_sliding_window = false, vocab_size = 128256,
} }
-- ---- arch-families-b: InternLM 2.5 / 3, GLM-4-0414, ERNIE 4.5, Hunyuan dense, Seed-OSS, EXAONE 4.0.
-- config.json fields as public copies quote them: internlm2_5-7b's in an MLX port's checkpoint test
-- (hidden 4096, 32 layers, 32/8 heads, 14336, vocab 92544, bias false, dynamic RoPE x2, untied);
-- internlm3-8b-instruct's in mlx-community/internlm3-8b-instruct-4bit's config (48 layers, 32/2 heads,
-- head_dim 128, 10240, vocab 128512, dynamic RoPE x6); GLM-4-9B-0414 the GLM-4-9B shape fields
-- (4096, 13696, 40 layers, 32/2 heads, vocab 151552, attention_bias, partial_rotary_factor 0.5);
-- ERNIE-4.5-0.3B-PT's config.json (1024, 3072, 18 layers, 16/2 heads, head_dim 128, vocab 103424,
-- tied); Hunyuan-7B's as a capacity planner's fixture quotes it (4096, 32 layers, 32/8, head_dim 128,
-- 14336, vocab 128167, tied); Seed-OSS-36B-Instruct's in an MLX port's test ("mirrors the real
-- checkpoint's config.json"); EXAONE-4.0-32B's in TensorRT-LLM's tests/unittest/_torch/modeling/
-- test_modeling_exaone4.py (sliding window 4096 there noted as 4 for the test, pattern 4).
models["internlm/internlm2_5-7b-chat"] = { arch = "internlm2", config = {
    architectures = { "InternLM2ForCausalLM" }, bias = false, hidden_size = 4096, intermediate_size = 14336,
    max_position_embeddings = 32768, model_type = "internlm2", num_attention_heads = 32,
    num_hidden_layers = 32, num_key_value_heads = 8, rms_norm_eps = 1e-05,
    rope_scaling = { factor = 2.0, type = "dynamic" }, rope_theta = 1000000, tie_word_embeddings = false,
    torch_dtype = "bfloat16", vocab_size = 92544,
} }
models["internlm/internlm3-8b-instruct"] = { arch = "internlm3", config = {
    architectures = { "InternLM3ForCausalLM" }, bias = false, head_dim = 128, hidden_size = 4096,
    intermediate_size = 10240, max_position_embeddings = 32768, model_type = "internlm3",
    num_attention_heads = 32, num_hidden_layers = 48, num_key_value_heads = 2, qkv_bias = false,
    rms_norm_eps = 1e-05, rope_scaling = { factor = 6.0, rope_type = "dynamic" }, rope_theta = 50000000,
    tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 128512,
} }
models["THUDM/GLM-4-9B-0414"] = { arch = "glm4", config = {
    architectures = { "Glm4ForCausalLM" }, attention_bias = true, head_dim = 128, hidden_size = 4096,
    intermediate_size = 13696, max_position_embeddings = 32768, model_type = "glm4",
    num_attention_heads = 32, num_hidden_layers = 40, num_key_value_heads = 2,
    partial_rotary_factor = 0.5, rms_norm_eps = 1e-05, rope_theta = 10000.0,
    tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 151552,
} }
models["baidu/ERNIE-4.5-0.3B-PT"] = { arch = "ernie4_5", config = {
    architectures = { "Ernie4_5_ForCausalLM" }, head_dim = 128, hidden_act = "silu", hidden_size = 1024,
    intermediate_size = 3072, max_position_embeddings = 131072, model_type = "ernie4_5",
    num_attention_heads = 16, num_hidden_layers = 18, num_key_value_heads = 2, rms_norm_eps = 1e-05,
    rope_theta = 500000, tie_word_embeddings = true, torch_dtype = "bfloat16", use_bias = false,
    vocab_size = 103424,
} }
models["tencent/Hunyuan-7B-Instruct"] = { arch = "hunyuan_v1_dense", config = {
    architectures = { "HunYuanDenseV1ForCausalLM" }, attention_bias = false, head_dim = 128,
    hidden_size = 4096, intermediate_size = 14336, max_position_embeddings = 32768, mlp_bias = false,
    model_type = "hunyuan_v1_dense", num_attention_heads = 32, num_hidden_layers = 32,
    num_key_value_heads = 8, rms_norm_eps = 1e-05, rope_theta = 10000, tie_word_embeddings = true,
    torch_dtype = "bfloat16", use_qk_norm = true, vocab_size = 128167,
} }
models["ByteDance-Seed/Seed-OSS-36B-Instruct"] = { arch = "seed_oss", config = {
    architectures = { "SeedOssForCausalLM" }, attention_bias = true, attention_out_bias = false,
    head_dim = 128, hidden_size = 5120, intermediate_size = 27648, max_position_embeddings = 524288,
    mlp_bias = false, model_type = "seed_oss", num_attention_heads = 80, num_hidden_layers = 64,
    num_key_value_heads = 8, rms_norm_eps = 1e-06, rope_scaling = { rope_type = "default" },
    rope_theta = 10000000.0, tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 155136,
} }
models["LGAI-EXAONE/EXAONE-4.0-32B"] = { arch = "exaone4", config = {
    architectures = { "Exaone4ForCausalLM" }, head_dim = 128, hidden_act = "silu", hidden_size = 5120,
    intermediate_size = 27392, max_position_embeddings = 131072, model_type = "exaone4",
    num_attention_heads = 40, num_hidden_layers = 64, num_key_value_heads = 8, rms_norm_eps = 1e-05,
    rope_scaling = { factor = 16.0, high_freq_factor = 4.0, low_freq_factor = 1.0,
                     original_max_position_embeddings = 8192, rope_type = "llama3" },
    rope_theta = 1000000, sliding_window = 4096, sliding_window_pattern = 4, tie_word_embeddings = false,
    torch_dtype = "bfloat16", vocab_size = 102400,
} }
-- dots.llm1.inst's config as an MLX port's test quotes mlx-community/dots.llm1.inst-mixed-4-6bit's
-- (4096, 62 layers, 32/32 heads, 10944, vocab 152064, 128 experts of 1408, 6 per token, 2 shared,
-- first layer dense, sigmoid scoring, routed_scaling_factor 2.5); ERNIE-4.5-21B-A3B's as
-- MindIE's test fixture and a capacity planner's test quote it (2560, 28 layers, 20/4 heads,
-- head_dim 128, 12288, 64 experts of 1536, 6 per token, 2 shared, sparse layers 1..27, tied);
-- Bamba-9B's shape fields: hidden 4096, 32 layers, 32 heads, mamba_d_state 128, attention layers
-- 9, 18, 27 (a capacity planner's fixture), the rest as modeling_bamba.py's BambaConfig defaults
-- (8 KV heads, 14336, 128 Mamba heads of 64, 1 group, expand 2, d_conv 4, vocab 128256).
models["rednote-hilab/dots.llm1.inst"] = { arch = "dots1", config = {
    architectures = { "Dots1ForCausalLM" }, attention_bias = false, first_k_dense_replace = 1,
    hidden_size = 4096, intermediate_size = 10944, max_position_embeddings = 32768,
    model_type = "dots1", moe_intermediate_size = 1408, n_routed_experts = 128, n_shared_experts = 2,
    norm_topk_prob = true, num_attention_heads = 32, num_experts_per_tok = 6, num_hidden_layers = 62,
    num_key_value_heads = 32, rms_norm_eps = 1e-05, rope_theta = 10000000, routed_scaling_factor = 2.5,
    scoring_func = "sigmoid", tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 152064,
} }
models["baidu/ERNIE-4.5-21B-A3B-PT"] = { arch = "ernie4_5_moe", config = {
    architectures = { "Ernie4_5_MoeForCausalLM" }, head_dim = 128, hidden_act = "silu", hidden_size = 2560,
    intermediate_size = 12288, max_position_embeddings = 131072, model_type = "ernie4_5_moe",
    moe_intermediate_size = 1536, moe_k = 6, moe_layer_end_index = 27, moe_layer_interval = 1,
    moe_layer_start_index = 1, moe_num_experts = 64, moe_num_shared_experts = 2, num_attention_heads = 20,
    num_hidden_layers = 28, num_key_value_heads = 4, rms_norm_eps = 1e-05, rope_theta = 500000.0,
    tie_word_embeddings = true, torch_dtype = "bfloat16", use_bias = false, vocab_size = 103424,
} }
models["ibm-ai-platform/Bamba-9B"] = { arch = "bamba", config = {
    architectures = { "BambaForCausalLM" }, attn_layer_indices = { 9, 18, 27 }, hidden_size = 4096,
    intermediate_size = 14336, mamba_chunk_size = 256, mamba_conv_bias = true, mamba_d_conv = 4,
    mamba_d_head = 64, mamba_d_state = 128, mamba_expand = 2, mamba_n_groups = 1, mamba_n_heads = 128,
    mamba_proj_bias = false, max_position_embeddings = 262144, model_type = "bamba",
    num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 8, rms_norm_eps = 1e-05,
    rope_theta = 10000.0, tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 128256,
} }
-- AI21-Jamba-1.5-Mini's config.json as onnx-diagnostic's model fixture copies it (the same shapes
-- as Jamba-v0.1: 32 layers, attention every 8th from 4, MoE every 2nd from 1, 16 experts, top 2).
models["ai21labs/AI21-Jamba-1.5-Mini"] = { arch = "jamba", config = {
    architectures = { "JambaForCausalLM" }, attn_layer_offset = 4, attn_layer_period = 8,
    expert_layer_offset = 1, expert_layer_period = 2, hidden_act = "silu", hidden_size = 4096,
    intermediate_size = 14336, mamba_conv_bias = true, mamba_d_conv = 4, mamba_d_state = 16,
    mamba_dt_rank = 256, mamba_expand = 2, mamba_proj_bias = false, max_position_embeddings = 262144,
    model_type = "jamba", num_attention_heads = 32, num_experts = 16, num_experts_per_tok = 2,
    num_hidden_layers = 32, num_key_value_heads = 8, rms_norm_eps = 1e-06, tie_word_embeddings = false,
    torch_dtype = "bfloat16", vocab_size = 65536,
} }
-- NVIDIA-Nemotron-Nano-9B-v2's config as three public fixtures quote it (TensorRT model-connect's
-- voicechat thinker config, a memory planner's tests): 4480, 56 layers, 40/8 heads of 128, 15680,
-- vocab 131072, 128 Mamba heads of 80, 8 groups, state 128, conv 4; 27 Mamba-2, 4 attention, 25 MLP.
models["nvidia/NVIDIA-Nemotron-Nano-9B-v2"] = { arch = "nemotron_h", config = {
    architectures = { "NemotronHForCausalLM" }, attention_bias = false, conv_kernel = 4, head_dim = 128,
    hidden_size = 4480, hybrid_override_pattern = "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-",
    intermediate_size = 15680, mamba_head_dim = 80, mamba_num_heads = 128, max_position_embeddings = 131072,
    mlp_bias = false, model_type = "nemotron_h", n_groups = 8, num_attention_heads = 40,
    num_hidden_layers = 56, num_key_value_heads = 8, rms_norm_eps = 1e-05, ssm_state_size = 128,
    tie_word_embeddings = false, torch_dtype = "bfloat16", use_bias = false, use_conv_bias = true,
    vocab_size = 131072,
} }
-- Hunyuan-A13B-Instruct's shape fields as a profiler's test quotes them (4096, 32 layers, 32/8 heads of
-- 128, intermediate 3072, vocab 128167, 64 experts of 3072, top 8, 1 shared expert, per-layer lists);
-- tied embedding and q/k norm as the Hunyuan dense family (assumed, not in that copy).
models["tencent/Hunyuan-A13B-Instruct"] = { arch = "hunyuan_v1_moe", config = {
    architectures = { "HunYuanMoEV1ForCausalLM" }, attention_bias = false, head_dim = 128, hidden_size = 4096,
    intermediate_size = 3072, max_position_embeddings = 32768, model_type = "hunyuan_v1_moe",
    moe_intermediate_size = { 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072,
                              3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072 },
    moe_topk = { 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8 },
    num_attention_heads = 32, num_experts = 64, num_hidden_layers = 32, num_key_value_heads = 8,
    num_shared_expert = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
    rms_norm_eps = 1e-05, tie_word_embeddings = true, torch_dtype = "bfloat16", use_qk_norm = true,
    vocab_size = 128167,
} }
-- ---- end arch-families-b

-- ---- gemma4: Google Gemma 4 (Gemma4ForConditionalGeneration). Shape fields of the four published
-- checkpoints as transformers' converter defines them (huggingface/transformers
-- src/transformers/models/gemma4/convert_gemma4_weights.py _VARIANTS, _ON_DEVICE_VISION_CONFIG,
-- _LARGE_MODEL_VISION_CONFIG, _DEFAULT_AUDIO_CONFIG; the Gemma4TextConfig defaults fill the rest:
-- vocab 262,144, head_dim 256, global_head_dim 512, sliding_window 512, 131,072 positions), matching
-- the config.json copies public projects quote (e.g. gemma-4-31B: 60 layers, 5376 wide, 32 heads,
-- 16 KV heads / 4 global KV heads with attention_k_eq_v, window 1024, 262,144 positions).
local function g4_layers(pattern, n)
  local lt = {}
  for r = 1, n do
    for i = 1, pattern do lt[#lt + 1] = i < pattern and "sliding_attention" or "full_attention" end
  end
  return lt
end
local g4_rope = {
  full_attention = { partial_rotary_factor = 0.25, rope_theta = 1000000.0, rope_type = "proportional" },
  sliding_attention = { rope_theta = 10000.0, rope_type = "default" },
}
local g4_small_vision = { model_type = "gemma4_vision", hidden_size = 768, intermediate_size = 3072,
  num_hidden_layers = 16, num_attention_heads = 12, num_key_value_heads = 12, head_dim = 64, patch_size = 16,
  position_embedding_size = 10240, pooling_kernel_size = 3, use_clipped_linears = true, standardize = false }
local g4_large_vision = { model_type = "gemma4_vision", hidden_size = 1152, intermediate_size = 4304,
  num_hidden_layers = 27, num_attention_heads = 16, num_key_value_heads = 16, head_dim = 72, patch_size = 16,
  position_embedding_size = 10240, pooling_kernel_size = 3, use_clipped_linears = false, standardize = true }
local g4_audio = { model_type = "gemma4_audio", hidden_size = 1024, num_hidden_layers = 12,
  num_attention_heads = 8, subsampling_conv_channels = { 128, 32 }, conv_kernel_size = 5,
  output_proj_dims = 1536, use_clipped_linears = true }
models["google/gemma-4-E2B-it"] = { arch = "gemma4", config = {
    architectures = { "Gemma4ForConditionalGeneration" }, model_type = "gemma4", tie_word_embeddings = true,
    text_config = { model_type = "gemma4_text", hidden_size = 1536, hidden_size_per_layer_input = 256,
      intermediate_size = 6144, num_hidden_layers = 35, layer_types = g4_layers(5, 7), num_attention_heads = 8,
      num_key_value_heads = 1, head_dim = 256, global_head_dim = 512, attention_k_eq_v = false,
      num_kv_shared_layers = 20, use_double_wide_mlp = true, final_logit_softcapping = 30.0,
      sliding_window = 512, max_position_embeddings = 131072, vocab_size = 262144,
      vocab_size_per_layer_input = 262144, hidden_activation = "gelu_pytorch_tanh", rms_norm_eps = 1e-06,
      rope_parameters = g4_rope, tie_word_embeddings = true },
    vision_config = g4_small_vision, audio_config = g4_audio,
} }
models["google/gemma-4-E4B-it"] = { arch = "gemma4", config = {
    architectures = { "Gemma4ForConditionalGeneration" }, model_type = "gemma4", tie_word_embeddings = true,
    text_config = { model_type = "gemma4_text", hidden_size = 2560, hidden_size_per_layer_input = 256,
      intermediate_size = 10240, num_hidden_layers = 42, layer_types = g4_layers(6, 7), num_attention_heads = 8,
      num_key_value_heads = 2, head_dim = 256, global_head_dim = 512, attention_k_eq_v = false,
      num_kv_shared_layers = 18, use_double_wide_mlp = false, final_logit_softcapping = 30.0,
      sliding_window = 512, max_position_embeddings = 131072, vocab_size = 262144,
      vocab_size_per_layer_input = 262144, hidden_activation = "gelu_pytorch_tanh", rms_norm_eps = 1e-06,
      rope_parameters = g4_rope, tie_word_embeddings = true },
    vision_config = g4_small_vision, audio_config = g4_audio,
} }
models["google/gemma-4-31B-it"] = { arch = "gemma4", config = {
    architectures = { "Gemma4ForConditionalGeneration" }, model_type = "gemma4", tie_word_embeddings = true,
    text_config = { model_type = "gemma4_text", hidden_size = 5376, hidden_size_per_layer_input = 0,
      intermediate_size = 21504, num_hidden_layers = 60, layer_types = g4_layers(6, 10), num_attention_heads = 32,
      num_key_value_heads = 16, num_global_key_value_heads = 4, head_dim = 256, global_head_dim = 512,
      attention_k_eq_v = true, num_kv_shared_layers = 0, use_bidirectional_attention = "vision",
      enable_moe_block = false, final_logit_softcapping = 30.0, sliding_window = 1024,
      max_position_embeddings = 262144, vocab_size = 262144, hidden_activation = "gelu_pytorch_tanh",
      rms_norm_eps = 1e-06, rope_parameters = g4_rope, tie_word_embeddings = true },
    vision_config = g4_large_vision,
} }
models["google/gemma-4-26B-A4B-it"] = { arch = "gemma4", config = {
    architectures = { "Gemma4ForConditionalGeneration" }, model_type = "gemma4", tie_word_embeddings = true,
    text_config = { model_type = "gemma4_text", hidden_size = 2816, hidden_size_per_layer_input = 0,
      intermediate_size = 2112, num_hidden_layers = 30, layer_types = g4_layers(6, 5), num_attention_heads = 16,
      num_key_value_heads = 8, num_global_key_value_heads = 2, head_dim = 256, global_head_dim = 512,
      attention_k_eq_v = true, num_kv_shared_layers = 0, use_bidirectional_attention = "vision",
      enable_moe_block = true, num_experts = 128, top_k_experts = 8, moe_intermediate_size = 704,
      final_logit_softcapping = 30.0, sliding_window = 1024, max_position_embeddings = 262144,
      vocab_size = 262144, hidden_activation = "gelu_pytorch_tanh", rms_norm_eps = 1e-06,
      rope_parameters = g4_rope, tie_word_embeddings = true },
    vision_config = g4_large_vision,
} }
-- ---- end gemma4
-- --- arch-families-c: Nemotron 3 (nemotron_h with MoE layers)
-- NVIDIA-Nemotron-3-Nano-30B-A3B-BF16's config.json as public fixtures copy it (Megatron-Bridge's
-- tests/unit_tests/models/nemotronh test_nemotron_h_bridge.py and its Nemotron3NanoProvider,
-- model-config parser tests): 2688, 52 layers "MEMEM*EMEMEM*..." (23 Mamba-2, 23 MoE, 6 attention),
-- 32/2 heads of 128, 64 Mamba heads of 64, 8 groups, state 128, conv 4; 128 routed experts of 1856,
-- top 6, one shared expert of 3712, routed_scaling_factor 2.5, vocab 131072, untied;
-- mamba_ssm_cache_dtype "float32" (config.json line 28, as vllm-project/vllm PR #39032 cites it).
models["nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"] = { arch = "nemotron_h", config = {
    architectures = { "NemotronHForCausalLM" }, attention_bias = false, chunk_size = 128, conv_kernel = 4,
    expand = 2, head_dim = 128, hidden_size = 2688,
    hybrid_override_pattern = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME",
    intermediate_size = 1856, layer_norm_epsilon = 1e-05, mamba_head_dim = 64, mamba_hidden_act = "silu",
    mamba_num_heads = 64, mamba_proj_bias = false, mamba_ssm_cache_dtype = "float32",
    max_position_embeddings = 262144, mlp_bias = false,
    mlp_hidden_act = "relu2", model_type = "nemotron_h", moe_intermediate_size = 1856,
    moe_shared_expert_intermediate_size = 3712, n_group = 1, n_groups = 8, n_routed_experts = 128,
    n_shared_experts = 1, norm_topk_prob = true, num_attention_heads = 32, num_experts_per_tok = 6,
    num_hidden_layers = 52, num_key_value_heads = 2, routed_scaling_factor = 2.5, ssm_state_size = 128,
    tie_word_embeddings = false, topk_group = 1, torch_dtype = "bfloat16", use_bias = false,
    use_conv_bias = true, vocab_size = 131072,
} }

-- --- arch-families-c: Kimi Linear
-- Kimi-Linear-48B-A3B-Instruct's config.json as public fixtures copy it (model-config parser tests
-- and a config-pinning package quoting the Hub file field by field): 2304, 27 layers (KDA 1-based
-- 1-3, 5-7, ..., 25-26; MLA 4, 8, 12, 16, 20, 24, 27), 32 heads, MLA kv_lora 512 / nope 128 / rope 64 /
-- v 128 (no q_lora, mla_use_nope), KDA 32 heads of 128 with a conv of 4; 256 experts of 1024, top 8,
-- one shared expert, first layer dense (9216), vocab 163840, untied.
models["moonshotai/Kimi-Linear-48B-A3B-Instruct"] = { arch = "kimi_linear", config = {
    architectures = { "KimiLinearForCausalLM" }, first_k_dense_replace = 1, head_dim = 72, hidden_act = "silu",
    hidden_size = 2304, intermediate_size = 9216, kv_lora_rank = 512,
    linear_attn_config = { full_attn_layers = { 4, 8, 12, 16, 20, 24, 27 }, head_dim = 128,
      kda_layers = { 1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23, 25, 26 },
      num_heads = 32, short_conv_kernel_size = 4 },
    mla_use_nope = true, model_max_length = 1048576, model_type = "kimi_linear", moe_intermediate_size = 1024,
    moe_layer_freq = 1, moe_renormalize = true, moe_router_activation_func = "sigmoid", num_attention_heads = 32,
    num_expert_group = 1, num_experts = 256, num_experts_per_token = 8, num_hidden_layers = 27,
    num_key_value_heads = 32, num_nextn_predict_layers = 0, num_shared_experts = 1, qk_nope_head_dim = 128,
    qk_rope_head_dim = 64, rms_norm_eps = 1e-05, rope_theta = 10000.0, routed_scaling_factor = 2.446,
    tie_word_embeddings = false, topk_group = 1, torch_dtype = "bfloat16", use_grouped_topk = true,
    v_head_dim = 128, vocab_size = 163840,
} }

-- --- arch-families-c: MiniMax-M1 (lightning attention hybrid)
-- MiniMax-M1-80k's config.json as a public FastDeploy test copies it "from HuggingFace": 6144,
-- 80 layers, attn_type_list 7 lightning + 1 softmax repeated 10 times, 64/8 heads of 128, 32 experts
-- of 9216, top 2, vocab 200064, rope_theta 1e7, max_position_embeddings 10240000, postnorm.
-- rotary_dim 64 is the MiniMax family's partial RoPE (MiniMax-M2's config and vLLM's
-- MiniMaxText01Attention read it); assumed here, it sizes only the rotary cache.
local MINIMAX_ATL = {}
for i = 1, 80 do MINIMAX_ATL[i] = i % 8 == 0 and 1 or 0 end
models["MiniMaxAI/MiniMax-M1-80k"] = { arch = "minimax", config = {
    architectures = { "MiniMaxM1ForCausalLM" }, attn_type_list = MINIMAX_ATL, head_dim = 128, hidden_act = "silu",
    hidden_size = 6144, intermediate_size = 9216, max_position_embeddings = 10240000, model_type = "minimax_m1",
    num_attention_heads = 64, num_experts_per_tok = 2, num_hidden_layers = 80, num_key_value_heads = 8,
    num_local_experts = 32, postnorm = true, rms_norm_eps = 1e-05, rope_theta = 10000000, rotary_dim = 64,
    tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 200064,
} }

local aliases = {
  ["tiiuae/Falcon-H1-7B-Base"] = "tiiuae/Falcon-H1-7B-Instruct",
  ["bigscience/bloom-7b1"] = "bigscience/bloomz-7b1",
  ["deepseek-ai/DeepSeek-R1-Distill-Qwen-14B"] = "Qwen/Qwen2.5-14B",  -- (calibration)
  ["deepseek-ai/DeepSeek-V2-Lite-Chat"] = "deepseek-ai/DeepSeek-V2-Lite",  -- (calibration)
  -- DeepSeek-R1's config.json (as vendored in public model notes): V3's DeepseekV3ForCausalLM
  -- shapes, block FP8, 163,840-token context
  ["deepseek-ai/DeepSeek-R1"] = "deepseek-ai/DeepSeek-V3",
  ["deepseek-ai/DeepSeek-V3.2"] = "deepseek-ai/DeepSeek-V3.2-Exp",
  ["deepseek-ai/DeepSeek-V3.2-Speciale"] = "deepseek-ai/DeepSeek-V3.2-Exp",
  ["EleutherAI/pythia-2.8b-deduped"] = "EleutherAI/pythia-2.8b",
  ["google/gemma-2-27b"] = "google/gemma-2-27b-it",
  ["google/gemma-2-9b"] = "google/gemma-2-9b-it",
  ["google/mt5-xxl"] = "bigscience/mt0-xxl",
  ["meta-llama/Llama-2-13b-chat-hf"] = "meta-llama/Llama-2-13b-hf",
  ["meta-llama/Llama-2-70b-chat-hf"] = "meta-llama/Llama-2-70b-hf",
  ["meta-llama/Llama-2-7b-chat-hf"] = "meta-llama/Llama-2-7b-hf",
  ["meta-llama/Llama-3.1-405B-Instruct"] = "meta-llama/Llama-3.1-405B",
  ["meta-llama/Llama-3.1-70B-Instruct"] = "meta-llama/Llama-3.1-70B",
  ["meta-llama/Llama-3.1-8B-Instruct"] = "meta-llama/Llama-3.1-8B",  -- (calibration)
  ["meta-llama/Llama-3.2-1B-Instruct"] = "meta-llama/Llama-3.2-1B",
  ["meta-llama/Llama-3.2-3B-Instruct"] = "meta-llama/Llama-3.2-3B",  -- (calibration)
  ["meta-llama/Llama-3.3-70B-Instruct"] = "meta-llama/Llama-3.1-70B",
  ["meta-llama/Meta-Llama-3-8B-Instruct"] = "meta-llama/Meta-Llama-3-8B",
  ["mistralai/Mistral-7B-Instruct-v0.1"] = "mistralai/Mistral-7B-v0.1",
  ["mistralai/Mistral-7B-Instruct-v0.3"] = "mistralai/Mistral-7B-v0.3",
  ["mistralai/Mixtral-8x7B-Instruct-v0.1"] = "mistralai/Mixtral-8x7B-v0.1",  -- (calibration)
  ["Qwen/Qwen2.5-0.5B-Instruct"] = "Qwen/Qwen2.5-0.5B",
  ["Qwen/Qwen2.5-72B"] = "Qwen/Qwen2.5-72B-Instruct",
  -- --- gen
  ["runwayml/stable-diffusion-v1-5"] = "stable-diffusion-v1-5/stable-diffusion-v1-5",
  ["CompVis/stable-diffusion-v1-4"] = "stable-diffusion-v1-5/stable-diffusion-v1-5",  -- (calibration, training)
  ["tencent/HunyuanVideo"] = "hunyuanvideo-community/HunyuanVideo",  -- (calibration)
  ["Wan-AI/Wan2.1-I2V-14B-480P"] = "Wan-AI/Wan2.1-I2V-14B-720P",
  ["Wan-AI/Wan2.1-T2V-14B-Diffusers"] = "Wan-AI/Wan2.1-T2V-14B",
  ["Wan-AI/Wan2.1-T2V-1.3B-Diffusers"] = "Wan-AI/Wan2.1-T2V-1.3B",
  ["Qwen/Qwen-Image-2512"] = "Qwen/Qwen-Image",  -- the same transformer and encoders, retrained
  -- edit models whose checkpoints have their base's shapes (the input image's latent tokens
  -- they add to the denoiser's sequence: workload.input_images, docs/ARCHITECTURES.md)
  ["black-forest-labs/FLUX.1-Kontext-dev"] = "black-forest-labs/FLUX.1-dev",  -- BFL flux util.py: flux-dev-kontext params = flux-dev's
  ["Qwen/Qwen-Image-Edit"] = "Qwen/Qwen-Image",  -- DiffSynth-Studio model_configs.py: the same DiT key/shape hash
  ["Qwen/Qwen-Image-Edit-2509"] = "Qwen/Qwen-Image",  -- likewise (loaded as that hash's QwenImageDiT)
  -- --- serve2
  ["meta-llama/Llama-3.2-11B-Vision-Instruct"] = "meta-llama/Llama-3.2-11B-Vision",
  ["meta-llama/Llama-4-Scout-17B-16E"] = "meta-llama/Llama-4-Scout-17B-16E-Instruct",
  ["meta-llama/Llama-4-Maverick-17B-128E"] = "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
  ["mistralai/Mistral-Small-3.1-24B-Base-2503"] = "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
  ["mistralai/Mistral-Small-3.2-24B-Instruct-2506"] = "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
  ["Qwen/Qwen3-Next-80B-A3B-Thinking"] = "Qwen/Qwen3-Next-80B-A3B-Instruct",
  -- --- architecture families A
  ["google/gemma-7b-it"] = "google/gemma-7b",
  ["google/gemma-2b-it"] = "google/gemma-2b",
  ["allenai/OLMo-2-1124-7B-Instruct"] = "allenai/OLMo-2-1124-7B",
  ["allenai/OLMo-2-1124-13B-Instruct"] = "allenai/OLMo-2-1124-13B",
  ["allenai/OLMoE-1B-7B-0924-Instruct"] = "allenai/OLMoE-1B-7B-0924",
  ["ibm-granite/granite-3.1-8b-base"] = "ibm-granite/granite-3.1-8b-instruct",
  ["ibm-granite/granite-3.1-2b-base"] = "ibm-granite/granite-3.1-2b-instruct",
  ["ibm-granite/granite-3.1-3b-a800m-base"] = "ibm-granite/granite-3.1-3b-a800m-instruct",
  ["ibm-granite/granite-3.1-1b-a400m-base"] = "ibm-granite/granite-3.1-1b-a400m-instruct",
  ["HuggingFaceTB/SmolLM3-3B-Base"] = "HuggingFaceTB/SmolLM3-3B",
  -- --- arch-families-c
  ["nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B"] = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
  ["nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-Base-BF16"] = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
  -- Nemotron-Cascade-2 is post-trained from Nemotron-3-Nano-30B-A3B-Base: llama.cpp reports the same
  -- n_params (31,577,940,288) and n_embd 2688 for its GGUF as for Nano's
  ["nvidia/Nemotron-Cascade-2-30B-A3B"] = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
  ["moonshotai/Kimi-Linear-48B-A3B-Base"] = "moonshotai/Kimi-Linear-48B-A3B-Instruct",
  -- MiniMax-M1-40k has the 80k model's shapes (the same 456,089,655,296 total); MiniMax-Text-01 is
  -- M1's base with the same 456B layout (MiniMax-M1 is "built on MiniMax-Text-01")
  ["MiniMaxAI/MiniMax-M1-40k"] = "MiniMaxAI/MiniMax-M1-80k",
}

-- ---- gemma4: base checkpoints have the -it shapes
aliases["google/gemma-4-E2B"] = "google/gemma-4-E2B-it"
aliases["google/gemma-4-E4B"] = "google/gemma-4-E4B-it"
aliases["google/gemma-4-31B"] = "google/gemma-4-31B-it"
aliases["google/gemma-4-26B-A4B"] = "google/gemma-4-26B-A4B-it"

-- ---- arch-mamba: attention-free Mamba-1 / Mamba-2 (architectures/mamba.lua)
-- state-spaces/mamba-2.8b-hf: its config.json as the model's README quotes it (hidden 2560, 64 layers,
-- intermediate 5120, state 16, time_step_rank 160, conv 4, vocab 50280, no bias / conv bias, float32,
-- tied: MambaConfig's default). 2,768,345,600 parameters: "Number of parameters: 2768345600", AMD's
-- ROCm blog "Mamba on AMD GPUs with ROCm" (rocm.blogs.amd.com, 2024), loading state-spaces/mamba-2.8b.
models["state-spaces/mamba-2.8b-hf"] = { arch = "mamba", config = {
  architectures = { "MambaForCausalLM" }, model_type = "mamba", hidden_size = 2560, num_hidden_layers = 64,
  intermediate_size = 5120, expand = 2, state_size = 16, conv_kernel = 4, time_step_rank = 160,
  vocab_size = 50280, use_bias = false, use_conv_bias = true, layer_norm_epsilon = 1e-05,
  residual_in_fp32 = true, torch_dtype = "float32" } }
-- tiiuae/falcon-mamba-7b: its config.json as transformers' own benchmark and two model-export test
-- suites copy it (hidden 4096, 64 layers, "expand": 16 but "intermediate_size": 8192, which is what
-- loads: FalconMambaConfig keeps the stored field, and the checkpoint's in_proj is {16384, 4096};
-- state 16, time_step_rank 256, conv 4, vocab 65024, untied, bfloat16). The card's "7.27B".
models["tiiuae/falcon-mamba-7b"] = { arch = "mamba", config = {
  architectures = { "FalconMambaForCausalLM" }, model_type = "falcon_mamba", hidden_size = 4096,
  num_hidden_layers = 64, intermediate_size = 8192, expand = 16, state_size = 16, conv_kernel = 4,
  time_step_rank = 256, vocab_size = 65024, use_bias = false, use_conv_bias = true, tie_word_embeddings = false,
  layer_norm_epsilon = 1e-05, residual_in_fp32 = true, torch_dtype = "bfloat16" } }
-- mistralai/Mamba-Codestral-7B-v0.1 (Mamba2ForCausalLM): hidden 4096, 64 layers, 128 heads x 64
-- (intermediate 8192, expand 2), n_groups 8, state 128, conv 4, vocab 32768, untied, no bias / conv
-- bias, bfloat16, chunk_size 256. Mistral's announcement (mistral.ai/news/codestral-mamba, 2024-07-16):
-- "an instructed model, with 7,285,403,648 parameters" -- which this inventory reproduces exactly.
models["mistralai/Mamba-Codestral-7B-v0.1"] = { arch = "mamba", config = {
  architectures = { "Mamba2ForCausalLM" }, model_type = "mamba2", hidden_size = 4096, num_hidden_layers = 64,
  num_heads = 128, head_dim = 64, intermediate_size = 8192, expand = 2, n_groups = 8, state_size = 128,
  conv_kernel = 4, chunk_size = 256, vocab_size = 32768, use_bias = false, use_conv_bias = true,
  tie_word_embeddings = false, layer_norm_epsilon = 1e-05, residual_in_fp32 = true, torch_dtype = "bfloat16" } }
aliases["tiiuae/falcon-mamba-7b-instruct"] = "tiiuae/falcon-mamba-7b"

-- ---- arch-dense: OLMo 3, Apertus, Arcee AFM, Nemotron-4 / Minitron, StableLM, GPTBigCode, EXAONE 3.5
-- OLMo 3 (olmo3): the config.json fields as public copies quote them. Olmo-3-1125-32B: hidden 5120,
-- 64 layers, 40/8 heads (head_dim 128), 27648, vocab 100278, max_position 65536, rope_theta 500000 with
-- YaRN x8 over 8192 on the full layers, sliding_window 4096, layer_types 3 sliding + 1 full repeated
-- (a TT-Metal bring-up note "from config.json"); Olmo-3-1025-7B: hidden 4096, 32 layers, 32/32 heads,
-- 11008, the same vocabulary, window and RoPE (a model card summary, an inference engine's config test
-- of the 7B's shapes). Untied lm_head on both.
local function olmo3_layer_types(n)
  local lt = {}
  for i = 1, n do lt[i] = i % 4 == 0 and "full_attention" or "sliding_attention" end
  return lt
end
local OLMO3_ROPE = { attention_factor = 1.2079441541679836, beta_fast = 32.0, beta_slow = 1.0, factor = 8.0,
                     original_max_position_embeddings = 8192, rope_type = "yarn" }
models["allenai/Olmo-3-1025-7B"] = { arch = "olmo3", config = {
  architectures = { "Olmo3ForCausalLM" }, attention_bias = false, hidden_act = "silu", hidden_size = 4096,
  intermediate_size = 11008, layer_types = olmo3_layer_types(32), max_position_embeddings = 65536,
  model_type = "olmo3", num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 32,
  rope_scaling = OLMO3_ROPE, rope_theta = 500000, sliding_window = 4096,
  tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 100278 } }
models["allenai/Olmo-3-1125-32B"] = { arch = "olmo3", config = {
  architectures = { "Olmo3ForCausalLM" }, attention_bias = false, hidden_act = "silu", hidden_size = 5120,
  intermediate_size = 27648, layer_types = olmo3_layer_types(64), max_position_embeddings = 65536,
  model_type = "olmo3", num_attention_heads = 40, num_hidden_layers = 64, num_key_value_heads = 8,
  rope_scaling = OLMO3_ROPE, rope_theta = 500000, sliding_window = 4096,
  tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 100278 } }
aliases["allenai/Olmo-3-7B-Instruct"] = "allenai/Olmo-3-1025-7B"
aliases["allenai/Olmo-3-7B-Think"] = "allenai/Olmo-3-1025-7B"
aliases["allenai/Olmo-3-32B-Think"] = "allenai/Olmo-3-1125-32B"
aliases["allenai/Olmo-3.1-32B-Instruct"] = "allenai/Olmo-3-1125-32B"
aliases["allenai/Olmo-3.1-32B-Think"] = "allenai/Olmo-3-1125-32B"

-- Apertus (apertus): Apertus-8B-2509's config.json as an Ollama MLX-runner test quotes it (hidden 4096,
-- 21504, 32 layers, 32/8 heads, vocab 131072, max_position 65536, rope_theta 12,000,000 with llama3
-- scaling x8 over 8192, xielu, qk_norm, no biases, untied, bfloat16). Apertus-70B-2509: hidden 8192,
-- 43008, 80 layers, 64/8 heads, the same vocabulary and RoPE (the 70B dimensions the same test suite
-- checks; their count is llama.cpp's n_params of an Apertus 70B GGUF, see the tests).
local APERTUS_ROPE = { factor = 8.0, high_freq_factor = 4.0, low_freq_factor = 1.0,
                       original_max_position_embeddings = 8192, rope_type = "llama3" }
models["swiss-ai/Apertus-8B-2509"] = { arch = "apertus", config = {
  architectures = { "ApertusForCausalLM" }, attention_bias = false, hidden_act = "xielu", hidden_size = 4096,
  intermediate_size = 21504, max_position_embeddings = 65536, mlp_bias = false, model_type = "apertus",
  num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 8, rms_norm_eps = 1e-05,
  rope_scaling = APERTUS_ROPE, rope_theta = 12000000, tie_word_embeddings = false, torch_dtype = "bfloat16",
  vocab_size = 131072 } }
models["swiss-ai/Apertus-70B-2509"] = { arch = "apertus", config = {
  architectures = { "ApertusForCausalLM" }, attention_bias = false, hidden_act = "xielu", hidden_size = 8192,
  intermediate_size = 43008, max_position_embeddings = 65536, mlp_bias = false, model_type = "apertus",
  num_attention_heads = 64, num_hidden_layers = 80, num_key_value_heads = 8, rms_norm_eps = 1e-05,
  rope_scaling = APERTUS_ROPE, rope_theta = 12000000, tie_word_embeddings = false, torch_dtype = "bfloat16",
  vocab_size = 131072 } }
aliases["swiss-ai/Apertus-8B-Instruct-2509"] = "swiss-ai/Apertus-8B-2509"
aliases["swiss-ai/Apertus-70B-Instruct-2509"] = "swiss-ai/Apertus-70B-2509"

-- Arcee AFM (arcee): AFM-4.5B's config.json as AWS Neuron's NxD Inference port of it quotes it (hidden
-- 2560, 36 layers, 20/4 heads, head_dim 128, 18432, vocab 128004, max_position 65536, rope_theta 10000
-- with YaRN x20 over 4096, relu2, no biases, untied).
models["arcee-ai/AFM-4.5B"] = { arch = "arcee", config = {
  architectures = { "ArceeForCausalLM" }, attention_bias = false, head_dim = 128, hidden_act = "relu2",
  hidden_size = 2560, intermediate_size = 18432, max_position_embeddings = 65536, mlp_bias = false,
  model_type = "arcee", num_attention_heads = 20, num_hidden_layers = 36, num_key_value_heads = 4,
  rms_norm_eps = 1e-05, rope_scaling = { factor = 20.0, original_max_position_embeddings = 4096, rope_type = "yarn" },
  rope_theta = 10000.0, tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 128004 } }
aliases["arcee-ai/AFM-4.5B-Base"] = "arcee-ai/AFM-4.5B"

-- Nemotron-4 / Minitron (nemotron): the 4B Minitron's config.json as TensorRT-LLM's
-- tests/unittest/_torch/modeling/test_modeling_nemotron.py quotes it (Nemotron_4_4B_CONFIG: hidden 3072,
-- 9216, 32 layers, 24/8 heads, kv_channels 128, vocab 256000, max_position 4096, partial_rotary_factor
-- 0.5, relu2, untied, bfloat16).
models["nvidia/Minitron-4B-Base"] = { arch = "nemotron", config = {
  architectures = { "NemotronForCausalLM" }, hidden_act = "relu2", hidden_size = 3072, intermediate_size = 9216,
  max_position_embeddings = 4096, model_type = "nemotron", norm_eps = 1e-05, num_attention_heads = 24,
  num_hidden_layers = 32, num_key_value_heads = 8, partial_rotary_factor = 0.5, rope_theta = 10000,
  tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 256000 } }
aliases["nvidia/Nemotron-Mini-4B-Instruct"] = "nvidia/Minitron-4B-Base"

-- StableLM (stablelm): stablelm-3b-4e1t (hidden 2560, 32 layers, 32 heads, 4096 positions, RoPE on 25% of
-- the head: its model card's table; 6912, vocab 50304, no q/k/v bias, untied) and stablelm-2-1_6b (hidden
-- 2048, 5632, 24 layers, 32 heads, vocab 100352, q/k/v bias, partial_rotary_factor 0.25, untied); both
-- counts below reproduce the published totals exactly.
models["stabilityai/stablelm-3b-4e1t"] = { arch = "stablelm", config = {
  architectures = { "StableLmForCausalLM" }, hidden_act = "silu", hidden_size = 2560, intermediate_size = 6912,
  layer_norm_eps = 1e-05, max_position_embeddings = 4096, model_type = "stablelm", num_attention_heads = 32,
  num_hidden_layers = 32, num_key_value_heads = 32, partial_rotary_factor = 0.25, rope_theta = 10000,
  tie_word_embeddings = false, torch_dtype = "bfloat16", use_qkv_bias = false, vocab_size = 50304 } }
models["stabilityai/stablelm-2-1_6b"] = { arch = "stablelm", config = {
  architectures = { "StableLmForCausalLM" }, hidden_act = "silu", hidden_size = 2048, intermediate_size = 5632,
  layer_norm_eps = 1e-05, max_position_embeddings = 4096, model_type = "stablelm", num_attention_heads = 32,
  num_hidden_layers = 24, num_key_value_heads = 32, partial_rotary_factor = 0.25, rope_theta = 10000,
  tie_word_embeddings = false, torch_dtype = "float16", use_qkv_bias = true, vocab_size = 100352 } }
aliases["stabilityai/stablelm-zephyr-3b"] = "stabilityai/stablelm-3b-4e1t"
aliases["stabilityai/stablelm-2-zephyr-1_6b"] = "stabilityai/stablelm-2-1_6b"
aliases["stabilityai/stablelm-2-1_6b-chat"] = "stabilityai/stablelm-2-1_6b"

-- GPTBigCode (gpt_bigcode): StarCoderBase's config.json fields (n_embd 6144, 40 layers, 48 heads,
-- multi_query, n_inner 24576, n_positions 8192, vocab 49152, tied) and StarCoderBase-1B's (2048, 24
-- layers, 16 heads, 8192 inner); their counts reproduce the 15,517,456,384 / 1,137,207,296 a published
-- model-size table gives their fine-tunes (MultiPL-T StarCoder 15B / 1B).
models["bigcode/starcoderbase"] = { arch = "gpt_bigcode", config = {
  activation_function = "gelu_pytorch_tanh", architectures = { "GPTBigCodeForCausalLM" }, model_type = "gpt_bigcode",
  multi_query = true, n_embd = 6144, n_head = 48, n_inner = 24576, n_layer = 40, n_positions = 8192,
  torch_dtype = "float32", vocab_size = 49152 } }
models["bigcode/starcoderbase-1b"] = { arch = "gpt_bigcode", config = {
  activation_function = "gelu_pytorch_tanh", architectures = { "GPTBigCodeForCausalLM" }, model_type = "gpt_bigcode",
  multi_query = true, n_embd = 2048, n_head = 16, n_inner = 8192, n_layer = 24, n_positions = 8192,
  torch_dtype = "float32", vocab_size = 49152 } }
aliases["bigcode/starcoder"] = "bigcode/starcoderbase"

-- EXAONE 3.5 (exaone): EXAONE-3.5-7.8B-Instruct's config.json fields (hidden 4096, num_layers 32, 32/8
-- heads, head_dim 128, 14336, vocab 102400, max_position 32768, rope_theta 1,000,000 with llama3 scaling
-- x8 over 8192, untied); its count reproduces the 7,818,448,896 an MLX port of the checkpoint reports.
models["LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct"] = { arch = "exaone", config = {
  activation_function = "silu", architectures = { "ExaoneForCausalLM" }, head_dim = 128, hidden_size = 4096,
  intermediate_size = 14336, layer_norm_epsilon = 1e-05, max_position_embeddings = 32768, model_type = "exaone",
  num_attention_heads = 32, num_key_value_heads = 8, num_layers = 32,
  rope_scaling = { factor = 8.0, high_freq_factor = 4.0, low_freq_factor = 1.0,
                   original_max_position_embeddings = 8192, rope_type = "llama3" },
  rope_theta = 1000000.0, tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 102400 } }
-- arch-moe: databricks/dbrx-instruct's config.json as a Rust DBRX port's fixture copies it (mlx-community's
-- 4-bit conversion of it: d_model 6144, 40 layers, 48 heads, attn_config kv_n_heads 8, clip_qkv 8,
-- rope_theta 500000; ffn_config ffn_hidden_size 10752, 16 experts, top 4, moe_normalize_expert_weights
-- 1, silu; max_seq_len 32768, vocab 100352, untied, bfloat16); the quantization block left out.
-- dbrx-base has the same shapes.
models["databricks/dbrx-instruct"] = { arch = "dbrx", config = {
  architectures = { "DbrxForCausalLM" }, model_type = "dbrx", d_model = 6144, n_heads = 48, n_layers = 40,
  attn_config = { attn_pdrop = 0, clip_qkv = 8, kv_n_heads = 8, rope_theta = 500000 },
  ffn_config = { ffn_act_fn = { name = "silu" }, ffn_hidden_size = 10752, moe_jitter_eps = 0, moe_loss_weight = 0.05,
                 moe_normalize_expert_weights = 1, moe_num_experts = 16, moe_top_k = 4, uniform_expert_assignment = false },
  emb_pdrop = 0.0, max_seq_len = 32768, resid_pdrop = 0.0, router_aux_loss_coef = 0.05,
  tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 100352 } }
aliases["databricks/dbrx-base"] = "databricks/dbrx-instruct"
-- arch-moe: Ling 2.0 (architectures/bailing_moe.lua). Ling-mini-2.0's shape fields as a public LLaDA2.0-mini
-- config fixture quotes them (the same backbone: 2048, 20 layers, 16 / 4 heads of 128, dense 5120, 256 experts
-- of 512, 8 per token, 1 shared expert, first layer dense, sigmoid routing in 8 groups (top 4) with the expert
-- bias, routed_scaling_factor 2.5, half RoPE, q/k norm, vocab 157184, untied), which a public recount of the
-- released Ling-mini-2.0 config.json reproduces to its Hub safetensors total; Ling-flash-2.0: 4096, 32 layers,
-- 32 / 4 heads of 128, dense 9216, 256 experts of 1024, the rest as Ling-mini's (the shapes whose count is the
-- published 102,889,705,216). The Ring-*-2.0 reasoning models share the shapes.
models["inclusionAI/Ling-mini-2.0"] = { arch = "bailing_moe_v2", config = {
  architectures = { "BailingMoeV2ForCausalLM" }, model_type = "bailing_moe_v2", hidden_size = 2048,
  num_hidden_layers = 20, num_attention_heads = 16, num_key_value_heads = 4, head_dim = 128,
  intermediate_size = 5120, moe_intermediate_size = 512, num_experts = 256, num_experts_per_tok = 8,
  num_shared_experts = 1, first_k_dense_replace = 1, n_group = 8, topk_group = 4, score_function = "sigmoid",
  moe_router_enable_expert_bias = true, routed_scaling_factor = 2.5, norm_topk_prob = true,
  partial_rotary_factor = 0.5, rope_theta = 600000, use_qk_norm = true, use_qkv_bias = false, use_bias = false,
  max_position_embeddings = 32768, rms_norm_eps = 1e-06, tie_word_embeddings = false, vocab_size = 157184,
  torch_dtype = "bfloat16" } }
models["inclusionAI/Ling-flash-2.0"] = { arch = "bailing_moe_v2", config = {
  architectures = { "BailingMoeV2ForCausalLM" }, model_type = "bailing_moe_v2", hidden_size = 4096,
  num_hidden_layers = 32, num_attention_heads = 32, num_key_value_heads = 4, head_dim = 128,
  intermediate_size = 9216, moe_intermediate_size = 1024, num_experts = 256, num_experts_per_tok = 8,
  num_shared_experts = 1, first_k_dense_replace = 1, n_group = 8, topk_group = 4, score_function = "sigmoid",
  moe_router_enable_expert_bias = true, routed_scaling_factor = 2.5, norm_topk_prob = true,
  partial_rotary_factor = 0.5, rope_theta = 600000, use_qk_norm = true, use_qkv_bias = false, use_bias = false,
  max_position_embeddings = 32768, rms_norm_eps = 1e-06, tie_word_embeddings = false, vocab_size = 157184,
  torch_dtype = "bfloat16" } }
aliases["inclusionAI/Ring-mini-2.0"] = "inclusionAI/Ling-mini-2.0"
aliases["inclusionAI/Ring-flash-2.0"] = "inclusionAI/Ling-flash-2.0"

-- --- arch-moe2: MiniCPM3 (minicpm3). MiniCPM3-4B's config.json fields as transformers' MiniCPM3Config
-- carries them as its defaults ("Defaults match the openbmb/MiniCPM3-4B checkpoint",
-- models/minicpm3/configuration_minicpm3.py) and vLLM's test fixtures quote them: hidden 2560, 62 layers,
-- 40 heads (40 KV heads), 6400, vocab 73448, q_lora 768, kv_lora 256, qk_nope 64, qk_rope 32 (v_head_dim
-- absent: hidden / heads = 64), 32768 positions, scale_emb 12, scale_depth 1.4, dim_model_base 256,
-- tied. Its longrope rope_scaling (short / long factors over 32 rotary dims) is left out: no shape.
models["openbmb/MiniCPM3-4B"] = { arch = "minicpm3", config = {
  architectures = { "MiniCPM3ForCausalLM" }, model_type = "minicpm3", hidden_size = 2560,
  num_hidden_layers = 62, num_attention_heads = 40, num_key_value_heads = 40, intermediate_size = 6400,
  vocab_size = 73448, q_lora_rank = 768, kv_lora_rank = 256, qk_nope_head_dim = 64, qk_rope_head_dim = 32,
  max_position_embeddings = 32768, rms_norm_eps = 1e-05, rope_theta = 10000.0, scale_emb = 12,
  scale_depth = 1.4, dim_model_base = 256, tie_word_embeddings = true, torch_dtype = "bfloat16" } }

-- --- arch-moe2: Arcee AFMoE (afmoe). Trinity-Nano-Preview's config.json as AWS Neuron's NxD Inference port
-- quotes it field by field ("matches arcee-ai/Trinity-Nano-Preview/config.json": hidden 1024, 56 layers, 8/2
-- heads of 128, 3072, moe 256, 128 experts top 8, one shared, 2 dense layers, sliding_window 2048, a global
-- layer every 4th, 131072 positions, vocab 200192, route_scale 2.826, sigmoid, untied), and Trinity-Mini's
-- as its overrides (hidden 2048, 32 layers, 32/4 heads, 6144, moe 1024) and a public config-parsing test
-- quote them (layer_types "sliding x 3, full" x 8).
local function trinity(o)
  local c = { architectures = { "AfmoeForCausalLM" }, model_type = "afmoe", head_dim = 128, hidden_act = "silu",
    global_attn_every_n_layers = 4, max_position_embeddings = 131072, mup_enabled = true, n_group = 1,
    num_expert_groups = 1, num_experts = 128, num_experts_per_tok = 8, num_limited_groups = 1,
    num_shared_experts = 1, num_dense_layers = 2, rms_norm_eps = 1e-05, rope_theta = 10000, route_norm = true,
    route_scale = 2.826, score_func = "sigmoid", sliding_window = 2048, tie_word_embeddings = false,
    topk_group = 1, vocab_size = 200192, torch_dtype = "bfloat16" }
  for k, v in pairs(o) do c[k] = v end
  return c
end
models["arcee-ai/Trinity-Nano-Preview"] = { arch = "afmoe", config = trinity {
  hidden_size = 1024, intermediate_size = 3072, moe_intermediate_size = 256, num_attention_heads = 8,
  num_key_value_heads = 2, num_hidden_layers = 56 } }
models["arcee-ai/Trinity-Mini"] = { arch = "afmoe", config = trinity {
  hidden_size = 2048, intermediate_size = 6144, moe_intermediate_size = 1024, num_attention_heads = 32,
  num_key_value_heads = 4, num_hidden_layers = 32, layer_types = (function()
    local lt = {}
    for i = 1, 32 do lt[i] = i % 4 == 0 and "full_attention" or "sliding_attention" end
    return lt
  end)() } }
aliases["arcee-ai/Trinity-Nano-Base"] = "arcee-ai/Trinity-Nano-Preview"
aliases["arcee-ai/Trinity-Mini-Base"] = "arcee-ai/Trinity-Mini"

-- --- arch-moe2: LongCat-Flash (longcat_flash). LongCat-Flash-Chat's config.json fields as transformers'
-- LongcatFlashConfig carries them as its defaults (checkpoint meituan-longcat/LongCat-Flash-Chat) and public
-- expert-resharding notes quote them: hidden 6144, 28 layers (56 MLA blocks), 64 heads, q_lora 1536,
-- kv_lora 512, qk_nope 128, qk_rope 64, v 128, ffn 12288, 512 experts of 2048 + 256 zero (identity)
-- experts, top 12, routed_scaling_factor 6.0, vocab 131072, 131072 positions, untied; the router in
-- float32 (vLLM FlashConfig's router_dtype).
models["meituan-longcat/LongCat-Flash-Chat"] = { arch = "longcat_flash", config = {
  architectures = { "LongcatFlashForCausalLM" }, model_type = "longcat_flash", hidden_size = 6144,
  num_layers = 28, num_attention_heads = 64, q_lora_rank = 1536, kv_lora_rank = 512, qk_nope_head_dim = 128,
  qk_rope_head_dim = 64, v_head_dim = 128, ffn_hidden_size = 12288, expert_ffn_hidden_size = 2048,
  n_routed_experts = 512, zero_expert_num = 256, zero_expert_type = "identity", moe_topk = 12,
  routed_scaling_factor = 6.0, router_dtype = "float32", mla_scale_q_lora = true, mla_scale_kv_lora = true,
  vocab_size = 131072, max_position_embeddings = 131072, rope_theta = 10000000.0, rms_norm_eps = 1e-05,
  tie_word_embeddings = false, torch_dtype = "bfloat16" } }

-- --- arch-new3: Zamba2 (zamba2). Zamba2-1.2B's config.json (revision 6b05bf29, as a public meta-device
-- trace of it prints its fields): hidden 2048, 38 layers, hybrid layers 5, 11, ..., 35, 32 heads of
-- 2 x 2048 / 32 = 128, MLP 8192, vocab 32000, 64 Mamba heads of 64, 1 group, state 128, conv 4, one
-- shared block with attention and MLP adapters of rank 128, RoPE, tied. Zamba2-7B's (as a public
-- benchmark's copy and a layer extractor "verified from config.json" quote it): hidden 3584, 81 layers,
-- hybrid 6, 11, 17, ..., 77, 32 heads of 224, MLP 14336, 112 Mamba heads of 64, 2 groups, state 64, two
-- shared blocks, MLP adapters only (use_shared_block_lora, not use_shared_attention_lora), RoPE.
-- Zamba2-2.7B's: Zamba2Config's defaults ("a Zamba2-2.7B style configuration": hidden 2560, 54 layers,
-- its layers_block_type) with 80 Mamba heads of 64 (mamba_headdim 64 as in the others), two shared
-- blocks, MLP adapters only (the Zyphra/Zamba2 README: "a LoRA projector to each shared MLP block"), no
-- RoPE; not checked against the checkpoint's config.json.
local function zamba2_types(n, ids)
  local lt, hy = {}, {}
  for _, i in ipairs(ids) do hy[i] = true end
  for i = 0, n - 1 do lt[i + 1] = hy[i] and "hybrid" or "mamba" end
  return lt
end
local function zamba2(c)
  local base = { architectures = { "Zamba2ForCausalLM" }, model_type = "zamba2", adapter_rank = 128,
    add_bias_linear = false, hidden_act = "gelu", mamba_d_conv = 4, mamba_expand = 2,
    max_position_embeddings = 4096, rms_norm_eps = 1e-05, rope_theta = 10000, torch_dtype = "bfloat16",
    use_conv_bias = true, vocab_size = 32000 }
  for k, v in pairs(c) do base[k] = v end
  return base
end
models["Zyphra/Zamba2-1.2B"] = { arch = "zamba2", config = zamba2 {
  hidden_size = 2048, num_hidden_layers = 38, num_attention_heads = 32, num_key_value_heads = 32,
  intermediate_size = 8192, n_mamba_heads = 64, mamba_ngroups = 1, mamba_d_state = 128, num_mem_blocks = 1,
  use_shared_attention_adapter = true, use_shared_mlp_adapter = true, use_mem_rope = true,
  layers_block_type = zamba2_types(38, { 5, 11, 17, 23, 29, 35 }) } }
models["Zyphra/Zamba2-2.7B"] = { arch = "zamba2", config = zamba2 {
  hidden_size = 2560, num_hidden_layers = 54, num_attention_heads = 32, num_key_value_heads = 32,
  intermediate_size = 10240, n_mamba_heads = 80, mamba_ngroups = 1, mamba_d_state = 64, num_mem_blocks = 2,
  use_shared_attention_adapter = false, use_shared_mlp_adapter = true, use_mem_rope = false,
  layers_block_type = zamba2_types(54, { 6, 12, 18, 24, 30, 36, 42, 47, 51 }) } }
models["Zyphra/Zamba2-7B"] = { arch = "zamba2", config = zamba2 {
  hidden_size = 3584, num_hidden_layers = 81, num_attention_heads = 32, num_key_value_heads = 32,
  intermediate_size = 14336, n_mamba_heads = 112, mamba_ngroups = 2, mamba_d_state = 64, num_mem_blocks = 2,
  use_shared_attention_adapter = false, use_shared_mlp_adapter = true, use_mem_rope = true,
  layers_block_type = zamba2_types(81, { 6, 11, 17, 23, 29, 35, 41, 47, 53, 59, 65, 71, 77 }) } }
aliases["Zyphra/Zamba2-1.2B-Instruct"] = "Zyphra/Zamba2-1.2B"
aliases["Zyphra/Zamba2-1.2B-Instruct-v2"] = "Zyphra/Zamba2-1.2B"
aliases["Zyphra/Zamba2-2.7B-Instruct"] = "Zyphra/Zamba2-2.7B"
aliases["Zyphra/Zamba2-7B-Instruct"] = "Zyphra/Zamba2-7B"

-- --- arch-new3: Kimi-VL (kimi_vl). Kimi-VL-A3B-Instruct's config.json: text_config the Moonlight-16B-A3B
-- shapes (as a public loader test quotes Moonlight's config: hidden 2048, 27 layers, 16 heads, MLA
-- kv_lora 512 without q_lora, nope 128 / rope 64 / v 128, MLP 11264, first layer dense, 64 experts of
-- 1408, 6 per token, 2 shared, sigmoid noaux_tc, routed_scaling_factor 2.446, vocab 163840, untied) with
-- the 131,072-token context of the Kimi-VL card and the rope_theta 800000 a public Kimi-VL loader fixture
-- sets; vision_config moonshotai/MoonViT-SO-400M's (hidden 1152, 27 layers, 16 heads, 4304, patch 14,
-- 64 x 64 position table, 2 x 2 merge), as public copies quote it.
models["moonshotai/Kimi-VL-A3B-Instruct"] = { arch = "kimi_vl", config = {
  architectures = { "KimiVLForConditionalGeneration" }, model_type = "kimi_vl", media_placeholder_token_id = 163605,
  torch_dtype = "bfloat16",
  text_config = { model_type = "deepseek_v3", first_k_dense_replace = 1, hidden_size = 2048,
    intermediate_size = 11264, kv_lora_rank = 512, max_position_embeddings = 131072, moe_intermediate_size = 1408,
    moe_layer_freq = 1, n_group = 1, n_routed_experts = 64, n_shared_experts = 2, norm_topk_prob = true,
    num_attention_heads = 16, num_experts_per_tok = 6, num_hidden_layers = 27, num_key_value_heads = 16,
    num_nextn_predict_layers = 0, q_lora_rank = nil, qk_nope_head_dim = 128, qk_rope_head_dim = 64,
    rms_norm_eps = 1e-05, rope_theta = 800000.0, routed_scaling_factor = 2.446, scoring_func = "sigmoid",
    tie_word_embeddings = false, topk_group = 1, topk_method = "noaux_tc", torch_dtype = "bfloat16",
    v_head_dim = 128, vocab_size = 163840 },
  vision_config = { model_type = "moonvit", hidden_size = 1152, num_hidden_layers = 27, num_attention_heads = 16,
    intermediate_size = 4304, patch_size = 14, init_pos_emb_height = 64, init_pos_emb_width = 64,
    merge_kernel_size = { 2, 2 } } } }
aliases["moonshotai/Kimi-VL-A3B-Thinking"] = "moonshotai/Kimi-VL-A3B-Instruct"
aliases["moonshotai/Kimi-VL-A3B-Thinking-2506"] = "moonshotai/Kimi-VL-A3B-Instruct"

-- --- arch-new3: Phi-3.5-vision (phi3_v). microsoft/Phi-3.5-vision-instruct's config.json shape fields:
-- Phi-3-mini's (hidden 3072, 32 layers, 32 heads, 8192, vocab 32064, untied), 131,072 positions
-- (original 4096), img_processor CLIP ViT-L/14-336 (image_dim_out 1024, 144 image tokens a crop),
-- embd_layer projection_cls "mlp" with use_hd_transform; its LongRoPE factor lists and sliding_window
-- (262144, above the context) left out.
models["microsoft/Phi-3.5-vision-instruct"] = { arch = "phi3_v", config = {
    architectures = { "Phi3VForCausalLM" }, model_type = "phi3_v", attention_dropout = 0.0,
    embd_layer = { embedding_cls = "image", hd_transform_order = "sub_glb", projection_cls = "mlp",
                   use_hd_transform = true, with_learnable_separator = true },
    hidden_act = "silu", hidden_size = 3072, intermediate_size = 8192,
    img_processor = { image_dim_out = 1024, model_name = "openai/clip-vit-large-patch14-336",
                      name = "clip_vision_model", num_img_tokens = 144 },
    max_position_embeddings = 131072, num_attention_heads = 32, num_hidden_layers = 32, num_key_value_heads = 32,
    original_max_position_embeddings = 4096, rms_norm_eps = 1e-05, rope_theta = 10000.0,
    tie_word_embeddings = false, torch_dtype = "bfloat16", vocab_size = 32064,
} }
aliases["microsoft/Phi-3-vision-128k-instruct"] = "microsoft/Phi-3.5-vision-instruct"

return { models = models, aliases = aliases }
