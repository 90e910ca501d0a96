/*
** safetensors.c: safetensors header reader (see safetensors.h). Reads the 8-byte
** length and the JSON header only (jansson), validates every tensor's dtype, shape
** and data_offsets against the data region, then applies the checkpoint's
** quantization_config. Uses bytes.c, dtype.c and inventory.c.
*/
#define _POSIX_C_SOURCE 200809L
#include "safetensors.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bytes.h"

typedef unsigned long long ull;

typedef struct st_dt {
  const char *name;
  vf_dtype dt;
  unsigned bits;
} st_dt;

static const st_dt dtypes[] = {
    {"F64", DT_FP64, 64},        {"F32", DT_FP32, 32},        {"F16", DT_FP16, 16},
    {"BF16", DT_BF16, 16},       {"I64", DT_INT64, 64},       {"I32", DT_INT32, 32},
    {"I16", DT_INT16, 16},       {"I8", DT_INT8, 8},          {"U64", DT_UINT64, 64},
    {"U32", DT_UINT32, 32},      {"U16", DT_UINT16, 16},      {"U8", DT_UINT8, 8},
    {"BOOL", DT_BOOL, 8},        {"F8_E4M3", DT_FP8_E4M3, 8}, {"F8_E5M2", DT_FP8_E5M2, 8},
    {"F8_E8M0", DT_FP8_E8M0, 8}, {"F4", DT_FP4_E2M1, 4},      {"F6_E2M3", DT_FP6_E2M3, 6},
    {"F6_E3M2", DT_FP6_E3M2, 6},
};

static const st_dt *dt_find(const char *name) {
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (strcmp(dtypes[i].name, name) == 0) return &dtypes[i];
  return NULL;
}

static st_status fail(char *err, size_t errlen, st_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return s;
}

#define FMT(...) fail(err, errlen, ST_ERR_FORMAT, __VA_ARGS__)
#define NOMEM(name) fail(err, errlen, ST_ERR_NOMEM, "%s: out of memory", name)

/* dir/file into out; false when it does not fit. */
static bool path_join(char *out, size_t n, const char *dir, const char *file) {
  int k = snprintf(out, n, "%s/%s", dir, file);
  return k >= 0 && (size_t)k < n;
}

/* ---- one tensor entry of the header ---- */

static bool get_u64(const json_t *v, uint64_t *out) {
  if (!json_is_integer(v) || json_integer_value(v) < 0) return false;
  *out = (uint64_t)json_integer_value(v);
  return true;
}

