/*
** holdout_models.h: inline model configs that more than one hold-out test evaluates and the
** catalogue does not hold.
**
** Q235_CFG: Qwen3-235B-A22B's config.json fields (Qwen/Qwen3-235B-A22B-Instruct-2507's
** max_position_embeddings), used by the round-25 Red Hat dashboard starts
** (tests/test_holdout25_vllm.c, tests/test_holdout25_vllmp.c).
*/
#ifndef VF_TESTS_HOLDOUT_MODELS_H
#define VF_TESTS_HOLDOUT_MODELS_H

#define Q235_CFG                                                                                            \
  "{ arch = 'qwen3_moe', config = { architectures = { 'Qwen3MoeForCausalLM' }, model_type = 'qwen3_moe', "  \
  "hidden_size = 4096, intermediate_size = 12288, moe_intermediate_size = 1536, num_hidden_layers = 94, "   \
  "num_attention_heads = 64, num_key_value_heads = 4, head_dim = 128, num_experts = 128, "                  \
  "num_experts_per_tok = "                                                                                  \
  "8, vocab_size = 151936, max_position_embeddings = 262144, tie_word_embeddings = false, torch_dtype = "   \
  "'bfloat16', rms_norm_eps = 1e-6, rope_theta = 5000000, decoder_sparse_step = 1, norm_topk_prob = true, " \
  "mlp_only_layers = {} } }"

#endif
