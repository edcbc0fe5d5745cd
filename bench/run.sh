#!/usr/bin/env bash
# mdc's ingest benchmark: builds, starts a private PostgreSQL 15 (scripts/pg.sh),
# mdc-server and mdc-gateway on it (scripts/stack.sh, the one launcher of the
# tests and benchmarks), creates a developer, and measures in one run, side
# by side:
#   1. Save Shortlist (20 entries) and Save NIFTY Quote through the gateway
#      (wrk + bench/wrk/post.lua) at each connection count;
#   2. the same over gRPC directly (bench/grpcload);
#   3. Save Quote with 300 quotes per request (gateway and gRPC): quote rows/s;
#   4. the baseline: pgbench running the SQL of one request (bench/pgbench/)
#      against the same PostgreSQL, and every figure as a ratio to it;
#   5. CPU per process during each run and peak RSS (VmHWM) of server and
#      gateway.
# It writes a Markdown report to bench/results/<UTC timestamp>.md and prints
# it. See docs/performance.md.
#
#   bench/run.sh                 # full run (about 6 minutes)
#   MDC_BENCH_DURATION=5 MDC_BENCH_WARMUP=2 bench/run.sh   # a quick look
#
# Environment (all optional):
#   MDC_BENCH_DURATION     measured seconds per test (20)
#   MDC_BENCH_WARMUP       warm-up seconds before each test (5)
#   MDC_BENCH_CONNS        connection counts ("8 64")
#   MDC_BENCH_RUNS         runs of the whole set; the table shows medians (1)
#   MDC_BENCH_QUOTE_CONNS  connection count of the 300-quote test (8)
#   MDC_BENCH_OPS          which tests ("shortlist nifty quotes")
#   MDC_BENCH_PATHS        which paths ("pgbench gateway grpc")
#   MDC_BENCH_WRK_THREADS  wrk threads (2)
#   MDC_BENCH_GRPC_CHANNELS  gRPC connections of grpcload (1, like the gateway)
#   MDC_BENCH_BUILD_DIR    build folder (build)
#   MDC_BENCH_SKIP_BUILD   1: use the binaries already in the build folder
#   MDC_BENCH_SERVER_ENV   extra environment of mdc-server (KEY=VALUE ...), e.g.
#                          "MDC_DB_POOL_SIZE=4" (the settings of the README's
#                          table; the stack's pool of 4 is set back to the
#                          server's default, 8, unless given here)
#   MDC_BENCH_GATEWAY_ENV  extra environment of mdc-gateway, e.g. "GOMAXPROCS=1"
#   MDC_BENCH_SQL          SQL run once after mdc-server applied its migrations,
#                          before the tests: to measure a schema change, e.g.
#                          "DROP INDEX stock_quotes_by_txid_seq"
#   MDC_BENCH_PG_PORT      the cluster's port (25480) on 127.0.0.1, below the
#                          kernel's ephemeral range (32768-60999), so that
#                          client sockets of other processes cannot hold it;
#                          mdc-server and mdc-gateway get free ports from
#                          scripts/stack.sh
#   MDC_BENCH_KEEP         1: keep the scratch folder (logs, cluster)
#   MDC_BENCH_PERF         OP/PATH/CONNS, e.g. shortlist/gateway/64: record a
#                          machine-wide `perf record -a` during that test into
#                          bench/results/perf-OP-PATH-CONNS.data
#   MDC_BENCH_PERF_ARGS    extra `perf record` options, e.g. "--call-graph dwarf,16384"
#   MDC_BENCH_SHORT        1: the short mode `make test` runs (ctest bench_short):
#                          Save Shortlist and Save NIFTY Quote, 16 connections,
#                          1 s warm-up and 2 s measured per test (each still
#                          settable), the cluster on port 25490, the report written
#                          to <build folder>/bench-short.md instead of
#                          bench/results/. A record of each build, never a
#                          verdict: nothing in it is checked against a bound.
set -euo pipefail

