#!/usr/bin/env bash
# Read/write isolation (issue 31, item 3): do the collectors' writes keep
# their latency and throughput while 32 clients hammer 1,000-symbol
# cross-sections?
#
# On the PostgreSQL server MDC_BENCH_DATABASE_URL points at (a superuser URL)
# it creates a database of its own, starts the built mdc-server (which
# applies the migrations) and mdc-gateway on free local ports, and then:
#   1. stores one full quote (every payload number, ohlc, 5 levels of depth a
#      side) through Save Quote and copies its stored bytes with SQL into one
#      quote a minute of 1,000 symbols IS0..IS999 over the session of one
#      trading day (2035-09-04, 09:15-15:29 IST: 375,000 quotes); VACUUM
#      (ANALYZE) and CHECKPOINT;
#   2. runs bench/isolation (see main.go): 8 collector writers, each an
#      open loop of 20 Save Quote calls a second of 10 full quotes (160
#      writes/s, 1,600 quotes/s), through the gateway; MDC_ISO_ROUNDS
#      rounds (3) of MDC_ISO_SECONDS (20) s with the writers alone, then the
#      same with 32 clients (32 developers) asking GET /v1/developer/quotes of
#      all 1,000 symbols one call after another; the write p50/p99 and
#      writes/s of each phase, the medians, and the ratios readers/alone;
#   3. the CPU seconds of mdc-server, mdc-gateway and the server's
#      PostgreSQL sessions over the whole run (from /proc), and the server's
#      settings.
# It prints a Markdown report (and appends it to MDC_ISO_RESULTS when set),
# then stops what it started and drops the database.
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc:PW@127.0.0.1:54329/mdc \
#     bench/isolation/run.sh BUILD_DIR
#
# Environment (all optional): MDC_ISO_ROUNDS (3), MDC_ISO_SECONDS (20),
# MDC_ISO_READERS (32), MDC_ISO_WRITERS (8), MDC_ISO_RATE (20, writes a
# second per writer), MDC_ISO_QUOTES (10 a write), MDC_ISO_RESULTS,
# MDC_ISO_SERVER_ENV (extra environment of mdc-server, e.g.
# "MDC_HEAVY_READS=4"), MDC_ISO_GATEWAY_ENV (the same for mdc-gateway),
# MDC_ISO_LOGS (a folder the server's and gateway's logs are copied to),
# MDC_ISO_KEEP_DB (1: keep the database).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
admin_url=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
rounds=${MDC_ISO_ROUNDS:-3}
seconds=${MDC_ISO_SECONDS:-20}
readers=${MDC_ISO_READERS:-32}
writers=${MDC_ISO_WRITERS:-8}
rate=${MDC_ISO_RATE:-20}
quotes=${MDC_ISO_QUOTES:-10}
server_env=${MDC_ISO_SERVER_ENV:-}
gateway_env=${MDC_ISO_GATEWAY_ENV:-}
symbols=1000
day=2035-09-04
db=mdc_bench_isolation_$$
go=go
command -v "$go" >/dev/null 2>&1 || go=/usr/local/go/bin/go