static void shape_str(const st_tensor *t, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->ndim && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? ", " : "", (ull)t->shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

static st_status entry_fields(const char *file, const char *key, json_t *v, st_tensor *t,
                              uint64_t off[2], char *err, size_t errlen) {
  json_t *dt = json_object_get(v, "dtype"), *sh = json_object_get(v, "shape"),
         *of = json_object_get(v, "data_offsets");
  if (!json_is_object(v))
    return FMT("%s: tensor '%s': expected an object with dtype, shape, data_offsets", file, key);
  if (!json_is_string(dt)) return FMT("%s: tensor '%s': dtype is missing or not a string", file, key);
  if (!dt_find(json_string_value(dt)))
    return FMT("%s: tensor '%s': unknown dtype '%s'", file, key, json_string_value(dt));
  snprintf(t->dtype, sizeof t->dtype, "%s", json_string_value(dt));
  if (!json_is_array(sh) || json_array_size(sh) > ST_MAX_DIMS)
    return FMT("%s: tensor '%s': shape must be an array of at most %d integers", file, key,
               ST_MAX_DIMS);
  t->ndim = (int)json_array_size(sh);
  for (int i = 0; i < t->ndim; i++)
    if (!get_u64(json_array_get(sh, (size_t)i), &t->shape[i]))
      return FMT("%s: tensor '%s': shape must hold non-negative integers", file, key);
  if (!json_is_array(of) || json_array_size(of) != 2 || !get_u64(json_array_get(of, 0), &off[0]) ||
      !get_u64(json_array_get(of, 1), &off[1]))
    return FMT("%s: tensor '%s': data_offsets must be two non-negative integers", file, key);
  return ST_OK;
}

/* Elements, bytes and bounds: [begin, end) in the data region, end - begin exact. */
static st_status entry_size(const char *file, const char *key, st_tensor *t,
                            const uint64_t off[2], uint64_t data_len, char *err, size_t errlen) {
  const st_dt *d = dt_find(t->dtype);
  char sh[160];
  uint64_t n = 1, bits;
  shape_str(t, sh, sizeof sh);
  for (int i = 0; i < t->ndim; i++)
    if (!bytes_mul(n, t->shape[i], &n))
      return FMT("%s: tensor '%s': shape %s overflows 64 bits", file, key, sh);
  if (!bytes_mul(n, d->bits, &bits))
    return FMT("%s: tensor '%s': shape %s overflows 64 bits", file, key, sh);
  if (bits % 8 != 0)
    return FMT("%s: tensor '%s': %s %s is not a whole number of bytes", file, key, t->dtype, sh);
  t->elements = n;
  t->bytes = bits / 8;
  t->vdtype = d->dt;
  if (off[1] < off[0])
    return FMT("%s: tensor '%s': data_offsets [%llu, %llu) end before they begin", file, key,
               (ull)off[0], (ull)off[1]);
  if (off[1] > data_len)
    return FMT("%s: tensor '%s': data_offsets [%llu, %llu) lie past the end of the data "
               "region (%llu bytes)", file, key, (ull)off[0], (ull)off[1], (ull)data_len);
  if (off[1] - off[0] != t->bytes)
    return FMT("%s: tensor '%s': data_offsets [%llu, %llu) hold %llu bytes, but %s %s needs %llu",
               file, key, (ull)off[0], (ull)off[1], (ull)(off[1] - off[0]), t->dtype, sh,
               (ull)t->bytes);
  return ST_OK;
}

static st_tensor *push(st_model *m) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    st_tensor *t = realloc(m->t, cap * sizeof *t);
    if (!t) return NULL;
    m->t = t;
    m->cap = cap;
  }
  st_tensor *t = &m->t[m->n];
  memset(t, 0, sizeof *t);
  return t;
}

static st_status add_entry(st_model *m, const char *file, const char *key, json_t *v,
                           uint64_t data_len, char *err, size_t errlen) {
  uint64_t off[2] = {0, 0};
  st_tensor *t = push(m);
  if (!t) return NOMEM(file);
  st_status s = entry_fields(file, key, v, t, off, err, errlen);
  if (s == ST_OK) s = entry_size(file, key, t, off, data_len, err, errlen);
  if (s != ST_OK) return s;
  if (!(t->name = strdup(key))) return NOMEM(file);
  t->file = m->n_files - 1;
  m->n++;
  return ST_OK;
}

/* ---- one file's header ---- */

static st_status parse_header(const char *file, const char *json, size_t len,
                              uint64_t data_len, st_model *m, char *err, size_t errlen) {
  json_error_t je;
  json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
  if (!root)
    return FMT("%s: offset %llu: header is not valid JSON: %s (line %d, column %d)", file,
               (ull)(8 + (je.position > 0 ? (uint64_t)je.position : 0)), je.text, je.line,
               je.column);
  st_status s = ST_OK;
  if (!json_is_object(root)) s = FMT("%s: offset 8: the header is not a JSON object", file);
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if (s != ST_OK) break;
    if (strcmp(key, "__metadata__") == 0) continue;
    s = add_entry(m, file, key, v, data_len, err, errlen);
  }
  json_decref(root);
  return s;
}

static st_status add_file_name(st_model *m, const char *file) {
  char **f = realloc(m->files, (m->n_files + 1) * sizeof *f);
  if (!f) return ST_ERR_NOMEM;
  m->files = f;
  if (!(f[m->n_files] = strdup(file))) return ST_ERR_NOMEM;
  m->n_files++;
  return ST_OK;
}

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* The header length at the start of a file of `size` bytes, checked. */
static st_status header_len(const char *file, const uint8_t *p, uint64_t have, uint64_t size,
                            uint64_t *n, char *err, size_t errlen) {
  if (size < 8 || have < 8)
    return FMT("%s: offset 0: file is %llu bytes, too short for the 8-byte header length",
               file, (ull)size);
  *n = le64(p);
  if (*n > ST_HEADER_CAP)
    return FMT("%s: offset 0: header length %llu exceeds the %u MiB cap", file, (ull)*n,
               ST_HEADER_CAP >> 20);
  if (*n > size - 8)
    return FMT("%s: offset 0: header length %llu exceeds the %llu bytes after it", file,
               (ull)*n, (ull)(size - 8));
  return ST_OK;
}

