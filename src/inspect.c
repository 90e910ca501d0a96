/*
** inspect.c: model paths to JSON reports (see inspect.h). Dispatches on what the
** path is, reads it with gguf.c or safetensors.c, and adds config.json's
** architecture and quantization_config. Uses jansson for output.
*/
#define _POSIX_C_SOURCE 200809L
#include "inspect.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dtype.h"
#include "ggml_types.h"
#include "gguf.h"
#include "safetensors.h"

#define NOMEM_IF(x) ((x) ? INSPECT_OK : INSPECT_ERR_NOMEM)

static json_t *u64(uint64_t v) {
  return json_integer((json_int_t)v); /* byte counts of real files fit int64 */
}

static void add_bytes(json_t *obj, const char *key, uint64_t n) {
  json_t *old = json_object_get(obj, key);
  uint64_t v = old ? (uint64_t)json_integer_value(old) : 0;
  json_object_set_new(obj, key, u64(v + n));
}

static json_t *shape_json(const uint64_t *shape, int ndim) {
  json_t *a = json_array();
  for (int i = 0; i < ndim; i++) json_array_append_new(a, u64(shape[i]));
  return a;
}

static json_t *tensor_json(const char *name, const char *dtype, const uint64_t *shape,
                           int ndim, uint64_t bytes) {
  return json_pack("{s:s, s:s, s:o, s:o}", "name", name, "dtype", dtype, "shape",
                   shape_json(shape, ndim), "bytes", u64(bytes));
}

/* ---- GGUF ---- */

static json_t *gguf_meta(const gguf_info *g) {
  json_t *m = json_object();
  for (int i = 0; i < GGUF_F_COUNT; i++) {
    const gguf_field *f = &g->f[i];
    if (!f->present) continue;
    json_t *v = f->arr ? json_array() : u64(f->value);
    for (size_t k = 0; f->arr && k < f->n_arr; k++) json_array_append_new(v, u64(f->arr[k]));
    json_object_set_new(m, gguf_field_key((gguf_field_id)i), v);
  }
  if (g->has_parameter_count) json_object_set_new(m, "parameter_count", u64(g->parameter_count));
  if (g->name) json_object_set_new(m, "name", json_string(g->name));
  json_object_set_new(m, "version", json_integer(g->version));
  json_object_set_new(m, "alignment", json_integer(g->alignment));
  return m;
}

static json_t *gguf_quant(const gguf_info *g) {
  if (!g->has_file_type) return json_null();
  const char *s = ggml_ftype_short(g->file_type);
  return json_pack("{s:s, s:i, s:s?}", "method", "gguf", "file_type", (json_int_t)g->file_type,
                   "name", s);
}

static json_t *gguf_json(const gguf_info *g, bool with_tensors) {
  json_t *o = json_object(), *dt = json_object(), *ts = json_array();
  for (size_t i = 0; i < g->n_tensors; i++) {
    const gguf_tensor *t = &g->tensors[i];
    const char *tn = ggml_type_get(t->type)->name;
    add_bytes(dt, tn, t->bytes);
    if (with_tensors)
      json_array_append_new(ts, tensor_json(t->name, tn, t->ne, (int)t->ndim, t->bytes));
  }
  json_object_set_new(o, "format", json_string("gguf"));
  json_object_set_new(o, "arch", g->arch ? json_string(g->arch) : json_null());
  json_object_set_new(o, "params", u64(g->params));
  json_object_set_new(o, "weight_bytes", u64(g->tensor_bytes));
  json_object_set_new(o, "dtypes", dt);
  json_object_set_new(o, "quantization", gguf_quant(g));
  json_object_set_new(o, "metadata", gguf_meta(g));
  json_object_set_new(o, "file_bytes", u64(g->file_size));
  if (with_tensors) json_object_set_new(o, "tensors", ts); else json_decref(ts);
  return o;
}

static inspect_status do_gguf(const char *path, bool with_tensors, json_t **out, char *err,
                              size_t errlen) {
  gguf_info g;
  gguf_status s = gguf_read_file(path, &g, err, errlen);
  if (s != GGUF_OK) return (inspect_status)s;
  *out = gguf_json(&g, with_tensors);
  gguf_info_free(&g);
  return NOMEM_IF(*out);
}

/* ---- config.json ---- */

static json_t *config_arch(const json_t *cfg) {
  const char *mt = json_string_value(json_object_get(cfg, "model_type"));
  const char *cn = json_string_value(json_object_get(cfg, "_class_name"));
  const char *a0 = json_string_value(json_array_get(json_object_get(cfg, "architectures"), 0));
  const char *a = mt ? mt : a0 ? a0 : cn;
  return a ? json_string(a) : json_null();
}

static json_t *config_quant(const json_t *cfg) {
  json_t *q = json_object_get(cfg, "quantization_config");
  return json_is_object(q) ? json_deep_copy(q) : json_null();
}

