#!/bin/sh
# run_all.sh: runs every suite (cmocka programs under ASan/UBSan, Lua-side tests,
# golden CLI tests with the plain and the sanitized binary), prints each suite's
# output and one closing line with the totals. Exit status 1 if anything failed.
set -u
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

suite() { # suite NAME COMMAND...
  name=$1
  shift
  echo "== $name"
  "$@" >"$log" 2>&1
  rc=$?
  cat "$log"
  # cmocka: "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)"; ours: "N passed, M failed"
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  if [ -z "$p" ]; then
    p=$(sed -n 's/^\(.* \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p' "$log" | tail -1)
    f=$(sed -n 's/^\(.* \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\3/p' "$log" | tail -1)
  fi
  p=${p:-0}
  f=${f:-0}
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "$name: exited $rc"; fi
  passed=$((passed + p))
  failed=$((failed + f))
}

B=${B:-build}
BIN=${BIN:-vramfit}
for t in "$B"/asan/test_*; do
  suite "$t" env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 "$t"
done
suite lua-architectures lua5.4 tests/lua/test_architectures.lua
suite lua-gpus lua5.4 tests/lua/test_gpus.lua
suite lua-generation lua5.4 tests/lua/test_generation.lua
suite lua-train-unet lua5.4 tests/lua/test_train_unet.lua
suite lua-quant lua5.4 tests/lua/test_quant.lua
suite lua-module env LUA_CPATH="$B/?.so" lua5.4 tests/lua/test_module.lua
suite threads-tsan env TSAN_OPTIONS=halt_on_error=1 "$B/tsan/test_threads"
suite examples env B="$B" BIN="$BIN" sh tests/test_examples.sh
suite golden ./tests/golden/run.sh "./$BIN"
suite golden-asan ./tests/golden/run.sh "$B/asan/vramfit"
suite calibrate-tool sh tests/calibrate/run.sh "$B/calibrate"
# DeepSpeed's own estimate_zero3 printout (transformers' DeepSpeed docs), reproduced exactly
suite deepspeed-estimate "$B/calibrate" tests/calibration/crosscheck
# hardening: the bad-input corpus under ASan/UBSan with leak checks, and every fuzz
# target's seeds and crash regressions replayed without libFuzzer
suite bad-asan env ASAN_OPTIONS=detect_leaks=1 MKMODEL="$B/mkmodel" sh tests/bad/run.sh "$B/asan/vramfit"
for r in "$B"/asan/replay_*; do
  t=${r##*/replay_}
  suite "replay-$t" env ASAN_OPTIONS=detect_leaks=1 "$r" "$t" "tests/fuzz/regress/$t" "tests/fuzz/corpus/$t"
done
# the HTML report in headless Chromium, only where Debian's chromium is installed
# (make browser-test installs it)
if [ -x /usr/bin/chromium ] && command -v node >/dev/null; then suite browser sh tests/browser/run.sh "./$BIN"; fi
echo
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
