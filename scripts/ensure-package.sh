#!/usr/bin/env bash
# Puts a Debian package's program in place for the tests that need it, installing the package when the
# program is missing and this runs as root (as `npm test` on CI and on fresh machines): downloads other than
# Debian's and the npm registry's are not possible here. Does nothing when the program is there.
# Usage: ensure-package.sh PROGRAM PACKAGE WHAT-NEEDS-IT
set -euo pipefail
program=$1 package=$2 needs=$3
[ -x "$program" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's $package package for $needs ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "$package" >/dev/null
  [ -x "$program" ] && exit 0
  echo "apt-get installed $package, but $program is still missing" >&2
  exit 1
fi
echo "$needs need $program: install Debian's $package package (as root: apt-get install $package)," \
  "then run npm test again." >&2
exit 1