if [ "${MDC_BENCH_SHORT:-0}" = 1 ]; then
  : "${MDC_BENCH_DURATION:=2}" "${MDC_BENCH_WARMUP:=1}" "${MDC_BENCH_CONNS:=16}"
  : "${MDC_BENCH_OPS:=shortlist nifty}" "${MDC_BENCH_PG_PORT:=25490}"
fi
[ -z "${MDC_BENCH_SERVER_ARGS:-}" ] ||
  { echo "MDC_BENCH_SERVER_ARGS is gone: give the settings as MDC_BENCH_SERVER_ENV (KEY=VALUE ...)" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
duration=${MDC_BENCH_DURATION:-20}
warmup=${MDC_BENCH_WARMUP:-5}
conns_list=${MDC_BENCH_CONNS:-"8 64"}
quote_conns=${MDC_BENCH_QUOTE_CONNS:-8}
ops=${MDC_BENCH_OPS:-"shortlist nifty quotes"}
paths=${MDC_BENCH_PATHS:-"pgbench gateway grpc"}
wrk_threads=${MDC_BENCH_WRK_THREADS:-2}
grpc_channels=${MDC_BENCH_GRPC_CHANNELS:-1}
runs=${MDC_BENCH_RUNS:-1}
build_dir=${MDC_BENCH_BUILD_DIR:-$root/build}
pg_port=${MDC_BENCH_PG_PORT:-25480}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}

log() { printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -d /usr/local/go/bin ] && PATH=/usr/local/go/bin:$PATH
for tool in wrk curl jq go "$pg_bin/pgbench" /usr/bin/time; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found (apt-get install wrk postgresql-15 curl jq time)"
done

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# --- Build ---------------------------------------------------------------------
if [ "${MDC_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  log "building mdc-server and mdc-gateway in $build_dir"
  MDC_BUILD_DIR=$build_dir "$root/scripts/build.sh" mdc-server mdc-gateway >&2
fi
log "building bench/grpcload"
(cd "$root/bench/grpcload" && go build -o "$build_dir/grpcload" .) >&2
server_bin=$build_dir/mdc-server
gateway_bin=$build_dir/mdc-gateway
grpcload=$build_dir/grpcload
[ -x "$server_bin" ] && [ -x "$gateway_bin" ] || die "binaries missing in $build_dir"

# --- Scratch folder and clean-up ------------------------------------------------
work=$(mktemp -d /tmp/mdc-bench.XXXXXX)
chmod 755 "$work"
# shellcheck source=bench/stack.sh
source "$root/bench/stack.sh"
cleanup() {
  set +e
  # The gateway, then the server; the database is the cluster's own, kept
  # until the cluster goes. With MDC_BENCH_KEEP the stack's folder (logs)
  # stays too.
  if [ "${MDC_BENCH_KEEP:-0}" = 1 ]; then
    [ -z "$stack" ] || log "kept $stack"
    bench_stack_stop --keep
  else
    bench_stack_stop
  fi
  [ -d "$work/data" ] && "$root/scripts/pg.sh" stop >/dev/null 2>&1
  if [ "${MDC_BENCH_KEEP:-0}" = 1 ]; then log "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- PostgreSQL -------------------------------------------------------------------
# The project's own private cluster (scripts/pg.sh: its settings, fsync and
# synchronous_commit on), fresh in the scratch folder, on 127.0.0.1 only. A
# CHECKPOINT before each test keeps checkpoints out of the measured runs.
log "starting PostgreSQL on 127.0.0.1:$pg_port (scripts/pg.sh)"
export MDC_DATA_DIR=$work/data MDC_PG_PORT=$pg_port
"$root/scripts/pg.sh" start >&2
db_url=$("$root/scripts/pg.sh" url)
psql_() { "$pg_bin/psql" -X -q -t -A "$db_url" "$@"; }
pg_pid=$(head -1 "$work/data/pg/data/postmaster.pid")

# --- mdc-server and mdc-gateway -----------------------------------------------------
# bench/stack.sh (scripts/stack.sh) on the cluster's database, with the
# server's default pool (the stack's own is 4) unless MDC_BENCH_SERVER_ENV
# sets one: the pgbench baseline and the stack share the one cluster, as
# before.
stack_args=()
for kv in ${MDC_BENCH_SERVER_ENV:-}; do stack_args+=(--server-env "$kv"); done
for kv in ${MDC_BENCH_GATEWAY_ENV:-}; do stack_args+=(--gateway-env "$kv"); done
log "starting mdc-server and mdc-gateway (scripts/stack.sh) ${MDC_BENCH_SERVER_ENV:-} ${MDC_BENCH_GATEWAY_ENV:-}"
bench_stack_start "$build_dir" "$db_url" "${stack_args[@]}" || die "the stack did not start"

developer=$(curl -fsS -X POST "$base_url/v1/admin/developers" \
  -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
  -d '{"username":"bench","role":"developer"}')
token=$(jq -r .token <<<"$developer")
[ -n "$token" ] && [ "$token" != null ] || die "could not create the developer: $developer"
dev_id=$(psql_ -c "SELECT id FROM developers WHERE username = 'bench'")
if [ -n "${MDC_BENCH_SQL:-}" ]; then
  log "running MDC_BENCH_SQL: $MDC_BENCH_SQL"
  psql_ -v ON_ERROR_STOP=1 -c "$MDC_BENCH_SQL" >&2
fi
token_hash=$(psql_ -c "SELECT encode(token_hash, 'hex') FROM developers WHERE username = 'bench'")

# --- Measuring helpers ------------------------------------------------------------------
# cpu_ticks PID...: user+system clock ticks of the processes (0 when gone).
cpu_ticks() {
  local total=0 pid t
  for pid in "$@"; do
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    total=$((total + t))
  done
  echo "$total"
}
# pg_ticks: CPU ticks of the whole cluster so far: the postmaster, its live
# children (the backends) and, through the postmaster's cutime/cstime, the
# children it already reaped.
pg_ticks() {
  local total pid
  total=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pg_pid/stat")
  for pid in $(ps -o pid= --ppid "$pg_pid"); do
    total=$((total + $(cpu_ticks "$pid")))
  done
  echo "$total"
}
# timed FILE CMD...: runs CMD, writing its user+system CPU seconds to FILE.
timed() { local f=$1; shift; /usr/bin/time -o "$f" -f '%U %S' "$@"; }
# machine_busy_ticks / machine_all_ticks from /proc/stat.
machine_ticks() { awk '/^cpu /{busy=$2+$3+$4+$7+$8+$9; all=busy+$5+$6; print busy, all}' /proc/stat; }
hwm_mb() { awk '/VmHWM/{printf "%.0f", $2/1024}' "/proc/$1/status"; }
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<" $2"; }
ms() { awk -v us="$1" 'BEGIN{printf "%.1f", us/1000}'; }

declare -A route=([shortlist]=/v1/developer/collector/shortlists
  [nifty]=/v1/developer/collector/nifty [quotes]=/v1/developer/collector/quotes)
declare -A table=([shortlist]=shortlist_snapshots [nifty]=nifty_quotes [quotes]=stock_quotes)
declare -A label=([shortlist]="Save Shortlist (20 entries)" [nifty]="Save NIFTY Quote"
  [quotes]="Save Quote (300 quotes)")
declare -A rows_per_request=([shortlist]=1 [nifty]=1 [quotes]=300)
declare -A baseline   # op/conns -> pgbench rows/s
for op in shortlist nifty quotes; do
  "$grpcload" payload -op "$op" -format json >"$work/$op.json"
  "$grpcload" payload -op "$op" -format stored >"$work/$op.hex"
done

# 2001-09-09; each test writes its own 5*10^7-second ranges (warm-up and
# measured): wrk's threads start 10^7 apart, pgbench draws from the range.
# 45 tests (MDC_BENCH_RUNS=3) end in 2144, below the server's last
# accepted instant (2200-01-01, domain/time.h); 10^8 per range ran past it.
next_base=1000000000
results_json=$work/results.jsonl

# run_test OP PATH CONNS: one measured test; appends a row to the table.
run_test() {
  local op=$1 path=$2 conns=$3
  local base=$next_base
  next_base=$((next_base + 50000000))
  local warm_base=$next_base
  next_base=$((next_base + 50000000))
  local out
  psql_ -c "CHECKPOINT" >/dev/null
  # Warm-up, not measured (its rows land in their own range).
  case $path in
    gateway)
      MDC_BENCH_BODY=$work/$op.json MDC_BENCH_PATH=${route[$op]} MDC_BENCH_TOKEN=$token \
        MDC_BENCH_BASE=$warm_base wrk -t"$wrk_threads" -c"$conns" -d"${warmup}s" \
        -s "$root/bench/wrk/post.lua" "$base_url" >/dev/null ;;
    pgbench)
      "$pg_bin/pgbench" -n -M prepared -c "$conns" -j 2 \
        -T "$warmup" -f "$root/bench/pgbench/$op.sql" -D "token_hash=\\x$token_hash" \
        -D "payload=\\x$(cat "$work/$op.hex")" -D "dev=$dev_id" -D "base=$warm_base" "$db_url" >/dev/null 2>&1 ;;
  esac
  # grpcload warms up inside its own run.
  local before_pg before_server before_gateway before_machine
  before_pg=$(pg_ticks)
  before_server=$(cpu_ticks "$server_pid")
  before_gateway=$(cpu_ticks "$gateway_pid")
  before_machine=$(machine_ticks)
  local perf_pid=
  if [ -n "${MDC_BENCH_PERF:-}" ] && [ "$op/$path/$conns" = "$MDC_BENCH_PERF" ]; then
    mkdir -p "$root/bench/results"
    perf record -a ${MDC_BENCH_PERF_ARGS:-} -F 499 -o "$root/bench/results/perf-$op-$path-$conns.data" \
      -- sleep "$duration" >/dev/null 2>&1 &
    perf_pid=$!
  fi
  local start_ns end_ns pg_after=0
  start_ns=$(date +%s%N)
  case $path in
    gateway)
      out=$(MDC_BENCH_BODY=$work/$op.json MDC_BENCH_PATH=${route[$op]} MDC_BENCH_TOKEN=$token \
        MDC_BENCH_BASE=$base timed "$work/loadgen.cpu" wrk -t"$wrk_threads" -c"$conns" -d"${duration}s" --timeout 10s \
        -s "$root/bench/wrk/post.lua" "$base_url" | grep '^RESULT') ;;
    grpc)
      out=$(timed "$work/loadgen.cpu" "$grpcload" run -addr "$grpc_addr" -token "$token" -op "$op" \
        -conns "$conns" -channels "$grpc_channels" -warmup "${warmup}s" \
        -duration "${duration}s" -base "$base" -warmup-base "$warm_base" | grep '^RESULT') ;;
    pgbench)
      local pgout
      pgout=$(timed "$work/loadgen.cpu" "$pg_bin/pgbench" -n -M prepared -c "$conns" -j 2 \
        -T "$duration" -f "$root/bench/pgbench/$op.sql" -D "token_hash=\\x$token_hash" \
        -D "payload=\\x$(cat "$work/$op.hex")" -D "dev=$dev_id" -D "base=$base" \
        --log --log-prefix="$work/pgbench_${op}_$conns" "$db_url" 2>&1) || die "pgbench failed: $pgout"
      out=$(awk '
        /number of transactions actually processed/ {split($0, a, ": "); split(a[2], b, "/"); n=b[1]}
        /number of failed transactions/ {split($0, a, ": "); split(a[2], b, " "); f=b[1]}
        /^tps = / {tps=$3}
        END {printf "RESULT requests=%d non2xx=%d rps=%.1f", n, f, tps}' <<<"$pgout")
      # Latencies from the per-transaction log (microseconds in column 3).
      local lat
      lat=$(cat "$work"/pgbench_"$op"_"$conns"* 2>/dev/null | awk '{print $3}' | sort -n | awk '
        {v[NR]=$1} END {if (NR==0) {print "p50_us=0 p90_us=0 p99_us=0"; exit}
          printf "p50_us=%d p90_us=%d p99_us=%d", v[int(NR*0.5)+0 < 1 ? 1 : int(NR*0.5)], v[int(NR*0.9)], v[int(NR*0.99)]}')
      rm -f "$work"/pgbench_"$op"_"$conns"*
      out="$out $lat" ;;
  esac
  end_ns=$(date +%s%N)
  pg_after=$(( $(pg_ticks) - before_pg ))
  [ -n "$perf_pid" ] && wait "$perf_pid"
  local after_machine server_ticks gateway_ticks elapsed hz=100
  hz=$(getconf CLK_TCK)
  after_machine=$(machine_ticks)
  server_ticks=$(( $(cpu_ticks "$server_pid") - before_server ))
  gateway_ticks=$(( $(cpu_ticks "$gateway_pid") - before_gateway ))
  elapsed=$(awk -v a="$start_ns" -v b="$end_ns" 'BEGIN{print (b-a)/1e9}')
  # Processes' CPU over the measured phase (grpcload's includes its warm-up
  # window, so its elapsed time is warm-up + duration).
  local cores cpu_json loadgen
  loadgen=$(awk '{print $1 + $2}' "$work/loadgen.cpu")
  cpu_json=$(awk -v l="$loadgen" -v s="$server_ticks" -v g="$gateway_ticks" -v p="$pg_after" -v hz="$hz" -v e="$elapsed" \
    -v mb="$before_machine" -v ma="$after_machine" -v n="$(nproc)" 'BEGIN{
      split(mb, b, " "); split(ma, a, " ");
      printf "\"cpu_load\":%.2f,\"cpu_gateway\":%.2f,\"cpu_server\":%.2f,\"cpu_pg\":%.2f,\"cpu_machine\":%.2f",
        l/e, g/hz/e, s/hz/e, p/hz/e, (a[1]-b[1])/(a[2]-b[2])*n}')
  cores=$(jq -r '"\(.cpu_load) / \(.cpu_gateway) / \(.cpu_server) / \(.cpu_pg) / \(.cpu_machine)"' <<<"{$cpu_json}")

  local requests non2xx rps p50 p90 p99 rows rows_per_s ratio stored
  requests=$(field requests "$out")
  non2xx=$(field non2xx "$out")
  [ -n "$non2xx" ] || non2xx=$(field errors "$out")
  local sock
  sock=$(field socket_errors "$out")
  [ -n "$sock" ] || sock=0
  rps=$(field rps "$out")
  p50=$(ms "$(field p50_us "$out")")
  p90=$(ms "$(field p90_us "$out")")
  p99=$(ms "$(field p99_us "$out")")
  stored=$(psql_ -c "SELECT count(*) FROM ${table[$op]} WHERE observed_at >= to_timestamp($base::bigint) AND observed_at < to_timestamp($base::bigint + 50000000)")
  rows_per_s=$(awk -v r="$rps" -v n="${rows_per_request[$op]}" 'BEGIN{printf "%.0f", r*n}')
  if [ "$path" = pgbench ]; then
    baseline[$op/$conns]=$rows_per_s
    ratio=1
  elif [ -n "${baseline[$op/$conns]:-}" ]; then
    ratio=$(awk -v a="$rows_per_s" -v b="${baseline[$op/$conns]}" 'BEGIN{printf "%.3f", a/b}')
  else
    ratio=null
  fi
  local rps_fmt
  rps_fmt=$(awk -v r="$rps" 'BEGIN{printf "%.0f", r}')
  log "run $run: $op $path c=$conns: $rps_fmt req/s p50 $p50 p90 $p90 p99 $p99 ms, non-2xx $non2xx (+$sock socket errors), stored $stored, x pgbench $ratio, cpu $cores"
  printf '{"run":%s,"op":"%s","label":"%s","path":"%s","conns":%s,"rps":%s,"rows_per_s":%s,"p50_ms":%s,"p90_ms":%s,"p99_ms":%s,"non2xx":%s,"socket_errors":%s,"stored":%s,"ratio":%s,%s}\n' \
    "$run" "$op" "${label[$op]}" "$path" "$conns" "$rps_fmt" "$rows_per_s" "$p50" "$p90" "$p99" "$non2xx" "$sock" "$stored" "$ratio" "$cpu_json" >>"$results_json"
}

# --- The tests -------------------------------------------------------------------------
# Each run goes through every test in turn; with several runs the table shows
# medians, each ratio taken against the pgbench figure of its own run.
for run in $(seq 1 "$runs"); do
  for op in $ops; do
    if [ "$op" = quotes ]; then list=$quote_conns; else list=$conns_list; fi
    for conns in $list; do
      for path in $paths; do
        run_test "$op" "$path" "$conns"
      done
    done
  done
done

server_hwm=$(hwm_mb "$server_pid")
gateway_hwm=$(hwm_mb "$gateway_pid")

# --- Report ------------------------------------------------------------------------------
stamp=$(date -u +%Y%m%dT%H%M%SZ)
if [ "${MDC_BENCH_SHORT:-0}" = 1 ]; then
  report=$build_dir/bench-short.md
else
  mkdir -p "$root/bench/results"
  report=$root/bench/results/$stamp.md
fi
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo " (modified)" || true)
{
  echo "# mdc ingest benchmark, $stamp"
  echo
  echo "Commit $commit$dirty. Machine: $(nproc) cores ($(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)), $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo), load average at start: $load_before, at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') (fresh cluster, fsync and synchronous_commit on)."
  echo "${duration}s measured after ${warmup}s warm-up per test; wrk -t$wrk_threads; grpcload over $grpc_channels gRPC connection(s)."
  echo "Server environment: ${MDC_BENCH_SERVER_ENV:-(defaults)}; gateway environment: ${MDC_BENCH_GATEWAY_ENV:-(defaults)} (scripts/stack.sh)."
  [ -z "${MDC_BENCH_SQL:-}" ] || echo "SQL run before the tests: \`$MDC_BENCH_SQL\`."
  echo
  if [ "$runs" -gt 1 ]; then
    echo "Medians of $runs runs (non-2xx and socket errors: totals over the runs; rows stored: median per run)."
    echo
  fi
  jq -rs -f "$root/bench/report.jq" "$results_json"
  if [ "$runs" -gt 1 ]; then
    for r in $(seq 1 "$runs"); do
      echo
      echo "Run $r:"
      echo
      jq -rs --argjson r "$r" 'map(select(.run == $r))' "$results_json" | jq -r -f "$root/bench/report.jq"
    done
  fi
  echo
  echo "Peak RSS (VmHWM) over the whole run: mdc-server $server_hwm MB, mdc-gateway $gateway_hwm MB."
  echo
  echo "x pgbench: rows/s over pgbench's rows/s at the same connection count, in this run."
  echo "pgbench is one client transaction per request (auth SELECT + upsert, autocommit each), -M prepared, -j 2."
  echo "rows stored: rows counted in the database in the test's key range (warm-up rows excluded)."
  echo "CPU: cores used on average during the test (grpcload's window includes its warm-up); machine = all busy time of the machine, other processes included."
} >"$report"
cat "$report"
log "report: $report"
