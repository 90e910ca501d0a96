/*
** test_holdout25_train.c: training peaks held out of shared/calibration (round 25, 2026-12-02),
** predicted by vramfit through the public API before any change, then pinned. Sources (none is a
** calibration case, none was cited in docs/CALIBRATION.md or tests/ before):
** - huggingface/peft docs/source/accelerate/fsdp.md (read at 018ca9d6), the guide's two runs of
**   examples/sft/train.py (TRL SFTTrainer) on meta-llama/Llama-2-70b-hf, smangrul/ultrachat-10k-chatml
**   packed to --max_seq_len 2048, --bf16 True, flash attention 2, gradient checkpointing, LoRA r 8,
**   alpha 16, dropout 0.1 on "all-linear", accelerate FSDP FULL_SHARD, use_orig_params false,
**   the LoRA modules wrapped on their own (peft fsdp_auto_wrap_policy):
**   (a) "Use PEFT and FSDP": 8 x H100 80GB, batch 8, accumulation 4, use_reentrant False, no
**       quantization (examples/sft/utils.py loads the model in fp32 without quant_storage, and
**       accelerate's mixed_precision bf16 gathers it in bf16): "the memory consumed per GPU is
**       72-80 GB (90-98%)" from a GPU-memory screenshot, the top of it a FULL_STATE_DICT save
**       after training;
**   (b) "Use PEFT QLoRA and FSDP": 2 GPUs, batch 2, accumulation 2, use_reentrant True, nf4 with
**       --use_nested_quant True (double quantization), bnb_4bit_quant_storage bfloat16 (the model
**       loaded in bf16), fsdp_offload_params true (versions the guide requires: bitsandbytes
**       >= 0.43.3, accelerate >= 1.0.1, transformers > 4.44.2, TRL > 0.11.4, PEFT > 0.13.0):
**       "the memory consumed per GPU is 19.6 GB ... When disabling CPU offloading, the GPU
**       memory usage is 35.6 GB/ GPU".
**   Kind and unit: device-level readings (the same author's screenshot figures in
**   docs/source/accelerate/deepspeed.md, calibration case peft-docs-llama2-70b-lora-zero3-8xh100,
**   print 64 GB as 80 % of an 80 GiB card, so GB are GiB): compared with vramfit's nvidia-smi
**   total, 15 % for a stated figure of unstated kind; the LoRA range against its midpoint at 10 %.
** - huggingface/peft method_comparison/MetaMathQA/results (torch.cuda.max_memory_reserved over the
**   whole run, "cuda_memory_max", bytes; L40S; Llama-3.2-3B bf16, 4 x <= 768 tokens, no
**   checkpointing, AdamW, LoRA on q_proj, v_proj):
**   lora--llama-3.2-3B-rank64-steps1000.json (2025-07-18, transformers 4.52.4, PEFT 0.16.1.dev0,
**   torch 2.7.1, 1,000 steps): 20,061,356,032 B; lora--llama-3.2-3B-rank32--2025-06-17T13-30-58+00-00.json
**   (transformers 4.52.4, PEFT 0.15.2.dev0, torch 2.7.1, 5,000 steps): 22,273,851,392 B.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

#define GIB 1073741824.0

#define ALL_LINEAR "{ 'q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj' }"

/* (b): the QLoRA run, CPU offload as %s */
static const char *const QL =
    "return { model = 'meta-llama/Llama-2-70b-hf', dtype = 'bf16', quant = { name = 'bnb-nf4', double_quant "
    "= "
    "true }, gpu = 'H100-SXM-80GB', runtime = { name = 'transformers', version = '4.46.0', peft = '0.13.2', "
    "torch = '2.5.0', bnb_4bit_quant_storage = 'bf16' }, workload = { kind = 'train', method = 'qlora', "
    "micro_batch = 2, seq_len = 2048, grad_accum = 2, grad_checkpointing = true, precision = 'bf16', "
    "optimizer = "
    "'adamw', attention = 'flash', lora = { r = 8, alpha = 16, dropout = 0.1, targets = " ALL_LINEAR
    " } }, parallel = { dp = 2, strategy = '%s', offload_params = %s } }";

