/*
** gguf.c: GGUF v2/v3 header reader (see gguf.h). Parses from a byte window that
** may be a prefix of the file: a read past the window asks the caller for more,
** a read past the file's size is an error naming the offset. Uses bytes.c for
** checked arithmetic, ggml_types.c for tensor sizes, inventory.c for the result.
*/
#define _POSIX_C_SOURCE 200809L
#include "gguf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bytes.h"
#include "ggml_types.h"

typedef unsigned long long ull;

/* GGUF metadata value types (gguf.h of ggml) */
enum { V_U8, V_I8, V_U16, V_I16, V_U32, V_I32, V_F32, V_BOOL, V_STR, V_ARR,
       V_U64, V_I64, V_F64, V_NTYPES };

static const char *const vtype_names[V_NTYPES] = {
    "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32",
    "bool", "string", "array", "uint64", "int64", "float64"};
static const unsigned vtype_size[V_NTYPES] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

#define ST_MORE (-1) /* internal: the window ended before the file did */

/* The parse position within a window buf[0..len) of a file of file_size bytes. */
typedef struct rd {
  const char *name;
  const uint8_t *buf;
  uint64_t len, pos, file_size;
  int status; /* GGUF_OK, a gguf_status, or ST_MORE */
  char *err;
  size_t errlen;
} rd;

/* One metadata entry, by position in the window. */
typedef struct kv_ent {
  uint64_t key_pos, key_len, val_pos, n; /* n: array length */
  uint32_t type, elem_type;
} kv_ent;

typedef struct kv_list {
  kv_ent *e;
  size_t n, cap;
} kv_list;

/* How a field's value is read (gguf.h). A count is an integer or a per-layer array of them;
** any other type is refused. A newer field also takes bools (0/1) and is left out rather
** than refused when of another type. A real field takes a float as is, else reads as a
** newer field. */
typedef enum field_kind { FK_COUNT, FK_NEWER, FK_REAL } field_kind;

typedef struct field_spec {
  const char *key; /* after "<arch>." */
  field_kind kind;
} field_spec;

