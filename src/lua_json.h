/*
** lua_json.h: JSON (jansson) to Lua tables and back, for JSON scenario files,
** config.json and model_index.json. null becomes an absent key.
*/
#ifndef VF_LUA_JSON_H
#define VF_LUA_JSON_H

#include <jansson.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

/* Pushes the Lua value of j. [-0, +1, m] */
void ljson_push(lua_State *L, const json_t *j);
/* Parses text and pushes the value; on a syntax error writes "NAME:LINE:COL: what". */
bool ljson_push_text(lua_State *L, const char *text, size_t len, const char *name, char *err,
                     size_t errlen);
/* Reads a file of at most max_bytes and pushes its value. */
bool ljson_push_file(lua_State *L, const char *path, size_t max_bytes, char *err, size_t errlen);
/* Reads a whole file (or "-" for stdin) up to max_bytes into a malloc'd buffer. */
char *ljson_slurp(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen);

#endif
