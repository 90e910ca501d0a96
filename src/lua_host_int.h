/*
** lua_host_int.h: the host state shared by lua_host.c (the state, sandbox, calls) and
** lua_modules.c (require and the `host` table). Private to those two files.
*/
#ifndef VF_LUA_HOST_INT_H
#define VF_LUA_HOST_INT_H

#include <lua.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "lua_host.h"

struct host {
  lua_State *L;
  char **dirs; /* user dirs, then the data dir if it exists */
  size_t n_dirs;
  void *(*alloc)(void *ud, void *ptr, size_t osize, size_t nsize);
  void *alloc_ud;
  size_t mem_used, mem_limit;
  uint64_t instr_used, instr_limit;
  bool limit_hit, budget_hit; /* budget_hit: the budget refused an allocation */
  int calls;                  /* host_pcall depth: allocations are charged inside only */
  struct timespec cpu_deadline;
  int ref_script_env, ref_loaded, ref_driver;
};

static inline host *host_of(lua_State *L) {
  return *(host **)lua_getextraspace(L);
}

/* Whether path is an existing directory. */
bool host_is_dir(const char *path);
/* require(name): Lua source from the user dirs, the data dir, then the embedded
** scripts, run in the script environment, cached. */
int host_require(lua_State *L);
/* Pushes a new `host` table (list, module_exists, read_json, path_kind, parse_bytes,
** match, read_gguf, read_safetensors). [-0, +1, m] */
void host_push_fns(lua_State *L);

#endif
