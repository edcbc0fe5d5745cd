#!/usr/bin/env bash
# Ingest against one and against two mdc-server processes (issue 15, deliver
# 5): the same load through one mdc-gateway, whose MDC_GRPC_ADDR lists one
# server or two (round robin over the healthy ones), on one PostgreSQL.
#
# It starts a fresh private PostgreSQL 15 (scripts/pg.sh, the project's
# settings) in a scratch folder, then for each run and each configuration in
# turn (1 server, 2 servers, 1, 2, ...) starts the servers (each with its
# Prometheus /metrics), the gateway, and measures each test with wrk and
# bench/wrk/post.lua (the ingest benchmark's load, bench/run.sh): requests
# and rows a second, latency, non-2xx answers, socket errors, the rows
# stored in the test's key range, each server's answered calls of the
# test's method (mdc_rpc_total, before and after the measured phase) and the
# CPU of the servers and the gateway. The servers and the gateway are
# stopped after each configuration, so every run starts them afresh.
#
#   bench/scale/run.sh BUILD_DIR
#
# Environment (all optional):
#   MDC_SCALE_RUNS      runs of both configurations, alternating (3)
#   MDC_SCALE_TESTS     OP/CONNS list ("shortlist/64 shortlist/8 quotes/8");
#                       OP: shortlist, nifty or quotes (300 quotes a request)
#   MDC_SCALE_DURATION  measured seconds per test (15)
#   MDC_SCALE_WARMUP    warm-up seconds per test (3)
#   MDC_SCALE_CONFIGS   server counts, in the order of each run ("1 2")
#   MDC_SCALE_KEEP      1: keep the scratch folder (server and gateway logs,
#                       the stopped cluster)
#   MDC_SCALE_PG_PORT   port of the private cluster (31490, below Linux's
#                       ephemeral range; servers and gateway take free ports)
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=${MDC_SCALE_RUNS:-3}
tests=${MDC_SCALE_TESTS:-"shortlist/64 shortlist/8 quotes/8"}
duration=${MDC_SCALE_DURATION:-15}
warmup=${MDC_SCALE_WARMUP:-3}
configs=${MDC_SCALE_CONFIGS:-"1 2"}
pg_port=${MDC_SCALE_PG_PORT:-31490}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
[ -d /usr/local/go/bin ] && PATH=/usr/local/go/bin:$PATH

