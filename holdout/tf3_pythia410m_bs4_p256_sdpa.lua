-- Hold-out: transformers docs, model_doc/gpt_neox.md "Using Scaled Dot Product Attention (SDPA)",
-- Inference table (added by PR huggingface/transformers#31031, vasqu, 2024-05/06): rtx3080ti-16GB,
-- PyTorch 2.2.1, float16, EleutherAI/pythia-410m-deduped, fxmarty's inference benchmark script
-- (generate with max_new_tokens = min_new_tokens = 100, greedy, eos None, 50 timed calls after a
-- warm-up, torch.cuda.max_memory_allocated * 1e-6 -> "Mem (MB)"; random prompts, mask[0,0] = 0).
-- transformers: the PR branch, about 4.42.0.dev0 (GPT-NeoX still on the legacy tuple cache).
-- Row: batch 4, seq_len (prompt) 256, sdpa: measured 1329.79 MB.
return {
  model = { arch = "gpt_neox", config = { model_type = "gpt_neox", hidden_size = 1024, num_hidden_layers = 24, num_attention_heads = 16, intermediate_size = 4096, vocab_size = 50304, max_position_embeddings = 2048, rotary_pct = 0.25, tie_word_embeddings = false, use_parallel_residual = true } },
  dtype = "fp16",
  runtime = { name = "transformers", version = "4.42.0" },
  workload = { kind = "inference", context = 356, prompt_tokens = 256, concurrency = 4, attention = "sdpa" },
  gpu = "T4-16GB",
}