static json_t *load_json(const char *path) {
  json_t *c = json_load_file(path, 0, NULL);
  if (c && !json_is_object(c)) {
    json_decref(c);
    return NULL;
  }
  return c;
}

static json_t *config_json(const json_t *cfg) {
  json_t *o = json_object();
  json_object_set_new(o, "format", json_string("config"));
  json_object_set_new(o, "arch", config_arch(cfg));
  json_object_set_new(o, "params", json_null());
  json_object_set_new(o, "weight_bytes", json_null());
  json_object_set_new(o, "dtypes", json_object());
  json_object_set_new(o, "quantization", config_quant(cfg));
  json_object_set(o, "config", (json_t *)cfg);
  return o;
}

/* ---- safetensors ---- */

static const char *st_dtype_name(const st_tensor *t) {
  vf_dtype d;
  return dtype_parse(t->dtype, &d) ? dtype_get(d)->name : t->dtype;
}

static json_t *st_quant_json(const st_model *m, const json_t *cfg) {
  json_t *q = config_quant(cfg);
  if (json_is_null(q) && m->quant.bits_assumed)
    q = json_pack("{s:s}", "quant_method", "gptq");
  if (json_is_object(q) && m->quant.bits_assumed) {
    json_object_set_new(q, "bits", json_integer(m->quant.bits));
    json_object_set_new(q, "bits_assumed", json_true());
  }
  for (size_t i = 0; json_is_null(q) && i < m->n; i++)
    if (strncmp(m->t[i].dtype, "F8_", 3) == 0) {
      json_decref(q);
      q = json_pack("{s:s}", "quant_method", "fp8");
    }
  return q;
}

static json_t *st_json(const st_model *m, const json_t *cfg, bool with_tensors) {
  json_t *o = json_object(), *dt = json_object(), *ts = json_array();
  for (size_t i = 0; i < m->n; i++) {
    const st_tensor *t = &m->t[i];
    add_bytes(dt, st_dtype_name(t), t->bytes);
    if (!with_tensors) continue;
    json_t *j = tensor_json(t->name, st_dtype_name(t), t->shape, t->ndim, t->bytes);
    if (t->flags & ST_FLAG_PACKED) json_object_set_new(j, "elements", u64(t->elements));
    if (t->flags & ST_FLAG_QUANT_AUX) json_object_set_new(j, "quant_aux", json_true());
    json_array_append_new(ts, j);
  }
  json_object_set_new(o, "format", json_string("safetensors"));
  json_object_set_new(o, "arch", cfg ? config_arch(cfg) : json_null());
  json_object_set_new(o, "params", u64(m->params));
  json_object_set_new(o, "weight_bytes", u64(m->bytes + m->aux_bytes));
  json_object_set_new(o, "dtypes", dt);
  json_object_set_new(o, "quantization", st_quant_json(m, cfg));
  json_object_set_new(o, "quant_aux", json_pack("{s:o, s:o}", "params", u64(m->aux_params),
                                                "bytes", u64(m->aux_bytes)));
  json_object_set_new(o, "files", json_integer((json_int_t)m->n_files));
  if (m->note[0]) json_object_set_new(o, "note", json_string(m->note));
  if (with_tensors) json_object_set_new(o, "tensors", ts); else json_decref(ts);
  return o;
}

