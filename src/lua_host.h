/*
** lua_host.h: the Lua 5.4 state of one engine: a memory-capped allocator, an
** instruction budget, two sandboxed environments (scripts; scenario files), a
** `require` that loads Lua source from user directories, the data directory and the
** scripts compiled into the binary, and protected calls that return file:line errors.
*/
#ifndef VF_LUA_HOST_H
#define VF_LUA_HOST_H

#include <lua.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct host host;

typedef struct host_options {
  const char *const *dirs;   /* user script directories, searched first */
  size_t n_dirs;
  const char *datadir;       /* installed scripts; NULL or missing: embedded only */
  uint64_t instruction_limit;/* per top-level call; 0: default */
  size_t memory_limit;       /* bytes of Lua heap; 0: default */
  void *(*alloc)(void *ud, void *ptr, size_t osize, size_t nsize); /* NULL: realloc/free */
  void *alloc_ud;
} host_options;

host *host_new(const host_options *opt, char *err, size_t errlen);
void host_free(host *h);
lua_State *host_state(host *h);

/* Calls the function below nargs arguments with the budget reset; on error returns
** false with the message (file:line: what) in err and the stack popped. [-(nargs+1), +nres] */
bool host_pcall(host *h, int nargs, int nresults, char *err, size_t errlen);
/* Loads a scenario: path "-" reads standard input; ".json" files are parsed as JSON,
** anything else as Lua source run in a fresh scenario sandbox. Pushes the value. */
bool host_load_scenario(host *h, const char *path, char *err, size_t errlen);
/* Loads scenario text: JSON when it starts with '{' or '[', else Lua source run in a
** fresh scenario sandbox; name (a path) names it in errors. Pushes the value. */
bool host_load_scenario_text(host *h, const char *text, size_t len, const char *name, char *err,
                             size_t errlen);
/* Pushes the engine driver table (scripts/engine.lua). */
void host_push_driver(host *h);
/* Pushes driver[name]; false if absent. */
bool host_push_driver_fn(host *h, const char *name);

/* Loads the GPU catalog through the driver (scripts/gpus.lua) into c. */
struct catalog;
bool host_load_catalog(host *h, struct catalog *c, char *err, size_t errlen);
/* Whether a message from host_pcall reports the instruction budget or the memory cap. */
bool host_is_limit_message(const char *msg);

#endif
