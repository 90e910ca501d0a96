/*
** inventory.h: a model's stored tensors as repeated groups.
** A group is one name pattern and shape repeated `count` times (a layer's tensor x
** layers, an expert's x experts x layers), so a 671B MoE inventory stays a few dozen
** entries. Element and byte totals are exact and overflow-checked.
*/
#ifndef VF_INVENTORY_H
#define VF_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"

#define INV_MAX_DIMS 8

typedef enum inv_role {
  ROLE_OTHER = 0,
  ROLE_EMBED,
  ROLE_POS_EMBED,
  ROLE_ATTN,
  ROLE_MLP,
  ROLE_EXPERT,
  ROLE_SHARED_EXPERT,
  ROLE_ROUTER,
  ROLE_NORM,
  ROLE_LM_HEAD,
  ROLE_COUNT
} inv_role;

typedef struct inv_tensor {
  char *name;                     /* owned; '*' stands for a layer or expert index */
  uint64_t shape[INV_MAX_DIMS];
  int ndim;
  uint64_t count;                 /* tensors sharing this name pattern and shape */
  inv_role role;
  vf_dtype dtype;                 /* storage dtype */
  uint64_t stored_bytes;          /* per tensor, when read from a file; 0 = from dtype */
  char qtype[16];                 /* storage format when quantized ("Q4_K", "nf4"), else "" */
  char component[24];             /* pipeline component ("denoiser", "vae"), "" for one model */
  uint64_t skipped_before;        /* a model file's bytes of tensors not loaded just before this
                                  ** one (a GGUF's MTP blocks), 32-aligned: within a mapped range */
  bool buffer;                    /* a persistent buffer (nn.param opts.buffer: SD3's pos_embed):
                                  ** stored and resident, no parameter (left out of inv_params) */
} inv_tensor;

typedef struct inventory {
  inv_tensor *t;
  size_t n, cap;
} inventory;

void inv_init(inventory *inv);
void inv_free(inventory *inv);
/* Copies name. False on out-of-memory, a zero dimension, ndim out of range or a
** zero count. */
bool inv_add(inventory *inv, const char *name, const uint64_t *shape, int ndim,
             uint64_t count, inv_role role, vf_dtype dtype);
/* Elements of one tensor (product of its shape). False on overflow. */
bool inv_tensor_elements(const inv_tensor *t, uint64_t *out);
/* Bytes of all `count` tensors of the group. False on overflow. */
bool inv_tensor_bytes(const inv_tensor *t, uint64_t *out);
/* Sum of elements x count over the inventory. False on overflow. */
bool inv_params(const inventory *inv, uint64_t *out);
bool inv_bytes(const inventory *inv, uint64_t *out);
/* Sums restricted to a role (or ROLE_COUNT for all). */
bool inv_params_role(const inventory *inv, inv_role role, uint64_t *out);
bool inv_role_parse(const char *name, inv_role *out);
const char *inv_role_name(inv_role role);
/* A multimodal model's vision tower or projector tensor, by its name prefix (the prefixes the
** architecture scripts use): vLLM wraps no LoRA on them, llama.cpp's converter writes them
** to the mmproj file. Scripts reach the same list as host.vision_tensor(name). */
bool inv_vision_name(const char *name);
/* Sets every tensor's dtype. */
void inv_set_dtype(inventory *inv, vf_dtype dt);

#endif
