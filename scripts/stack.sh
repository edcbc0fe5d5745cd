#!/usr/bin/env bash
# The one way to start an mdc test stack: every suite (tests/e2e, the Go,
# Python and TypeScript clients' tests, the Go example's, tests/contract,
# web/e2e) and the benchmarks start theirs here, so a stack is the same
# everywhere (see docs/architecture.md, "Test stacks").
#
#   scripts/stack.sh start [OPTION]...   start a stack; print one JSON object
#   scripts/stack.sh stop HANDLE         stop the gateway, then the server; drop
#                                        the database the stack created; stop
#                                        its private PostgreSQL; remove HANDLE
#   scripts/stack.sh stop HANDLE NAME    stop one process (NAME: server or
#                                        gateway): SIGTERM, SIGKILL after 20 s
#   scripts/stack.sh kill HANDLE NAME    SIGKILL one process (no drain)
#   scripts/stack.sh resume HANDLE NAME [--env KEY=VALUE]...
#                                        start a stopped process again with the
#                                        same settings (with --env: these, all
#                                        of its settings, instead); wait until
#                                        healthy
#   scripts/stack.sh check HANDLE        exit 0 when both processes run, else
#                                        say which exited, how (exit 1)
#
# A stack is a database of its own (created from the superuser URL
# MDC_TEST_DATABASE_URL; without it, from a private PostgreSQL started in the
# stack's folder on a free port), mdc-server and mdc-gateway (MDC_SERVER_BIN,
# MDC_GATEWAY_BIN; default the build folder's) on free 127.0.0.1 ports, and a
# random bootstrap admin token (MDC_ADMIN_TOKEN). `start` returns once GET
# /health answers 200 and prints:
#
#   {"handle": DIR, "dir": DIR, "base_url": "http://127.0.0.1:P",
#    "http_addr": ..., "grpc_addr": ..., "admin_token": "mdc_...",
#    "database": NAME, "database_url": URL, "super_database_url": URL,
#    "server_pid": N, "gateway_pid": N,
#    "logs": {"server": PATH, "gateway": PATH}}
#
# HANDLE is the stack's folder (DIR); `stop` takes it. Options of start:
#
#   --server-env KEY=VALUE    add to mdc-server's environment (repeatable;
#                             after the stack's own entries, so it overrides)
#   --gateway-env KEY=VALUE   the same for mdc-gateway
#   --database-url URL        run on this database: neither created nor dropped
#   --db-prefix PREFIX        name of the created database: PREFIX<random hex>
#                             (default mdc_stack_)
#   --owner-pid PID           stop the stack when process PID exits (a test
#                             run that crashed leaves no server behind)
#   --no-gateway              start mdc-server only (healthy: its gRPC port
#                             accepts connections); `resume HANDLE gateway`
#                             starts the gateway later
#
# Several stacks may run at once: each has its own folder, ports and database.
# A process's exit status is kept in DIR/NAME.status, so `stop` reports a
# process that had to be killed or exited other than 0 after SIGTERM (exit 1),
# and then keeps DIR for its logs.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

health_timeout=30 # seconds for GET /health to answer 200
stop_grace=20     # seconds between SIGTERM and SIGKILL

