#!/bin/sh
# tests/calibrate/run.sh CALIBRATE: the calibration runner on a two-case directory: a check
# that fails as shipped and passes with its documented correction (--corrections), the
# counts it prints, and the errors for a malformed corrections file (exit 2, FILE:LINE).
set -u
CAL=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
has() { if grep -qF -- "$2" "$T/out"; then ok "$1"; else bad "$1: no '$2' in output"; cat "$T/out"; fi; }

mkdir -p "$T/expect" "$T/scenarios"
printf '{"model": "meta-llama/Llama-3.1-8B", "runtime": "transformers", "workload": {"kind": "inference", "context": 1024}, "gpu": "H100"}\n' >"$T/scenarios/a.json"
# case a: the scenario names the 8B, the source ran the 1B (Llama-3.2-1B: 1,235,814,400 parameters)
printf '{"id": "a", "scenario": "scenarios/a.json", "checks": [{"metric": "model.params", "expected": 1235814400, "rel_tol": 0}]}\n' >"$T/expect/inference.jsonl"
printf '{"id": "b", "scenario": "scenarios/a.json", "checks": [{"metric": "model.params", "expected": 8030261248, "rel_tol": 0}]}\n' >>"$T/expect/inference.jsonl"
printf '{"id": "a", "set": ["model=meta-llama/Llama-3.2-1B"], "evidence": "the source log loads the 1B"}\n' >"$T/fix.jsonl"

"$CAL" "$T" >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok "as shipped: exit 0" || bad "as shipped: exit $rc"
has shipped-last "calibrate: 1 passed, 1 failed, 0 unanswered"

"$CAL" "$T" --corrections "$T/fix.jsonl" >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok "corrected: exit 0" || bad "corrected: exit $rc"
has corrected-row "corrected: model=meta-llama/Llama-3.2-1B"
has corrected-counts "calibrate: 1 corrected cases, 1 checks: 1 passed, 0 failed, 0 unanswered (as shipped: 0 passed, 1 failed, 0 unanswered)"
has corrected-all "calibrate: with the documented corrections 2 passed, 0 failed, 0 unanswered"
last=$(tail -1 "$T/out")
[ "$last" = "calibrate: 1 passed, 1 failed, 0 unanswered" ] && ok "as-shipped line stays last" || bad "last line: $last"

printf '{"id": "a", "set": ["no equals sign"], "evidence": "x"}\n' >"$T/bad.jsonl"
"$CAL" "$T" --corrections "$T/bad.jsonl" >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && ok "malformed corrections: exit 2" || bad "malformed corrections: exit $rc"
has malformed-message "$T/bad.jsonl:1: expected {\"id\": string, \"set\": [1 to 16 \"path=value\" strings], \"evidence\": string}"
printf '{"id": "a", "set": ["model=x"], "evidence": "x"}\n{"id": "a", "set": ["model=y"], "evidence": "y"}\n' >"$T/dup.jsonl"
"$CAL" "$T" --corrections "$T/dup.jsonl" >"$T/out" 2>&1
has duplicate-message "$T/dup.jsonl:2: a second correction for the same id"
"$CAL" "$T" --corrections "$T/none.jsonl" >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && ok "missing corrections file: exit 2" || bad "missing corrections file: exit $rc"

echo "calibrate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