static const field_spec fields[GGUF_F_COUNT] = {
    [GGUF_F_BLOCK_COUNT] = {"block_count", FK_COUNT},
    [GGUF_F_CONTEXT_LENGTH] = {"context_length", FK_COUNT},
    [GGUF_F_EMBEDDING_LENGTH] = {"embedding_length", FK_COUNT},
    [GGUF_F_FEED_FORWARD_LENGTH] = {"feed_forward_length", FK_COUNT},
    [GGUF_F_HEAD_COUNT] = {"attention.head_count", FK_COUNT},
    [GGUF_F_HEAD_COUNT_KV] = {"attention.head_count_kv", FK_COUNT},
    [GGUF_F_KEY_LENGTH] = {"attention.key_length", FK_COUNT},
    [GGUF_F_VALUE_LENGTH] = {"attention.value_length", FK_COUNT},
    [GGUF_F_EXPERT_COUNT] = {"expert_count", FK_COUNT},
    [GGUF_F_EXPERT_USED_COUNT] = {"expert_used_count", FK_COUNT},
    [GGUF_F_SLIDING_WINDOW] = {"attention.sliding_window", FK_COUNT},
    [GGUF_F_VOCAB_SIZE] = {"vocab_size", FK_COUNT},
    [GGUF_F_NEXTN_PREDICT_LAYERS] = {"nextn_predict_layers", FK_NEWER},
    [GGUF_F_EXPERT_FF_LENGTH] = {"expert_feed_forward_length", FK_NEWER},
    [GGUF_F_EXPERT_SHARED_FF_LENGTH] = {"expert_shared_feed_forward_length", FK_NEWER},
    [GGUF_F_EXPERT_SHARED_COUNT] = {"expert_shared_count", FK_NEWER},
    [GGUF_F_LEADING_DENSE_BLOCKS] = {"leading_dense_block_count", FK_NEWER},
    [GGUF_F_INTERLEAVE_MOE_STEP] = {"interleave_moe_layer_step", FK_NEWER},
    [GGUF_F_FULL_ATTENTION_INTERVAL] = {"full_attention_interval", FK_NEWER},
    [GGUF_F_RECURRENT_LAYERS] = {"attention.recurrent_layers", FK_NEWER},
    [GGUF_F_SLIDING_WINDOW_PATTERN] = {"attention.sliding_window_pattern", FK_NEWER},
    [GGUF_F_Q_LORA_RANK] = {"attention.q_lora_rank", FK_NEWER},
    [GGUF_F_KV_LORA_RANK] = {"attention.kv_lora_rank", FK_NEWER},
    [GGUF_F_KEY_LENGTH_MLA] = {"attention.key_length_mla", FK_NEWER},
    [GGUF_F_VALUE_LENGTH_MLA] = {"attention.value_length_mla", FK_NEWER},
    [GGUF_F_ROPE_DIMENSION_COUNT] = {"rope.dimension_count", FK_NEWER},
    [GGUF_F_SSM_CONV_KERNEL] = {"ssm.conv_kernel", FK_NEWER},
    [GGUF_F_SSM_INNER_SIZE] = {"ssm.inner_size", FK_NEWER},
    [GGUF_F_SSM_STATE_SIZE] = {"ssm.state_size", FK_NEWER},
    [GGUF_F_SSM_TIME_STEP_RANK] = {"ssm.time_step_rank", FK_NEWER},
    [GGUF_F_SSM_GROUP_COUNT] = {"ssm.group_count", FK_NEWER},
    [GGUF_F_EXPERT_WEIGHTS_SCALE] = {"expert_weights_scale", FK_REAL},
    [GGUF_F_EXPERT_WEIGHTS_NORM] = {"expert_weights_norm", FK_NEWER},
    [GGUF_F_EXPERT_GATING_FUNC] = {"expert_gating_func", FK_NEWER},
    [GGUF_F_ROPE_DIMENSION_SECTIONS] = {"rope.dimension_sections", FK_NEWER},
    [GGUF_F_ATTN_TEMPERATURE_SCALE] = {"attention.temperature_scale", FK_REAL},
    [GGUF_F_SHORTCONV_L_CACHE] = {"shortconv.l_cache", FK_NEWER},
    [GGUF_F_ROPE_FINETUNED] = {"rope.scaling.finetuned", FK_NEWER},
    [GGUF_F_MOE_LATENT_SIZE] = {"moe_latent_size", FK_NEWER},
    [GGUF_F_SHARED_KV_LAYERS] = {"attention.shared_kv_layers", FK_NEWER},
    [GGUF_F_KEY_LENGTH_SWA] = {"attention.key_length_swa", FK_NEWER},
    [GGUF_F_EMBD_PER_LAYER] = {"embedding_length_per_layer_input", FK_NEWER},
    [GGUF_F_KDA_HEAD_DIM] = {"kda.head_dim", FK_NEWER},
};

const char *gguf_field_key(gguf_field_id id) {
  return (unsigned)id < GGUF_F_COUNT ? fields[id].key : NULL;
}

static bool vfail(rd *r, uint64_t at, const char *key, const char *fmt, va_list ap) {
  if (r->status != GGUF_OK) return false;
  r->status = GGUF_ERR_FORMAT;
  int k = key ? snprintf(r->err, r->errlen, "%s: offset %llu: key '%s' ", r->name, (ull)at, key)
              : snprintf(r->err, r->errlen, "%s: offset %llu: ", r->name, (ull)at);
  if (k >= 0 && (size_t)k < r->errlen) vsnprintf(r->err + k, r->errlen - (size_t)k, fmt, ap);
  return false;
}

static bool fail(rd *r, uint64_t at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(r, at, NULL, fmt, ap);
  va_end(ap);
  return false;
}

static bool oom(rd *r) {
  if (r->status == GGUF_OK) {
    r->status = GGUF_ERR_NOMEM;
    snprintf(r->err, r->errlen, "%s: out of memory", r->name);
  }
  return false;
}

static uint64_t left(const rd *r) {
  return r->file_size - r->pos;
}