usage() {
  sed -n '7,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

random_token() { printf 'mdc_%s\n' "$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"; }

# with_database URL NAME: URL with its database replaced by NAME.
with_database() {
  python3 -c 'import sys, urllib.parse as u
p = u.urlsplit(sys.argv[1])
print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$1" "$2"
}

run_sql() { PGCONNECT_TIMEOUT=10 psql --no-psqlrc -q -t -A -v ON_ERROR_STOP=1 --dbname="$1" -c "$2"; }

# alive PID: the process exists and is no zombie.
alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# launch DIR NAME: start bin NAME with the environment in DIR/NAME.env, its
# output appended to its log. A small keeper shell waits for it and writes
# its exit status to DIR/NAME.status; DIR/NAME.pid holds the binary's pid.
launch() {
  local dir=$1 name=$2 bin log
  bin=$(cat "$dir/$name.bin")
  log=$(cat "$dir/$name.logpath")
  rm -f "$dir/$name.status" "$dir/$name.pid"
  local -a envs=()
  mapfile -t envs <"$dir/$name.env"
  printf '==== %s stack.sh: starting %s\n' "$(date -u +%FT%TZ)" "$bin" >>"$log"
  (
    close_fds
    exec </dev/null >>"$log" 2>&1
    # Not a job of any terminal: signals to the caller's group still reach
    # the binary (a killed test run takes its stack with it).
    env "${envs[@]}" "$bin" &
    echo $! >"$dir/$name.pid.tmp"
    mv "$dir/$name.pid.tmp" "$dir/$name.pid"
    status=0
    wait $! || status=$?
    echo "$status" >"$dir/$name.status"
  ) &
  local i
  for ((i = 0; i < 100; i++)); do
    [ -s "$dir/$name.pid" ] && return 0
    sleep 0.05
  done
  die "$name did not start (see $log)"
}

# exited DIR NAME: describe how NAME ended, or print nothing while it runs.
exited() {
  local dir=$1 name=$2
  if [ -f "$dir/$name.status" ]; then
    echo "mdc-$name exited with status $(cat "$dir/$name.status")"
  elif [ -s "$dir/$name.pid" ] && ! alive "$(cat "$dir/$name.pid")"; then
    echo "mdc-$name exited"
  fi
}

# wait_healthy DIR: until GET /health answers 200 (without a gateway: until
# the gRPC port accepts connections), a process exits or the time is up.
wait_healthy() {
  local dir=$1 url last="no answer yet" deadline=$((SECONDS + health_timeout)) name msg code
  url=$(cat "$dir/base_url")
  while :; do
    for name in server gateway; do
      [ -f "$dir/$name.pid" ] || continue
      msg=$(exited "$dir" "$name")
      if [ -n "$msg" ]; then
        tail -n 40 "$(cat "$dir/$name.logpath")" >&2 || true
        die "$msg"
      fi
    done
    if [ -f "$dir/gateway.pid" ]; then
      code=$(curl -ks -o /dev/null -m 2 -w '%{http_code}' "$url/health" || true)
      [ "$code" = 200 ] && return 0
      last="status $code"
    elif port_in_use "$(cat "$dir/grpc_addr")"; then
      return 0
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      die "GET $url/health did not answer 200 within ${health_timeout}s (last: $last; logs in $dir)"
    fi
    sleep 0.1
  done
}

# stop_process DIR NAME: SIGTERM, SIGKILL after the grace period; fails when
# it had to kill or the exit status after SIGTERM is not 0.
stop_process() {
  local dir=$1 name=$2 pid i
  [ -s "$dir/$name.pid" ] || return 0
  pid=$(cat "$dir/$name.pid")
  alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < stop_grace * 20; i++)); do
    alive "$pid" || break
    sleep 0.05
  done
  if alive "$pid"; then
    kill -KILL "$pid" 2>/dev/null || true
    log "mdc-$name did not exit within ${stop_grace}s of SIGTERM and was killed"
    return 1
  fi
  # The keeper writes the status right after the exit.
  for ((i = 0; i < 100; i++)); do
    [ -f "$dir/$name.status" ] && break
    sleep 0.02
  done
  local status
  status=$(cat "$dir/$name.status" 2>/dev/null || echo 0)
  if [ "$status" != 0 ]; then
    log "mdc-$name exited with status $status after SIGTERM"
    return 1
  fi
}

kill_process() {
  local dir=$1 name=$2 pid
  [ -s "$dir/$name.pid" ] && alive "$(cat "$dir/$name.pid")" || die "mdc-$name is not running; nothing to kill"
  pid=$(cat "$dir/$name.pid")
  kill -KILL "$pid"
  while alive "$pid"; do sleep 0.02; done
}

