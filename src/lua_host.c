/*
** lua_host.c: the sandboxed Lua state of an engine (see lua_host.h).
** Provides the capped allocator, the instruction-budget hook, the environments for
** scripts and scenario files and protected calls with file:line messages. The module
** loader and the `host` table scripts call live in lua_modules.c.
** Uses Lua 5.4, lua_json.c and lua_patterns.c.
*/
#include "lua_host.h"
#include "lua_host_int.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lua_json.h"
#include "lua_patterns.h"
#include "lua_read.h"

#define DEFAULT_INSTRUCTIONS 200000000ull /* ~1 s of Lua; scripts need a few million */
#define DEFAULT_MEMORY (256u * 1024u * 1024u)
#define HOOK_EVERY 1000
#define MAX_SCENARIO_FILE (64u * 1024u * 1024u)
/* C library calls work without running VM instructions: every byte allocated is charged
** as 1/ALLOC_BYTES_PER_INSTRUCTION of an instruction (s:upper() on a 100 MB string in a
** loop), and a top-level call gets at most one CPU second per CPU_INSTRUCTIONS_PER_SECOND
** instructions of its budget, at least SCRIPT_CPU_SECONDS (comparing two long equal
** strings allocates nothing). */
#define ALLOC_BYTES_PER_INSTRUCTION 16
#define SCRIPT_CPU_SECONDS 10
#define CPU_INSTRUCTIONS_PER_SECOND 20000000ull /* Lua under ASan on a slow core */



/* The Lua allocator: refuses growth past mem_limit, so memory bombs fail with
** "not enough memory" instead of taking the machine. */
static void *host_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  host *h = ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    h->mem_used -= old;
    if (h->alloc) return h->alloc(h->alloc_ud, ptr, old, 0);
    free(ptr);
    return NULL;
  }
  if (nsize > old && h->mem_used + (nsize - old) > h->mem_limit) {
    h->limit_hit = true;
    return NULL;
  }
  if (nsize > old && h->calls > 0) {
    h->instr_used += (nsize - old) / ALLOC_BYTES_PER_INSTRUCTION;
    /* once a limit is hit, the error's own messages may still be allocated */
    if (h->instr_used > h->instr_limit && !h->limit_hit) { /* reported as the budget */
      h->limit_hit = h->budget_hit = true;
      return NULL;
    }
  }
  void *p = h->alloc ? h->alloc(h->alloc_ud, ptr, old, nsize) : realloc(ptr, nsize);
  if (p) h->mem_used = h->mem_used - old + nsize;
  return p;
}

static uint64_t host_cpu_seconds(const host *h) {
  uint64_t s = h->instr_limit / CPU_INSTRUCTIONS_PER_SECOND;
  return s > SCRIPT_CPU_SECONDS ? s : SCRIPT_CPU_SECONDS;
}

static bool cpu_time_over(const host *h) {
  struct timespec now;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return false;
  return now.tv_sec > h->cpu_deadline.tv_sec ||
         (now.tv_sec == h->cpu_deadline.tv_sec && now.tv_nsec > h->cpu_deadline.tv_nsec);
}

static void host_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  host *h = host_of(L);
  h->instr_used += HOOK_EVERY;
  if (cpu_time_over(h)) {
    h->limit_hit = true;
    lua_pushfstring(L, "instruction budget exceeded (more than %I s of CPU)", (lua_Integer)host_cpu_seconds(h));
    lua_error(L);
  }
  if (h->instr_used > h->instr_limit) {
    h->limit_hit = true;
    lua_pushfstring(L, "instruction budget exceeded (%I instructions)", (lua_Integer)h->instr_limit);
    lua_error(L);
  }
}

/* Message handler: keeps string messages, never runs a hostile __tostring. */
static int host_msgh(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING)
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  return 1;
}

lua_State *host_state(host *h) {
  return h->L;
}

/* ---- sandboxed replacements for base functions ---- */

/* pcall that cannot swallow a limit: once the budget or the memory cap was hit the
** error goes on up to the engine. */
static int sb_pcall(lua_State *L) {
  luaL_checkany(L, 1);
  int st = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
  if (st != LUA_OK && host_of(L)->limit_hit) return lua_error(L);
  lua_pushboolean(L, st == LUA_OK);
  lua_insert(L, 1);
  return lua_gettop(L);
}

