#!/usr/bin/env bash
# Regenerates the docs' screenshots (docs/images/*.png) from the demo and the viewer in headless
# Chromium (/usr/bin/chromium or $CHROMIUM_PATH). Run it when the UI changes and commit the images;
# `npm test` never writes them.
set -euo pipefail
cd "$(dirname "$0")/.."
npx vitest run --config tests/e2e/vitest.screenshots.config.ts
git status --short -- docs/images 2>/dev/null || true
