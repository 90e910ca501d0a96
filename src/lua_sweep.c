/*
** lua_sweep.c: the Lua side of evaluating scenario files, for the engine (engine.c)
** and for batches (sweep.c) alike (see lua_sweep.h). Uses the driver's
** expand / prepare_at / catalog functions (scripts/driver.lua), lua_read.c for the
** normalized tables, and reads the lazy list's plan with raw accesses only.
*/
#include "lua_sweep.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_read.h"

/* Runs fn(ud) under lua_pcall: a Lua API call outside a protected call that runs out
** of memory would reach Lua's panic and abort() (engine.c protects its steps alike).
** Only memory errors are expected to escape fn: its scripts run under host_pcall. */
static bool protect(host *h, lua_CFunction fn, void *ud, char *err, size_t errlen) {
  lua_State *L = host_state(h);
  int top = lua_gettop(L);
  lua_pushcfunction(L, fn);
  lua_pushlightuserdata(L, ud);
  int st = lua_pcall(L, 1, 0, 0);
  if (st == LUA_OK) return true;
  const char *msg = st == LUA_ERRMEM ? NULL : lua_tostring(L, -1);
  snprintf(err, errlen, "%s", msg ? msg : "out of memory");
  lua_settop(L, top);
  return false;
}

typedef struct load_args {
  host *h;
  const char *path, *text; /* text: scenario text named path; NULL: read the file */
  size_t len;
  int *ref;
  char *err;
  size_t errlen;
  bool ok;
} load_args;

static int load_unprotected(lua_State *L) {
  load_args *a = lua_touserdata(L, 1);
  lua_pop(L, 1);
  const char *name = strcmp(a->path, "-") ? a->path : "<stdin>";
  char msg[2048];
  if (!host_push_driver_fn(a->h, "expand")) return snprintf(a->err, a->errlen, "driver: no expand function"), 0;
  bool loaded = a->text ? host_load_scenario_text(a->h, a->text, a->len, name, msg, sizeof msg)
                        : host_load_scenario(a->h, a->path, msg, sizeof msg);
  if (!loaded) {
    lua_pop(L, 1);
    if (strncmp(msg, name, strlen(name)) == 0)
      snprintf(a->err, a->errlen, "%s", msg);
    else
      snprintf(a->err, a->errlen, "%s: %s", name, msg);
    return 0;
  }
  if (!host_pcall(a->h, 1, 1, msg, sizeof msg)) return snprintf(a->err, a->errlen, "%s: %s", a->path, msg), 0;
  *a->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  a->ok = true;
  return 0;
}

bool lsweep_load(host *h, const char *path, const char *text, size_t len, int *ref, char *err, size_t errlen) {
  load_args a = {h, path, text, len, ref, err, errlen, false};
  *ref = LUA_NOREF;
  return protect(h, load_unprotected, &a, err, errlen) && a.ok;
}

/* Pushes t[key], raw. [-0, +1] */
static int raw_field(lua_State *L, int t, const char *key) {
  lua_pushstring(L, key);
  return lua_rawget(L, t < 0 ? t - 1 : t);
}

static size_t raw_size(lua_State *L, int t, const char *key) {
  raw_field(L, t, key);
  lua_Integer v = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
  lua_pop(L, 1);
  return v > 0 ? (size_t)v : 0;
}

static char *dup_or_raise(lua_State *L, const char *s) {
  char *d = strdup(s ? s : "");
  if (!d) luaL_error(L, "out of memory");
  return d;
}

static void *calloc_or_raise(lua_State *L, size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) luaL_error(L, "out of memory");
  return p;
}

static sw_field field_of(const char *path) {
  static const struct {
    const char *path;
    sw_field f;
  } map[] = {{"workload.context", AX_CONTEXT},
             {"workload.concurrency", AX_CONCURRENCY},
             {"workload.micro_batch", AX_MICRO_BATCH},
             {"workload.seq_len", AX_SEQ_LEN},
             {"gpu", AX_GPU}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (strcmp(map[i].path, path) == 0) return map[i].f;
  return AX_SLOW;
}

/* A numeric axis stays fast only when every value is a non-negative integer. */
static void read_values(lua_State *L, int vt, sw_axis *ax) {
  ax->vals = calloc_or_raise(L, ax->n, sizeof *ax->vals);
  for (size_t i = 0; i < ax->n; i++) {
    lua_rawgeti(L, vt, (lua_Integer)i + 1);
    lua_Integer v = 0;
    bool ok = lua_isinteger(L, -1)
                  ? (v = lua_tointeger(L, -1), true)
                  : lua_type(L, -1) == LUA_TNUMBER && lua_numbertointeger(lua_tonumber(L, -1), &v) &&
                        (lua_Number)v == lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!ok || v < 0) {
      ax->field = AX_SLOW;
      return;
    }
    ax->vals[i] = (uint64_t)v;
    if (ax->vals[i] < ax->vals[ax->argmin]) ax->argmin = i;
    if (ax->vals[i] > ax->vals[ax->argmax]) ax->argmax = i;
  }
}