static int sb_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_replace(L, 1); /* 1 = handler */
  lua_replace(L, 2); /* 2 = function */
  int st = lua_pcall(L, n - 2, LUA_MULTRET, 1);
  if (st != LUA_OK && host_of(L)->limit_hit) return lua_error(L);
  lua_pushboolean(L, st == LUA_OK);
  lua_replace(L, 1);
  return lua_gettop(L);
}

/* coroutine.resume returning false after a limit was hit re-raises it */
static int sb_resume(lua_State *L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  if (lua_toboolean(L, 1) == 0 && host_of(L)->limit_hit) {
    lua_pushvalue(L, 2);
    return lua_error(L);
  }
  return lua_gettop(L);
}

/* The charge function of lua_patterns.c: (cost, name, pattern length, subject length);
** raises the budget error when the call could run past the instruction budget. */
static int host_charge(lua_State *L) {
  host *h = host_of(L);
  double cost = luaL_checknumber(L, 1);
  double left = h->instr_used < h->instr_limit ? (double)(h->instr_limit - h->instr_used) : 0;
  if (cost > left) {
    h->limit_hit = true;
    return luaL_error(L, "instruction budget exceeded (%I instructions): string.%s of a %I-byte pattern on %I bytes",
                      (lua_Integer)h->instr_limit, luaL_checkstring(L, 2), luaL_checkinteger(L, 3),
                      luaL_checkinteger(L, 4));
  }
  h->instr_used += (uint64_t)cost;
  return 0;
}

/* load(text [, chunkname [, mode [, env]]]): text only, never binary chunks; the
** environment defaults to the caller's sandbox (upvalue 1). */
static int sb_load(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, "=(load)");
  int env = lua_isnoneornil(L, 4) ? lua_upvalueindex(1) : 4;
  if (luaL_loadbufferx(L, s, len, name, "t") != LUA_OK) {
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushvalue(L, env);
  lua_setupvalue(L, -2, 1);
  return 1;
}

static int sb_print(lua_State *L) {
  int n = lua_gettop(L);
  fputs("vramfit: script:", stderr);
  for (int i = 1; i <= n; i++) fprintf(stderr, " %s", luaL_tolstring(L, i, NULL));
  fputc('\n', stderr);
  return 0;
}

static const char *const safe_globals[] = {
    "assert", "error", "ipairs", "next", "pairs", "select", "tonumber", "tostring", "type",
    "rawequal", "rawget", "rawlen", "rawset", "setmetatable", "getmetatable", NULL};

static const char *const safe_libs[] = {"string", "table", "math", "utf8", "coroutine", NULL};

/* Copies each library into a fresh table, so a scenario that rewrites string.rep
** changes only its own copy. string.dump is left out. [-0, +0] */
static void env_copy_libs(lua_State *L, int env) {
  for (int i = 0; safe_libs[i]; i++) {
    lua_getglobal(L, safe_libs[i]);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_settable(L, -4);
    }
    lua_remove(L, -2);
    if (strcmp(safe_libs[i], "string") == 0) {
      lua_pushnil(L);
      lua_setfield(L, -2, "dump");
    } else if (strcmp(safe_libs[i], "coroutine") == 0) {
      lua_getfield(L, -1, "resume");
      lua_pushcclosure(L, sb_resume, 1);
      lua_setfield(L, -2, "resume");
    }
    lua_setfield(L, env, safe_libs[i]);
  }
}

/* Pushes a new sandbox environment. [-0, +1, m] */
static void env_new(lua_State *L) {
  lua_newtable(L);
  int env = lua_gettop(L);
  for (int i = 0; safe_globals[i]; i++) {
    lua_getglobal(L, safe_globals[i]);
    lua_setfield(L, env, safe_globals[i]);
  }
  env_copy_libs(L, env);
  lua_pushcfunction(L, sb_pcall);
  lua_setfield(L, env, "pcall");
  lua_pushcfunction(L, sb_xpcall);
  lua_setfield(L, env, "xpcall");
  lua_pushcfunction(L, sb_print);
  lua_setfield(L, env, "print");
  lua_pushvalue(L, env);
  lua_pushcclosure(L, sb_load, 1);
  lua_setfield(L, env, "load");
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");
}

/* ---- the state ---- */

