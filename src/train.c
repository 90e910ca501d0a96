/*
** train.c: training and fine-tuning as PyTorch autograd runs it, per rank: frozen and
** trainable weights, gradients, optimizer states and master weights per precision policy,
** sharding (DDP, ZeRO-1/2/3, FSDP) and CPU offload; saved activations per layer
** (Korthikanti et al. 2022, arXiv 2205.05198, adapted to GQA, gated MLPs, frozen Linears);
** logits and loss. The peak is the largest of the forward (loss), backward and
** optimizer-step phases; reserved adds the caching allocator's rounding and
** fragmentation. Trainable sets and exact optimizer bytes come from workloads/train.lua
** as extras "train.*". Uses estimate_int.h, train_int.h.
*/
#include <stdio.h>
#include <string.h>

#include "estimate_int.h"
#include "train_int.h"

static vf_dtype dtype_or(const char *name, vf_dtype dflt) {
  vf_dtype dt;
  return name && dtype_parse(name, &dt) ? dt : dflt;
}

/* ceil(n x bits / 8) (src/bytes.h); sets *overflow instead of wrapping */
static uint64_t bits_bytes(uint64_t n, uint64_t bits, bool *overflow) {
  uint64_t b = 0;
  if (!bytes_mul(n, bits, &b)) *overflow = true;
  return bytes_ceildiv(b, 8);
}

void train_read_cfg(const scenario *s, uint64_t params, train_cfg *t) {
  memset(t, 0, sizeof *t);
  const char *method = scn_str(s, "train.method", "full");
  t->peft = strcmp(method, "full") != 0 && strcmp(method, "freeze") != 0;
  t->trainable = scn_u64(s, "train.trainable_params", params);
  t->added = scn_u64(s, "train.added_params", 0);
  t->largest = scn_u64(s, "train.largest_param", 0);
  t->tdtype = dtype_or(scn_str(s, "train.trainable_dtype", NULL), s->prec.weights);
  t->cdtype = dtype_or(scn_str(s, "train.copy_dtype", NULL), t->tdtype);
  t->copy_params = scn_u64(s, "train.copy_params", 0);
  if (t->copy_params > t->added) t->copy_params = t->added;
  uint64_t sb = bits_bytes(t->trainable, s->opt.state_bits, &t->overflow);
  t->state_bytes = scn_u64(s, "train.state_bytes", sb);
  t->paged_bytes = scn_u64(s, "train.paged_state_bytes", 0);
  t->temp_bytes = scn_u64(s, "train.step_temp_bytes", bits_bytes(t->trainable, s->opt.step_temp_bits, &t->overflow));
  t->saved_elems = scn_u64(s, "train.saved_elems", 0);
  t->mask_elems = scn_u64(s, "train.mask_elems", 0);
  t->weight_saved = scn_u64(s, "train.adapter_saved_elems", 0);
  t->dora_out = scn_u64(s, "train.dora_out_elems", 0);
  t->copy_elems = scn_u64(s, "train.copy_elems", 0);
  t->adapter_bytes = scn_u64(s, "train.adapter_bytes", 0);
  t->gc_every = scn_u64(s, "train.gc_every", 0);
  t->op_col = scn_u64(s, "train.op_col_elems", 0);
  t->op_row = scn_u64(s, "train.op_row_elems", 0);
  t->free_logits = scn_bool(s, "runtime.free_logits", false);
  t->model_upcast = scn_bool(s, "train.model_upcast", false);
  t->keep_outputs = scn_bool(s, "runtime.keep_outputs", false);
  t->pp_outputs = scn_bool(s, "runtime.pp_outputs", true);
  t->kbit_stream = scn_bool(s, "train.kbit_stream", false);
  t->virtual_tokens = scn_u64(s, "train.virtual_tokens", 0);
  t->layer_extra = scn_u64(s, "train.layer_extra_elems", 0);
  t->encode = scn_u64(s, "train.encode_bytes", 0);
  t->act_elems = scn_u64(s, "train.act_elems", 0);
  t->act_ckpt = scn_u64(s, "train.act_ckpt_elems", t->act_elems);
  t->act_block = scn_u64(s, "train.act_block_elems", 0);
  t->act_fwd = scn_u64(s, "train.act_fwd_elems", t->act_elems);
  t->act_scores = scn_u64(s, "train.act_scores_elems", 0);
  t->load = scn_u64(s, "train.load_bytes", 0);
  t->keep_grads = scn_bool(s, "train.keep_grads", false);
  t->pipeline = scn_bool(s, "train.pipeline", false);
  t->aux_on_gpu = scn_bool(s, "train.aux_on_gpu", true);
  bool all = !t->peft && strcmp(method, "freeze") != 0;
  t->save_attn_in = scn_bool(s, "train.save_attn_in", all);
  t->save_o_in = scn_bool(s, "train.save_o_in", all);
  t->save_mlp_in = scn_bool(s, "train.save_mlp_in", all);
  t->save_down_in = scn_bool(s, "train.save_down_in", all);
  t->norm_trained = all;
  /* the pytorch runtime's knobs, or what workloads/train.lua torchtune_modules derived */
  t->norm_upcast = scn_bool(s, "runtime.rmsnorm_upcast", false) || scn_bool(s, "train.rmsnorm_upcast", false);
  t->repeat_kv = scn_bool(s, "runtime.repeat_kv", false) || scn_bool(s, "train.repeat_kv", false);
  t->output_upcast = scn_bool(s, "train.output_upcast", false);
  t->output_held = scn_bool(s, "train.output_held", false);
  t->oib = scn_bool(s, "train.optimizer_in_backward", false);
  t->off_act = scn_bool(s, "train.offload_activations", false);
  t->off_opt = scn_bool(s, "train.offload_optimizer", false) || scn_bool(s, "runtime.offload_optimizer", false);
  t->off_par = scn_bool(s, "train.offload_params", false) || scn_bool(s, "runtime.offload_param", false);
  t->bnb_state = scn_u64(s, "quant.bnb_state_bytes", 0);
  t->compile = scn_bool(s, "train.compile", false) || scn_bool(s, "runtime.compile", false);
  const char *loss = scn_str(s, "train.loss", "standard");
  t->loss = strcmp(loss, "chunked") == 0 ? LOSS_CHUNKED : strcmp(loss, "fused") == 0 ? LOSS_FUSED
          : strcmp(loss, "vocab_parallel") == 0 ? LOSS_VOCAB_PARALLEL
          : strcmp(loss, "titan_chunked") == 0 ? LOSS_TITAN_CHUNKED : LOSS_STANDARD;
  t->loss_chunk = scn_u64(s, "train.loss_chunk", 8192);
  t->attn_dropout = scn_bool(s, "train.attn_dropout", false);
  t->hidden_dropout = scn_bool(s, "train.hidden_dropout", false);
  /* the calibrated share comes from workloads/train.lua (cited there); a scenario built
  ** in C without it keeps its own s->fragmentation */
  t->frag = scn_real(s, "train.fragmentation", s->fragmentation);
  t->small_frac = scn_real(s, "train.small_frac", 0.0);
  t->expandable = scn_bool(s, "train.expandable_segments", false);
  t->encoder_pool = scn_bool(s, "train.encoder_pool", false);
  t->encode_after_step = t->encode && scn_bool(s, "train.encode_after_step", false);
  t->dense_mask = t->pipeline && scn_bool(s, "gen.dense_attn_mask", false);
  const char *fp8 = scn_str(s, "train.fp8", "");
  t->fp8 = strcmp(fp8, "torchao") == 0 ? FP8_TORCHAO : strcmp(fp8, "te") == 0 ? FP8_TE : FP8_NONE;
  t->fp8_linear_elems = scn_u64(s, "train.fp8_linear_elems", 0);
  t->fp8_linears = scn_u64(s, "train.fp8_linears", 0);
  t->fp8_amax_len = scn_u64(s, "train.fp8_amax_len", 1024); /* DelayedScaling default, cited in workloads/train.lua */
  t->fp8_all_gather = scn_bool(s, "train.fp8_all_gather", false);
  t->fsdp1 = scn_bool(s, "train.fsdp1", false);
  t->fsdp_keep = scn_bool(s, "train.fsdp_keep", false);
  t->fsdp_no_shard = scn_bool(s, "train.fsdp_no_shard", false);
  t->dp_shard = scn_u64(s, "train.dp_shard", 0);
  t->raf_mesh = scn_u64(s, "train.raf_mesh", 0);
  t->cp = scn_u64(s, "train.cp", 1);
  if (t->cp == 0) t->cp = 1;
  t->ep = scn_u64(s, "train.ep", 1); /* runtime.expert_model_parallel_size, scripts/runtimes/megatron.lua */
  if (t->ep == 0) t->ep = 1;
  t->cp_alltoall = strcmp(scn_str(s, "train.cp_rotate", "allgather"), "alltoall") == 0;
  t->sp = scn_bool(s, "train.sp", false) && s->tp > 1;
  t->sp_local = scn_bool(s, "train.sp_local", false);
  t->strategy = s->strategy;
  uint64_t stage = scn_u64(s, "runtime.zero_stage", 0);
  if (stage >= 1 && stage <= 3 && (t->strategy == STRAT_NONE || t->strategy == STRAT_DDP))
    t->strategy = stage == 1 ? STRAT_ZERO1 : stage == 2 ? STRAT_ZERO2 : STRAT_ZERO3;
  /* Megatron's distributed optimizer shards the fp32 main parameters and the optimizer
  ** states over the data-parallel ranks and keeps the whole gradient buffer
  ** (megatron/core/optimizer/distrib_optimizer.py): ZeRO-1 */
  if (strcmp(s->runtime, "megatron") == 0 && scn_bool(s, "runtime.use_distributed_optimizer", false) &&
      (t->strategy == STRAT_NONE || t->strategy == STRAT_DDP))
    t->strategy = STRAT_ZERO1;
  t->megatron = strcmp(s->runtime, "megatron") == 0;
}

/* Saved activations of one transformer layer for backward, bytes per token (a bytes
** per activation element). Korthikanti et al.'s 34·h + 5·a·s per token, re-derived for
** what autograd keeps in today's blocks: both norm inputs and their fp32 statistics;
** q, k, v and the attention output (SDPA/flash save it with the fp32 log-sum-exp); the
** MLP intermediates (gated: gate, up, act(gate); plain: the fc1 output). A Linear's
** input (the q/k/v input, the o_proj input under eager, the MLP input, the down input)
** is kept only when its weight is trained or adapted: for a frozen weight autograd saves
** nothing for it (tools/autograd derivatives of mm save self only if mat2 needs grad).
** Transformer Engine's te.Linear under fp8_autocast saves its input as an fp8 copy, 1 B
** per element (module/linear.py: the input quantized with columnwise usage when
** backward_needs_input = weight.requires_grad, row-wise data discarded before saving),
** and the o_proj copy is its own beside the attention's saved output. *split: the bytes
** per token sequence parallelism shards over tp (the norm inputs and statistics, the
** dropout masks; Megatron's Linear inputs too), included in the result. */
static uint64_t layer_bytes_per_token(ectx *c, const train_cfg *t, uint64_t a, uint64_t seq, uint64_t *split) {
  const block_spec *b = &c->m->block;
  const scenario *s = c->s;
  uint64_t tp = s->tp, h = c->m->hidden;
  /* an attention-free model (heads 0: architectures/mamba.lua) has no scores, probabilities or
  ** log-sum-exp; any other description without heads counts one */
  bool attn_free = est_model_attention_free(c->m);
  uint64_t heads = attn_free ? 0 : bytes_ceildiv(c->m->heads ? c->m->heads : 1, tp);
  uint64_t q = bytes_ceildiv(b->q_dim, tp), kv = bytes_ceildiv(b->kv_dim, tp);
  uint64_t ffn = bytes_ceildiv(b->ffn_dim, tp);
  bool eager = s->attention == ATTN_EAGER;
  uint64_t li = t->fp8 == FP8_TE ? 1 : a; /* bytes per saved Linear input element */
  bytes_acc *A = &c->acc;
  /* the norm inputs, their fp32 rstd (and mean) per token, dropout masks: TP replicates them.
  ** runtime.rmsnorm_upcast: an RMSNorm written `self._norm(x.float()).type_as(x) * self.weight`
  ** (torchtitan models/norms.py RMSNorm before 3b39d7ab0, 2025-03-19) keeps the fp32 copy of its
  ** input (x.float(), saved by pow and by the scaling's mul: 4 B an element) and, when its weight
  ** is trained, the normalized output cast back (the weight's mul: a B), not the input itself */
  uint64_t norm = t->norm_upcast && b->rms ? acc_mul(A, h, 4 + (t->norm_trained ? a : 0)) : acc_mul(A, h, a);
  uint64_t rep = acc_add(A, acc_mul(A, 2, norm), (b->rms ? 4 : 8) * 2);
  if (t->hidden_dropout) rep = acc_add(A, rep, acc_mul(A, 2, h)); /* attention and MLP output dropout masks */
  /* the q/k/v and MLP inputs when kept: the all-gathered tensor under PyTorch's sequence
  ** parallelism, the local shard under Megatron's */
  uint64_t lin = acc_mul3(A, t->save_attn_in + t->save_mlp_in, h, li);
  /* q, k, v; runtime.repeat_kv: grouped K/V expanded to every query head before the attention
  ** (torchtitan models/llama/model.py repeat_kv: unsqueeze, expand, reshape, a copy), which saves
  ** the expanded tensors, q-sized, and not the projections' outputs */
  uint64_t elems = acc_add(A, q, acc_mul(A, 2, t->repeat_kv && kv < q ? q : kv));
  uint64_t bytes = 0;
  if (!eager) elems = acc_add(A, elems, q);           /* attention output (SDPA/flash) */
  if (t->save_o_in && (eager || t->fp8 == FP8_TE))    /* the o_proj input: eager's, or TE's fp8 copy */
    bytes = acc_add(A, bytes, acc_mul(A, q, eager && t->fp8 != FP8_TE ? a : li));
  elems = acc_add(A, elems, acc_mul(A, b->gated ? 3 : 1, ffn)); /* gate, up, act(gate) | fc1 */
  if (t->save_down_in) bytes = acc_add(A, bytes, acc_mul(A, ffn, li)); /* the down input */
  if (b->experts) elems = acc_add(A, elems, acc_mul(A, b->experts_per_tok, h)); /* tokens gathered per expert */
  elems = acc_add(A, elems, bytes_ceildiv(t->layer_extra, tp)); /* DiT: q/k norms, cross-attention, adaLN */
  bytes = acc_add(A, bytes, acc_mul(A, elems, a));
  if (eager && s->gc != GC_SELECTIVE)
    /* fp32 softmax output and the probabilities cast back, per head and key; with
    ** attention dropout its 1-byte mask and the dropped fp32 probabilities */
    bytes = acc_add(A, bytes, acc_mul3(A, heads, seq, 4 + (a < 4 ? a : 0) + (t->attn_dropout ? 5 : 0)));
  else
    bytes = acc_add(A, bytes, acc_mul(A, heads, 4)); /* log-sum-exp */
  *split = t->sp ? (t->sp_local ? acc_add(A, rep, lin) : rep) : 0;
  return acc_add(A, bytes, acc_add(A, rep, lin));
}

