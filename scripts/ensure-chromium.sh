#!/usr/bin/env bash
# Puts Debian's Chromium at /usr/bin/chromium for the browser tests (tests/e2e), which drive it with
# playwright-core: browser downloads are not possible here, Debian's package is. Does nothing when it is
# already installed.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium package for the browser tests ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] && exit 0
  echo "apt-get installed chromium, but /usr/bin/chromium is still missing" >&2
  exit 1
fi
echo "The browser tests need Chromium at /usr/bin/chromium: install Debian's chromium package" \
  "(as root: apt-get install chromium), then run npm test again." >&2
exit 1
