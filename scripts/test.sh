#!/usr/bin/env bash
# The whole test suite: typecheck, node + browser unit tests, library build, end-to-end tests.
# Installs what a fresh Debian machine lacks first (Chromium, npm packages).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium (needs root)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== npm ci"
  npm ci --no-audit --no-fund
fi

echo "== format and lint (Biome; npm run format fixes)"
npx biome ci --colors=off .
echo "== typecheck"
npx tsc -p tsconfig.json --noEmit
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
echo "== unit tests (node + browser)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/unit.json"
echo "== library build"
npm run -s build >/dev/null
echo "== end-to-end tests (playwright-core + /usr/bin/chromium)"
npx vitest run --config tests/e2e/vitest.e2e.config.ts --reporter=default --reporter=json --outputFile.json="$results/e2e.json"

# One closing line for the whole suite.
node -e '
  let passed = 0, failed = 0, skipped = 0;
  for (const f of process.argv.slice(1)) {
    const r = JSON.parse(require("fs").readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + r.numTodoTests;
  }
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$results/unit.json" "$results/e2e.json"