/* Ensure n bytes at pos: in the file (else an error), then in the window. */
static bool need(rd *r, uint64_t n, const char *what) {
  if (r->status != GGUF_OK) return false;
  if (n > left(r))
    return fail(r, r->pos, "file ends after %llu bytes, expected %s (%llu bytes)",
                (ull)r->file_size, what, (ull)n);
  if (n > r->len - r->pos) {
    r->status = ST_MORE;
    return false;
  }
  return true;
}

static uint64_t le(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = v << 8 | p[i];
  return v;
}

static bool get_le(rd *r, unsigned n, const char *what, uint64_t *v) {
  if (!need(r, n, what)) return false;
  *v = le(r->buf + r->pos, n);
  r->pos += n;
  return true;
}

static bool get_u32(rd *r, const char *what, uint32_t *v) {
  uint64_t x;
  if (!get_le(r, 4, what, &x)) return false;
  *v = (uint32_t)x;
  return true;
}

/* A string: u64 length then bytes; *at gets the position of the bytes. */
static bool get_str(rd *r, const char *what, uint64_t *at, uint64_t *n) {
  uint64_t start = r->pos;
  if (!get_le(r, 8, what, n)) return false;
  if (*n > left(r))
    return fail(r, start, "%s length %llu exceeds the %llu bytes left in the file",
                what, (ull)*n, (ull)left(r));
  if (!need(r, *n, what)) return false;
  *at = r->pos;
  r->pos += *n;
  return true;
}

static char *dup_bytes(const uint8_t *p, uint64_t n) {
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  memcpy(s, p, (size_t)n);
  s[n] = '\0';
  return s;
}

