#!/usr/bin/env bash
# Runs the dashboard benchmark end to end on this machine: a fresh database
# on the PostgreSQL server MDC_BENCH_DATABASE_URL points at (a superuser URL),
# the built mdc-server and mdc-gateway on free local ports (bench/stack.sh), the load and the
# measurements (bench/dashboard/main.go), then stops what it started and
# drops the database.
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc@127.0.0.1:55432/mdc \
#     bench/dashboard/run.sh BUILD_DIR [dashboard-bench flags...]
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [flags for bench/dashboard]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
admin_url=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
go=go
command -v "$go" >/dev/null 2>&1 || go=/usr/local/go/bin/go

db="mdc_bench_$$"
url="${admin_url%/*}/$db"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# The server's metrics listener stays on, as when this was measured first.
metrics_port=$(free_port)
# shellcheck source=bench/stack.sh
source "$here/../stack.sh"

cleanup() {
  bench_stack_stop || true
  psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
}
trap cleanup EXIT

psql -q "$admin_url" -c "CREATE DATABASE $db" >/dev/null
bench_stack_start "$build_dir" "$url" --server-env "MDC_METRICS_ADDR=127.0.0.1:$metrics_port" || exit 1
token=$admin_token

echo "machine: $(nproc) cores, $(uname -sr); PostgreSQL: $(psql -Atq "$admin_url" -c 'SHOW server_version')"
bench() {
  (cd "$here" && "$go" run . -url "$base_url" -token "$token" \
    -server-log "$server_log" "$@")
}
bench -phase load "$@"
bench -phase measure -label "right after the load (no VACUUM yet)" "$@"
# What autovacuum does shortly after a bulk insert: sets the visibility map,
# so the price reads become index-only scans.
psql -q "$url" -c "VACUUM ANALYZE" >/dev/null
bench -phase measure -label "after VACUUM ANALYZE (steady state)" "$@"
