/*
** engine.c: the public API of include/vramfit.h. An engine owns a Lua host, the GPU
** catalog, the last expanded scenario file and the last result. Evaluation: the Lua
** driver expands and normalizes a scenario; lua_read.c turns it into C structs;
** estimate.c and fit.c compute; report.c formats.
*/
#include "vramfit.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine_int.h"
#include "estimate.h"
#include "fit.h"
#include "inspect.h"
#include "lua_host.h"
#include "lua_read.h"
#include "lua_sweep.h"
#include "report.h"

#ifndef VF_DATADIR
#define VF_DATADIR "/usr/local/share/vramfit"
#endif

struct vf_engine {
  host *h;
  catalog cat;
  bool cat_loaded;
  char err[2048];
  char *out;
  char *cached_path; /* the file whose expanded list is cached */
  struct stat cached_st; /* its identity, size and times when it was read */
  int cached_ref;
  size_t cached_n;
  model_desc m;
  scenario s;
  estimate e;
  gpu g;
  fit_row *rows;
  size_t n_rows;
  vf_category cats[BUDGET_MAX];
  vf_fit_row *frows;
  vf_result res;
};

static const char *const status_messages[] = {
#define VF_STATUS_MSG(name, value, message) [value] = message,
    VF_STATUS_TABLE(VF_STATUS_MSG)
#undef VF_STATUS_MSG
};

const char *vf_status_message(vf_status status) {
  if ((unsigned)status >= sizeof status_messages / sizeof *status_messages) return "unknown status";
  return status_messages[status];
}

const char *vf_version(void) {
  return VF_VERSION_STRING;
}

const char *vf_engine_error(const vf_engine *engine) {
  return engine ? engine->err : "no engine";
}

void vf_options_init(vf_options *opt) {
  memset(opt, 0, sizeof *opt);
}

vf_status vf_engine_new(const vf_options *opt, vf_engine **out) {
  vf_options dflt;
  if (!opt) {
    vf_options_init(&dflt);
    opt = &dflt;
  }
  *out = NULL;
  vf_engine *e = calloc(1, sizeof *e);
  if (!e) return VF_ENOMEM;
  size_t n = 0;
  while (opt->script_dirs && opt->script_dirs[n]) n++;
  host_options ho = {opt->script_dirs, n, opt->data_dir ? opt->data_dir : VF_DATADIR,
                     opt->instruction_limit, opt->memory_limit, opt->alloc, opt->alloc_ud};
  char err[1024] = "";
  e->cached_ref = LUA_NOREF;
  model_init(&e->m);
  if (!catalog_init(&e->cat) || !(e->h = host_new(&ho, err, sizeof err))) {
    /* a broken shipped or user script fails here; the message names its file and
    ** reaches the caller through the message callback */
    if (opt->message) opt->message(opt->message_ud, "error", err[0] ? err : "out of memory");
    vf_engine_free(e);
    return err[0] && strcmp(err, "out of memory") != 0 ? VF_ESCRIPT : VF_ENOMEM;
  }
  *out = e;
  return VF_OK;
}

static void engine_clear_result(vf_engine *e) {
  free(e->out);
  e->out = NULL;
  free(e->rows);
  e->rows = NULL;
  e->n_rows = 0;
  free(e->frows);
  e->frows = NULL;
  model_free(&e->m);
  model_init(&e->m);
  memset(&e->res, 0, sizeof e->res);
}

void vf_engine_free(vf_engine *e) {
  if (!e) return;
  engine_clear_result(e);
  free(e->cached_path);
  host_free(e->h);
  catalog_free(&e->cat);
  free(e);
}

static vf_status fail(vf_engine *e, vf_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static vf_status fail(vf_engine *e, vf_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->err, sizeof e->err, fmt, ap);
  va_end(ap);
  return st;
}

/* A Lua failure: the budget and memory limits, or the script's own message. */
vf_status script_status(const char *msg) {
  if (strcmp(msg, "out of memory") == 0 || strstr(msg, ": out of memory")) return VF_ENOMEM;
  return host_is_limit_message(msg) ? VF_ELIMIT : VF_EINVAL;
}

