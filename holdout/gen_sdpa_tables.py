#!/usr/bin/env python3
"""Write one scenario per row of the transformers model-doc SDPA inference tables
(GPT-NeoX pythia-410m-deduped, GPT-2 gpt2-large), run vramfit, compare max_memory_allocated."""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
VF = os.path.join(HERE, "..", "vramfit")
VERSION = sys.argv[1] if len(sys.argv) > 1 else "4.42.0"
OUT = sys.argv[2] if len(sys.argv) > 2 else HERE
NEW = 100  # the benchmark's --max_token default: max_new_tokens = min_new_tokens = 100

NEOX = {"model_type": "gpt_neox", "hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
        "intermediate_size": 4096, "vocab_size": 50304, "max_position_embeddings": 2048, "rotary_pct": 0.25,
        "tie_word_embeddings": False, "use_parallel_residual": True}
GPT2L = {"model_type": "gpt2", "n_embd": 1280, "n_layer": 36, "n_head": 20, "n_positions": 1024,
         "vocab_size": 50257}

# (batch, prompt, eager MB, sdpa MB); MB = 1e6 B, torch.cuda.max_memory_allocated
NEOX_ROWS = [(1, 128, 974.831, 974.826), (1, 256, 1029.01, 1028.08), (1, 512, 1137.54, 1137.52),
             (1, 1024, 1329.3, 1329.26), (1, 2048, 1752.47, 1734.51), (2, 128, 1044.8, 1028.37),
             (2, 256, 1167.32, 1137.73), (2, 512, 1352.93, 1329.55), (2, 1024, 1752.56, 1734.62),
             (2, 2048, 2558.72, 2545.8), (4, 128, 1168.41, 1137.79), (4, 256, 1353.1, 1329.79),
             (4, 512, 1752.76, 1734.85), (4, 1024, 2558.96, 2546.04), (4, 2048, 4175.5, 4165.26)]
GPT2_ROWS = [(1, 128, 1685.2, 1701.32), (1, 256, 1745.49, 1770.78), (1, 512, 1907.69, 1921.29),
             (1, 768, 2032.93, 2068.12), (2, 128, 1803.84, 1811.4), (2, 256, 1907.72, 1921.44),
             (2, 512, 2176.86, 2197.75), (2, 768, 2464.3, 2491.06), (4, 128, 1942.25, 1985.13),
             (4, 256, 2177.28, 2197.86), (4, 512, 2753.16, 2772.57), (4, 768, 3327.04, 3343.97)]

def lua_cfg(cfg):
    items = []
    for k, v in cfg.items():
        v = ("true" if v else "false") if isinstance(v, bool) else (f'"{v}"' if isinstance(v, str) else v)
        items.append(f"{k} = {v}")
    return "{ " + ", ".join(items) + " }"

HEADER = {
 "neox": """-- Hold-out: transformers docs, model_doc/gpt_neox.md "Using Scaled Dot Product Attention (SDPA)",
-- Inference table (added by PR huggingface/transformers#31031, vasqu, 2024-05/06): rtx3080ti-16GB,
-- PyTorch 2.2.1, float16, EleutherAI/pythia-410m-deduped, fxmarty's inference benchmark script
-- (generate with max_new_tokens = min_new_tokens = 100, greedy, eos None, 50 timed calls after a
-- warm-up, torch.cuda.max_memory_allocated * 1e-6 -> "Mem (MB)"; random prompts, mask[0,0] = 0).
-- transformers: the PR branch, about 4.42.0.dev0 (GPT-NeoX still on the legacy tuple cache).""",
 "gpt2": """-- Hold-out: transformers docs, model_doc/gpt2.md "Using Scaled Dot Product Attention (SDPA)",
-- Inference table (GPT-2 SDPA PR, vasqu, 2024): rtx3080ti-16GB, PyTorch 2.2.1, float16,
-- openai-community/gpt2-large, fxmarty's inference benchmark script (generate, 100 new tokens,
-- torch.cuda.max_memory_allocated * 1e-6). transformers about 4.42.0.dev0 (legacy tuple cache).""",
}

def run(name, cfg, rows, tag):
    res = []
    for bs, p, me, ms in rows:
        for attn, meas in (("eager", me), ("sdpa", ms)):
            fn = os.path.join(OUT, f"tf3_{name}_bs{bs}_p{p}_{attn}.lua")
            with open(fn, "w") as f:
                f.write(HEADER[tag] + f"\n-- Row: batch {bs}, seq_len (prompt) {p}, {attn}: measured {meas} MB.\n")
                f.write("return {\n  model = { arch = \"%s\", config = %s },\n" % (cfg["model_type"], lua_cfg(cfg)))
                f.write('  dtype = "fp16",\n  runtime = { name = "transformers", version = "%s" },\n' % VERSION)
                f.write('  workload = { kind = "inference", context = %d, prompt_tokens = %d, concurrency = %d, attention = "%s" },\n'
                        % (p + NEW, p, bs, attn))
                f.write('  gpu = "T4-16GB",\n}\n')
            j = json.loads(subprocess.check_output([VF, "estimate", fn, "--format", "json"]))
            pred = j["runtime"]["peak_allocated_bytes"] / 1e6
            cats = {c["name"]: c["bytes"] / 1e6 for c in j["devices"][0]["categories"]}
            res.append((name, bs, p, attn, meas, pred, (pred / meas - 1) * 100, j["runtime"]["peak_phase"], cats))
    return res

rows = run("pythia410m", NEOX, NEOX_ROWS, "neox") + run("gpt2large", GPT2L, GPT2_ROWS, "gpt2")
npass = 0
for name, bs, p, attn, meas, pred, err, phase, cats in rows:
    ok = abs(err) <= 10
    npass += ok
    print(f"{name:11s} bs{bs} p{p:5d} {attn:5s} meas {meas:8.1f} pred {pred:8.1f} {err:+6.1f}% {'PASS' if ok else 'FAIL'} {phase:7s} "
          + " ".join(f"{k}={v:.0f}" for k, v in cats.items() if k not in ('cuda_context',) and v))
print(f"{npass}/{len(rows)} within 10%")
