/*
** lua_module.c: `require "vramfit"` from a stock Lua 5.4 interpreter. Engines are
** userdata (__gc, __close); estimate/list/inspect return Lua tables converted from the
** engine's JSON; failures raise Lua errors carrying the engine's message. Module-level
** functions use a default engine kept in an upvalue (no C globals). Uses vramfit.h,
** lua_json.c (JSON → Lua) and jansson (Lua scenario tables → JSON text).
*/
#include <jansson.h>
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lua_json.h"
#include "vramfit.h"

#define ENGINE_MT "vramfit.engine"
#define MAX_DEPTH 64

int luaopen_vramfit(lua_State *L);

/* ---- the engine userdata ---- */

static vf_engine **engine_box(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, ENGINE_MT);
}

static vf_engine *engine_check(lua_State *L, int idx) {
  vf_engine *e = *engine_box(L, idx);
  if (!e) luaL_error(L, "vramfit: the engine is closed");
  return e;
}

/* Raises the engine's message for a failed call (the status message if it has none). */
static int engine_raise(lua_State *L, vf_engine *e, vf_status st) {
  const char *msg = e ? vf_engine_error(e) : "";
  lua_pushstring(L, msg && msg[0] ? msg : vf_status_message(st));
  return lua_error(L);
}

static int engine_close(lua_State *L) {
  vf_engine **box = engine_box(L, 1);
  vf_engine_free(*box);
  *box = NULL;
  return 0;
}

static int engine_tostring(lua_State *L) {
  vf_engine **box = engine_box(L, 1);
  lua_pushfstring(L, "vramfit.engine (%s)", *box ? "open" : "closed");
  return 1;
}

/* An options table holds only the keys a call reads: a misspelt one ({ fits = true },
** { gpus = ... }) raises instead of being ignored. allowed is NULL-terminated. */
static void check_opts(lua_State *L, int opts, const char *what, const char *const *allowed) {
  lua_pushnil(L);
  while (lua_next(L, opts)) {
    lua_pop(L, 1);
    const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    size_t i = 0;
    while (k && allowed[i] && strcmp(k, allowed[i]) != 0) i++;
    if (!k || !allowed[i]) {
      const char *name = luaL_tolstring(L, -1, NULL);
      luaL_Buffer b;
      luaL_buffinit(L, &b);
      for (i = 0; allowed[i]; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, allowed[i]);
      }
      luaL_pushresult(&b);
      luaL_error(L, "%s: unknown option '%s' (allowed: %s)", what, name, lua_tostring(L, -1));
    }
  }
}

/* Reads opts.script_dirs, a list of strings, into a NULL-terminated array kept alive
** as a userdata at the top of the stack. [-0, +1, e] */
static const char **opt_dirs(lua_State *L, int opts) {
  lua_getfield(L, opts, "script_dirs");
  int t = lua_gettop(L);
  if (lua_isnil(L, t)) return NULL;
  if (!lua_istable(L, t)) luaL_error(L, "vramfit.new: script_dirs: expected a list of directories, got %s", luaL_typename(L, t));
  size_t n = lua_rawlen(L, t);
  const char **dirs = lua_newuserdatauv(L, (n + 1) * sizeof *dirs, 0);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, t, (lua_Integer)i + 1);
    if (!lua_isstring(L, -1)) luaL_error(L, "vramfit.new: script_dirs[%d]: expected a string", (int)i + 1);
    dirs[i] = lua_tostring(L, -1);
    lua_pop(L, 1); /* the string stays alive in the table */
  }
  dirs[n] = NULL;
  lua_replace(L, t);
  return dirs;
}

static lua_Integer opt_int(lua_State *L, int opts, const char *key) {
  lua_getfield(L, opts, key);
  int ok;
  lua_Integer v = lua_isnil(L, -1) ? 0 : lua_tointegerx(L, -1, &ok);
  if (!lua_isnil(L, -1) && (!ok || v < 0)) luaL_error(L, "vramfit.new: %s: expected a non-negative integer", key);
  lua_pop(L, 1);
  return v;
}

