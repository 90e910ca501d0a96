#!/usr/bin/env node
// conformance.mjs: vramfit's llama.cpp CPU-backend buffers against the real llama.cpp.
// Writes synthetic GGUF files with the project's own mkmodel, loads each in the llama.cpp
// bundled with node-llama-cpp (measure.mjs, copied from shared/peers/llamacpp) over a
// settings matrix, predicts the same runs with `vramfit estimate` (runtime llamacpp,
// device cpu) and compares: model and KV buffers byte-exact, compute within 10%, output
// within the log's 0.005 MiB. Prints a table; exit status 1 when a check fails.
//
// usage: node conformance.mjs --vramfit BIN --mkmodel BIN [--work DIR] [--quick] [--only NAME,...]
import fs from "node:fs";
import path from "node:path";
import {execFileSync} from "node:child_process";
import {fileURLToPath} from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;

const NEWER = "--embd 256 --ff 512 --heads 4 --heads-kv 2 --vocab 4096 --experts 4 --experts-used 2 --expert-ff 128 --ftype f16";
const DELTANET = "--head-dim 64 --shared 256 --nextn 1 --ssm-conv 4 --ssm-state 32 --ssm-groups 2 --ssm-vheads 4";

// name, mkmodel options: the peers' model shapes, in the llama architecture mkmodel writes
const MODELS = [
    ["llama-mha-f16", "--layers 4 --embd 512 --ff 1408 --heads 8 --heads-kv 8 --vocab 8192 --ftype f16"],
    ["llama-gqa4-q8_0", "--layers 4 --embd 1024 --ff 2816 --heads 16 --heads-kv 4 --vocab 32000 --ftype q8_0 --tied"],
    ["llama-gqa7-q4_0", "--layers 2 --embd 896 --ff 4864 --heads 14 --heads-kv 2 --vocab 151936 --ftype q4_0 --tied"],
    ["llama-gqa4-q4_k", "--layers 2 --embd 2048 --ff 5632 --heads 32 --heads-kv 8 --vocab 32768 --ftype q4_k --tied"],
    ["llama-moe8x2-q4_k", "--layers 4 --embd 512 --ff 1024 --heads 8 --heads-kv 2 --vocab 8192 --experts 8 --experts-used 2 --ftype q4_k"],
    ["llama-tiny-f32", "--layers 2 --embd 256 --ff 768 --heads 4 --heads-kv 4 --vocab 4096 --ftype f32"],
    // the newer architectures mkmodel writes (tests/test_llamacpp.c test_newer_archs): 256 embd,
    // 4 heads of 64, 2 KV heads, 4 experts (2 used) of 128, F16
    ["glm4moe", `${NEWER} --arch glm4moe --layers 3 --shared 1 --dense-lead 1 --nextn 1`],
    // DeepSeek-V3 / GLM-4.5 routing: sigmoid gating, top-k renormalized then scaled by 2.5
    ["glm4moe-v3route", `${NEWER} --arch glm4moe --layers 3 --shared 1 --dense-lead 1 --nextn 1 --w-scale 25`],
    ["deepseek2-v3route", `${NEWER} --arch deepseek2 --layers 3 --heads-kv 1 --head-dim 48 --rope 8 --q-lora 64 --kv-lora 128 --shared 1 --dense-lead 1 --nextn 1 --w-scale 25`],
    ["qwen3next", `${NEWER} --arch qwen3next --layers 4 ${DELTANET}`],
    ["qwen35", `${NEWER} --arch qwen35 --layers 4 ${DELTANET} --experts 0 --experts-used 0`],
    ["qwen35moe", `${NEWER} --arch qwen35moe --layers 4 ${DELTANET}`],
    // the routed experts' gate and up fused in one ffn_gate_up_exps (convert_hf_to_gguf
    // --fuse-gate-up-exps), which qwen3next, qwen35moe and deepseek2 load
    ["qwen35moe-gateup", `${NEWER} --arch qwen35moe --layers 4 ${DELTANET} --gate-up`],
    ["qwen3next-gateup", `${NEWER} --arch qwen3next --layers 4 ${DELTANET} --gate-up`],
    ["deepseek2", `${NEWER} --arch deepseek2 --layers 3 --heads-kv 1 --head-dim 48 --rope 8 --q-lora 64 --kv-lora 128 --shared 1 --dense-lead 1 --nextn 1`],
    ["deepseek2-gateup", `${NEWER} --arch deepseek2 --layers 3 --heads-kv 1 --head-dim 48 --rope 8 --q-lora 64 --kv-lora 128 --shared 1 --dense-lead 1 --nextn 1 --gate-up`],
    ["llama4", `${NEWER} --arch llama4 --layers 4 --experts-used 1 --interval 2`],
    ["qwen2", `${NEWER} --arch qwen2 --layers 3 --experts 0 --experts-used 0`],
    ["qwen2vl", `${NEWER} --arch qwen2vl --layers 3 --experts 0 --experts-used 0`],
    // mistral3: llama's layer with an attention temperature input (Ministral 3)
    ["mistral3", `${NEWER} --arch mistral3 --layers 3 --experts 0 --experts-used 0`],
    ["qwen3", `${NEWER} --arch qwen3 --layers 3 --experts 0 --experts-used 0`],
    ["qwen3moe", `${NEWER} --arch qwen3moe --layers 3`],
    // qwen2moe (Qwen1.5-MoE): qwen2's biased attention, 4 experts of 128 (top 2, softmax, not
    // renormalized) and a shared expert of 256 scaled by its sigmoid gate (ffn_gate_inp_shexp)
    ["qwen2moe", `${NEWER} --arch qwen2moe --layers 3 --shared 256`],
    // gemma3: 5 sliding-window layers (window 128) to 1 global, tied embeddings
    // phi3: the fused Q/K/V projection and the fused gate|up of the FFN
    // (general.name not "phi3": llama-vocab.cpp then looks up "</s>", which the synthetic vocabulary lacks)
    ["phi3", `${NEWER} --arch phi3 --layers 3 --experts 0 --experts-used 0 --name tiny`],
    // gemma2: alternating sliding-window (128) and full layers, attention and logit soft-capping
    ["gemma2", `${NEWER} --arch gemma2 --layers 4 --experts 0 --experts-used 0 --head-dim 64 --swa 128 --tied`],
    ["gemma3", `${NEWER} --arch gemma3 --layers 6 --experts 0 --experts-used 0 --head-dim 64 --swa 128 --tied`],
    // gpt-oss: alternating sliding-window (128) and full layers, attention sinks, biased experts
    ["gpt-oss", `${NEWER} --arch gpt-oss --layers 4 --head-dim 64 --swa 128`],
    // lfm2: gated short-conv layers (kernel 3) with attention every third layer (2 and 5)
    ["lfm2", `${NEWER} --arch lfm2 --layers 6 --experts 0 --experts-used 0 --ssm-conv 3`],
    // ... 7 layers: the last one a conv layer, as in the released LFM2 models
    ["lfm2-convlast", `${NEWER} --arch lfm2 --layers 7 --experts 0 --experts-used 0 --ssm-conv 3`],
    // granitehybrid: Mamba-2 layers (d_inner 512 in 8 heads, 1 group of state 32, kernel 4), attention
    // at 2 and 5, the last layer a Mamba-2 one as in the released Granite 4.0-H models; dense FFN
    ["granitehybrid", `${NEWER} --arch granitehybrid --layers 7 --experts 0 --experts-used 0 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8`],
    // ... with Granite 4.0-H's MoE: 4 experts of 128 (top 2, softmax, renormalized) and a shared expert of 256
    ["granitehybrid-moe", `${NEWER} --arch granitehybrid --layers 7 --ff 128 --shared 256 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8`],
    // ... as the released Granite 4.0-H models: no RoPE (rope.scaling.finetuned false: no positions
    // input) and the embedding, residual, logit and attention scales (ggml_scale nodes), dense and MoE
    ["granitehybrid-nope", `${NEWER} --arch granitehybrid --layers 7 --experts 0 --experts-used 0 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8 --nope --granite-scales`],
    ["granitehybrid-moe-nope", `${NEWER} --arch granitehybrid --layers 7 --ff 128 --shared 256 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8 --nope --granite-scales`],
    // nemotron_h: one mixer a layer by hybrid_override_pattern, here "M-M*M-M" (Mamba-2 d_inner 512 in
    // 8 heads, 1 group of state 32, kernel 4; a squared-ReLU MLP of 512; attention without RoPE)
    ["nemotron_h", `${NEWER} --arch nemotron_h --layers 7 --experts 0 --experts-used 0 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8`],
    // ... with a vocabulary of 512, so that the logits (1 MiB at 512 tokens) do not set the peak alone
    ["nemotron_h-v512", `${NEWER} --arch nemotron_h --layers 7 --experts 0 --experts-used 0 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8 --vocab 512`],
    // falcon-h1: attention (RoPE) and Mamba-2 (d_inner 512 in 8 heads, 1 group of state 32, kernel 4,
    // no grouped norm as in the released models) side by side in every layer, then the SwiGLU FFN
    ["falcon-h1", `${NEWER} --arch falcon-h1 --layers 4 --experts 0 --experts-used 0 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8 --vocab 512`],
    // jamba: Mamba-1 layers (d_inner 512, state 16, kernel 4, dt rank 16, the dt / B / C norms) with
    // attention (no RoPE) at 2 and 5, the last layer Mamba; 4 experts of 128 (top 2) on odd layers, dense FFN of 128 on even ones
    ["jamba", `${NEWER} --arch jamba --layers 7 --ff 128 --ssm-conv 4 --ssm-state 16 --vocab 512`],
    // nemotron_h_moe (Nemotron 3): "MEM*MEM", the MoE layers 4 experts of 128 (top 2, sigmoid with
    // exp_probs_b, renormalized, scaled 2.5; squared-ReLU, no gate) and a shared expert of 192
    ["nemotron_h_moe", `${NEWER} --arch nemotron_h_moe --layers 7 --shared 192 --ssm-conv 4 --ssm-state 32 --ssm-groups 1 --ssm-vheads 8 --vocab 512`],
    // attention-free mamba (Mamba-1: d_inner 512, state 16, kernel 4, dt rank 16, no dt / B / C norms;
    // F32: the peer's F16 Mamba-1 file aborts in ggml-backend's scheduler) and mamba2 (d_inner 512 in 8
    // heads, 2 groups of state 32, the grouped norm), vocab 512
    ["mamba", `${NEWER} --arch mamba --layers 4 --experts 0 --experts-used 0 --ssm-conv 4 --ssm-state 16 --vocab 512 --ftype f32`],
    ["mamba2", `${NEWER} --arch mamba2 --layers 4 --experts 0 --experts-used 0 --ssm-conv 4 --ssm-state 32 --ssm-groups 2 --ssm-vheads 8 --vocab 512`],
    // hunyuan-moe (Hunyuan-A13B): q/k norms after RoPE, 4 experts of 128 (top 2) sized by
    // feed_forward_length, and a shared expert of 192 beside them in every layer
    ["hunyuan-moe", `${NEWER} --arch hunyuan-moe --layers 3 --ff 128 --shared 192`],
    // gemma4 (Gemma 4; lc_graph.c lg_g4_build): 6 layers, full at 2 and 5 (head 128, 1 KV head, K as V: no attn_v), sliding
    // (window 128) head 64 x 2 KV heads; tied embedding
    ["gemma4", `${NEWER} --arch gemma4 --layers 6 --experts 0 --experts-used 0 --head-dim 64 --global-head-dim 128 --global-heads-kv 1 --k-eq-v 1 --interval 3 --swa 128 --tied`],
    // ... E2B-like: the last 3 layers share the KV of layers 1 and 2 (llama.cpp reuses n_layer_kv_from_start - 1 / - 2), their FFN twice as wide, per-layer embeddings of 32
    ["gemma4-ple", `${NEWER} --arch gemma4 --layers 6 --experts 0 --experts-used 0 --head-dim 64 --global-head-dim 128 --interval 3 --swa 128 --kv-shared 3 --double-wide 1 --ple 32 --tied`],
    // ... 26B-A4B-like: the MoE block (4 experts of 128, top 2, fused gate_up) beside the dense FFN
    ["gemma4-moe", `${NEWER} --arch gemma4 --layers 6 --head-dim 64 --global-head-dim 128 --global-heads-kv 1 --k-eq-v 1 --interval 3 --swa 128 --tied`],
    // the dense families (tests/test_llamacpp.c test_gguf_dense_archs): 3 layers of 256 embd, 4 heads of 64,
    // 2 KV heads, FFN 512, F16. arcee (ReLU^2 up / down), apertus (xIELU, per-head q/k norms), nemotron
    // (LayerNorm with bias, squared ReLU, partial RoPE 0.5)
    ["arcee", `${NEWER} --arch arcee --layers 3 --experts 0 --experts-used 0 --head-dim 64`],
    ["apertus", `${NEWER} --arch apertus --layers 3 --experts 0 --experts-used 0 --head-dim 64`],
    ["nemotron", `${NEWER} --arch nemotron --layers 3 --experts 0 --experts-used 0 --head-dim 64`],
    // olmo3: an olmo2 file with attention.sliding_window 128, 4 layers (llama.cpp's pattern 4: layer 3 global)
    ["olmo3", `${NEWER} --arch olmo2 --layers 4 --experts 0 --experts-used 0 --head-dim 64 --swa 128`],
    // stablelm (q/k/v biases, LayerNorm with bias, RoPE over a quarter of the head); exaone (llama's layer)
    ["stablelm", `${NEWER} --arch stablelm --layers 3 --experts 0 --experts-used 0 --head-dim 64`],
    ["exaone", `${NEWER} --arch exaone --layers 3 --experts 0 --experts-used 0 --head-dim 64`],
    // starcoder (GPTBigCode): one K/V head, fused biased attn_qkv, learned positions of 2048 rows
    ["starcoder", `${NEWER} --arch starcoder --layers 3 --experts 0 --experts-used 0 --head-dim 64 --heads-kv 1 --ctx 2048`],
    // the LayerNorm families (tests/test_llamacpp.c test_gguf_ln_archs): 3 layers of 256 embd, 4 heads of 64, FFN 512,
    // F16, every norm LLM_NORM with bias. gpt2 (learned positions of 2048 rows, fused biased attn_qkv, tied), gptneox
    // (parallel residual, RoPE over a quarter of the head), phi2 (one norm for attention and FFN, biased q/k/v and
    // output), bloom (ALiBi, the embeddings' LayerNorm, tied), falcon (Falcon-7B: one K/V head, unbiased attn_qkv,
    // the FFN on the attention's norm, tied), starcoder2 (2 K/V heads, biased q/k/v, tied)
    ["gpt2", `${NEWER} --arch gpt2 --layers 3 --experts 0 --experts-used 0 --head-dim 64 --heads-kv 4 --ctx 2048 --tied`],
    ["gptneox", `${NEWER} --arch gptneox --layers 3 --experts 0 --experts-used 0 --head-dim 64 --heads-kv 4`],
    ["phi2", `${NEWER} --arch phi2 --layers 3 --experts 0 --experts-used 0 --head-dim 64 --heads-kv 4`],
    ["bloom", `${NEWER} --arch bloom --layers 3 --experts 0 --experts-used 0 --head-dim 64 --heads-kv 4 --tied`],
    ["falcon", `${NEWER} --arch falcon --layers 3 --experts 0 --experts-used 0 --head-dim 64 --heads-kv 1 --tied`],
    ["starcoder2", `${NEWER} --arch starcoder2 --layers 3 --experts 0 --experts-used 0 --head-dim 64 --tied`],
    // minicpm3 (MiniCPM3): MLA projections with wkv_b whole, q_lora 64, kv_lora 128, K heads of 96 (64 nope +
    // 32 rope), V heads of 64 (embd / heads: no value_length), 4 KV heads (the expanded per-head cache), the
    // LongRoPE factor tensors, tied; afmoe (Arcee Trinity): q/k norms, the sigmoid output gate, post-norms, 1 dense
    // layer then 4 experts of 128 (top 2, exp_probs_b) and a shared expert, window 128 on 3 layers in 4
    ["minicpm3", `${NEWER} --arch minicpm3 --layers 3 --experts 0 --experts-used 0 --heads-kv 4 --head-dim 96 --rope 32 --q-lora 64 --kv-lora 128 --tied`],
    ["afmoe", `${NEWER} --arch afmoe --layers 5 --head-dim 64 --shared 1 --dense-lead 1 --swa 128`],
];

