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

echo "== typecheck"
npx tsc -p tsconfig.json --noEmit
echo "== unit tests (node + browser)"
npx vitest run
echo "== library build"
npm run -s build >/dev/null
if [ -d tests/e2e ] && ls tests/e2e/*.test.ts >/dev/null 2>&1; then
  echo "== end-to-end tests (playwright-core + /usr/bin/chromium)"
  npx vitest run --config tests/e2e/vitest.e2e.config.ts
fi
