/*
** test_gguf.c: ggml type sizes, GGUF header parsing of synthetic llama models,
** every malformed case with its exact message, and the refusal of metadata the estimate
** cannot use (through the API and the command's exit status). Uses tools/mkmodel_lib.c.
*/
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apiutil.h"
#include "ggml_types.h"
#include "gguf.h"
#include "mkmodel_lib.h"

/* The sanitized command beside this test ($(B)/asan/vramfit, which make test builds first);
** NULL where it is absent (make unit builds the tests alone). */
static const char *cli_path;

static uint64_t bytes2d(uint32_t type, uint64_t a, uint64_t b) {
  uint64_t ne[2] = {a, b}, n = 0;
  assert_int_equal(ggml_tensor_bytes(type, ne, 2, &n, NULL), GGML_ROW_OK);
  return n;
}

static void test_type_sizes(void **state) {
  (void)state;
  assert_int_equal(bytes2d(GGML_T_Q4_0, 4096, 4096), 4096ull * 128 * 18); /* 9,437,184 */
  assert_int_equal(bytes2d(GGML_T_Q4_K, 4096, 4096), 4096ull * 16 * 144);
  assert_int_equal(bytes2d(GGML_T_Q8_0, 4096, 4096), 4096ull * 128 * 34);
  assert_int_equal(bytes2d(GGML_T_MXFP4, 4096, 4096), 4096ull * 128 * 17);
  assert_int_equal(bytes2d(GGML_T_Q6_K, 4096, 14336), 14336ull * 16 * 210);
  assert_int_equal(bytes2d(GGML_T_BF16, 4096, 128256), 4096ull * 128256 * 2);
  assert_int_equal(bytes2d(40, 128, 2), 2ull * 2 * 36); /* NVFP4: 64/36 */
  const ggml_type_info *t = ggml_type_get(34);
  assert_non_null(t);
  assert_string_equal(t->name, "TQ1_0");
  assert_int_equal(t->type_size, 54);
  assert_null(ggml_type_get(31)); /* Q4_0_4_4 was removed from GGUF */
  assert_null(ggml_type_get(4));
  assert_int_equal(ggml_type_by_name("iq4_xs")->type_size, 136);
  uint64_t ne[2] = {4000, 2}, big[3] = {1ull << 32, 1ull << 32, 2}, n;
  assert_int_equal(ggml_tensor_bytes(GGML_T_Q4_K, ne, 2, &n, NULL), GGML_ROW_NOT_MULTIPLE);
  assert_int_equal(ggml_tensor_bytes(GGML_T_F32, big, 3, &n, NULL), GGML_ROW_OVERFLOW);
  assert_int_equal(ggml_tensor_bytes(99, ne, 2, &n, NULL), GGML_ROW_UNKNOWN_TYPE);
}

static void test_ftype_names(void **state) {
  (void)state;
  assert_string_equal(ggml_ftype_name(15), "MOSTLY_Q4_K_M");
  assert_string_equal(ggml_ftype_short(15), "Q4_K_M");
  assert_string_equal(ggml_ftype_short(0), "F32");
  assert_string_equal(ggml_ftype_short(38), "MXFP4_MOE");
  assert_null(ggml_ftype_name(5));
}

static void read_llama(const mk_llama *o, gguf_info *g) {
  mk_buf b = {0};
  char err[256];
  assert_true(mk_gguf_llama_buf(o, &b, err, sizeof err));
  assert_int_equal(gguf_read_buffer(b.p, b.len, g, err, sizeof err), GGUF_OK);
  mk_buf_free(&b);
}

