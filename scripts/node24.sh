#!/usr/bin/env bash
# Runs a command with Node >= 22.12 on PATH (see use-node24.sh), so every npm script works on a
# machine whose own node is 20.
set -e
. "$(dirname "$0")/use-node24.sh"
exec "$@"
