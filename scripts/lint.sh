#!/usr/bin/env bash
# npm run lint: the formatter's check, the linter, the unused-code check and the line-length check, each run
# even when one before it failed, so one run shows everything to fix. Exits 1 if any failed, naming them.
cd "$(dirname "$0")/.."
failed=()
echo "== prettier --check (npm run format rewrites)"
npx prettier --check --log-level warn . || failed+=(prettier)
echo "== eslint"
npx eslint . || failed+=(eslint)
echo "== knip (unused files, exports, dependencies)"
npx knip || failed+=(knip)
echo "== line length and comments"
node scripts/check-line-length.mjs || failed+=(check-line-length)
if [ ${#failed[@]} -gt 0 ]; then
  echo "lint: failed: ${failed[*]}"
  exit 1
fi
echo "lint: all passed"