/* 2 layers, embd 64, ff 128, 4 heads, 2 kv heads (head dim 16), vocab 256, Q4_0:
** token_embd and output 64x256: 2 blocks x 18 B x 256 = 9216 each; norms f32;
** per layer q,o 2304, k,v 1152, gate,up,down 4608, 2 norms 256: 21248. */
static void test_llama_q4_0(void **state) {
  (void)state;
  mk_llama o;
  gguf_info g;
  mk_llama_defaults(&o);
  assert_true(mk_llama_ftype(&o, "q4_0"));
  read_llama(&o, &g);
  assert_string_equal(g.arch, "llama");
  assert_int_equal(g.version, 3);
  assert_int_equal(g.n_tensors, 21);
  assert_int_equal(g.tensor_bytes, 9216 + 256 + 9216 + 2 * 21248);
  assert_int_equal(g.params, 16384 + 64 + 16384 + 2 * 36992);
  assert_true(g.has_file_type);
  assert_int_equal(g.file_type, 2);
  assert_int_equal(g.f[GGUF_F_BLOCK_COUNT].value, 2);
  assert_int_equal(g.f[GGUF_F_EMBEDDING_LENGTH].value, 64);
  assert_int_equal(g.f[GGUF_F_FEED_FORWARD_LENGTH].value, 128);
  assert_int_equal(g.f[GGUF_F_HEAD_COUNT].value, 4);
  assert_int_equal(g.f[GGUF_F_HEAD_COUNT_KV].value, 2);
  assert_int_equal(g.f[GGUF_F_VOCAB_SIZE].value, 256);
  assert_false(g.f[GGUF_F_EXPERT_COUNT].present);
  uint64_t ib;
  assert_true(inv_bytes(&g.inv, &ib));
  assert_int_equal(ib, g.tensor_bytes);
  assert_string_equal(g.inv.t[0].name, "token_embd.weight");
  assert_int_equal(g.inv.t[0].role, ROLE_EMBED);
  assert_int_equal(g.inv.t[0].dtype, DT_INT4);
  assert_int_equal(g.inv.t[0].stored_bytes, 9216);
  assert_int_equal(g.inv.t[1].role, ROLE_NORM);
  assert_int_equal(g.inv.t[2].role, ROLE_LM_HEAD);
  assert_int_equal(g.inv.t[4].role, ROLE_ATTN);
  assert_string_equal(g.inv.t[9].name, "blk.0.ffn_gate.weight");
  assert_int_equal(g.inv.t[9].role, ROLE_MLP);
  gguf_info_free(&g);
}

/* embd 256, ff 512, head dim 64, kv 128, Q4_K (256-element blocks of 144 B). */
static void test_llama_q4_k(void **state) {
  (void)state;
  mk_llama o;
  gguf_info g;
  mk_llama_defaults(&o);
  o.embd = 256, o.ff = 512;
  assert_true(mk_llama_ftype(&o, "q4_k"));
  read_llama(&o, &g);
  uint64_t layer = 2 * 1024 + 2 * 36864 + 2 * 18432 + 3 * 73728;
  assert_int_equal(g.tensor_bytes, 2 * 36864 + 1024 + 2 * layer);
  assert_int_equal(g.tensor_bytes, 742400);
  assert_int_equal(g.params, 1312000);
  assert_int_equal(g.file_type, 15);
  gguf_info_free(&g);
}

/* Q8_0 with experts: 3-D expert tensors and a router. */
static void test_llama_moe(void **state) {
  (void)state;
  mk_llama o;
  gguf_info g;
  mk_llama_defaults(&o);
  o.experts = 4;
  assert_true(mk_llama_ftype(&o, "q8_0"));
  read_llama(&o, &g);
  assert_int_equal(g.f[GGUF_F_EXPERT_COUNT].value, 4);
  assert_int_equal(g.f[GGUF_F_EXPERT_USED_COUNT].value, 2);
  const inv_tensor *gate = &g.inv.t[3 + 6], *exps = &g.inv.t[3 + 7];
  assert_string_equal(gate->name, "blk.0.ffn_gate_inp.weight");
  assert_int_equal(gate->role, ROLE_ROUTER);
  assert_int_equal(gate->stored_bytes, 64 * 4 * 4);
  assert_string_equal(exps->name, "blk.0.ffn_gate_exps.weight");
  assert_int_equal(exps->role, ROLE_EXPERT);
  assert_int_equal(exps->stored_bytes, 2ull * 34 * 128 * 4);
  gguf_info_free(&g);
}

