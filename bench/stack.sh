# shellcheck shell=bash
# Sourced by the benchmarks, never run: how a benchmark starts its mdc-server
# and mdc-gateway, through scripts/stack.sh (the one launcher of the tests and
# benchmarks, docs/architecture.md "Test stacks").
#
# bench_stack_start BUILD_DIR DATABASE_URL [scripts/stack.sh start OPTION]...
#   starts the build folder's binaries on the benchmark's database (neither
#   created nor dropped by the stack) with the server's default pool (8; test
#   stacks use 4; an option may set another), stopped with the benchmark
#   should it die without `bench_stack_stop`; sets stack (the handle),
#   base_url, grpc_addr, admin_token, server_log, server_pid, gateway_pid
#   ("null" with --no-gateway) and gateway_log. Returns non-zero when the stack did not start.
# bench_stack_stop
#   stops it (the gateway, then the server); nothing when none was started.

bench_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
stack=

bench_stack_start() {
  local build=$1 url=$2 started
  shift 2
  started=$(MDC_SERVER_BIN=$build/mdc-server MDC_GATEWAY_BIN=$build/mdc-gateway \
    "$bench_repo/scripts/stack.sh" start --database-url "$url" --owner-pid $$ \
    --server-env MDC_DB_POOL_SIZE=8 "$@") || return 1
  IFS=$'\t' read -r stack base_url grpc_addr admin_token server_log server_pid gateway_pid gateway_log < <(
    jq -r '[.handle, .base_url, .grpc_addr, .admin_token, .logs.server, .server_pid, .gateway_pid, .logs.gateway]
      | map(tostring) | @tsv' <<<"$started")
}

bench_stack_stop() {
  [ -z "$stack" ] || "$bench_repo/scripts/stack.sh" stop "$stack" "$@" >/dev/null
  stack=
}
