/*
** test_patterns.c: the worst-case cost that lua_patterns.c charges for Lua pattern
** calls (hand arithmetic per case), and the budget refusing a backtracking bomb through
** the public API while ordinary pattern use in scripts still runs; allocations charged.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "apiutil.h"
#include "lua_patterns.h"

static void test_cost(void **state) {
  (void)state;
  /* (pattern length + 1) x (n + 1) start positions x (n + 1) per repetition */
  assert_true(lpat_cost("a*b", 3, 10, true) == 4.0 * 11 * 11);
  /* anchored: one start; [^=]+ and .* repeat */
  assert_true(lpat_cost("^([^=]+)=(.*)$", 14, 30, true) == 15.0 * 31 * 31);
  assert_true(lpat_cost("%.json$", 7, 100, true) == 8.0 * 101);
  assert_true(lpat_cost("%bxy", 4, 9, true) == 5.0 * 10 * 10);   /* a balance scans */
  assert_true(lpat_cost("a?b", 3, 9, true) == 4.0 * 10 * 2);     /* an option: two ways */
  assert_true(lpat_cost("[%]]*x", 6, 9, true) == 7.0 * 10 * 10); /* a set with an escape */
  assert_true(lpat_cost("^a", 2, 9, false) == 3.0 * 10);         /* gmatch: no anchor */
  assert_true(lpat_cost("a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", 31, 1000000, true) == 1e30); /* capped */
}

static void test_budget(void **state) {
  (void)state;
  vf_engine *e = tu_engine(20000000, 64u << 20);
  assert_non_null(e);
  /* 200,001 starts x 200,001 for a* x 4: far over 20 M, refused before it runs */
  assert_int_equal(tu_eval(e, "local s = string.rep('a', 200000) s:find('a*b') return {}", NULL), VF_ELIMIT);
  assert_string_equal(vf_engine_error(e), "t.lua: instruction budget exceeded (20000000 instructions): "
                                          "string.find of a 3-byte pattern on 200000 bytes");
  /* pcall cannot swallow it */
  assert_int_equal(tu_eval(e, "local s = ('a'):rep(200000) pcall(string.gsub, s, 'a-b', '') return {}", NULL),
                   VF_ELIMIT);
  /* ordinary use is charged little: 1,000 small matches */
  assert_int_equal(tu_eval(e, "local n = 0 for i = 1, 1000 do if ('model.layers.' .. i):match('^model%.layers%.(%d+)$')"
                              " then n = n + 1 end end assert(n == 1000) error('done')", NULL),
                   VF_EINVAL);
  assert_string_equal(vf_engine_error(e), "t.lua:1: done");
  vf_engine_free(e);
}

/* C calls that allocate are charged 1 instruction per 16 bytes: 20 M instructions are
** 320 MB of s:upper() copies, where the loop itself runs only ~1,500 instructions */
static void test_alloc_charge(void **state) {
  (void)state;
  vf_engine *e = tu_engine(20000000, 64u << 20);
  assert_non_null(e);
  assert_int_equal(tu_eval(e, "local s = ('x'):rep(1 << 20) for i = 1, 1e9 do local t = s:upper() end", NULL),
                   VF_ELIMIT);
  assert_string_equal(vf_engine_error(e), "t.lua: instruction budget exceeded (20000000 instructions)");
  vf_engine_free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cost), cmocka_unit_test(test_budget),
                                     cmocka_unit_test(test_alloc_charge)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
