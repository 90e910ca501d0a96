#!/usr/bin/env bash
# check_gpu_aliases.sh: resolve every device name in tests/golden/gpu_aliases.txt against the PCRE2
# aliases in scripts/gpus.lua the way the engine does (caseless, unanchored, FIRST entry in file order
# with any matching alias wins) and compare with the expected catalog name. Needs lua5.4 and pcre2grep
# (apt-get install pcre2-utils). Run from the repository root. Exit 0 when every case resolves as expected.
set -u
cd "$(dirname "$0")/../.." || exit 2
command -v pcre2grep >/dev/null || { echo "SKIP: pcre2grep not installed" >&2; exit 77; }
LUA=${LUA:-lua5.4}
# One line per alias, in catalog order: <entry index> TAB <name> TAB <pattern>
table=$("$LUA" -e '
  for i, g in ipairs(dofile("scripts/gpus.lua")) do
    for _, a in ipairs(g.aliases) do io.write(i, "\t", g.name, "\t", a, "\n") end
  end') || { echo "FAIL: could not load scripts/gpus.lua" >&2; exit 1; }
# Every alias must compile as PCRE2.
bad=0
while IFS=$'\t' read -r _ name pat; do
  printf 'x\n' | pcre2grep -i -q -- "$pat" 2>/dev/null
  [ $? -le 1 ] || { echo "FAIL: $name: alias does not compile: $pat"; bad=$((bad + 1)); }
done <<<"$table"
pass=0 fail=0
while IFS=$'\t' read -r device expected; do
  [ -z "$device" ] && continue
  case "$device" in \#*) continue ;; esac
  got="(none)"
  while IFS=$'\t' read -r _ name pat; do
    if printf '%s\n' "$device" | pcre2grep -i -q -- "$pat"; then got=$name; break; fi
  done <<<"$table"
  if [ "$got" = "$expected" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL: '$device' -> $got (expected $expected)"
  fi
done < tests/golden/gpu_aliases.txt
echo "gpu aliases: $pass passed, $fail failed, $bad bad patterns"
[ "$fail" -eq 0 ] && [ "$bad" -eq 0 ]
