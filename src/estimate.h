/*
** estimate.h: one scenario on one device: the budget per rank, the phase that makes
** the peak, peak allocated / reserved (PyTorch's caching allocator) and what
** nvidia-smi would show. Pure C over model.h's structs.
*/
#ifndef VF_ESTIMATE_H
#define VF_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "model.h"

/* A figure the runtime itself prints (vLLM's num_gpu_blocks, llama.cpp's KV buffer),
** reported in the JSON report's "runtime" object. name is static. */
typedef struct est_figure {
  const char *name;
  uint64_t value;
  double real;
  bool is_real;
} est_figure;

/* Room for every runtime figure of one estimate. llama.cpp's is the largest: four per GPU
** (gpu_buffers_bytes_<g>, gpu_kv_/model_/compute_buffer_bytes_<g>), two more with split_mode row
** (gpu_split_buffer_bytes_<g>, gpu_split_rows_bytes_<g>) and four more from --fit's layout
** (fit_auto_*_<g>), 16 GPUs at most (LC_MAX_GPU): 160, beside some 40 others.
** est_fig fails the estimate rather than drop a figure past it. */
#define EST_MAX_FIGS 256

typedef struct estimate {
  budget b;                  /* per device (rank) */
  uint64_t devices;          /* ranks the scenario runs on: tp x pp x dp */
  uint64_t params;           /* whole model, every stored parameter */
  uint64_t weight_bytes;     /* whole model, in the chosen format */
  uint64_t trainable_params;
  uint64_t kv_bytes_per_token; /* whole model, full-attention layers at every token */
  uint64_t peak_allocated;   /* per device */
  uint64_t peak_reserved;    /* per device */
  uint64_t total;            /* per device, as nvidia-smi shows it */
  uint64_t required;         /* what the workload needs on a device, for fit: total, except
                             ** where a runtime takes a fixed share whatever it needs (vLLM's
                             ** gpu_memory_utilization): then the memory it really uses */
  uint64_t host_required;    /* with GPUs, what the host must hold beside them (llama.cpp's host
                             ** weights and buffers), for fit; 0: nothing judged */
  uint64_t host_limit;       /* ... within this much host memory (runtime.host_memory); 0: any */
  const char *peak_phase;    /* "forward", "backward", "optimizer step", "prefill", "decode" */
  /* what the peaks are, for the table: NULL means PyTorch's caching allocator
  ** (torch.cuda.max_memory_allocated() / max_memory_reserved()) */
  const char *allocated_label, *reserved_label;
  const char *total_label;   /* NULL: "what nvidia-smi shows" */
  bool host_backend;         /* the device is the host (llama.cpp's CPU backend), not a GPU */
  /* why the runtime cannot serve the workload on any GPU, "" when it can: a pool the scenario
  ** fixes (vLLM's kv_cache_memory_bytes, SGLang's max_total_tokens) below what the requests
  ** need; fit's rows then do not fit at any count, and the layout column says this */
  char refused[48];
  est_figure figs[EST_MAX_FIGS];
  int n_figs;
} estimate;

/* 0 on success; else a message in err naming what overflowed or was invalid. */
int estimate_run(const model_desc *m, const scenario *s, estimate *out, char *err, size_t errlen);
/* PyTorch caching-allocator rounding of one request (512 B blocks; requests above
** 1 MiB come from 2 MiB-rounded segments). */
uint64_t estimate_round_alloc(uint64_t bytes);
/* Weight bytes one device holds under tensor and pipeline parallelism. */
bool estimate_device_weights(const model_desc *m, uint64_t tp, uint64_t pp, uint64_t *out);
/* One pipeline stage's weight bytes and parameter elements on a tp rank: `layers` of
** `all_layers`, the embeddings if first, the final norm and head if last (a tied head's
** copy of the embedding on a last stage that is not the first). */
bool estimate_stage_weights(const model_desc *m, uint64_t tp, uint64_t layers, uint64_t all_layers, bool first,
                            bool last, uint64_t *bytes, uint64_t *elems);

#endif
