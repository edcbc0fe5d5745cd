#!/usr/bin/env bash
# Runs the TypeScript client's checks; ctest's `typescript-client` test (so
# `make test` and CI) calls it.
#
#   clients/typescript/run_tests.sh BUILD_DIR
#
# npm ci (the pinned package-lock.json), npm run build (tsc over the committed
# src/generated/) and node --test on the compiled tests; then the same for the
# example examples/typescript (which depends on this package through file:),
# whose test runs in the same node --test. test/generated.test.ts regenerates
# src/generated/ from the gateway's OpenAPI document the build just wrote and
# fails on any difference. The stack tests need MDC_SERVER_BIN,
# MDC_GATEWAY_BIN (ctest sets them) and MDC_TEST_DATABASE_URL
# (scripts/test.sh exports it), the browser check Debian's chromium
# (MDC_CHROMIUM, default /usr/bin/chromium); here their absence is a failure,
# not a skip. BUILD_DIR holds npm's cache.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:?usage: run_tests.sh BUILD_DIR}" && pwd)
command -v npm >/dev/null || { echo "run_tests.sh: npm missing; on Debian: apt-get install nodejs npm" >&2; exit 1; }

cd "$here"
export npm_config_cache=$build/typescript-client/npm-cache
# playwright-core drives Debian's chromium; it downloads no browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm ci --no-audit --no-fund
rm -rf dist
npm run build
example=$here/../../examples/typescript
(cd "$example" && npm ci --no-audit --no-fund && rm -rf dist && npm run build)
MDC_REQUIRE_STACK=1 exec node --test dist/test/*.test.js "$example"/dist/test/*.test.js