// measure.mjs argument sets (comma lists expand to their product)
const FULL = [
    ["--ctx", "512,2048,8192", "--batch", "512,2048", "--fa", "off", "--kv", "f16"],
    ["--ctx", "512,2048,8192", "--batch", "512,2048", "--fa", "on", "--kv", "f16,q8_0"],
    ["--ctx", "2048", "--batch", "512", "--fa", "on", "--kv", "f16", "--mmap", "off"],
    ["--ctx", "2048", "--batch", "512", "--seq", "4", "--fa", "on,off", "--kv", "f16"],
    ["--ctx", "2048", "--batch", "512", "--fa", "on", "--kv", "bf16,q4_0,q5_1"],
];
const QUICK = [["--ctx", "512,2048", "--batch", "512", "--fa", "on,off", "--kv", "f16"]];

function args(argv) {
    const o = {work: path.join(here, "work"), quick: false};
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === "--vramfit") o.vramfit = path.resolve(argv[++i]);
        else if (argv[i] === "--mkmodel") o.mkmodel = path.resolve(argv[++i]);
        else if (argv[i] === "--work") o.work = path.resolve(argv[++i]);
        else if (argv[i] === "--quick") o.quick = true;
        else if (argv[i] === "--only") o.only = argv[++i].split(",");
        else throw new Error("unknown argument " + argv[i]);
    }
    if (!o.vramfit || !o.mkmodel) throw new Error("usage: conformance.mjs --vramfit BIN --mkmodel BIN [--work DIR] [--quick] [--only NAME,...]");
    return o;
}