/* head_count_kv as a per-layer array is kept. */
static void test_per_layer_kv(void **state) {
  (void)state;
  mk_buf b = {0};
  char err[256];
  gguf_info g;
  mk_gguf_begin(&b, 2, 0, 2);
  mk_kv_str(&b, "general.architecture", "gemma3");
  mk_str(&b, "gemma3.attention.head_count_kv");
  mk_u32(&b, 9);  /* array */
  mk_u32(&b, 4);  /* of uint32 */
  mk_u64(&b, 3);
  mk_u32(&b, 8), mk_u32(&b, 0), mk_u32(&b, 4);
  assert_int_equal(gguf_read_buffer(b.p, b.len, &g, err, sizeof err), GGUF_OK);
  assert_int_equal(g.version, 2);
  assert_int_equal(g.f[GGUF_F_HEAD_COUNT_KV].n_arr, 3);
  assert_int_equal(g.f[GGUF_F_HEAD_COUNT_KV].arr[1], 0);
  assert_int_equal(g.f[GGUF_F_HEAD_COUNT_KV].value, 8);
  gguf_info_free(&g);
  mk_buf_free(&b);
}

/* The field table leaves no id without a key: a gap would be a NULL key. */
static void test_field_keys(void **state) {
  (void)state;
  for (int i = 0; i < GGUF_F_COUNT; i++) assert_non_null(gguf_field_key((gguf_field_id)i));
  assert_string_equal(gguf_field_key(GGUF_F_VOCAB_SIZE), "vocab_size");
  assert_string_equal(gguf_field_key(GGUF_F_SSM_TIME_STEP_RANK), "ssm.time_step_rank");
  assert_string_equal(gguf_field_key(GGUF_F_ATTN_TEMPERATURE_SCALE), "attention.temperature_scale");
  assert_null(gguf_field_key(GGUF_F_COUNT));
}

static void kv_bools(mk_buf *b, const char *key, const uint8_t *v, uint64_t n) {
  mk_str(b, key);
  mk_u32(b, 9); /* array */
  mk_u32(b, 7); /* of bool */
  mk_u64(b, n);
  mk_put(b, v, (size_t)n);
}

/* Each kind of field: a count takes integers only, a newer field bools too (0/1) and leaves
** out another type, a real field takes a float as is and an integer as a count. */
static void test_field_kinds(void **state) {
  (void)state;
  mk_buf b = {0};
  char err[256];
  gguf_info g;
  mk_gguf_begin(&b, 3, 0, 7);
  mk_kv_str(&b, "general.architecture", "qwen35");
  kv_bools(&b, "qwen35.attention.recurrent_layers", (const uint8_t[]){1, 0, 2}, 3);
  mk_kv_bool(&b, "qwen35.expert_weights_norm", true);
  mk_kv_str(&b, "qwen35.ssm.conv_kernel", "4");
  mk_kv_f32(&b, "qwen35.expert_weights_scale", 2.5f);
  mk_kv_u32(&b, "qwen35.attention.temperature_scale", 3);
  mk_str(&b, "qwen35.block_count");
  mk_u32(&b, 9), mk_u32(&b, 4), mk_u64(&b, 2); /* an array of 2 uint32 */
  mk_u32(&b, 2), mk_u32(&b, 4);
  assert_int_equal(gguf_read_buffer(b.p, b.len, &g, err, sizeof err), GGUF_OK);
  const gguf_field *rl = &g.f[GGUF_F_RECURRENT_LAYERS];
  assert_int_equal(rl->n_arr, 3);
  assert_int_equal(rl->arr[0], 1);
  assert_int_equal(rl->arr[1], 0);
  assert_int_equal(rl->arr[2], 1); /* any nonzero byte is true */
  assert_int_equal(rl->value, 1);
  assert_int_equal(g.f[GGUF_F_EXPERT_WEIGHTS_NORM].value, 1);
  assert_false(g.f[GGUF_F_SSM_CONV_KERNEL].present);
  assert_true(g.f[GGUF_F_EXPERT_WEIGHTS_SCALE].is_real);
  assert_true(g.f[GGUF_F_EXPERT_WEIGHTS_SCALE].real == 2.5);
  assert_false(g.f[GGUF_F_ATTN_TEMPERATURE_SCALE].is_real);
  assert_int_equal(g.f[GGUF_F_ATTN_TEMPERATURE_SCALE].value, 3);
  assert_int_equal(g.f[GGUF_F_BLOCK_COUNT].n_arr, 2);
  assert_int_equal(g.f[GGUF_F_BLOCK_COUNT].value, 4);
  gguf_info_free(&g);
  mk_buf_free(&b);

  /* a count as bools is refused, an empty array of them too: the element type decides */
  for (uint64_t n = 0; n < 2; n++) {
    mk_gguf_begin(&b, 3, 0, 2);
    mk_kv_str(&b, "general.architecture", "qwen35");
    kv_bools(&b, "qwen35.block_count", (const uint8_t[]){1}, n);
    assert_int_equal(gguf_read_buffer_named("bad.gguf", b.p, b.len, &g, err, sizeof err),
                     GGUF_ERR_FORMAT);
    assert_string_equal(err, "bad.gguf: offset 112: key 'qwen35.block_count' has type bool, "
                             "expected an integer");
    mk_buf_free(&b);
  }
}

