#!/usr/bin/env bash
# The TypeScript client's static checks (scripts/lint.sh ts, so `make lint`):
# npm ci (the committed package-lock.json), tsc --noEmit over the sources and
# the tests, eslint (eslint.config.js).
#
#   clients/typescript/lint.sh BUILD_DIR     (BUILD_DIR holds npm's cache)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(mkdir -p "${1:?usage: lint.sh BUILD_DIR}" && cd "$1" && pwd)
command -v npm >/dev/null || { echo "lint.sh: npm missing; on Debian: apt-get install nodejs npm" >&2; exit 1; }
cd "$here"
export npm_config_cache=$build/typescript-client/npm-cache PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm ci --no-audit --no-fund --loglevel=error
echo "tsc --noEmit: the TypeScript client"
npx tsc -p tsconfig.json --noEmit
npx tsc -p tsconfig.test.json --noEmit
echo "eslint: the TypeScript client"
npx eslint .
