/*
** testutil.h: shared fixtures of the cmocka tests: Llama-3.1-8B as a model_desc built
** in C from its config.json numbers (no Lua), the inference and training scenarios
** the estimate and fit tests start from, their cmocka fixture, and a GPU entry.
** Header-only, all static.
*/
#ifndef VF_TESTUTIL_H
#define VF_TESTUTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "catalog.h"
#include "dtype.h"
#include "estimate.h"
#include "fit.h"
#include "inventory.h"
#include "model.h"

#define TU_KIB 1024ull
#define TU_MIB (1024ull * 1024ull)
#define TU_GIB (1024ull * 1024ull * 1024ull)

/* meta-llama/Llama-3.1-8B config.json */
#define TU_L8_HIDDEN 4096u
#define TU_L8_LAYERS 32u
#define TU_L8_VOCAB 128256u
#define TU_L8_HEADS 32u
#define TU_L8_KV_HEADS 8u
#define TU_L8_HEAD_DIM 128u
#define TU_L8_FFN 14336u
#define TU_L8_MAX_POS 131072u

/* Hand-computed totals of that inventory (see test_inventory.c for the sums):
** 32 x 218,112,000 per layer + 2 x 525,336,576 (embed, lm_head) + 4,096 (final norm). */
#define TU_L8_PARAMS 8030261248ull
#define TU_L8_BF16_BYTES 16060522496ull

static inline bool tu_add2(inventory *inv, const char *name, uint64_t d0, uint64_t d1, uint64_t count,
                           inv_role role, vf_dtype dt) {
  const uint64_t shape[2] = {d0, d1};
  return inv_add(inv, name, shape, 2, count, role, dt);
}

static inline bool tu_add1(inventory *inv, const char *name, uint64_t d0, uint64_t count, inv_role role,
                           vf_dtype dt) {
  const uint64_t shape[1] = {d0};
  return inv_add(inv, name, shape, 1, count, role, dt);
}

/* The 12 tensor groups of Llama-3.1-8B in HF layout ([out, in]); '*' is the layer. */
static inline bool tu_llama8b_inventory(inventory *inv, vf_dtype dt) {
  const uint64_t h = TU_L8_HIDDEN, kv = TU_L8_KV_HEADS * TU_L8_HEAD_DIM, f = TU_L8_FFN;
  const uint64_t L = TU_L8_LAYERS;
  return tu_add2(inv, "model.embed_tokens.weight", TU_L8_VOCAB, h, 1, ROLE_EMBED, dt) &&
         tu_add2(inv, "model.layers.*.self_attn.q_proj.weight", h, h, L, ROLE_ATTN, dt) &&
         tu_add2(inv, "model.layers.*.self_attn.k_proj.weight", kv, h, L, ROLE_ATTN, dt) &&
         tu_add2(inv, "model.layers.*.self_attn.v_proj.weight", kv, h, L, ROLE_ATTN, dt) &&
         tu_add2(inv, "model.layers.*.self_attn.o_proj.weight", h, h, L, ROLE_ATTN, dt) &&
         tu_add2(inv, "model.layers.*.mlp.gate_proj.weight", f, h, L, ROLE_MLP, dt) &&
         tu_add2(inv, "model.layers.*.mlp.up_proj.weight", f, h, L, ROLE_MLP, dt) &&
         tu_add2(inv, "model.layers.*.mlp.down_proj.weight", h, f, L, ROLE_MLP, dt) &&
         tu_add1(inv, "model.layers.*.input_layernorm.weight", h, L, ROLE_NORM, dt) &&
         tu_add1(inv, "model.layers.*.post_attention_layernorm.weight", h, L, ROLE_NORM, dt) &&
         tu_add1(inv, "model.norm.weight", h, 1, ROLE_NORM, dt) &&
         tu_add2(inv, "lm_head.weight", TU_L8_VOCAB, h, 1, ROLE_LM_HEAD, dt);
}

