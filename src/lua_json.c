/*
** lua_json.c: JSON values to Lua values (see lua_json.h). Uses jansson and Lua.
*/
#include "lua_json.h"

#include <errno.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push_object(lua_State *L, const json_t *j) {
  const char *key;
  json_t *v;
  lua_createtable(L, 0, (int)json_object_size(j));
  json_object_foreach((json_t *)j, key, v) {
    if (json_is_null(v)) continue;
    ljson_push(L, v);
    lua_setfield(L, -2, key);
  }
}

static void push_array(lua_State *L, const json_t *j) {
  size_t n = json_array_size(j);
  lua_createtable(L, (int)(n < 1000000 ? n : 0), 0);
  for (size_t i = 0; i < n; i++) {
    ljson_push(L, json_array_get(j, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

void ljson_push(lua_State *L, const json_t *j) {
  luaL_checkstack(L, 4, "JSON nesting too deep");
  switch (json_typeof(j)) {
  case JSON_OBJECT: push_object(L, j); break;
  case JSON_ARRAY: push_array(L, j); break;
  case JSON_STRING: lua_pushlstring(L, json_string_value(j), json_string_length(j)); break;
  case JSON_INTEGER: lua_pushinteger(L, (lua_Integer)json_integer_value(j)); break;
  case JSON_REAL: lua_pushnumber(L, json_real_value(j)); break;
  case JSON_TRUE: lua_pushboolean(L, 1); break;
  case JSON_FALSE: lua_pushboolean(L, 0); break;
  default: lua_pushnil(L); break;
  }
}

bool ljson_push_text(lua_State *L, const char *text, size_t len, const char *name, char *err,
                     size_t errlen) {
  json_error_t je;
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
  if (!j) {
    snprintf(err, errlen, "%s:%d:%d: %s", name, je.line, je.column, je.text);
    return false;
  }
  ljson_push(L, j);
  json_decref(j);
  return true;
}

char *ljson_slurp(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen) {
  bool is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    if (cap >= max_bytes) {
      snprintf(err, errlen, "%s: larger than %zu bytes", path, max_bytes);
      free(buf);
      buf = NULL;
      break;
    }
    cap *= 2;
    char *nb = realloc(buf, cap + 1);
    if (!nb) free(buf);
    buf = nb;
  }
  if (!buf && !err[0]) snprintf(err, errlen, "%s: out of memory", path);
  if (buf && ferror(f)) {
    snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
    free(buf);
    buf = NULL;
  }
  if (!is_stdin) fclose(f);
  if (buf) {
    buf[n] = '\0';
    *len = n;
  }
  return buf;
}

bool ljson_push_file(lua_State *L, const char *path, size_t max_bytes, char *err, size_t errlen) {
  size_t len;
  err[0] = '\0';
  char *text = ljson_slurp(path, max_bytes, &len, err, errlen);
  if (!text) return false;
  bool ok = ljson_push_text(L, text, len, path, err, errlen);
  free(text);
  return ok;
}
