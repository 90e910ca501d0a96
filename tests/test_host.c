/*
** test_host.c: the Lua host through the public API: the sandbox (no io, os, debug,
** binary chunks or string.dump; shared libraries untouchable), the instruction
** budget and memory cap that pcall cannot swallow, and exact error messages that
** name the file, line or field.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sys/stat.h>
#include <unistd.h>

#include "apiutil.h"

#define OK_SCENARIO "return { model = 'meta-llama/Llama-3.2-1B', workload = { kind = 'inference', context = 128 } }"

static int setup(void **state) {
  *state = tu_engine(20000000, 64u << 20);
  return *state ? 0 : -1;
}

static int teardown(void **state) {
  vf_engine_free(*state);
  return 0;
}

static void expect_error(vf_engine *e, const char *text, vf_status want, const char *message) {
  vf_status st = tu_eval(e, text, NULL);
  if (st != want) fail_msg("status %d (%s), expected %d", st, vf_engine_error(e), want);
  assert_string_equal(vf_engine_error(e), message);
}

static void test_escapes(void **state) {
  vf_engine *e = *state;
  expect_error(e, "return io.open('/etc/passwd')", VF_EINVAL, "t.lua:1: attempt to index a nil value (global 'io')");
  expect_error(e, "return os.execute('touch /tmp/vf_pwned')", VF_EINVAL,
               "t.lua:1: attempt to index a nil value (global 'os')");
  expect_error(e, "return debug.getinfo(1)", VF_EINVAL, "t.lua:1: attempt to index a nil value (global 'debug')");
  expect_error(e, "return require('io')", VF_EINVAL, "t.lua:1: attempt to call a nil value (global 'require')");
  expect_error(e, "return string.dump(print)", VF_EINVAL,
               "t.lua:1: attempt to call a nil value (field 'dump')");
  expect_error(e, "return load('\\27Lua')()", VF_EINVAL,
               "t.lua:1: attempt to call a nil value");
  /* the string metatable is sealed: no way to reach the shared string library */
  assert_int_equal(tu_eval(e, "assert(getmetatable('') == 'string') " OK_SCENARIO, NULL), VF_OK);
  expect_error(e, "return package.loadlib('x','y')", VF_EINVAL,
               "t.lua:1: attempt to index a nil value (global 'package')");
  assert_null(fopen("/tmp/vf_pwned", "r"));
}

/* A scenario that rewrites a library changes only its own copy. */
static void test_isolation(void **state) {
  vf_engine *e = *state;
  assert_int_equal(tu_eval(e, "string.format = nil; table.concat = nil; x_global = 1; " OK_SCENARIO, NULL), VF_OK);
  assert_int_equal(tu_eval(e, "assert(x_global == nil); assert(string.format); " OK_SCENARIO, NULL), VF_OK);
}

static void test_budget(void **state) {
  vf_engine *e = *state;
  expect_error(e, "while true do end", VF_ELIMIT, "t.lua: instruction budget exceeded (20000000 instructions)");
  expect_error(e, "while true do pcall(function() while true do end end) end", VF_ELIMIT,
               "t.lua: instruction budget exceeded (20000000 instructions)");
  /* coroutine.wrap adds the caller's position to an error it propagates */
  expect_error(e, "local co = coroutine.wrap(function() while true do end end) co()", VF_ELIMIT,
               "t.lua:1: instruction budget exceeded (20000000 instructions)");
  /* deep recursion: the Lua stack reaches the memory cap before its own limit */
  expect_error(e, "local function f() return f() + 1 end return f()", VF_ELIMIT,
               "t.lua: script memory limit exceeded (67108864 bytes)");
  /* the engine still works after each of them */
  assert_int_equal(tu_eval(e, OK_SCENARIO, NULL), VF_OK);
}

static void test_memory(void **state) {
  vf_engine *e = *state;
  expect_error(e, "local s = string.rep('x', 1 << 28)", VF_ELIMIT, "t.lua: script memory limit exceeded (67108864 bytes)");
  expect_error(e, "local t = {} for i = 1, 1e9 do t[i] = i end", VF_ELIMIT,
               "t.lua: script memory limit exceeded (67108864 bytes)");
  expect_error(e, "local t = {} while true do pcall(function() t[#t + 1] = string.rep('y', 4096) .. #t end) end",
               VF_ELIMIT, "t.lua: script memory limit exceeded (67108864 bytes)");
  assert_int_equal(tu_eval(e, OK_SCENARIO, NULL), VF_OK);
}

