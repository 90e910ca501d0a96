/*
** ggml_alloc_sim.h: a model of ggml-alloc's graph allocator (ggml/src/ggml-alloc.c,
** ggml_gallocr_alloc_graph_impl over one ggml_dyn_tallocr chunk) run on a graph that
** holds only what the allocator looks at: sizes, sources, views, in-place ops and the
** input/output flags; and the llama.cpp decoder graph built for it (lc_graph.c).
** Plain C; no Lua. Uses bytes.h.
*/
#ifndef VF_GGML_ALLOC_SIM_H
#define VF_GGML_ALLOC_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "bytes.h"

#define GS_MAX_SRC 7 /* SSM_SCAN reads 7, GATED_DELTA_NET 6 (GGML_MAX_SRC is 10) */
enum { GS_INPUT = 1, GS_OUTPUT = 2 }; /* GGML_TENSOR_FLAG_INPUT / _OUTPUT */
/* what the allocator and the scheduler need to know of an op: ggml_op_can_inplace; ROPE
** (the scheduler ignores its weights); not offloaded to a GPU from host weights (GET_ROWS,
** or a batch below the CUDA backend's 32 rows: get_op_batch_size); an op that writes into
** a view of its destination (CPY, SET_ROWS: a view, but not a view op for the scheduler) */
enum { GS_INPLACE = 1, GS_ROPE = 2, GS_NOOFFLOAD = 4, GS_WRITES = 8 };
#define GS_MAX_BACKENDS 17 /* up to 16 GPUs, then the host (the last, lowest priority) */

typedef struct gs_graph gs_graph;

gs_graph *gs_new(void);
void gs_free(gs_graph *g); /* NULL is a no-op */
/* a tensor in another buffer (weights, the KV cache): never allocated here */
int gs_ext(gs_graph *g);
/* a graph input leaf (allocated first, in creation order) */
int gs_leaf(gs_graph *g, uint64_t bytes);
/* a node computed in graph order; view_src >= 0 makes it a view (no memory) of that
** tensor's own source, `bytes` then what a copy of the view takes (ggml_nbytes); returns
** its id, -1 once the graph ran out of memory */
int gs_node(gs_graph *g, uint64_t bytes, unsigned how, int view_src, const int *src, int nsrc);
void gs_set_output(gs_graph *g, int id);
/* a tensor in a backend's own buffer (weights when `weight`, else the KV cache): like
** gs_ext, but the scheduler places the ops that use it */
int gs_ext_at(gs_graph *g, int backend, bool weight);
/* gs_ext_at with the bytes a copy of the tensor takes in a GPU's buffer
** (ggml_backend_buft_get_alloc_size: ggml_nbytes plus CUDA's row padding of quantized
** types): a split that runs elsewhere copies it (the host weights of ops the first GPU
** takes, the host K/V views its attention reads) */
int gs_ext_sized(gs_graph *g, int backend, bool weight, uint64_t bytes);
/* after gs_sched: tensors copied into another backend whose size is unknown (0 bytes:
** external tensors and views built without it) */
int gs_unsized_copies(const gs_graph *g);
/* node id takes `extra` more bytes when allocated in a GPU's buffer (the CUDA buffer
** type's get_alloc_size: flash attention's f16 copies of a quantized K/V cache) */
void gs_set_gpu_extra(gs_graph *g, int id, uint64_t extra);
/* the sources of node keep_src_of stay allocated until node `until` has run, when both
** land in one GPU split (a backend's graph_optimize add_alloc_dep: the CUDA backend's fused
** MoE weighted reduction keeps the experts' outputs and their weights); no effect on the
** host */
void gs_keep_until(gs_graph *g, int keep_src_of, int until);
/* ggml_backend_sched_set_tensor_backend: a fixed assignment */
void gs_set_backend(gs_graph *g, int id, int backend);
/* ggml_backend_sched_split_graph over n_backends (the last one the host): assigns every
** node a backend (passes 1-4), splits the graph where the backend changes and inserts
** the copies of each split's inputs into its backend (pass 5), n_copies of each with
** pipeline parallelism; op_offload: ops on host weights run on the first GPU (the batch
** reaches the CUDA backend's 32 rows and llama.cpp's op_offload is on), their weights
** copied into the split: each such op starts a split of its own.
** Returns the number of splits, 0 on failure. */
int gs_sched(gs_graph *g, int n_backends, int n_copies, bool op_offload);
/* ggml_gallocr_reserve_n after gs_sched: one buffer per backend, sizes[b] with align[b] */
bool gs_plan_n(gs_graph *g, const uint64_t *align, uint64_t *sizes);
/* the bytes given to a tensor (a view's: ggml_nbytes of the view, what a copy takes) */
uint64_t gs_bytes(const gs_graph *g, int id);
/* the nodes of the graph as ggml counts them (views included, copies excluded) */
int gs_n_nodes(const gs_graph *g);
/* the buffer ggml_gallocr_reserve would allocate (alignment: the buffer type's);
** false when the graph could not be built (out of memory) */
bool gs_plan(gs_graph *g, uint64_t align, uint64_t *size);