/* The axis table on top of the stack. [-0, +0, m] */
static void read_axis(lua_State *L, sw_axis *ax) {
  raw_field(L, -1, "path");
  ax->path = dup_or_raise(L, lua_tostring(L, -1));
  lua_pop(L, 1);
  ax->n = raw_size(L, -1, "n");
  ax->field = field_of(ax->path);
  ax->labels = calloc_or_raise(L, ax->n, sizeof *ax->labels);
  raw_field(L, -1, "labels");
  for (size_t i = 0; i < ax->n; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    ax->labels[i] = dup_or_raise(L, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (ax->field == AX_GPU && ax->n > SCN_MAX_GPUS) ax->field = AX_SLOW; /* every value is probed */
  if (ax->field == AX_SLOW || ax->field == AX_GPU) return;
  raw_field(L, -1, "values");
  read_values(L, lua_gettop(L), ax);
  lua_pop(L, 1);
}

/* The segment table on top of the stack. [-0, +0, m] */
static void read_seg(lua_State *L, sw_seg *sg) {
  sg->first = raw_size(L, -1, "first") - 1;
  sg->n = raw_size(L, -1, "n");
  if (raw_field(L, -1, "axes") != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  size_t n = lua_rawlen(L, -1);
  sg->axes = calloc_or_raise(L, n, sizeof *sg->axes);
  sg->n_axes = (int)n;
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    read_axis(L, &sg->axes[i]);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  int pushed = 1;
  bool named =
      raw_field(L, -1, "base") == LUA_TTABLE && (pushed = 2, raw_field(L, -1, "name") == LUA_TSTRING);
  sg->prefix = dup_or_raise(L, named ? lua_tostring(L, -1) : "sweep");
  lua_pop(L, pushed);
}

/* read_plan(list, plan*) under host_pcall, so that out-of-memory raises safely. */
static int read_plan(lua_State *L) {
  sw_plan *p = lua_touserdata(L, 2);
  p->total = raw_size(L, 1, "__n");
  if (raw_field(L, 1, "__plan") != LUA_TTABLE) return luaL_error(L, "expand: no plan in the expanded list");
  size_t n = lua_rawlen(L, -1);
  p->segs = calloc_or_raise(L, n, sizeof *p->segs);
  p->n_segs = n;
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    read_seg(L, &p->segs[i]);
    lua_pop(L, 1);
  }
  return 0;
}

bool lsweep_plan(host *h, int ref, sw_plan *p, char *err, size_t errlen) {
  lua_State *L = host_state(h);
  memset(p, 0, sizeof *p);
  lua_pushcfunction(L, read_plan);
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  lua_pushlightuserdata(L, p);
  if (host_pcall(h, 2, 0, err, errlen)) return true;
  lsweep_plan_free(p);
  return false;
}

static void free_axis(sw_axis *ax) {
  for (size_t i = 0; ax->labels && i < ax->n; i++) free(ax->labels[i]);
  free(ax->labels);
  free(ax->vals);
  free(ax->path);
}

void lsweep_plan_free(sw_plan *p) {
  for (size_t i = 0; p->segs && i < p->n_segs; i++) {
    for (int k = 0; k < p->segs[i].n_axes; k++) free_axis(&p->segs[i].axes[k]);
    free(p->segs[i].axes);
    free(p->segs[i].prefix);
  }
  free(p->segs);
  memset(p, 0, sizeof *p);
}

static void push_strings(lua_State *L, const char *const *v, size_t n) {
  lua_createtable(L, (int)n, 0);
  for (size_t k = 0; k < n; k++) {
    lua_pushstring(L, v[k]);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
}

typedef struct prepare_args {
  host *h;
  int ref;
  size_t index;
  const char *const *sets, *const *gpus;
  size_t n_sets, n_gpus;
  scenario *s;
  model_desc *m;
  char *err;
  size_t errlen;
  bool ok;
} prepare_args;

static int prepare_unprotected(lua_State *L) {
  prepare_args *a = lua_touserdata(L, 1);
  lua_pop(L, 1);
  if (!host_push_driver_fn(a->h, "prepare_at"))
    return snprintf(a->err, a->errlen, "driver: no prepare_at function"), 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->ref);
  lua_pushinteger(L, (lua_Integer)a->index + 1);
  push_strings(L, a->sets, a->n_sets);
  push_strings(L, a->gpus, a->n_gpus);
  if (!host_pcall(a->h, 4, 1, a->err, a->errlen)) return 0;
  a->ok = lread_scenario(L, -1, a->s, a->m, a->err, a->errlen);
  lua_pop(L, 1);
  return 0;
}

bool lsweep_prepare(host *h, int ref, size_t index, const char *const *sets, size_t n_sets,
                    const char *const *gpus, size_t n_gpus, scenario *s, model_desc *m, char *err,
                    size_t errlen) {
  prepare_args a = {h, ref, index, sets, gpus, n_sets, n_gpus, s, m, err, errlen, false};
  model_free(m);
  model_init(m);
  return protect(h, prepare_unprotected, &a, err, errlen) && a.ok;
}

typedef struct name_args {
  host *h;
  int ref;
  size_t index;
  char *name;
  size_t len;
} name_args;

static int name_unprotected(lua_State *L) {
  name_args *a = lua_touserdata(L, 1);
  lua_pop(L, 1);
  if (!host_push_driver_fn(a->h, "name_at")) return 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->ref);
  lua_pushinteger(L, (lua_Integer)a->index + 1);
  char err[256];
  if (!host_pcall(a->h, 2, 1, err, sizeof err)) return 0;
  if (lua_type(L, -1) == LUA_TSTRING) snprintf(a->name, a->len, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  return 0;
}

void lsweep_name(host *h, int ref, size_t index, char *name, size_t len) {
  name_args a = {h, ref, index, name, len};
  char err[256];
  if (len) name[0] = '\0';
  if (!protect(h, name_unprotected, &a, err, sizeof err) && len) name[0] = '\0';
}
