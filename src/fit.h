/*
** fit.h: a scenario against one GPU: does it fit with headroom, the smallest GPU
** count where the strategy splits the work (tensor parallel for inference, FSDP/ZeRO
** data parallel for training), and how far it can be pushed, by monotone search.
*/
#ifndef VF_FIT_H
#define VF_FIT_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"
#include "estimate.h"
#include "model.h"

typedef struct fit_row {
  gpu g;
  uint64_t usable;          /* memory x (1 - headroom) */
  bool fits;
  uint64_t count;           /* 0: does not fit up to FIT_MAX_COUNT */
  uint64_t total;           /* per device at the scenario's layout */
  double used_fraction;
  uint64_t max_concurrency, max_context, max_micro_batch, max_seq_len;
  uint64_t max_width, max_height, max_frames; /* image/video, in the least offload that fits */
  char layout[48];          /* how the count is reached: "tp=2", "fsdp dp=4" */
  char launch[256];         /* inference: the runtime's flags that realise the workload at that
                            ** count ("--tensor-parallel-size 2 --max-model-len 32768 ..."), or "" */
} fit_row;

#define FIT_MAX_COUNT 1024
/* GPUs llama.cpp's layout is worked out over (rt_llamacpp.c) and --fit's layout read back (fit.c) */
#define LC_MAX_GPU 16

/* The scenario as it runs on g: the device facts that depend on the GPU (CUDA
** context, cuBLAS workspace) filled in unless the scenario set them. */
void fit_device_scenario(const scenario *s, const gpu *g, scenario *out);
/* 0 on success, -1 with err on an estimate error at the scenario's own layout. */
int fit_gpu(const model_desc *m, const scenario *s, const gpu *g, fit_row *row, char *err, size_t errlen);
/* The same for an estimate e already made on s, the scenario as it runs on g
** (fit_device_scenario): no second estimate. */
int fit_gpu_from(const model_desc *m, const scenario *s, const estimate *e, const gpu *g, fit_row *row, char *err,
                 size_t errlen);
/* The bytes of g a workload may use (memory less the headroom), and whether an estimate
** fits in them: what it requires (estimate.required), not what the runtime grabs. */
uint64_t fit_usable(const scenario *s, const gpu *g);
/* the same for `memory` bytes (llama.cpp's --fit: the memory less its margin) */
uint64_t fit_usable_bytes(const scenario *s, uint64_t memory);
/* the margin llama.cpp's --fit keeps free on each GPU when it sizes the run, else 0 */
uint64_t fit_margin_bytes(const scenario *s);
bool fit_verdict(const estimate *e, const scenario *s, const gpu *g);

#endif
