#!/usr/bin/env bash
# Builds the dashboard and puts it where the gateway embeds it.
#
#   web/build.sh BUILD_DIR
#
# 1. clients/typescript (@mdc/client, a plain file: dependency of web/): npm ci
#    and npm run build (its generated types are committed; its suite checks
#    them against the gateway's OpenAPI document).
# 2. web/: npm ci (the committed package-lock.json) and npm run build:
#    typecheck, vite build into BUILD_DIR/web/dist, the first page's
#    JavaScript budget (scripts/finish-build.mjs fails the build above it),
#    gzip copies.
# 3. Copies the result into gateway/internal/webui/dist, which the gateway's
#    next build embeds (go:embed); dist/.gitkeep stays.
#
# Skipped when nothing it reads changed since its last run (BUILD_DIR/web/.stamp).
# npm's cache lives in BUILD_DIR/web/npm-cache. No browser is downloaded
# (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD): the browser tests use Debian's chromium.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
mkdir -p "$1/web"
build=$(cd "$1" && pwd)
web=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$web/.." && pwd)
client=$root/clients/typescript
embed=$root/gateway/internal/webui/dist
out=$build/web/dist
stamp=$build/web/.stamp

command -v npm >/dev/null || { echo "$0: npm missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
# Vite 8 needs Node.js 20.19 or later.
node_version=$(node -p 'process.versions.node')
printf '20.19.0\n%s\n' "$node_version" | sort -V -C ||
  { echo "$0: Node.js $node_version is too old for the dashboard's build: 20.19 or later is needed" >&2; exit 1; }

up_to_date() {
  [ -f "$stamp" ] && [ -f "$embed/index.html" ] && [ -d "$web/node_modules" ] && [ -f "$client/dist/src/index.js" ] || return 1
  local newer
  newer=$(find "$web/build.sh" "$web/index.html" "$web/package.json" "$web/package-lock.json" \
    "$web/tsconfig.json" "$web/vite.config.ts" "$web/src" "$web/public" "$web/scripts" \
    "$client/src" "$client/test" "$client/package.json" "$client/package-lock.json" "$client/tsconfig.json" "$client/tsconfig.test.json" \
    -type f -newer "$stamp" -print -quit)
  [ -z "$newer" ]
}

if up_to_date; then
  echo "web/build.sh: the dashboard is up to date"
  exit 0
fi

export npm_config_cache=$build/web/npm-cache
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm_ci() { (cd "$1" && npm ci --no-audit --no-fund --loglevel=error); }

npm_ci "$client"
(cd "$client" && npm run --silent build)
npm_ci "$web"
(cd "$web" && MDC_WEB_OUT="$out" npm run --silent build)

mkdir -p "$embed"
find "$embed" -mindepth 1 -not -name .gitkeep -delete
cp -R "$out"/. "$embed"/
rm -rf "$embed/.vite"
touch "$stamp"
