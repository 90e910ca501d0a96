/*
** vramfit.h: the public API of libvramfit, a GPU-memory estimation engine.
**
** Ownership, once for the whole header:
**  - vf_engine_new() makes an engine; vf_engine_free() destroys it (NULL is a no-op).
**  - Every function returns a vf_status. On failure the engine keeps a message,
**    vf_engine_error(), naming the file, line or field at fault.
**  - Strings and structs the engine returns (JSON text, result structs, the error
**    message) are owned by the engine and valid until the next call on that engine.
**  - Inputs are borrowed for the duration of the call only.
**  - No global state: engines are independent; one engine is used by one thread at a
**    time, several engines may run on several threads at once.
**  - The library never exits or aborts; out of memory is VF_ENOMEM.
*/
#ifndef VRAMFIT_H
#define VRAMFIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VF_VERSION_MAJOR 0
#define VF_VERSION_MINOR 3
#define VF_VERSION_PATCH 0
#define VF_VERSION_STRING "0.3.0"

/* Status codes and their messages, from one table. */
#define VF_STATUS_TABLE(X)                                              \
  X(VF_OK, 0, "success")                                                \
  X(VF_EINVAL, 1, "invalid input")                                      \
  X(VF_ENOENT, 2, "not found")                                          \
  X(VF_ESCRIPT, 3, "script error")                                      \
  X(VF_ELIMIT, 4, "script exceeded its instruction or memory budget")  \
  X(VF_EOVERFLOW, 5, "a byte figure overflows 64 bits")                 \
  X(VF_ENOMEM, 6, "out of memory")                                      \
  X(VF_EIO, 7, "input/output error")                                    \
  X(VF_ENOFIT, 8, "the workload fits no requested GPU")

typedef enum vf_status {
#define VF_STATUS_ENUM(name, value, message) name = value,
  VF_STATUS_TABLE(VF_STATUS_ENUM)
#undef VF_STATUS_ENUM
} vf_status;

typedef struct vf_engine vf_engine;

typedef struct vf_options {
  /* Directories searched before the shipped scripts (a file there overrides a shipped
  ** one of the same relative path: architectures/x.lua, scripts/x.lua). NULL-terminated
  ** list, or NULL. VRAMFIT_PATH is not read by the library: the caller passes it. */
  const char *const *script_dirs;
  /* Installed data directory; NULL: the compile-time default. Scripts compiled into
  ** the library are used for any file not found there. */
  const char *data_dir;
  /* Allocator for the Lua heap, lua_Alloc-shaped; NULL: realloc/free. */
  void *(*alloc)(void *ud, void *ptr, size_t osize, size_t nsize);
  void *alloc_ud;
  /* Called with kind "error" and the message when vf_engine_new or vf_batch_open fails
  ** (there is no engine to hold it); may be NULL. Assumptions and warnings are in the
  ** JSON report, not passed here. */
  void (*message)(void *ud, const char *kind, const char *text);
  void *message_ud;
  /* Limits for every script call: instructions (0: 200 million) and Lua heap bytes
  ** (0: 256 MiB). */
  uint64_t instruction_limit;
  size_t memory_limit;
} vf_options;

typedef enum vf_format { VF_FORMAT_JSON = 0, VF_FORMAT_TABLE, VF_FORMAT_CSV } vf_format;

/* One evaluation request. sets are "key=value" overrides by dotted path; gpus, when
** given, replace the scenario's gpu field. */
typedef struct vf_request {
  const char *const *sets;
  size_t n_sets;
  const char *const *gpus;
  size_t n_gpus;
  vf_format format;
  int fit;      /* non-zero: evaluate every requested GPU (the catalog if none) */
} vf_request;

typedef struct vf_category {
  const char *name;      /* "weights", "kv_cache", ... */
  const char *component; /* NULL or "denoiser", ... */
  uint64_t bytes;
  const char *basis;     /* "exact", "modelled", "calibrated", "assumed" */
  const char *detail;
} vf_category;

typedef struct vf_fit_row {
  const char *gpu;
  uint64_t memory_bytes;
  int fits;              /* with the scenario's own parallel layout */
  uint64_t count;        /* smallest GPU count that holds it; 0: none up to the limit */
  double used_fraction;  /* total_bytes / memory_bytes at the scenario's layout */
  uint64_t total_bytes;
  uint64_t max_concurrency; /* inference, at the scenario's context (0: none fits) */
  uint64_t max_context;     /* inference, at the scenario's concurrency */
  uint64_t max_micro_batch; /* training, at the scenario's sequence length */
  uint64_t max_seq_len;     /* training, at the scenario's micro-batch */
  const char *layout;       /* how count is reached: "tp=2", "dp=4", "offload=group" */
  uint64_t max_width;       /* image/video: largest size at the scenario's aspect ratio */
  uint64_t max_height;
  uint64_t max_frames;      /* video: most frames at the scenario's size */
} vf_fit_row;