static vf_status load_catalog_unprotected(vf_engine *e) {
  if (e->cat_loaded) return VF_OK;
  char err[1024];
  if (!host_load_catalog(e->h, &e->cat, err, sizeof err)) return fail(e, VF_ESCRIPT, "%s", err);
  e->cat_loaded = true;
  return VF_OK;
}

/* The scenario's GPU entries resolved against the catalog (inline ones kept). */
static vf_status resolve_gpus(vf_engine *e, scenario *s, const char *where) {
  char err[512];
  for (int i = 0; i < s->n_gpus; i++)
    if (!catalog_resolve(&e->cat, &s->gpus[i], err, sizeof err)) return fail(e, VF_EINVAL, "%s: gpu: %s", where, err);
  return VF_OK;
}

static bool same_file(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* Loads and expands a file once; later calls on the same, unchanged file reuse the list. */
static vf_status expand_file_unprotected(vf_engine *e, const char *path, const char *text, size_t len) {
  lua_State *L = host_state(e->h);
  char err[2048];
  /* reused only while the file is the same one, unchanged: a service that rewrites a
  ** scenario at one path (or a mkstemp name reused after unlink) got the old figures */
  struct stat st;
  bool have_st = !text && strcmp(path, "-") != 0 && stat(path, &st) == 0;
  if (have_st && e->cached_path && strcmp(e->cached_path, path) == 0 && same_file(&st, &e->cached_st)) return VF_OK;
  free(e->cached_path);
  e->cached_path = NULL;
  luaL_unref(L, LUA_REGISTRYINDEX, e->cached_ref);
  e->cached_ref = LUA_NOREF;
  if (!lsweep_load(e->h, path, text, len, &e->cached_ref, err, sizeof err)) return fail(e, script_status(err), "%s", err);
  lua_rawgeti(L, LUA_REGISTRYINDEX, e->cached_ref);
  /* the list is lazy (scripts/engine.lua): its raw field __n is the count; read raw,
  ** so that no metamethod runs outside a protected call */
  lua_pushliteral(L, "__n");
  e->cached_n = lua_rawget(L, -2) == LUA_TNUMBER ? (size_t)lua_tointeger(L, -1) : lua_rawlen(L, -2);
  lua_pop(L, 2);
  if (!have_st) return VF_OK; /* text, standard input or a file stat could not see: not cached */
  if (!(e->cached_path = strdup(path))) return fail(e, VF_ENOMEM, "out of memory");
  e->cached_st = st;
  return VF_OK;
}

/* Normalizes scenario index i of the cached list into e->s and e->m. */
static vf_status prepare_unprotected(vf_engine *e, const char *path, size_t i, const vf_request *req) {
  char err[2048];
  const char *where = strcmp(path, "-") == 0 ? "<stdin>" : path;
  if (lsweep_prepare(e->h, e->cached_ref, i, req->sets, req->n_sets, req->gpus, req->n_gpus, &e->s, &e->m, err,
                     sizeof err))
    return VF_OK;
  if (e->cached_n > 1) return fail(e, script_status(err), "%s: scenario %zu: %s", where, i + 1, err);
  return fail(e, script_status(err), "%s: %s", where, err);
}

/* ---- protected steps: a Lua API call outside lua_pcall that runs out of memory would
** reach Lua's panic and abort(); each step that touches the state runs under a pcall ---- */

typedef struct step {
  vf_engine *e;
  int kind; /* 0 catalog, 1 expand, 2 prepare */
  const char *path, *text;
  size_t len, index;
  const vf_request *req;
  vf_status st;
} step;

static int step_run(lua_State *L) {
  step *s = lua_touserdata(L, 1);
  lua_pop(L, 1);
  if (s->kind == 0) s->st = load_catalog_unprotected(s->e);
  else if (s->kind == 1) s->st = expand_file_unprotected(s->e, s->path, s->text, s->len);
  else s->st = prepare_unprotected(s->e, s->path, s->index, s->req);
  return 0;
}

/* Only memory errors escape the step (its scripts run under their own pcall). */
static vf_status protect(step *s) {
  lua_State *L = host_state(s->e->h);
  int top = lua_gettop(L);
  lua_pushcfunction(L, step_run);
  lua_pushlightuserdata(L, s);
  if (lua_pcall(L, 1, 0, 0) == LUA_OK) return s->st;
  lua_settop(L, top);
  return fail(s->e, VF_ENOMEM, "out of memory");
}

static vf_status load_catalog(vf_engine *e) {
  step s = {e, 0, NULL, NULL, 0, 0, NULL, VF_OK};
  return protect(&s);
}

static vf_status expand_file(vf_engine *e, const char *path, const char *text, size_t len) {
  step s = {e, 1, path, text, len, 0, NULL, VF_OK};
  return protect(&s);
}

static vf_status prepare(vf_engine *e, const char *path, size_t i, const vf_request *req) {
  step s = {e, 2, path, NULL, 0, i, req, VF_OK};
  return protect(&s);
}

/* llama.cpp on its CPU backend: every buffer in host memory, no GPU taking part */
static bool host_backend(const scenario *s) {
  return strcmp(s->runtime, "llamacpp") == 0 && strcmp(scn_str(s, "runtime.device", "gpu"), "cpu") == 0;
}

/* The GPU the categories are computed for: the scenario's first, else the default; on
** llama.cpp's CPU backend the host, of runtime.host_memory (0: not given). */
static vf_status report_gpu(vf_engine *e) {
  if (host_backend(&e->s)) {
    memset(&e->g, 0, sizeof e->g);
    snprintf(e->g.name, sizeof e->g.name, "host");
    snprintf(e->g.arch, sizeof e->g.arch, "cpu");
    e->g.memory = scn_u64(&e->s, "runtime.host_memory", 0);
    if (e->s.n_gpus > 0) scenario_note(&e->s, "CPU backend: the scenario's GPU takes no part");
    return VF_OK;
  }
  if (e->s.n_gpus > 0) {
    e->g = e->s.gpus[0];
    return VF_OK;
  }
  char err[256];
  const gpu *g = catalog_find(&e->cat, CATALOG_DEFAULT_GPU, err, sizeof err);
  if (!g) return fail(e, VF_ESCRIPT, "catalog: %s", err);
  e->g = *g;
  scenario_note(&e->s, "no gpu given: figures that depend on the GPU are for %s", CATALOG_DEFAULT_GPU);
  return VF_OK;
}

/* Fit rows: every requested GPU (or the catalog) with `all`, else the report's GPU, whose
** estimate (on dev) is reused rather than made again. On llama.cpp's CPU backend (the
** estimate says so) the host is the one device, judged when its memory is given. */
static vf_status run_fit(vf_engine *e, bool all, const scenario *dev) {
  bool cpu_host = e->e.host_backend;
  all = all && !cpu_host;
  const gpu *list = !all ? &e->g : e->s.n_gpus ? e->s.gpus : e->cat.v;
  size_t n = cpu_host ? (e->g.memory ? 1 : 0) : !all ? 1 : e->s.n_gpus ? (size_t)e->s.n_gpus : e->cat.n;
  if (cpu_host && !n) scenario_note(&e->s, "CPU backend: give runtime.host_memory (e.g. \"64GiB\") to fit the host");
  e->rows = calloc(n ? n : 1, sizeof *e->rows);
  if (!e->rows) return fail(e, VF_ENOMEM, "out of memory");
  char err[512];
  for (size_t i = 0; i < n; i++) {
    int rc = all ? fit_gpu(&e->m, &e->s, &list[i], &e->rows[i], err, sizeof err)
                 : fit_gpu_from(&e->m, dev, &e->e, &list[i], &e->rows[i], err, sizeof err);
    if (rc != 0) return fail(e, VF_EOVERFLOW, "%s", err);
  }
  e->n_rows = n;
  return VF_OK;
}

static vf_status fill_result(vf_engine *e) {
  for (int i = 0; i < e->e.b.n; i++) {
    const budget_item *it = &e->e.b.items[i];
    e->cats[i] = (vf_category){it->name, it->component, it->bytes, basis_name(it->basis), it->detail};
  }
  e->frows = calloc(e->n_rows ? e->n_rows : 1, sizeof *e->frows);
  if (!e->frows) return fail(e, VF_ENOMEM, "out of memory");
  for (size_t i = 0; i < e->n_rows; i++) {
    const fit_row *f = &e->rows[i];
    e->frows[i] = (vf_fit_row){f->g.name,        f->g.memory,     f->fits,       f->count,
                               f->used_fraction,  f->total,        f->max_concurrency,
                               f->max_context,    f->max_micro_batch, f->max_seq_len, f->layout,
                               f->max_width,      f->max_height,   f->max_frames};
  }
  e->res = (vf_result){e->s.name, e->m.id, e->m.arch, e->e.params, e->e.weight_bytes, e->e.kv_bytes_per_token,
                       e->g.name, e->e.devices, e->cats, (size_t)e->e.b.n, e->e.peak_allocated,
                       e->e.peak_reserved, e->e.total, e->frows, e->n_rows};
  return VF_OK;
}

static vf_status format_output(vf_engine *e, vf_format format) {
  report_in in = {&e->m, &e->s, &e->e, &e->g, e->rows, e->n_rows};
  if (format == VF_FORMAT_TABLE) {
    e->out = report_table(&in);
  } else if (format == VF_FORMAT_CSV) {
    e->out = report_csv(&in);
  } else {
    json_t *j = report_json(&in);
    e->out = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(j);
  }
  return e->out ? VF_OK : fail(e, VF_ENOMEM, "out of memory");
}

static vf_status evaluate(vf_engine *e, const char *path, size_t index, const vf_request *req, const char **out) {
  vf_status st;
  char err[1024];
  if ((st = prepare(e, path, index, req)) != VF_OK) return st;
  if ((st = load_catalog(e)) != VF_OK || (st = resolve_gpus(e, &e->s, strcmp(path, "-") ? path : "<stdin>")) != VF_OK) return st;
  if ((st = report_gpu(e)) != VF_OK) return st;
  scenario dev;
  fit_device_scenario(&e->s, &e->g, &dev);
  if (estimate_run(&e->m, &dev, &e->e, err, sizeof err) != 0) return fail(e, VF_EOVERFLOW, "%s: %s", path, err);
  if ((st = run_fit(e, req->fit != 0, &dev)) != VF_OK) return st;
  if ((st = fill_result(e)) != VF_OK || (st = format_output(e, req->format)) != VF_OK) return st;
  *out = e->out;
  e->err[0] = '\0';
  return VF_OK;
}

/* Every public call starts here: a NULL argument is an error with a message, and a
** call that succeeds leaves no stale message behind. */
static bool begin(vf_engine *e, bool args_ok, const char *fn) {
  if (!e) return false;
  if (!args_ok) {
    fail(e, VF_EINVAL, "%s: a required argument is NULL", fn);
    return false;
  }
  e->err[0] = '\0';
  return true;
}

static const vf_request default_request = {NULL, 0, NULL, 0, VF_FORMAT_JSON, 0};

/* A request's format is one of vf_format, and its arrays hold what their counts say
** (an unknown format printed JSON; a NULL entry was read as a string). */
bool request_lists_ok(const vf_request *req, char *err, size_t errlen) {
  for (size_t i = 0; i < req->n_sets; i++)
    if (!req->sets || !req->sets[i])
      return snprintf(err, errlen, "vf_request.sets[%zu]: NULL (n_sets is %zu)", i, req->n_sets), false;
  for (size_t i = 0; i < req->n_gpus; i++)
    if (!req->gpus || !req->gpus[i])
      return snprintf(err, errlen, "vf_request.gpus[%zu]: NULL (n_gpus is %zu)", i, req->n_gpus), false;
  return true;
}

static vf_status check_request(vf_engine *e, const vf_request *req) {
  char err[128];
  if ((unsigned)req->format > VF_FORMAT_CSV)
    return fail(e, VF_EINVAL, "vf_request.format: %d is not VF_FORMAT_JSON, VF_FORMAT_TABLE or VF_FORMAT_CSV",
                (int)req->format);
  return request_lists_ok(req, err, sizeof err) ? VF_OK : fail(e, VF_EINVAL, "%s", err);
}

vf_status vf_estimate_file_at(vf_engine *e, const char *path, size_t index, const vf_request *req,
                              const char **out) {
  if (!begin(e, path && out, "vf_estimate_file_at")) return VF_EINVAL;
  if (!req) req = &default_request;
  engine_clear_result(e);
  vf_status st = check_request(e, req);
  if (st != VF_OK || (st = expand_file(e, path, NULL, 0)) != VF_OK) return st;
  if (index >= e->cached_n)
    return fail(e, VF_EINVAL, "%s: scenario %zu: the file has %zu scenarios", path, index + 1, e->cached_n);
  return evaluate(e, path, index, req, out);
}

vf_status vf_estimate_file(vf_engine *e, const char *path, const vf_request *req, const char **out) {
  return vf_estimate_file_at(e, path, 0, req, out);
}

vf_status vf_estimate_string(vf_engine *e, const char *text, size_t len, const char *chunkname,
                             const vf_request *req, const char **out) {
  if (!begin(e, text && out, "vf_estimate_string")) return VF_EINVAL;
  if (!req) req = &default_request;
  if (!chunkname) chunkname = "<string>";
  engine_clear_result(e);
  vf_status st = check_request(e, req);
  if (st != VF_OK || (st = expand_file(e, chunkname, text, len)) != VF_OK) return st;
  if (e->cached_n == 0) return fail(e, VF_EINVAL, "%s: no scenario", chunkname);
  return evaluate(e, chunkname, 0, req, out);
}

vf_status vf_count_scenarios(vf_engine *e, const char *path, size_t *out) {
  if (!begin(e, path && out, "vf_count_scenarios")) return VF_EINVAL;
  vf_status st = expand_file(e, path, NULL, 0);
  if (st == VF_OK) *out = e->cached_n;
  return st;
}

vf_status vf_last_result(vf_engine *e, const vf_result **out) {
  if (!begin(e, out, "vf_last_result")) return VF_EINVAL;
  if (!e->res.model_id) return fail(e, VF_ENOENT, "no result: no estimate has succeeded yet");
  *out = &e->res;
  return VF_OK;
}

vf_status vf_list(vf_engine *e, const char *kind, const char **json_out) {
  if (!begin(e, kind && json_out, "vf_list")) return VF_EINVAL;
  engine_clear_result(e);
  lua_State *L = host_state(e->h);
  char err[1024];
  if (!host_push_driver_fn(e->h, "list")) return fail(e, VF_ESCRIPT, "driver: no list function");
  lua_pushstring(L, kind);
  if (!host_pcall(e->h, 1, 1, err, sizeof err)) /* an unknown kind is the caller's; the rest a script's */
    return fail(e, strncmp(err, "list: unknown kind", 18) == 0 ? VF_EINVAL
                   : script_status(err) == VF_EINVAL ? VF_ESCRIPT : script_status(err), "%s", err);
  json_t *arr = json_array();
  size_t n = lua_rawlen(L, -1);
  for (size_t i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i);
    json_t *o = json_object();
    lua_getfield(L, -1, "name");
    json_object_set_new(o, "name", json_string(lua_tostring(L, -1) ? lua_tostring(L, -1) : ""));
    lua_getfield(L, -2, "summary");
    json_object_set_new(o, "summary", json_string(lua_tostring(L, -1) ? lua_tostring(L, -1) : ""));
    lua_pop(L, 3);
    json_array_append_new(arr, o);
  }
  lua_pop(L, 1);
  e->out = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(arr);
  if (!e->out) return fail(e, VF_ENOMEM, "out of memory");
  *json_out = e->out;
  return VF_OK;
}

vf_status vf_inspect(vf_engine *e, const char *path, int with_tensors, const char **json_out) {
  if (!begin(e, path && json_out, "vf_inspect")) return VF_EINVAL;
  engine_clear_result(e);
  json_t *j = NULL;
  char err[1024];
  inspect_status st = inspect_path(path, with_tensors != 0, &j, err, sizeof err);
  if (st == INSPECT_ERR_NOMEM) return fail(e, VF_ENOMEM, "out of memory");
  if (st != INSPECT_OK) return fail(e, st == INSPECT_ERR_IO ? VF_EIO : VF_EINVAL, "%s", err);
  e->out = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(j);
  if (!e->out) return fail(e, VF_ENOMEM, "out of memory");
  *json_out = e->out;
  return VF_OK;
}
