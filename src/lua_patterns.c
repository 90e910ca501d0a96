/*
** lua_patterns.c: budgeted string.find/match/gmatch/gsub (see lua_patterns.h).
** The cost model follows the shape of Lua's matcher (lstrlib.c): each start position
** (one if anchored) tries the pattern item by item; a repetition or a %b balance may
** try every remaining byte, an optional item two ways. Uses Lua only.
*/
#include "lua_patterns.h"

#include <lauxlib.h>
#include <stdbool.h>
#include <string.h>

#define COST_CAP 1e30

/* Length of the single-character class at p (".", "%a", "[^%d_]", "x"); 0 if it is
** malformed (the library function then reports the error itself). */
static size_t class_len(const char *p, const char *end) {
  if (*p == '%') return p + 1 < end ? 2 : 0;
  if (*p != '[') return 1;
  const char *q = p + 1;
  if (q < end && *q == '^') q++;
  do {
    if (q >= end) return 0;
    if (*q++ == '%' && q < end) q++;
  } while (q >= end || *q != ']');
  return (size_t)(q + 1 - p);
}

double lpat_cost(const char *p, size_t plen, size_t n, bool anchors) {
  const char *end = p + plen;
  double cost = (double)plen + 1, len = (double)n + 1;
  if (anchors && p < end && *p == '^')
    p++;
  else
    cost *= len;
  while (p < end && cost < COST_CAP) {
    if (*p == '(' || *p == ')' || (*p == '$' && p + 1 == end)) {
      p++;
    } else if (*p == '%' && p + 1 < end && (p[1] == 'b' || p[1] == 'f')) {
      if (p[1] == 'b') cost *= len;
      p += p[1] == 'b' ? 4 : 2; /* %bxy; %f is followed by its set, read next */
    } else {
      size_t k = class_len(p, end);
      if (k == 0) break;
      p += k;
      if (p < end && (*p == '*' || *p == '+' || *p == '-'))
        cost *= len, p++;
      else if (p < end && *p == '?')
        cost *= 2, p++;
    }
  }
  return cost < COST_CAP ? cost : COST_CAP;
}

/* Upvalues: 1 the library function, 2 its name, 3 the charge function. */
static int budgeted(lua_State *L) {
  size_t n, plen;
  luaL_checklstring(L, 1, &n);
  const char *p = luaL_checklstring(L, 2, &plen);
  const char *name = lua_tostring(L, lua_upvalueindex(2));
  /* plain find (also any pattern without specials) compares at every position */
  bool plain = strcmp(name, "find") == 0 && lua_toboolean(L, 4);
  lua_pushvalue(L, lua_upvalueindex(3));
  /* gmatch takes '^' literally: it never anchors */
  lua_pushnumber(L, plain ? ((double)n + 1) * ((double)plen + 1) : lpat_cost(p, plen, n, strcmp(name, "gmatch") != 0));
  lua_pushstring(L, name);
  lua_pushinteger(L, (lua_Integer)plen);
  lua_pushinteger(L, (lua_Integer)n);
  lua_call(L, 4, 0);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

void lpat_wrap(lua_State *L, int idx) {
  static const char *const names[] = {"find", "match", "gmatch", "gsub", NULL};
  idx = lua_absindex(L, idx);
  int charge = lua_gettop(L);
  for (int i = 0; names[i]; i++) {
    lua_getfield(L, idx, names[i]);
    lua_pushstring(L, names[i]);
    lua_pushvalue(L, charge);
    lua_pushcclosure(L, budgeted, 3);
    lua_setfield(L, idx, names[i]);
  }
  lua_pop(L, 1);
}