/* vramfit.new([opts]): opts.script_dirs, data_dir, instruction_limit, memory_limit. */
static int l_new(lua_State *L) {
  vf_options opt;
  vf_options_init(&opt);
  int has_opts = !lua_isnoneornil(L, 1);
  if (has_opts) luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  vf_engine **box = lua_newuserdatauv(L, sizeof *box, 0); /* index 2 */
  *box = NULL;
  luaL_setmetatable(L, ENGINE_MT);
  if (has_opts) {
    static const char *const keys[] = {"script_dirs", "data_dir", "instruction_limit", "memory_limit", NULL};
    check_opts(L, 1, "vramfit.new", keys);
    opt.script_dirs = opt_dirs(L, 1);
    lua_getfield(L, 1, "data_dir");
    opt.data_dir = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
    opt.instruction_limit = (uint64_t)opt_int(L, 1, "instruction_limit");
    opt.memory_limit = (size_t)opt_int(L, 1, "memory_limit");
  }
  vf_status st = vf_engine_new(&opt, box);
  if (st != VF_OK) return luaL_error(L, "vramfit.new: %s", vf_status_message(st));
  lua_pushvalue(L, 2);
  return 1;
}

/* ---- Lua tables to JSON (scenario tables) ---- */

static bool is_array(lua_State *L, int idx) {
  size_t n = lua_rawlen(L, idx), count = 0;
  if (n == 0) return false;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (!lua_isinteger(L, -1)) {
      lua_pop(L, 1);
      return false;
    }
    count++;
  }
  return count == n;
}

/* A new JSON value for the Lua value at idx; an empty container for a table. */
static json_t *new_json(lua_State *L, int idx) {
  switch (lua_type(L, idx)) {
  case LUA_TTABLE: return is_array(L, idx) ? json_array() : json_object();
  case LUA_TSTRING: return json_stringn(lua_tostring(L, idx), lua_rawlen(L, idx));
  case LUA_TBOOLEAN: return json_boolean(lua_toboolean(L, idx));
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) return json_integer((json_int_t)lua_tointeger(L, idx));
    return json_real(lua_tonumber(L, idx));
  default: luaL_error(L, "vramfit: scenario table: a %s value cannot be a scenario field", luaL_typename(L, idx));
  }
  return NULL;
}

static void fill_json(lua_State *L, int idx, json_t *c, int depth);

/* Adds the value at idx to parent (under key, or appended) before filling it, so that
** a raise part-way leaves every node owned by the root. */
static void put_json(lua_State *L, json_t *parent, const char *key, int idx, int depth) {
  if (lua_type(L, idx) == LUA_TNUMBER && !lua_isinteger(L, idx) && !isfinite(lua_tonumber(L, idx)))
    luaL_error(L, "vramfit: scenario table: field %s: %s is not a finite number", key ? key : "(list item)",
               luaL_tolstring(L, idx, NULL)); /* json_real refuses it: it read as "out of memory" */
  json_t *v = new_json(L, idx);
  if (!v) luaL_error(L, "vramfit: out of memory");
  int rc = key ? json_object_set_new(parent, key, v) : json_array_append_new(parent, v);
  if (rc != 0) luaL_error(L, "vramfit: scenario table: cannot convert field %s", key ? key : "(list item)");
  if (lua_istable(L, idx)) fill_json(L, idx, v, depth + 1);
}

static void fill_json(lua_State *L, int idx, json_t *c, int depth) {
  if (depth > MAX_DEPTH) luaL_error(L, "vramfit: scenario table nested deeper than %d (a cycle?)", MAX_DEPTH);
  luaL_checkstack(L, 4, "scenario table");
  if (json_is_array(c)) {
    for (size_t i = 1; i <= lua_rawlen(L, idx); i++) {
      lua_rawgeti(L, idx, (lua_Integer)i);
      put_json(L, c, NULL, lua_gettop(L), depth);
      lua_pop(L, 1);
    }
    return;
  }
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_error(L, "vramfit: scenario table: key of type %s (expected a string)", luaL_typename(L, -2));
    put_json(L, c, lua_tostring(L, -2), lua_gettop(L), depth);
    lua_pop(L, 1);
  }
}

/* Holds a json_t in a userdata so that a raise while converting frees it. */
static int json_holder_gc(lua_State *L) {
  json_t **h = lua_touserdata(L, 1);
  json_decref(*h);
  *h = NULL;
  return 0;
}