/* Bytes per token one checkpointed layer keeps under torchtitan's per-op SAC (ac mode
** "selective", selective_ac_option "op": parallelize_llama.py _save_list / _custom_policy at
** 9dec370, github.com/pytorch/torchtitan; distributed/activation_checkpoint.py at b5bcd76):
** - the block input, which the checkpoint wrapper holds to rerun the block (h x a);
** - the outputs of every second aten.mm counted from the first in forward order (peft.lua
**   op_sac: wq, wv, w1, w2 of a Llama block): column-parallel ones (q, v, gate) sharded
**   over tp, row-parallel ones (o, down) a full partial sum on each tp rank;
** - SDPA's outputs (_scaled_dot_product_flash/efficient_attention in _save_list): the
**   attention output (q x a) and the fp32 log-sum-exp per head; eager attention runs
**   matmul/softmax and the flash-attn package its own op, none of which the list saves;
** - with sequence parallelism, the reduce_scatter_tensor outputs of the block's two
**   row-parallel Linears (o, down), each h/tp x a;
** - fp8 (torchao): the amax of each cast (aten.max, a 0-d tensor): nothing per token. The
**   Float8 mm reaches the policy as aten.mm on Float8Tensor arguments (the subclass
**   dispatches after the mode), so it is counted and its high-precision output saved. */
static uint64_t op_saved_bytes(ectx *c, const train_cfg *t, uint64_t a) {
  bytes_acc *A = &c->acc;
  const scenario *s = c->s;
  uint64_t tp = s->tp, h = c->m->hidden;
  uint64_t elems = acc_add(A, t->sp ? bytes_ceildiv(h, tp) : h, acc_add(A, bytes_ceildiv(t->op_col, tp), t->op_row));
  uint64_t bytes = 0;
  if (s->attention == ATTN_SDPA && (c->m->heads || c->m->block.q_dim)) { /* none: attention-free */
    elems = acc_add(A, elems, bytes_ceildiv(c->m->block.q_dim, tp));
    bytes = acc_mul(A, bytes_ceildiv(c->m->heads ? c->m->heads : 1, tp), 4);
  }
  if (t->sp) elems = acc_add(A, elems, acc_mul(A, 2, bytes_ceildiv(h, tp)));
  return acc_add(A, bytes, acc_mul(A, elems, a));
}

static uint64_t shard(uint64_t bytes, uint64_t dp, bool sharded) {
  return sharded && dp > 1 ? bytes_ceildiv(bytes, dp) : bytes;
}

static bool params_sharded(strategy_kind st) { return st == STRAT_FSDP || st == STRAT_ZERO3; }
static bool grads_sharded(strategy_kind st) { return params_sharded(st) || st == STRAT_ZERO2; }
static bool states_sharded(strategy_kind st) { return grads_sharded(st) || st == STRAT_ZERO1; }

/* Block swap (musubi-tuner / sd-scripts --blocks_to_swap N; train_gen.lua checks it and names
** the stack): the `.weight` tensors of N of the stack's blocks live in host memory. The
** offloader swaps weights in place: swap_weight_devices_cuda copies the block leaving the GPU
** to the host and the arriving block's weights into the same CUDA storage
** (module.weight.data = cuda_data_view), so num_blocks - N blocks' weights stay on the GPU
** throughout, and only `.weight` moves (weighs_to_device): biases and scales stay
** (modules/custom_offloading_utils.py, kohya-ss/musubi-tuner 36f3a98). Returns the count of
** the tensor's blocks on the host. */
static uint64_t swapped_blocks(const scenario *s, const inv_tensor *x) {
  uint64_t nb = scn_u64(s, "train.block_swap", 0);
  const char *stack = scn_str(s, "train.block_swap_stack", "");
  size_t ls = strlen(stack), ln = strlen(x->name);
  if (nb == 0 || ls == 0 || strncmp(x->name, stack, ls) != 0 || ln < 7 || strcmp(x->name + ln - 7, ".weight") != 0)
    return 0;
  return nb < x->count ? nb : x->count;
}

/* A pipeline's weights by component: the denoiser (what is trained and sharded) and the
** frozen text encoders and VAE; each with PyTorch's per-tensor block rounding. */
static void pipeline_weights(ectx *c, train_parts *p, uint64_t *den) {
  uint64_t d = 0, dr = 0, a = 0, ar = 0, buf = 0;
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *x = &c->m->inv.t[i];
    uint64_t n = 0;
    if (!inv_tensor_elements(x, &n)) c->acc.overflow = true;
    uint64_t one = x->stored_bytes ? x->stored_bytes : est_elems_bytes(c, n, x->dtype);
    bool is_den = strcmp(x->component, "denoiser") == 0;
    uint64_t on_gpu = x->count - (is_den ? swapped_blocks(c->s, x) : 0);
    uint64_t all = acc_mul(&c->acc, one, on_gpu), rounded = acc_mul(&c->acc, estimate_round_alloc(one), on_gpu);
    if (is_den) d = acc_add(&c->acc, d, all), dr = acc_add(&c->acc, dr, rounded);
    else a = acc_add(&c->acc, a, all), ar = acc_add(&c->acc, ar, rounded);
    if (is_den && x->buffer) buf = acc_add(&c->acc, buf, all);
  }
  *den = d;
  p->den_buffers = buf;
  p->aux = a;
  p->den_rounding = dr - d;
  p->aux_rounding = ar - a;
}

/* Bytes of the tensors stored once (not per layer) and the largest of them; a pipeline
** counts its denoiser only. */
static void root_weights(ectx *c, uint64_t *root, uint64_t *largest) {
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *x = &c->m->inv.t[i];
    uint64_t n = 0;
    if (x->count != 1 || x->buffer || (x->component[0] && strcmp(x->component, "denoiser") != 0)) continue;
    if (!inv_tensor_elements(x, &n)) c->acc.overflow = true;
    uint64_t one = x->stored_bytes ? x->stored_bytes : est_elems_bytes(c, n, x->dtype);
    *root = acc_add(&c->acc, *root, one);
    if (one > *largest) *largest = one;
  }
}

/* ZeRO-3 keeps a gathered parameter while the module trace (complete from the second step
** on) uses it again within stage3_max_reuse_distance elements of parameters (default 1e9,
** deepspeed/runtime/zero/config.py): PartitionedParameterCoordinator.__params_to_release
** walks the trace from the current module, summing each module's ds_numel, and keeps every
** parameter it meets before the sum reaches the distance (deepspeed/runtime/zero/
** partitioned_param_coordinator.py, v0.8.0). Backward fetches each module again, frozen or
** not, in reverse order, so at the turn from forward to backward the head is reused at once
** (kept whenever the distance is above 0) and the i-th layer from the end of the last stack
** (the decoder of an encoder-decoder) after the i layers behind it, the head's forward and the
** head's backward fetch (the trace records both), and the same i layers' backward: it stays
** gathered while 2 x head + 2 i x layer is under the distance. Returns the bytes gathered at
** the turn. */
static uint64_t zero3_reuse_kept(ectx *c) {
  bytes_acc *A = &c->acc;
  uint64_t R = scn_u64(c->s, "runtime.stage3_max_reuse_distance", 1000000000);
  uint64_t L = c->m->layers ? c->m->layers : 1, tp = c->s->tp ? c->s->tp : 1;
  uint64_t head_n = 0, head_b = 0, layer_n = 0, layer_b = 0;
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *x = &c->m->inv.t[i];
    uint64_t n = 0;
    if (x->buffer || (x->component[0] && strcmp(x->component, "denoiser") != 0)) continue;
    if (!inv_tensor_elements(x, &n)) A->overflow = true;
    uint64_t one = x->stored_bytes ? x->stored_bytes : est_elems_bytes(c, n, x->dtype);
    if (x->count == 1) {
      if (one > head_b) head_b = one, head_n = n;
    } else if (c->m->family != FAM_ENCDEC || strncmp(x->name, "decoder.", 8) == 0) {
      layer_n = acc_add(A, layer_n, acc_mul(A, n, x->count));
      layer_b = acc_add(A, layer_b, acc_mul(A, one, x->count));
    }
  }
  head_n = bytes_ceildiv(head_n, tp), head_b = bytes_ceildiv(head_b, tp);
  layer_n = bytes_ceildiv(layer_n, acc_mul(A, L, tp)), layer_b = bytes_ceildiv(layer_b, acc_mul(A, L, tp));
  if (R == 0) return 0;
  /* the k >= 0 with 2 head + 2 k layer < R: ceil((R - 2 head) / (2 layer)) of them, at most L */
  uint64_t h2 = acc_mul(A, 2, head_n), k = 0;
  if (h2 < R) k = layer_n ? bytes_ceildiv(R - h2, acc_mul(A, 2, layer_n)) : L;
  if (k > L) k = L;
  return acc_add(A, head_b, acc_mul(A, k, layer_b));
}

/* Transformer layers of the model (encoder-decoder: both stacks), at least 1. */
static uint64_t model_layers(ectx *c) {
  uint64_t layers = c->m->layers ? c->m->layers : 1;
  return c->m->family == FAM_ENCDEC ? acc_mul(&c->acc, layers, 2) : layers;
}

/* Model-parallel ranks one tensor is split over (tp x pp). */
static uint64_t model_parallel(ectx *c) { return acc_mul(&c->acc, c->s->tp, c->s->pp); }

/* Ranks over which FSDP and ZeRO shard the model: dp x cp (torchtitan's FSDP mesh
** "dp_shard_cp"; Megatron's distributed optimizer shards over the data-parallel-with-context-
** parallel group). FSDP's HYBRID_SHARD and _HYBRID_SHARD_ZERO2 shard within groups of dp_shard
** data-parallel ranks and replicate over dp / dp_shard groups (torch/distributed/fsdp/api.py
** ShardingStrategy; FSDP2: a 2-D mesh (replicate, shard), fully_shard's HSDPMeshInfo with
** shard_mesh_dim 1; torchtitan's dp_shard_cp = dp_shard x cp): params, gradients and optimizer
** states are split dp_shard x cp ways, the gradient shard all-reduced in place across the
** replicas. A fit probe below dp_shard shards over its dp. NO_SHARD splits nothing. */
static uint64_t shard_ranks(ectx *c, const train_cfg *t) {
  uint64_t dp = c->s->dp;
  if (t->strategy == STRAT_FSDP && t->fsdp_no_shard) return 1;
  if (t->strategy == STRAT_FSDP && t->dp_shard && t->dp_shard < dp) dp = t->dp_shard;
  return acc_mul(&c->acc, dp, t->cp);
}

/* FSDP's MixedPrecision policy with a 16-bit param_dtype under an fp32 model and autocast
** activations: what torchtitan sets (MixedPrecisionPolicy(param_dtype=bf16),
** torchtitan/distributed/utils.py, mixed_precision_param "bfloat16" by default) and accelerate
** for mixed_precision "bf16" (FullyShardedDataParallelPlugin: MixedPrecision(param_dtype=
** bfloat16)). The all-gather yields 16-bit parameters, so the gathered unit is 16-bit and
** autocast finds no fp32 weight to copy. Decided here, on the rank count each fit probe sets;
** scripts/scenario.lua fsdp_mixed_note says it for the scenario's own. */
static bool fsdp_mixed(ectx *c, const train_cfg *t) {
  const scenario *s = c->s;
  return t->strategy == STRAT_FSDP && !t->off_par && shard_ranks(c, t) > 1 && est_bits(s->prec.weights) == 32 &&
         est_bits(s->prec.activations) < 32;
}

/* FSDP2 under pipeline parallelism: the stage keeps its parameters unsharded for the whole
** step and accumulates unsharded gradients (train_weights, train_model_states). */
static bool fsdp_pp(ectx *c, const train_cfg *t) {
  return t->strategy == STRAT_FSDP && c->s->pp > 1 && shard_ranks(c, t) > 1 && !t->off_par && !t->pipeline;
}

/* Repeated layers of pipeline stage st (0 first, pp - 1 last) of L, as the runtime splits
** them (vLLM's get_pp_indices, src/rt_vllm.c, is not reused: neither framework deals layers
** that way).
** - pytorch (torchtitan): the embeddings and the norm + head each count as one layer
**   (input_weight = output_weight = 1) and the L + 2 "effective layers" are dealt evenly,
**   the remainder one apiece to the first stages; the first and last stages then build one
**   transformer layer fewer (torchtitan/distributed/pipeline_parallel.py
**   generate_llm_fqn_per_model_part and the generate_split_points before it, which takes
**   the same weights). The late-2024 generate_split_points (9dec370: base = L / pp on the
**   first stage, one extra apiece to the middle stages from the second on, the rest on the
**   last) gives the same split for L = 126 at pp 8 (15, 16 x 6, 15) but not in general;
**   pipeline_parallel_split_points is not modelled.
** - megatron: L / pp each (Megatron asserts it divides; megatron/core/transformer/
**   transformer_block.py get_num_layers_to_build), unless --decoder-first-pipeline-num-layers
**   / --decoder-last-pipeline-num-layers fix the end stages and the rest divide evenly over
**   the others, or --account-for-embedding-in-pipeline-split / --account-for-loss-in-
**   pipeline-split count the embedding / the loss as a layer of the first / last stage
**   (megatron/core/transformer/transformer_config.py, TransformerConfig fields
**   num_layers_in_first_pipeline_stage / num_layers_in_last_pipeline_stage and
**   account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split; runtime
**   knobs named after the flags).
** - others (DeepSpeed's PipelineModule balances parameters, partition_method 'parameters';
**   not modelled): ceil(L / pp) on every stage, as before the per-stage states. */
static uint64_t pp_stage_layers(ectx *c, uint64_t st) {
  const scenario *s = c->s;
  uint64_t L = model_layers(c), pp = s->pp ? s->pp : 1;
  bool first = st == 0, last = st + 1 == pp;
  if (pp < 2) return L;
  if (strcmp(s->runtime, "pytorch") == 0) {
    uint64_t eff = L + 2, per = eff / pp, n = per + (st < eff % pp ? 1 : 0);
    if ((first || last) && n > 0) n--;
    return n;
  }
  if (strcmp(s->runtime, "megatron") == 0) {
    uint64_t f = scn_u64(s, "runtime.decoder_first_pipeline_num_layers", 0);
    uint64_t l = scn_u64(s, "runtime.decoder_last_pipeline_num_layers", 0);
    if (f || l) {
      if (first && f) return f;
      if (last && l) return l;
      uint64_t rest = L > f + l ? L - f - l : 0, others = pp - (f ? 1 : 0) - (l ? 1 : 0);
      return others ? rest / others : 0;
    }
    bool emb = scn_bool(s, "runtime.account_for_embedding_in_pipeline_split", false);
    bool loss = scn_bool(s, "runtime.account_for_loss_in_pipeline_split", false);
    uint64_t per = (L + emb + loss) / pp;
    if (first && emb && per) per--;
    if (last && loss && per) per--;
    return per;
  }
  return bytes_ceildiv(L, pp);
}