/* llama.cpp's decoder graph for the worst-case reserve (llama_context::graph_reserve:
** n_ubatch tokens, n_out of them outputs), the shape of src/models/llama.cpp with
** build_attn / build_ffn / build_moe_ffn of src/llama-graph.cpp */
/* the weights the graph's ops read, by kind; each kind's bias is kind + LW_BIAS (the
** output layer's row holds LW_OUT_NORM, LW_OUTPUT and LW_TOKEN_EMBD) */
enum {
  LW_ATTN_NORM = 0, LW_Q = 2, LW_K = 4, LW_V = 6, LW_QKV = 8, LW_O = 10, LW_FFN_NORM = 12,
  LW_GATE = 14, LW_UP = 16, LW_DOWN = 18, LW_ROUTER = 20, LW_GATE_EXPS = 22, LW_UP_EXPS = 24,
  LW_DOWN_EXPS = 26, LW_OUT_NORM = 28, LW_OUTPUT = 30, LW_TOKEN_EMBD = 32,
  /* MLA (deepseek2): wq_a, attn_q_a_norm, wq_b, wkv_a_mqa, attn_kv_a_norm, wk_b, wv_b */
  LW_Q_A = 34, LW_Q_A_NORM = 36, LW_Q_B = 38, LW_KV_A = 40, LW_KV_A_NORM = 42, LW_K_B = 44, LW_V_B = 46,
  /* the shared experts' FFN (ffn_{gate,up,down}_shexp) and qwen3next's gate of its output
  ** (ffn_gate_inp_shexp), apart from the dense FFN's and the router's slots */
  LW_SH_GATE = 48, LW_SH_UP = 50, LW_SH_DOWN = 52, LW_SH_GATE_INP = 54,
  /* a gated DeltaNet layer besides its QKV (attn_qkv) and output (ssm_out: LW_O) weights:
  ** the output gate z (attn_gate), the conv kernel (ssm_conv1d), the decay's projection
  ** (ssm_alpha, or qwen3next's fused ssm_beta_alpha) with ssm_dt as its bias, ssm_a, beta's
  ** projection (ssm_beta) and the gated norm (ssm_norm) */
  LW_DN_Z = 56, LW_DN_CONV = 58, LW_DN_ALPHA = 60, LW_DN_A = 62, LW_DN_BETA = 64, LW_DN_NORM = 66,
  /* the embeddings' norm (bloom's tok_norm, GGUF token_embd_norm, Hugging Face
  ** word_embeddings_layernorm): an input-layer (host) tensor of the output layer's row */
  LW_TOK_NORM = 68,
  LW_N = 70, LW_BIAS = 1
};