static json_t **json_holder(lua_State *L) {
  json_t **h = lua_newuserdatauv(L, sizeof *h, 0);
  *h = NULL;
  lua_newtable(L);
  lua_pushcfunction(L, json_holder_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  return h;
}

/* Pushes the JSON text of the scenario table at idx. [-0, +1, e] */
static void push_table_json(lua_State *L, int idx) {
  json_t **h = json_holder(L);
  if (!(*h = json_array())) luaL_error(L, "vramfit: out of memory");
  put_json(L, *h, NULL, idx, 0);
  char *text = json_dumps(json_array_get(*h, 0), JSON_COMPACT);
  if (!text) luaL_error(L, "vramfit: out of memory");
  lua_pushstring(L, text);
  free(text);
  lua_remove(L, -2);
}

/* Pushes the Lua value of JSON text. [-0, +1, e] */
static void push_json_text(lua_State *L, const char *text) {
  json_t **h = json_holder(L);
  *h = json_loads(text, JSON_DECODE_ANY, NULL);
  if (!*h) luaL_error(L, "vramfit: out of memory");
  ljson_push(L, *h);
  lua_remove(L, -2);
}
/* ---- requests ---- */

/* The request's strings and arrays stay on the Lua stack (or in opts, which is on
** the stack) for the whole call, so nothing is malloc'd and a raise leaks nothing. */

static const char **push_strv(lua_State *L, size_t n) { /* [-0, +1, m] */
  const char **v = lua_newuserdatauv(L, (n + 1) * sizeof *v, 0);
  memset(v, 0, (n + 1) * sizeof *v);
  return v;
}

/* opts.gpu: a name or a list of names. [-0, +2, e] */
static void req_gpus(lua_State *L, int opts, vf_request *req) {
  lua_getfield(L, opts, "gpu");
  int g = lua_gettop(L);
  size_t n = lua_type(L, g) == LUA_TSTRING ? 1 : lua_istable(L, g) ? lua_rawlen(L, g) : 0;
  if (!lua_isnil(L, g) && !lua_istable(L, g) && lua_type(L, g) != LUA_TSTRING)
    luaL_error(L, "vramfit: opts.gpu: expected a GPU name or a list of names");
  const char **v = push_strv(L, n);
  for (size_t i = 0; i < n && lua_istable(L, g); i++) {
    lua_rawgeti(L, g, (lua_Integer)i + 1);
    if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "vramfit: opts.gpu[%d]: expected a GPU name", (int)i + 1);
    v[i] = lua_tostring(L, -1);
    lua_pop(L, 1); /* still referenced by the list */
  }
  if (n == 1 && !lua_istable(L, g)) v[0] = lua_tostring(L, g);
  req->gpus = v, req->n_gpus = n;
}

/* opts.set: a list of "key=value" strings, or a map { ["workload.context"] = 8192 }.
** The generated strings are kept in a table. [-0, +3, e] */
static void req_sets(lua_State *L, int opts, vf_request *req) {
  lua_getfield(L, opts, "set");
  int s = lua_gettop(L);
  if (!lua_isnil(L, s) && !lua_istable(L, s)) luaL_error(L, "vramfit: opts.set: expected a table");
  lua_newtable(L);
  int keep = lua_gettop(L);
  size_t n = 0;
  for (lua_pushnil(L); lua_istable(L, s) && lua_next(L, s); lua_pop(L, 1)) {
    if (lua_isinteger(L, -2) && lua_type(L, -1) == LUA_TSTRING) {
      lua_pushvalue(L, -1);
    } else if (lua_type(L, -2) == LUA_TSTRING && !lua_istable(L, -1)) {
      const char *key = lua_tostring(L, -2);
      const char *value = luaL_tolstring(L, -1, NULL); /* [+1] */
      lua_pushfstring(L, "%s=%s", key, value);
      lua_remove(L, -2);
    } else {
      luaL_error(L, "vramfit: opts.set: expected \"key=value\" strings or key = value pairs");
    }
    lua_rawseti(L, keep, (lua_Integer)++n);
  }
  const char **v = push_strv(L, n);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, keep, (lua_Integer)i + 1);
    v[i] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  req->sets = v, req->n_sets = n;
}

/* opts.format: nil (the report as a Lua table) or "json", "table", "csv" (text). */
static int req_format(lua_State *L, int opts, vf_request *req) {
  static const char *const names[] = {"json", "table", "csv", NULL};
  lua_getfield(L, opts, "format");
  int as_text = !lua_isnil(L, -1);
  if (as_text) {
    const char *f = lua_tostring(L, -1);
    int i = 0;
    while (names[i] && (!f || strcmp(names[i], f) != 0)) i++;
    if (!names[i]) luaL_error(L, "vramfit: opts.format: expected \"json\", \"table\" or \"csv\"");
    req->format = (vf_format)i;
  }
  lua_pop(L, 1);
  return as_text;
}