/* FSDP1's unsharded flat parameter of one repeated unit (a transformer block): one layer's
** weights on this tensor-parallel rank (estimate_stage_weights of one layer, in the dtypes the
** weights are held in; a generation pipeline: its weights less the root's over the layers),
** in the gathered dtype (16-bit under a MixedPrecision param_dtype). Each unit is its own
** allocation (FlatParamHandle _alloc_padded_unsharded_flat_param, torch/distributed/fsdp/
** _flat_param.py). */
static uint64_t fsdp_layer_unit(ectx *c, const train_cfg *t, uint64_t w, uint64_t root, uint64_t layers) {
  uint64_t lay = 0, elems = 0, rt = bytes_ceildiv(root, c->s->tp);
  if (t->pipeline)
    lay = bytes_ceildiv(w > rt ? w - rt : 0, layers ? layers : 1);
  else if (!estimate_stage_weights(c->m, c->s->tp, 1, model_layers(c), false, false, &lay, &elems))
    c->acc.overflow = true;
  if (fsdp_mixed(c, t)) lay = bytes_ceildiv(acc_mul(&c->acc, lay, est_bits(c->s->prec.activations) / 8), 4);
  return lay;
}

/* FSDP parameter bytes held from each unit's forward until its backward, beyond what comm
** counts (p->gathered: the gathered unit, the prefetched next and the root, which FSDP keeps
** unsharded from forward to backward in every strategy); lay: one layer's gathered unit, root:
** the root's gathered bytes on this rank.
** - SHARD_GRAD_OP and _HYBRID_SHARD_ZERO2 do not reshard after forward: FSDP1's _post_forward
**   frees the unsharded flat parameter only for RESHARD_AFTER_FORWARD_HANDLE_STRATEGIES
**   (FULL_SHARD, HYBRID_SHARD), and _post_backward_reshard frees it after the unit's backward
**   (torch/distributed/fsdp/_runtime_utils.py _post_forward, _should_free_in_backward;
**   ShardingStrategy docs in api.py: "does not reshard them after the forward, and only
**   reshards them after the backward computation"); FSDP2's fully_shard(reshard_after_forward=
**   False) likewise "keeps the unsharded parameters in memory after forward" (_fully_shard.py).
**   At the loss every unit of the stage is gathered in the gathered dtype: its layers' units
**   and the root, the whole stage's parameters; returns that less p->gathered.
** - fully_shard(reshard_after_forward=N) reshards each unit to an N-rank mesh after its
**   forward: FSDPParam.to_sharded_post_forward clones the rank's 1/N slice of the all-gather
**   output ("clone to be able to free all-gather output", _fully_shard/_fsdp_param.py) in the
**   all-gather's dtype, and backward all-gathers over those N ranks. At the loss each layer
**   holds its slice (the root keeps reshard_after_forward False, _fully_shard.py docs).
** Backward frees them unit by unit as the units' gradients land (train_phases, fsdp_bwd_start).
** With pipelining (fsdp_pp) the whole stage stays gathered already (p->pp_params). */
static uint64_t fsdp_fwd_kept(ectx *c, const train_cfg *t, const train_parts *p, uint64_t lay,
                              uint64_t layers, uint64_t root) {
  bytes_acc *A = &c->acc;
  if (shard_ranks(c, t) <= 1) return 0;
  if (t->fsdp_keep) {
    uint64_t whole = acc_add(A, acc_mul(A, lay, layers), root);
    return whole > p->gathered ? whole - p->gathered : 0;
  }
  return t->raf_mesh > 1 ? acc_mul(A, bytes_ceildiv(lay, t->raf_mesh), layers) : 0;
}

/* Frozen base and adapters per rank; the gathered unit under parameter sharding. With
** pp > 1, stage st's own (st < 0: the heavier end stage's with an even share of the layers,
** estimate_device_weights). */
static void train_weights(ectx *c, const train_cfg *t, train_parts *p, int64_t st) {
  const scenario *s = c->s;
  uint64_t mp = model_parallel(c), dp = shard_ranks(c, t), w = 0;
  uint64_t layers = bytes_ceildiv(model_layers(c), s->pp);
  if (t->pipeline) {
    pipeline_weights(c, p, &w);
    if (t->encoder_pool) p->pool = acc_add(&c->acc, p->aux, p->aux_rounding);
    if (!t->aux_on_gpu) p->aux = p->aux_rounding = 0;
  } else if (st >= 0 && s->pp > 1) {
    layers = pp_stage_layers(c, (uint64_t)st);
    if (!estimate_stage_weights(c->m, s->tp, layers, model_layers(c), st == 0, (uint64_t)st + 1 == s->pp, &w,
                                &p->pp_elems))
      c->acc.overflow = true;
    p->pp_layers = layers, p->pp_own = true;
  } else if (!estimate_device_weights(c->m, s->tp, s->pp, &w)) {
    c->acc.overflow = true;
  }
  bool ps = params_sharded(t->strategy);
  p->fwd_kept = 0;
  p->weights_full = w;
  /* a persistent buffer is no parameter: FSDP flattens and shards parameters only (buffers stay
  ** whole on every rank, torch/distributed/fsdp), ZeRO-3 partitions parameters only and
  ** offload_param moves those, so the buffer stays whole and on the GPU */
  uint64_t buf = t->pipeline ? p->den_buffers : 0;
  w -= buf;
  /* torchtune's rotary embedding (torchtune/modules/position_embeddings.py RotaryPositionalEmbeddings,
  ** models/llama3_1/_position_embeddings.py Llama3ScaledRoPE; one instance shared by every layer of
  ** a builder) registers a non-persistent buffer `cache` of [max_seq_len, dim // 2, 2] built from
  ** .float() angles: max_seq_len x the rotary width x 4 B on the GPU, whole on every rank (a
  ** buffer). Llama 3.1 / 3.2 builders: 131,072 x 128 x 4 B = 64 MiB. */
  p->rope = !t->pipeline && strcmp(s->runtime, "torchtune") == 0 ? acc_mul(&c->acc, est_rope_elems(c), 4) : 0;
  p->weights_full = acc_add(&c->acc, p->weights_full, p->rope);
  /* bitsandbytes' 4-bit statistics (absmax, nested absmax, code books; scripts/quant/_bnb.lua)
  ** are QuantState attributes, not parameters: FSDP and ZeRO-3 shard and CPU-offload parameters
  ** only, so under either every rank holds the whole model's statistics on the GPU beside its
  ** shard (AnswerDotAI/fsdp_qlora PR #4; bitsandbytes nn/modules.py Params4bit.to). Hold-out:
  ** huggingface/peft docs/source/accelerate/fsdp.md, Llama-2-70B QLoRA (nf4, double quant)
  ** on 2 GPUs, 19.6 GB with CPU offload and 35.6 GB without (tests/test_holdout25_train.c).
  ** Every runtime whose `bnb-nf4` is bitsandbytes' Linear4bit (transformers, DeepSpeed,
  ** diffusers, and plain PyTorch FSDP over bitsandbytes layers as fsdp_qlora's own train.py runs
  ** it), all but torchtune: torchtune's QLoRA base is torchao's NF4Tensor, whose scalers are
  ** inner tensors of the parameter that FSDP2 shards with it (torchao/dtypes/nf4tensor.py
  ** fsdp_pre_all_gather), and `bnb-nf4` stands for its storage there. */
  bool bnb_rt = strcmp(s->runtime, "torchtune") != 0;
  uint64_t qs = (ps || t->off_par) && bnb_rt ? bytes_ceildiv(t->bnb_state, mp) : 0;
  if (qs > w) qs = w;
  if (qs && p->pp_own && !bytes_muldiv(qs, p->pp_layers, model_layers(c), &qs)) c->acc.overflow = true;
  p->qstate = qs;
  w -= qs;
  p->weights = acc_add(
      &c->acc, acc_add(&c->acc, acc_add(&c->acc, t->off_par ? 0 : shard(w, dp, ps), qs), buf), p->rope);
  uint64_t added = bytes_ceildiv(t->added, mp);
  if (p->pp_own && !bytes_muldiv(t->added, p->pp_layers, acc_mul(&c->acc, model_layers(c), s->tp), &added))
    c->acc.overflow = true;
  /* PEFT's modules_to_save copies stay in the base dtype beside upcast adapters
  ** (scripts/workloads/train.lua precision_apply): their share of `added` in cdtype */
  uint64_t kcopy = t->copy_params ? bytes_ceildiv(acc_mul(&c->acc, t->copy_params, added), t->added) : 0;
  p->adapters = shard(acc_add(&c->acc, est_elems_bytes(c, added - kcopy, t->tdtype), est_elems_bytes(c, kcopy, t->cdtype)),
                      dp, ps && !t->off_par);
  if ((ps || t->off_par) && (dp > 1 || t->off_par)) {
    /* FSDP / ZeRO-3 all-gather one unit (a transformer block) and prefetch the next; w is
    ** this pipeline stage's, so its layers are the stage's */
    if (layers == 0) layers = 1;
    uint64_t unit = bytes_ceildiv(w, layers), root = 0, big = 0;
    root_weights(c, &root, &big);
    vf_dtype gd = s->prec.weights; /* the gathered parameters' dtype */
    if (fsdp_mixed(c, t)) {
      gd = s->prec.activations;
      uint64_t a = est_bits(gd) / 8;
      unit = bytes_ceildiv(acc_mul(&c->acc, unit, a), 4), root = bytes_ceildiv(acc_mul(&c->acc, root, a), 4);
    }
    uint64_t lin = 0, hp = 0; /* fp8-gathered Linears' elements of a unit, their bytes in gd */
    if (t->fp8_all_gather && t->strategy == STRAT_FSDP) {
      /* torchao's float8 all-gather: each converted Linear's shard is cast to fp8 before
      ** the all-gather (WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather,
      ** torchao/float8/fsdp_utils.py), so the unit holds 1 byte per element of them */
      lin = bytes_ceildiv(t->fp8_linear_elems, acc_mul(&c->acc, s->tp, model_layers(c)));
      hp = est_elems_bytes(c, lin, gd);
      unit = unit > hp ? unit - hp + lin : lin;
    }
    p->gathered = acc_mul(&c->acc, unit, 2);
    if (t->strategy == STRAT_FSDP) p->unshard_unit = fsdp_layer_unit(c, t, w, root, layers);
    if (fsdp_pp(c, t))
      /* the whole stage gathered, in the gathered dtype (1 B for fp8-gathered Linears): with
      ** pipelining torchtitan does not reshard after forward (parallelize_llama.py apply_fsdp
      ** at 9dec370: reshard_after_forward = False if pp_enabled, "to avoid per-microbatch
      ** all-gathers"; the root module too), and torch/distributed/pipelining/stage.py
      ** backward_maybe_with_nosync calls set_reshard_after_backward(False) for every
      ** micro-batch's backward but the last, after which it runs FSDP's post-backward by hand */
      p->pp_params = acc_mul(&c->acc, unit, layers);
    /* the root unit (tensors not repeated per layer: embeddings, head, final norm): FSDP
    ** keeps the root unsharded from forward to backward; ZeRO-3 gathers its tensors one
    ** module at a time, the head (or tied embedding) at the loss */
    p->gathered = acc_add(&c->acc, p->gathered, t->strategy == STRAT_FSDP ? bytes_ceildiv(root, s->tp) : bytes_ceildiv(big, s->tp));
    if (t->strategy == STRAT_FSDP && !fsdp_pp(c, t)) {
      /* one layer's gathered unit, its fp8-gathered Linears at 1 B per element */
      uint64_t lay = p->unshard_unit > hp ? p->unshard_unit - hp + lin : lin;
      p->fwd_kept = fsdp_fwd_kept(c, t, p, lay, layers, bytes_ceildiv(root, s->tp));
    }
    if (t->strategy == STRAT_ZERO3 && !t->pipeline) {
      /* the layers ZeRO-3's reuse distance keeps gathered from forward into backward */
      uint64_t kept = zero3_reuse_kept(c);
      if (kept > p->gathered) p->gathered = kept;
    }
    if (t->off_par && t->strategy != STRAT_FSDP)
      /* ZeRO-3 with offload_param: the partition lives in host memory and the single-tensor
      ** all-gather copies it to the GPU beside the gathered buffer (ds_tensor.to(device) in
      ** Init.all_gather_coalesced, deepspeed/runtime/zero/partition_parameters.py v0.8.0):
      ** the largest tensor's 1/dp partition is staged once more */
      p->gathered = acc_add(&c->acc, p->gathered, bytes_ceildiv(bytes_ceildiv(big, s->tp), dp));
  }
}

/* Transformer Engine's DelayedScaling state per te.Linear: a scale and an amax history
** of amax_history_len rows for its 3 forward quantizers (input, weight, output) and its 2
** backward ones (grad_output, grad_input): DelayedScalingRecipeState allocates
** torch.ones(n) and torch.zeros(len, n) in fp32 (transformer_engine/pytorch/
** quantization.py; num_gemms x 3 forward, x 2 backward in module/base.py), each a tensor
** of the caching allocator (512-byte blocks). This rank's modules: the converted Linears
** of its pipeline stage (tp splits each Linear, every rank keeps the module's state). */
static uint64_t te_fp8_meta(ectx *c, const train_cfg *t, const train_parts *p) {
  if (t->fp8 != FP8_TE) return 0;
  bytes_acc *A = &c->acc;
  uint64_t len = t->fp8_amax_len, per = 0;
  for (uint64_t n = 3; n >= 2; n--) /* forward, backward */
    per = acc_add(A, per, acc_add(A, estimate_round_alloc(n * 4), estimate_round_alloc(acc_mul3(A, len, n, 4))));
  uint64_t lin = bytes_ceildiv(t->fp8_linears, c->s->pp);
  if (p->pp_own && !bytes_muldiv(t->fp8_linears, p->pp_layers, model_layers(c), &lin)) A->overflow = true;
  return acc_mul(A, per, lin);
}

/* Stage st's share of a whole-model quantity of the trainable parameters (their count,
** optimizer bytes): ceil(whole / (tp x pp)) for the average share (st < 0, pp = 1); with
** full training the stage's parameter elements on this rank over the model's, so the first
** stage's states carry the embedding, the last stage's the final norm, the head or a tied
** head's copy of the embedding (estimate_stage_weights); with adapters or frozen parts, the
** stage's share of the layers, where the trainable parameters live. */
static uint64_t stage_share(ectx *c, const train_cfg *t, const train_parts *p, uint64_t whole) {
  uint64_t out = 0;
  if (!p->pp_own) return bytes_ceildiv(whole, model_parallel(c));
  uint64_t all = c->e->params;
  bool ok = !t->peft && all && t->trainable >= all
              ? bytes_muldiv(whole, p->pp_elems, all, &out)
              : bytes_muldiv(whole, p->pp_layers, acc_mul(&c->acc, model_layers(c), c->s->tp), &out);
  if (!ok) c->acc.overflow = true;
  return out;
}