typedef struct lc_graph_spec {
  uint64_t n_tok, n_stream, n_layer, hidden, vocab;
  uint64_t n_out;    /* the reserve's n_outputs: the rows of the last layer's FFN, the output
                     ** norm and the logits (get_rows of inp_out_ids); 0: n_tok */
  uint64_t heads, kv_heads, head_k, head_v, ffn, experts, experts_used;
  uint64_t dense_lead, dense_ffn; /* MoE models: the leading dense layers and their FFN width */
  uint64_t shexp_ffn;             /* the shared experts' FFN width (0: none) */
  bool qkv_bias;                  /* Q, K and V projections with biases (glm4moe) */
  bool probs_b;                   /* an expert-selection bias (exp_probs_b) added to the router's
                                  ** probabilities before the top-k (deepseek2, glm4moe) */
  bool moe_unnorm;                /* the top-k weights not renormalized (norm_w false) */
  bool moe_scaled;                /* then scaled by expert_weights_scale (ggml_scale of their
                                  ** reshaped view: a new tensor) */
  /* MLA with k_b / v_b absorbed (deepseek2 with key_length_mla: src/models/deepseek2.cpp,
  ** llama.cpp 80fb11a): Q from q_lora (0: wq), one latent K row of kv_lora + rope per token,
  ** V its first kv_lora columns, attention over the latent, then wv_b per head */
  bool mla;
  uint64_t mla_q_lora, mla_kv_lora, mla_rope, mla_hk, mla_hv; /* mla_hk: nope + rope per head */
  uint64_t mla_k_elem; /* bytes of a K cache element (the contiguous V copy without FA) */
  /* MLA with wkv_b whole and the expanded per-head cache (MiniCPM3: src/models/minicpm3.cpp, llama.cpp
  ** 80fb11a): Q from q_a, its norm and q_b, RoPE over the whole Q; V the contiguous copy of kv's
  ** per-head V columns (kv = wkv_b x the normed latent); K the concat of kv's nope columns and the
  ** roped k_pe repeated to every head; a plain build_attn over heads x head_k / head_v. Its sizes in
  ** mla_q_lora, mla_kv_lora, mla_rope */
  bool mla_expanded;
  bool head_scale; /* minicpm3.cpp lmhead_scaling: the output norm (an output, t_embd) scaled into a new
                   ** tensor before lm_head */
  uint64_t n_kv[2];  /* cells per stream: full-attention cache, sliding-window cache */
  uint64_t n_swa;    /* layers that use the sliding-window cache (the last ones) */
  bool iswa;         /* llama_kv_cache_iswa (a sliding or chunked cache): two sets of KV
                     ** indices and masks even when both caches hold as many cells, and
                     ** build_attn expands Q, K, V in that order (Q, V, K with one cache) */
  uint64_t swa_period; /* hparams.set_swa_pattern(period): layer il uses the sliding cache
                       ** when il % period < period - 1; 0: the last n_swa layers */
  /* Llama 4 (src/models/llama4.cpp, build_moe_ffn's weight_before_ffn) */
  uint64_t nope_step;  /* n_no_rope_layer_step: layers with (il + 1) % step == 0 skip RoPE (Llama 4,
                       ** AFMoE: afmoe.cpp use_rope, llama-hparams.h's default step 4); 0: none */
  bool nope_scale;     /* Llama 4: those layers multiply Q by the attn_scale input (temperature tuning) */
  bool no_rope;        /* no RoPE on any layer and no positions input (granite-hybrid.cpp: inp_pos
                       ** only if hparams.has_rope, rope.scaling.finetuned false in the -H models) */
  bool learned_pos;    /* learned positions (starcoder.cpp, gpt2.cpp): after the attention inputs
                       ** get_rows of pos_embd by inp_pos, added to the embeddings (in place);
                       ** no RoPE: Q, K and V views of the fused wqkv product */
  bool post_norms;     /* OLMo 2 / 3 (olmo2.cpp): no pre-norms; the attention and the FFN read the
                       ** residual itself, their outputs RMS-normed in place (attn_post_norm,
                       ** ffn_post_norm); Q and K normed in place before RoPE */
  bool kq_norm;        /* use_kq_norm: Q and K RMS-normed (no weight) after RoPE */
  bool attn_temp;      /* mistral3's attention temperature: Q times the attn_scale input
                       ** after RoPE on every layer (f_attn_temp_scale != 0) */
  uint64_t moe_step;   /* n_moe_layer_step: MoE layers where (il + 1) % step == 0, the others
                       ** dense (dense_ffn wide); 0: MoE after the dense_lead layers */
  bool moe_w_before;   /* the top-k taken from the logits, the sigmoid weights applied to x
                       ** (repeated k times) before the experts, not to their outputs */
  /* gpt-oss (src/models/openai-moe.cpp, llama.cpp 80fb11a) */
  bool moe_softmax_w;  /* SOFTMAX_WEIGHT gating: the router's bias added to its logits in
                       ** place, the top-k of the logits, a softmax over the k selected ones
                       ** (not renormalized) */
  bool exps_bias;      /* the experts' up, gate and down outputs biased (ADD_ID, in place) */
  bool gate_up_exps;   /* the experts' gate and up in one fused weight (ffn_gate_up_exps, read
                       ** from LW_GATE_EXPS): one MUL_MAT_ID of 2 x ffn rows, the halves viewed */
  bool rows_late;      /* the output rows (inp_out_ids) taken after the last layer, before the
                       ** output norm (embeddings_nextn_masked off), not inside the last layer */
  /* the gated DeltaNet hybrids (qwen3next, qwen35, qwen35moe: src/models/qwen3next.cpp,
  ** qwen35.cpp, delta-net-base.cpp of llama.cpp 80fb11a): recurrent layers where
  ** (il + 1) % dn_period != 0, the others gated attention (Q with its output gate, Q/K RMS
  ** norms with weights before RoPE), a post-attention norm, the output rows taken after the
  ** output norm */
  uint64_t dn_period;  /* 0: not a DeltaNet hybrid */
  uint64_t dn_seqs;    /* the reserve's ubatch sequences (n_seq_max), each its own state */
  uint64_t dn_snap;    /* state snapshots GATED_DELTA_NET writes per sequence: K = n_rs_seq + 1 (0: 1) */
  uint64_t dn_conv, dn_sk, dn_hk, dn_hv, dn_sv; /* conv kernel, K head size, K heads, V heads, V head size */
  bool dn_split;       /* qwen35: beta and alpha projected apart, Q/K not repeated to the V heads */
  /* the short-conv hybrids (lfm2: build_shortconv_block of src/models/lfm2.cpp, llama.cpp
  ** 80fb11a): the layers sc_ids lists are a gated short convolution of kernel sc_conv
  ** (shortconv.l_cache), the others attention; without sc_ids, sc_attn attention layers spread
  ** over the layers (layer il attends when (il + 1) x sc_attn / n_layer steps up: LFM2-1.2B's
  ** 2, 5, 8, 10, 12, 14 would become 2, 5, 7, 10, 13, 15); dn_seqs gives their sequences */
  uint64_t sc_attn, sc_conv; /* sc_conv 0: not a short-conv hybrid */
  const uint64_t *sc_ids;    /* the short-conv layers as a bitmap (kv_group.ids), else NULL: spread */
  /* Mamba-2 layers in their place (granitehybrid: build_mamba2_layer of src/models/mamba-base.cpp,
  ** llama.cpp 80fb11a): m2_inner != 0, the recurrent layers (sc_ids / sc_attn) are Mamba-2 mixers
  ** of m2_heads heads over m2_inner channels, m2_groups groups of m2_state, conv kernel sc_conv */
  uint64_t m2_inner, m2_heads, m2_groups, m2_state;
  /* Nemotron-H (src/models/nemotron-h.cpp, llama.cpp 80fb11a): one mixer a layer and one
  ** residual add (cur + inpSA), no FFN block; a layer in mlp_ids (a bitmap of up to 1024 layers)
  ** is a squared-ReLU MLP (build_ffn, no gate), one in sc_ids a Mamba-2 mixer, the rest
  ** attention without RoPE; the output rows taken after the output norm */
  bool nemo;
  uint64_t mlp_ids[16];
  /* Falcon-H1 (src/models/falcon-h1.cpp): every layer attention and Mamba-2 side by side, then
  ** the FFN; m2_no_norm: its Mamba-2 without the grouped RMS norm (no ssm_norm: mamba_rms_norm
  ** false, the released models) */
  bool falcon, m2_no_norm;
  /* Jamba's Mamba-1 layers (build_mamba_layer of src/models/mamba-base.cpp): m1_dt_rank != 0,
  ** the recurrent layers Mamba-1 mixers of m2_inner channels, state m2_state, with the dt / B / C
  ** RMS norms; the FFN routed (softmax, not renormalized) on every moe_step-th layer */
  uint64_t m1_dt_rank;
  bool res_first;      /* the residual adds' first source is the residual (lfm2.cpp:
                       ** ggml_add(prev_cur, cur), ggml_add(cur, ffn_out)), which they reuse */
  uint64_t n_pos;      /* positions per token (4 with MRoPE, qwen35); 0: 1 */
  bool shexp_gate;     /* the shared experts' output scaled by sigmoid(ffn_gate_inp_shexp x) */
  bool shexp_gate_silu; /* qwen2moe's gate: its sigmoid as ggml_div(ggml_silu(g), g)
                         ** (src/models/qwen2moe.cpp); else qwen3next's ggml_sigmoid */
  bool nextn_out;      /* the hybrids' output rows taken after the output norm, kept whole
                       ** (t_h_nextn: builds with MTP support); before, in the last layer */
  bool fa, gated, rot_k, rot_v;
  uint64_t rot_k_n;  /* side of the K Hadamard rotation (build_input_k_rot) */
  /* GPUs (lc_graph_buffers): backends 0..n_gpu-1, then the host */
  int n_gpu, n_copies;       /* n_copies: GGML_SCHED_MAX_COPIES with pipeline parallelism, else 1 */
  const int *layer_dev;      /* n_layer + 1 devices (the last: the output layer); -1 the host */
  const int *kv_dev;         /* n_layer devices of the layers' K/V */
  const unsigned *part_cls;  /* n_layer: the FFN classes (LC_PART_*) --fit's partial layers move
                             ** to part_dev (-1 the host, else a GPU); NULL: none */
  const int *part_dev;
  const int *exps_dev;       /* n_layer devices of the routed experts' weights (--n-cpu-moe:
                                -1 the host); NULL: the layers' devices */
  bool force_norm;           /* the graph callback pins each layer's "norm" to its device
                             ** (full offload or fewer than 32 tokens) */
  bool op_offload;           /* llama.cpp's op_offload (on unless --no-op-offload) */
  bool moe_reduce_dep;       /* the CUDA backend's fused MoE weighted reduction (PR #25952):
                             ** the experts' outputs and weights kept until the last add */
  bool no_embd_leaf;         /* the unused f32 embeddings input (inp_embd, n_embd x n_tokens) is
                             ** not in the graph: builds before PR #18898 built only the
                             ** ubatch's path (tokens, else embeddings), so the reserve has the
                             ** tokens' get_rows and no inp_embd leaf */
  bool cpy_store;            /* the cache stores are ggml_cpy into views of the cache, with no
                             ** k_idxs / v_idxs inputs (LLAMA_SET_ROWS=0, the default before
                             ** PR #14959) */
  bool mask_cast;            /* flash attention reads an f16 cast of the f32 input mask (builds
                             ** before PR #23764 reserved the mask in f32) */
  bool fa_f16_k, fa_f16_v;   /* CUDA flash attention's output reserves f16 copies of the whole
                             ** K / V cache view (PR #23907: a cache type other than f16, the
                             ** tile and MMA kernels of 3 or more tokens per stream) */
  const uint64_t *wbytes;    /* (n_layer + 1) x LW_N bytes of a copy of each weight on the
                             ** first GPU (gs_ext_sized); NULL or 0: unknown */
  uint64_t kv_bytes[2][2];   /* [cache][K, V]: a copy of one layer's K or V view (all cells
                             ** of every stream) on a GPU; 0: unknown */
  /* the llm_build_context graph of builds before llama-graph.cpp (b4385): K/V stored with
  ** ggml_cpy, an f32 mask of 32-padded rows, inp_out_ids made in the last layer; and the
  ** layer shape of GPT-NeoX (LLM_NORM with bias, wqkv + bqkv, biases, use_par_res, GELU).
  ** layer_norm holds in the later graph too: its norms are ggml_norm, never in place */
  bool legacy, layer_norm, biases, fused_qkv, par_res;
  /* phi2's parallel block (llm_build_context::build_phi2): one LayerNorm output
  ** (attn_norm_output) feeds both Q/K/V and the FFN, alive across the attention; the block's
  ** output is (attn + ffn) + inpL */
  bool shared_norm;
  /* ... in the later graph too (phi2.cpp, falcon.cpp: no ffn_norm; lc_graph.c lg_shared_norm_layer);
  ** ffn_first: falcon's ggml_add(ffn_out, attn_out), the FFN reached before the output projection */
  bool ffn_first;
  bool embd_norm; /* bloom.cpp: the embeddings' LayerNorm (tok_norm) before the first layer */
  /* a sliding-window model before the iSWA cache (PR #13194): one cache, and a second f32
  ** mask of the same [n_kv, 32-padded n_tokens] (build_inp_KQ_mask_swa; gemma2, gemma3,
  ** cohere2) read by the sliding layers, il % period < period - 1; 0: none */
  uint64_t legacy_swa_period;
  /* phi3 (src/models/phi3.cpp): Q, K and V strided views of one wqkv product (fused_qkv, in
  ** the graph of llama-graph.cpp too), a fused gate|up of 2 x ffn SwiGLU-split, and the FFN's
  ** output added as ggml_add(residual, ffn): the residual's buffer kept in place */
  bool fused_up;
  bool attn_out_gate; /* Arcee AFMoE (src/models/afmoe.cpp, llama.cpp 80fb11a): the attention's output
                      ** times sigmoid(attn_gate x) before wo, x the attention's normed input, which
                      ** the gate's matmul reads after the attention (the graph reaches it from the
                      ** MUL): x stays allocated across the attention */
  /* attention-free mamba / mamba2 (src/models/mamba.cpp llama_model_mamba::graph, llama.cpp
  ** 80fb11a): inputs tokens, inp_embd, s_copy and out_ids only (no positions, KV indices or
  ** KQ mask); per layer attn_norm, build_mamba_layer / build_mamba2_layer, cur + inpL */
  bool ssm_only;
  /* build_mamba_layer's dt / B / C RMS norms: 0 with their weights (Jamba's ssm_dt_norm,
  ** ssm_b_norm, ssm_c_norm), 1 none (Mamba-1), 2 without weights (FalconMamba's
  ** ssm_dt_b_c_rms: build_norm with a NULL weight) */
  int m1_norms;
  /* Gemma 4 (src/models/gemma4.cpp of llama.cpp 80fb11a; lc_graph.c lg_g4_*): sliding and full
  ** layers with their own head size and KV heads, per cache (0 full, 1 sliding); the layers from
  ** g4_kv_layers on (n_layer_kv_from_start) project Q only and attend over an earlier layer's
  ** cache; K's projection is V where a full layer has no attn_v (g4_k_eq_v); Q, K and V RMS-normed
  ** (V without a weight); post-attention and post-FFN norms; the MoE block (experts != 0) beside
  ** the dense GELU FFN of g4_ffn (g4_ffn_shared on the KV-shared layers: use_double_wide_mlp);
  ** the per-layer embeddings of g4_ple (0: none); the output rows taken after the output norm */
  bool g4, g4_k_eq_v;
  uint64_t g4_hk[2], g4_kvh[2], g4_rot_n[2];
  uint64_t g4_kv_layers, g4_ffn, g4_ffn_shared, g4_ple;
  uint64_t g4_vmax; /* hparams.n_embd_v_gqa_max(): the V rows without flash attention (v_idxs, the
                    ** padded V store of TAG_V_CACHE_VARIABLE) */
} lc_graph_spec;