log() { printf '[scale %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
for tool in wrk curl jq go "$pg_bin/psql"; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found"
done
[ -x "$build_dir/mdc-server" ] && [ -x "$build_dir/mdc-gateway" ] || die "binaries missing in $build_dir"

work=$(mktemp -d /tmp/mdc-scale.XXXXXX)
chmod 755 "$work"
pids=()
stop_stack() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  set +e
  stop_stack
  [ -d "$work/data" ] && MDC_DATA_DIR=$work/data "$root/scripts/pg.sh" stop >/dev/null 2>&1
  if [ "${MDC_SCALE_KEEP:-0}" = 1 ]; then log "kept $work (logs, cluster)"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
log "building bench/grpcload (request bodies)"
(cd "$root/bench/grpcload" && go build -o "$work/grpcload" .)
for op in shortlist nifty quotes; do
  "$work/grpcload" payload -op "$op" -format json >"$work/$op.json"
done

log "starting PostgreSQL on 127.0.0.1:$pg_port (scripts/pg.sh)"
export MDC_DATA_DIR=$work/data MDC_PG_PORT=$pg_port
"$root/scripts/pg.sh" start >&2
db_url=$("$root/scripts/pg.sh" url)
psql_() { "$pg_bin/psql" -X -q -t -A "$db_url" "$@"; }
pg_pid=$(head -1 "$work/data/pg/data/postmaster.pid")

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
admin_token=scale-admin-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
server_pids=()
metrics_ports=()
gateway_pid=
base_url=

# start_stack N: N servers and one gateway listing them all.
start_stack() {
  local n=$1 i grpc_port metrics_port addrs=
  server_pids=()
  metrics_ports=()
  for ((i = 1; i <= n; i++)); do
    grpc_port=$(free_port)
    metrics_port=$(free_port)
    "$build_dir/mdc-server" --grpc-addr "127.0.0.1:$grpc_port" --database-url "$db_url" \
      --metrics-addr "127.0.0.1:$metrics_port" --admin-token "$admin_token" 2>>"$work/server$i.log" &
    pids+=($!)
    server_pids+=($!)
    metrics_ports+=("$metrics_port")
    addrs=${addrs:+$addrs,}127.0.0.1:$grpc_port
  done
  local http_port
  http_port=$(free_port)
  "$build_dir/mdc-gateway" --http-addr "127.0.0.1:$http_port" --grpc-addr "$addrs" 2>>"$work/gateway.log" &
  pids+=($!)
  gateway_pid=$!
  base_url=http://127.0.0.1:$http_port
  # Every server up (its metrics say the database answers), then the gateway.
  local up
  for metrics_port in "${metrics_ports[@]}"; do
    up=
    for _ in $(seq 1 150); do
      up=$(curl -fsS "http://127.0.0.1:$metrics_port/metrics" 2>/dev/null | awk '$1 == "mdc_database_up" {print $2}' || true)
      [ "$up" = 1 ] && break
      sleep 0.2
    done
    [ "$up" = 1 ] || die "a server did not come up: $(tail -n 5 "$work"/server*.log)"
  done
  for _ in $(seq 1 150); do
    curl -fsS "$base_url/health" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -fsS "$base_url/health" >/dev/null || die "gateway not healthy: $(tail -n 5 "$work/gateway.log")"
  sleep 1 # the gateway's health checks reach every server
  log "stack: $n server(s) $addrs, gateway $base_url"
}

# rpc_count PORT METHOD: calls of METHOD the server answered, by code, as
# "OK=N other=N".
rpc_count() {
  curl -fsS "http://127.0.0.1:$1/metrics" | awk -v m="method=\"$2\"" '
    /^mdc_rpc_total\{/ && index($0, m) { if (index($0, "code=\"OK\"")) ok += $NF; else other += $NF }
    END { printf "%d %d\n", ok, other }'
}
cpu_ticks() {
  local total=0 pid t
  for pid in "$@"; do
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    total=$((total + t))
  done
  echo "$total"
}
# pg_ticks: CPU ticks of the whole cluster so far (as bench/run.sh): the
# postmaster, its live children and, through cutime/cstime, reaped ones.
pg_ticks() {
  local total pid
  total=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pg_pid/stat")
  for pid in $(ps -o pid= --ppid "$pg_pid"); do
    total=$((total + $(cpu_ticks "$pid")))
  done
  echo "$total"
}
# wal_syncs: WAL flushes to disk so far (pg_stat_wal): a commit waits for
# one, and one serves every commit a batch holds (group commit).
wal_syncs() { psql_ -c "SELECT wal_sync FROM pg_stat_wal"; }
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<" $2"; }

declare -A route=([shortlist]=/v1/developer/collector/shortlists
  [nifty]=/v1/developer/collector/nifty [quotes]=/v1/developer/collector/quotes)
declare -A table=([shortlist]=shortlist_snapshots [nifty]=nifty_quotes [quotes]=stock_quotes)
declare -A method=([shortlist]=SaveShortlist [nifty]=SaveNiftyQuote [quotes]=SaveQuotes)
declare -A rows_per_request=([shortlist]=1 [nifty]=1 [quotes]=300)

# The developer, created once through the first stack.
start_stack 1
token=$(curl -fsS -X POST "$base_url/v1/admin/developers" -H "Authorization: Bearer $admin_token" \
  -H 'Content-Type: application/json' -d '{"username":"scale","role":"developer"}' | jq -r .token)
[ -n "$token" ] && [ "$token" != null ] || die "could not create the developer"
stop_stack

results=$work/results.txt
next_base=1000000000
hz=$(getconf CLK_TCK)
for run in $(seq 1 "$runs"); do
  for servers in $configs; do
    start_stack "$servers"
    for t in $tests; do
      op=${t%/*}
      conns=${t#*/}
      base=$next_base
      warm_base=$((next_base + 100000000))
      next_base=$((next_base + 200000000))
      psql_ -c "CHECKPOINT" >/dev/null
      MDC_BENCH_BODY=$work/$op.json MDC_BENCH_PATH=${route[$op]} MDC_BENCH_TOKEN=$token \
        MDC_BENCH_BASE=$warm_base wrk -t2 -c"$conns" -d"${warmup}s" -s "$root/bench/wrk/post.lua" "$base_url" >/dev/null
      before=()
      for p in "${metrics_ports[@]}"; do before+=("$(rpc_count "$p" "${method[$op]}")"); done
      server_before=$(cpu_ticks "${server_pids[@]}")
      gateway_before=$(cpu_ticks "$gateway_pid")
      pg_before=$(pg_ticks)
      syncs_before=$(wal_syncs)
      start_ns=$(date +%s%N)
      out=$(MDC_BENCH_BODY=$work/$op.json MDC_BENCH_PATH=${route[$op]} MDC_BENCH_TOKEN=$token \
        MDC_BENCH_BASE=$base wrk -t2 -c"$conns" -d"${duration}s" --timeout 10s \
        -s "$root/bench/wrk/post.lua" "$base_url" | grep '^RESULT')
      elapsed=$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN{print (b-a)/1e9}')
      server_cpu=$(awk -v t=$(( $(cpu_ticks "${server_pids[@]}") - server_before )) -v hz="$hz" -v e="$elapsed" 'BEGIN{printf "%.2f", t/hz/e}')
      pg_cpu=$(awk -v t=$(( $(pg_ticks) - pg_before )) -v hz="$hz" -v e="$elapsed" 'BEGIN{printf "%.2f", t/hz/e}')
      syncs_delta=$(( $(wal_syncs) - syncs_before ))
      gateway_cpu=$(awk -v t=$(( $(cpu_ticks "$gateway_pid") - gateway_before )) -v hz="$hz" -v e="$elapsed" 'BEGIN{printf "%.2f", t/hz/e}')
      split=
      other_codes=0
      for i in "${!metrics_ports[@]}"; do
        read -r ok0 other0 <<<"${before[$i]}"
        read -r ok1 other1 <<<"$(rpc_count "${metrics_ports[$i]}" "${method[$op]}")"
        split=${split:+$split/}$((ok1 - ok0))
        other_codes=$((other_codes + other1 - other0))
      done
      stored=$(psql_ -c "SELECT count(*) FROM ${table[$op]} WHERE observed_at >= to_timestamp($base) AND observed_at < to_timestamp($base + 100000000)")
      rps=$(field rps "$out")
      line="RESULT run=$run servers=$servers op=$op conns=$conns rps=$rps rows_per_s=$(awk -v r="$rps" -v n="${rows_per_request[$op]}" 'BEGIN{printf "%.0f", r*n}')"
      line="$line p50_us=$(field p50_us "$out") p99_us=$(field p99_us "$out") non2xx=$(field non2xx "$out")"
      line="$line socket_errors=$(field socket_errors "$out") requests=$(field requests "$out") stored=$stored"
      line="$line split=$split rpc_not_ok=$other_codes cpu_servers=$server_cpu cpu_gateway=$gateway_cpu cpu_pg=$pg_cpu wal_syncs=$syncs_delta load=$(cut -d' ' -f1 /proc/loadavg)"
      log "${line#RESULT }"
      echo "$line" >>"$results"
    done
    stop_stack
  done
done

# --- Report: medians over the runs --------------------------------------------------
echo
echo "Machine: $(nproc) cores ($(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)), load average at start $load_before, at the end $(cut -d' ' -f1-3 /proc/loadavg)."
echo "wrk -t2, ${duration}s measured after ${warmup}s warm-up per test; medians of $runs runs; errors: totals over the runs."
echo
echo "| Test | Conns | Servers | req/s | rows/s | p50 ms | p99 ms | non-2xx | socket errors | non-OK RPCs | calls per server (measured phase, per run) | requests per WAL flush | CPU cores: servers / gateway / PostgreSQL |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|"
awk '/^RESULT/ {
    delete v
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    key = v["op"] SUBSEP v["conns"] SUBSEP v["servers"]
    if (!(key in n)) order[++keys] = key
    k = ++n[key]
    rps[key, k] = v["rps"]; rows[key, k] = v["rows_per_s"]; p50[key, k] = v["p50_us"]; p99[key, k] = v["p99_us"]
    cs[key, k] = v["cpu_servers"]; cg[key, k] = v["cpu_gateway"]; cp[key, k] = v["cpu_pg"]
    rpc[key, k] = (v["wal_syncs"] > 0 ? v["requests"] / v["wal_syncs"] : 0)
    non2xx[key] += v["non2xx"]; sock[key] += v["socket_errors"]; notok[key] += v["rpc_not_ok"]
    splits[key] = splits[key] (k > 1 ? ", " : "") v["split"]
  }
  function med(a, key, k,   i, j, t, s) {
    for (i = 1; i <= k; i++) s[i] = a[key, i] + 0
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
    return s[int((k + 1) / 2)]
  }
  END {
    label["shortlist"] = "Save Shortlist (20 entries)"; label["nifty"] = "Save NIFTY Quote"; label["quotes"] = "Save Quote (300 quotes)"
    for (o = 1; o <= keys; o++) {
      key = order[o]; split(key, f, SUBSEP); k = n[key]
      printf "| %s | %s | %s | %.0f | %.0f | %.1f | %.1f | %d | %d | %d | %s | %.1f | %.2f / %.2f / %.2f |\n", label[f[1]], f[2], f[3],
        med(rps, key, k), med(rows, key, k), med(p50, key, k) / 1000, med(p99, key, k) / 1000,
        non2xx[key], sock[key], notok[key], splits[key], med(rpc, key, k), med(cs, key, k), med(cg, key, k), med(cp, key, k)
    }
  }' "$results"
echo
echo "Per run:"
cat "$results"