/* The routed experts' parameter elements and bytes on one tp rank of this rank's stage (all
** stages alike without pp_own): Megatron's expert parallelism splits them over ep ranks. */
static void expert_share(ectx *c, const train_parts *p, uint64_t *elems, uint64_t *bytes) {
  bytes_acc *A = &c->acc;
  uint64_t tp = c->s->tp, n = 0, b = 0;
  for (size_t i = 0; i < c->m->inv.n; i++) {
    const inv_tensor *x = &c->m->inv.t[i];
    uint64_t tb, one;
    if (x->role != ROLE_EXPERT) continue;
    if (!inv_tensor_bytes(x, &tb) || !inv_tensor_elements(x, &one)) {
      A->overflow = true;
      continue;
    }
    n = acc_add(A, n, bytes_ceildiv(acc_mul(A, one, x->count), tp));
    b = acc_add(A, b, bytes_ceildiv(tb, tp));
  }
  uint64_t L = model_layers(c), layers = p->pp_own ? p->pp_layers : bytes_ceildiv(L, c->s->pp);
  if (!bytes_muldiv(n, layers, L, elems) || !bytes_muldiv(b, layers, L, bytes)) A->overflow = true;
}

/* A per-rank optimizer quantity `whole` of T trainable elements of which xe are routed-expert
** ones: the dense part sharded over the dp ranks, the experts' 1 / ep over the expert-data-
** parallel ranks, dp / ep (Megatron's distributed optimizer builds one per buffer group:
** megatron/core/optimizer/__init__.py get_megatron_optimizer, the expert-parallel
** parameters with the expert-data-parallel group). */
static uint64_t ep_shard(ectx *c, uint64_t whole, uint64_t T, uint64_t xe, uint64_t ep, uint64_t dp,
                         bool sharded) {
  uint64_t x = 0;
  if (!T || !bytes_muldiv(whole, xe, T, &x)) x = 0;
  uint64_t edp = dp / ep ? dp / ep : 1;
  return acc_add(&c->acc, shard(whole - x, dp, sharded), shard(bytes_ceildiv(x, ep), edp, sharded));
}

/* Weights, gradients, master copy, optimizer states and their buffers on one rank: with
** pp > 1 and stage >= 0, pipeline stage `stage`'s own (pp_stages compares them per stage),
** else the average share of the trainable parameters beside the heavier end stage's weights. */
static void train_model_states(ectx *c, const train_cfg *t, train_parts *p, int64_t stage) {
  const scenario *s = c->s;
  uint64_t dp = shard_ranks(c, t);
  strategy_kind st = t->strategy;
  p->pp_layers = p->pp_elems = 0, p->pp_own = false;
  train_weights(c, t, p, stage);
  uint64_t T = stage_share(c, t, p, t->trainable);
  /* Megatron's expert parallelism (runtime.expert_model_parallel_size): each rank builds
  ** num_experts / ep local experts (megatron/core/transformer/moe/experts.py), so their
  ** weights and fp32 main-grad buffer are 1 / ep of the routed experts'; the master copy
  ** and Adam states shard over the expert-data-parallel ranks (ep_shard). */
  uint64_t ep = t->megatron && !t->peft && t->ep > 1 ? t->ep : 1, xe = 0;
  p->ep_whole = 0;
  if (ep > 1) {
    p->ep_whole = p->weights;
    uint64_t xb = 0;
    expert_share(c, p, &xe, &xb);
    if (xe > T) xe = T;
    uint64_t drop = xb - bytes_ceildiv(xb, ep);
    p->weights = p->weights > drop ? p->weights - drop : 0;
    p->weights_full = p->weights_full > drop ? p->weights_full - drop : 0;
  }
  uint64_t Tall = T;
  if (ep > 1) T = T - xe + bytes_ceildiv(xe, ep); /* this rank's trainable elements */
  p->fp8_meta = te_fp8_meta(c, t, p);
  /* the modules_to_save copies' gradients in their own (base) dtype, as their tensors */
  uint64_t Tk = t->copy_params && t->trainable ? bytes_ceildiv(acc_mul(&c->acc, t->copy_params, T), t->trainable) : 0;
  if (Tk > T) Tk = T;
  uint64_t grads = acc_add(&c->acc, est_elems_bytes(c, T - Tk, s->prec.grads), est_elems_bytes(c, Tk, t->cdtype));
  if (t->oib) /* optimizer_in_backward: each gradient is stepped and freed as it lands */
    grads = est_elems_bytes(c, t->largest ? t->largest : T, s->prec.grads);
  p->grads = shard(grads, dp, grads_sharded(st) && !t->oib);
  if (fsdp_pp(c, t) && !t->oib)
    /* the same backward_maybe_with_nosync turns gradient sync off (set_requires_gradient_sync
    ** (False)) until the last micro-batch, so FSDP2 keeps each unsharded gradient and
    ** accumulates into it, in the reduce dtype when that differs from param_dtype
    ** (FSDPParam.to_accumulated_grad_if_needed, torch/distributed/fsdp/_fully_shard/
    ** _fsdp_param.py: unsharded_grad.to(self.reduce_dtype); torchtitan reduces in fp32) */
    p->pp_grads = grads;
  uint64_t master = s->prec.master ? est_elems_bytes(c, Tall, s->prec.master_dtype) : 0;
  bool os = states_sharded(st);
  p->master = t->off_opt ? 0 : ep_shard(c, master, Tall, xe, ep, dp, os);
  p->states = t->off_opt ? 0 : ep_shard(c, stage_share(c, t, p, t->state_bytes), Tall, xe, ep, dp, os);
  p->paged = t->off_opt ? 0 : ep_shard(c, stage_share(c, t, p, t->paged_bytes), Tall, xe, ep, dp, os);
  p->step_temp = t->off_opt ? 0 : ep_shard(c, stage_share(c, t, p, t->temp_bytes), Tall, xe, ep, dp, os);
  if (strcmp(s->runtime, "deepspeed") == 0 && st >= STRAT_ZERO1) {
    /* DeepSpeed's contiguous gradient bucket: reduce_bucket_size elements (default 5e8,
    ** deepspeed/runtime/zero/config.py) in the gradient dtype; ZeRO-3 allocates it at init
    ** (stage3.py __ipg_bucket_flat_buffer), ZeRO-1/2 at each backward, twice with
    ** overlap_comm (stage_1_and_2.py ipg_buffer) */
    uint64_t elems = scn_u64(s, "runtime.reduce_bucket_size", 500000000);
    uint64_t bucket = est_elems_bytes(c, elems, s->prec.grads);
    if (st != STRAT_ZERO3 && !scn_bool(s, "runtime.contiguous_gradients", true)) {
      /* contiguous_gradients false (ZeRO-1/2): backward allocates no ipg_buffer; each
      ** parameter's .grad joins the bucket until reduce_bucket_size elements, and
      ** reduce_ipg_grads -> buffered_reduce_fallback -> allreduce_and_copy flattens the
      ** bucket (allreduce_bucket: self.flatten(bucket)) and copies it back. With
      ** overlap_comm the other partitions' grads of a reduced bucket are cleared only at the
      ** next reduction (previous_reduced_grads), so a full bucket waits beside the next:
      ** at most two buckets' worth, or the trainable set and its flat copy when it is the
      ** smaller (stage_1_and_2.py reduce_ipg_grads, allreduce_and_copy, DeepSpeed 8ac42ed,
      ** 2024-08). Backward only: nothing is held in forward, the encode or the step. */
      uint64_t n = t->trainable < elems ? t->trainable : elems;
      p->comm_bwd = est_elems_bytes(c, acc_mul(&c->acc, n, 2), s->prec.grads);
      bucket = 0;
    } else if (st != STRAT_ZERO3 && scn_bool(s, "runtime.overlap_comm", false))
      bucket = acc_mul(&c->acc, bucket, 2);
    p->ds_bucket = bucket;
    p->comm = acc_add(&c->acc, p->gathered, bucket);
  } else if (st == STRAT_DDP && dp > 1 && !t->megatron && !scn_bool(s, "runtime.gradient_as_bucket_view", false))
    /* DDP's reducer keeps flat bucket copies of every gradient (bucket_cap_mb 25 per
    ** bucket) unless gradient_as_bucket_view=True (torch DistributedDataParallel docs) */
    p->comm = grads;
  else
    p->comm = p->pp_params ? p->pp_params : p->gathered;
}

/* What stays on the GPU from forward to backward under a checkpointing policy: every
** layer (none, selective), layer inputs plus the recomputed layer (full), each layer's
** per-op saved set plus the recomputed layer (op: `input` is then that set, op_saved_bytes),
** or a mix when every k-th layer is checkpointed. Offloaded activations keep the working
** layer and two layer inputs in flight (torchtune OffloadActivations streams). */
static uint64_t kept_activations(ectx *c, const train_cfg *t, uint64_t per_layer, uint64_t input, uint64_t layers,
                                 uint64_t *work) {
  *work = 0; /* of the result, what is not kept per micro-batch: the layer being recomputed */
  if (t->off_act) return *work = acc_add(&c->acc, per_layer, acc_mul(&c->acc, input, 2));
  if (c->s->gc == GC_OP) return acc_add(&c->acc, acc_mul(&c->acc, input, layers), *work = per_layer);
  if (c->s->gc != GC_FULL) return acc_mul(&c->acc, per_layer, layers);
  uint64_t ckpt = t->gc_every > 1 ? layers / t->gc_every : layers;
  uint64_t kept = acc_add(&c->acc, acc_mul(&c->acc, input, ckpt), acc_mul(&c->acc, per_layer, layers - ckpt));
  return acc_add(&c->acc, kept, *work = per_layer); /* the layer being recomputed */
}

