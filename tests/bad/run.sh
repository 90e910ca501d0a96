#!/bin/sh
# run.sh BINARY: the bad-input corpus. Each tests/bad/NAME.lua|.json must make
# `BINARY estimate` exit 2 with exactly the line of NAME.expected on stderr. Inputs too
# big or too binary to commit (10,000-level nesting, a 10 MB model name, malformed model
# files written by `mkmodel bad KIND`) are generated here, in a temporary directory
# that is the working directory of those runs; their lines are in generated.expected
# (NAME<TAB>LINE). A few hostile but
# valid inputs must succeed with exact figures. Run from the repository root; MKMODEL
# names tools/mkmodel's binary (default build/mkmodel). Under ASan, a leak or an error
# report changes the exit status or stderr, so it fails the case.
set -u
V=${1:-./vramfit}
MKMODEL=${MKMODEL:-build/mkmodel}
case $V in /*) ;; *) V=$(pwd)/$V ;; esac
case $MKMODEL in /*) ;; *) MKMODEL=$(pwd)/$MKMODEL ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

check() { # check NAME WANT_LINE ARGS...: exit status 2 and exactly WANT_LINE on stderr
  name=$1 want=$2
  shift 2
  "$V" "$@" >"$T/out" 2>"$T/err"
  got=$?
  printf '%s\n' "$want" >"$T/want"
  if [ "$got" -ne 2 ]; then
    echo "FAIL $name: exit $got, expected 2"; head -c 400 "$T/err" | sed 's/^/  stderr: /'
    fail=$((fail + 1))
  elif ! cmp -s "$T/err" "$T/want"; then
    echo "FAIL $name: stderr differs"; head -c 400 "$T/err" | sed 's/^/  got:  /'
    head -c 400 "$T/want" | sed 's/^/  want: /'
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

ok() { # ok NAME STDOUT_SUBSTRING ARGS...: exit status 0 and the substring in stdout
  name=$1 has=$2
  shift 2
  "$V" "$@" >"$T/out" 2>"$T/err"
  got=$?
  if [ "$got" -ne 0 ] || ! grep -qF -- "$has" "$T/out"; then
    echo "FAIL $name: exit $got, stdout lacks: $has"; head -c 400 "$T/err" | sed 's/^/  stderr: /'
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

# ---- committed inputs
for f in tests/bad/*.lua tests/bad/*.json; do
  exp=${f%.*}.expected
  if [ ! -f "$exp" ]; then echo "FAIL $f: no ${exp##*/}"; fail=$((fail + 1)); continue; fi
  check "$f" "$(cat "$exp")" estimate "$f"
done

# ---- generated inputs
rep() { # rep N TEXT: TEXT N times
  awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}
{ printf 'return '; rep 10000 '{'; rep 10000 '}'; echo; } >"$T/deep-literal.lua"
{ printf '{"model": '; rep 10000 '['; rep 10000 ']'; echo '}'; } >"$T/deep-array.json"
{ printf '{"model": "meta-llama/Llama-3.1-8B-Instruct", "workload": '; rep 10000 '{"a": '; printf 1
  rep 10000 '}'; echo '}'; } >"$T/deep-object.json"
{ printf '{"model": "'; head -c 10485760 /dev/zero | tr '\0' x
  echo '", "workload": {"kind": "inference", "context": 8192}}'; } >"$T/long-model-name.json"
for k in $("$MKMODEL" bad list); do
  case $k in gguf-*) ext=gguf ;; *) ext=safetensors ;; esac
  "$MKMODEL" bad "$k" "$T/$k.$ext" >/dev/null 2>&1 || echo "FAIL mkmodel bad $k"
done
# generated cases run in $T with relative names: messages do not depend on its path
printf 'return { model = "gguf-offset-past-end.gguf", workload = { kind = "inference", context = 512 } }\n' >"$T/lying-gguf.lua"
printf 'return { model = "st-offsets-past-end.safetensors", workload = { kind = "inference", context = 512 } }\n' >"$T/lying-st.lua"
# a GGUF of LongCat-Flash, which llama.cpp does not load (no LLM_ARCH in src/llama-arch.cpp): refused naming it
printf 'return { model = "gguf-arch-longcat.gguf", runtime = "llamacpp", workload = { kind = "inference", context = 512 } }\n' >"$T/longcat-gguf.lua"
cd "$T" || exit 1
while IFS='	' read -r name line; do
  case $name in '#'* | '') continue ;; esac
  case $name in
    *.gguf | *.safetensors) check "$name" "$line" inspect "$name" ;;
    *) check "$name" "$line" estimate "$name" ;;
  esac
done <"$OLDPWD/tests/bad/generated.expected"

# ---- hostile but valid: exact figures, never wrapped or dropped
J='"model": "meta-llama/Llama-3.1-8B-Instruct"'
printf '{%s, "workload": {"kind": "train", "method": "full", "micro_batch": 1, "seq_len": 2048},
 "parallel": {"dp": 1000000, "strategy": "zero3"}, "gpu": "H100"}\n' "$J" >"$T/million-gpus.json"
# 8,030,261,248 fp32 parameters sharded over 10^6 ranks: ceil(32,121,044,992 / 10^6) bytes
ok million-gpus-weights '"bytes": 32122,' estimate "$T/million-gpus.json" --format json
ok million-gpus-count '"count": 1000000,' estimate "$T/million-gpus.json" --format json
printf 'return { name = "\377\376 x", %s, workload = { kind = "inference", context = 512 } }\n' \
  "model = \"meta-llama/Llama-3.1-8B-Instruct\"" >"$T/utf8-name.lua"
# invalid UTF-8 in a name is escaped (U+FFFD per byte), never dropped from the report
ok utf8-name '"scenario": "'"$(printf '\357\277\275\357\277\275')"' x"' estimate "$T/utf8-name.lua" --format json
printf '{%s, "workload": {"kind": "inference", "context": 512}, "gpu": {"name": "x", "memory": "79.19GiB"}}\n' \
  "$J" >"$T/rounded-gib.json"
# 79.19 x 2^30 = 85,029,615,042.56: a printed figure, the nearest byte is meant
ok rounded-gib '"memory_bytes": 85029615043,' estimate "$T/rounded-gib.json" --format json

echo "bad inputs ($V): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
