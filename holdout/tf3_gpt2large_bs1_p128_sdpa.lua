-- Hold-out: transformers docs, model_doc/gpt2.md "Using Scaled Dot Product Attention (SDPA)",
-- Inference table (GPT-2 SDPA PR, vasqu, 2024): rtx3080ti-16GB, PyTorch 2.2.1, float16,
-- openai-community/gpt2-large, fxmarty's inference benchmark script (generate, 100 new tokens,
-- torch.cuda.max_memory_allocated * 1e-6). transformers about 4.42.0.dev0 (legacy tuple cache).
-- Row: batch 1, seq_len (prompt) 128, sdpa: measured 1701.32 MB.
return {
  model = { arch = "gpt2", config = { model_type = "gpt2", n_embd = 1280, n_layer = 36, n_head = 20, n_positions = 1024, vocab_size = 50257 } },
  dtype = "fp16",
  runtime = { name = "transformers", version = "4.42.0" },
  workload = { kind = "inference", context = 228, prompt_tokens = 128, concurrency = 1, attention = "sdpa" },
  gpu = "T4-16GB",
}