/* Logits and loss, bytes per (token x vocabulary) element: the head output (a), then
** the fp32 upcast, log-softmax output kept for backward and its gradient at the loss
** backward (+12), when the caller keeps the logits through backward (Hugging Face's
** model returns them in outputs.logits, alive while loss.backward() runs). A loop that
** drops them first (runtime.free_logits: torchtitan's train step, `del pred` before
** loss.backward(), "need to free to before bwd to avoid peaking memory", train.py at
** 9dec370 l.305-308) holds at most 12: the forward's head output, fp32 copy and
** log-softmax output (a + 8, the copy absent in fp32), or in backward the log-softmax
** output, the nll gradient and log_softmax_backward's result (4 + 4 + 4); neither the
** cast (_to_copy) nor log_softmax saves the logits (log_softmax's backward reads its
** output). A compiled standard loss (runtime.compile: torchtitan compiles its
** cross_entropy_loss, `pred.flatten(0, 1).float()` then F.cross_entropy, whenever
** training.compile is set, components/loss.py build_cross_entropy_loss since bbb1b616e,
** 2025-04-02, #1033; torchtune's recipes run training.compile_loss) fuses the upcast,
** log-softmax and nll into reductions over the head output: the graph saves its input,
** the head output, and an fp32 log-sum-exp per token, and its backward writes the
** gradient of the head output in the head output's dtype in one kernel, so at most
** 2 a per element (the saved input and its gradient; the caller's `del pred` does not
** free the saved input). torchtune's chunked CE keeps the 16-bit chunks and upcasts one
** of 8 chunks at a time (CEWithChunkedOutputLoss, num_output_chunks 8); compiled, the
** log-softmax is recomputed instead of saved. A fused linear-CE keeps one chunk.
** Megatron's vocab-parallel cross-entropy (megatron/core/tensor_parallel/cross_entropy.py
** _VocabParallelCrossEntropy, and the jit-fused variant of fusions/fused_cross_entropy.py)
** upcasts the head output once (calculate_logits_max: .float()), then subtracts the max,
** exponentiates and normalizes that copy in place and saves it as the softmax; backward
** turns it into the gradient in place, cast back to the head output's dtype. The caller
** (GPTModel) drops its 16-bit logits when the loss returns: a + 4 per element at either
** end (the head output beside the fp32 copy, the fp32 gradient beside its 16-bit cast), 4
** in fp32, where .float() is the tensor itself. */
static uint64_t logits_bytes(ectx *c, const train_cfg *t, uint64_t tokens, uint64_t a, bool freed, uint64_t work) {
  if (c->m->family == FAM_ENCODER) return 0; /* classification heads: a few logits */
  uint64_t elems = acc_mul(&c->acc, tokens, bytes_ceildiv(c->m->vocab, c->s->tp));
  switch (t->loss) {
  case LOSS_CHUNKED:
    /* CEWithChunkedOutputLoss (torchtune/modules/loss/ce_chunked_output_loss.py at 1814feb1):
    ** the 8 16-bit chunks stay saved to backward. Eager, each chunk's F.cross_entropy(x.float())
    ** also saves its fp32 log-softmax output (+4 over all chunks) and one chunk's backward holds
    ** the three fp32 tensors of the standard loss (12 / 8). Compiled (training.compile_loss
    ** compiles compute_cross_entropy), a chunk's graph saves its 16-bit input and a per-token
    ** log-sum-exp and writes the chunk's gradient in the input dtype in one kernel (2 a, as the
    ** compiled standard loss above); autograd runs the 8 loss nodes (created after every head
    ** chunk) before any head backward, each freeing its saved chunk as it writes that chunk's
    ** gradient: a + a / 8 at most. Hold-out: torchtune README "Optimization flags" LoRA / QLoRA
    ** rows (Llama 3.2 3B, 2 x 4096 packed, compile): 8.5 / 4.6 GiB peak active, +28.2 % /
    ** +55.8 % with a + 12 / 8 (tests/test_holdout21_train.c). */
    if (t->compile) {
      /* then each chunk's head backward: a trained head's weight gradient comes out whole per
      ** chunk (grad_output^T @ input) and is added into the autograd InputBuffer of the weight's
      ** AccumulateGrad node, which every chunk's F.linear feeds (torch/csrc/autograd/
      ** input_buffer.cpp): the buffer and one new partial beside the 7 chunks' gradients left */
      uint64_t one =
          acc_add(&c->acc, acc_mul(&c->acc, elems, a), bytes_ceildiv(acc_mul(&c->acc, elems, a), 8));
      if (!t->norm_trained) return one;
      uint64_t w = est_elems_bytes(c, acc_mul(&c->acc, bytes_ceildiv(c->m->vocab, c->s->tp), c->m->hidden),
                                   c->s->prec.grads);
      uint64_t head =
          acc_add(&c->acc, bytes_ceildiv(acc_mul3(&c->acc, elems, a, 7), 8), acc_mul(&c->acc, w, 2));
      return head > one ? head : one;
    }
    return acc_add(&c->acc, acc_mul(&c->acc, elems, a + 4), bytes_ceildiv(acc_mul(&c->acc, elems, 12), 8));
  case LOSS_FUSED:
    return bytes_ceildiv(acc_mul(&c->acc, elems, 12), 8);
  case LOSS_VOCAB_PARALLEL:
    return acc_mul(&c->acc, elems, a < 4 ? a + 4 : 4);
  case LOSS_TITAN_CHUNKED: {
    /* torchtitan's ChunkedLossWrapper (components/loss.py): the final norm's output, made
    ** Replicate on the TP axis before chunking (tokens x hidden, a), is split into chunks of
    ** loss_chunk tokens; each runs lm_head and the loss and its backward at once, its
    ** hidden-state gradient (chunk x hidden, a) added to one fp32 GradAccumulator of
    ** tokens x hidden, which is cast to the model dtype after the last chunk
    ** (grad_accumulator.result().to(term_pred.dtype)) and handed to the decoder's backward.
    ** A chunk's peak (torchtitan components/loss.py at 94609ad7, docs/chunked_loss.md's
    ** commit, and b5bcd76c6): the loop's `logits = lm_head(h_chunk)` keeps the head output
    ** (a) through `chunk_loss.backward()`. Under TP, loss parallel runs
    ** _LossParallelCrossEntropy (since fec0c175d, #3467) on `pred.float()`: forward saves
    ** the fp32 log_probs; its backward builds grad_input = zeros_like(log_probs), then
    ** `(grad_input + torch.exp(log_probs)) * grad_output`, so the exp and the sum are alive
    ** beside log_probs and grad_input: a + 16 per element (the .float() copy is not saved
    ** and is gone by then). Without TP, F.cross_entropy(pred.float()): log_softmax saves its
    ** output, and its backward writes a new tensor beside nll_loss's gradient: a + 12.
    ** Compiled (the loss only, not the head), 2 a. The loop runs inside the loss call,
    ** before the decoder's backward: no layer is being recomputed beside a chunk (`work`,
    ** kept_activations), so the loop's bytes only count above that layer's. After the loop
    ** the decoder's backward holds the norm output and its bf16 gradient beside the
    ** recomputed layer, the fp32 accumulator having been freed. */
    bytes_acc *A = &c->acc;
    uint64_t chunk = t->loss_chunk && t->loss_chunk < tokens ? t->loss_chunk : tokens;
    uint64_t celems = acc_mul(A, chunk, bytes_ceildiv(c->m->vocab, c->s->tp));
    uint64_t per = t->compile ? 2 * a : c->s->tp > 1 ? a + 16 : a + 12;
    uint64_t hid = acc_mul(A, tokens, c->m->hidden);
    uint64_t in_loop = acc_add(A, acc_mul(A, hid, 4), acc_add(A, acc_mul(A, celems, per), acc_mul3(A, chunk, c->m->hidden, a)));
    uint64_t cast = acc_mul(A, hid, 4 + a); /* the accumulator and its cast, no layer recomputed yet */
    uint64_t loop = (in_loop > cast ? in_loop : cast);
    loop = loop > work ? loop - work : 0;
    uint64_t bwd = acc_mul(A, hid, a); /* the decoder backward's incoming gradient */
    return acc_add(A, acc_mul(A, hid, a), loop > bwd ? loop : bwd);
  }
  default: {
    /* torchtune's TransformerDecoder returns `self.output(h).float()` unchunked
    ** (train.output_upcast; torchtune/modules/transformer.py at 0.3.0-0.7.0), and its recipes
    ** `del logits` once the loss is built (recipes/full_finetune_single_device.py at 1814feb1):
    ** the 16-bit head output is gone after the cast, nothing saves the fp32 logits in eager, so
    ** the loss holds the log-softmax output, the nll gradient and log_softmax_backward's result
    ** (12). A compiled loss (training.compile_loss) saves its input, here the fp32 logits, and
    ** writes their gradient in fp32 (8). Hold-out: torchtune README "Optimization flags" (1814feb1,
    ** Llama 3.2 3B, 2 x 4096 packed, compile, torch.nn.CrossEntropyLoss): 51.0 GiB peak active,
    ** -12.3 % with 2 a (tests/test_holdout21_train.c). */
    /* The pytorch runtime's output_upcast (torchtitan's `self.output(h).float()` before
    ** e10cb9494, 2024-10-22) without `del pred` (before e29b6b4d4, 2024-06-12): the loop's
    ** `pred` is that fp32 tensor, alive beside the same three (4 + 12, train.output_held). The
    ** 4 B a logit `del pred` saves is the "3.9G" of torchtitan #391's title (Llama3-8B, 8192
    ** tokens x 128,256 x 4 B = 3.92 GiB; tests/test_holdout22_train.c). */
    if (t->output_upcast && a < 4) return acc_mul(&c->acc, elems, t->compile ? 8 : t->output_held ? 16 : 12);
    if (t->compile) return acc_mul(&c->acc, elems, 2 * a);
    /* Before transformers 4.46 the causal-LM forward itself upcast its head output and
    ** computed the loss (LlamaForCausalLM and the classes copied from it, Granite, Mistral,
    ** Qwen2...: `logits = logits.float()`, then `shift_logits = logits[..., :-1,
    ** :].contiguous()` and CrossEntropyLoss): the reassignment frees the 16-bit head output,
    ** which nothing saves, so the forward holds the fp32 logits, the shifted copy and the
    ** log-softmax output (12 per element) and the backward the log-softmax output, the nll
    ** gradient and log_softmax_backward's result (12); the fp32 logits go back in
    ** outputs.logits, which the Trainer's compute_loss drops with the outputs. From 4.46
    ** (huggingface/transformers PR #34191, self.loss_function / ForCausalLMLoss) the model's
    ** `logits` still holds the head output while the loss upcasts a copy: a + 12 below.
    ** Hold-out: fms-acceleration a100_80gb_granite.csv (transformers 4.45.0, ibm/PowerLM-3b
    ** LoRA r16, 4 and 8 x 4096 tokens: 20.19 / 33.18 GB max allocated, 12.4 B a logit above
    ** the 40 checkpoints; +6.3% / +7.8% with a + 12). */
    if (t->model_upcast && a <= 4) {
      /* A loop of its own that keeps the outputs through loss.backward() and the step
      ** (runtime.keep_outputs: AnswerDotAI/fsdp_qlora train.py, `output = model(...)`,
      ** `loss = output.loss`, `output = None` only after optimizer.step(), 50efa1e) keeps the
      ** fp32 outputs.logits (4 per element) beside the backward's three (16), and beside the
      ** last checkpointed block's recomputation. Hold-out: fsdp_qlora benchmarks_03_2024.md,
      ** Llama-2 7B LoRA 10 x 2048 with CPU offload, 22.69 GiB reserved (test_holdout18_train). */
      uint64_t legacy = acc_mul(&c->acc, elems, t->keep_outputs ? 16 : 12);
      uint64_t held = t->keep_outputs ? acc_mul(&c->acc, elems, 4) : 0;
      if (!work || strcmp(c->s->runtime, "transformers") != 0) return legacy;
      uint64_t above = legacy > work ? legacy - work : 0;
      return above > held ? above : held;
    }
    uint64_t fwd = a + (a < 4 ? 4 : 0) + 4;
    uint64_t loss = freed ? acc_mul(&c->acc, elems, fwd > 12 ? fwd : 12) : acc_mul(&c->acc, elems, a + 12);
    /* Under checkpointing (work: the layer being recomputed, kept_activations) the loss's
    ** forward and backward both end before autograd reaches the last checkpointed block, whose
    ** recomputation allocates `work`: the two are never alive together. What stays of the
    ** logits beside the recomputed layer is the head output when the caller keeps it (a per
    ** element; nothing once freed). Hold-out: foundation-model-stack/fms-acceleration
    ** scripts/benchmarks/refs/a100_80gb.csv @24bdadb (HF Trainer + TRL 0.13, Mistral-7B LoRA
    ** r16 q,k,v,o, 4 x 4096 packed tokens, checkpointing, A100 80GB): 26.70 GB max allocated,
    ** +11.0% with both counted, -1.6% now (tests/test_training.c
    ** test_fms_acceleration_holdout14). Applied to the Hugging Face model's loop only (the
    ** transformers runtime), where that evidence is: elsewhere the published figures read as
    ** if both were counted, for reasons not found (open, docs/TRAINING.md): torchtitan's
    ** Llama-3.1 Table 1 / Table 4 rows (max reserved) would go from +4.9% / -6.1% to -12% /
    ** -20%, and the deepspeed runtime's two calibration cases (peft-docs ZeRO-3 70B, read
    ** from monitoring screenshots) from -6.7% / -13.3% to -16% / -17%. */
    if (!work || strcmp(c->s->runtime, "transformers") != 0) return loss;
    uint64_t held = freed ? 0 : acc_mul(&c->acc, elems, a);
    uint64_t above = loss > work ? loss - work : 0;
    return above > held ? above : held;
  }
  }
}

/* What a PEFT method's adapters save per token beyond the base model's tensors, all layers:
** lora_A outputs and each adapted module's own input copy when dropout or a dtype cast gave
** lora_A a tensor of its own, both in the adapters' activation dtype (adapter_bytes: fp32 for
** fp32 adapters without autocast, 16-bit under autocast, which saves its cast of the input;
** workloads/train.lua adapter_cast), 1-byte dropout masks, and DoRA's two out-sized
** operands of its output products: the base Linear's output (a bytes) and lora_B's output
** (peft/tuners/lora/dora.py DoraLinearLayer.forward: (mag_norm_scale - 1) * base_result +
** mag_norm_scale * lora_result * scaling; the magnitude needs a gradient, so each mul keeps
** its other operand). */
static uint64_t adapter_extra(ectx *c, const train_cfg *t, uint64_t a) {
  bytes_acc *A = &c->acc;
  uint64_t ab = t->adapter_bytes ? t->adapter_bytes : a;
  uint64_t extra = acc_add(A, acc_mul(A, t->saved_elems, ab), t->mask_elems);
  extra = acc_add(A, extra, acc_mul(A, t->copy_elems, ab));
  uint64_t dora = acc_mul(A, t->dora_out, a + (t->adapter_bytes ? t->adapter_bytes : est_bits(t->tdtype) / 8));
  return acc_add(A, extra, dora);
}

/* Backward runs the stages in reverse: entering stage k, the activations of stages 1..k
** are still held, the gradients of stages k..n exist, and the backward of stage k's
** largest eager attention holds grad_probs and grad_scores (two score tensors) beside
** them. Returns the held activations at the worst point net of the gradients not yet
** produced (the budget adds all gradients), at least the largest block. Without
** checkpointing only (it recomputes otherwise). */
static uint64_t unet_backward(ectx *c, const train_cfg *t, uint64_t a, uint64_t grads, uint64_t floor) {
  const scenario *s = c->s;
  uint64_t n = scn_u64(s, "train.stages", 0), act[32], par[32], sc[32], total = 0, held = 0, best = floor;
  if (n == 0 || n > 32 || s->gc == GC_FULL || t->off_act) return floor;
  char key[48];
  for (uint64_t i = 0; i < n; i++) {
    snprintf(key, sizeof key, "train.stage_act.%llu", (unsigned long long)(i + 1));
    act[i] = acc_mul3(&c->acc, scn_u64(s, key, 0), a, s->micro_batch);
    snprintf(key, sizeof key, "train.stage_scores.%llu", (unsigned long long)(i + 1));
    sc[i] = acc_mul3(&c->acc, scn_u64(s, key, 0), 2 * a, s->micro_batch);
    snprintf(key, sizeof key, "train.stage_params.%llu", (unsigned long long)(i + 1));
    par[i] = scn_u64(s, key, 0);
    total = acc_add(&c->acc, total, par[i]);
    held = acc_add(&c->acc, held, act[i]);
  }
  uint64_t done = 0; /* parameters of stages k..n */
  for (uint64_t k = n; k-- > 0;) {
    done = acc_add(&c->acc, done, par[k]);
    uint64_t missing = total ? acc_from_double(&c->acc, (double)grads * (double)(total - done) / (double)total) : 0;
    uint64_t live = acc_add(&c->acc, held, sc[k]);
    if (live > missing && live - missing > best) best = live - missing;
    held -= act[k];
  }
  return best;
}

/* A UNet walked level by level in Lua (scripts/train_gen.lua): saved elements per sample,
** what gradient checkpointing keeps (block inputs) and the largest block, which backward
** holds (and recomputes under checkpointing) beside the gradients. Eager attention adds
** its transient scores: one tensor beside the saved ones at the forward peak, two in the
** block's backward (grad_probs, grad_scores). */
static void unet_activations(ectx *c, const train_cfg *t, uint64_t a, train_parts *p) {
  const scenario *s = c->s;
  uint64_t mb = s->micro_batch;
  p->act_layer = acc_mul3(&c->acc, t->act_block, a, mb);
  if (t->off_act || s->gc == GC_FULL) {
    p->act = acc_add(&c->acc, acc_mul3(&c->acc, t->act_ckpt, a, mb), p->act_layer);
    p->act_layer = acc_add(&c->acc, p->act_layer, acc_mul3(&c->acc, t->act_scores, 2 * a, mb));
  } else {
    p->act = acc_mul3(&c->acc, t->act_fwd > t->act_elems ? t->act_fwd : t->act_elems, a, mb);
  }
  /* gradients kept from the last step (accumulation, torch < 2.0 zero_grad) all exist
  ** already when backward starts: none is missing at any stage */
  bool kept = (s->grad_accum > 1 || t->keep_grads) && !t->oib;
  p->act_layer = unet_backward(c, t, a, kept ? 0 : p->grads, p->act_layer);
  /* adapters: lora_A outputs and dropout masks, per latent pixel of the first level */
  uint64_t extra = adapter_extra(c, t, a);
  p->act = acc_add(&c->acc, p->act, acc_mul3(&c->acc, extra, s->seq_len, mb));
}

/* Transformer Engine needs a transposed fp8 copy for the backward GEMMs except on GPUs
** whose fp8 GEMMs take non-TN layouts: compute capability 10.x, 11.x and 13+, not 12.x
** (nvte_is_non_tn_fp8_gemm_supported, transformer_engine/common/transformer_engine.cpp;
** quantizer.cpp creates the transpose only when columnwise usage is asked without it). */
static bool te_needs_transpose(const scenario *s) {
  int major = 0;
  if (sscanf(s->gpu_compute, "%d", &major) != 1) return true;
  return !((major >= 10 && major < 12) || major >= 13);
}

/* Transformer Engine's fp8 weight workspace of one layer, kept from its forward to its
** backward: te.Linear quantizes its weight each forward (quantize_weight) with row-wise
** data and, when its input needs a gradient, the column-wise (transposed) copy, and saves
** it for backward (module/linear.py wt_save = weightmat). Under full checkpointing the
** forward runs without grad and saves nothing: only the recomputed layer's is kept. */
static uint64_t te_weight_workspace(ectx *c, const train_cfg *t) {
  if (t->fp8 != FP8_TE) return 0;
  uint64_t per_layer = bytes_ceildiv(t->fp8_linear_elems, acc_mul(&c->acc, c->s->tp, model_layers(c)));
  return acc_mul(&c->acc, per_layer, te_needs_transpose(c->s) ? 2 : 1);
}