/* Builds the request from the options table at opts (or none). Returns whether text
** output was asked for; *index receives opts.index - 1 (scenario in a file). */
static int build_request(lua_State *L, int opts, vf_request *req, size_t *index) {
  memset(req, 0, sizeof *req);
  *index = 0;
  if (lua_isnoneornil(L, opts)) return 0;
  luaL_checktype(L, opts, LUA_TTABLE);
  static const char *const keys[] = {"gpu", "set", "fit", "index", "format", NULL};
  check_opts(L, opts, "vramfit: estimate", keys);
  req_gpus(L, opts, req);
  req_sets(L, opts, req);
  lua_getfield(L, opts, "fit");
  req->fit = lua_toboolean(L, -1);
  lua_getfield(L, opts, "index");
  if (!lua_isnil(L, -1)) {
    int ok;
    lua_Integer i = lua_tointegerx(L, -1, &ok);
    if (!ok || i < 1) luaL_error(L, "vramfit: opts.index: expected a scenario number from 1");
    *index = (size_t)i - 1;
  }
  lua_pop(L, 2);
  return req_format(L, opts, req);
}

/* ---- engine methods ---- */

/* Scenario text, not a path: several lines, or starts like JSON or a Lua return. */
static bool looks_like_text(const char *s) {
  if (strchr(s, '\n')) return true;
  while (*s == ' ' || *s == '\t' || *s == '\r') s++;
  return *s == '{' || *s == '[' || strncmp(s, "return", 6) == 0;
}

/* engine:estimate(scenario, [opts]): scenario is a path, scenario text or a table. */
static int m_estimate(lua_State *L) {
  vf_engine *e = engine_check(L, 1);
  luaL_argexpected(L, lua_istable(L, 2) || lua_type(L, 2) == LUA_TSTRING, 2, "a path, scenario text or table");
  vf_request req;
  size_t index;
  int as_text = build_request(L, 3, &req, &index);
  const char *out = NULL, *name = "<string>";
  if (lua_istable(L, 2)) {
    push_table_json(L, 2);
    name = "<table>";
  } else {
    lua_pushvalue(L, 2);
  }
  size_t len;
  const char *src = lua_tolstring(L, -1, &len);
  bool text = lua_istable(L, 2) || looks_like_text(src);
  if (text && index > 0) /* vf_estimate_string evaluates the first: index would be ignored */
    luaL_error(L, "vramfit: opts.index: picks a scenario of a file; a table or scenario text gives its first");
  vf_status st = text ? vf_estimate_string(e, src, len, name, &req, &out)
                      : vf_estimate_file_at(e, src, index, &req, &out);
  if (st != VF_OK) return engine_raise(L, e, st);
  if (as_text)
    lua_pushstring(L, out);
  else
    push_json_text(L, out);
  return 1;
}

/* engine:list(kind): { {name =, summary =}, ... } */
static int m_list(lua_State *L) {
  vf_engine *e = engine_check(L, 1);
  const char *out = NULL;
  vf_status st = vf_list(e, luaL_checkstring(L, 2), &out);
  if (st != VF_OK) return engine_raise(L, e, st);
  push_json_text(L, out);
  return 1;
}

/* engine:inspect(path, [with_tensors]) */
static int m_inspect(lua_State *L) {
  vf_engine *e = engine_check(L, 1);
  const char *out = NULL;
  vf_status st = vf_inspect(e, luaL_checkstring(L, 2), lua_toboolean(L, 3), &out);
  if (st != VF_OK) return engine_raise(L, e, st);
  push_json_text(L, out);
  return 1;
}

