#!/usr/bin/env bash
# `npm start`: ingest the embedded data (or DATA_DIR), build, and serve on HOST:PORT
# (default http://127.0.0.1:4321).
set -euo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1
node ingest/cli.ts
npx astro build
export HOST="${HOST:-127.0.0.1}" PORT="${PORT:-4321}"
exec node server.ts