/* gguf_read_file reads the header only: a 3 GiB sparse file of data parses. */
static void test_file_header_only(void **state) {
  (void)state;
  mk_llama o;
  mk_buf b = {0};
  char err[256], path[] = "/tmp/vf_test_gguf_XXXXXX";
  gguf_info g;
  uint64_t data;
  mk_llama_defaults(&o);
  o.embd = 4096, o.ff = 14336, o.heads = 32, o.heads_kv = 8, o.vocab = 32000, o.layers = 4;
  assert_true(mk_llama_ftype(&o, "f16"));
  assert_true(mk_gguf_llama(&o, &b, &data, NULL, err, sizeof err));
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
  assert_int_equal(ftruncate(fd, (off_t)(b.len + data)), 0);
  close(fd);
  assert_int_equal(gguf_read_file(path, &g, err, sizeof err), GGUF_OK);
  assert_int_equal(g.tensor_bytes, data);
  assert_int_equal(g.data_start, b.len);
  gguf_info_free(&g);
  assert_int_equal(truncate(path, (off_t)(b.len + data - 1)), 0);
  assert_int_equal(gguf_read_file(path, &g, err, sizeof err), GGUF_ERR_FORMAT);
  assert_non_null(strstr(err, "tensor 'blk.3.ffn_up.weight': data ["));
  unlink(path);
  mk_buf_free(&b);
  assert_int_equal(gguf_read_file("/nonexistent/x.gguf", &g, err, sizeof err), GGUF_ERR_IO);
  assert_string_equal(err, "/nonexistent/x.gguf: cannot open: No such file or directory");
}

typedef struct bad_case {
  const char *kind, *msg;
} bad_case;