static bool has_suffix(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

static bool join(char *out, size_t n, const char *dir, const char *file) {
  int k = snprintf(out, n, "%s/%s", dir, file);
  return k >= 0 && (size_t)k < n;
}

static void parent(const char *path, char *out, size_t n) {
  const char *slash = strrchr(path, '/');
  int len = slash ? (int)((slash - path) ? slash - path : 1) : 1;
  if (snprintf(out, n, "%.*s", len, slash ? path : ".") >= (int)n) out[0] = '\0';
}

/* kind: 0 file, 1 index, 2 directory */
static inspect_status do_st(const char *path, int kind, bool with_tensors, json_t **out,
                            char *err, size_t errlen) {
  st_model m;
  char dir[4096], cp[4096];
  st_status s = kind == 0   ? st_read_file(path, &m, err, errlen)
                : kind == 1 ? st_read_index(path, &m, err, errlen)
                            : st_read_dir(path, &m, err, errlen);
  if (s != ST_OK) return (inspect_status)s;
  if (kind == 2)
    snprintf(dir, sizeof dir, "%s", path);
  else
    parent(path, dir, sizeof dir);
  json_t *cfg = join(cp, sizeof cp, dir, "config.json") ? load_json(cp) : NULL;
  *out = st_json(&m, cfg, with_tensors);
  json_decref(cfg);
  st_model_free(&m);
  return NOMEM_IF(*out);
}

/* ---- diffusers ---- */

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static bool has_weights(const char *dir);

static void merge_component(json_t *o, const char *name, json_t *c) {
  json_t *dt = json_object_get(c, "dtypes"), *v;
  const char *k;
  add_bytes(o, "params", (uint64_t)json_integer_value(json_object_get(c, "params")));
  add_bytes(o, "weight_bytes", (uint64_t)json_integer_value(json_object_get(c, "weight_bytes")));
  json_object_foreach(dt, k, v) add_bytes(json_object_get(o, "dtypes"), k, (uint64_t)json_integer_value(v));
  json_object_set_new(json_object_get(o, "components"), name, c);
}

static inspect_status do_diffusers(const char *dir, bool with_tensors, json_t **out,
                                   char *err, size_t errlen) {
  char p[4096];
  json_t *idx = join(p, sizeof p, dir, "model_index.json") ? load_json(p) : NULL;
  if (!idx) {
    snprintf(err, errlen, "%s: model_index.json is missing or not a JSON object", dir);
    return INSPECT_ERR_FORMAT;
  }
  json_t *o = json_pack("{s:s, s:o, s:i, s:i, s:{}, s:n, s:{}}", "format", "diffusers",
                        "arch", config_arch(idx), "params", 0, "weight_bytes", 0, "dtypes",
                        "quantization", "components");
  const char *key;
  json_t *v;
  inspect_status s = INSPECT_OK;
  json_object_foreach(idx, key, v) {
    if (!json_is_array(v) || !join(p, sizeof p, dir, key) || !is_dir(p) || !has_weights(p))
      continue;
    json_t *c = NULL;
    if ((s = do_st(p, 2, with_tensors, &c, err, errlen)) != INSPECT_OK) break;
    merge_component(o, key, c);
  }
  json_decref(idx);
  if (s != INSPECT_OK) json_decref(o);
  *out = s == INSPECT_OK ? o : NULL;
  return s;
}

/* ---- dispatch ---- */

/* A folder holds weights when it has an index or a *.safetensors file. */
static bool has_weights(const char *dir) {
  char p[4096];
  if (join(p, sizeof p, dir, "model.safetensors.index.json") && exists(p)) return true;
  DIR *d = opendir(dir);
  struct dirent *e;
  bool found = false;
  while (d && !found && (e = readdir(d)))
    found = e->d_name[0] != '.' && has_suffix(e->d_name, ".safetensors");
  if (d) closedir(d);
  return found;
}

static inspect_status do_dir(const char *dir, bool with_tensors, json_t **out, char *err,
                             size_t errlen) {
  char p[4096];
  if (join(p, sizeof p, dir, "model_index.json") && exists(p))
    return do_diffusers(dir, with_tensors, out, err, errlen);
  if (has_weights(dir)) return do_st(dir, 2, with_tensors, out, err, errlen);
  json_t *cfg = join(p, sizeof p, dir, "config.json") ? load_json(p) : NULL;
  if (!cfg) {
    snprintf(err, errlen, "%s: no .gguf, .safetensors, config.json or model_index.json", dir);
    return INSPECT_ERR_FORMAT;
  }
  *out = config_json(cfg);
  json_decref(cfg);
  return NOMEM_IF(*out);
}

static inspect_status do_json(const char *path, bool with_tensors, json_t **out, char *err,
                              size_t errlen) {
  char dir[4096];
  if (has_suffix(path, ".index.json")) return do_st(path, 1, with_tensors, out, err, errlen);
  parent(path, dir, sizeof dir);
  if (has_suffix(path, "model_index.json")) return do_diffusers(dir, with_tensors, out, err, errlen);
  json_error_t je;
  json_t *cfg = json_load_file(path, 0, &je);
  if (!json_is_object(cfg)) {
    snprintf(err, errlen, "%s: line %d, column %d: %s", path, je.line, je.column,
             cfg ? "expected a JSON object" : je.text);
    json_decref(cfg);
    return INSPECT_ERR_FORMAT;
  }
  *out = config_json(cfg);
  json_decref(cfg);
  return NOMEM_IF(*out);
}

inspect_status inspect_path(const char *path, bool with_tensors, json_t **out, char *err,
                            size_t errlen) {
  struct stat st;
  *out = NULL;
  if (stat(path, &st) != 0) {
    snprintf(err, errlen, "%s: no such file or directory", path);
    return INSPECT_ERR_IO;
  }
  if (S_ISDIR(st.st_mode)) return do_dir(path, with_tensors, out, err, errlen);
  if (has_suffix(path, ".safetensors")) return do_st(path, 0, with_tensors, out, err, errlen);
  if (has_suffix(path, ".json")) return do_json(path, with_tensors, out, err, errlen);
  return do_gguf(path, with_tensors, out, err, errlen); /* .gguf, or its magic decides */
}