function measure(o, model, sets) {
    const out = path.join(o.work, path.basename(model, ".gguf") + ".jsonl");
    fs.rmSync(out, {force: true});
    for (const s of sets)
        execFileSync("node", [path.join(here, "measure.mjs"), "--model", model, "--out", out, ...s],
            {stdio: ["ignore", "ignore", "inherit"]});
    return fs.readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

// the CPU backend variant llama.cpp loaded decides which weights get SIMD-layout copies
function cpuFeatures(r) {
    const lib = r.versions?.cpu_backend ?? "";
    if (/sapphirerapids/.test(lib)) return "amx";
    return /haswell|skylakex|icelake|alderlake|zen4|x64/.test(lib) ? "avx2" : "none";
}

function scenario(o, model, r) {
    const s = r.settings;
    const scn = {
        name: path.basename(model), model,
        // the batch llama.cpp ran (node-llama-cpp raises a sliding-window model's to 513 / 2049)
        runtime: {name: "llamacpp", device: "cpu", n_batch: r.actual?.n_batch ?? s.batch,
            n_ubatch: r.actual?.n_ubatch ?? s.batch, n_seq_max: s.seq,
            flash_attn: s.fa !== "off", type_k: s.kv, type_v: s.kv, use_mmap: s.mmap !== "off",
            cpu_features: cpuFeatures(r), n_outputs_max: 0}, // node-llama-cpp leaves it at 0 (n_batch)
        workload: {kind: "inference", context: s.ctx, concurrency: s.seq},
    };
    const file = path.join(o.work, "scenario.json");
    fs.writeFileSync(file, JSON.stringify(scn));
    return file;
}

function predict(o, model, r) {
    const file = scenario(o, model, r);
    return JSON.parse(execFileSync(o.vramfit, ["estimate", file, "--format", "json"], {encoding: "utf8"})).runtime;
}

// vramfit's error for a setting llama.cpp refused, or null when it answered
function refusal(o, model, r) {
    const file = scenario(o, model, r);
    try {
        execFileSync(o.vramfit, ["estimate", file, "--format", "json"], {encoding: "utf8", stdio: ["ignore", "ignore", "pipe"]});
        return null;
    } catch (e) {
        return e.status === 2 ? e.stderr.trim().split("\n").pop() : null;
    }
}

// [figure, measured, predicted, relative tolerance, absolute tolerance]. measure.mjs reads
// the context's KV + recurrent-state + compute bytes as one exact sum; when the KV formula
// does not split it (MLA's K-only cache, two iSWA caches, a hybrid's RS buffer) the split
// uses the log's 4-decimal compute line: KV (+ RS) then carries +-64 B.
function checks(r, p) {
    const m = r.measured;
    const split = m.split === "exact" ? 0 : 64;
    return [
        ["model", m.model, p.cpu_model_buffer_bytes, 0, 0],
        ["kv", m.kv, p.kv_buffer_bytes + (p.rs_buffer_bytes ?? 0), 0, split],
        ["compute", m.compute, p.host_compute_buffer_bytes, 0.10, 0],
        ["output", m.output, p.output_buffer_bytes, 0, 0.005 * MiB + 64], // the log prints 2 decimals
    ];
}

function main() {
    const o = args(process.argv.slice(2));
    fs.mkdirSync(o.work, {recursive: true});
    const rows = [];
    let fails = 0, computes = 0, exact = 0;
    const models = o.only ? MODELS.filter(([n]) => o.only.includes(n)) : o.quick ? MODELS.slice(0, 1) : MODELS;
    for (const [name, opts] of models) {
        const model = path.join(o.work, name + ".gguf");
        execFileSync(o.mkmodel, ["gguf", model, "--name", name, ...opts.split(" ")], {stdio: "ignore"});
        for (const r of measure(o, model, o.quick ? QUICK : FULL)) {
            const s = r.settings;
            const tag = `${name} ctx ${s.ctx} b ${s.batch} seq ${s.seq} fa ${s.fa} kv ${s.kv} mmap ${s.mmap}`;
            if (!r.measured) {
                // a setting llama.cpp refuses must be refused by vramfit too (exit status 2)
                const why = (r.llama_errors ?? []).join("; ") || r.error || "no measurement";
                const v = refusal(o, model, r);
                if (v == null) fails++;
                rows.push(`${tag}: llama.cpp refused (${why}) | vramfit ${v == null ? "FAIL: gave figures" : "refused ok: " + v}`);
                continue;
            }
            const p = predict(o, model, r);
            const cells = checks(r, p).map(([f, want, got, rel, abs]) => {
                const ok = Math.abs(got - want) <= abs + rel * want;
                if (!ok) fails++;
                if (f === "compute") { computes++; if (Math.abs(got - want) <= 64) exact++; }
                const pct = want ? ((got - want) / want * 100).toFixed(2) : "0";
                return `${f} ${(want / MiB).toFixed(2)}/${(got / MiB).toFixed(2)} ${ok ? "ok" : "FAIL"} ${pct}%`;
            });
            rows.push(`${tag} | ${cells.join(" | ")}`);
        }
    }
    console.log("# case | figure measured/predicted MiB, verdict, error");
    for (const r of rows) console.log(r);
    console.log(`conformance: ${rows.length} runs, ${fails} failed checks; compute buffers within 64 B: ${exact} of ${computes}`);
    process.exit(fails ? 1 : 0);
}

main();