/* Transient fp8 casts in the backward of the largest converted Linear (M tokens, the
** gate/up {ffn, h} or down {h, ffn} matrix): torchao casts grad_output twice (for
** grad_input and grad_weight, each hp_tensor_to_float8_dynamic), the weight and the
** input once each (matmul_with_hp_or_float8_args.backward, torchao/float8/
** float8_linear.py); TE quantizes grad_output row-wise and column-wise (2 B per element
** with the transpose) and reuses the saved fp8 input and weight (module/linear.py). */
static uint64_t fp8_backward_casts(ectx *c, const train_cfg *t, uint64_t tokens) {
  if (t->fp8 == FP8_NONE) return 0;
  bytes_acc *A = &c->acc;
  uint64_t tp = c->s->tp, h = c->m->hidden;
  uint64_t ffn = bytes_ceildiv(c->m->block.ffn_dim ? c->m->block.ffn_dim : h, tp);
  uint64_t best = 0;
  for (int dir = 0; dir < 2; dir++) { /* {in, out}: gate/up (h -> ffn), down (ffn -> h) */
    uint64_t in = dir ? ffn : h, out = dir ? h : ffn, b;
    if (t->fp8 == FP8_TORCHAO)
      b = acc_add(A, acc_mul3(A, 2, tokens, out), acc_add(A, acc_mul(A, in, out), acc_mul(A, tokens, in)));
    else
      b = acc_mul3(A, te_needs_transpose(c->s) ? 2 : 1, tokens, out);
    if (b > best) best = b;
  }
  return best;
}

/* Ring attention's buffers in one layer's backward (context parallelism): the KV of
** other ranks (the all-gather of every rank's local K and V, torchtitan's default
** rotate method, or one chunk received beside the one sent with all-to-all), the local
** K and V concatenated to send, fp32 accumulators of dq, dk, dv (convert_to_f32 = True)
** and the fp32 dk/dv chunk sent and received (_templated_ring_attention_backward,
** torch/distributed/tensor/experimental/_attention.py). The forward holds fewer (no
** gradients) while the loss's logits, not yet allocated, are the forward's peak. */
static uint64_t ring_backward(ectx *c, const train_cfg *t, uint64_t tokens, uint64_t a) {
  if (t->cp < 2) return 0;
  bytes_acc *A = &c->acc;
  uint64_t tp = c->s->tp;
  uint64_t q = bytes_ceildiv(c->m->block.q_dim, tp), kv2 = acc_mul(A, 2, bytes_ceildiv(c->m->block.kv_dim, tp));
  uint64_t local_kv = acc_mul3(A, tokens, kv2, a);
  uint64_t kv = acc_mul(A, local_kv, t->cp_alltoall ? 2 : acc_add(A, t->cp, 1));
  uint64_t acc32 = acc_mul3(A, tokens, acc_add(A, q, kv2), 4);
  uint64_t dkv = acc_mul(A, acc_mul3(A, tokens, kv2, 4), 2);
  return acc_add(A, kv, acc_add(A, acc32, dkv));
}

/* A transformer stack: per-layer saved activations under the checkpointing policy,
** adapter extras, pipeline micro-batches in flight, logits. Context parallelism gives
** each rank seq_len / cp tokens; sequence parallelism shards the part of a layer that
** tensor parallelism replicates (layer_bytes_per_token's split) and the checkpointed
** layer inputs over tp (Korthikanti et al. 2022, section 4.2.2). */
static void lm_activations(ectx *c, const train_cfg *t, uint64_t a, train_parts *p) {
  const scenario *s = c->s;
  bytes_acc *A = &c->acc;
  uint64_t seq = acc_add(A, s->seq_len, t->virtual_tokens);
  uint64_t tokens = bytes_ceildiv(acc_mul(A, s->micro_batch, seq), t->cp);
  uint64_t split = 0;
  uint64_t per_tok = layer_bytes_per_token(c, t, a, seq, &split);
  /* adapters: lora_A outputs, dropout copies and masks, spread over the layers */
  uint64_t extra = adapter_extra(c, t, a);
  per_tok = acc_add(A, per_tok, bytes_ceildiv(extra, model_layers(c)));
  uint64_t per_layer = acc_mul(A, tokens, per_tok - split);
  per_layer = acc_add(A, per_layer, bytes_ceildiv(acc_mul(A, tokens, split), s->tp));
  per_layer = acc_add(A, per_layer, te_weight_workspace(c, t));
  uint64_t input = acc_mul3(A, tokens, c->m->hidden, a);
  if (t->sp) input = bytes_ceildiv(input, s->tp);
  if (s->gc == GC_OP) input = acc_mul(A, tokens, op_saved_bytes(c, t, a));
  p->act_layer = per_layer;
  uint64_t work = 0;
  p->act = kept_activations(c, t, per_layer, input, bytes_ceildiv(model_layers(c), s->pp), &work);
  p->pp_kept = p->act, p->pp_per_layer = per_layer, p->pp_input = input;
  /* runtime.kbit_prepare (workloads/train.lua kbit_part): fp32 norms turn the residual stream
  ** fp32 from the first block's MLP on (a bitsandbytes Linear4bit returns its input's dtype),
  ** so the inputs of the later blocks and the final norm's are 4 B, not a, per element */
  if (t->kbit_stream && a < 4) {
    uint64_t blocks = bytes_ceildiv(model_layers(c), s->pp);
    p->act = acc_add(A, p->act, acc_mul(A, acc_mul3(A, tokens, c->m->hidden, 4 - a), blocks));
  }
  /* LoHa's delta weight, saved by F.linear in the adapters' output dtype */
  p->act = acc_add(A, p->act, acc_mul(A, bytes_ceildiv(t->weight_saved, model_parallel(c)), t->adapter_bytes ? t->adapter_bytes : a));
  if (s->pp > 1) {
    /* per micro-batch in flight (pp_stages): what it keeps until its backward, plus the
    ** stage's output, which the schedule keeps for that backward (torch/distributed/
    ** pipelining/stage.py forward_one_chunk: fwd_cache[chunk] = (output_tuple, inputs);
    ** sequence-sharded under sequence parallelism, as the blocks' outputs are) */
    uint64_t out = acc_mul3(A, tokens, c->m->hidden, a);
    p->pp_out = t->sp ? bytes_ceildiv(out, s->tp) : out;
    p->pp_work = work;
    p->pp_saved = acc_add(A, p->act - work, p->pp_out);
    /* the last stage's output is the head's; PyTorch's schedules also append it to
    ** output_chunks (forward_one_chunk) and return them merged after the step
    ** (_merge_outputs), so every micro-batch's head output lives until the step ends,
    ** unless step(return_outputs=False) (runtime.pp_outputs false: torchtitan since
    ** e5ef99aab, #1922) */
    /* Under torchtitan's ChunkedLossWrapper the model runs with _skip_lm_head: the last
    ** stage returns the final norm's output, replicated on the TP axis (logits_bytes), and
    ** the head runs inside the loss, so what the schedule keeps is tokens x hidden. */
    if (strcmp(s->runtime, "pytorch") == 0 && t->pp_outputs && c->m->family != FAM_ENCODER)
      p->pp_head = t->loss == LOSS_TITAN_CHUNKED ? acc_mul3(A, tokens, c->m->hidden, a)
                                                 : acc_mul3(A, tokens, bytes_ceildiv(c->m->vocab, s->tp), a);
  }
  /* under pipelining the schedule, not the training loop, calls the loss and keeps the
  ** stage output (the head's) until that micro-batch's backward: no `del pred` */
  p->logits = logits_bytes(c, t, tokens, a, t->free_logits && s->pp < 2, s->pp < 2 ? work : 0);
  /* one layer's backward: its transients beside the layer's saved tensors */
  uint64_t bwd = acc_add(A, ring_backward(c, t, tokens, a), fp8_backward_casts(c, t, tokens));
  if (t->sp && t->sp_local) /* Megatron re-gathers the sequence-sharded Linear input */
    bwd = acc_add(A, bwd, acc_mul3(A, tokens, c->m->hidden, a));
  p->act_layer = acc_add(A, p->act_layer, bwd);
}

/* A denoiser whose forward builds one dense [B, S, S] boolean attention mask for all its
** blocks (diffusers v0.32.0 and v0.32.1 HunyuanVideoTransformer3DModel.forward, "3. Attention
** mask preparation"; the [B, S] padding mask since #10548, v0.32.2; runtimes/diffusers.lua
** dense_mask_era by runtime.version, as for generation, src/gen.c gen_dense_mask): the boolean
** (1 B per element) is an input of every checkpointed block, alive from the forward to the
** end of backward. Each attention call turns it into an additive mask of the query's dtype
** (PyTorch SDPA convert_boolean_attn_mask: zeros_like + masked_fill_) and the
** memory-efficient kernel saves that attn_bias for its backward (tools/autograd/
** derivatives.yaml, _scaled_dot_product_efficient_attention): one copy per layer (one
** attention call per HunyuanVideo block) without checkpointing, only the recomputed layer's
** with it. The flash backends (attention "flash") take the boolean as it is. *layer: what
** one layer's backward holds of it. Exact arithmetic from the code. */
static uint64_t dense_mask_bytes(ectx *c, const train_cfg *t, uint64_t a, uint64_t *layer) {
  const scenario *s = c->s;
  *layer = 0;
  if (!t->dense_mask || t->act_elems) return 0;
  bytes_acc *A = &c->acc;
  uint64_t sq = acc_mul3(A, s->seq_len, s->seq_len, s->micro_batch);
  uint64_t add = s->attention == ATTN_FLASH ? 0 : acc_mul(A, sq, a);
  uint64_t copies = s->gc == GC_FULL || t->off_act ? 1 : bytes_ceildiv(model_layers(c), s->pp);
  *layer = acc_add(A, sq, add);
  return acc_add(A, sq, acc_mul(A, add, copies));
}

/* Saved activations (a UNet walked in Lua, or a transformer stack) and autocast's copies. */
static void train_activations(ectx *c, const train_cfg *t, train_parts *p) {
  const scenario *s = c->s;
  uint64_t a = est_bits(s->prec.activations) / 8;
  if (t->act_elems) {
    unet_activations(c, t, a, p);
  } else {
    lm_activations(c, t, a, p);
  }
  uint64_t mask_layer = 0, mask = dense_mask_bytes(c, t, a, &mask_layer);
  p->act = acc_add(&c->acc, p->act, mask);
  p->act_layer = acc_add(&c->acc, p->act_layer, mask_layer);
  if (a < 4 && est_bits(s->prec.weights) == 32 && p->weights && !fsdp_mixed(c, t)) {
    /* autocast caches a 16-bit copy of each fp32 weight for the forward; autograd keeps
    ** it for the input gradients until that layer's backward (torch.amp autocast) */
    uint64_t cache = acc_mul(&c->acc, p->weights / 4, a);
    p->act = acc_add(&c->acc, p->act, cache);
    if (s->pp > 1) p->pp_work = acc_add(&c->acc, p->pp_work, cache); /* once per stage (pp_stages) */
  }
}

/* Gradients alive in forward (accumulated, or kept by zero_grad) and once backward is done. */
static uint64_t grads_fwd(ectx *c, const train_cfg *t, const train_parts *p) {
  if (p->pp_stage) return p->pp_g0;
  return (c->s->grad_accum > 1 || t->keep_grads) && !t->oib ? p->grads : 0;
}
static uint64_t grads_bwd(const train_parts *p) {
  return p->pp_stage ? p->pp_g1 : p->grads;
}

/* Whether backward peaks at its start under fsdp_fwd_kept: at unit i from the end the units
** not yet reached still hold what forward left them (a gathered unit, or its post-forward
** slice) and the units done hold their sharded gradients; a unit's kept bytes (in the
** gathered dtype, the whole unit under SHARD_GRAD_OP) outweigh its gradient's shard, so the
** sum is largest at the first unit: fwd_kept beside the gradients forward already had,
** else the end's gradients. */
static bool fsdp_bwd_start(ectx *c, const train_cfg *t, const train_parts *p) {
  return p->fwd_kept && acc_add(&c->acc, p->fwd_kept, grads_fwd(c, t, p)) > grads_bwd(p);
}

static const char *const PHASES[] = {"forward", "backward", "optimizer step", "model load"};
enum { PH_LOAD = 3 };

/* Model states of a phase; at model load only the weights exist. */
static void budget_states(ectx *c, const train_cfg *t, const train_parts *p, bool grads_live, uint64_t grads,
                          bool load) {
  budget *b = &c->e->b;
  const scenario *s = c->s;
  bool ps = params_sharded(t->strategy) && shard_ranks(c, t) > 1;
  bool hybrid = t->strategy == STRAT_FSDP && shard_ranks(c, t) < acc_mul(&c->acc, s->dp, t->cp);
  /* a quantized base names its format (scripts/quant.lua sets quant.name), else the dtype */
  const char *q = scn_str(s, "quant.name", NULL);
  char stage[160] = "";
  if (p->pp_stage && p->pp_own)
    snprintf(stage, sizeof stage, ", the %s pipeline stage's own: %llu of %llu layers%s", p->pp_stage == 1 ? "first"
             : p->pp_stage == 3 ? "second" : "last", (unsigned long long)p->pp_layers, (unsigned long long)model_layers(c),
             p->pp_stage == 1 ? " and the embeddings" : p->pp_stage == 2 ? (c->m->tied_embeddings ? ", final norm and a copy of the tied embedding" : ", final norm and head") : "");
  budget_add(b, "weights", p->weights, BASIS_EXACT, true, "%s%s weights%s%s%s%s%s", t->peft ? "frozen " : "",
             q ? q : dtype_get(s->prec.weights)->name,
             ps && hybrid ? ", sharded over dp_shard (HSDP: replicated across shard groups)"
             : ps         ? ", sharded over dp"
                          : "",
             stage, t->off_par ? " (offloaded to host memory)" : "",
             p->qstate ? ", their 4-bit quantization statistics whole on the GPU" : "",
             p->rope ? " and the fp32 RoPE cache" : "");
  if (t->pipeline)
    budget_add(b, "frozen_components", p->aux, BASIS_EXACT, true, "text encoders and VAE%s",
               t->aux_on_gpu ? ", frozen in the load dtype" : ": not on the GPU (precomputed embeddings and latents)");
  if (t->added)
    budget_add(b, "adapter_weights", p->adapters, BASIS_EXACT, true, "%llu added parameters in %s%s%s%s",
               (unsigned long long)t->added, dtype_get(t->tdtype)->name,
               t->copy_params ? " (modules_to_save copies in " : "", t->copy_params ? dtype_get(t->cdtype)->name : "",
               t->copy_params ? ")" : "");
  budget_add(b, "master_weights", load ? 0 : p->master, BASIS_EXACT, true, "fp32 master copy of trainable weights%s",
             t->off_opt ? " (in host memory)" : "");
  bool unsharded = p->pp_params && grads != p->grads;
  budget_add(b, "gradients", grads_live ? grads : 0, BASIS_EXACT, true, "%s gradients of %llu trainable parameters%s",
             dtype_get(s->prec.grads)->name, (unsigned long long)t->trainable,
             t->oib ? " (optimizer in backward: one tensor at a time)"
             : unsharded ? " (the stage's, unsharded: FSDP accumulates them until the last micro-batch under pipelining)"
             : grads_live ? "" : " (freed by zero_grad before forward)");
  budget_add(b, "optimizer_states", load ? 0 : p->states, BASIS_EXACT, true, "%s states%s", s->opt.name,
             t->off_opt ? " (offloaded to host memory)" : "");
  if (p->fp8_meta)
    budget_add(b, "fp8_scaling_state", p->fp8_meta, BASIS_EXACT, true,
               "Transformer Engine DelayedScaling: scales and %llu-step amax histories per te.Linear",
               (unsigned long long)t->fp8_amax_len);
  if (p->paged && !load)
    budget_add(b, "paged_optimizer_states", p->paged, BASIS_EXACT, false,
               "%s states in CUDA managed memory, outside PyTorch's allocator", s->opt.name);
}