/* (a): the LoRA run, fp32 weights gathered in bf16 */
static const char *const LO =
    "return { model = 'meta-llama/Llama-2-70b-hf', dtype = 'fp32', gpu = 'H100-SXM-80GB', runtime = { name = "
    "'transformers', version = '4.37.0', peft = '0.8.0', torch = '2.1.2' }, workload = { kind = 'train', "
    "method "
    "= 'lora', micro_batch = 8, seq_len = 2048, grad_accum = 4, grad_checkpointing = true, precision = "
    "'bf16-mixed', optimizer = 'adamw', attention = 'flash', lora = { r = 8, alpha = 16, dropout = 0.1, "
    "targets "
    "= " ALL_LINEAR " } }, parallel = { dp = 8, strategy = 'fsdp' } }";

/* bitsandbytes' statistics of Llama-2-70B's 560 quantized Linears with double quantization, per
** tensor ceil(n / 64) uint8 absmax + ceil(nblocks / 256) fp32 nested absmax + the 1,024 B nested
** code + 4 B offset + the 64 B NF4 code (scripts/quant/_bnb.lua bytes_4bit less the packed codes),
** summed over q, k, v, o (8192 x 8192, 1024 x 8192 twice, 8192 x 8192) and gate, up, down
** (28672 x 8192) of 80 layers */
#define L70_DQ_STATE 1086870720LL
/* the whole double-quantized model as vramfit holds it (its 4-bit Linears, bf16 embeddings, head
** and norms) */
#define L70_DQ_WEIGHTS 36363605184LL

static json_t *ql(void **state, const char *strategy, const char *offload) {
  return tu_eval_okf(*state, QL, strategy, offload);
}