cmd_start() {
  local -a server_env=() gateway_env=()
  local db_url="" prefix=mdc_stack_ owner="" gateway=1
  while [ $# -gt 0 ]; do
    case $1 in
      --server-env) server_env+=("${2:?--server-env needs KEY=VALUE}"); shift 2 ;;
      --gateway-env) gateway_env+=("${2:?--gateway-env needs KEY=VALUE}"); shift 2 ;;
      --database-url) db_url=${2:?}; shift 2 ;;
      --db-prefix) prefix=${2:?}; shift 2 ;;
      --owner-pid) owner=${2:?}; shift 2 ;;
      --no-gateway) gateway=; shift ;;
      *) usage ;;
    esac
  done
  local build server_bin gateway_bin
  build=$(mdc_build_dir)
  server_bin=${MDC_SERVER_BIN:-$build/mdc-server}
  gateway_bin=${MDC_GATEWAY_BIN:-$build/mdc-gateway}
  [ -x "$server_bin" ] || die "no mdc-server at $server_bin (build with scripts/build.sh, or set MDC_SERVER_BIN)"
  [ -z "$gateway" ] || [ -x "$gateway_bin" ] || die "no mdc-gateway at $gateway_bin (build, or set MDC_GATEWAY_BIN)"

  local dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/mdc-stack.XXXXXX")
  chmod 0755 "$dir"
  touch "$dir/handle"
  # From here on a failed start takes down what it started.
  trap 'status=$?; if [ $status -ne 0 ]; then "$MDC_ROOT/scripts/stack.sh" stop "'"$dir"'" --keep >/dev/null 2>&1 || true; log "start failed; logs kept in '"$dir"'"; fi' EXIT

  local super_url=${MDC_TEST_DATABASE_URL:-}
  if [ -z "$db_url" ] && [ -z "$super_url" ]; then
    # No cluster given: a private one in the stack's folder.
    MDC_DATA_DIR=$dir MDC_PG_PORT=$(free_port) "$MDC_ROOT/scripts/pg.sh" start >"$dir/pg.out" 2>&1 ||
      { cat "$dir/pg.out" >&2; die "could not start a private PostgreSQL"; }
    touch "$dir/private-pg"
    super_url=$(MDC_DATA_DIR=$dir "$MDC_ROOT/scripts/pg.sh" url)
  fi
  local db_name=""
  if [ -z "$db_url" ]; then
    db_name=$prefix$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
    run_sql "$super_url" "CREATE DATABASE $db_name" >/dev/null
    printf '%s\n' "$db_name" >"$dir/database"
    db_url=$(with_database "$super_url" "$db_name")
  fi
  printf '%s\n' "$super_url" >"$dir/super_url"

  local token grpc_addr http_addr scheme=http
  token=$(random_token)
  grpc_addr=127.0.0.1:$(free_port)
  http_addr=127.0.0.1:$(free_port)
  printf '%s\n' "$grpc_addr" >"$dir/grpc_addr"
  local kv
  for kv in "${gateway_env[@]}"; do
    case $kv in MDC_TLS_CERT=?*) scheme=https ;; MDC_TLS_CERT=) scheme=http ;; esac
  done
  printf '%s://%s\n' "$scheme" "$http_addr" >"$dir/base_url"

  printf '%s\n' "$server_bin" >"$dir/server.bin"
  printf '%s\n' "$dir/server.log" >"$dir/server.logpath"
  {
    printf '%s\n' "DATABASE_URL=$db_url" "MDC_GRPC_ADDR=$grpc_addr" "MDC_ADMIN_TOKEN=$token" \
      "MDC_METRICS_ADDR=" "MDC_DB_POOL_SIZE=4" \
      "MDC_SECRET_KEY=" "MDC_BROKER_TOKEN_URL=" "MDC_GRPC_TLS_CERT=" "MDC_GRPC_TLS_KEY="
    # ^ no metrics listener (ports stay free); a small pool (several stacks
    # share one test cluster, max_connections 100); no secret key, broker or
    # TLS inherited from the caller's environment unless given here:
    [ ${#server_env[@]} -eq 0 ] || printf '%s\n' "${server_env[@]}"
  } >"$dir/server.env"
  if [ -x "$gateway_bin" ]; then
    printf '%s\n' "$gateway_bin" >"$dir/gateway.bin"
    printf '%s\n' "$dir/gateway.log" >"$dir/gateway.logpath"
    {
      printf '%s\n' "MDC_HTTP_ADDR=$http_addr" "MDC_GRPC_ADDR=$grpc_addr" \
        "MDC_TLS_CERT=" "MDC_TLS_KEY=" "MDC_GRPC_TLS_CA=" "MDC_GRPC_TLS_SERVER_NAME=" \
        "MDC_GATEWAY_METRICS_ADDR="
      # ^ plain HTTP, plaintext gRPC and no metrics listener unless given:
      [ ${#gateway_env[@]} -eq 0 ] || printf '%s\n' "${gateway_env[@]}"
    } >"$dir/gateway.env"
  fi

  launch "$dir" server
  [ -z "$gateway" ] || launch "$dir" gateway
  wait_healthy "$dir"

  if [ -n "$owner" ]; then
    # tail --pid returns when the owner exits; then the stack goes too.
    # (`stop` ends the tail first: the owner still runs, nothing to do.)
    (
      close_fds
      exec </dev/null >>"$dir/owner.log" 2>&1
      tail --pid="$owner" -f /dev/null &
      echo $! >"$dir/owner.pid"
      wait $! || true
      kill -0 "$owner" 2>/dev/null || exec "$MDC_ROOT/scripts/stack.sh" stop "$dir"
    ) &
  fi

  jq -n --arg dir "$dir" --arg base "$(cat "$dir/base_url")" --arg http "$http_addr" \
    --arg grpc "$grpc_addr" --arg token "$token" --arg db "$db_name" --arg url "$db_url" \
    --arg super "$super_url" --argjson spid "$(cat "$dir/server.pid")" \
    --argjson gpid "$(cat "$dir/gateway.pid" 2>/dev/null || echo null)" \
    --arg slog "$dir/server.log" --arg glog "$dir/gateway.log" \
    '{handle: $dir, dir: $dir, base_url: $base, http_addr: $http, grpc_addr: $grpc,
      admin_token: $token, database: $db, database_url: $url, super_database_url: $super,
      server_pid: $spid, gateway_pid: $gpid, logs: {server: $slog, gateway: $glog}}'
  trap - EXIT
}

check_handle() {
  [ -n "${1:-}" ] && [ -f "$1/handle" ] || die "${1:-(none)} is no stack handle (the dir of scripts/stack.sh start)"
}

check_name() {
  case ${1:-} in
    server | gateway) [ -f "$2/$1.env" ] || die "this stack has no $1" ;;
    *) die "name a process: server or gateway" ;;
  esac
}

