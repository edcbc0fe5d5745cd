#!/usr/bin/env bash
# mdc's private PostgreSQL 15 cluster, kept under $MDC_DATA_DIR/pg (default
# .mdc/pg in the checkout).
#
#   scripts/pg.sh start    initialise on first use, start, wait until ready
#   scripts/pg.sh stop     stop (fast shutdown: sessions end, data is kept)
#   scripts/pg.sh status   exit 0 and say where it listens when running, else 3
#   scripts/pg.sh url      print the superuser URL of database mdc
#
# It listens on 127.0.0.1:$MDC_PG_PORT (default 54329) only, with no Unix
# socket, and authenticates with scram-sha-256. The password of the superuser
# role `mdc` is generated on first start and kept in $MDC_DATA_DIR/pg/password
# (mode 0600). PostgreSQL refuses to run as root, so as root the cluster
# belongs to, and runs as, the system user postgres.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

data_dir=$(mdc_data_dir)
pg_dir=$data_dir/pg
pgdata=$pg_dir/data
pwfile=$pg_dir/password
portfile=$pg_dir/port
logfile=$pg_dir/postgres.log
default_port=54329
pg_user=postgres

usage() {
  echo "usage: ${0##*/} start|stop|status|url" >&2
  exit 2
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# as_pg CMD...: run CMD as the cluster's owner, from / so that a current
# directory postgres may not enter does not matter.
as_pg() {
  if is_root; then
    (cd / && runuser -u "$pg_user" -- "$@")
  else
    (cd / && "$@")
  fi
}

# own PATH...: hand PATH to the cluster's owner.
own() {
  if is_root; then chown "$pg_user:$pg_user" "$@"; fi
}

is_initialised() { [ -f "$pgdata/PG_VERSION" ]; }

is_running() {
  is_initialised && as_pg "$PG_BIN/pg_ctl" -D "$pgdata" status >/dev/null 2>&1
}

# The port of the running server (from postmaster.pid), else MDC_PG_PORT,
# else the port it last ran on, else the default.
current_port() {
  if is_running && [ -f "$pgdata/postmaster.pid" ]; then
    sed -n 4p "$pgdata/postmaster.pid"
  elif [ -n "${MDC_PG_PORT:-}" ]; then
    printf '%s\n' "$MDC_PG_PORT"
  elif [ -f "$portfile" ]; then
    cat "$portfile"
  else
    printf '%s\n' "$default_port"
  fi
}

# run_psql PORT SQL: run SQL as mdc in database postgres, print the result.
run_psql() {
  PGPASSWORD=$(cat "$pwfile") PGCONNECT_TIMEOUT=5 "$PG_BIN/psql" \
    -h 127.0.0.1 -p "$1" -U mdc -d postgres -X -q -t -A -v ON_ERROR_STOP=1 -c "$2"
}

# Root runs the cluster as postgres, which must be able to reach the data
# folder through every parent (a clone under /root, mode 700, is not).
check_reachable() {
  if is_root && ! runuser -u "$pg_user" -- test -x "$data_dir"; then
    die "the system user '$pg_user' cannot reach $data_dir: one of its parent" \
      "folders is not searchable by others (e.g. /root is mode 700). Put the" \
      "checkout or MDC_DATA_DIR somewhere it can reach (e.g. MDC_DATA_DIR=/var/tmp/mdc)," \
      "or make the parents searchable (chmod o+x)."
  fi
}

write_settings() {
  local port=$1
  cat >"$pgdata/mdc.conf" <<EOF
# Written by scripts/pg.sh on every start; edits here are overwritten.
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = ''
max_connections = 100
password_encryption = 'scram-sha-256'
# Sized for a 2-core development or CI machine.
shared_buffers = 256MB
effective_cache_size = 1GB
work_mem = 8MB
maintenance_work_mem = 128MB
max_wal_size = 1GB
checkpoint_completion_target = 0.9
random_page_cost = 1.1
max_worker_processes = 4
max_parallel_workers = 2
max_parallel_workers_per_gather = 1
# Durability is never traded for speed: a commit is on disk when it returns.
fsync = on
synchronous_commit = on
full_page_writes = on
# Logging
log_destination = 'stderr'
log_line_prefix = '%m [%p] %q%u@%d '
log_min_duration_statement = 1000
EOF
  own "$pgdata/mdc.conf"
}

init_cluster() {
  log "initialising a new PostgreSQL cluster in $pgdata"
  install -d -m 0700 "$pg_dir"
  own "$pg_dir"
  local tmp=$pg_dir/data.init
  rm -rf "$tmp"
  if [ ! -s "$pwfile" ]; then
    (
      umask 077
      head -c 24 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' >"$pwfile.tmp"
      echo >>"$pwfile.tmp"
      mv "$pwfile.tmp" "$pwfile"
    )
  fi
  chmod 0600 "$pwfile"
  own "$pwfile"
  if ! as_pg "$PG_BIN/initdb" -D "$tmp" -U mdc --pwfile="$pwfile" \
    --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 --data-checksums \
    >"$pg_dir/initdb.log" 2>&1; then
    cat "$pg_dir/initdb.log" >&2
    rm -rf "$tmp"
    die "initdb failed"
  fi
  echo "include = 'mdc.conf'" >>"$tmp/postgresql.conf"
  mv "$tmp" "$pgdata"
}

ensure_database() {
  local port=$1
  if [ "$(run_psql "$port" "SELECT 1 FROM pg_database WHERE datname = 'mdc'")" != 1 ]; then
    run_psql "$port" "CREATE DATABASE mdc" >/dev/null
    log "created database mdc"
  fi
}

wait_ready() {
  local port=$1 i
  for ((i = 0; i < 120; i++)); do
    if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -t 2; then
      return 0
    fi
    sleep 0.5
  done
  tail -n 30 "$logfile" >&2 || true
  die "PostgreSQL did not become ready on 127.0.0.1:$port within 60 s (log: $logfile)"
}

cmd_start() {
  check_reachable
  is_initialised || init_cluster
  if is_running; then
    local port
    port=$(current_port)
    if [ -n "${MDC_PG_PORT:-}" ] && [ "$MDC_PG_PORT" != "$port" ]; then
      log "warning: already running on port $port, not MDC_PG_PORT=$MDC_PG_PORT" \
        "(run '${0##*/} stop' first to move it)"
    fi
    wait_ready "$port"
    ensure_database "$port"
    log "PostgreSQL already running on 127.0.0.1:$port ($pgdata)"
    return 0
  fi
  local port=${MDC_PG_PORT:-}
  if [ -z "$port" ]; then
    if [ -f "$portfile" ]; then port=$(cat "$portfile"); else port=$default_port; fi
  fi
  if port_in_use "127.0.0.1:$port"; then
    die "port $port on 127.0.0.1 is taken by another program: set MDC_PG_PORT to a free port"
  fi
  write_settings "$port"
  printf '%s\n' "$port" >"$portfile"
  touch "$logfile"
  own "$logfile" "$portfile"
  # The server outlives this script: hand it no descriptor but 0, 1 and 2
  # (not the lock, not a pipe of whoever called us).
  if ! (close_fds && as_pg "$PG_BIN/pg_ctl" -D "$pgdata" -l "$logfile" -w -t 60 -s start); then
    tail -n 30 "$logfile" >&2 || true
    die "PostgreSQL failed to start (log: $logfile)"
  fi
  wait_ready "$port"
  ensure_database "$port"
  log "PostgreSQL running on 127.0.0.1:$port ($pgdata)"
}

cmd_stop() {
  if ! is_running; then
    log "PostgreSQL is not running ($pgdata)"
    return 0
  fi
  as_pg "$PG_BIN/pg_ctl" -D "$pgdata" -m fast -w -t 60 -s stop
  log "PostgreSQL stopped ($pgdata)"
}

cmd_status() {
  if is_running; then
    echo "running on 127.0.0.1:$(current_port) (pid $(head -n1 "$pgdata/postmaster.pid"), data $pgdata)"
  elif is_initialised; then
    echo "stopped (data $pgdata)"
    exit 3
  else
    echo "not initialised ($pgdata does not exist; '${0##*/} start' creates it)"
    exit 3
  fi
}

cmd_url() {
  [ -s "$pwfile" ] || die "no cluster in $pg_dir yet: run '${0##*/} start' first"
  printf 'postgres://mdc:%s@127.0.0.1:%s/mdc\n' "$(head -n1 "$pwfile")" "$(current_port)"
}

[ $# -eq 1 ] || usage
case $1 in
  start)
    if [ ! -d "$data_dir" ]; then
      mkdir -p "$(dirname "$data_dir")"
      install -d -m 0755 "$data_dir"
    fi
    # One start or stop at a time per data folder.
    exec 9>"$data_dir/.pg.lock"
    flock -w 120 9 || die "another start or stop holds $data_dir/.pg.lock"
    cmd_start
    ;;
  stop)
    if [ -d "$data_dir" ]; then
      exec 9>"$data_dir/.pg.lock"
      flock -w 120 9 || die "another start or stop holds $data_dir/.pg.lock"
    fi
    cmd_stop
    ;;
  status) cmd_status ;;
  url) cmd_url ;;
  *) usage ;;
esac