static void train_budget(ectx *c, const train_cfg *t, const train_parts *p, int phase) {
  budget *b = &c->e->b;
  const scenario *s = c->s;
  bool load = phase == PH_LOAD;
  bool grads_live = !load && (phase > 0 || ((s->grad_accum > 1 || t->keep_grads) && !t->oib));
  uint64_t grads = p->grads;
  if (p->pp_stage && phase < 2) grads = phase == 0 ? p->pp_g0 : p->pp_g1, grads_live = !load && grads;
  bool kept = phase == 0 || (phase == 1 && fsdp_bwd_start(c, t, p)); /* fsdp_fwd_kept's units held */
  if (phase == 1 && kept) grads = grads_fwd(c, t, p), grads_live = grads != 0; /* backward's start */
  budget_states(c, t, p, grads_live, grads, load);
  if (t->load)
    budget_add(b, "load_buffers", load ? t->load : 0, BASIS_MODELLED, true,
               "model load: a 16-bit tensor and its quantization temporaries");
  bool enc = phase == 0 && t->encode > acc_add(&c->acc, p->act, p->logits);
  uint64_t act = enc ? 0 : phase == 0 ? p->act : phase == 1 ? p->act_layer : 0;
  if (t->encode) /* ENCODE_TENSORS of scripts/train_gen.lua, fitted to finetrainers-hunyuanvideo-lora-r128-noprecompute */
    budget_add(b, "vae_encode", enc ? t->encode : 0, BASIS_CALIBRATED, true,
               "the VAE encodes each step's clip (no precomputed latents)");
  char split[160] = "";
  if (t->cp > 1 || t->sp || p->pp_stage)
    snprintf(split, sizeof split, "%s%s", t->cp > 1 ? ", sequence split over cp ranks" : "",
             t->sp ? ", sequence parallel" : "");
  if (p->pp_stage) {
    size_t used = strlen(split);
    snprintf(split + used, sizeof split - used, ", %s pipeline stage of %llu (1F1B): %llu micro-batch%s in flight",
             p->pp_stage == 1 ? "first" : p->pp_stage == 3 ? "second" : "last", (unsigned long long)s->pp, (unsigned long long)p->pp_inflight,
             p->pp_inflight == 1 ? "" : "es");
  }
  budget_add(b, "activations", act, BASIS_MODELLED, true, "%s: micro-batch %llu x %llu tokens, checkpointing %s%s%s%s",
             PHASES[phase], (unsigned long long)s->micro_batch, (unsigned long long)s->seq_len,
             s->gc == GC_FULL ? (t->gc_every > 1 ? "every k layers" : "full")
             : s->gc == GC_SELECTIVE ? "selective" : s->gc == GC_OP ? "per-op (torchtitan SAC)" : "off",
             t->off_act ? ", offloaded to host" : "", split,
             t->fp8 == FP8_TE ? ", fp8 Linear inputs and weight copies (Transformer Engine)" : "");
  uint64_t logits = phase == 0 && !enc ? p->logits : phase == 1 ? p->pp_logits_bwd : phase == 2 ? p->pp_logits_step : 0;
  budget_add(
      b, "logits", logits, BASIS_MODELLED, true, "vocabulary x tokens: %s%s",
      t->loss == LOSS_CHUNKED          ? "chunked cross-entropy"
      : t->loss == LOSS_FUSED          ? "fused linear cross-entropy"
      : t->loss == LOSS_TITAN_CHUNKED  ? "torchtitan ChunkedLossWrapper: replicated hidden states, fp32 "
                                         "gradient accumulator, one chunk's logits"
      : t->loss == LOSS_VOCAB_PARALLEL ? "Megatron vocab-parallel cross-entropy: head output and one fp32 "
                                         "copy, softmax and gradient in place"
      : t->output_upcast && t->compile
          ? "compiled cross-entropy on the decoder's fp32 logits: saved, their fp32 gradient"
      : t->output_held ? "the model's fp32 logits (kept by the loop through backward), log-softmax, gradient"
      : t->output_upcast ? "the decoder's fp32 logits (dropped after the loss), log-softmax, gradient"
      : t->compile       ? "compiled cross-entropy: head output saved, its gradient"
      : t->free_logits && !p->pp_stage
          ? "fp32 upcast, log-softmax, gradient (head output freed before backward)"
      : t->model_upcast && t->keep_outputs
          ? "fp32 upcast kept in the outputs to the step's end, shifted copy, log-softmax, gradient"
          : "head output, fp32 upcast, log-softmax, gradient",
      !p->pp_head || p->pp_stage != 2 ? ""
      : t->loss == LOSS_TITAN_CHUNKED
          ? "; every micro-batch's final-norm output kept to the step's end (PyTorch pipelining "
            "output_chunks)"
          : "; every micro-batch's head output kept to the step's end (PyTorch pipelining output_chunks)");
  bool step_now = t->oib ? phase == 1 : phase == 2;
  budget_add(b, "optimizer_step", step_now ? p->step_temp : 0, BASIS_MODELLED, true, "temporaries of %s's step()",
             s->opt.name);
  uint64_t comm = load || (p->pp_params && phase == 2) ? 0 : p->comm;
  if (phase == 1 && !t->oib) comm = acc_add(&c->acc, comm, p->comm_bwd);
  if (kept && !load) comm = acc_add(&c->acc, comm, p->fwd_kept);
  char keep_note[128] = "";
  if (kept && p->fwd_kept && t->fsdp_keep)
    snprintf(keep_note, sizeof keep_note,
             "; every unit gathered from its forward to its backward (SHARD_GRAD_OP: %s)",
             phase == 0 ? "the whole model at the loss" : "backward's start");
  else if (kept && p->fwd_kept)
    snprintf(keep_note, sizeof keep_note,
             "; each unit's post-forward shard over %llu ranks (reshard_after_forward)",
             (unsigned long long)t->raf_mesh);
  budget_add(b, "comm_buffers", load ? 0 : acc_add(&c->acc, comm, p->pp_recv), BASIS_MODELLED, true, "%s%s%s%s",
             p->pp_recv && !p->comm ? ""
             : p->comm_bwd ? "DeepSpeed's gradient buckets without contiguous_gradients: up to two buckets of .grad tensors, or the trainable set and its flattened copy (backward)"
             : t->strategy == STRAT_DDP ? "DDP gradient buckets"
             : p->pp_params ? "the pipeline stage's parameters, all-gathered for the whole step (FSDP under pipelining)"
             /* ZeRO-1/2 gather no parameters: the row is DeepSpeed's reduce bucket alone */
             : p->ds_bucket && !p->gathered ? "DeepSpeed's gradient reduce bucket (reduce_bucket_size elements)"
             : p->ds_bucket ? "all-gathered unit and the prefetched next, and DeepSpeed's gradient reduce bucket"
             : t->strategy == STRAT_FSDP && t->fsdp_no_shard ? "none: NO_SHARD keeps every parameter whole and all-reduces the flat gradients in place"
                            : "all-gathered unit and the prefetched next",
             p->pp_recv && p->comm ? "; " : "", p->pp_recv ? "the stage's receive buffer per micro-batch (PyTorch pipelining)" : "",
             keep_note);
  c->e->peak_phase = PHASES[phase];
}

/* Bytes of gradients that live in a side stream's pool of the caching allocator: FSDP
** reduce-scatters each unit's gradient on its post-backward stream and allocates the
** sharded gradient there (FSDP1 _reduce_grad: new_sharded_grad = torch.empty_like(chunk)
** under state._post_backward_stream, torch/distributed/fsdp/_runtime_utils.py; FSDP2
** foreach_reduce allocates reduce_output on the reduce-scatter stream). zero_grad frees
** them into that stream's pool, and the allocator serves a request only from blocks of
** the requesting stream (c10/cuda/CUDACachingAllocator.cpp get_free_block), so the next
** forward's activations cannot reuse them: they stay reserved through the phases in
** which the gradients are freed. */
static uint64_t grad_stream_pool(ectx *c, const train_cfg *t, const train_parts *p) {
  /* NO_SHARD all-reduces the flat gradient in place (_reduce_grad_no_shard): no new tensor */
  return t->strategy == STRAT_FSDP && shard_ranks(c, t) > 1 && !t->oib && !t->off_opt && !t->off_par
             ? p->grads
             : 0;
}

/* Reserved bytes of FSDP1's unshard stream beyond the unsharded units alive at the peak: the
** unit freed last, not yet reusable. The unsharded flat parameter is allocated under
** state._unshard_stream (_runtime_utils.py _unshard: handle.unshard() in that stream's
** context), so its block belongs to that stream's pool; reshard frees it with
** record_stream(current_stream) first (_flat_param.py _free_unsharded_flat_param), so the
** allocator reuses it only once the compute stream has passed the free (process_events).
** The rate limiter (limit_all_gathers, on by default; _limiter_utils.py _FreeEventQueue,
** _max_num_inflight_all_gathers = 2) synchronizes the oldest free event only when two are
** queued, so the next all-gather can reuse the unit freed two reshards back but not the one
** freed last: with the gathered unit and the prefetched next (p->gathered) that pool grows to
** three units, one more than the peak holds, and the compute stream cannot use it. One
** segment (get_allocation_size: a request above 10 MiB is rounded to 2 MiB). FSDP2
** (fully_shard: torchtitan, torchtune from 0.3) frees its all-gather outputs without
** record_stream, so only t->fsdp1 runs count it (fsdp1_pools). */

/* FSDP1's pre-unshard stream (state._pre_unshard_stream, "allocations and writes for CPU
** offloading (H2D copy) and mixed precision (low precision cast)", _runtime_utils.py
** _init_streams): handle.pre_unshard() runs in its context (_unshard), so with
** CPUOffload(offload_params=True) the shard's H2D copy (flat_param_to(device,
** non_blocking=True)) and under a MixedPrecision param_dtype the low-precision shard
** (_use_low_precision_shard: _alloc_storage(_mp_shard, ...)) are blocks of that stream's
** pool. Each lives only until its all-gather has been issued, and no other stream can reuse
** its block: one shard of a unit in the gathered dtype stays reserved, never counted in
** the allocated peak. With both offload and MixedPrecision the full-precision H2D copy
** beside the cast is not counted (fsdp1_pools). */

/* FSDP1's side-stream pools beyond what the peak allocates, sharded FSDP1 runs only: the
** unshard stream's pending unit (one unsharded unit), and with CPU offload or a MixedPrecision
** param_dtype the pre-unshard stream's shard (one unit / shard ranks). */
static uint64_t fsdp1_pools(ectx *c, const train_cfg *t, const train_parts *p) {
  if (!t->fsdp1 || !p->unshard_unit || shard_ranks(c, t) <= 1 || p->pp_params) return 0;
  uint64_t pending = estimate_round_alloc(p->unshard_unit);
  if (!t->off_par && !fsdp_mixed(c, t)) return pending;
  return acc_add(&c->acc, pending, estimate_round_alloc(bytes_ceildiv(p->unshard_unit, shard_ranks(c, t))));
}

/* Allocated bytes of each phase (forward, backward, optimizer step) and their transients. */
static void train_phases(ectx *c, const train_cfg *t, const train_parts *p, uint64_t ph[3], uint64_t tr[3]) {
  bytes_acc *A = &c->acc;
  uint64_t base = acc_add(A, acc_add(A, p->weights, p->adapters), acc_add(A, p->master, acc_add(A, p->states, p->comm)));
  base = acc_add(A, acc_add(A, base, p->aux), acc_add(A, p->fp8_meta, p->pp_recv));
  uint64_t g_fwd = grads_fwd(c, t, p), g_bwd = grads_bwd(p), base_step = base;
  if (p->pp_stage && p->pp_params) base_step -= p->comm; /* FSDP resharded after the last backward */
  uint64_t fwd = acc_add(A, p->act, p->logits);
  tr[0] = fwd > t->encode ? fwd : t->encode;
  tr[1] = acc_add(A, acc_add(A, p->act_layer, t->oib ? p->step_temp : 0), p->pp_logits_bwd);
  if (!t->oib) tr[1] = acc_add(A, tr[1], p->comm_bwd);
  tr[2] = acc_add(A, t->oib ? 0 : p->step_temp, p->pp_logits_step);
  /* FSDP units held from forward to backward (fsdp_fwd_kept): all of them at the loss */
  ph[0] = acc_add(A, acc_add(A, base, p->fwd_kept), acc_add(A, g_fwd, tr[0]));
  ph[1] =
      acc_add(A, base, acc_add(A, fsdp_bwd_start(c, t, p) ? acc_add(A, p->fwd_kept, g_fwd) : g_bwd, tr[1]));
  ph[2] = acc_add(A, base_step, acc_add(A, p->grads, tr[2]));
}

