/*
** train_ds.c: DeepSpeed and torchtune as training runtimes. DeepSpeed: 16-bit weights and
** gradients beside an fp32 master copy (workloads/train.lua), ZeRO stage from
** parallel.strategy or runtime.zero_stage, ZeRO-Offload; the report also carries
** DeepSpeed's own model-state estimate, reproduced from its estimator functions.
** torchtune: pure bf16 recipes (no master copy), chunked CE, optimizer in backward.
** Uses train.c (train_int.h).
*/
#include "train_int.h"

/* deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs:
** offload: gpu 2P, cpu P * max(4 * gpus, 16) * factor; else gpu 4P + int(16P / gpus),
** cpu P * 4 * gpus_per_node * factor. Python float arithmetic, mirrored in order. */
ds_estimate train_ds_zero2(uint64_t params, uint64_t gpus_per_node, uint64_t nodes, bool cpu_offload,
                           double buffer_factor) {
  ds_estimate d = {0, 0, 0};
  uint64_t gpus = gpus_per_node * nodes;
  if (gpus == 0) return d;
  if (cpu_offload) {
    d.gpu = 2 * params;
    d.cpu = (uint64_t)((double)(params * (4 * gpus > 16 ? 4 * gpus : 16)) * buffer_factor);
  } else {
    d.gpu = 4 * params + (uint64_t)((double)(16 * params) / (double)gpus);
    d.cpu = (uint64_t)((double)(params * 4 * gpus_per_node) * buffer_factor);
  }
  return d;
}

static uint64_t ds_cpu(uint64_t params, double per_param, double buffer_factor) {
  return (uint64_t)((double)params * per_param * buffer_factor);
}

/* deepspeed/runtime/zero/stage3.py estimate_zero3_model_states_mem_needs: the largest
** layer gathered in fp32 (4 x its parameters) plus, without offload, 18P / gpus;
** offloading the optimizer leaves 2P / gpus of fp16 parameters on the GPU. */
ds_estimate train_ds_zero3(uint64_t params, uint64_t largest_layer_params, uint64_t gpus_per_node,
                           uint64_t nodes, bool cpu_offload, bool cpu_offload_params, bool zero_init,
                           double buffer_factor) {
  ds_estimate d = {0, 0, 4 * largest_layer_params};
  uint64_t gpus = gpus_per_node * nodes;
  if (gpus == 0) return d;
  double gf = 1.0 / (double)nodes, g4 = (double)(4 * gpus_per_node);
  if (cpu_offload && cpu_offload_params) {
    d.gpu = d.largest_layer;
    d.cpu = ds_cpu(params, zero_init ? 18 * gf : (g4 > 18 * gf ? g4 : 18 * gf), buffer_factor);
  } else if (cpu_offload) {
    d.gpu = d.largest_layer + (uint64_t)((double)(2 * params) / (double)gpus);
    d.cpu = ds_cpu(params, zero_init ? 16 * gf : (g4 > 16 * gf ? g4 : 16 * gf), buffer_factor);
  } else {
    d.gpu = d.largest_layer + (uint64_t)((double)(18 * params) / (double)gpus);
    d.cpu = zero_init ? ds_cpu(largest_layer_params, g4, buffer_factor) : ds_cpu(params, g4, buffer_factor);
  }
  return d;
}

/* The largest tensor of the inventory, standing for DeepSpeed's largest_layer_params
** (the parameters one module holds directly; the embedding for most LLMs). */
static uint64_t largest_tensor(const model_desc *m) {
  uint64_t best = 0, n = 0;
  for (size_t i = 0; i < m->inv.n; i++)
    if (inv_tensor_elements(&m->inv.t[i], &n) && n > best) best = n;
  return best;
}

void train_deepspeed(ectx *c) {
  train_cfg t;
  train_read_cfg(c->s, c->e->params, &t);
  if (t.overflow) c->acc.overflow = true;
  train_run(c, &t);
  uint64_t P = c->e->params, gpus = c->s->dp * c->s->tp * c->s->pp;
  ds_estimate d = {0, 0, 0};
  if (t.strategy == STRAT_ZERO3)
    d = train_ds_zero3(P, largest_tensor(c->m), gpus, 1, t.off_opt, t.off_par, true, 1.5);
  else if (t.strategy == STRAT_ZERO1 || t.strategy == STRAT_ZERO2)
    d = train_ds_zero2(P, gpus, 1, t.off_opt, 1.5);
  else
    return;
  est_fig(c, "deepspeed_estimate_gpu_bytes", d.gpu);
  est_fig(c, "deepspeed_estimate_cpu_bytes", d.cpu);
}

void train_torchtune(ectx *c) {
  train_cfg t;
  train_read_cfg(c->s, c->e->params, &t);
  if (t.overflow) c->acc.overflow = true;
  train_run(c, &t);
}
