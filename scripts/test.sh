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

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
# Each step's wall time and CPU time, printed after it. The CPU time is the user + sys time of its
# commands and their node processes; Chromium's renderer and GPU processes are not reaped into it,
# so for the browser tests it is a lower bound.
step_name="" step_wall=0 step_cpu=0
step() {
  times >"$results/times" # in this shell: its children's user and sys time on the second line
  local now
  now=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%.1f", n }' "$results/times")
  if [ -n "$step_name" ]; then
    echo "   $step_name: $((SECONDS - step_wall)) s, $(awk -v a="$now" -v b="$step_cpu" 'BEGIN { printf "%.1f", a - b }') s of CPU"
  fi
  step_name="$1" step_wall=$SECONDS step_cpu=$now
  [ -z "$step_name" ] || echo "== $2"
}

step biome "format and lint (Biome; npm run format fixes)"
npx biome ci --colors=off .
step typecheck "typecheck"
npx tsc -p tsconfig.json --noEmit
step unit "unit tests (node + browser)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/unit.json"
step build "library build"
npm run -s build >/dev/null
step e2e "end-to-end tests (playwright-core + /usr/bin/chromium)"
npx vitest run --config tests/e2e/vitest.e2e.config.ts --reporter=default --reporter=json --outputFile.json="$results/e2e.json"
step "" ""

# One closing line for the whole suite.
node -e '
  let passed = 0, failed = 0, skipped = 0;
  for (const f of process.argv.slice(1)) {
    const r = JSON.parse(require("fs").readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + r.numTodoTests;
  }
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$results/unit.json" "$results/e2e.json"