static void test_hostile_error_objects(void **state) {
  vf_engine *e = *state;
  expect_error(e, "error(setmetatable({}, { __tostring = function() while true do end end }))", VF_EINVAL,
               "t.lua: (error object is a table value)");
  expect_error(e, "error()", VF_EINVAL, "t.lua: (error object is a nil value)");
}

static void test_field_errors(void **state) {
  vf_engine *e = *state;
  expect_error(e, "return {\n model = \n", VF_EINVAL, "t.lua:3: unexpected symbol near <eof>");
  expect_error(
      e, "return { model = 'meta-llama/Llama-3.2-1B', workload = { kind = 'inference', contxt = 5 } }",
      VF_EINVAL,
      "t.lua: workload: unknown key 'contxt' (allowed: attention, concurrency, context, images, kind, "
      "output_tokens, prompt_tokens)");
  expect_error(e, "return { model = 'meta-llama/Llama-3.2-1B', workload = { kind = 'inference', context = 1e15 } }",
               VF_EINVAL, "t.lua: workload.context: 1e+15 is out of range (1 to 1073741824)");
  expect_error(e, "return { model = 'meta-llama/Llama-3.2-1B', workload = { kind = 'inference', context = 0/0 } }",
               VF_EINVAL, "t.lua: workload.context: expected an integer, got nan");
  expect_error(e, "return { model = 'meta-llama/Llama-3.2-1B', workload = { kind = 'inference', context = -1 } }",
               VF_EINVAL, "t.lua: workload.context: -1 is out of range (1 to 1073741824)");
  expect_error(e, "return { model = 'no/such-model', workload = { kind = 'inference', context = 8 } }", VF_EINVAL,
               "t.lua: model: unknown model 'no/such-model': not a preset (see 'vramfit list models') and not a file");
  expect_error(e, "return { model = 'meta-llama/Llama-3.2-1B', gpu = 'Voodoo2', workload = { kind = 'inference', context = 8 } }",
               VF_EINVAL, "t.lua: gpu: unknown GPU 'Voodoo2' (see 'vramfit list gpus')");
  expect_error(e, "return { modle = 'x' }", VF_EINVAL,
               "t.lua: scenario: unknown key 'modle' (allowed: cuda_context, description, dtype, gpu, headroom, "
               "model, name, parallel, quant, runtime, workload)");
  expect_error(e, "return 42", VF_EINVAL, "t.lua: scenario: the file must return a table, got number");
  expect_error(e, "return { model = { arch = 'llama', config = { vocab_size = 10 } }, workload = { kind = 'inference', context = 8 } }",
               VF_EINVAL, "t.lua: model inline llama (architecture llama): config: missing field 'hidden_size'");
}

static void test_json_scenarios(void **state) {
  vf_engine *e = *state;
  assert_int_equal(tu_eval(e, "{\"model\": \"meta-llama/Llama-3.2-1B\", \"workload\": {\"kind\": \"inference\", \"context\": 64}}", NULL), VF_OK);
  expect_error(e, "{\"model\": 1,}", VF_EINVAL, "t.lua:1:13: string or '}' expected near '}'");
  expect_error(e, "{\"model\": \"a\", \"model\": \"b\"}", VF_EINVAL, "t.lua:1:22: duplicate object key near '\"model\"'");
}

