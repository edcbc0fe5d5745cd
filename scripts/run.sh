#!/usr/bin/env bash
# Runs mdc on this machine (`make run`): installs what is missing for running
# (not for testing), builds the two binaries,
# starts the private PostgreSQL (unless DATABASE_URL is set), then mdc-server
# and mdc-gateway on localhost, and stays in the foreground until Ctrl-C or
# SIGTERM, when it stops the gateway and the server (PostgreSQL keeps running;
# scripts/pg.sh stop stops it).
#
# Environment: MDC_HTTP_ADDR (127.0.0.1:8080), MDC_GRPC_ADDR (127.0.0.1:50051),
# DATABASE_URL, MDC_ADMIN_TOKEN, MDC_DATA_DIR (.mdc), MDC_PG_PORT (54329),
# MDC_BUILD_DIR (build), MDC_DB_POOL_SIZE, MDC_METRICS_ADDR,
# MDC_GATEWAY_METRICS_ADDR.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

http_addr=${MDC_HTTP_ADDR:-127.0.0.1:8080}
grpc_addr=${MDC_GRPC_ADDR:-127.0.0.1:50051}
data_dir=$(mdc_data_dir)
build=$(mdc_build_dir)
logs=$data_dir/logs
scripts=$MDC_ROOT/scripts

# Only what running needs: no test packages, no test suites configured in a
# new build folder (one that `make test` configured keeps them).
"$scripts/install-deps.sh" run
if ! grep -q '^MDC_TESTS:' "$build/CMakeCache.txt" 2>/dev/null; then
  export MDC_TESTS=OFF
fi
"$scripts/build.sh" mdc-server mdc-gateway

for addr in "$grpc_addr" "$http_addr" ${MDC_METRICS_ADDR:+"$MDC_METRICS_ADDR"} \
  ${MDC_GATEWAY_METRICS_ADDR:+"$MDC_GATEWAY_METRICS_ADDR"}; do
  connect_addr=$addr
  case $addr in 0.0.0.0:* | :*) connect_addr=127.0.0.1:${addr##*:} ;; esac
  if port_in_use "$connect_addr"; then
    die "$addr is already in use (is mdc already running?); stop that program or" \
      "choose other addresses with MDC_HTTP_ADDR / MDC_GRPC_ADDR / MDC_METRICS_ADDR /" \
      "MDC_GATEWAY_METRICS_ADDR"
  fi
done
# What curl and the health check talk to.
http_url=http://$http_addr
case $http_addr in 0.0.0.0:* | :*) http_url=http://127.0.0.1:${http_addr##*:} ;; esac

# Database -------------------------------------------------------------------
if [ -n "${DATABASE_URL:-}" ]; then
  db_url=$DATABASE_URL
  db_note="DATABASE_URL from the environment (no private cluster started)"
else
  "$scripts/pg.sh" start
  db_url=$("$scripts/pg.sh" url)
  db_note="private cluster in $data_dir/pg (URL: scripts/pg.sh url; stop: scripts/pg.sh stop)"
fi

# Admin token ----------------------------------------------------------------
mkdir -p "$data_dir" "$logs"
token_file=$data_dir/admin_token
if [ -n "${MDC_ADMIN_TOKEN:-}" ]; then
  admin_token=$MDC_ADMIN_TOKEN
  token_note="from MDC_ADMIN_TOKEN"
elif [ -s "$token_file" ]; then
  admin_token=$(head -n1 "$token_file")
  token_note="kept in $token_file"
else
  # 32 random bytes: 256 bits, 43 url-safe base64 characters.
  admin_token=mdc_$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
  (
    umask 077
    printf '%s\n' "$admin_token" >"$token_file.tmp"
    mv "$token_file.tmp" "$token_file"
  )
  token_note="new, saved in $token_file"
fi

# Processes ------------------------------------------------------------------
server_log=$logs/server.log
gateway_log=$logs/gateway.log
server_pid=
gateway_pid=

