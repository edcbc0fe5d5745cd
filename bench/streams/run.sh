#!/usr/bin/env bash
# Runs the streams benchmark (bench/streams/main.go) on this machine: a fresh
# database on the PostgreSQL server MDC_BENCH_DATABASE_URL points at (a
# superuser URL), the built mdc-server and mdc-gateway on free local ports,
# the load and the measurements, then stops what it started and drops the
# database. Results go to docs/performance.md by hand.
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc@127.0.0.1:55432/mdc \
#     bench/streams/run.sh BUILD_DIR [flags for bench/streams...]
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [flags for bench/streams]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
admin_url=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
go=go
command -v "$go" >/dev/null 2>&1 || go=/usr/local/go/bin/go

db="mdc_bench_streams_$$"
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
bench_stack_start "$build_dir" "$url" --server-env MDC_ACCESS_LOG=off --server-env "MDC_METRICS_ADDR=127.0.0.1:$metrics_port" || exit 1
token=$admin_token

echo "machine: $(nproc) cores, $(uname -sr); PostgreSQL: $(psql -Atq "$admin_url" -c 'SHOW server_version')"
(cd "$here" && "$go" run . -grpc "$grpc_addr" \
  -url "$base_url" -token "$token" "$@")