/* FFN weight classes of --fit's partial layers: the router, gate, up and down projections
** (routed, shared or dense); X: the routed experts' weights of every class (its
** LAYER_FRACTION_MOE pattern, ffn_(up|down|gate_up|gate)_(ch|)exps) */
enum { LC_PART_R = 1, LC_PART_G = 2, LC_PART_U = 4, LC_PART_D = 8, LC_PART_X = 16 };

/* CUDA flash attention runs its tile or MMA kernel, which takes f16 copies of a non-f16 cache,
** for 3 or more tokens a stream (fattn.cu ggml_cuda_get_best_fattn_kernel: fewer go to the
** vector kernel) */
static inline bool lc_fa_tile(uint64_t n_tok, uint64_t n_stream) { return n_tok / (n_stream ? n_stream : 1) >= 3; }

/* the CPU compute buffer of that graph; false on out of memory or overflow */
bool lc_graph_compute_buffer(const lc_graph_spec *sp, uint64_t align, uint64_t *size);
/* the compute buffers of every backend (sizes[0..n_gpu-1] the GPUs', sizes[n_gpu] the
** host's) as ggml_backend_sched_reserve leaves them; *n_nodes the graph's node count */
/* *n_unsized: weights copied to a GPU (ops offloaded from the host) of unknown size */
bool lc_graph_buffers(const lc_graph_spec *sp, uint64_t gpu_align, uint64_t cpu_align, uint64_t *sizes,
                      int *n_nodes, int *n_splits, int *n_unsized);

#endif
