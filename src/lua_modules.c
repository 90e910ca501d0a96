/*
** lua_modules.c: what scripts (never scenario files) reach through the host: require
** over the user directories, the data directory and the embedded scripts, and the
** `host` table (directory listings, JSON files, sizes, PCRE2 matches, model files).
** Uses lua_host_int.h, lua_json.c, lua_files.c, rules.c, units.c and embedded.h.
*/
#include <dirent.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "embedded.h"
#include "inventory.h"
#include "lua_files.h"
#include "lua_host_int.h"
#include "lua_json.h"
#include "rules.h"
#include "units.h"

#define MAX_SCRIPT_FILE (64u * 1024u * 1024u)


static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool host_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "architectures.llama" -> "architectures/llama.lua"; "optimizers.adamw" ->
** "scripts/optimizers/adamw.lua". False for names with characters other than
** letters, digits, '_', '-' and '.', or an empty part. */
static bool module_path(const char *name, char *out, size_t size) {
  size_t n = strlen(name);
  if (n == 0 || n > 120 || name[0] == '.' || name[n - 1] == '.' || strstr(name, "..")) return false;
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  bool arch = strncmp(name, "architectures.", 14) == 0;
  int w = snprintf(out, size, "%s%s.lua", arch ? "" : "scripts/", name);
  if (w < 0 || (size_t)w >= size) return false;
  for (char *p = out; *p; p++)
    if (*p == '.' && strcmp(p, ".lua") != 0) *p = '/';
  return true;
}

static const embedded_file *embedded_find(const char *relpath) {
  for (size_t i = 0; i < vf_embedded_count; i++)
    if (strcmp(vf_embedded[i].path, relpath) == 0) return &vf_embedded[i];
  return NULL;
}

/* Loads the module's chunk with the script environment. [-0, +1, e] */
static void module_load(lua_State *L, host *h, const char *name, const char *relpath) {
  char path[1024], chunk[1040], err[512] = "";
  for (size_t i = 0; i < h->n_dirs; i++) {
    snprintf(path, sizeof path, "%s/%s", h->dirs[i], relpath);
    if (!is_file(path)) continue;
    size_t len;
    char *text = ljson_slurp(path, MAX_SCRIPT_FILE, &len, err, sizeof err);
    if (!text) luaL_error(L, "%s", err);
    snprintf(chunk, sizeof chunk, "@%s", path);
    int st = luaL_loadbufferx(L, text, len, chunk, "t");
    free(text);
    if (st != LUA_OK) lua_error(L);
    return;
  }
  const embedded_file *f = embedded_find(relpath);
  if (!f) luaL_error(L, "module '%s' not found (no %s in the script path)", name, relpath);
  snprintf(chunk, sizeof chunk, "@%s", relpath);
  if (luaL_loadbufferx(L, f->data, f->size, chunk, "t") != LUA_OK) lua_error(L);
}

/* __close of a require's guard {loaded =, name =, done =}: a load that raised (a syntax
** error in a user script, a limit, out of memory) takes back its "loading" mark, so the
** next require reports that error again instead of "requires itself". */
static int require_guard_close(lua_State *L) {
  if (lua_getfield(L, 1, "done") == LUA_TNIL) {
    lua_getfield(L, 1, "loaded");
    lua_getfield(L, 1, "name");
    lua_pushnil(L);
    lua_rawset(L, -3);
  }
  return 0;
}

int host_require(lua_State *L) {
  host *h = host_of(L);
  const char *name = luaL_checkstring(L, 1);
  char relpath[256];
  if (!module_path(name, relpath, sizeof relpath)) return luaL_error(L, "require: invalid module name '%s'", name);
  lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_loaded);
  int loaded = lua_gettop(L);
  if (lua_getfield(L, loaded, name) != LUA_TNIL) {
    if (lua_islightuserdata(L, -1)) return luaL_error(L, "require: module '%s' requires itself", name);
    return 1;
  }
  lua_createtable(L, 0, 3); /* the guard, closed when this call returns or raises */
  lua_pushvalue(L, loaded);
  lua_setfield(L, -2, "loaded");
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "name");
  if (luaL_newmetatable(L, "vramfit.require_guard")) {
    lua_pushcfunction(L, require_guard_close);
    lua_setfield(L, -2, "__close");
  }
  lua_setmetatable(L, -2);
  lua_toclose(L, -1);
  int guard = lua_gettop(L);
  lua_pushlightuserdata(L, h);
  lua_setfield(L, loaded, name); /* loading in progress */
  module_load(L, h, name, relpath);
  lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_script_env);
  lua_setupvalue(L, -2, 1);
  lua_pushstring(L, name);
  lua_call(L, 1, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, loaded, name);
  lua_pushboolean(L, 1);
  lua_setfield(L, guard, "done");
  return 1;
}

static void list_add(lua_State *L, int set, const char *file) {
  size_t n = strlen(file);
  if (n <= 4 || strcmp(file + n - 4, ".lua") != 0) return;
  lua_pushlstring(L, file, n - 4);
  lua_pushboolean(L, 1);
  lua_settable(L, set);
}