cmd_stop() {
  local dir=${1:?usage: stack.sh stop HANDLE [server|gateway|--keep]} keep=
  [ "${2:-}" = --keep ] && keep=1
  if [ -n "${2:-}" ] && [ -z "$keep" ]; then
    check_handle "$dir"
    check_name "$2" "$dir"
    stop_process "$dir" "$2"
    return
  fi
  [ -d "$dir" ] || return 0 # stopped already (e.g. by its owner's exit)
  check_handle "$dir"
  # One stop at a time (the owner watch may stop it too).
  exec 8>"$dir/.stop.lock"
  flock 8
  [ -f "$dir/handle" ] || return 0
  local ok=1 name
  for name in gateway server; do
    stop_process "$dir" "$name" || ok=
  done
  if [ -s "$dir/database" ]; then
    run_sql "$(cat "$dir/super_url")" "DROP DATABASE IF EXISTS $(cat "$dir/database") WITH (FORCE)" >/dev/null ||
      { log "could not drop database $(cat "$dir/database")"; ok=; }
  fi
  if [ -f "$dir/private-pg" ]; then
    MDC_DATA_DIR=$dir "$MDC_ROOT/scripts/pg.sh" stop >/dev/null 2>&1 || { log "could not stop the private PostgreSQL"; ok=; }
  fi
  if [ -s "$dir/owner.pid" ]; then
    kill "$(cat "$dir/owner.pid")" 2>/dev/null || true
  fi
  if [ -n "$ok" ] && [ -z "$keep" ]; then
    rm -rf "$dir"
  else
    rm -f "$dir/handle" # a stopped stack is no handle any more
    [ -n "$ok" ] || { log "logs kept in $dir"; return 1; }
  fi
}

[ $# -ge 1 ] || usage
command=$1
shift
case $command in
  start) cmd_start "$@" ;;
  stop) cmd_stop "$@" ;;
  kill)
    check_handle "${1:-}"
    check_name "${2:-}" "$1"
    kill_process "$1" "$2"
    ;;
  resume)
    check_handle "${1:-}"
    check_name "${2:-}" "$1"
    [ -z "$(exited "$1" "$2")" ] && [ -s "$1/$2.pid" ] && die "mdc-$2 is running"
    if [ $# -gt 2 ]; then
      settings=()
      for ((i = 3; i <= $#; i += 2)); do
        [ "${!i}" = --env ] || usage
        j=$((i + 1))
        settings+=("${!j:?--env needs KEY=VALUE}")
      done
      printf '%s\n' "${settings[@]}" >"$1/$2.env"
    fi
    launch "$1" "$2"
    wait_healthy "$1"
    ;;
  check)
    check_handle "${1:-}"
    problems=0
    for name in server gateway; do
      [ -f "$1/$name.pid" ] || continue
      msg=$(exited "$1" "$name")
      [ -z "$msg" ] || { echo "$msg" >&2; problems=1; }
    done
    exit "$problems"
    ;;
  -h | --help | help) usage ;;
  *) usage ;;
esac