typedef struct vf_result {
  const char *scenario;
  const char *model_id;
  const char *arch;
  uint64_t params;
  uint64_t weight_bytes;
  uint64_t kv_bytes_per_token;
  const char *gpu;          /* the device the categories are for */
  uint64_t devices;         /* GPUs the layout uses */
  const vf_category *categories;
  size_t n_categories;
  uint64_t peak_allocated_bytes;
  uint64_t peak_reserved_bytes;
  uint64_t total_bytes;     /* per device, as nvidia-smi shows it */
  const vf_fit_row *fit;
  size_t n_fit;
} vf_result;

void vf_options_init(vf_options *opt);
vf_status vf_engine_new(const vf_options *opt, vf_engine **out);
void vf_engine_free(vf_engine *engine);

/* The message of the last failed call on this engine ("" after a success). */
const char *vf_engine_error(const vf_engine *engine);
const char *vf_status_message(vf_status status);
const char *vf_version(void);

/* Evaluates the first scenario of a file (.lua, .json, "-" for stdin). *out receives
** the report in req->format. */
vf_status vf_estimate_file(vf_engine *engine, const char *path, const vf_request *req, const char **out);
/* The same for scenario text; chunkname names it in messages ("chat.lua"). Text that
** starts with '{' or '[' is JSON, anything else Lua. */
vf_status vf_estimate_string(vf_engine *engine, const char *text, size_t len, const char *chunkname,
                             const vf_request *req, const char **out);
/* The structured form of the last successful estimate. */
vf_status vf_last_result(vf_engine *engine, const vf_result **out);
/* Number of scenarios a file expands to (lists and sweeps). */
vf_status vf_count_scenarios(vf_engine *engine, const char *path, size_t *out);
/* Evaluates scenario index i (0-based) of a file, as vf_estimate_file does for the first. */
vf_status vf_estimate_file_at(vf_engine *engine, const char *path, size_t index, const vf_request *req,
                              const char **out);
/* "models", "gpus", "optimizers", "runtimes", "knobs", "architectures", "quants": a JSON
** array of {name, summary} ("knobs": "<runtime>.<knob>", its type and what it does). */
vf_status vf_list(vf_engine *engine, const char *kind, const char **json_out);

/* What a model file or directory holds (.gguf, .safetensors, a model directory with
** config.json, a diffusers folder): a JSON object with arch, params, weight_bytes,
** dtypes, quantization and, with with_tensors, every tensor. */
vf_status vf_inspect(vf_engine *engine, const char *path, int with_tensors, const char **json_out);

/* ---- batch evaluation (src/sweep.c): every scenario of a file, structured, fast ----
** A vf_batch is an engine of its own (its own Lua state) holding one expanded file.
** Sweeps whose axes set only workload.context / concurrency / micro_batch / seq_len
** and gpu are normalized through Lua once per combination of their other axes, then
** evaluated in C alone (docs/BATCH.md says how that is verified). */
typedef struct vf_batch vf_batch;

/* One scenario on one GPU. Strings and categories are owned by the batch and valid
** until the next call on it. */
typedef struct vf_point {
  size_t index;             /* scenario index in the file, 0-based */
  const char *scenario;     /* its name (a sweep point's carries the axis values) */
  const char *axes;         /* "gpu=L40S,workload.context=4096"; "" outside sweeps */
  const char *error;        /* non-NULL: the scenario failed; the fields below are unset */
  const char *model_id, *arch, *runtime, *kind;
  uint64_t params, weight_bytes;
  uint64_t context, concurrency, micro_batch, seq_len, tp, pp, dp;
  const char *gpu;
  uint64_t memory_bytes, devices;
  int fits;                 /* total_bytes within memory x (1 - headroom) */
  double used_fraction;     /* total_bytes / memory_bytes */
  uint64_t total_bytes, peak_allocated_bytes, peak_reserved_bytes;
  const vf_category *categories;
  size_t n_categories;
  int solved;               /* vf_request.fit was set: the fields below are computed */
  uint64_t count, max_concurrency, max_context, max_micro_batch, max_seq_len;
} vf_point;

/* Opens a scenario file (.lua, .json, "-") for batch evaluation. req's sets and gpus
** are copied; req->fit asks for the GPU count and max_* solvers per row (slower). On
** failure *out is NULL and, when opt->message is set, the message goes there too. */
vf_status vf_batch_open(const vf_options *opt, const char *path, const vf_request *req, vf_batch **out,
                        char *err, size_t errlen);
/* Scenarios in the file. */
size_t vf_batch_count(const vf_batch *batch);
/* Evaluates scenario index: *rows receives one row per GPU the scenario names (the
** default GPU if none). On a failure of that scenario the status says so and *rows
** holds one row whose error is set (vf_batch_error() is the same message). */
vf_status vf_batch_eval(vf_batch *batch, size_t index, const vf_point **rows, size_t *n_rows);
const char *vf_batch_error(const vf_batch *batch);
/* Scenarios evaluated in C alone (the fast path) since the batch was opened. */
size_t vf_batch_fast_count(const vf_batch *batch);
void vf_batch_free(vf_batch *batch);

#ifdef __cplusplus
}
#endif
#endif