/* Pipeline parallelism (pp > 1) under a 1F1B schedule, the only one modelled (PyTorch's
** Schedule1F1B, torchtitan's default pipeline_parallel_schedule at 9dec370; Megatron's and
** DeepSpeed's TrainSchedule run the same): stage s runs min(pp - s, n) forwards before its
** first backward (torch/distributed/pipelining/schedules.py Schedule1F1B: warmup
** min(n_microbatches, num_stages - stage_index)), n = grad_accum micro-batches per step.
** The first stage therefore holds pp micro-batches' saved activations (layer inputs under
** full checkpointing) and one layer being recomputed, but no logits; the last stage holds
** one micro-batch, the logits and, with PyTorch's schedules, every micro-batch's head
** output (output_chunks). Middle stages hold fewer micro-batches than the first and no
** logits. Each stage's phases, with its gradients (complete after its first backward):
** - first stage, forward: k = min(pp, n) micro-batches in flight and the layer its first
**   backward recomputes, no gradient yet (zero_grad set them to None);
** - first stage, backward: the gradients beside the micro-batches still in flight once they
**   are complete: k when n > k (a forward refills the pipeline before each backward), else
**   k - 1, and the layer being recomputed with its backward's transients;
** - last stage: the one-micro-batch forward and backward of pp = 1 (activations and logits,
**   the recomputed layer beside them as there), with the gradients of earlier micro-batches
**   and the other micro-batches' head outputs.
** PyTorch's stages also keep a receive buffer per micro-batch from the first step on
** (stage.py _prepare_forward_infra: args_recv_info[chunk] for every chunk on all but the
** first stage; _prepare_backward_infra: grad_recv_info[chunk] on all but the last, each
** _make_tensor_from_meta): the first stage n gradient buffers of its output, the last stage
** n input buffers, one of them the in-flight micro-batch's first layer input; the second
** stage, one micro-batch fewer in flight than the first, both (its in-flight micro-batches'
** first layer inputs among them), which makes it the heaviest once grad_accum exceeds pp by
** more than the layers of a stage under full checkpointing.
** Each compared stage holds its own layers' share of the model (pp_stage_layers: how the
** runtime splits them) and its own parameters: its weights, gradients, master copy and
** optimizer states (train_model_states for that stage: the embeddings on the first stage, the
** final norm and head on the last, a tied head's copy of the embedding there too), and under
** FSDP its gathered parameters and unsharded gradients; the stage whose peak allocation is
** the largest is reported, and the weights and activations lines name it. */
/* One compared stage's activations, gradients and buffers (kind 1 first, 2 last, 3 second),
** its model states already its own (train_model_states): the kept set of its own layers in
** place of ceil(L / pp) layers' (pp_stage_layers), then the 1F1B occupancy above. */
static void pp_stage_fill(ectx *c, const train_cfg *t, train_parts *p, int kind) {
  const scenario *s = c->s;
  bytes_acc *A = &c->acc;
  uint64_t n = s->grad_accum ? s->grad_accum : 1;
  uint64_t keep = t->keep_grads && !t->oib ? p->grads : 0;  /* what zero_grad leaves */
  uint64_t grads = p->pp_grads ? p->pp_grads : p->grads;   /* live once a backward ran */
  bool torch_pp = strcmp(s->runtime, "pytorch") == 0;
  uint64_t work = 0, layers = p->pp_own ? p->pp_layers : bytes_ceildiv(model_layers(c), s->pp);
  uint64_t kept = kept_activations(c, t, p->pp_per_layer, p->pp_input, layers, &work);
  /* kept >= work and pp_saved >= pp_kept - work, act >= pp_kept: no underflow */
  uint64_t saved = acc_add(A, p->pp_saved, kept) - p->pp_kept, act = acc_add(A, p->act, kept) - p->pp_kept;
  p->pp_stage = kind, p->pp_g1 = grads;
  if (kind == 2) { /* last stage */
    p->pp_recv = torch_pp ? acc_mul(A, p->pp_out, n - 1) : 0;
    p->pp_g0 = n > 1 ? grads : keep;
    p->act = act, p->logits = acc_add(A, p->logits, acc_mul(A, p->pp_head, n - 1));
    p->pp_logits_bwd = p->pp_logits_step = acc_mul(A, p->pp_head, n);
    p->pp_inflight = 1;
    return;
  }
  /* the first stage holds k micro-batches, the second (PyTorch's receive buffers both ways,
  ** each in-flight micro-batch's first layer input being its receive buffer) one fewer */
  uint64_t k = kind == 1 ? (s->pp < n ? s->pp : n) : (s->pp - 1 < n ? s->pp - 1 : n), kb = n > k ? k : k - 1;
  uint64_t own = kind == 1 ? saved : saved > p->pp_out ? saved - p->pp_out : 0;
  p->pp_recv = !torch_pp ? 0 : kind == 1 ? acc_mul(A, p->pp_out, n) : acc_mul3(A, p->pp_out, n, 2);
  p->act = acc_add(A, acc_mul(A, own, k), p->pp_work);
  p->act_layer = acc_add(A, acc_mul(A, own, kb), p->act_layer);
  p->logits = 0, p->pp_g0 = keep, p->pp_logits_bwd = p->pp_logits_step = 0;
  p->pp_inflight = k;
}

static void pp_stages(ectx *c, const train_cfg *t, train_parts *p) {
  const scenario *s = c->s;
  bool torch_pp = strcmp(s->runtime, "pytorch") == 0;
  static const int kinds[3] = {1, 2, 3};
  uint64_t stage[3] = {0, s->pp - 1, 1};
  train_parts best = *p;
  uint64_t best_peak = 0;
  for (int i = 0; i < 3; i++) {
    if (kinds[i] == 3 && !(torch_pp && s->pp > 2)) continue;
    train_parts q = *p;
    train_model_states(c, t, &q, (int64_t)stage[i]);
    pp_stage_fill(c, t, &q, kinds[i]);
    uint64_t ph[3], tr[3], peak = 0;
    train_phases(c, t, &q, ph, tr);
    for (int j = 0; j < 3; j++)
      if (ph[j] > peak) peak = ph[j];
    if (i == 0 || peak > best_peak) best = q, best_peak = peak;
  }
  *p = best;
}

/* A script that empties the cache between the VAE encode and the forward, and nowhere else
** (SAT's shared_step: encode_first_stage, gc.collect(), torch.cuda.empty_cache(), then the
** loss; THUDM/CogVideo sat/diffusion_video.py lines 144-150 at 6d7f6e86), returns the encode's
** segments to the driver but keeps the forward's, backward's and step's: the caching
** allocator frees cached blocks only on empty_cache or an OOM retry (release_cached_blocks),
** so they are still reserved when the next step encodes. The encode's full-resolution
** tensors (GiB each) cannot be carved from them and take new segments (and the other way
** round when the training step is the larger: the encode's are gone by then, but the step's
** from before are not). Reserved beyond the peak phase's allocation: the other side's
** transient bytes with their fragmentation share, as that phase alone would reserve them. */
static uint64_t step_cache(ectx *c, const train_cfg *t, const train_parts *p, const uint64_t tr[3], int peak) {
  if (!t->encode_after_step) return 0;
  uint64_t fwd = acc_add(&c->acc, p->act, p->logits), step = fwd;
  for (int i = 1; i < 3; i++)
    if (tr[i] > step) step = tr[i];
  bool enc_peak = peak == 0 && t->encode > fwd;
  uint64_t other = enc_peak ? step : t->encode;
  return acc_add(&c->acc, other, acc_from_double(&c->acc, (double)other * t->frag));
}

/* The phases of train_peak, ph and tr as train_phases fills them. */
static int train_peak_phases(ectx *c, const train_cfg *t, const train_parts *p, uint64_t *transient,
                             uint64_t *pooled, uint64_t ph[3], uint64_t tr[3]) {
  bytes_acc *A = &c->acc;
  train_phases(c, t, p, ph, tr);
  uint64_t g_fwd = grads_fwd(c, t, p);
  int peak = 0;
  for (int i = 1; i < 3; i++)
    if (ph[i] > ph[peak]) peak = i;
  *transient = tr[peak];
  uint64_t pool = g_fwd ? 0 : grad_stream_pool(c, t, p), fwd_res = acc_add(A, ph[0], pool);
  /* a backward peaking at its start (fsdp_bwd_start) has no gradient yet either */
  if (pool && fsdp_bwd_start(c, t, p) && ph[1] > ph[0]) fwd_res = acc_add(A, ph[1], pool);
  if (p->pp_params) {
    /* FSDP under pipelining holds no sharded gradient before the step: the pool they were
    ** freed into stays reserved through forward and backward */
    pool = grad_stream_pool(c, t, p);
    fwd_res = acc_add(A, ph[0] > ph[1] ? ph[0] : ph[1], pool);
  }
  *pooled = fwd_res > ph[peak] ? fwd_res - ph[peak] : 0;
  /* model load: the weights as loaded so far and the tensor being quantized */
  uint64_t load = acc_add(A, acc_add(A, p->weights, p->adapters), acc_add(A, p->aux, t->load));
  if (t->load && load > ph[peak]) {
    *transient = t->load;
    *pooled = 0;
    return PH_LOAD;
  }
  return peak;
}

/* Allocated bytes of each phase; returns the peak phase and its transient bytes. *pooled:
** reserved bytes beyond the peak phase's allocation that a phase without live gradients
** keeps in the gradients' stream pool (grad_stream_pool), at the worst phase, and the cache
** a SAT step leaves under the next encode (step_cache). */
static int train_peak(ectx *c, const train_cfg *t, const train_parts *p, uint64_t *transient, uint64_t *pooled) {
  uint64_t ph[3], tr[3];
  int peak = train_peak_phases(c, t, p, transient, pooled, ph, tr);
  if (peak != PH_LOAD) *pooled = acc_add(&c->acc, *pooled, step_cache(c, t, p, tr, peak));
  return peak;
}

/* allocator_slack: PyTorch's caching allocator rounds each weight tensor (512 B blocks,
** 2 MiB segments above 1 MiB) and keeps freed activation blocks it cannot reuse. */
/* Rounding of the weights the rank holds whole (pipelines round per component), and the
** training fragmentation share t->frag (cited in scripts/workloads/train.lua). */
/* Trainable bytes of a phase held in PyTorch's small pool (tensors of at most 1 MiB, 2 MiB
** segments; t->small_frac from scripts/workloads/train.lua): adapters, states, live
** gradients and the step's temporaries, as train_budget counts them. */
static uint64_t small_pool(ectx *c, const train_cfg *t, const train_parts *p, int phase) {
  if (t->small_frac <= 0.0) return 0;
  bool load = phase == PH_LOAD;
  bool grads_live = !load && (phase > 0 || ((c->s->grad_accum > 1 || t->keep_grads) && !t->oib));
  bool step_now = t->oib ? phase == 1 : phase == 2;
  uint64_t b = p->adapters;
  if (!load) b = acc_add(&c->acc, b, p->states);
  if (grads_live) b = acc_add(&c->acc, b, p->grads);
  if (step_now) b = acc_add(&c->acc, b, p->step_temp);
  return acc_from_double(&c->acc, (double)b * (t->small_frac > 1.0 ? 1.0 : t->small_frac));
}

/* Reserved beyond the peak phase's allocation that PyTorch's two pools explain: the
** small pool keeps the segments its largest phase grew (the step: gradients, states,
** temporaries) while another phase peaks in the large pool, which cannot reuse them; and
** with an encoder pool the large pool never shrinks below the dropped encoders' cached
** segments (train_gen.lua encoders_cached). alloc: the peak phase's allocated bytes;
** slack: the reserved bytes already counted beyond it. */
static uint64_t pool_extra(ectx *c, const train_cfg *t, const train_parts *p, int peak, uint64_t alloc,
                           uint64_t slack) {
  uint64_t at = small_pool(c, t, p, peak), most = at;
  for (int ph = 0; ph < 3; ph++) {
    uint64_t s = small_pool(c, t, p, ph);
    if (s > most) most = s;
  }
  uint64_t extra = most - at;
  uint64_t large = acc_add(&c->acc, alloc > at ? alloc - at : 0, slack);
  if (p->pool > large) extra = acc_add(&c->acc, extra, p->pool - large);
  return extra;
}

/* Reserved beyond the peak's allocation under PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
** (c10/cuda/CUDACachingAllocator.cpp, Note [Expandable Segments]; pytorch/pytorch#96995,
** first released in 2.1; read at 001074d2). alloc_block then calls
** try_allocate_expandable_block with the request's own size (round_size: 512 B), not
** get_allocation_size's 2 MiB / 20 MiB segment: each stream's large pool is one segment
** whose physical pages (kLargeBuffer, 20 MiB; the small pool 2 MiB) are mapped at its
** lowest free address, extending a free block at its end; should_split splits any block
** leaving at least kMinBlockSize, and free_block merges a freed block with free
** neighbours. So neither the weights' per-tensor rounding (estimate_round_alloc) nor the
** transient share t->frag (blocks of one phase's segments that the next phase's sizes
** cannot reuse) applies: the large pool's reserved peak is its allocated peak rounded to
** a 20 MiB page. What stays: the pools remain per stream and per size class
** (find_expandable_block keys on stream and pool), and a freed page stays mapped until
** empty_cache or an OOM retry (release_cached_blocks -> unmap_block), so the gradients'
** stream pool (pooled) and PyTorch's small pool / cached encoders (pool_extra) keep their
** bytes. Holes left below the segment's top by a freed block that no later request fits
** are not modelled. */
static void train_slack_expandable(ectx *c, const train_cfg *t, const train_parts *p, uint64_t pooled, int peak) {
  pooled = acc_add(&c->acc, pooled, fsdp1_pools(c, t, p)); /* FSDP1's unshard streams' own pools */
  uint64_t kept = acc_add(&c->acc, pooled, pool_extra(c, t, p, peak, budget_total(&c->e->b, true), pooled));
  est_add_slack_expandable_kept(c, &c->e->b, kept,
                                "caching allocator with expandable segments: the peak rounded to 20 MiB pages, the "
                                "gradients' stream pool and the small pool's pages (no per-tensor rounding, no "
                                "transient share)");
}

static void train_slack(ectx *c, const train_cfg *t, const train_parts *p, uint64_t transient, uint64_t pooled,
                        int peak) {
  if (t->expandable) {
    train_slack_expandable(c, t, p, pooled, peak);
    return;
  }
  /* gradients' stream pool (grad_stream_pool) and FSDP1's unshard streams (fsdp1_pools) */
  uint64_t rounding = acc_add(&c->acc, pooled, fsdp1_pools(c, t, p));
  if (t->pipeline)
    rounding = acc_add(&c->acc, rounding, acc_add(&c->acc, p->weights == p->weights_full ? p->den_rounding : 0, p->aux_rounding));
  else if (p->weights == p->weights_full && p->weights) {
    /* under expert parallelism the rank holds 1 / ep of the experts: the whole model's
    ** per-tensor rounding in proportion to the bytes it keeps */
    uint64_t r = est_weight_rounding(c, p->ep_whole ? p->ep_whole : p->weights);
    if (p->ep_whole && !bytes_muldiv(r, p->weights, p->ep_whole, &r)) c->acc.overflow = true;
    rounding = acc_add(&c->acc, rounding, r);
  }
  uint64_t slack = acc_add(&c->acc, rounding, acc_from_double(&c->acc, (double)transient * t->frag));
  rounding = acc_add(&c->acc, rounding, pool_extra(c, t, p, peak, budget_total(&c->e->b, true), slack));
  est_add_slack(c, &c->e->b, rounding, transient, t->frag, BASIS_CALIBRATED);
}

void train_run(ectx *c, const train_cfg *t) {
  train_parts p;
  memset(&p, 0, sizeof p);
  train_model_states(c, t, &p, -1);
  train_activations(c, t, &p);
  if (c->s->pp > 1 && !t->act_elems) pp_stages(c, t, &p);
  uint64_t transient = 0, pooled = 0;
  int peak = train_peak(c, t, &p, &transient, &pooled);
  c->e->trainable_params = t->trainable;
  train_budget(c, t, &p, peak);
  est_add_common(c, &c->e->b);
  train_slack(c, t, &p, transient, pooled, peak);
  est_finish(c, &c->e->b);
}

void train_estimate(ectx *c, train_cfg *t) {
  train_read_cfg(c->s, c->e->params, t);
  if (t->overflow) c->acc.overflow = true;
  train_run(c, t);
}

void train_pytorch(ectx *c) {
  train_cfg t;
  train_estimate(c, &t);
}
