#!/usr/bin/env bash
# The dashboard's rendering benchmark: how long headless chromium takes from
# navigating to a run's page until its 1,000 orders (with their outcomes) are
# in the table. Not a test: it asserts nothing, it measures (docs/performance.md,
# "The dashboard in the browser").
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc:...@127.0.0.1:54329/mdc \
#     bench/web/run.sh BUILD_DIR [ORDERS [RUNS]]
#
# BUILD_DIR holds mdc-server and mdc-gateway (with the dashboard embedded) and
# web/node_modules is installed (scripts/build.sh does both).
# MDC_BENCH_DATABASE_URL is a superuser URL (`scripts/pg.sh url` with `make run`'s
# cluster); the benchmark creates and drops a database of its own there.
# ORDERS defaults to 1000, RUNS (navigations measured, each in a fresh
# browser context: no cache) to 9. Chromium: MDC_CHROMIUM or /usr/bin/chromium.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [ORDERS [RUNS]]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export MDC_TEST_DATABASE_URL=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
export MDC_SERVER_BIN=$build_dir/mdc-server MDC_GATEWAY_BIN=$build_dir/mdc-gateway
export MDC_CHROMIUM=${MDC_CHROMIUM:-/usr/bin/chromium}
export MDC_WEB_DIR=$here/../../web
unset DATABASE_URL MDC_ADMIN_TOKEN MDC_HTTP_ADDR MDC_GRPC_ADDR MDC_METRICS_ADDR
echo "machine: $(nproc) cores, $(uname -sr); $("$MDC_CHROMIUM" --version 2>/dev/null | head -n1); node $(node --version)"
exec node "$here/orders_render.mjs" "${2:-1000}" "${3:-9}"