/* A short printable copy of a key or name for messages. */
static const char *show(const rd *r, uint64_t at, uint64_t n, char *tmp, size_t sz) {
  size_t k = n < sz - 1 ? (size_t)n : sz - 1;
  for (size_t i = 0; i < k; i++) {
    uint8_t c = r->buf[at + i];
    tmp[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  tmp[k] = '\0';
  return tmp;
}

/* An error about a key's value, at the value: "key 'name' <what>". */
static bool key_fail(rd *r, const kv_ent *e, const char *fmt, ...) {
  char key[80];
  show(r, e->key_pos, e->key_len, key, sizeof key);
  va_list ap;
  va_start(ap, fmt);
  vfail(r, e->val_pos, key, fmt, ap);
  va_end(ap);
  return false;
}

/* ---- metadata ---- */

static bool skip_array(rd *r, kv_ent *e, const char *key) {
  uint64_t at = r->pos;
  if (!get_u32(r, "array element type", &e->elem_type) ||
      !get_le(r, 8, "array length", &e->n))
    return false;
  if (e->elem_type >= V_NTYPES)
    return fail(r, at, "key '%s': unknown array element type %u", key, e->elem_type);
  if (e->elem_type == V_ARR)
    return fail(r, at, "key '%s': arrays of arrays are not supported", key);
  e->val_pos = r->pos;
  unsigned sz = vtype_size[e->elem_type];
  uint64_t min = sz ? sz : 8, total;
  if (!bytes_mul(e->n, min, &total) || total > left(r))
    return fail(r, at + 4, "key '%s': array length %llu exceeds what the file can hold",
                key, (ull)e->n);
  if (sz) {
    if (!need(r, total, "array data")) return false;
    r->pos += total;
    return true;
  }
  for (uint64_t i = 0; i < e->n; i++) {
    uint64_t p, n;
    if (!get_str(r, "string", &p, &n)) return false;
  }
  return true;
}

static bool read_value(rd *r, kv_ent *e, const char *key) {
  uint64_t at = r->pos;
  if (!get_u32(r, "a value type", &e->type)) return false;
  e->val_pos = r->pos;
  if (e->type >= V_NTYPES)
    return fail(r, at, "key '%s': unknown value type %u", key, e->type);
  if (e->type == V_ARR) return skip_array(r, e, key);
  if (e->type == V_STR) {
    uint64_t p;
    return get_str(r, "string", &p, &e->n);
  }
  if (!need(r, vtype_size[e->type], vtype_names[e->type])) return false;
  r->pos += vtype_size[e->type];
  return true;
}

static bool read_kv(rd *r, kv_list *kvs) {
  if (kvs->n == kvs->cap) {
    size_t cap = kvs->cap ? kvs->cap * 2 : 64;
    kv_ent *e = realloc(kvs->e, cap * sizeof *e);
    if (!e) return oom(r);
    kvs->e = e;
    kvs->cap = cap;
  }
  kv_ent *e = &kvs->e[kvs->n];
  memset(e, 0, sizeof *e);
  char key[80];
  if (!get_str(r, "key", &e->key_pos, &e->key_len)) return false;
  show(r, e->key_pos, e->key_len, key, sizeof key);
  if (!read_value(r, e, key)) return false;
  kvs->n++;
  return true;
}

static const kv_ent *find_kv(const rd *r, const kv_list *kvs, const char *prefix,
                             const char *key) {
  size_t lp = prefix ? strlen(prefix) : 0, lk = strlen(key);
  for (size_t i = 0; i < kvs->n; i++) {
    const kv_ent *e = &kvs->e[i];
    const char *k = (const char *)r->buf + e->key_pos;
    if (e->key_len != lp + lk + (lp ? 1 : 0)) continue;
    if (lp && (memcmp(k, prefix, lp) != 0 || k[lp] != '.')) continue;
    if (memcmp(k + (lp ? lp + 1 : 0), key, lk) == 0) return e;
  }
  return NULL;
}

/* An integer of any width and sign: what a count may be stored as. */
static bool is_int(uint32_t type) {
  return type < V_NTYPES && type != V_F32 && type != V_F64 && type != V_STR && type != V_BOOL &&
         type != V_ARR;
}

/* The error for a count stored as another type (of the value, or of an array's elements). */
static bool not_int(rd *r, const kv_ent *e, uint32_t type) {
  return key_fail(r, e, "has type %s, expected an integer", type < V_NTYPES ? vtype_names[type] : "?");
}

/* An unsigned integer from an integer value of any width at p. */
static bool int_at(rd *r, const kv_ent *e, uint32_t type, const uint8_t *p, uint64_t *v) {
  if (!is_int(type)) return not_int(r, e, type);
  unsigned sz = vtype_size[type];
  *v = le(p, sz);
  bool is_signed = type == V_I8 || type == V_I16 || type == V_I32 || type == V_I64;
  if (is_signed && (*v >> (sz * 8 - 1)) & 1) return key_fail(r, e, "is negative, expected a count");
  return true;
}

/* Whether a field of kind k reads a value, or the elements of an array, of this type. */
static bool takes(field_kind k, uint32_t type) {
  return is_int(type) || (type == V_BOOL && k != FK_COUNT);
}

/* One value or array element of a field as a count: a bool reads as 0/1. */
static bool count_at(rd *r, const kv_ent *e, uint32_t type, const uint8_t *p, uint64_t *v) {
  if (type == V_BOOL) return *v = p[0] != 0, true;
  return int_at(r, e, type, p, v);
}

/* A float field's value; a NaN is left out. */
static bool get_real(rd *r, const kv_ent *e, gguf_field *f) {
  const uint8_t *p = r->buf + e->val_pos;
  double v;
  if (e->type == V_F32) {
    uint32_t b32 = (uint32_t)le(p, 4);
    float x;
    memcpy(&x, &b32, sizeof x);
    v = x;
  } else {
    uint64_t b64 = le(p, 8);
    memcpy(&v, &b64, sizeof v);
  }
  if (v == v) *f = (gguf_field){.present = true, .is_real = true, .real = v};
  return true;
}

/* A field's value: a scalar, or a per-layer array whose largest element is the value. */
static bool get_field(rd *r, const kv_ent *e, field_kind k, gguf_field *f) {
  bool arr = e->type == V_ARR;
  uint32_t type = arr ? e->elem_type : e->type;
  if (k == FK_REAL && (type == V_F32 || type == V_F64) && !arr) return get_real(r, e, f);
  if (!takes(k, type)) return k == FK_COUNT ? not_int(r, e, type) : true;
  const uint8_t *p = r->buf + e->val_pos;
  f->present = true;
  if (!arr) return count_at(r, e, type, p, &f->value);
  f->arr = malloc(e->n ? (size_t)e->n * sizeof *f->arr : 1);
  if (!f->arr) return oom(r);
  f->n_arr = (size_t)e->n;
  for (uint64_t i = 0; i < e->n; i++) {
    if (!count_at(r, e, type, p + i * vtype_size[type], &f->arr[i])) return false;
    if (f->arr[i] > f->value) f->value = f->arr[i];
  }
  return true;
}

static bool get_string(rd *r, const kv_ent *e, char **out) {
  if (e->type != V_STR) return key_fail(r, e, "has type %s, expected a string", vtype_names[e->type]);
  *out = dup_bytes(r->buf + e->val_pos + 8, e->n);
  return *out ? true : oom(r);
}

static bool get_scalar(rd *r, const kv_ent *e, uint64_t *v) {
  if (e->type != V_ARR) return int_at(r, e, e->type, r->buf + e->val_pos, v);
  return key_fail(r, e, "is an array, expected an integer");
}

static bool extract_general(rd *r, const kv_list *kvs, gguf_info *g) {
  const kv_ent *e;
  uint64_t v;
  if ((e = find_kv(r, kvs, NULL, "general.architecture")) && !get_string(r, e, &g->arch))
    return false;
  if ((e = find_kv(r, kvs, NULL, "general.name")) && !get_string(r, e, &g->name))
    return false;
  if ((e = find_kv(r, kvs, NULL, "general.file_type"))) {
    if (!get_scalar(r, e, &v)) return false;
    if (v > UINT32_MAX)
      return fail(r, e->val_pos, "general.file_type %llu is out of range", (ull)v);
    g->has_file_type = true;
    g->file_type = (uint32_t)v;
  }
  if ((e = find_kv(r, kvs, NULL, "general.parameter_count"))) {
    if (!get_scalar(r, e, &g->parameter_count)) return false;
    g->has_parameter_count = true;
  }
  return true;
}

static bool extract_alignment(rd *r, const kv_list *kvs, gguf_info *g) {
  const kv_ent *e = find_kv(r, kvs, NULL, "general.alignment");
  g->alignment = GGUF_DEFAULT_ALIGNMENT;
  if (!e) return true;
  if (e->type != V_U32)
    return fail(r, e->val_pos, "general.alignment has type %s, expected uint32",
                e->type < V_NTYPES ? vtype_names[e->type] : "?");
  uint32_t a = (uint32_t)le(r->buf + e->val_pos, 4);
  if (a == 0 || (a & (a - 1)) != 0)
    return fail(r, e->val_pos, "general.alignment %u is not a power of two", a);
  g->alignment = a;
  return true;
}

static bool extract_fields(rd *r, const kv_list *kvs, gguf_info *g) {
  if (!extract_general(r, kvs, g) || !extract_alignment(r, kvs, g)) return false;
  for (int i = 0; g->arch && i < GGUF_F_COUNT; i++) {
    const kv_ent *e = find_kv(r, kvs, g->arch, fields[i].key);
    if (e && !get_field(r, e, fields[i].kind, &g->f[i])) return false;
  }
  const kv_ent *tok = find_kv(r, kvs, NULL, "tokenizer.ggml.tokens");
  if (tok && tok->type == V_ARR) {
    free(g->f[GGUF_F_VOCAB_SIZE].arr);
    g->f[GGUF_F_VOCAB_SIZE] = (gguf_field){.present = true, .value = tok->n};
  }
  return true;
}

/* ---- tensor infos ---- */

static bool read_dims(rd *r, gguf_tensor *t, const char *name) {
  uint64_t at = r->pos;
  if (!get_u32(r, "the number of dimensions", &t->ndim)) return false;
  if (t->ndim > GGUF_MAX_DIMS)
    return fail(r, at, "tensor '%s' has %u dimensions (at most %d)", name, t->ndim,
                GGUF_MAX_DIMS);
  for (uint32_t j = 0; j < t->ndim; j++) {
    if (!get_le(r, 8, "a dimension", &t->ne[j])) return false;
    if (t->ne[j] > (uint64_t)INT64_MAX)
      return fail(r, r->pos - 8, "tensor '%s': dimension %u is %llu, above int64",
                  name, j, (ull)t->ne[j]);
  }
  return true;
}

static bool size_tensor(rd *r, gguf_tensor *t, const char *name, uint64_t at) {
  const ggml_type_info *ti = ggml_type_get(t->type);
  if (!ti) return fail(r, at, "tensor '%s' has unknown ggml type %u", name, t->type);
  ggml_row_status s = ggml_tensor_bytes(t->type, t->ne, (int)t->ndim, &t->bytes, &t->elements);
  if (s == GGML_ROW_OVERFLOW || (s == GGML_ROW_OK && t->elements > (uint64_t)INT64_MAX)) {
    char dims[128] = "";
    for (uint32_t j = 0; j < t->ndim; j++)
      snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%llu", j ? " x " : "",
               (ull)t->ne[j]);
    return fail(r, at, "tensor '%s': dimensions %s overflow 64 bits", name, dims);
  }
  if (s == GGML_ROW_NOT_MULTIPLE)
    return fail(r, at, "tensor '%s': row length %llu is not a multiple of the %s block size %u",
                name, (ull)(t->ndim ? t->ne[0] : 1), ti->name, ti->block);
  return true;
}

static bool read_tensor(rd *r, gguf_tensor *t, uint32_t align) {
  uint64_t np, nn, at;
  char name[80];
  t->info_pos = r->pos;
  if (!get_str(r, "tensor name", &np, &nn)) return false;
  show(r, np, nn, name, sizeof name);
  if (nn >= 64)
    return fail(r, np - 8, "tensor name of %llu bytes is too long (at most 63)", (ull)nn);
  if (!read_dims(r, t, name)) return false;
  at = r->pos;
  if (!get_u32(r, "a tensor type", &t->type) || !size_tensor(r, t, name, at)) return false;
  at = r->pos;
  if (!get_le(r, 8, "a tensor data offset", &t->offset)) return false;
  if (t->offset % align != 0)
    return fail(r, at, "tensor '%s': data offset %llu is not a multiple of the alignment %u",
                name, (ull)t->offset, align);
  t->name = dup_bytes(r->buf + np, nn);
  return t->name ? true : oom(r);
}

/* Tensor data [offset, offset+bytes) must lie in the data region. */
static bool check_extent(rd *r, const gguf_tensor *t) {
  uint64_t end, region = r->file_size - r->pos;
  if (!bytes_add(t->offset, t->bytes, &end) || end > region)
    return fail(r, t->info_pos, "tensor '%s': data [%llu, %llu) lies past the end of the file "
                "(data region of %llu bytes)", t->name, (ull)t->offset,
                (ull)(t->offset + t->bytes), (ull)region);
  return true;
}

static int cmp_name(const void *a, const void *b) {
  const gguf_tensor *x = *(const gguf_tensor *const *)a, *y = *(const gguf_tensor *const *)b;
  return strcmp(x->name, y->name);
}

static bool check_unique(rd *r, const gguf_info *g) {
  if (g->n_tensors < 2) return true;
  const gguf_tensor **v = malloc(g->n_tensors * sizeof *v);
  if (!v) return oom(r);
  for (size_t i = 0; i < g->n_tensors; i++) v[i] = &g->tensors[i];
  qsort(v, g->n_tensors, sizeof *v, cmp_name);
  for (size_t i = 1; i < g->n_tensors; i++)
    if (strcmp(v[i - 1]->name, v[i]->name) == 0) {
      const gguf_tensor *t = v[i]->info_pos > v[i - 1]->info_pos ? v[i] : v[i - 1];
      fail(r, t->info_pos, "tensor '%s' appears twice", t->name);
      break;
    }
  free(v);
  return r->status == GGUF_OK;
}

/* ---- roles and inventory ---- */

typedef struct role_rule {
  const char *pattern; /* a substring of the name, or a prefix when it ends in '.' */
  inv_role role;
} role_rule;

/* First match wins: norms before embeddings, routers and experts before MLP. */
static const role_rule role_rules[] = {
    {"norm", ROLE_NORM},           {"token_embd", ROLE_EMBED},
    {"position_embd", ROLE_POS_EMBED}, {"output.", ROLE_LM_HEAD},
    {"ffn_gate_inp", ROLE_ROUTER}, {"exp_probs_b", ROLE_ROUTER},
    {"_shexp", ROLE_SHARED_EXPERT}, {"_exps", ROLE_EXPERT},
    {"attn", ROLE_ATTN},           {"ffn", ROLE_MLP},
};

inv_role gguf_tensor_role(const char *name) {
  for (size_t i = 0; i < sizeof role_rules / sizeof role_rules[0]; i++) {
    const char *p = role_rules[i].pattern;
    size_t n = strlen(p);
    bool prefix = p[n - 1] == '.';
    if (prefix ? strncmp(name, p, n) == 0 : strstr(name, p) != NULL)
      return role_rules[i].role;
  }
  return ROLE_OTHER;
}

static bool add_tensor(rd *r, gguf_info *g, const gguf_tensor *t) {
  if (!bytes_add(g->tensor_bytes, t->bytes, &g->tensor_bytes) ||
      !bytes_add(g->params, t->elements, &g->params))
    return fail(r, t->info_pos, "the tensors' total size overflows 64 bits");
  if (t->elements == 0) return true; /* an empty tensor holds no bytes */
  const ggml_type_info *ti = ggml_type_get(t->type);
  if (!inv_add(&g->inv, t->name, t->ne, (int)t->ndim, 1, gguf_tensor_role(t->name),
               ti->dtype))
    return oom(r);
  g->inv.t[g->inv.n - 1].stored_bytes = t->bytes;
  return true;
}

/* ---- the header ---- */

static bool read_counts(rd *r, gguf_info *g, uint64_t *n_tensors) {
  if (!need(r, 4, "the magic \"GGUF\"")) return false;
  const uint8_t *m = r->buf;
  if (memcmp(m, "GGUF", 4) != 0)
    return fail(r, 0, "not a GGUF file (magic %02x %02x %02x %02x, expected \"GGUF\")",
                m[0], m[1], m[2], m[3]);
  r->pos = 4;
  if (!get_u32(r, "the version", &g->version)) return false;
  if (g->version != 2 && g->version != 3)
    return fail(r, 4, "unsupported GGUF version %u (expected 2 or 3)", g->version);
  if (!get_le(r, 8, "the tensor count", n_tensors) ||
      !get_le(r, 8, "the key-value count", &g->n_kv))
    return false;
  /* a tensor info takes 24 bytes at least, a key-value pair 13 */
  if (*n_tensors > left(r) / 24)
    return fail(r, r->pos, "tensor count %llu exceeds what the file can hold",
                (ull)*n_tensors);
  if (g->n_kv > left(r) / 13)
    return fail(r, r->pos, "key-value count %llu exceeds what the file can hold",
                (ull)g->n_kv);
  if (*n_tensors * 24 + g->n_kv * 13 > left(r))
    return fail(r, r->pos, "tensor count %llu and key-value count %llu exceed what "
                "the file can hold", (ull)*n_tensors, (ull)g->n_kv);
  return true;
}

static bool read_tensors(rd *r, gguf_info *g, uint64_t n) {
  size_t cap = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (g->n_tensors == cap) {
      cap = cap ? cap * 2 : 64;
      gguf_tensor *t = realloc(g->tensors, cap * sizeof *t);
      if (!t) return oom(r);
      g->tensors = t;
    }
    gguf_tensor *t = &g->tensors[g->n_tensors];
    memset(t, 0, sizeof *t);
    bool ok = read_tensor(r, t, g->alignment);
    if (t->name) g->n_tensors++;
    if (!ok) return false;
  }
  return true;
}