static st_status read_buffer_raw(const char *name, const uint8_t *buf, size_t len,
                                 st_model *m, char *err, size_t errlen) {
  uint64_t n;
  st_status s = header_len(name, buf, len, len, &n, err, errlen);
  if (s != ST_OK) return s;
  if (add_file_name(m, name) != ST_OK) return NOMEM(name);
  return parse_header(name, (const char *)buf + 8, (size_t)n, len - 8 - n, m, err, errlen);
}

static st_status read_one(const char *path, st_model *m, char *err, size_t errlen) {
  uint8_t lenbuf[8];
  struct stat st = {0};
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, errlen, ST_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  uint64_t n, have = fstat(fileno(f), &st) == 0 ? fread(lenbuf, 1, 8, f) : 0;
  st_status s = header_len(path, lenbuf, have, (uint64_t)st.st_size, &n, err, errlen);
  char *json = s == ST_OK ? malloc(n ? (size_t)n : 1) : NULL;
  if (s == ST_OK && !json) s = NOMEM(path);
  if (s == ST_OK && fread(json, 1, (size_t)n, f) != n)
    s = fail(err, errlen, ST_ERR_IO, "%s: cannot read the header", path);
  fclose(f);
  if (s == ST_OK && add_file_name(m, path) != ST_OK) s = NOMEM(path);
  if (s == ST_OK)
    s = parse_header(path, json, (size_t)n, (uint64_t)st.st_size - 8 - n, m, err, errlen);
  free(json);
  return s;
}

/* ---- quantization: packed words and auxiliary tensors ---- */

static bool ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Scales, zero points, group indices and bitsandbytes states: not parameters. */
static const char *const aux_suffixes[] = {
    ".scales", ".qzeros", ".g_idx", "_scale", "_scale_inv", ".absmax", ".quant_map",
    ".nested_absmax", ".nested_quant_map", ".SCB", ".weight_format", "_zero_point", NULL};

static bool is_aux(const char *name) {
  if (strstr(name, ".quant_state.")) return true;
  for (int i = 0; aux_suffixes[i]; i++)
    if (ends_with(name, aux_suffixes[i])) return true;
  return false;
}

static void read_quant(st_model *m, const json_t *config) {
  json_t *q = json_object_get(config, "quantization_config");
  if (!json_is_object(q)) return;
  json_t *meth = json_object_get(q, "quant_method"), *bits = json_object_get(q, "bits");
  json_t *group = json_object_get(q, "group_size");
  m->quant.present = true;
  if (json_is_string(meth))
    snprintf(m->quant.method, sizeof m->quant.method, "%s", json_string_value(meth));
  if (json_is_integer(bits) && json_integer_value(bits) > 0 && json_integer_value(bits) <= 32)
    m->quant.bits = (unsigned)json_integer_value(bits);
  if (json_is_integer(group) && json_integer_value(group) > 0)
    m->quant.group_size = (unsigned)json_integer_value(group);
  if (json_is_true(json_object_get(q, "load_in_4bit"))) m->quant.bits = 4;
  if (json_is_true(json_object_get(q, "load_in_8bit"))) m->quant.bits = 8;
}

/* qweight/qzeros int32 words hold 32/bits values each. */
static void unpack(st_model *m, st_tensor *t) {
  if (!m->quant.bits) {
    m->quant.bits = 4;
    m->quant.bits_assumed = true;
    snprintf(m->note, sizeof m->note, "no quantization_config.bits found: packed int32 "
             "tensors (qweight, qzeros) assumed to hold 4-bit values");
  }
  uint64_t n;
  if (bytes_muldiv(t->elements, 32, m->quant.bits, &n)) t->elements = n;
  t->vdtype = m->quant.bits <= 4 ? DT_INT4 : DT_INT8;
  t->flags |= ST_FLAG_PACKED;
}

