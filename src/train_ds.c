/*
** train_ds.c: DeepSpeed and torchtune as training runtimes. DeepSpeed: 16-bit weights and
** gradients beside an fp32 master copy (workloads/train.lua), ZeRO stage from
** parallel.strategy or runtime.zero_stage, ZeRO-Offload; the report also carries
** DeepSpeed's own model-state estimate, reproduced from its estimator functions.
** torchtune: pure bf16 recipes (no master copy), chunked CE, optimizer in backward.
** Uses train.c (train_int.h).
*/
#include "train_int.h"

/* Python's int(x) of a float: truncates (acc_from_double rounds to nearest, which is
** not what DeepSpeed prints); a figure at or past 2^64 sets the flag. */
static uint64_t ds_int(bytes_acc *A, double v) {
  if (!(v >= 0.0) || !(v < 18446744073709551616.0)) {
    A->overflow = true;
    return 0;
  }
  return (uint64_t)v;
}

/* deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs:
** offload: gpu 2P, cpu P * max(4 * gpus, 16) * factor; else gpu 4P + int(16P / gpus),
** cpu P * 4 * gpus_per_node * factor. Python float arithmetic, mirrored in order. */
ds_estimate train_ds_zero2(uint64_t params, uint64_t gpus_per_node, uint64_t nodes, bool cpu_offload,
                           double buffer_factor) {
  ds_estimate d = {0, 0, 0, false};
  bytes_acc A = {0, false};
  uint64_t gpus = acc_mul(&A, gpus_per_node, nodes);
  if (gpus == 0) return d;
  if (cpu_offload) {
    uint64_t per = acc_mul(&A, 4, gpus);
    d.gpu = acc_mul(&A, 2, params);
    d.cpu = ds_int(&A, (double)acc_mul(&A, params, per > 16 ? per : 16) * buffer_factor);
  } else {
    d.gpu = acc_add(&A, acc_mul(&A, 4, params), ds_int(&A, (double)acc_mul(&A, 16, params) / (double)gpus));
    d.cpu = ds_int(&A, (double)acc_mul3(&A, params, 4, gpus_per_node) * buffer_factor);
  }
  d.overflow = A.overflow;
  return d;
}

static uint64_t ds_cpu(bytes_acc *A, uint64_t params, double per_param, double buffer_factor) {
  return ds_int(A, (double)params * per_param * buffer_factor);
}

/* deepspeed/runtime/zero/stage3.py estimate_zero3_model_states_mem_needs: the largest
** layer gathered in fp32 (4 x its parameters) plus, without offload, 18P / gpus;
** offloading the optimizer leaves 2P / gpus of fp16 parameters on the GPU. */
ds_estimate train_ds_zero3(uint64_t params, uint64_t largest_layer_params, uint64_t gpus_per_node,
                           uint64_t nodes, bool cpu_offload, bool cpu_offload_params, bool zero_init,
                           double buffer_factor) {
  bytes_acc A = {0, false};
  ds_estimate d = {0, 0, acc_mul(&A, 4, largest_layer_params), false};
  uint64_t gpus = acc_mul(&A, gpus_per_node, nodes);
  if (gpus == 0) return d;
  double gf = 1.0 / (double)nodes, g4 = (double)acc_mul(&A, 4, gpus_per_node);
  if (cpu_offload && cpu_offload_params) {
    d.gpu = d.largest_layer;
    d.cpu = ds_cpu(&A, params, zero_init ? 18 * gf : (g4 > 18 * gf ? g4 : 18 * gf), buffer_factor);
  } else if (cpu_offload) {
    d.gpu = acc_add(&A, d.largest_layer, ds_int(&A, (double)acc_mul(&A, 2, params) / (double)gpus));
    d.cpu = ds_cpu(&A, params, zero_init ? 16 * gf : (g4 > 16 * gf ? g4 : 16 * gf), buffer_factor);
  } else {
    d.gpu = acc_add(&A, d.largest_layer, ds_int(&A, (double)acc_mul(&A, 18, params) / (double)gpus));
    d.cpu = ds_cpu(&A, zero_init ? largest_layer_params : params, g4, buffer_factor);
  }
  d.overflow = A.overflow;
  return d;
}

/* The largest tensor of the inventory, standing for DeepSpeed's largest_layer_params
** (the parameters one module holds directly; the embedding for most LLMs). */
static uint64_t largest_tensor(const model_desc *m) {
  uint64_t best = 0, n = 0;
  for (size_t i = 0; i < m->inv.n; i++) /* parameters only: the estimators walk module.parameters() */
    if (!m->inv.t[i].buffer && inv_tensor_elements(&m->inv.t[i], &n) && n > best) best = n;
  return best;
}

void train_deepspeed(ectx *c) {
  train_cfg t;
  train_estimate(c, &t);
  uint64_t P = c->e->params, gpus = acc_mul3(&c->acc, c->s->dp, c->s->tp, c->s->pp);
  /* the estimators' num_gpus_per_node and num_nodes (runtime.gpus_per_node, checked to
  ** divide the run's GPUs by scripts/runtimes/deepspeed.lua) and zero_init (ZeRO-3: the
  ** model built under deepspeed.zero.Init, as transformers' from_pretrained does) */
  uint64_t per_node = scn_u64(c->s, "runtime.gpus_per_node", 0);
  if (per_node == 0 || gpus % per_node != 0) per_node = gpus;
  uint64_t nodes = per_node ? gpus / per_node : 1;
  bool zero_init = scn_bool(c->s, "runtime.zero_init", true);
  ds_estimate d = {0, 0, 0, false};
  if (t.strategy == STRAT_ZERO3)
    d = train_ds_zero3(P, largest_tensor(c->m), per_node, nodes, t.off_opt, t.off_par, zero_init, 1.5);
  else if (t.strategy == STRAT_ZERO1 || t.strategy == STRAT_ZERO2)
    d = train_ds_zero2(P, per_node, nodes, t.off_opt, 1.5);
  else
    return;
  if (d.overflow) c->acc.overflow = true;
  est_fig(c, "deepspeed_estimate_gpu_bytes", d.gpu);
  est_fig(c, "deepspeed_estimate_cpu_bytes", d.cpu);
}

/* torchtune's difference lies in its scenario (workloads/train.lua: pure bf16, chunked
** CE, optimizer in backward): the estimate is PyTorch's. */
void train_torchtune(ectx *c) {
  train_pytorch(c);
}