static bool check_data(rd *r, gguf_info *g) {
  if (!bytes_align(r->pos, g->alignment, &g->data_start))
    return fail(r, r->pos, "data region start overflows");
  if (g->n_tensors == 0) return true;
  if (g->data_start > r->file_size)
    return fail(r, r->pos, "file ends after %llu bytes, before the data region at %llu",
                (ull)r->file_size, (ull)g->data_start);
  r->pos = g->data_start;
  for (size_t i = 0; i < g->n_tensors; i++)
    if (!check_extent(r, &g->tensors[i]) || !add_tensor(r, g, &g->tensors[i]))
      return false;
  return check_unique(r, g);
}

static void parse(rd *r, gguf_info *g) {
  kv_list kvs = {0};
  uint64_t n_tensors = 0;
  g->file_size = r->file_size;
  if (read_counts(r, g, &n_tensors)) {
    bool ok = true;
    for (uint64_t i = 0; ok && i < g->n_kv; i++) ok = read_kv(r, &kvs);
    if (ok && extract_fields(r, &kvs, g) && read_tensors(r, g, n_tensors))
      check_data(r, g);
  }
  free(kvs.e);
}

void gguf_info_free(gguf_info *g) {
  if (!g) return;
  free(g->arch);
  free(g->name);
  for (int i = 0; i < GGUF_F_COUNT; i++) free(g->f[i].arr);
  for (size_t i = 0; i < g->n_tensors; i++) free(g->tensors[i].name);
  free(g->tensors);
  inv_free(&g->inv);
  memset(g, 0, sizeof *g);
}