static void script_env_new(lua_State *L, host *h) {
  env_new(L);
  lua_pushcfunction(L, host_require);
  lua_setfield(L, -2, "require");
  host_push_fns(L);
  lua_setfield(L, -2, "host");
  lua_pushvalue(L, -1);
  h->ref_script_env = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 1);
}

static bool host_dirs(host *h, const host_options *opt) {
  h->dirs = calloc(opt->n_dirs + 1, sizeof *h->dirs);
  if (!h->dirs) return false;
  for (size_t i = 0; i < opt->n_dirs; i++)
    if (!(h->dirs[h->n_dirs++] = strdup(opt->dirs[i]))) return false;
  if (opt->datadir && host_is_dir(opt->datadir))
    if (!(h->dirs[h->n_dirs++] = strdup(opt->datadir))) return false;
  return true;
}

/* Runs at state creation: the string metatable is sealed (so getmetatable("").__index
** cannot reach the shared string library), the prelude's exports are copied into the
** script environment, and the driver is loaded. [-0, +0, e] */
static int host_boot(lua_State *L) {
  host *h = lua_touserdata(L, 1);
  luaL_openlibs(L);
  lua_getglobal(L, "string"); /* the table the string metatable's __index reaches too */
  lua_pushcfunction(L, host_charge);
  lpat_wrap(L, -2);
  lua_pop(L, 1);
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_pushliteral(L, "string");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);
  lua_newtable(L);
  h->ref_loaded = luaL_ref(L, LUA_REGISTRYINDEX);
  script_env_new(L, h);
  lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_script_env);
  lua_getfield(L, -1, "require");
  lua_pushliteral(L, "prelude");
  lua_call(L, 1, 1);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_settable(L, -5);
  }
  lua_pop(L, 1);
  lua_getfield(L, -1, "require");
  lua_pushliteral(L, "driver");
  lua_call(L, 1, 1);
  h->ref_driver = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

host *host_new(const host_options *opt, char *err, size_t errlen) {
  host *h = calloc(1, sizeof *h);
  if (!h) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  h->alloc = opt->alloc;
  h->alloc_ud = opt->alloc_ud;
  h->mem_limit = opt->memory_limit ? opt->memory_limit : DEFAULT_MEMORY;
  h->instr_limit = opt->instruction_limit ? opt->instruction_limit : DEFAULT_INSTRUCTIONS;
  if (!host_dirs(h, opt) || !(h->L = lua_newstate(host_alloc, h))) {
    snprintf(err, errlen, "out of memory");
    host_free(h);
    return NULL;
  }
  *(host **)lua_getextraspace(h->L) = h;
  lua_sethook(h->L, host_hook, LUA_MASKCOUNT, HOOK_EVERY);
  lua_pushcfunction(h->L, host_boot);
  lua_pushlightuserdata(h->L, h);
  if (!host_pcall(h, 1, 0, err, errlen)) {
    host_free(h);
    return NULL;
  }
  return h;
}

void host_free(host *h) {
  if (!h) return;
  if (h->L) lua_close(h->L);
  for (size_t i = 0; i < h->n_dirs; i++) free(h->dirs[i]);
  free(h->dirs);
  free(h);
}

bool host_pcall(host *h, int nargs, int nresults, char *err, size_t errlen) {
  lua_State *L = h->L;
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, host_msgh);
  lua_insert(L, base);
  h->instr_used = 0;
  h->limit_hit = h->budget_hit = false;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &h->cpu_deadline) == 0) h->cpu_deadline.tv_sec += (time_t)host_cpu_seconds(h);
  h->calls++;
  int st = lua_pcall(L, nargs, nresults, base);
  h->calls--;
  lua_remove(L, base);
  if (st == LUA_OK) return true;
  const char *msg = lua_tostring(L, -1);
  snprintf(err, errlen, "%s", msg ? msg : "unknown error");
  if (h->budget_hit && (st == LUA_ERRMEM || (msg && strstr(msg, "not enough memory"))))
    snprintf(err, errlen, "instruction budget exceeded (%llu instructions)", (unsigned long long)h->instr_limit);
  else if (h->limit_hit && (st == LUA_ERRMEM || (msg && strstr(msg, "not enough memory"))))
    snprintf(err, errlen, "script memory limit exceeded (%zu bytes)", h->mem_limit);
  else if (st == LUA_ERRMEM) /* the allocator itself refused: not the cap */
    snprintf(err, errlen, "out of memory");
  lua_pop(L, 1);
  return false;
}

