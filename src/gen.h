/*
** gen.h: what src/fit.c asks of the image/video model (gen.c): for one GPU, the least
** offload mode that fits, and the largest square-ish resolution (at the scenario's aspect
** ratio) and the most frames that fit in that mode. Pure C over model.h's structs.
*/
#ifndef VF_GEN_H
#define VF_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

typedef struct gen_fit {
  const char *offload;   /* the first of "none", "model", "group", "sequential" that fits; NULL: none fits */
  uint64_t max_width, max_height; /* at the scenario's aspect ratio, in the offload found */
  uint64_t max_frames;   /* video: most frames (4k+1 style) at the scenario's size; 0 for images */
} gen_fit;

/* usable: the GPU's bytes after headroom; s: the scenario as it runs on that GPU
** (fit_device_scenario). Returns false when an estimate fails. */
bool gen_fit_gpu(const model_desc *m, const scenario *s, uint64_t usable, gen_fit *out);

#endif
