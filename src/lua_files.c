/*
** lua_files.c: GGUF and safetensors headers as Lua tables (see lua_files.h). The
** readers check every length and offset; this file only converts their results.
** Tensor shapes keep the file's order (GGUF: ggml ne order, row length first).
*/
#include "lua_files.h"

#include <lauxlib.h>
#include <stdio.h>

#include "ggml_types.h"
#include "gguf.h"
#include "safetensors.h"

/* The reader's message as it is: it names the file and offset, so no script
** position is prepended (luaL_error would add "model_files.lua:NN:"). */
static int raise(lua_State *L, const char *msg) {
  lua_pushstring(L, msg);
  return lua_error(L);
}

static void push_shape(lua_State *L, const uint64_t *dims, int n) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)dims[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

static void set_int(lua_State *L, const char *key, uint64_t v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, key);
}

static void push_gguf_tensor(lua_State *L, const gguf_tensor *t) {
  lua_createtable(L, 0, 6);
  lua_pushstring(L, t->name);
  lua_setfield(L, -2, "name");
  push_shape(L, t->ne, (int)t->ndim);
  lua_setfield(L, -2, "shape");
  set_int(L, "bytes", t->bytes);
  set_int(L, "elements", t->elements);
  set_int(L, "offset", t->offset);
  const ggml_type_info *ti = ggml_type_get(t->type);
  lua_pushstring(L, ti ? ti->name : "?");
  lua_setfield(L, -2, "type");
}

/* metadata: the architecture fields, scalars as integers, per-layer arrays as lists */
static void push_gguf_metadata(lua_State *L, const gguf_info *g) {
  lua_createtable(L, 0, GGUF_F_COUNT);
  for (int i = 0; i < GGUF_F_COUNT; i++) {
    const gguf_field *f = &g->f[i];
    if (!f->present) continue;
    if (f->arr) {
      push_shape(L, f->arr, (int)f->n_arr);
    } else if (f->is_real) {
      lua_pushnumber(L, f->real);
    } else {
      lua_pushinteger(L, (lua_Integer)f->value);
    }
    lua_setfield(L, -2, gguf_field_key((gguf_field_id)i));
  }
}

static int hostfn_read_gguf(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  gguf_info g;
  char err[512];
  if (gguf_read_file(path, &g, err, sizeof err) != 0) return raise(L, err);
  lua_createtable(L, 0, 8);
  lua_pushstring(L, g.arch ? g.arch : "");
  lua_setfield(L, -2, "arch");
  if (g.has_file_type) {
    lua_pushstring(L, ggml_ftype_short(g.file_type));
    lua_setfield(L, -2, "file_type");
  }
  set_int(L, "params", g.params);
  set_int(L, "tensor_bytes", g.tensor_bytes);
  push_gguf_metadata(L, &g);
  lua_setfield(L, -2, "metadata");
  lua_createtable(L, (int)g.n_tensors, 0);
  for (size_t i = 0; i < g.n_tensors; i++) {
    push_gguf_tensor(L, &g.tensors[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "tensors");
  gguf_info_free(&g);
  return 1;
}

static void push_st_tensor(lua_State *L, const st_tensor *t) {
  lua_createtable(L, 0, 6);
  lua_pushstring(L, t->name);
  lua_setfield(L, -2, "name");
  push_shape(L, t->shape, t->ndim);
  lua_setfield(L, -2, "shape");
  set_int(L, "bytes", t->bytes);
  set_int(L, "elements", t->elements);
  lua_pushstring(L, t->dtype);
  lua_setfield(L, -2, "type");
  lua_pushboolean(L, (t->flags & ST_FLAG_QUANT_AUX) != 0);
  lua_setfield(L, -2, "quant_aux");
}

/* host.read_safetensors(path): a .safetensors file, an index.json, or a directory. */
static int hostfn_read_safetensors(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  const char *kind = luaL_optstring(L, 2, "file");
  st_model m;
  char err[512];
  st_status st = kind[0] == 'd' ? st_read_dir(path, &m, err, sizeof err)
                 : kind[0] == 'i' ? st_read_index(path, &m, err, sizeof err)
                                  : st_read_file(path, &m, err, sizeof err);
  if (st != 0) return raise(L, err);
  lua_createtable(L, 0, 6);
  set_int(L, "params", m.params);
  set_int(L, "bytes", m.bytes);
  set_int(L, "aux_bytes", m.aux_bytes);
  lua_createtable(L, (int)m.n, 0);
  for (size_t i = 0; i < m.n; i++) {
    push_st_tensor(L, &m.t[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "tensors");
  st_model_free(&m);
  return 1;
}

void lfiles_register(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, hostfn_read_gguf);
  lua_setfield(L, idx, "read_gguf");
  lua_pushcfunction(L, hostfn_read_safetensors);
  lua_setfield(L, idx, "read_safetensors");
}