/* What an embedder can get wrong in a request, and files that hold no scenario or keys
** that a sweep would drop: each is VF_EINVAL naming the field, never a silent default. */
static void test_request_and_file_shape(void **state) {
  vf_engine *e = *state;
  const char *out = NULL;
  vf_request req = {NULL, 0, NULL, 0, (vf_format)7, 0};
  assert_int_equal(vf_estimate_string(e, OK_SCENARIO, strlen(OK_SCENARIO), "t.lua", &req, &out), VF_EINVAL);
  assert_string_equal(vf_engine_error(e),
                      "vf_request.format: 7 is not VF_FORMAT_JSON, VF_FORMAT_TABLE or VF_FORMAT_CSV");
  assert_null(out);
  const char *gpus[] = {"H100", NULL};
  req = (vf_request){NULL, 0, gpus, 2, VF_FORMAT_JSON, 0};
  assert_int_equal(vf_estimate_string(e, OK_SCENARIO, strlen(OK_SCENARIO), "t.lua", &req, &out), VF_EINVAL);
  assert_string_equal(vf_engine_error(e), "vf_request.gpus[1]: NULL (n_gpus is 2)");
  expect_error(e, "[]", VF_EINVAL, "t.lua: scenario: no scenario (the file returns an empty list or table)");
  expect_error(e, "return {}", VF_EINVAL, "t.lua: scenario: no scenario (the file returns an empty list or table)");
  expect_error(e,
               "{\"sweep\": {\"base\": {\"model\": \"meta-llama/Llama-3.2-1B\"}, \"axes\": {\"workload.context\": [64]}},"
               " \"gpu\": \"Voodoo2\"}",
               VF_EINVAL, "t.lua: scenario: unknown key 'gpu' beside 'sweep' (a sweep's scenario fields go in its base)");
  expect_error(e,
               "local s = sweep { base = { model = 'meta-llama/Llama-3.2-1B' }, axes = { ['workload.context'] = {64} } }\n"
               "s.headroom = 0.5\nreturn { s }",
               VF_EINVAL,
               "t.lua: scenario 1: unknown key 'headroom' beside 'sweep' (a sweep's scenario fields go in its base)");
  expect_error(e, "{\"sweep\": {\"base\": {}, \"axes\": {}, \"extra\": 1}}", VF_EINVAL,
               "t.lua: sweep: unknown key 'extra' (allowed: axes, base, order)");
  expect_error(e, "{\"sweep\": {\"base\": {}, \"axes\": {\"workload.context\": \"0..64:0\"}}}", VF_EINVAL,
               "t.lua: sweep: axis 'workload.context': range: step must be a positive number or \"double\"");
}

/* A file rewritten at the same path is read again: the cached expansion (which
** vf_count_scenarios and vf_estimate_file_at share) gave the old scenarios. */
static void test_rewritten_file(void **state) {
  vf_engine *e = *state;
  char path[] = "/tmp/vf_test_host_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  FILE *f = fopen(path, "w");
  fputs(OK_SCENARIO, f);
  fclose(f);
  size_t n = 0;
  assert_int_equal(vf_count_scenarios(e, path, &n), VF_OK);
  assert_int_equal(n, 1);
  f = fopen(path, "w"); /* the same scenario twice, as a list ("+ 7": after "return ") */
  fprintf(f, "return { %s, %s }", OK_SCENARIO + 7, OK_SCENARIO + 7);
  fclose(f);
  assert_int_equal(vf_count_scenarios(e, path, &n), VF_OK);
  assert_int_equal(n, 2);
  unlink(path);
}

/* A user script that fails to load fails the same way on the engine's next call: the
** module's "loading" mark was left behind, and every later require of it raised
** "require: module 'gpus' requires itself" as VF_EINVAL. */
static void test_broken_user_script_again(void **state) {
  (void)state;
  char dir[] = "/tmp/vf_test_host_XXXXXX", sub[64], file[80];
  assert_non_null(mkdtemp(dir));
  snprintf(sub, sizeof sub, "%s/scripts", dir);
  assert_int_equal(mkdir(sub, 0700), 0);
  snprintf(file, sizeof file, "%s/gpus.lua", sub);
  FILE *f = fopen(file, "w");
  fputs("return {\n  oops\n", f);
  fclose(f);
  const char *dirs[] = {dir, NULL};
  vf_options opt;
  vf_options_init(&opt);
  opt.script_dirs = dirs;
  vf_engine *e = NULL;
  assert_int_equal(vf_engine_new(&opt, &e), VF_OK);
  char want[160];
  snprintf(want, sizeof want, "%s:3: '}' expected (to close '{' at line 1) near <eof>", file);
  const char *out;
  for (int i = 0; i < 2; i++) {
    assert_int_equal(vf_estimate_string(e, OK_SCENARIO, strlen(OK_SCENARIO), "t.lua", NULL, &out), VF_ESCRIPT);
    assert_string_equal(vf_engine_error(e), want);
    assert_int_equal(vf_list(e, "gpus", &out), VF_ESCRIPT); /* the script's fault, not the caller's */
    assert_string_equal(vf_engine_error(e), want);
  }
  assert_int_equal(vf_list(e, "gpu", &out), VF_EINVAL);
  vf_engine_free(e);
  unlink(file);
  rmdir(sub);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_escapes),          cmocka_unit_test(test_isolation),
      cmocka_unit_test(test_budget),           cmocka_unit_test(test_memory),
      cmocka_unit_test(test_hostile_error_objects), cmocka_unit_test(test_field_errors),
      cmocka_unit_test(test_json_scenarios),   cmocka_unit_test(test_request_and_file_shape),
      cmocka_unit_test(test_rewritten_file),
      cmocka_unit_test(test_broken_user_script_again),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