static const bad_case bad_cases[] = {
    {"gguf-truncated", "bad.gguf: offset 69: file ends after 75 bytes, expected tensor name (8 bytes)"},
    {"gguf-magic", "bad.gguf: offset 0: not a GGUF file (magic 47 47 4d 4c, expected \"GGUF\")"},
    {"gguf-version", "bad.gguf: offset 4: unsupported GGUF version 1 (expected 2 or 3)"},
    {"gguf-tensor-count", "bad.gguf: offset 24: tensor count 4294967296000 exceeds what the file can hold"},
    {"gguf-string-length", "bad.gguf: offset 24: key length 1099511627776 exceeds the 128 bytes left in the file"},
    {"gguf-array-length", "bad.gguf: offset 106: key 'tokenizer.ggml.tokens': array length 1152921504606846976 exceeds what the file can hold"},
    {"gguf-dims-overflow", "bad.gguf: offset 106: tensor 'w': dimensions 4294967296 x 4294967296 x 16 overflow 64 bits"},
    {"gguf-unknown-type", "bad.gguf: offset 90: tensor 'w' has unknown ggml type 99"},
    {"gguf-not-multiple", "bad.gguf: offset 98: tensor 'w': row length 48 is not a multiple of the Q4_0 block size 32"},
    {"gguf-misaligned", "bad.gguf: offset 94: tensor 'w': data offset 16 is not a multiple of the alignment 32"},
    {"gguf-offset-past-end", "bad.gguf: offset 69: tensor 'w': data [1048576, 1048608) lies past the end of the file (data region of 32 bytes)"},
    {"gguf-too-many-dims", "bad.gguf: offset 78: tensor 'w' has 5 dimensions (at most 4)"},
    {"gguf-alignment", "bad.gguf: offset 98: general.alignment 24 is not a power of two"},
    {"gguf-duplicate", "bad.gguf: offset 135: tensor 'w' appears twice"},
};

static void test_bad_files(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    mk_buf b = {0};
    char err[512];
    gguf_info g;
    assert_true(mk_bad(bad_cases[i].kind, &b, err, sizeof err));
    assert_int_equal(gguf_read_buffer_named("bad.gguf", b.p, b.len, &g, err, sizeof err),
                     GGUF_ERR_FORMAT);
    assert_string_equal(err, bad_cases[i].msg);
    assert_null(g.tensors); /* freed on failure */
    mk_buf_free(&b);
  }
}

