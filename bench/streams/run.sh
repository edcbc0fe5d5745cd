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
work=$(mktemp -d)
token="mdc_bench_$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
grpc_port=$(free_port)
http_port=$(free_port)
metrics_port=$(free_port)

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

psql -q "$admin_url" -c "CREATE DATABASE $db" >/dev/null
MDC_ACCESS_LOG=off "$build_dir/mdc-server" --database-url="$url" \
  --grpc-addr="127.0.0.1:$grpc_port" --metrics-addr="127.0.0.1:$metrics_port" \
  --admin-token="$token" 2>"$work/server.log" &
pids+=($!)
"$build_dir/mdc-gateway" --http-addr "127.0.0.1:$http_port" \
  --grpc-addr "127.0.0.1:$grpc_port" 2>"$work/gateway.log" &
pids+=($!)
for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:$http_port/health" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$http_port/health" >/dev/null

echo "machine: $(nproc) cores, $(uname -sr); PostgreSQL: $(psql -Atq "$admin_url" -c 'SHOW server_version')"
(cd "$here" && "$go" run . -grpc "127.0.0.1:$grpc_port" \
  -url "http://127.0.0.1:$http_port" -token "$token" "$@")