/* engine:count(path): scenarios in a file (lists and sweeps) */
static int m_count(lua_State *L) {
  vf_engine *e = engine_check(L, 1);
  size_t n = 0;
  vf_status st = vf_count_scenarios(e, luaL_checkstring(L, 2), &n);
  if (st != VF_OK) return engine_raise(L, e, st);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

/* ---- the structured result (vf_result) ---- */

/* One plain field of a result struct: its key, its C type, where it is. */
typedef struct rfield {
  const char *key;
  char type; /* 's' const char * (NULL: left out), 'u' uint64_t, 'b' int as boolean, 'd' double */
  size_t off;
} rfield;

#define RF(type_, st, member) {#member, type_, offsetof(st, member)}

static const rfield category_fields[] = {
    RF('s', vf_category, name), RF('s', vf_category, component), RF('u', vf_category, bytes),
    RF('s', vf_category, basis), RF('s', vf_category, detail)};

static const rfield fit_fields[] = {
    RF('s', vf_fit_row, gpu),          RF('u', vf_fit_row, memory_bytes),    RF('b', vf_fit_row, fits),
    RF('u', vf_fit_row, count),        RF('d', vf_fit_row, used_fraction),   RF('u', vf_fit_row, total_bytes),
    RF('u', vf_fit_row, max_concurrency), RF('u', vf_fit_row, max_context),
    RF('u', vf_fit_row, max_micro_batch), RF('u', vf_fit_row, max_seq_len), RF('s', vf_fit_row, layout),
    RF('u', vf_fit_row, max_width),    RF('u', vf_fit_row, max_height),      RF('u', vf_fit_row, max_frames)};

static const rfield result_fields[] = {
    RF('s', vf_result, scenario),     RF('s', vf_result, model_id),
    RF('s', vf_result, arch),         RF('u', vf_result, params),
    RF('u', vf_result, weight_bytes), RF('u', vf_result, kv_bytes_per_token),
    RF('s', vf_result, gpu),          RF('u', vf_result, devices),
    RF('u', vf_result, peak_allocated_bytes), RF('u', vf_result, peak_reserved_bytes),
    RF('u', vf_result, total_bytes)};

/* Sets the fields of rec into the table on top of the stack; byte counts above
** LUA_MAXINTEGER are clamped to it. [-0, +0, m] */
static void set_fields(lua_State *L, const void *rec, const rfield *f, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const char *at = (const char *)rec + f[i].off;
    if (f[i].type == 's') {
      const char *v = *(const char *const *)at;
      if (!v) continue;
      lua_pushstring(L, v);
    } else if (f[i].type == 'u') {
      uint64_t v = *(const uint64_t *)at;
      lua_pushinteger(L, v > (uint64_t)LUA_MAXINTEGER ? LUA_MAXINTEGER : (lua_Integer)v);
    } else if (f[i].type == 'b') {
      lua_pushboolean(L, *(const int *)at);
    } else {
      lua_pushnumber(L, *(const double *)at);
    }
    lua_setfield(L, -2, f[i].key);
  }
}

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* A sequence of n records of size sz, each a table of its fields. [-0, +1, m] */
static void push_records(lua_State *L, const void *v, size_t n, size_t sz, const rfield *f, size_t nf) {
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_createtable(L, 0, (int)nf);
    set_fields(L, (const char *)v + i * sz, f, nf);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

/* engine:result(): the last estimate as vf_result's plain fields. */
static int m_result(lua_State *L) {
  vf_engine *e = engine_check(L, 1);
  const vf_result *r = NULL;
  vf_status st = vf_last_result(e, &r);
  if (st != VF_OK) return engine_raise(L, e, st);
  lua_createtable(L, 0, (int)N_OF(result_fields) + 2);
  set_fields(L, r, result_fields, N_OF(result_fields));
  push_records(L, r->categories, r->n_categories, sizeof *r->categories, category_fields, N_OF(category_fields));
  lua_setfield(L, -2, "categories");
  push_records(L, r->fit, r->n_fit, sizeof *r->fit, fit_fields, N_OF(fit_fields));
  lua_setfield(L, -2, "fit");
  return 1;
}

/* ---- the module ---- */

static const luaL_Reg engine_methods[] = {
    {"estimate", m_estimate}, {"list", m_list},   {"inspect", m_inspect},
    {"count", m_count},       {"result", m_result}, {"close", engine_close},
    {NULL, NULL}};

/* Module-level functions call the method of the default engine, made on first use and
** kept in upvalue 1 (a table: one per interpreter state, never a C global). */
static int call_default(lua_State *L) {
  lua_rawgeti(L, lua_upvalueindex(1), 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushcfunction(L, l_new);
    lua_call(L, 0, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, lua_upvalueindex(1), 1);
  }
  lua_insert(L, 1);
  return lua_tocfunction(L, lua_upvalueindex(2))(L);
}

static int l_version(lua_State *L) {
  lua_pushstring(L, vf_version());
  return 1;
}

static void register_defaults(lua_State *L, int shared) {
  for (const luaL_Reg *r = engine_methods; r->name; r++) {
    if (r->func == engine_close) continue;
    lua_pushvalue(L, shared);
    lua_pushcfunction(L, r->func);
    lua_pushcclosure(L, call_default, 2);
    lua_setfield(L, -2, r->name);
  }
}

int luaopen_vramfit(lua_State *L) {
  luaL_checkversion(L);
  if (luaL_newmetatable(L, ENGINE_MT)) {
    luaL_newlib(L, engine_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, engine_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, engine_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, engine_tostring);
    lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  lua_newtable(L); /* the default engine's holder */
  int shared = lua_gettop(L);
  lua_newtable(L);
  register_defaults(L, shared);
  lua_pushcfunction(L, l_new);
  lua_setfield(L, -2, "new");
  lua_pushcfunction(L, l_version);
  lua_setfield(L, -2, "version");
  lua_pushliteral(L, VF_VERSION_STRING);
  lua_setfield(L, -2, "VERSION");
  return 1;
}