/* Runs the command with args in dir (relative names keep the messages free of it): its exit
** status, and its stderr in err. */
static int run_cli(const char *dir, char *const args[], char *err, size_t errlen) {
  char path[512];
  snprintf(path, sizeof path, "%s/stderr", dir);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    if (chdir(dir) != 0 || !freopen("/dev/null", "w", stdout) || !freopen("stderr", "w", stderr))
      _exit(127);
    execv(cli_path, args);
    _exit(127);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  size_t n = fread(err, 1, errlen - 1, f);
  err[n] = '\0';
  fclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Sets the uint32 value of key in a GGUF buffer, which must hold `was`. */
static void patch_u32(mk_buf *b, const char *key, uint32_t was, uint32_t v) {
  size_t kl = strlen(key), at = 0;
  while (at + kl <= b->len && memcmp(b->p + at, key, kl) != 0) at++;
  assert_true(at + kl + 8 <= b->len);
  uint8_t *p = b->p + at + kl;
  assert_int_equal(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24, 4); /* uint32 */
  assert_int_equal(p[4] | p[5] << 8 | p[6] << 16 | (uint32_t)p[7] << 24, was);
  for (int i = 0; i < 4; i++) p[4 + i] = (uint8_t)(v >> (8 * i));
}

/* A gated DeltaNet file (qwen35) with one u32 field patched from `was` to `now` is refused with
** `msg`, exactly, through the API and by the command with exit status 2. */
static void expect_deltanet_refused(const char *key, uint32_t was, uint32_t now, const char *msg) {
  mk_llama o;
  mk_buf b = {0};
  char dir[] = "/tmp/vf_test_gguf_XXXXXX", path[512], text[768], want[768], err[1024];
  mk_llama_defaults(&o);
  o.arch = "qwen35", o.layers = 4, o.embd = 256, o.ff = 512, o.heads = 4, o.heads_kv = 2, o.head_dim = 64;
  o.ssm_conv = 4, o.ssm_state = 32, o.ssm_groups = 2, o.ssm_vheads = 4;
  assert_true(mk_gguf_llama_buf(&o, &b, err, sizeof err));
  patch_u32(&b, key, was, now);
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/m.gguf", dir);
  assert_true(mk_write_file(path, b.p, b.len, 0, err, sizeof err));
  mk_buf_free(&b);

  vf_engine *e = tu_engine(0, 0);
  assert_non_null(e);
  snprintf(text, sizeof text, "return { model = \"%s\", workload = { kind = \"inference\", context = 512 } }",
           path);
  assert_int_not_equal(tu_eval(e, text, NULL), VF_OK);
  snprintf(want, sizeof want, "t.lua: model '%s': %s", path, msg);
  assert_string_equal(vf_engine_error(e), want);
  vf_engine_free(e);

  char lua[512];
  snprintf(lua, sizeof lua, "%s/s.lua", dir);
  FILE *f = fopen(lua, "w");
  assert_non_null(f);
  fputs("return { model = \"m.gguf\", workload = { kind = \"inference\", context = 512 } }\n", f);
  fclose(f);
  if (cli_path) {
    assert_int_equal(run_cli(dir, (char *const[]){"vramfit", "estimate", "s.lua", NULL}, err, sizeof err), 2);
    snprintf(want, sizeof want, "vramfit: s.lua: model 'm.gguf': %s\n", msg);
    assert_string_equal(err, want);
  }
  char rm[600];
  snprintf(rm, sizeof rm, "%s/stderr", dir);
  unlink(rm), unlink(lua), unlink(path), rmdir(dir);
}

/* ssm.inner_size is the V heads (ssm.time_step_rank) x the V head size, which
** scripts/model_files.lua derives: one that is not a multiple has no head size; no V heads
** at all divide nothing. Both are refused. */
static void test_ssm_inner_not_multiple(void **state) {
  (void)state;
  expect_deltanet_refused("qwen35.ssm.inner_size", 32 * 4, 130,
                          "ssm.inner_size 130 is not a multiple of ssm.time_step_rank 4");
  expect_deltanet_refused("qwen35.ssm.time_step_rank", 4, 0, "ssm.time_step_rank must be at least 1 (the V heads), got 0");
  if (!cli_path) {
    print_message("%s: no vramfit beside the test, the exit status is not checked\n", __func__);
    skip();
  }
}

/* Every prefix of a valid file fails cleanly (no read past the buffer). */
static void test_every_prefix(void **state) {
  (void)state;
  mk_llama o;
  mk_buf b = {0};
  char err[256];
  gguf_info g;
  uint64_t data;
  mk_llama_defaults(&o);
  o.vocab = 20;
  assert_true(mk_gguf_llama(&o, &b, &data, NULL, err, sizeof err));
  for (size_t n = 0; n < b.len; n++) {
    assert_int_not_equal(gguf_read_buffer(b.p, n, &g, err, sizeof err), GGUF_OK);
    gguf_info_free(&g);
  }
  mk_buf_free(&b);
}

/* $(B)/asan/vramfit from argv[0], $(B)/asan/test_gguf, made absolute: run_cli changes directory */
static void find_cli(const char *argv0) {
  static char cli[4096];
  const char *slash = strrchr(argv0, '/');
  char cwd[2048] = "";
  if (!slash || (argv0[0] != '/' && !getcwd(cwd, sizeof cwd))) return;
  int n = snprintf(cli, sizeof cli, "%s%s%.*s/vramfit", cwd, cwd[0] ? "/" : "", (int)(slash - argv0), argv0);
  if (n > 0 && (size_t)n < sizeof cli && access(cli, X_OK) == 0) cli_path = cli;
}

int main(int argc, char **argv) {
  if (argc > 0) find_cli(argv[0]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_type_sizes),    cmocka_unit_test(test_ftype_names),
      cmocka_unit_test(test_llama_q4_0),    cmocka_unit_test(test_llama_q4_k),
      cmocka_unit_test(test_llama_moe),     cmocka_unit_test(test_per_layer_kv),
      cmocka_unit_test(test_file_header_only), cmocka_unit_test(test_bad_files),
      cmocka_unit_test(test_every_prefix),  cmocka_unit_test(test_field_keys),
      cmocka_unit_test(test_field_kinds),   cmocka_unit_test(test_ssm_inner_not_multiple),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