/* Llama-3.1-8B: one full-attention KV group of 32 layers x 8 heads x 128 k/v dims;
** block q 4096, kv 1024, ffn 14336, gated SiLU MLP, RMSNorm. Free with model_free. */
static inline bool tu_llama8b(model_desc *m) {
  model_init(m);
  strcpy(m->id, "meta-llama/Llama-3.1-8B");
  strcpy(m->arch, "llama");
  m->family = FAM_DECODER;
  m->hidden = TU_L8_HIDDEN;
  m->layers = TU_L8_LAYERS;
  m->vocab = TU_L8_VOCAB;
  m->heads = TU_L8_HEADS;
  m->kv_heads = TU_L8_KV_HEADS;
  m->head_dim = TU_L8_HEAD_DIM;
  m->intermediate = TU_L8_FFN;
  m->max_position = TU_L8_MAX_POS;
  m->tied_embeddings = false;
  m->kv[0] = (kv_group){.layers = TU_L8_LAYERS, .kv_heads = TU_L8_KV_HEADS, .k_dim = TU_L8_HEAD_DIM,
                        .v_dim = TU_L8_HEAD_DIM};
  m->n_kv = 1;
  m->block = (block_spec){.q_dim = TU_L8_HEADS * TU_L8_HEAD_DIM,
                          .kv_dim = TU_L8_KV_HEADS * TU_L8_HEAD_DIM,
                          .ffn_dim = TU_L8_FFN,
                          .gated = true,
                          .rms = true};
  return tu_llama8b_inventory(&m->inv, DT_BF16);
}

/* bf16 inference at 8192 tokens x 1 sequence on one GPU, with the device facts set
** (so fit_device_scenario keeps them): 500 MiB CUDA context, 32 MiB workspace, no
** fragmentation and no headroom unless a test sets them. */
static inline void tu_infer_scenario(scenario *s) {
  memset(s, 0, sizeof *s);
  strcpy(s->name, "llama8b-infer");
  s->kind = WL_INFERENCE;
  strcpy(s->runtime, "transformers");
  s->dtype = DT_BF16;
  s->kv_dtype = DT_BF16;
  s->attention = ATTN_SDPA;
  s->context = 8192;
  s->concurrency = 1;
  s->prec = (precision_spec){.name = "bf16",
                             .weights = DT_BF16,
                             .grads = DT_BF16,
                             .activations = DT_BF16,
                             .master = false,
                             .master_dtype = DT_FP32};
  s->tp = s->pp = s->dp = 1;
  s->strategy = STRAT_NONE;
  s->cuda_context = 500 * TU_MIB;
  s->workspace = 32 * TU_MIB;
}

/* Full fine-tune in pure bf16 (no master copy) with AdamW: 2 states x 16 bits, 16 bits
** of step temporaries per parameter; micro-batch 1 x 2048 tokens, no checkpointing. */
static inline void tu_train_scenario(scenario *s) {
  tu_infer_scenario(s);
  strcpy(s->name, "llama8b-train");
  s->kind = WL_TRAIN;
  s->micro_batch = 1;
  s->seq_len = 2048;
  s->grad_accum = 1;
  s->gc = GC_NONE;
  s->opt = (optimizer_spec){.name = "adamw", .state_bits = 32, .step_temp_bits = 16};
}

#ifdef test_calloc /* cmocka.h included first */
/* The estimate and fit tests' state: Llama-3.1-8B with the inference scenario, the last
** estimate or fit row and its error message. */
typedef struct tu_fixture {
  model_desc m;
  scenario s;
  estimate e;
  fit_row row;
  char err[512];
} tu_fixture;

static inline int tu_fixture_setup(void **state) {
  tu_fixture *f = test_calloc(1, sizeof *f);
  if (!f || !tu_llama8b(&f->m)) return -1;
  tu_infer_scenario(&f->s);
  *state = f;
  return 0;
}

static inline int tu_fixture_teardown(void **state) {
  tu_fixture *f = *state;
  model_free(&f->m);
  test_free(f);
  return 0;
}
#endif

static inline gpu tu_gpu(const char *name, uint64_t memory, const char *arch) {
  gpu g;
  memset(&g, 0, sizeof g);
  strncpy(g.name, name, sizeof g.name - 1);
  strcpy(g.vendor, "nvidia");
  strncpy(g.arch, arch, sizeof g.arch - 1);
  g.memory = memory;
  g.bf16 = true;
  return g;
}

#endif