log() { printf '[isolation %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

url="${admin_url%/*}/$db"
work=$(mktemp -d)
psql_() { psql -X -q -t -A -v ON_ERROR_STOP=1 "$url" "$@"; }

# shellcheck source=bench/stack.sh
source "$here/../stack.sh"
cleanup() {
  set +e
  if [ -n "${MDC_ISO_LOGS:-}" ] && [ -n "$stack" ]; then
    mkdir -p "$MDC_ISO_LOGS" && cp "$server_log" "$gateway_log" "$MDC_ISO_LOGS"/
  fi
  bench_stack_stop
  if [ "${MDC_ISO_KEEP_DB:-0}" != 1 ]; then
    psql -X -q "$admin_url" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 && log "dropped database $db"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "building bench/isolation"
(cd "$here" && "$go" build -o "$work/isolation" .)

psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE DATABASE $db" >/dev/null
# The stack: bench/stack.sh (scripts/stack.sh) on the benchmark's database;
# MDC_ISO_SERVER_ENV / MDC_ISO_GATEWAY_ENV come last, so they override.
stack_args=(--server-env MDC_ACCESS_LOG=off --server-env MDC_RATE_LIMIT_READS=0
  --server-env MDC_RATE_LIMIT_WRITES=0 --gateway-env MDC_ACCESS_LOG=off)
for kv in $server_env; do stack_args+=(--server-env "$kv"); done
for kv in $gateway_env; do stack_args+=(--gateway-env "$kv"); done
bench_stack_start "$build_dir" "$url" "${stack_args[@]}" || die "the stack did not start"
base=$base_url token=$admin_token

log "storing the template quote and seeding $symbols symbols x 375 minutes"
depth='{"buy":[{"price":99.5,"quantity":10},{"price":99.4,"quantity":20},{"price":99.3,"quantity":30},{"price":99.2,"quantity":40},{"price":99.1,"quantity":50}],"sell":[{"price":100.5,"quantity":10},{"price":100.6,"quantity":20},{"price":100.7,"quantity":30},{"price":100.8,"quantity":40},{"price":100.9,"quantity":50}]}'
payload='{"last_price":100.25,"day_change":1.5,"day_change_perc":1.52,"volume":123456,"average_price":99.9,"bid_quantity":10,"bid_price":100.2,"upper_circuit_limit":110,"lower_circuit_limit":90,"high_trade_range":105,"low_trade_range":95,"implied_volatility":12.5,"last_trade_quantity":5,"market_cap":1000000,"offer_price":100.3,"offer_quantity":12,"oi_day_change":0,"oi_day_change_percentage":0,"open_interest":0,"previous_open_interest":0,"total_buy_quantity":5000,"total_sell_quantity":6000,"week_52_high":120,"week_52_low":80,"last_trade_time":2072919300000,"ohlc":{"open":99,"high":101,"low":98,"close":98.8},"depth":'"$depth"'}'
curl -fsS -X POST "$base/v1/developer/collector/quotes" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' \
  -d '{"data":{"timestamp":"2035-09-03T09:15:00","quotes":[{"nseSymbol":"TEMPLATE","quoteData":{"status":"SUCCESS","payload":'"$payload"'}}]}}' >/dev/null
psql_ -c "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
  SELECT 'IS' || s, timestamptz '$day 09:15:00+05:30' + m * interval '1 minute',
         date '$day', t.last_price, t.volume, t.quote_data
  FROM generate_series(0, $symbols - 1) s, generate_series(0, 374) m,
       (SELECT last_price, volume, quote_data FROM stock_quotes WHERE nse_symbol = 'TEMPLATE') t"
psql_ -c "VACUUM (ANALYZE) stock_quotes" -c "CHECKPOINT"

# CPU seconds (user + system) of processes, from /proc.
cpu_of() { for p in "$@"; do awk '{print ($14 + $15)}' "/proc/$p/stat" 2>/dev/null; done | awk -v hz="$(getconf CLK_TCK)" '{s += $1} END {printf "%.1f", s / hz}'; }
s0=$(cpu_of "$server_pid") g0=$(cpu_of "$gateway_pid")

log "running: $writers writers x $rate/s x $quotes quotes; $readers readers; $rounds rounds of ${seconds}s"
"$work/isolation" -url "$base" -admin-token "$token" -prefix IS -symbols "$symbols" -day "$day" \
  -writers "$writers" -rate "$rate" -quotes "$quotes" -readers "$readers" -rounds "$rounds" \
  -seconds "$seconds" | tee "$work/out.txt" >&2
server_cpu=$(echo "$(cpu_of "$server_pid") - $s0" | bc)
gateway_cpu=$(echo "$(cpu_of "$gateway_pid") - $g0" | bc)
# The server's sessions (its pool and listeners) did next to nothing before
# the run: their whole CPU time is the run's.
pg_cpu=$(cpu_of $(psql_ -c "SELECT pid FROM pg_stat_activity WHERE datname = current_database()
  AND application_name = 'mdc-server'"))

result=$(grep '^RESULT' "$work/out.txt")
field() { echo "$result" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k {print $2}'; }
phases=$(grep '^PHASE' "$work/out.txt" | awk '{
  for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
  printf "| %s | %s | %s | %s | %s | %s | %s | %s/%s/%s | %s |\n", v["round"], v["mode"], v["p50_ms"], v["p99_ms"],
    v["max_ms"], v["writes_per_s"], v["failed"], v["reads_200"], v["reads_429"], v["reads_other"], v["read_p50_ms"] }')

report=$(
  cat <<EOF
### Isolation benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?') (script), binaries of $build_dir

$writers collector writers, each an open loop of $rate Save Quote calls a second of $quotes full quotes,
through the gateway; $readers readers (one developer each) asking the cross-section of $symbols symbols
one call after another. Server environment: ${server_env:-defaults}.

| round | phase | write p50 ms | write p99 ms | max ms | writes/s | failed | reads 200/429/other | read p50 ms |
|---|---|---:|---:|---:|---:|---:|---|---:|
$phases

Medians of $rounds rounds: alone p50 $(field alone_p50_ms) ms, p99 $(field alone_p99_ms) ms, $(field alone_wps) writes/s;
with readers p50 $(field readers_p50_ms) ms, p99 $(field readers_p99_ms) ms, $(field readers_wps) writes/s.
**Write p99 with readers / alone: $(field p99_ratio)x; throughput: $(field wps_ratio)x** (median of the
rounds' ratios). Reads: $(field reads_200) answered 200 ($(field reads_per_s)/s), $(field reads_429) 429,
$(field reads_other) other; read p50 $(field read_p50_ms) ms, p99 $(field read_p99_ms) ms; an answer is
$(field answer_kb) KiB of JSON.
CPU seconds over the run: mdc-server $server_cpu, mdc-gateway $gateway_cpu, the server's PostgreSQL
sessions $pg_cpu.
EOF
)
echo "$report"
if [ -n "${MDC_ISO_RESULTS:-}" ]; then echo "$report" >>"$MDC_ISO_RESULTS"; fi
