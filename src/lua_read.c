/*
** lua_read.c: Lua tables to C structs (see lua_read.h). Uses Lua, inventory.c,
** dtype.c and catalog.c. Reads only: never calls into Lua code, so no metamethod of
** a hostile table runs (every access is raw).
*/
#include "lua_read.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct rd {
  lua_State *L;
  char *err;
  size_t errlen;
  bool failed;
  char where[96]; /* prefix of field names: "model.desc" */
} rd;

static bool rd_fail(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool rd_fail(rd *r, const char *fmt, ...) {
  if (r->failed) return false;
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(r->err, r->errlen, "%s%s", r->where, r->where[0] ? "." : "");
  if (n >= 0 && (size_t)n < r->errlen) vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  r->failed = true;
  return false;
}

/* Pushes t[key] (raw). [-0, +1] */
static int rd_get(rd *r, int t, const char *key) {
  lua_pushstring(r->L, key);
  return lua_rawget(r->L, t < 0 ? t - 1 : t);
}

static uint64_t rd_u64(rd *r, int t, const char *key, bool required, uint64_t dflt) {
  int ty = rd_get(r, t, key);
  uint64_t v = dflt;
  if (ty == LUA_TNIL) {
    if (required) rd_fail(r, "%s: missing", key);
  } else if (!lua_isinteger(r->L, -1)) {
    lua_Number n = lua_tonumber(r->L, -1);
    lua_Integer i;
    if (ty == LUA_TNUMBER && lua_numbertointeger(n, &i) && (lua_Number)i == n && i >= 0)
      v = (uint64_t)i;
    else
      rd_fail(r, "%s: expected a non-negative integer", key);
  } else if (lua_tointeger(r->L, -1) < 0) {
    rd_fail(r, "%s: expected a non-negative integer", key);
  } else {
    v = (uint64_t)lua_tointeger(r->L, -1);
  }
  lua_pop(r->L, 1);
  return v;
}

/* A model dimension: below 2^31, so sums and small products of dimensions can never
** overflow before the checked byte arithmetic takes over. */
#define DIM_MAX (1ull << 31)
static uint64_t rd_dim(rd *r, int t, const char *key, bool required, uint64_t dflt) {
  uint64_t v = rd_u64(r, t, key, required, dflt);
  if (v > DIM_MAX) rd_fail(r, "%s: %llu is out of range (at most %llu)", key, (unsigned long long)v, DIM_MAX);
  return v;
}

static double rd_num(rd *r, int t, const char *key, double dflt) {
  int ty = rd_get(r, t, key);
  double v = dflt;
  if (ty == LUA_TNUMBER)
    v = lua_tonumber(r->L, -1);
  else if (ty != LUA_TNIL)
    rd_fail(r, "%s: expected a number", key);
  lua_pop(r->L, 1);
  return v;
}

static bool rd_bool(rd *r, int t, const char *key, bool dflt) {
  int ty = rd_get(r, t, key);
  bool v = dflt;
  if (ty == LUA_TBOOLEAN)
    v = lua_toboolean(r->L, -1);
  else if (ty != LUA_TNIL)
    rd_fail(r, "%s: expected true or false", key);
  lua_pop(r->L, 1);
  return v;
}

/* Copies t[key] into buf; "" when absent and not required. */
static void rd_str(rd *r, int t, const char *key, char *buf, size_t size, bool required) {
  int ty = rd_get(r, t, key);
  buf[0] = '\0';
  if (ty == LUA_TSTRING)
    snprintf(buf, size, "%s", lua_tostring(r->L, -1));
  else if (ty != LUA_TNIL || required)
    rd_fail(r, "%s: expected a string", key);
  lua_pop(r->L, 1);
}

static vf_dtype rd_dtype(rd *r, int t, const char *key) {
  char name[32];
  vf_dtype dt = DT_BF16;
  rd_str(r, t, key, name, sizeof name, true);
  if (!r->failed && !dtype_parse(name, &dt)) rd_fail(r, "%s: unknown dtype '%s'", key, name);
  return dt;
}

/* Table at t[key] pushed, or false (and nothing pushed) if absent/wrong type. */
static bool rd_table(rd *r, int t, const char *key, bool required) {
  int ty = rd_get(r, t, key);
  if (ty == LUA_TTABLE) return true;
  lua_pop(r->L, 1);
  if (ty != LUA_TNIL || required) rd_fail(r, "%s: expected a table", key);
  return false;
}

static void rd_tensor(rd *r, int t, size_t i, model_desc *m, vf_dtype dt) {
  lua_State *L = r->L;
  char name[256];
  rd_str(r, t, "name", name, sizeof name, true);
  uint64_t shape[INV_MAX_DIMS];
  int ndim = 0;
  if (rd_table(r, t, "shape", true)) {
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n < 1 || n > INV_MAX_DIMS) rd_fail(r, "tensors[%zu].shape: expected 1 to %d dimensions", i, INV_MAX_DIMS);
    for (lua_Integer k = 1; k <= n && !r->failed; k++) {
      lua_rawgeti(L, -1, k);
      lua_Integer d = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
      if (d <= 0) rd_fail(r, "tensors[%zu] '%s': shape[%lld] must be a positive integer", i, name, (long long)k);
      shape[ndim++] = (uint64_t)d;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  uint64_t count = rd_u64(r, t, "count", false, 1);
  char role_name[32];
  rd_str(r, t, "role", role_name, sizeof role_name, false);
  inv_role role = ROLE_OTHER;
  if (role_name[0] && !inv_role_parse(role_name, &role)) rd_fail(r, "tensors[%zu].role: unknown role '%s'", i, role_name);
  if (!r->failed && count == 0) rd_fail(r, "tensors[%zu].count: must be at least 1", i);
  /* a quantization or a model file may give the stored bytes and dtype per tensor */
  uint64_t bytes = rd_u64(r, t, "bytes", false, 0);
  char dname[32];
  rd_str(r, t, "dtype", dname, sizeof dname, false);
  if (dname[0] && !dtype_parse(dname, &dt)) rd_fail(r, "tensors[%zu] '%s': unknown dtype '%s'", i, name, dname);
  if (!r->failed && !inv_add(&m->inv, name, shape, ndim, count, role, dt)) rd_fail(r, "tensors: out of memory");
  if (!r->failed) {
    inv_tensor *it = &m->inv.t[m->inv.n - 1];
    it->stored_bytes = bytes;
    rd_str(r, t, "qtype", it->qtype, sizeof it->qtype, false);
    rd_str(r, t, "component", it->component, sizeof it->component, false);
    it->skipped_before = rd_u64(r, t, "skipped_before", false, 0);
    it->buffer = rd_bool(r, t, "buffer", false);
  }
}

static void rd_tensors(rd *r, int desc, model_desc *m, vf_dtype dt) {
  if (!rd_table(r, desc, "tensors", true)) return;
  size_t n = lua_rawlen(r->L, -1);
  if (n == 0) rd_fail(r, "tensors: the model has no tensors");
  for (size_t i = 1; i <= n && !r->failed; i++) {
    if (lua_rawgeti(r->L, -1, (lua_Integer)i) != LUA_TTABLE)
      rd_fail(r, "tensors[%zu]: expected a table", i);
    else
      rd_tensor(r, -1, i, m, dt);
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
}

/* kv[i].kind: "attention" (default), "chunked" (window = chunk), "cross" (tokens = encoder
** tokens per sequence) or "mamba" (state_elems per sequence and layer, of which conv_elems
** the convolution window; no K/V heads). */
static void rd_kv_group(rd *r, size_t i, kv_group *g) {
  static const char *const kinds[] = {"attention", "chunked", "cross", "mamba"};
  char kind[16];
  rd_str(r, -1, "kind", kind, sizeof kind, false);
  g->kind = KV_ATTN;
  for (size_t k = 1; k < sizeof kinds / sizeof *kinds; k++)
    if (strcmp(kind, kinds[k]) == 0) g->kind = (kv_kind)k;
  if (kind[0] && g->kind == KV_ATTN && strcmp(kind, "attention") != 0)
    rd_fail(r, "kv[%zu].kind: unknown kind '%s' (attention, chunked, cross, mamba)", i, kind);
  bool state = g->kind == KV_STATE;
  g->layers = rd_dim(r, -1, "layers", true, 0);
  g->kv_heads = rd_dim(r, -1, "kv_heads", !state, 0);
  g->k_dim = rd_dim(r, -1, "k_dim", !state, 0);
  g->v_dim = rd_dim(r, -1, "v_dim", false, 0);
  g->window = rd_dim(r, -1, "window", g->kind == KV_CHUNKED, 0);
  g->tokens = rd_dim(r, -1, "tokens", g->kind == KV_CROSS, 0);
  g->state_elems = rd_u64(r, -1, "state_elems", state, 0);
  if (!r->failed && state && (g->state_elems == 0 || g->state_elems > DIM_MAX * 64))
    rd_fail(r, "kv[%zu].state_elems: expected 1 to %llu elements", i, DIM_MAX * 64);
  g->conv_elems = rd_u64(r, -1, "conv_elems", false, 0);
  if (!r->failed && g->conv_elems > g->state_elems)
    rd_fail(r, "kv[%zu].conv_elems: %llu exceeds state_elems %llu", i, (unsigned long long)g->conv_elems,
            (unsigned long long)g->state_elems);
  g->bytes = rd_dim(r, -1, "bytes", false, 0);
  g->fp8_bytes = rd_dim(r, -1, "fp8_bytes", false, 0);
  if (!r->failed && (g->bytes || g->fp8_bytes) && (state || g->kind == KV_CROSS))
    rd_fail(r, "kv[%zu].bytes / fp8_bytes: only for a group that caches tokens (kind attention or chunked)", i);
  /* expanded_*: the K/V layout transformers caches (model.h); heads and k_dim go together */
  g->expanded_heads = rd_dim(r, -1, "expanded_heads", false, 0);
  g->expanded_k_dim = rd_dim(r, -1, "expanded_k_dim", false, 0);
  g->expanded_v_dim = rd_dim(r, -1, "expanded_v_dim", false, 0);
  bool expanded = g->expanded_heads || g->expanded_k_dim || g->expanded_v_dim;
  if (!r->failed && expanded && (state || g->kind == KV_CROSS))
    rd_fail(r, "kv[%zu].expanded_heads: only for a group that caches tokens (kind attention or chunked)", i);
  if (!r->failed && expanded && !g->expanded_heads)
    rd_fail(r, "kv[%zu].expanded_heads: needed with expanded_k_dim / expanded_v_dim (the heads transformers caches)", i);
  if (!r->failed && expanded && !g->expanded_k_dim)
    rd_fail(r, "kv[%zu].expanded_k_dim: needed with expanded_heads (the per-head key width transformers caches)", i);
  /* expanded_by: the serving runtimes that cache the expanded layout as transformers does */
  g->expanded_by = 0;
  int eb = rd_get(r, -1, "expanded_by");
  if (eb == LUA_TTABLE && !r->failed) {
    static const struct { const char *name; unsigned bit; } by[] = {
        {"vllm", KV_BY_VLLM}, {"sglang", KV_BY_SGLANG}, {"llamacpp", KV_BY_LLAMACPP}};
    size_t n = lua_rawlen(r->L, -1);
    for (size_t k = 1; k <= n && !r->failed; k++) {
      lua_rawgeti(r->L, -1, (lua_Integer)k);
      const char *nm = lua_type(r->L, -1) == LUA_TSTRING ? lua_tostring(r->L, -1) : NULL;
      unsigned bit = 0;
      for (size_t j = 0; nm && j < sizeof by / sizeof *by; j++)
        if (strcmp(nm, by[j].name) == 0) bit = by[j].bit;
      lua_pop(r->L, 1);
      if (!bit) rd_fail(r, "kv[%zu].expanded_by[%zu]: expected \"vllm\", \"sglang\" or \"llamacpp\"", i, k);
      g->expanded_by |= bit;
    }
  } else if (eb != LUA_TNIL && !r->failed) {
    rd_fail(r, "kv[%zu].expanded_by: expected a list of runtime names", i);
  }
  lua_pop(r->L, 1);
  if (!r->failed && g->expanded_by && !g->expanded_heads)
    rd_fail(r, "kv[%zu].expanded_by: needs expanded_heads / expanded_k_dim (the layout those runtimes cache)", i);
  /* layer_ids: the group's layers (0-based), one per layer, when known */
  int ty = rd_get(r, -1, "layer_ids");
  if (ty == LUA_TTABLE && !r->failed) {
    size_t n = lua_rawlen(r->L, -1);
    if (n != g->layers)
      rd_fail(r, state ? "kv[%zu].layer_ids: a mamba group's list of its %llu layers" : "kv[%zu].layer_ids: a list of the group's %llu layers",
              i, (unsigned long long)g->layers);
    for (size_t k = 1; k <= n && !r->failed; k++) {
      lua_rawgeti(r->L, -1, (lua_Integer)k);
      lua_Integer id = lua_isinteger(r->L, -1) ? lua_tointeger(r->L, -1) : -1;
      lua_pop(r->L, 1);
      if (id < 0 || id >= KV_MAX_IDS) {
        rd_fail(r, "kv[%zu].layer_ids[%zu]: expected a layer index 0 to %d", i, k, KV_MAX_IDS - 1);
        break;
      }
      if (g->ids[id / 64] & (1ull << (id % 64))) {
        rd_fail(r, "kv[%zu].layer_ids[%zu]: layer %lld listed twice", i, k, (long long)id);
        break;
      }
      g->ids[id / 64] |= 1ull << (id % 64);
    }
    g->has_ids = !r->failed;
  } else if (ty != LUA_TNIL) {
    rd_fail(r, "kv[%zu].layer_ids: expected a list", i);
  }
  lua_pop(r->L, 1);
}

static void rd_kv(rd *r, int desc, model_desc *m) {
  if (!rd_table(r, desc, "kv", false)) return;
  size_t n = lua_rawlen(r->L, -1);
  if (n > MODEL_MAX_KV) rd_fail(r, "kv: at most %d groups", MODEL_MAX_KV);
  for (size_t i = 1; i <= n && !r->failed; i++) {
    if (lua_rawgeti(r->L, -1, (lua_Integer)i) != LUA_TTABLE)
      rd_fail(r, "kv[%zu]: expected a table", i);
    else
      rd_kv_group(r, i, &m->kv[m->n_kv++]);
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
}

static void rd_block(rd *r, int desc, model_desc *m) {
  block_spec *b = &m->block;
  if (!rd_table(r, desc, "block", false)) {
    b->q_dim = m->heads * m->head_dim;
    b->kv_dim = m->kv_heads * m->head_dim;
    b->ffn_dim = m->intermediate;
    b->rms = true;
    return;
  }
  b->q_dim = rd_dim(r, -1, "q_dim", false, m->heads * m->head_dim);
  b->kv_dim = rd_dim(r, -1, "kv_dim", false, m->kv_heads * m->head_dim);
  b->ffn_dim = rd_dim(r, -1, "ffn_dim", false, m->intermediate);
  b->experts = rd_dim(r, -1, "experts", false, 0);
  b->experts_per_tok = rd_dim(r, -1, "experts_per_tok", false, 0);
  b->expert_ffn = rd_dim(r, -1, "expert_ffn", false, 0);
  b->dense_ffn = rd_dim(r, -1, "dense_ffn", false, 0);
  b->gated = rd_bool(r, -1, "gated", false);
  b->parallel_residual = rd_bool(r, -1, "parallel_residual", false);
  b->moe_unnormalized = !rd_bool(r, -1, "moe_norm", true);
  b->moe_scaled = rd_bool(r, -1, "moe_scaled", false);
  b->dense_beside_moe = rd_bool(r, -1, "moe_dense_beside", false);
  char norm[16];
  rd_str(r, -1, "norm", norm, sizeof norm, false);
  b->rms = strcmp(norm, "layer") != 0;
  lua_pop(r->L, 1);
}

static void rd_model(rd *r, int model, model_desc *m, vf_dtype dt) {
  rd_str(r, model, "id", m->id, sizeof m->id, true);
  rd_str(r, model, "arch", m->arch, sizeof m->arch, true);
  if (!rd_table(r, model, "desc", true)) return;
  int desc = lua_gettop(r->L);
  snprintf(r->where, sizeof r->where, "architecture '%s'", m->arch);
  char family[24];
  rd_str(r, desc, "family", family, sizeof family, false);
  m->family = strcmp(family, "encoder") == 0 ? FAM_ENCODER
              : strcmp(family, "encoder-decoder") == 0 ? FAM_ENCDEC : FAM_DECODER;
  m->hidden = rd_dim(r, desc, "hidden", true, 0);
  m->layers = rd_dim(r, desc, "layers", true, 0);
  m->vocab = rd_dim(r, desc, "vocab", false, 0);
  m->heads = rd_dim(r, desc, "heads", false, 0);
  m->kv_heads = rd_dim(r, desc, "kv_heads", false, m->heads);
  m->head_dim = rd_dim(r, desc, "head_dim", false, m->heads ? m->hidden / m->heads : 0);
  m->intermediate = rd_dim(r, desc, "intermediate", false, 0);
  m->max_position = rd_dim(r, desc, "max_position", false, 0);
  m->rotary_dim = rd_dim(r, desc, "rotary_dim", false, m->head_dim);
  m->rope_positions = rd_dim(r, desc, "rope_positions", false, 1);
  m->rope_rows = rd_dim(r, desc, "rope_rows", false, m->max_position);
  m->attn_temp = rd_bool(r, desc, "attn_temp", false);
  m->tied_embeddings = rd_bool(r, desc, "tied_embeddings", false);
  rd_tensors(r, desc, m, dt);
  rd_kv(r, desc, m);
  rd_block(r, desc, m);
  lua_pop(r->L, 1);
  r->where[0] = '\0';
}

static int rd_enum(rd *r, int t, const char *key, const char *const *names, int dflt) {
  char buf[32];
  rd_str(r, t, key, buf, sizeof buf, false);
  if (!buf[0]) return dflt;
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], buf) == 0) return i;
  rd_fail(r, "%s: unexpected value '%s'", key, buf);
  return dflt;
}

#define LREAD_MAX_GPUS (1ull << 20) /* scripts/scenario.lua's MAX_GPUS */

static void rd_training(rd *r, int t, scenario *s) {
  static const char *const gcs[] = {"none", "full", "selective", "op", NULL};
  s->micro_batch = rd_u64(r, t, "micro_batch", false, 1);
  s->seq_len = rd_u64(r, t, "seq_len", false, 0);
  s->grad_accum = rd_u64(r, t, "grad_accum", false, 1);
  s->gc = (gc_kind)rd_enum(r, t, "gc", gcs, GC_NONE);
  if (rd_table(r, t, "optimizer", true)) {
    rd_str(r, -1, "name", s->opt.name, sizeof s->opt.name, true);
    double states = rd_num(r, -1, "states", 0), extra = rd_num(r, -1, "state_extra_bits", 0);
    double temps = rd_num(r, -1, "step_temps", 0);
    lua_pop(r->L, 1);
    /* states and temporaries are shaped like the parameters, in the state dtype:
    ** the master dtype when there is a master copy, else the weights' */
    double bits = dtype_get(s->prec.master ? s->prec.master_dtype : s->prec.weights)->bits;
    /* a user's optimizer script could return NaN or 1e300: converting those is undefined */
    if (!(states >= 0 && states <= 64 && extra >= 0 && extra <= 4096 && temps >= 0 && temps <= 64)) {
      rd_fail(r, "optimizer '%s': states, state_extra_bits or step_temps out of range", s->opt.name);
      return;
    }
    s->opt.state_bits = (uint64_t)(states * bits + extra + 0.5);
    s->opt.step_temp_bits = (uint64_t)(temps * bits + 0.5);
  }
}

static void rd_precision(rd *r, int t, scenario *s) {
  if (!rd_table(r, t, "precision", true)) return;
  precision_spec *p = &s->prec;
  rd_str(r, -1, "name", p->name, sizeof p->name, true);
  p->weights = rd_dtype(r, -1, "weights");
  p->grads = rd_dtype(r, -1, "grads");
  p->activations = rd_dtype(r, -1, "activations");
  p->master = rd_bool(r, -1, "master", false);
  p->master_dtype = DT_FP32;
  lua_pop(r->L, 1);
}

static void rd_gpus(rd *r, int t, scenario *s) {
  if (!rd_table(r, t, "gpus", false)) return;
  size_t n = lua_rawlen(r->L, -1);
  for (size_t i = 1; i <= n && i <= SCN_MAX_GPUS && !r->failed; i++) {
    if (lua_rawgeti(r->L, -1, (lua_Integer)i) != LUA_TTABLE) { /* rd_str needs a table */
      rd_fail(r, "gpus[%zu]: expected a table", i);
      lua_pop(r->L, 1);
      break;
    }
    gpu *g = &s->gpus[s->n_gpus++];
    memset(g, 0, sizeof *g);
    rd_str(r, -1, "name", g->name, sizeof g->name, true);
    g->memory = rd_u64(r, -1, "memory", false, 0); /* 0: resolve from the catalog */
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
}

static void rd_notes(rd *r, int t, scenario *s) {
  if (!rd_table(r, t, "notes", false)) return;
  size_t n = lua_rawlen(r->L, -1);
  for (size_t i = 1; i <= n; i++) {
    if (lua_rawgeti(r->L, -1, (lua_Integer)i) == LUA_TSTRING) scenario_note(s, "%s", lua_tostring(r->L, -1));
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
}

/* extra = { ["runtime.max_model_len"] = 8192, ... }: a flat map of scalars. */
static void rd_extra_value(rd *r, scn_value *v, const char *key) {
  lua_State *L = r->L;
  snprintf(v->key, sizeof v->key, "%s", key);
  if (lua_type(L, -1) == LUA_TBOOLEAN) {
    v->type = SCN_BOOL;
    v->i = (uint64_t)lua_toboolean(L, -1);
  } else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0) {
    v->type = SCN_INT;
    v->i = (uint64_t)lua_tointeger(L, -1);
  } else if (lua_type(L, -1) == LUA_TNUMBER) {
    v->type = SCN_REAL;
    v->d = lua_tonumber(L, -1);
  } else if (lua_type(L, -1) == LUA_TSTRING) {
    v->type = SCN_STR;
    snprintf(v->s, sizeof v->s, "%s", lua_tostring(L, -1));
  } else {
    rd_fail(r, "extra.%s: expected a number, a string or a boolean", key);
  }
}

static void rd_extras(rd *r, int t, scenario *s) {
  if (!rd_table(r, t, "extra", false)) return;
  lua_pushnil(r->L);
  while (!r->failed && lua_next(r->L, -2)) {
    if (lua_type(r->L, -2) != LUA_TSTRING || lua_rawlen(r->L, -2) >= sizeof s->extra[0].key)
      rd_fail(r, "extra: keys must be strings of at most 47 bytes");
    else if (s->n_extra >= SCN_MAX_EXTRA)
      rd_fail(r, "extra: more than %d entries", SCN_MAX_EXTRA);
    else
      rd_extra_value(r, &s->extra[s->n_extra++], lua_tostring(r->L, -2));
    lua_pop(r->L, 1);
  }
  if (r->failed) lua_pop(r->L, 1); /* the key left by an interrupted lua_next */
  lua_pop(r->L, 1);
}

bool lread_scenario(lua_State *L, int idx, scenario *s, model_desc *m, char *err, size_t errlen) {
  static const char *const kinds[] = {"inference", "train", "image", "video", NULL};
  static const char *const attns[] = {"sdpa", "flash", "eager", NULL};
  static const char *const strats[] = {"none", "ddp", "fsdp", "zero1", "zero2", "zero3", NULL};
  rd r = {L, err, errlen, false, ""};
  int t = lua_absindex(L, idx);
  memset(s, 0, sizeof *s);
  if (!lua_checkstack(L, 16)) return rd_fail(&r, "out of memory");
  rd_str(&r, t, "name", s->name, sizeof s->name, false);
  rd_str(&r, t, "runtime", s->runtime, sizeof s->runtime, true);
  s->kind = (wl_kind)rd_enum(&r, t, "kind", kinds, WL_INFERENCE);
  s->dtype = rd_dtype(&r, t, "dtype");
  s->kv_dtype = rd_dtype(&r, t, "kv_dtype");
  s->attention = (attn_kind)rd_enum(&r, t, "attention", attns, ATTN_SDPA);
  s->context = rd_u64(&r, t, "context", false, 0);
  s->concurrency = rd_u64(&r, t, "concurrency", false, 0);
  s->prompt_tokens = rd_u64(&r, t, "prompt_tokens", false, 0);
  s->static_cache = rd_bool(&r, t, "static_cache", false);
  rd_precision(&r, t, s);
  if (s->kind == WL_TRAIN) rd_training(&r, t, s);
  s->tp = rd_u64(&r, t, "tp", false, 1);
  s->pp = rd_u64(&r, t, "pp", false, 1);
  s->dp = rd_u64(&r, t, "dp", false, 1);
  s->strategy = (strategy_kind)rd_enum(&r, t, "strategy", strats, STRAT_NONE);
  s->cuda_context = rd_u64(&r, t, "cuda_context", false, 0);
  s->headroom = rd_num(&r, t, "headroom", 0.05);
  rd_gpus(&r, t, s);
  rd_notes(&r, t, s);
  rd_extras(&r, t, s);
  if (!r.failed && rd_table(&r, t, "model", true)) {
    rd_model(&r, lua_gettop(L), m, s->kind == WL_TRAIN ? s->prec.weights : s->dtype);
    lua_pop(L, 1);
  }
  if (!r.failed && (s->tp == 0 || s->pp == 0 || s->dp == 0)) rd_fail(&r, "tp, pp and dp must be at least 1");
  /* the C core's products of layout sizes (devices, fit counts) stay far below 2^64 */
  if (!r.failed && (s->tp > LREAD_MAX_GPUS || s->pp > LREAD_MAX_GPUS || s->dp > LREAD_MAX_GPUS ||
                    s->tp * s->pp * s->dp > LREAD_MAX_GPUS))
    rd_fail(&r, "tp x pp x dp: at most %llu GPUs", (unsigned long long)LREAD_MAX_GPUS);
  if (!r.failed && !(s->headroom >= 0 && s->headroom < 1)) rd_fail(&r, "headroom: expected a fraction from 0 to below 1");
  return !r.failed;
}

static void rd_gpu(rd *r, int t, catalog *c) {
  gpu g;
  memset(&g, 0, sizeof g);
  rd_str(r, t, "name", g.name, sizeof g.name, true);
  snprintf(r->where, sizeof r->where, "gpus.lua '%s'", g.name);
  rd_str(r, t, "vendor", g.vendor, sizeof g.vendor, true);
  rd_str(r, t, "arch", g.arch, sizeof g.arch, true);
  rd_str(r, t, "nominal", g.nominal, sizeof g.nominal, false);
  rd_str(r, t, "memory_type", g.memory_type, sizeof g.memory_type, false);
  rd_str(r, t, "interconnect", g.interconnect, sizeof g.interconnect, false);
  rd_str(r, t, "compute", g.compute, sizeof g.compute, false);
  g.memory = rd_u64(r, t, "memory", true, 0);
  char basis[16];
  rd_str(r, t, "memory_basis", basis, sizeof basis, false);
  g.memory_measured = strcmp(basis, "measured") == 0;
  g.smi_memory = rd_u64(r, t, "smi_memory", false, 0);
  g.bandwidth_gbs = rd_num(r, t, "bandwidth_gbs", 0);
  g.link_gbs = rd_num(r, t, "link_gbs", 0);
  g.bf16 = rd_bool(r, t, "bf16", false);
  g.fp8 = rd_bool(r, t, "fp8", false);
  g.fp4 = rd_bool(r, t, "fp4", false);
  if (r->failed) return;
  if (g.memory == 0) {
    rd_fail(r, "memory: must be positive");
    return;
  }
  if (!catalog_add(c, &g)) {
    rd_fail(r, "out of memory");
    return;
  }
  if (!rd_table(r, t, "aliases", false)) return;
  size_t n = lua_rawlen(r->L, -1);
  for (size_t i = 1; i <= n && !r->failed; i++) {
    if (lua_rawgeti(r->L, -1, (lua_Integer)i) != LUA_TSTRING)
      rd_fail(r, "aliases[%zu]: expected a PCRE2 pattern string", i);
    else if (!catalog_alias(c, c->n - 1, lua_tostring(r->L, -1), r->err, r->errlen))
      r->failed = true;
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
}

bool lread_catalog(lua_State *L, int idx, catalog *c, char *err, size_t errlen) {
  rd r = {L, err, errlen, false, ""};
  int t = lua_absindex(L, idx);
  if (!lua_istable(L, t)) return rd_fail(&r, "gpus.lua: expected a list of GPU entries");
  size_t n = lua_rawlen(L, t);
  for (size_t i = 1; i <= n && !r.failed; i++) {
    r.where[0] = '\0';
    if (lua_rawgeti(L, t, (lua_Integer)i) != LUA_TTABLE)
      rd_fail(&r, "gpus.lua: entry %zu is not a table", i);
    else
      rd_gpu(&r, lua_gettop(L), c);
    lua_pop(L, 1);
  }
  return !r.failed;
}
