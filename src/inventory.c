/*
** inventory.c: repeated tensor groups with exact element and byte totals
** (see inventory.h). Uses bytes.c for checked arithmetic and dtype.c for widths.
*/
#include "inventory.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"

static const char *const role_names[ROLE_COUNT] = {
    [ROLE_OTHER] = "other",   [ROLE_EMBED] = "embed",
    [ROLE_POS_EMBED] = "pos_embed", [ROLE_ATTN] = "attn",
    [ROLE_MLP] = "mlp",       [ROLE_EXPERT] = "expert",
    [ROLE_SHARED_EXPERT] = "shared_expert", [ROLE_ROUTER] = "router",
    [ROLE_NORM] = "norm",     [ROLE_LM_HEAD] = "lm_head",
};

void inv_init(inventory *inv) {
  memset(inv, 0, sizeof *inv);
}

void inv_free(inventory *inv) {
  for (size_t i = 0; i < inv->n; i++) free(inv->t[i].name);
  free(inv->t);
  inv_init(inv);
}

static bool inv_grow(inventory *inv) {
  if (inv->n < inv->cap) return true;
  size_t cap = inv->cap ? inv->cap * 2 : 32;
  inv_tensor *t = realloc(inv->t, cap * sizeof *t);
  if (!t) return false;
  inv->t = t;
  inv->cap = cap;
  return true;
}

bool inv_add(inventory *inv, const char *name, const uint64_t *shape, int ndim,
             uint64_t count, inv_role role, vf_dtype dtype) {
  if (ndim < 0 || ndim > INV_MAX_DIMS || count == 0) return false;
  for (int i = 0; i < ndim; i++)
    if (shape[i] == 0) return false;
  if (!inv_grow(inv)) return false;
  char *copy = strdup(name);
  if (!copy) return false;
  inv_tensor *t = &inv->t[inv->n++];
  memset(t, 0, sizeof *t);
  t->name = copy;
  memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
  t->ndim = ndim;
  t->count = count;
  t->role = role;
  t->dtype = dtype;
  return true;
}

bool inv_tensor_elements(const inv_tensor *t, uint64_t *out) {
  uint64_t n = 1;
  for (int i = 0; i < t->ndim; i++)
    if (!bytes_mul(n, t->shape[i], &n)) return false;
  *out = n;
  return true;
}

bool inv_tensor_bytes(const inv_tensor *t, uint64_t *out) {
  uint64_t one;
  if (t->stored_bytes) {
    one = t->stored_bytes;
  } else {
    uint64_t n;
    if (!inv_tensor_elements(t, &n) || !dtype_bytes(t->dtype, n, &one)) return false;
  }
  return bytes_mul(one, t->count, out);
}

static bool sum_role(const inventory *inv, inv_role role, bool bytes, uint64_t *out) {
  uint64_t total = 0;
  for (size_t i = 0; i < inv->n; i++) {
    const inv_tensor *t = &inv->t[i];
    if (role != ROLE_COUNT && t->role != role) continue;
    if (!bytes && t->buffer) continue; /* a buffer's bytes count, its elements are no parameters */
    uint64_t v;
    if (bytes) {
      if (!inv_tensor_bytes(t, &v)) return false;
    } else if (!inv_tensor_elements(t, &v) || !bytes_mul(v, t->count, &v)) {
      return false;
    }
    if (!bytes_add(total, v, &total)) return false;
  }
  *out = total;
  return true;
}

bool inv_params(const inventory *inv, uint64_t *out) {
  return sum_role(inv, ROLE_COUNT, false, out);
}

bool inv_bytes(const inventory *inv, uint64_t *out) {
  return sum_role(inv, ROLE_COUNT, true, out);
}

bool inv_params_role(const inventory *inv, inv_role role, uint64_t *out) {
  return sum_role(inv, role, false, out);
}

bool inv_vision_name(const char *name) {
  /* Gemma 4 (transformers models/gemma4/modeling_gemma4.py Gemma4Model): the audio tower and the
  ** embed_vision / embed_audio projectors, which llama.cpp's converter writes to the mmproj file
  ** with the vision tower (ggml-org/llama.cpp convert_hf_to_gguf.py, Gemma4 mmproj: vision and audio) */
  static const char *const pre[] = {"visual.", "model.visual.", "vision_tower.", "vision_model.", "multi_modal_projector.",
                                    "model.vision_tower.", "model.multi_modal_projector.", "model.audio_tower.",
                                    "model.embed_vision.", "model.embed_audio.",
                                    /* LLaVA-NeXT's row separator, which llama.cpp loads from the mmproj file
                                    ** with the tower (tools/mtmd/clip.cpp TN_IMAGE_NEWLINE "model.image_newline") */
                                    "image_newline",
                                    /* Idefics3 / SmolVLM (transformers models/idefics3/modeling_idefics3.py
                                    ** Idefics3Model: vision_model, connector) */
                                    "model.vision_model.", "model.connector.",
                                    /* Phi-3-vision (modeling_phi3_v.py Phi3ImageEmbedding: the CLIP
                                    ** img_processor, glb_GN / sub_GN and img_projection) */
                                    "model.vision_embed_tokens.", NULL};
  for (const char *const *p = pre; *p; p++)
    if (strncmp(name, *p, strlen(*p)) == 0) return true;
  return false;
}

bool inv_role_parse(const char *name, inv_role *out) {
  for (int i = 0; i < ROLE_COUNT; i++)
    if (strcmp(role_names[i], name) == 0) {
      *out = (inv_role)i;
      return true;
    }
  return false;
}

const char *inv_role_name(inv_role role) {
  return (unsigned)role < ROLE_COUNT ? role_names[role] : "other";
}

void inv_set_dtype(inventory *inv, vf_dtype dt) {
  for (size_t i = 0; i < inv->n; i++) inv->t[i].dtype = dt;
}
