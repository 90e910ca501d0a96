#!/bin/sh
# run.sh BINARY: the command line's contract: exit statuses (0 success, 1 nothing
# fits, 2 bad input), exact error messages on stderr, and key figures in each output
# format. Run from the repository root.
set -u
V=${1:-./vramfit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

check() { # check NAME WANT_STATUS WANT_STDERR_SUBSTRING -- ARGS...
  name=$1 want=$2 msg=$3
  shift 4
  "$V" "$@" >"$T/out" 2>"$T/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"; sed 's/^/  stderr: /' "$T/err" | head -3
    fail=$((fail + 1)); return
  fi
  if [ -n "$msg" ] && ! grep -qF -- "$msg" "$T/err"; then
    echo "FAIL $name: stderr lacks: $msg"; sed 's/^/  stderr: /' "$T/err" | head -3
    fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

has() { # has NAME STRING: the last command's stdout holds STRING
  if grep -qF -- "$2" "$T/out"; then pass=$((pass + 1)); else echo "FAIL $1: stdout lacks: $2"; fail=$((fail + 1)); fi
}

cat >"$T/s.lua" <<'L'
return { name = "g", model = "meta-llama/Llama-3.1-8B-Instruct", dtype = "bf16",
         workload = { kind = "inference", context = 8192 }, gpu = "H100" }
L
check estimate-json 0 "" -- estimate "$T/s.lua" --format json
has params '"params": 8030261248'
has weight-bytes '"weight_bytes": 16060522496'
has kv '"kv_cache_bytes": 1073741824'
check estimate-table 0 "" -- estimate "$T/s.lua"
has table-gib 'weights                14.96     16.06  exact'
check estimate-csv 0 "" -- estimate "$T/s.lua" --format csv
has csv-row 'g,meta-llama/Llama-3.1-8B-Instruct,llama,8030261248,16060522496,H100-SXM-80GB'
check set-override 0 "" -- estimate "$T/s.lua" --format json --set workload.context=16384
has set-kv '"kv_cache_bytes": 2147483648'
check stdin 0 "" -- estimate - --format json <"$T/s.lua"
cat >"$T/all.lua" <<'L'
return { model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "inference", context = 8192 } }
L
check fit-all 0 "" -- fit "$T/all.lua" --format csv
has fit-catalog 'B300-SXM-288GB'
check fit-none 1 "" -- fit "$T/s.lua" --gpu GTX-1080-8GB --set workload.context=131072
check version 0 "" -- --version
has version-text 'vramfit 0.3.0'
check list-gpus 0 "" -- list gpus
has list-h100 'H100-SXM-80GB'
check list-models 0 "" -- list models
has list-llama 'meta-llama/Llama-3.1-8B'
check help-estimate 0 "" -- estimate --help
check list-knobs 0 "" -- list knobs
has list-knob-vllm 'vllm.quantization                                string: --quantization: fp8 and bitsandbytes'
has list-knob-enum 'llamacpp.split_mode                              none | layer | row: -sm: how tensors spread over GPUs'
# every built-in runtime's knob has its line (knob_docs): "<type>: <doc>"
if grep -vq ': ' "$T/out"; then echo "FAIL list-knobs-docs: $(grep -v ': ' "$T/out" | head -3)"; fail=$((fail + 1)); else pass=$((pass + 1)); fi

check missing-file 2 "vramfit: $T/none.lua: cannot open: No such file or directory" -- estimate "$T/none.lua"
check unknown-command 2 "vramfit: unknown command 'estmate'" -- estmate "$T/s.lua"
check unknown-option 2 "vramfit: unknown option '--fromat'" -- estimate "$T/s.lua" --fromat json
check bad-format 2 "vramfit: --format xml: expected table, json or csv" -- estimate "$T/s.lua" --format xml
check bad-set 2 "vramfit: --set workload.context: expected KEY=VALUE" -- estimate "$T/s.lua" --set workload.context
check set-negative 2 "workload.context: -5 is out of range (1 to 1073741824)" -- estimate "$T/s.lua" --set workload.context=-5
check set-absurd 2 "workload.context: 1e+15 is out of range (1 to 1073741824)" -- estimate "$T/s.lua" --set workload.context=1e15
check set-nan 2 "workload.context: expected an integer, got 'nan'" -- estimate "$T/s.lua" --set workload.context=nan
check unknown-gpu 2 "gpu: unknown GPU 'Voodoo2' (see 'vramfit list gpus')" -- estimate "$T/s.lua" --gpu Voodoo2
check list-bad 2 "list: unknown kind 'things'" -- list things
printf 'return {\n  model = ,\n}\n' >"$T/syntax.lua"
check syntax 2 "vramfit: $T/syntax.lua:2: unexpected symbol near ','" -- estimate "$T/syntax.lua"
printf '{"model": "x",\n "workload": }' >"$T/bad.json"
check bad-json 2 "vramfit: $T/bad.json:2:14: unexpected token near '}'" -- estimate "$T/bad.json"
printf 'return { model = "meta-llama/Llama-3.1-8B", workload = { kind = "inference", context = 8 }, tp = 2 }' >"$T/key.lua"
check unknown-key 2 "scenario: unknown key 'tp' (allowed:" -- estimate "$T/key.lua"

# VRAMFIT_PATH: a user architecture without recompiling, and a user file overriding a
# shipped one of the same name
mkdir -p "$T/user/architectures"
cat >"$T/user/architectures/tiny.lua" <<'L'
local nn = require "nn"
return arch {
  name = "tiny", summary = "a user architecture", model_types = { "tiny" },
  build = function(cfg)
    local h, L, V = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers"), nn.need(cfg, "vocab_size")
    local t = {}
    nn.embed(t, "model.embed_tokens", V, h)
    nn.linear(t, "model.layers.*.mlp.up_proj", 4 * h, h, { count = L, role = "mlp" })
    return { hidden = h, layers = L, vocab = V, heads = 1, kv_heads = 1, head_dim = h, tensors = t,
             kv = { { layers = L, kv_heads = 1, k_dim = h, v_dim = h } } }
  end,
}
L
cat >"$T/tiny.lua" <<'L'
return { model = { arch = "tiny", config = { hidden_size = 64, num_hidden_layers = 2, vocab_size = 100 } },
         workload = { kind = "inference", context = 16 } }
L
VRAMFIT_PATH="$T/user" check user-arch 0 "" -- estimate "$T/tiny.lua" --format json
has user-arch-params '"params": 39168'
check user-arch-absent 2 "unknown architecture tiny" -- estimate "$T/tiny.lua"
# a recurrent group that lists one layer twice is refused by name
mkdir -p "$T/user5/architectures"
sed 's/kv = { { layers = L, kv_heads = 1, k_dim = h, v_dim = h } }/kv = { { layers = L, kind = "mamba", state_elems = 64, layer_ids = { 0, 0 } } }/' \
  "$T/user/architectures/tiny.lua" >"$T/user5/architectures/tiny.lua"
VRAMFIT_PATH="$T/user5" check user-arch-layer-ids 2 "kv[1].layer_ids[2]: layer 0 listed twice" -- estimate "$T/tiny.lua"
sed -i 's/layer_ids = { 0, 0 }/layer_ids = "0,1"/' "$T/user5/architectures/tiny.lua"
VRAMFIT_PATH="$T/user5" check user-arch-layer-ids-type 2 "kv[1].layer_ids: expected a list" -- estimate "$T/tiny.lua"
sed -i 's/layer_ids = "0,1"/layer_ids = { 0 }/' "$T/user5/architectures/tiny.lua"
VRAMFIT_PATH="$T/user5" check user-arch-layer-ids-count 2 "kv[1].layer_ids: a mamba group's list of its 2 layers" -- estimate "$T/tiny.lua"
# the layout transformers caches (expanded_heads / expanded_k_dim / expanded_v_dim) goes together
# and only on a group that caches tokens
mkdir -p "$T/user6/architectures"
sed 's/kv = { { layers = L, kv_heads = 1, k_dim = h, v_dim = h } }/kv = { { layers = L, kv_heads = 1, k_dim = h, v_dim = 0, expanded_k_dim = 8 } }/' \
  "$T/user/architectures/tiny.lua" >"$T/user6/architectures/tiny.lua"
VRAMFIT_PATH="$T/user6" check user-arch-expanded-heads 2 "kv[1].expanded_heads: needed with expanded_k_dim / expanded_v_dim" -- estimate "$T/tiny.lua"
sed -i 's/expanded_k_dim = 8/expanded_heads = 4/' "$T/user6/architectures/tiny.lua"
VRAMFIT_PATH="$T/user6" check user-arch-expanded-k 2 "kv[1].expanded_k_dim: needed with expanded_heads" -- estimate "$T/tiny.lua"
sed -i 's/kv_heads = 1, k_dim = h, v_dim = 0, expanded_heads = 4/kind = "mamba", state_elems = 64, expanded_heads = 4, expanded_k_dim = 8/' "$T/user6/architectures/tiny.lua"
VRAMFIT_PATH="$T/user6" check user-arch-expanded-state 2 "kv[1].expanded_heads: only for a group that caches tokens" -- estimate "$T/tiny.lua"
# expanded_by (the serving runtimes that cache the expanded layout too: MiniCPM3) names runtimes, in a
# list, and needs the expanded layout it switches to
mkdir -p "$T/user8/architectures"
sed 's/kv = { { layers = L, kv_heads = 1, k_dim = h, v_dim = h } }/kv = { { layers = L, kv_heads = 1, k_dim = h, v_dim = 0, expanded_by = { "vllm" } } }/' \
  "$T/user/architectures/tiny.lua" >"$T/user8/architectures/tiny.lua"
VRAMFIT_PATH="$T/user8" check user-arch-expanded-by-layout 2 "kv[1].expanded_by: needs expanded_heads / expanded_k_dim (the layout those runtimes cache)" -- estimate "$T/tiny.lua"
sed -i 's/expanded_by = { "vllm" }/expanded_heads = 4, expanded_k_dim = 8, expanded_by = { "tgi" }/' "$T/user8/architectures/tiny.lua"
VRAMFIT_PATH="$T/user8" check user-arch-expanded-by-name 2 'kv[1].expanded_by[1]: expected "vllm", "sglang" or "llamacpp"' -- estimate "$T/tiny.lua"
sed -i 's/expanded_by = { "tgi" }/expanded_by = "vllm"/' "$T/user8/architectures/tiny.lua"
VRAMFIT_PATH="$T/user8" check user-arch-expanded-by-list 2 "kv[1].expanded_by: expected a list of runtime names" -- estimate "$T/tiny.lua"
# vLLM's hybrid allocator: attention pages that do not divide the largest (64-wide full layers, a
# 48-wide sliding one: 4096 against 3072 B a block) are refused as vLLM refuses them
mkdir -p "$T/user7/architectures"
sed 's/kv = { { layers = L, kv_heads = 1, k_dim = h, v_dim = h } }/kv = { { layers = 1, kv_heads = 1, k_dim = h, v_dim = h }, { layers = 1, kv_heads = 1, k_dim = 48, v_dim = 48, window = 8 } }/' \
  "$T/user/architectures/tiny.lua" >"$T/user7/architectures/tiny.lua"
printf 'return { model = { arch = "tiny", config = { hidden_size = 64, num_hidden_layers = 2, vocab_size = 100 } },\n  runtime = { name = "vllm" }, gpu = "H100", workload = { kind = "inference", context = 16 } }\n' >"$T/tiny-vllm.lua"
VRAMFIT_PATH="$T/user7" check user-arch-vllm-pages 2 "vllm: the KV page sizes do not divide (3072 B a block against the largest, 4096 B)" -- estimate "$T/tiny-vllm.lua"
# a token's fixed bytes (DeepSeek-V3.2's indexer keys) only on a group that caches tokens
sed -i 's/expanded_heads = 4, expanded_k_dim = 8/bytes = 132/' "$T/user6/architectures/tiny.lua"
VRAMFIT_PATH="$T/user6" check user-arch-bytes-state 2 "kv[1].bytes / fp8_bytes: only for a group that caches tokens (kind attention or chunked)" -- estimate "$T/tiny.lua"
mkdir -p "$T/user2/scripts/optimizers"
printf 'return optimizer { name = "adamw", summary = "overridden", states = 3, step_temps = 0 }\n' \
  >"$T/user2/scripts/optimizers/adamw.lua"
VRAMFIT_PATH="$T/user2" check user-override 0 "" -- list optimizers
has user-override-summary 'overridden'
mkdir -p "$T/user4/scripts/runtimes"
printf 'return runtime { name = "myrt", knobs = { depth = "int" }, knob_docs = { width = "undeclared" }, modelled = true }\n' \
  >"$T/user4/scripts/runtimes/myrt.lua"
VRAMFIT_PATH="$T/user4" check user-knob-docs 2 "runtime 'myrt': knob_docs.width must be a string describing a declared knob" -- list knobs

# ranges in sweep axes: "a..b" doubles, "a..b:step" steps, { range = {...} } in JSON
cat >"$T/range.json" <<'L'
{"sweep": {"base": {"name": "r", "model": "meta-llama/Llama-3.1-8B", "workload": {"kind": "inference", "context": 1}},
           "axes": {"workload.context": "1024..8192", "workload.concurrency": {"range": [1, 3, 1]}}}}
L
check range-axes 0 "" -- batch "$T/range.json" --format csv
has range-last '"r[workload.concurrency=3,workload.context=8192]"'
printf '{"sweep":{"base":{},"axes":{"workload.context":"1..x"}}}' >"$T/badrange.json"
check range-bad 2 "sweep: axis 'workload.context': '1..x' is not a list or a range such as \"1024..131072\" or \"0..64:8\"" -- batch "$T/badrange.json"

# SGLang's token pool: a cell is 131,072 B for Llama-3.1-8B in bf16, half that in fp8,
# so the pool holds twice the tokens (floor(pool / cell)); mem_fraction_static 0.830 from
# the reserved-memory rule on an H100 with 8 MiB for each of the 58 piecewise CUDA-graph
# sizes (SGLang PR #15927; tests/test_vllm.c test_sglang_pool), at nvidia-smi's 81,559 MiB
# (utils get_nvgpu_memory_capacity; 0.829 at the torch total before round 22); the weights hold
# the 64 MiB fp32 rotary cache (131072 x 128 x 4 B, src/rt_sglang.c): 512 / 1024 tokens fewer
printf 'return { model = "meta-llama/Llama-3.1-8B", runtime = { name = "sglang" }, workload = { kind = "inference", context = 4096 }, gpu = "H100" }' >"$T/sg.lua"
check sglang-bf16 0 "" -- estimate "$T/sg.lua" --format json
has sglang-bf16-tokens '"kv_cache_tokens": 412073'
check sglang-fp8 0 "" -- estimate "$T/sg.lua" --format json --set runtime.kv_cache_dtype=fp8
has sglang-fp8-tokens '"kv_cache_tokens": 824147'

# a workload beyond SGLang's pool: the kv_cache row holds what the sequences need, and its
# text says so before naming the smaller pool SGLang allocates (it named only the pool)
check sglang-needed 0 "" -- estimate "$T/sg.lua" --set workload.concurrency=200
has sglang-needed-text 'needed by 200 sequences x 4096 tokens, more than the token pool: 412073 tokens x 131072 B'

# workload.attention is PyTorch's sdpa / flash / eager: a serving runtime picks its own
# kernels, so none is assumed there, and one given is said to change nothing
lacks() { # lacks NAME STRING: the last command's stdout does not hold STRING
  if grep -qF -- "$2" "$T/out"; then echo "FAIL $1: stdout holds: $2"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
}
check sglang-no-sdpa 0 "" -- estimate "$T/sg.lua"
lacks sglang-no-sdpa-note 'attention sdpa assumed'
check sglang-attention-given 0 "" -- estimate "$T/sg.lua" --set workload.attention=eager
has sglang-attention-note "workload.attention 'eager' changes nothing on sglang: its attention backend"
check transformers-sdpa 0 "" -- estimate "$T/s.lua"
has transformers-sdpa-note 'attention sdpa assumed'

# an assumption longer than 200 characters is printed whole (llama.cpp's --fit note, 238)
printf 'return { model = "Qwen/Qwen3-30B-A3B", quant = "gguf:Q4_K_M", runtime = "llamacpp", workload = { kind = "inference", context = 32768 }, gpu = "RTX 4090" }' >"$T/lc.lua"
check long-note 0 "" -- estimate "$T/lc.lua"
has long-note-whole 'several GPUs filled as common/fit.cpp fills them)'

# a category name wider than the 18-character column widens it: the figures stay aligned
printf 'return { model = "meta-llama/Llama-3.1-8B", quant = "bnb-nf4", dtype = "fp16", runtime = "transformers", gpu = "T4", workload = { kind = "train", method = "qlora", micro_batch = 1, seq_len = 2048, grad_checkpointing = true, precision = "fp16-mixed", optimizer = "paged_adamw_8bit", lora = { r = 16, alpha = 32, targets = { "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj" } } } }' >"$T/paged.lua"
check wide-category 0 "" -- estimate "$T/paged.lua"
has wide-category-paged 'paged_optimizer_states      0.04      0.04  exact'
has wide-category-weights 'weights                     5.61      6.03  exact'
has wide-category-total 'total                      11.45     12.29'

# under group offload the VAE keeps only its onloaded groups on the GPU: its weights row names
# the mode, as the denoiser's does (it read 'VAE: 0.16 GiB stored' beside 0.01 GiB). The text
# encoders are left out (precomputed embeddings) so that the VAE decode is the peak: with them,
# block-level group offload onloads T5-XXL whole (T5EncoderModel has no ModuleList child) and the
# text encoding is (vae-group-t5 below)
printf 'return { model = "black-forest-labs/FLUX.1-dev", runtime = "diffusers", dtype = "bf16", workload = { kind = "image", width = 1024, height = 1024, steps = 28, offload = "group", text_encoders = "none" }, gpu = "RTX 3060" }' >"$T/fg.lua"
# Block-level (the runtime knobs' default) on FLUX's AutoencoderKL: from diffusers v0.36.0 (#12692,
# _group_offload_block_modules; runtime.version unset reads as the newest release) the decoder's own
# group and two up blocks (the next prefetched), 0.08 GiB; up to v0.35 the whole VAE is one group;
# leaf_level keeps two leaves (0.01, the row this check read before the VAE was grouped by release)
check vae-group 0 "" -- estimate "$T/fg.lua"
has vae-group-row 'weights                 0.08      0.09  exact      VAE: 0.16 GiB stored, offload group'
check vae-group-v035 0 "" -- estimate "$T/fg.lua" --set runtime.version=0.35.2
has vae-group-v035-row 'weights                 0.16      0.17  exact      VAE: 0.16 GiB stored'
check vae-group-leaf 0 "" -- estimate "$T/fg.lua" --set runtime.offload_type=leaf_level
has vae-group-leaf-row 'weights                 0.01      0.01  exact      VAE: 0.16 GiB stored, offload group'
printf 'return { model = "black-forest-labs/FLUX.1-dev", runtime = "diffusers", dtype = "bf16", workload = { kind = "image", width = 1024, height = 1024, steps = 28, offload = "group" }, gpu = "RTX 3060" }' >"$T/fgt.lua"
check vae-group-t5 0 "" -- estimate "$T/fgt.lua"
has vae-group-t5-row 'weights                 8.87      9.52  exact      text encoders: 9.10 GiB stored, gpu'

# runtime = "vllm" is short for { name = "vllm" }: --set reaches into it (it was refused,
# "cannot set a field inside runtime, which is a string"), as into quant = "awq"; a preset
# model id is no table
printf 'return { model = "meta-llama/Llama-3.1-8B", runtime = "vllm", workload = { kind = "inference", context = 8192 }, gpu = "H100" }' >"$T/vs.lua"
check set-into-runtime 0 "" -- estimate "$T/vs.lua" --format json --set runtime.max_model_len=16384
has set-into-runtime-len '"max_model_len_fit"'
check set-into-model 2 "model.x: cannot set a field inside model, which is a string" -- estimate "$T/vs.lua" --set model.x=1

# torchtune without runtime.loss: the standard cross-entropy vramfit takes is an assumption
printf 'return { model = "meta-llama/Llama-3.1-8B", runtime = "torchtune", gpu = "A100-SXM4-40GB", workload = { kind = "train", method = "lora", micro_batch = 2, seq_len = 4096, grad_checkpointing = true, precision = "bf16", lora = { r = 8, alpha = 16, targets = { "q_proj", "v_proj" } } } }' >"$T/tt.lua"
check torchtune-loss-note 0 "" -- estimate "$T/tt.lua"
has torchtune-loss-assumed 'torchtune loss: a standard cross-entropy assumed (runtime.loss not given;'
check torchtune-loss-chunked 0 "" -- estimate "$T/tt.lua" --set runtime.loss=torchtune.modules.loss.CEWithChunkedOutputLoss
has torchtune-loss-chunked-row 'logits                  7.34      7.88  modelled   vocabulary x tokens: chunked cross-entropy'
lacks torchtune-loss-given 'torchtune loss: a standard'

# ZeRO-2 gathers no parameters: its comm_buffers row is DeepSpeed's reduce bucket (5e8 bf16
# elements, 1.00 GB) and says so (it read "all-gathered unit and the prefetched next")
printf 'return { model = "Qwen/Qwen3-8B", runtime = "deepspeed", gpu = "A100-SXM4-80GB", workload = { kind = "train", method = "full", micro_batch = 4, seq_len = 4096, grad_checkpointing = true, optimizer = "adamw-fused", precision = "bf16-mixed", offload = { optimizer = true } }, parallel = { dp = 4, strategy = "zero2" } }' >"$T/z2.lua"
check zero2-bucket 0 "" -- estimate "$T/z2.lua"
has zero2-bucket-row 'comm_buffers            0.93      1.00  modelled   DeepSpeed'"'"'s gradient reduce bucket (reduce_bucket_size elements)'

# a scenario that fails validation keeps its name (or model id) in its error row, as docs/BATCH.md
# says (the scenario column was empty)
printf 'return { { name = "typo", model = "Qwen/Qwen3-8B", workload = { kind = "inference", contxt = 4096 } }, { model = "Qwen/Qwen3-8B", workload = { kind = "inference", context = 0 } } }' >"$T/errs.lua"
check batch-error-names 2 "" -- batch "$T/errs.lua" --format csv
has batch-error-name-given ',1,typo,'
has batch-error-name-model ',2,Qwen/Qwen3-8B,'

# torchtune loads in its recipe's dtype (bf16), not config.json's torch_dtype: Llama-2-7b-hf's
# float16 made the QLoRA adapters fp16 and the precision fp16, which its recipes refuse
printf 'return { model = "meta-llama/Llama-2-7b-hf", quant = "bnb-nf4", runtime = "torchtune", gpu = "RTX 4090", workload = { kind = "train", method = "qlora", micro_batch = 2, seq_len = 512, grad_checkpointing = true, lora = { r = 8, alpha = 16, targets = { "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj" } } } }' >"$T/ttq.lua"
check torchtune-dtype 0 "" -- estimate "$T/ttq.lua"
has torchtune-dtype-note 'dtype bf16 assumed (the recipe'"'"'s dtype, bf16 in torchtune'"'"'s configs; the checkpoint'"'"'s torch_dtype is not used)'
has torchtune-dtype-adapters 'adapter_weights         0.04      0.04  exact      19988480 added parameters in bf16'

# a fit layout wider than its 10-character column widens it ("needs a sharded strategy":
# Llama-3.2-1B full fine-tuning on a 4090 without sharding), so max batch / max seq_len stay aligned
printf 'return { model = "meta-llama/Llama-3.2-1B", runtime = "transformers", gpu = "RTX 4090", workload = { kind = "train", method = "full", micro_batch = 8, seq_len = 2048, optimizer = "adamw", precision = "bf16-mixed" } }' >"$T/wide-layout.lua"
check wide-layout 0 "" -- estimate "$T/wide-layout.lua"
has wide-layout-header 'count layout                      max batch  max seq_len'
has wide-layout-row '      0 needs a sharded strategy            0            0'

# llama-server's -c 0 keeps the trained context where the GPU holds it: the note no longer says
# "reduced" before the GPU is known (Qwen3-8B Q8_0 on a 16 GB card keeps all 40960)
printf 'return { model = "Qwen/Qwen3-8B", quant = "gguf:Q8_0", runtime = { name = "llamacpp", n_ctx = 0 }, workload = { kind = "inference" }, gpu = "RTX 4060 Ti 16GB" }' >"$T/c0.lua"
check ctx0-note 0 "" -- estimate "$T/c0.lua"
has ctx0-note-text 'llama.cpp -c 0 with --fit: the trained 40960 tokens per sequence, reduced only where a GPU would not keep 1024 MiB free'
has ctx0-kv 'KV buffer: 40960 cells x 1 streams'

# a batch row's verdict is fit's: vLLM takes gpu_memory_utilization x total (above the
# 5% headroom here) but needs far less for one 8,192-token sequence, so it fits
printf 'return { model = "meta-llama/Llama-3.1-8B", runtime = { name = "vllm", gpu_memory_utilization = 0.95 }, workload = { kind = "inference", context = 8192 }, gpu = "H100" }' >"$T/vl.lua"
check vllm-fit 0 "" -- fit "$T/vl.lua" --format csv
has vllm-fit-yes ',H100-SXM-80GB,85029027840,true,'
# fit's CSV: the peaks and categories are the report GPU's (the first), so another GPU's row
# leaves them empty instead of repeating the L40S's 26,153,582,592 B KV cache beside the
# H100's own total; an inline GPU's name with a comma and a quote is quoted (it split the row)
printf 'return { name = "c", model = "meta-llama/Llama-3.1-8B-Instruct", runtime = { name = "vllm" }, workload = { kind = "inference", context = 8192, concurrency = 4 }, gpu = { "L40S", "H100" } }' >"$T/vl2.lua"
check fit-csv-rows 0 "" -- fit "$T/vl2.lua" --format csv
has fit-csv-own ',L40S-48GB,47803531264,true,1,0.9255,44242986926,43450263470,43450263470,26153582592,505636454,25,52112,0,0'
has fit-csv-other ',H100-SXM-80GB,85029027840,true,1,0.9171,77976689247,,,,,56,116224,0,0'
printf 'return { name = "q", model = "meta-llama/Llama-3.1-8B-Instruct", workload = { kind = "inference", context = 1024 }, gpu = { { name = "my,gpu \\"x\\"", memory = "40GiB" } } }' >"$T/ig.lua"
check csv-quoted-gpu 0 "" -- estimate "$T/ig.lua" --format csv
has csv-quoted-gpu-name ',16060522496,"my,gpu ""x""",42949672960,true,'
# a fit row's max_* keys follow the workload's kind: Llama-3.1-70B on RTX 4090s fits nowhere
# at tp 1, and its row said max_micro_batch / max_seq_len (training's) with 0, 0
printf 'return { model = "meta-llama/Llama-3.1-70B-Instruct", workload = { kind = "inference", context = 8192 }, gpu = "RTX-4090-24GB" }' >"$T/70.lua"
check fit-keys-none 1 "" -- fit "$T/70.lua" --format json
has fit-keys-inference '"max_concurrency": 0,'
if grep -q 'max_micro_batch' "$T/out"; then echo "FAIL fit-keys-none: a training key in an inference row"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
check vllm-batch 0 "" -- batch "$T/vl.lua" --format jsonl
has vllm-batch-fits '"fits":true'

# a user runtime script that declares its knobs but no model yet is refused by name
mkdir -p "$T/user3/scripts/runtimes"
printf 'return runtime { name = "tgi", kinds = { "inference" }, knobs = {}, modelled = false }\n' \
  >"$T/user3/scripts/runtimes/tgi.lua"
printf 'return { model = "meta-llama/Llama-3.1-8B", runtime = "tgi", workload = { kind = "inference", context = 8 } }' >"$T/tgi.lua"
VRAMFIT_PATH="$T/user3" check runtime-unmodelled 2 "runtime.name: runtime 'tgi' is not modelled yet (modelled: " -- estimate "$T/tgi.lua"

printf 'return { model = "meta-llama/Llama-3.1-8B", runtime = "vllm", workload = { kind = "train", seq_len = 8 } }' >"$T/vtrain.lua"
check runtime-kind 2 "runtime.name: runtime 'vllm' does not run train workloads" -- estimate "$T/vtrain.lua"

# arch-mamba: an attention-free model missing a state size, or with no layers, is refused naming the field
printf 'return { model = { arch = "mamba", config = { model_type = "mamba2", hidden_size = 256, num_hidden_layers = 2, vocab_size = 1000, num_heads = 8, head_dim = 64 } }, workload = { kind = "inference", context = 8 } }' >"$T/m2.lua"
check mamba-missing-state 2 "config: missing field 'state_size'" -- estimate "$T/m2.lua"
printf 'return { model = { arch = "mamba", config = { model_type = "mamba", hidden_size = 256, num_hidden_layers = 0, vocab_size = 1000, state_size = 16 } }, workload = { kind = "inference", context = 8 } }' >"$T/m1.lua"
check mamba-zero-layers 2 "config: field 'num_hidden_layers' must be a positive integer, got 0" -- estimate "$T/m1.lua"
printf 'return { model = "mistralai/Mamba-Codestral-7B-v0.1", runtime = "sglang", gpu = "H100-80GB", workload = { kind = "inference", context = 8 } }' >"$T/msg.lua"
check mamba-sglang 2 "sglang: an attention-free model (mamba: Mamba layers only, no attention layer) is not modelled" -- estimate "$T/msg.lua"
printf 'return { model = "mistralai/Mamba-Codestral-7B-v0.1", runtime = "vllm", gpu = "H100-80GB", workload = { kind = "inference", context = 8192 } }' >"$T/mv.lua"
check mamba-vllm-csv 0 "" -- estimate "$T/mv.lua" --format csv
if grep -qiwE 'nan|-?inf' "$T/out"; then echo "FAIL mamba-vllm-csv: nan or inf in the output"; fail=$((fail + 1)); else pass=$((pass + 1)); fi

echo "golden ($V): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