static int parse_window(const char *name, const uint8_t *buf, uint64_t len,
                        uint64_t file_size, gguf_info *out, char *err, size_t errlen) {
  rd r = {name, buf, len, 0, file_size, GGUF_OK, err, errlen};
  memset(out, 0, sizeof *out);
  inv_init(&out->inv);
  if (errlen) err[0] = '\0';
  parse(&r, out);
  if (r.status != GGUF_OK) gguf_info_free(out);
  return r.status;
}

gguf_status gguf_read_buffer_named(const char *name, const uint8_t *buf, size_t len,
                                   gguf_info *out, char *err, size_t errlen) {
  return (gguf_status)parse_window(name, buf, len, len, out, err, errlen);
}

gguf_status gguf_read_buffer(const uint8_t *buf, size_t len, gguf_info *out, char *err,
                             size_t errlen) {
  return gguf_read_buffer_named("buffer", buf, len, out, err, errlen);
}

/* ---- files: read a growing prefix until the header parses ---- */

static gguf_status io_fail(const char *path, const char *what, char *err, size_t errlen) {
  snprintf(err, errlen, "%s: %s: %s", path, what, strerror(errno));
  return GGUF_ERR_IO;
}

/* Extend buf (holding *have bytes of f) to want bytes. */
static gguf_status fill(FILE *f, uint8_t **buf, uint64_t *have, uint64_t want,
                        const char *path, char *err, size_t errlen) {
  uint8_t *p = realloc(*buf, (size_t)want);
  if (!p) {
    snprintf(err, errlen, "%s: out of memory", path);
    return GGUF_ERR_NOMEM;
  }
  *buf = p;
  size_t n = fread(p + *have, 1, (size_t)(want - *have), f);
  *have += n;
  if (*have != want) return io_fail(path, "cannot read", err, errlen);
  return GGUF_OK;
}