/* The three figures of the PEFT FSDP guide. Predicted before any change (nvidia-smi total, GiB):
** LoRA 71.57 (-5.8 % from the range's midpoint 76; 0.6 % under its low end), QLoRA without
** offload 30.27 (-15.0 %), QLoRA with CPU offload 13.74 (-29.9 %). The mechanism of this round,
** bitsandbytes' statistics held whole on every rank (src/train.c train_weights), adds what FSDP
** does not shard or offload: QLoRA 30.75 (-13.6 %, within 15 %), with offload 14.73 (-24.9 %).
** The offload row stays a miss, pinned. What offloading moves is right: the guide drops 16.0 GiB
** from one run to the other, vramfit 16.02; both rows carry the same 4.9 GiB vramfit does not
** have (35.6 - 30.75, 19.6 - 14.73), -13.6 % of the larger figure and -24.9 % of the smaller.
** Ruled out for it: the statistics (now counted, 1.01 GiB); the adapters, their gradients and
** AdamW states, which FSDP1's CPUOffload moves to the host where vramfit keeps 0.97 GiB of them
** on the GPU (moving them would widen the gap, as round 18 found on fsdp_qlora's 70B row); the
** H2D copy of a unit's shard (counted: one shard in the pre-unshard stream's pool). Not
** identified; not fitted. The LoRA run is unchanged (no quantization). */
static void test_holdout25_peft_fsdp_guide(void **state) {
  static const struct {
    const char *strategy, *offload;
    double gib, ratio, tol; /* measured; vramfit / measured pinned within 1 %; the bar (0: a miss) */
  } rows[] = {
      {"fsdp", "false", 35.6, 0.8638, 0.15},
      {"fsdp", "true", 19.6, 0.7513, 0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j = ql(state, rows[i].strategy, rows[i].offload);
    double total = (double)tu_int(j, "devices.0.total_bytes");
    tu_assert_within(total, rows[i].ratio * rows[i].gib * GIB, 0.01);
    if (rows[i].tol > 0)
      tu_assert_within(total, rows[i].gib * GIB, rows[i].tol);
    else
      assert_true(total < 0.85 * rows[i].gib * GIB); /* the documented miss: still under 15 % low */
    json_decref(j);
  }
  /* (a) "72-80 GB (90-98%)": 71.57 GiB predicted, within 10 % of the range's midpoint */
  json_t *j = tu_eval_ok(*state, LO);
  double total = (double)tu_int(j, "devices.0.total_bytes");
  tu_assert_within(total, 0.9417 * 76.0 * GIB, 0.01);
  tu_assert_within(total, 76.0 * GIB, 0.10);
  json_decref(j);
}

/* The mechanism, byte-exact: FSDP (sharded or CPU-offloaded) and ZeRO-3 leave bitsandbytes'
** QuantState on the GPU whole; DDP-like replication (no_shard) holds the model whole anyway.
** - offloaded: the weights category is the statistics alone, 1,086,870,720 B;
** - sharded over 2: half of the rest (packed codes, bf16 embeddings, head, norms) plus all of them;
** - ZeRO-3 over 2 (the deepspeed runtime): the same;
** - no_shard: the whole model, unchanged. */
static void test_holdout25_bnb_state_whole(void **state) {
  json_t *j = ql(state, "fsdp", "true");
  assert_int_equal(tu_category(j, "weights"), L70_DQ_STATE);
  assert_non_null(strstr(tu_category_detail(j, "weights"), "statistics whole on the GPU"));
  json_decref(j);
  long long half = (L70_DQ_WEIGHTS - L70_DQ_STATE + 1) / 2 + L70_DQ_STATE;
  j = ql(state, "fsdp", "false");
  assert_int_equal(tu_int(j, "model.weight_bytes"), L70_DQ_WEIGHTS);
  assert_int_equal(tu_category(j, "weights"), half);
  json_decref(j);
  j = tu_eval_okf(
      *state,
      "return { model = 'meta-llama/Llama-2-70b-hf', dtype = 'bf16', quant = { name = 'bnb-nf4', "
      "double_quant = true }, gpu = 'H100-SXM-80GB', runtime = 'deepspeed', workload = { kind = "
      "'train', method = 'qlora', micro_batch = 2, seq_len = 2048, grad_checkpointing = true, "
      "precision = 'bf16-mixed', optimizer = 'adamw', attention = 'flash', lora = { r = 8, targets = "
      "%s } }, parallel = { dp = 2, strategy = 'zero3' } }",
      ALL_LINEAR);
  assert_int_equal(tu_category(j, "weights"), half);
  json_decref(j);
  j = ql(state, "ddp", "false");
  assert_int_equal(tu_category(j, "weights"), L70_DQ_WEIGHTS);
  assert_null(strstr(tu_category_detail(j, "weights"), "statistics"));
  json_decref(j);
}

/* mend25: a pipeline's bnb statistics are the denoiser's. FLUX.1-dev LoRA under FSDP over 2 with
** the transformer and T5 (text_encoder_2) in nf4: src/train.c shards the denoiser alone and keeps
** the text encoders whole as frozen_components, so T5's statistics must not be moved into the
** denoiser's weights a second time. The weights category equals the run with T5 unquantized
** (3,721,343,552 B); before the fix it was 3,834,594,368 B (half of T5's 226.5 MB of statistics
** more). */
static void test_bnb_state_denoiser_only(void **state) {
  static const char *fmt =
      "return { model = 'black-forest-labs/FLUX.1-dev', dtype = 'bf16', runtime = 'diffusers', gpu = "
      "'H100-SXM-80GB', quant = { denoiser = { name = 'bnb-nf4' }%s }, workload = { kind = 'train', method "
      "= 'lora', lora = { r = 16, targets = {'to_q', 'to_k', 'to_v'} }, width = 1024, height = 1024 }, "
      "parallel = { dp = 2, strategy = 'fsdp' } }";
  json_t *a = tu_eval_okf(*state, fmt, ", text_encoder_2 = { name = 'bnb-nf4' }");
  json_t *b = tu_eval_okf(*state, fmt, "");
  assert_int_equal(tu_category(a, "weights"), tu_category(b, "weights"));
  assert_int_equal(tu_category(a, "weights"), 3721343552LL);
  assert_true(tu_category(a, "frozen_components") < tu_category(b, "frozen_components"));
  json_decref(a);
  json_decref(b);
}

/* The rule follows the library, not a list of runtimes: plain PyTorch FSDP over bitsandbytes'
** Linear4bit (AnswerDotAI/fsdp_qlora's own train.py, `runtime = "pytorch"`) leaves the QuantState
** whole as transformers does, so Llama-2-70B nf4 + double quant on 2 ranks holds the same weights
** category there; torchtune's NF4Tensor shards its scalers with the parameter, so its weights are
** the plain half and name no statistics. Before this mend the pytorch runtime sharded them too
** (the weights category one half of the statistics, 543,435,360 B, under the transformers run). */
static void test_bnb_state_by_library(void **state) {
  static const char *fmt =
      "return { model = 'meta-llama/Llama-2-70b-hf', dtype = 'bf16', quant = { name = 'bnb-nf4', "
      "double_quant = true }, gpu = 'H100-SXM-80GB', runtime = '%s', workload = { kind = 'train', "
      "method = 'qlora', micro_batch = 2, seq_len = 2048, grad_checkpointing = true, precision = "
      "'bf16-mixed', optimizer = 'adamw', lora = { r = 8, targets = 'all-linear' } }, parallel = { "
      "dp = 2, strategy = 'fsdp' } }";
  long long half = (L70_DQ_WEIGHTS - L70_DQ_STATE + 1) / 2 + L70_DQ_STATE;
  json_t *j = tu_eval_okf(*state, fmt, "pytorch");
  assert_int_equal(tu_category(j, "weights"), half);
  assert_non_null(strstr(tu_category_detail(j, "weights"), "statistics whole on the GPU"));
  json_decref(j);
  j = tu_eval_okf(*state, fmt, "torchtune");
  assert_null(strstr(tu_category_detail(j, "weights"), "statistics"));
  assert_true(tu_category(j, "weights") < half);
  json_decref(j);
}

/* PEFT's method comparison, two result files no round took. Predicted (nothing here changed):
** - rank64-steps1000: 24.09 GB max reserved against 20.06 (+20.1 %), a documented miss, pinned. The
**   same configuration over 5,000 steps (calibration case peft-mc-llama32-3b-lora-r64, 22.55 GB)
**   reads +6.8 %: the peak is the longest batch the run met (4,000 samples here, 20,000 there; the
**   results file gives 842,451 tokens in all, 211 a sample), where vramfit takes
**   max_seq_length 768 for every batch. The sample lengths are not published, so nothing was fitted.
** - the June 2025 re-run of rank32 (the calibration case's configuration under transformers 4.52.4):
**   23.88 GB against 22.27 (+7.2 %), within 10 %. */
static void test_holdout25_peft_method_comparison(void **state) {
  static const char *const MC =
      "return { model = 'meta-llama/Llama-3.2-3B', dtype = 'bf16', gpu = 'L40S', runtime = { name = "
      "'transformers', version = '4.52.4', peft = '%s', torch = '2.7.1' }, workload = { kind = 'train', "
      "method "
      "= 'lora', micro_batch = 4, seq_len = 768, grad_accum = 1, grad_checkpointing = false, optimizer = "
      "'adamw', precision = 'bf16', attention = 'sdpa', lora = { r = %d, alpha = %d, targets = { 'q_proj', "
      "'v_proj' } } } }";
  static const struct {
    const char *peft;
    int r;
    double bytes, ratio;
    int within;
  } rows[] = {
      {"0.16.1", 64, 20061356032.0, 1.2010, 0},
      {"0.15.2", 32, 22273851392.0, 1.0723, 1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    json_t *j = tu_eval_okf(*state, MC, rows[i].peft, rows[i].r, 2 * rows[i].r);
    double resv = (double)tu_int(j, "runtime.peak_reserved_bytes");
    tu_assert_within(resv, rows[i].ratio * rows[i].bytes, 0.01);
    if (rows[i].within) tu_assert_within(resv, rows[i].bytes, 0.10);
    json_decref(j);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout25_peft_fsdp_guide),
      cmocka_unit_test(test_holdout25_bnb_state_whole),
      cmocka_unit_test(test_bnb_state_denoiser_only),
      cmocka_unit_test(test_bnb_state_by_library),
      cmocka_unit_test(test_holdout25_peft_method_comparison),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