# stop_proc NAME PID: SIGTERM, wait up to 30 s (the server drains), then
# SIGKILL.
stop_proc() {
  local name=$1 pid=$2 i
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then return 0; fi
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 300; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name did not stop within 30 s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

stop_all() {
  trap - INT TERM HUP
  stop_proc mdc-gateway "$gateway_pid"
  stop_proc mdc-server "$server_pid"
  gateway_pid=
  server_pid=
}

show_logs() {
  local f
  for f in "$server_log" "$gateway_log"; do
    [ -f "$f" ] || continue
    echo "---- last lines of $f" >&2
    tail -n 30 "$f" >&2
  done
}

on_signal() {
  echo >&2
  log "stopping mdc-gateway and mdc-server"
  stop_all
  log "stopped; PostgreSQL keeps running (scripts/pg.sh stop stops it)"
  exit 0
}
trap on_signal INT TERM HUP
trap stop_all EXIT

stamp() { printf '==== %s run.sh start\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"; }
stamp >>"$server_log"
stamp >>"$gateway_log"

# Each in a session of its own (setsid, which execs in place here: $! is the
# binary's pid), so that Ctrl-C reaches only this script, which stops the
# gateway first and then lets the server drain.
setsid env DATABASE_URL="$db_url" MDC_GRPC_ADDR="$grpc_addr" MDC_ADMIN_TOKEN="$admin_token" \
  "$build/mdc-server" </dev/null >>"$server_log" 2>&1 &
server_pid=$!
setsid env MDC_HTTP_ADDR="$http_addr" MDC_GRPC_ADDR="$grpc_addr" \
  "$build/mdc-gateway" </dev/null >>"$gateway_log" 2>&1 &
gateway_pid=$!

# Wait until GET /health answers 200 (60 s).
deadline=$((SECONDS + 60))
until curl -fsS -o /dev/null --max-time 2 "$http_url/health" 2>/dev/null; do
  for p in "$server_pid:mdc-server" "$gateway_pid:mdc-gateway"; do
    if ! kill -0 "${p%%:*}" 2>/dev/null; then
      show_logs
      die "${p#*:} exited during start-up (logs above)"
    fi
  done
  if [ "$SECONDS" -ge "$deadline" ]; then
    show_logs
    die "$http_url/health did not answer 200 within 60 s (logs above)"
  fi
  sleep 0.5
done

cat <<EOF

mdc is running.
  HTTP (gateway)  $http_url   (GET /health, /v1/...)
  dashboard       $http_url/   (sign in with a developer token, or the admin token below)
  gRPC (server)   $grpc_addr
EOF
if [ -n "${MDC_METRICS_ADDR:-}" ]; then
  echo "  metrics         http://$MDC_METRICS_ADDR/metrics"
fi
if [ -n "${MDC_GATEWAY_METRICS_ADDR:-}" ]; then
  echo "  gateway metrics http://$MDC_GATEWAY_METRICS_ADDR/metrics"
fi
cat <<EOF
  database        $db_note
  logs            $server_log
                  $gateway_log

Admin token ($token_note):
  $admin_token

Try it:
  curl -sS -X POST $http_url/v1/admin/developers \\
    -H 'Authorization: Bearer $admin_token' \\
    -H 'Content-Type: application/json' \\
    -d '{"username": "alice", "role": "developer"}'

Ctrl-C stops the gateway and the server; PostgreSQL keeps running (stop it with scripts/pg.sh stop).
EOF

# Foreground: until a signal, or until one of the two exits by itself.
while true; do
  wait -n "$server_pid" "$gateway_pid" || true
  for p in "$server_pid:mdc-server" "$gateway_pid:mdc-gateway"; do
    if ! kill -0 "${p%%:*}" 2>/dev/null; then
      show_logs
      log "${p#*:} exited unexpectedly; stopping the other one"
      stop_all
      exit 1
    fi
  done
done