static gguf_status read_grow(FILE *f, uint64_t size, const char *path, gguf_info *out,
                             char *err, size_t errlen) {
  uint8_t *buf = NULL;
  uint64_t have = 0, want = size < (1u << 20) ? size : (1u << 20);
  int st;
  for (;;) {
    if ((st = fill(f, &buf, &have, want, path, err, errlen)) != GGUF_OK) break;
    if ((st = parse_window(path, buf, have, size, out, err, errlen)) != ST_MORE) break;
    if (want >= GGUF_HEADER_CAP) {
      snprintf(err, errlen, "%s: offset %llu: the header exceeds %u MiB", path,
               (ull)want, GGUF_HEADER_CAP >> 20);
      st = GGUF_ERR_FORMAT;
      break;
    }
    want = want * 2 < GGUF_HEADER_CAP ? want * 2 : GGUF_HEADER_CAP;
    if (want > size) want = size;
  }
  free(buf);
  return (gguf_status)st;
}

gguf_status gguf_read_file(const char *path, gguf_info *out, char *err, size_t errlen) {
  struct stat st;
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) return io_fail(path, "cannot open", err, errlen);
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    snprintf(err, errlen, "%s: not a regular file", path);
    return GGUF_ERR_IO;
  }
  gguf_status s = read_grow(f, (uint64_t)st.st_size, path, out, err, errlen);
  fclose(f);
  return s;
}
