#!/bin/sh
# run.sh: the HTML report in a real browser. Builds a report with `vramfit batch
# --html`, loads it in Debian's headless Chromium (installed here when missing: make
# browser-test) and checks its elements, their sizes and a clean console
# (tests/browser/check.js, Node's standard library only). Usage: run.sh [VRAMFIT]
set -eu
BIN=${1:-./vramfit}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  echo "browser: installing Debian's chromium (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null
fi
command -v node >/dev/null || { echo "browser: node is missing"; echo "browser: 0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN" batch tests/browser/sweep.lua --no-progress --html "$tmp/report.html" --svg "$tmp/pic" -o "$tmp/rows.csv"
node tests/browser/check.js "$CHROMIUM" "$tmp/report.html" "$tmp"
