/*
** inspect.h: what a model path holds, as a JSON object (vramfit inspect): a .gguf
** file, a .safetensors file or index, a model directory, a bare config.json or a
** diffusers folder. Fields: format, arch, params, weight_bytes, dtypes, quantization,
** and with with_tensors a tensors array; GGUF adds metadata, diffusers components.
** Ownership: *out is a new reference the caller json_decref()s.
*/
#ifndef VF_INSPECT_H
#define VF_INSPECT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum inspect_status {
  INSPECT_OK = 0,
  INSPECT_ERR_IO,     /* missing or unreadable path */
  INSPECT_ERR_FORMAT, /* the file is not what its name or magic says */
  INSPECT_ERR_NOMEM,
} inspect_status;

inspect_status inspect_path(const char *path, bool with_tensors, json_t **out, char *err,
                            size_t errlen);

#endif
