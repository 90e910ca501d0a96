/*
** lua_files.h: model files for scripts: host.read_gguf(path) and
** host.read_safetensors(path) return the header's facts and every tensor as Lua
** tables, through the defensive readers gguf.c and safetensors.c.
*/
#ifndef VF_LUA_FILES_H
#define VF_LUA_FILES_H

#include <lua.h>

/* Adds read_gguf and read_safetensors to the table at idx. [-0, +0, m] */
void lfiles_register(lua_State *L, int idx);

#endif