/* host.list(dir): sorted module names under "architectures" or "scripts/x". */
static int hostfn_list(lua_State *L) {
  host *h = host_of(L);
  const char *dir = luaL_checkstring(L, 1);
  size_t dl = strlen(dir);
  lua_newtable(L);
  int set = lua_gettop(L);
  for (size_t i = 0; i < vf_embedded_count; i++) {
    const char *p = vf_embedded[i].path;
    if (strncmp(p, dir, dl) == 0 && p[dl] == '/' && !strchr(p + dl + 1, '/')) list_add(L, set, p + dl + 1);
  }
  char path[1024];
  for (size_t i = 0; i < h->n_dirs; i++) {
    snprintf(path, sizeof path, "%s/%s", h->dirs[i], dir);
    DIR *d = opendir(path);
    if (!d) continue;
    for (struct dirent *e; (e = readdir(d));) list_add(L, set, e->d_name);
    closedir(d);
  }
  lua_newtable(L);
  lua_Integer k = 0;
  lua_pushnil(L);
  while (lua_next(L, set)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, ++k);
  }
  return 1;
}

/* host.module_exists(name): whether require(name) would find a file. */
static int hostfn_module_exists(lua_State *L) {
  host *h = host_of(L);
  char relpath[256], path[1024];
  bool found = false;
  if (module_path(luaL_checkstring(L, 1), relpath, sizeof relpath)) {
    found = embedded_find(relpath) != NULL;
    for (size_t i = 0; i < h->n_dirs && !found; i++) {
      snprintf(path, sizeof path, "%s/%s", h->dirs[i], relpath);
      found = is_file(path);
    }
  }
  lua_pushboolean(L, found);
  return 1;
}

static int hostfn_read_json(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  char err[512] = "";
  if (!ljson_push_file(L, path, MAX_SCRIPT_FILE, err, sizeof err)) return luaL_error(L, "%s", err);
  return 1;
}

static int hostfn_path_kind(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (is_file(path))
    lua_pushliteral(L, "file");
  else if (host_is_dir(path))
    lua_pushliteral(L, "dir");
  else
    lua_pushnil(L);
  return 1;
}

/* host.parse_bytes(value, field): an integer byte count or a size string, "80GB". */
static int hostfn_parse_bytes(lua_State *L) {
  const char *field = luaL_optstring(L, 2, "size");
  if (lua_isinteger(L, 1) && lua_tointeger(L, 1) >= 0) {
    lua_settop(L, 1);
    return 1;
  }
  uint64_t v = 0;
  units_status st = UNITS_SYNTAX;
  if (lua_type(L, 1) == LUA_TSTRING) st = units_parse_bytes(lua_tostring(L, 1), &v);
  if (st == UNITS_OK && v > (uint64_t)LUA_MAXINTEGER) st = UNITS_RANGE;
  if (st != UNITS_OK) { /* the message names the user's field, not the script's line */
    lua_pushfstring(L, "%s: expected a size such as \"80GB\" or \"79.19GiB\", got %s (%s)", field,
                    lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER ? lua_tostring(L, 1)
                                                                                 : luaL_typename(L, 1),
                    units_message(st));
    return lua_error(L);
  }
  lua_pushinteger(L, (lua_Integer)v);
  return 1;
}

/* A compiled pattern as a userdata, so the cache frees it with the state. */
static int rules_gc(lua_State *L) {
  rules **r = lua_touserdata(L, 1);
  rules_free(*r);
  *r = NULL;
  return 0;
}

/* host.match(pattern, subject [, caseless]): PCRE2, compiled once per pattern and
** kept in the registry, matched with match and depth limits. A bad pattern is an
** error naming its offset; a match that hits a limit is an error too. */
static int hostfn_match(lua_State *L) {
  const char *pat = luaL_checkstring(L, 1);
  const char *subj = luaL_checkstring(L, 2);
  int caseless = lua_toboolean(L, 3);
  char err[512];
  lua_pushfstring(L, "vramfit.pcre2:%d:%s", caseless, pat);
  if (lua_rawget(L, LUA_REGISTRYINDEX) != LUA_TUSERDATA) {
    lua_pop(L, 1);
    rules **r = lua_newuserdatauv(L, sizeof *r, 0);
    *r = NULL;
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, rules_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    if (!(*r = rules_new())) return luaL_error(L, "out of memory");
    if (!rules_add(*r, pat, 1, caseless ? RULES_CASELESS : 0, err, sizeof err)) return luaL_error(L, "%s", err);
    lua_pushfstring(L, "vramfit.pcre2:%d:%s", caseless, pat);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  rules **r = lua_touserdata(L, -1);
  int m = rules_match(*r, subj, NULL, NULL, err, sizeof err);
  if (m < 0) return luaL_error(L, "%s", err);
  lua_pushboolean(L, m == 1);
  return 1;
}

/* host.vision_tensor(name): a vision tower or projector tensor's name (inv_vision_name). */
static int hostfn_vision_tensor(lua_State *L) {
  lua_pushboolean(L, inv_vision_name(luaL_checkstring(L, 1)));
  return 1;
}

static const luaL_Reg host_fns[] = {
    {"match", hostfn_match},
    {"module_exists", hostfn_module_exists},
    {"parse_bytes", hostfn_parse_bytes},
    {"list", hostfn_list}, {"read_json", hostfn_read_json}, {"path_kind", hostfn_path_kind},
    {"vision_tensor", hostfn_vision_tensor}, {NULL, NULL}};

void host_push_fns(lua_State *L) {
  luaL_newlib(L, host_fns);
  lfiles_register(L, -1);
}
