#!/bin/sh
# test_examples.sh: the embedding examples against an INSTALLED tree. Installs into a
# temporary PREFIX, builds examples/estimate.c through pkg-config (shared with an rpath,
# and static), runs it, runs examples/estimate.lua with the installed Lua module and
# examples/estimate.py (ctypes) when python3 exists. Each checks published figures of
# Llama-3.1-8B-Instruct: 8,030,261,248 params, 16,060,522,496 bf16 weight bytes, and a
# KV cache of 8192 tokens x 4 sequences x 131,072 B/token (32 layers x 8 KV heads x 128
# x 2 (K, V) x 2 B) = 4,294,967,296 B. Ends with "examples: N passed, M failed".
set -u
B=${B:-build}
BIN=${BIN:-vramfit}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; [ -f "$tmp/out" ] && sed 's/^/     | /' "$tmp/out" | head -20; }
# expect NAME PATTERN...: every extended regex appears in $tmp/out
expect() {
  name=$1
  shift
  for re in "$@"; do
    if ! grep -Eq -- "$re" "$tmp/out"; then bad "$name: no line matching /$re/"; return; fi
  done
  ok "$name"
}
# the figures every example prints
expect_llama() {
  expect "$1" '^params 8030261248$' '^weight_bytes 16060522496$' 'kv_cache +4294967296 B' \
    '^fit L40S-48GB yes' '^fit RTX-4090-24GB no'
}

prefix="$tmp/prefix"
if make -s B="$B" BIN="$BIN" PREFIX="$prefix" install >"$tmp/out" 2>&1; then ok "make install PREFIX=tmp"; else bad "make install"; fi
for f in bin/vramfit include/vramfit.h lib/libvramfit.a lib/libvramfit.so lib/libvramfit.so.0 \
  lib/pkgconfig/vramfit.pc lib/lua/5.4/vramfit.so share/man/man1/vramfit.1 \
  share/vramfit/scripts/driver.lua share/vramfit/architectures/llama.lua; do
  [ -e "$prefix/$f" ] || missing="${missing:-} $f"
done
if [ -z "${missing:-}" ]; then ok "installed files"; else : >"$tmp/out"; bad "not installed:$missing"; fi

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --modversion vramfit >"$tmp/out" 2>&1
expect "pkg-config --modversion vramfit" '^[0-9]+\.[0-9]+\.[0-9]+$'

# the C example, shared: the rpath finds libvramfit.so.0 in the installed tree
if cc -o "$tmp/est_shared" examples/estimate.c $(pkg-config --cflags --libs vramfit) \
  -Wl,-rpath,"$prefix/lib" >"$tmp/out" 2>&1 && "$tmp/est_shared" >"$tmp/out" 2>&1; then
  expect_llama "examples/estimate.c (shared)"
  ldd "$tmp/est_shared" >"$tmp/out" 2>&1
  expect "estimate.c links the installed libvramfit.so.0" "libvramfit\.so\.0 => $prefix/lib/"
else
  bad "examples/estimate.c (shared): build or run"
fi

# the C example, static: -l:libvramfit.a and the private requirements
static_libs=$(pkg-config --static --libs vramfit | sed 's/-lvramfit/-l:libvramfit.a/')
if cc -o "$tmp/est_static" examples/estimate.c $(pkg-config --cflags vramfit) $static_libs \
  >"$tmp/out" 2>&1 && "$tmp/est_static" >"$tmp/out" 2>&1; then
  expect_llama "examples/estimate.c (static)"
else
  bad "examples/estimate.c (static): build or run"
fi

# a scenario file through the installed C example: the demo scenario
if "$tmp/est_static" examples/demo.lua >"$tmp/out" 2>&1; then
  expect "estimate.c examples/demo.lua" '^params [1-9][0-9]*$' '^total_bytes [1-9][0-9]*'
else
  bad "estimate.c examples/demo.lua"
fi

# the Lua example with the installed module
if LUA_CPATH="$prefix/lib/lua/5.4/?.so" lua5.4 examples/estimate.lua >"$tmp/out" 2>&1; then
  expect_llama "examples/estimate.lua"
  expect "estimate.lua: --set and errors" '^demo at 16384 tokens: total_bytes [1-9][0-9]*$' \
    "^bad model: <table>: model: unknown model 'no/such-model'"
else
  bad "examples/estimate.lua"
fi

# the Python example: standard library only; python3 is not on a fresh Debian 12
if command -v python3 >/dev/null 2>&1 && python3 -c 'import ctypes' >/dev/null 2>&1; then
  if VRAMFIT_LIB="$prefix/lib/libvramfit.so" python3 examples/estimate.py >"$tmp/out" 2>&1; then
    expect_llama "examples/estimate.py"
    expect "estimate.py: error message" "^bad model: invalid input: chat.lua: model: unknown model"
  else
    bad "examples/estimate.py"
  fi
else
  echo "skip examples/estimate.py: python3 (with ctypes) not found"
fi

echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