/* bitsandbytes 4-bit: a uint8 weight holds two values. */
static bool bnb4(const st_model *m, const st_tensor *t) {
  return m->quant.bits == 4 && strcmp(m->quant.method, "bitsandbytes") == 0 &&
         strcmp(t->dtype, "U8") == 0 && ends_with(t->name, ".weight");
}

static void classify(st_model *m, st_tensor *t) {
  bool packed_name = ends_with(t->name, ".qweight") || ends_with(t->name, ".qzeros");
  if (packed_name && strcmp(t->dtype, "I32") == 0) unpack(m, t);
  if (bnb4(m, t)) {
    t->elements *= 2;
    t->vdtype = DT_INT4;
    t->flags |= ST_FLAG_PACKED;
  }
  if ((m->quant.present || packed_name || t->flags) && is_aux(t->name))
    t->flags |= ST_FLAG_QUANT_AUX;
}

/* ---- totals ----
** Tensor roles are not assigned here: scripts/model_files.lua gives a file's tensors the roles of
** its architecture's description (with_arch_roles), the one table the estimate reads. */

static st_status finish(st_model *m, const json_t *config, char *err, size_t errlen) {
  read_quant(m, config);
  for (size_t i = 0; i < m->n; i++) {
    st_tensor *t = &m->t[i];
    classify(m, t);
    bool aux = t->flags & ST_FLAG_QUANT_AUX;
    uint64_t *p = aux ? &m->aux_params : &m->params, *b = aux ? &m->aux_bytes : &m->bytes;
    if (!bytes_add(*p, t->elements, p) || !bytes_add(*b, t->bytes, b))
      return FMT("%s: the tensors' total size overflows 64 bits", m->files[t->file]);
  }
  return ST_OK;
}

/* ---- entry points ---- */

static void model_init(st_model *m) {
  memset(m, 0, sizeof *m);
}

void st_model_free(st_model *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n; i++) free(m->t[i].name);
  for (size_t i = 0; i < m->n_files; i++) free(m->files[i]);
  free(m->t);
  free(m->files);
  model_init(m);
}

static st_status done(st_model *m, st_status s, json_t *config, char *err, size_t errlen) {
  if (s == ST_OK) s = finish(m, config, err, errlen);
  json_decref(config);
  if (s != ST_OK) st_model_free(m);
  return s;
}

st_status st_read_buffer(const char *name, const uint8_t *buf, size_t len,
                         const char *config_json, st_model *m, char *err, size_t errlen) {
  model_init(m);
  json_t *config = config_json ? json_loads(config_json, 0, NULL) : NULL;
  return done(m, read_buffer_raw(name, buf, len, m, err, errlen), config, err, errlen);
}

/* dir/config.json, or NULL when there is none or it is not a JSON object. */
static json_t *load_config(const char *dir) {
  char path[4096];
  json_t *c = path_join(path, sizeof path, dir, "config.json") ? json_load_file(path, 0, NULL) : NULL;
  if (c && !json_is_object(c)) {
    json_decref(c);
    c = NULL;
  }
  return c;
}

static void dir_of(const char *path, char *out, size_t n) {
  const char *slash = strrchr(path, '/');
  int len = slash ? (int)((slash - path) ? slash - path : 1) : 1;
  if (snprintf(out, n, "%.*s", len, slash ? path : ".") >= (int)n) out[0] = '\0';
}

st_status st_read_file(const char *path, st_model *m, char *err, size_t errlen) {
  char dir[4096];
  model_init(m);
  dir_of(path, dir, sizeof dir);
  return done(m, read_one(path, m, err, errlen), load_config(dir), err, errlen);
}

/* ---- sharded models ---- */


static int cmp_tname(const void *a, const void *b) {
  return strcmp((*(const st_tensor *const *)a)->name, (*(const st_tensor *const *)b)->name);
}

