#!/bin/sh
# install-deps.sh: installs the Debian packages vramfit builds and tests with, when
# any is missing. Run as root (as on CI and a fresh Debian 12 machine), or with sudo.
set -eu
PKGS="build-essential pkg-config lua5.4 liblua5.4-dev libpcre2-dev libcmocka-dev libjansson-dev"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
