#!/usr/bin/env bash
# Runs the dashboard's checks; ctest's `web` test (so `make test` and CI)
# calls it.
#
#   web/run_tests.sh BUILD_DIR
#
# 1. The unit tests of the view logic (vitest: IST times, totals, URL state,
#    sorting, field errors, chart data).
# 2. The browser tests (Playwright, e2e/): Debian's chromium (/usr/bin/chromium,
#    or MDC_CHROMIUM) headless against the real mdc-server and mdc-gateway
#    (MDC_SERVER_BIN, MDC_GATEWAY_BIN, set by ctest) on a fresh database made
#    through MDC_TEST_DATABASE_URL (scripts/test.sh exports it); their absence
#    is a failure, not a skip. Screenshots of every page at 1280 and 390 px
#    wide go to BUILD_DIR/web/screenshots, failure traces to
#    BUILD_DIR/web/test-results.
# 3. The README's dashboard images (docs/images/dashboard/*.png) are the
#    ones the suite made (BUILD_DIR/web/readme), by name
#    (scripts/readme-images.mjs); with MDC_UPDATE_README_IMAGES=1 the
#    suite's images replace the committed ones.
#
# The build (web/build.sh) installed the npm packages and embedded the
# dashboard in the gateway; this script only runs tests.
set -euo pipefail
web=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:?usage: run_tests.sh BUILD_DIR}" && pwd)

for name in MDC_SERVER_BIN MDC_GATEWAY_BIN MDC_TEST_DATABASE_URL; do
  [ -n "${!name:-}" ] || { echo "run_tests.sh: $name is not set (run through ctest from scripts/test.sh)" >&2; exit 1; }
done
export MDC_CHROMIUM=${MDC_CHROMIUM:-/usr/bin/chromium}
[ -x "$MDC_CHROMIUM" ] || { echo "run_tests.sh: no chromium at $MDC_CHROMIUM (scripts/install-deps.sh installs Debian's)" >&2; exit 1; }
[ -d "$web/node_modules" ] || { echo "run_tests.sh: $web/node_modules missing: build first (scripts/build.sh)" >&2; exit 1; }
[ -f "$web/../clients/typescript/dist/test/stack.js" ] || { echo "run_tests.sh: the TypeScript client is not built: build first (scripts/build.sh)" >&2; exit 1; }

cd "$web"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export MDC_WEB_SCREENSHOTS=$build/web/screenshots
export MDC_WEB_RESULTS=$build/web/test-results
export MDC_WEB_README_SHOTS=$build/web/readme
rm -rf "$MDC_WEB_SCREENSHOTS" "$MDC_WEB_RESULTS" "$MDC_WEB_README_SHOTS"
npx vitest run
npx playwright test
if [ "${MDC_UPDATE_README_IMAGES:-}" = 1 ]; then
  node scripts/readme-images.mjs update "$MDC_WEB_README_SHOTS"
else
  node scripts/readme-images.mjs check "$MDC_WEB_README_SHOTS"
fi