static bool starts_like_json(const char *text, size_t len) {
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
  return i < len && (text[i] == '{' || text[i] == '[');
}

static bool host_push_json_text(host *h, const char *text, size_t len, const char *name, char *err,
                                size_t errlen);

/* Gives the chunk (argument 1) a fresh environment, so that its globals never reach
** another scenario, with the prelude's exports; returns the chunk. [-0, +1, m] */
static int scenario_env(lua_State *L) {
  static const char *const exported[] = {"sweep", "range", "strict", NULL};
  env_new(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, host_of(L)->ref_script_env);
  for (int i = 0; exported[i]; i++) {
    lua_getfield(L, -1, exported[i]);
    lua_setfield(L, -3, exported[i]);
  }
  lua_pop(L, 1);
  lua_setupvalue(L, 1, 1);
  lua_settop(L, 1);
  return 1;
}

bool host_load_scenario_text(host *h, const char *text, size_t len, const char *name, char *err,
                             size_t errlen) {
  lua_State *L = h->L;
  if (starts_like_json(text, len)) return host_push_json_text(h, text, len, name, err, errlen);
  if (!lua_checkstack(L, 8)) {
    snprintf(err, errlen, "out of memory");
    return false;
  }
  char chunk[1040];
  snprintf(chunk, sizeof chunk, "@%s", name);
  if (luaL_loadbufferx(L, text, len, chunk, "t") != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    snprintf(err, errlen, "%s", msg ? msg : "cannot load scenario");
    lua_pop(L, 1);
    return false;
  }
  /* the environment is built under a protected call: out of memory is a message */
  lua_pushcfunction(L, scenario_env);
  lua_insert(L, -2);
  if (!host_pcall(h, 1, 1, err, errlen)) return false;
  return host_pcall(h, 0, 1, err, errlen);
}

static int push_json_protected(lua_State *L) {
  ljson_push(L, lua_touserdata(L, 1));
  return 1;
}

/* Parses JSON outside Lua, then converts it under a protected call: a memory error
** while building the tables becomes a message, never a panic. [-0, +1] */
static bool host_push_json_text(host *h, const char *text, size_t len, const char *name,
                                char *err, size_t errlen) {
  json_error_t je;
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
  if (!j) {
    snprintf(err, errlen, "%s:%d:%d: %s", name, je.line, je.column, je.text);
    return false;
  }
  lua_pushcfunction(h->L, push_json_protected);
  lua_pushlightuserdata(h->L, j);
  bool ok = host_pcall(h, 1, 1, err, errlen);
  json_decref(j);
  return ok;
}

bool host_load_scenario(host *h, const char *path, char *err, size_t errlen) {
  size_t len;
  err[0] = '\0';
  char *text = ljson_slurp(path, MAX_SCENARIO_FILE, &len, err, errlen);
  if (!text) return false;
  const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
  size_t n = strlen(path);
  bool json = n >= 5 && strcmp(path + n - 5, ".json") == 0;
  bool ok = json ? host_push_json_text(h, text, len, name, err, errlen)
                 : host_load_scenario_text(h, text, len, name, err, errlen);
  free(text);
  return ok;
}

void host_push_driver(host *h) {
  lua_rawgeti(h->L, LUA_REGISTRYINDEX, h->ref_driver);
}

bool host_push_driver_fn(host *h, const char *name) {
  host_push_driver(h);
  lua_getfield(h->L, -1, name);
  lua_remove(h->L, -2);
  if (lua_isfunction(h->L, -1)) return true;
  lua_pop(h->L, 1);
  return false;
}

bool host_load_catalog(host *h, catalog *c, char *err, size_t errlen) {
  if (!host_push_driver_fn(h, "catalog")) {
    snprintf(err, errlen, "driver: no catalog function");
    return false;
  }
  if (!host_pcall(h, 0, 1, err, errlen)) return false;
  bool ok = lread_catalog(h->L, -1, c, err, errlen);
  lua_pop(h->L, 1);
  return ok;
}

bool host_is_limit_message(const char *msg) {
  return strstr(msg, "instruction budget exceeded") || strstr(msg, "memory limit exceeded");
}