/* Every tensor of weight_map must be in the file it is mapped to. */
static st_status check_map(st_model *m, const char *index, json_t *map, char *err,
                           size_t errlen) {
  const st_tensor **v = malloc((m->n ? m->n : 1) * sizeof *v);
  if (!v) return NOMEM(index);
  for (size_t i = 0; i < m->n; i++) v[i] = &m->t[i];
  qsort(v, m->n, sizeof *v, cmp_tname);
  st_status s = ST_OK;
  const char *key;
  json_t *file;
  json_object_foreach(map, key, file) {
    st_tensor probe = {.name = (char *)key}, *pp = &probe;
    if (!bsearch(&pp, v, m->n, sizeof *v, cmp_tname)) {
      s = FMT("%s: tensor '%s' is mapped to '%s', which does not hold it", index, key,
              json_string_value(file));
      break;
    }
  }
  free(v);
  return s;
}

static bool seen_file(const st_model *m, const char *path) {
  for (size_t i = 0; i < m->n_files; i++)
    if (strcmp(m->files[i], path) == 0) return true;
  return false;
}

static st_status read_shards(st_model *m, const char *index, const char *dir, json_t *map,
                             char *err, size_t errlen) {
  const char *key;
  json_t *file;
  char path[4096];
  json_object_foreach(map, key, file) {
    const char *f = json_string_value(file);
    if (!f || !*f || strchr(f, '/') || strchr(f, '\\') || strcmp(f, "..") == 0)
      return FMT("%s: weight_map['%s'] must name a file in the same folder", index, key);
    if (!path_join(path, sizeof path, dir, f)) return FMT("%s: path too long", index);
    if (seen_file(m, path)) continue;
    st_status s = read_one(path, m, err, errlen);
    if (s != ST_OK) return s;
  }
  return check_map(m, index, map, err, errlen);
}

st_status st_read_index(const char *index_path, st_model *m, char *err, size_t errlen) {
  json_error_t je;
  char dir[4096];
  model_init(m);
  dir_of(index_path, dir, sizeof dir);
  json_t *root = json_load_file(index_path, JSON_REJECT_DUPLICATES, &je), *map;
  st_status s = ST_OK;
  if (!root)
    s = FMT("%s: line %d, column %d: %s", index_path, je.line, je.column, je.text);
  else if (!json_is_object(map = json_object_get(root, "weight_map")))
    s = FMT("%s: expected an object \"weight_map\" of tensor names to files", index_path);
  else
    s = read_shards(m, index_path, dir, map, err, errlen);
  json_decref(root);
  return done(m, s, load_config(dir), err, errlen);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.safetensors names in dir, sorted; NULL-terminated, owned by the caller. */
static char **list_safetensors(const char *dir, size_t *n) {
  DIR *d = opendir(dir);
  char **v = NULL;
  struct dirent *e;
  *n = 0;
  if (!d) return NULL;
  while ((e = readdir(d))) {
    if (!ends_with(e->d_name, ".safetensors") || e->d_name[0] == '.') continue;
    char **w = realloc(v, (*n + 2) * sizeof *v);
    if (!w || !(w[*n] = strdup(e->d_name))) {
      v = w ? w : v;
      break;
    }
    v = w;
    v[++*n] = NULL;
  }
  closedir(d);
  if (v) qsort(v, *n, sizeof *v, cmp_str);
  return v;
}

st_status st_read_dir(const char *dir, st_model *m, char *err, size_t errlen) {
  char path[4096];
  struct stat st;
  if (path_join(path, sizeof path, dir, "model.safetensors.index.json") && stat(path, &st) == 0) return st_read_index(path, m, err, errlen);
  model_init(m);
  size_t n;
  char **files = list_safetensors(dir, &n);
  st_status s = n ? ST_OK : fail(err, errlen, ST_ERR_IO, "%s: no .safetensors file", dir);
  for (size_t i = 0; s == ST_OK && i < n; i++) {
    if (!path_join(path, sizeof path, dir, files[i]))
      s = fail(err, errlen, ST_ERR_IO, "%s: path too long", dir);
    else
      s = read_one(path, m, err, errlen);
  }
  for (size_t i = 0; i < n; i++) free(files[i]);
  free(files);
  return done(m, s, load_config(dir), err, errlen);
}
