/*
** lua_read.h: reads the tables the Lua side returns (a normalized scenario with its
** model description; the GPU catalog) into model.h and catalog.h structs. Every field
** is type- and range-checked; an error names the field.
*/
#ifndef VF_LUA_READ_H
#define VF_LUA_READ_H

#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "model.h"

/* Reads the normalized scenario at idx. Model must be model_init'ed by the caller. */
bool lread_scenario(lua_State *L, int idx, scenario *s, model_desc *m, char *err, size_t errlen);
/* Reads the list of GPU entries at idx into c (already catalog_init'ed). */
bool lread_catalog(lua_State *L, int idx, catalog *c, char *err, size_t errlen);

#endif
