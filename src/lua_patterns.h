/*
** lua_patterns.h: Lua's pattern functions under a budget. string.find, match, gmatch
** and gsub run in C, where the count hook never fires, and backtrack: one call can take
** hours ("a*b" on 10^5 bytes). Each call is charged its worst case before it runs.
*/
#ifndef VF_LUA_PATTERNS_H
#define VF_LUA_PATTERNS_H

#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

/* Worst-case matcher steps of pattern p (plen bytes) on a subject of n bytes; anchors:
** whether a leading '^' anchors the match (not in gmatch). */
double lpat_cost(const char *p, size_t plen, size_t n, bool anchors);
/* Wraps find/match/gmatch/gsub of the string library table at idx; the function on top
** (popped) is called as charge(cost, name, pattern_len, subject_len) before each call
** and raises to refuse it. [-1, +0, m] */
void lpat_wrap(lua_State *L, int idx);

#endif
