#!/usr/bin/env bash
# `npm start`: ingest the embedded data (or DATA_DIR), build, and serve on HOST:PORT
# (default http://127.0.0.1:4321). Astro's page-by-page build log goes to .tmp/astro-build.log, shown
# whole only when the build fails: a newcomer sees a few lines of progress, not 140.
set -euo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1
export HOST="${HOST:-127.0.0.1}" PORT="${PORT:-4321}"
# The build writes its site into every page, feed and /.well-known/x402: without SITE_URL, the origin served
# here (PORT=5400 must not build links to 4321). Two steps, so that a failure stops the script.
[ -n "${SITE_URL:-}" ] || SITE_URL=$(node scripts/local-origin.mjs)
export SITE_URL
# ASTRO_OUT_DIR moves the build (tests do): the server then serves that one.
out="${ASTRO_OUT_DIR:-dist}"
export ASTRO_ENTRY="${ASTRO_ENTRY:-$out/server/entry.mjs}"
node ingest/cli.ts
mkdir -p .tmp
echo "build: astro build, links on $SITE_URL (log in .tmp/astro-build.log) ..."
started=$SECONDS
if ! npx astro build > .tmp/astro-build.log 2>&1; then
  cat .tmp/astro-build.log >&2
  echo "build: astro build failed (its log is above, and in .tmp/astro-build.log)" >&2
  exit 1
fi
pages=$(find "$out/client" -name '*.html' | wc -l | tr -d ' ')
echo "build: $pages pages and the API built in $((SECONDS - started)) s"
exec node server.ts
