#!/usr/bin/env bash
# `npm start`: ingest the embedded data (or DATA_DIR), build, and serve on HOST:PORT
# (default http://127.0.0.1:4321). Astro's page-by-page build log goes to .tmp/astro-build.log, shown
# whole only when the build fails: a newcomer sees a few lines of progress, not 140.
set -euo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1
node ingest/cli.ts
mkdir -p .tmp
echo "build: astro build (log in .tmp/astro-build.log) ..."
started=$SECONDS
if ! npx astro build > .tmp/astro-build.log 2>&1; then
  cat .tmp/astro-build.log >&2
  echo "build: astro build failed (its log is above, and in .tmp/astro-build.log)" >&2
  exit 1
fi
echo "build: $(find dist/client -name '*.html' | wc -l | tr -d ' ') pages and the API built in $((SECONDS - started)) s"
export HOST="${HOST:-127.0.0.1}" PORT="${PORT:-4321}"
exec node server.ts
