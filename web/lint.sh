#!/usr/bin/env bash
# The dashboard's static checks (scripts/lint.sh ts, so `make lint`): npm ci
# (the committed package-lock.json), tsc --noEmit (npm run typecheck) and
# eslint (eslint.config.js). The dashboard's types import the TypeScript
# client's compiled declarations, so the client is built first when it is
# not (npm run build in clients/typescript, as web/build.sh does).
#
#   web/lint.sh BUILD_DIR     (BUILD_DIR holds npm's cache)
set -euo pipefail
web=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(mkdir -p "${1:?usage: lint.sh BUILD_DIR}" && cd "$1" && pwd)
client=$web/../clients/typescript
command -v npm >/dev/null || { echo "lint.sh: npm missing; on Debian: apt-get install nodejs npm" >&2; exit 1; }
export npm_config_cache=$build/web/npm-cache PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -f "$client/dist/src/index.d.ts" ]; then
  (cd "$client" && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build)
fi
cd "$web"
npm ci --no-audit --no-fund --loglevel=error
echo "tsc --noEmit: the dashboard"
npm run --silent typecheck
echo "eslint: the dashboard"
npx eslint .
