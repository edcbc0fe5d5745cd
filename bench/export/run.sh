#!/usr/bin/env bash
# Data out (issue 22): bulk export throughput against psql's \copy of the
# same rows, the peak memory of both processes during a 2-million-row
# export, and a 1,000-symbol cross-section against 1,000 single as-of calls.
#
# On the PostgreSQL server MDC_BENCH_DATABASE_URL points at (a superuser URL)
# it creates a database of its own, starts the built mdc-server (which
# applies the migrations) and mdc-gateway on free local ports, and then:
#   1. stores one full quote (every payload number, ohlc, 5 levels of depth a
#      side) through SaveQuotes, and copies its stored bytes with SQL into
#      MDC_EXPORT_ROWS quotes (default 2,000,000) of 1,000 symbols LD0..LD999
#      on one trading day (2035-09-04), one quote a symbol a second from
#      09:15 IST: the rows a collector of 1,000 symbols writes in about half
#      an hour; VACUUM (ANALYZE) and CHECKPOINT;
#   2. MDC_EXPORT_ROUNDS times (default 3), alternating in one run: psql
#      `\copy (SELECT <the stored columns> ... ORDER BY <the export's order>)
#      TO STDOUT WITH CSV` of the same rows, then GET /v1/developer/export/
#      quotes as CSV and as Parquet through the gateway (curl, body to
#      /dev/null); rows/s of each and the ratios export/psql (medians);
#      the CPU time per row of mdc-server, mdc-gateway and the PostgreSQL
#      backends of the server's pool during each export (from /proc);
#   3. the peak resident memory (VmHWM) of mdc-server and mdc-gateway,
#      which ran nothing but the exports above;
#   4. the cross-section (bench/export, `xsection`): 1,000 GET
#      /v1/developer/quote calls against one GET /v1/developer/quotes of the
#      same 1,000 symbols, MDC_EXPORT_XS_ROUNDS times (5), the median ratio,
#      and the p50/p90/p99 of 200 cross-section calls, over the 2M quotes.
# It prints a Markdown report (and appends it to MDC_EXPORT_RESULTS when
# set), then stops what it started and drops the database.
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc:PW@127.0.0.1:54329/mdc \
#     bench/export/run.sh BUILD_DIR
#
# Environment (all optional): MDC_EXPORT_ROWS (2000000), MDC_EXPORT_ROUNDS (3),
# MDC_EXPORT_XS_ROUNDS (5), MDC_EXPORT_XS_CALLS (200), MDC_EXPORT_RESULTS,
# MDC_EXPORT_KEEP_DB (1: keep the database), MDC_EXPORT_BASELINE_GATEWAY (the
# path of another mdc-gateway binary, e.g. a build of the commit before a
# change: it runs beside the built one, on the same server, and each round
# also exports CSV and Parquet through it, so before and after come from one
# run; MDC_EXPORT_SKIP_XS=1 leaves the cross-section out).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
admin_url=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
rows=${MDC_EXPORT_ROWS:-2000000}
rounds=${MDC_EXPORT_ROUNDS:-3}
xs_rounds=${MDC_EXPORT_XS_ROUNDS:-5}
xs_calls=${MDC_EXPORT_XS_CALLS:-200}
symbols=1000
day=2035-09-04
db=mdc_bench_export_$$
go=go
command -v "$go" >/dev/null 2>&1 || go=/usr/local/go/bin/go

log() { printf '[export %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

url="${admin_url%/*}/$db"
work=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
baseline_gateway=${MDC_EXPORT_BASELINE_GATEWAY:-}
baseline_port=$(free_port)
baseline_base=http://127.0.0.1:$baseline_port
baseline_pid=
psql_() { psql -X -q -t -A -v ON_ERROR_STOP=1 "$url" "$@"; }

# shellcheck source=bench/stack.sh
source "$repo/bench/stack.sh"
cleanup() {
  set +e
  # Stops the gateway and the server; the database is the benchmark's.
  bench_stack_stop
  [ -z "$baseline_pid" ] || { kill "$baseline_pid"; wait "$baseline_pid"; } 2>/dev/null
  if [ "${MDC_EXPORT_KEEP_DB:-0}" != 1 ]; then
    psql -X -q "$admin_url" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 && log "dropped database $db"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "building bench/export"
(cd "$here" && "$go" build -o "$work/export" .)

psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE DATABASE $db" >/dev/null
# The stack: bench/stack.sh (scripts/stack.sh) on the benchmark's database.
bench_stack_start "$build_dir" "$url" \
  --server-env MDC_ACCESS_LOG=off --server-env MDC_RATE_LIMIT_READS=0 \
  --gateway-env MDC_ACCESS_LOG=off || die "the stack did not start"
base=$base_url token=$admin_token
# The baseline gateway (MDC_EXPORT_BASELINE_GATEWAY: e.g. main's build) beside
# the built one, on the same server, for before and after in one run.
if [ -n "$baseline_gateway" ]; then
  MDC_HTTP_ADDR=127.0.0.1:$baseline_port MDC_GRPC_ADDR=$grpc_addr MDC_ACCESS_LOG=off \
    "$baseline_gateway" >"$work/baseline-gateway.log" 2>&1 &
  baseline_pid=$!
  for _ in $(seq 100); do
    curl -fsS "$baseline_base/health" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -fsS "$baseline_base/health" >/dev/null || die "the baseline gateway did not start (log: $work)"
fi

log "storing the template quote and generating $rows quotes"
depth='{"buy":[{"price":99.5,"quantity":10},{"price":99.4,"quantity":20},{"price":99.3,"quantity":30},{"price":99.2,"quantity":40},{"price":99.1,"quantity":50}],"sell":[{"price":100.5,"quantity":10},{"price":100.6,"quantity":20},{"price":100.7,"quantity":30},{"price":100.8,"quantity":40},{"price":100.9,"quantity":50}]}'
payload='{"last_price":100.25,"day_change":1.5,"day_change_perc":1.52,"volume":123456,"average_price":99.9,"bid_quantity":10,"bid_price":100.2,"upper_circuit_limit":110,"lower_circuit_limit":90,"high_trade_range":105,"low_trade_range":95,"implied_volatility":12.5,"last_trade_quantity":5,"market_cap":1000000,"offer_price":100.3,"offer_quantity":12,"oi_day_change":0,"oi_day_change_percentage":0,"open_interest":0,"previous_open_interest":0,"total_buy_quantity":5000,"total_sell_quantity":6000,"week_52_high":120,"week_52_low":80,"last_trade_time":2072919300000,"ohlc":{"open":99,"high":101,"low":98,"close":98.8},"depth":'"$depth"'}'
curl -fsS -X POST "$base/v1/developer/collector/quotes" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' \
  -d '{"data":{"timestamp":"2035-09-03T09:15:00","quotes":[{"nseSymbol":"TEMPLATE","quoteData":{"status":"SUCCESS","payload":'"$payload"'}}]}}' >/dev/null
per_symbol=$(((rows + symbols - 1) / symbols))
psql_ -c "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
  SELECT 'LD' || (g % $symbols), timestamptz '$day 09:15:00+05:30' + (g / $symbols) * interval '1 second',
         date '$day', t.last_price, t.volume, t.quote_data
  FROM generate_series(0, $rows - 1) g,
       (SELECT last_price, volume, quote_data FROM stock_quotes WHERE nse_symbol = 'TEMPLATE') t"
psql_ -c "VACUUM (ANALYZE) stock_quotes" -c "CHECKPOINT"
stored=$(psql_ -c "SELECT count(*) FROM stock_quotes WHERE trading_day = '$day'")
[ "$stored" = "$rows" ] || die "stored $stored rows, want $rows"

# The same rows as the export, in its order, as psql copies them: the stored
# columns (the payload as the bytes it is stored as; psql cannot decode it).
copy_sql="\\copy (SELECT observed_at, trading_day, nse_symbol, last_price, volume, quote_data FROM stock_quotes WHERE trading_day = '$day' ORDER BY trading_day, observed_at, nse_symbol COLLATE \"C\") TO STDOUT WITH CSV"

now() { date +%s.%N; }
measure() { # name command...: prints the output's line count; appends the seconds to $work/name.secs
  local name=$1
  shift
  local start end lines
  start=$(now)
  lines=$("$@" | wc -l)
  end=$(now)
  echo "$end - $start" | bc >>"$work/$name.secs"
  echo "$lines"
}
export_csv() { curl -fsS "${2:-$base}/v1/developer/export/quotes?start_date=$day&format=$1" -H "Authorization: Bearer $token"; }
# CPU seconds (user + system) of processes, from /proc; the PostgreSQL
# backends are those of the benchmark's database (the server's pool).
cpu_of() { for p in "$@"; do awk '{print ($14 + $15)}' "/proc/$p/stat" 2>/dev/null; done | awk -v hz="$(getconf CLK_TCK)" '{s += $1} END {printf "%.3f", s / hz}'; }
backends() { psql_ -c "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"; }
# with_cpu name command...: runs measure, and appends the µs of CPU a row of
# the server, the gateway (GW_PID, default the built one) and the PostgreSQL
# backends to $work/name.cpu.
with_cpu() {
  local name=$1 pg_pids s0 g0 p0 out gateway_pid=${GW_PID:-$gateway_pid}
  shift
  pg_pids=$(backends)
  s0=$(cpu_of "$server_pid") g0=$(cpu_of "$gateway_pid") p0=$(cpu_of $pg_pids)
  out=$(measure "$name" "$@")
  echo "$(cpu_of "$server_pid") $s0 $(cpu_of "$gateway_pid") $g0 $(cpu_of $pg_pids) $p0" |
    awk -v rows="$rows" '{printf "%.2f %.2f %.2f\n", ($1-$2)*1e6/rows, ($3-$4)*1e6/rows, ($5-$6)*1e6/rows}' >>"$work/$name.cpu"
  echo "$out"
}
for r in $(seq "$rounds"); do
  log "round $r of $rounds"
  n=$(measure psql psql -X -q -v ON_ERROR_STOP=1 "$url" -c "$copy_sql")
  [ "$n" = "$rows" ] || die "psql copied $n rows"
  n=$(with_cpu csv export_csv csv)
  [ "$n" = "$((rows + 1))" ] || die "the CSV export has $n lines, want $((rows + 1))"
  with_cpu parquet export_csv parquet >/dev/null
  if [ -n "$baseline_pid" ]; then
    n=$(GW_PID=$baseline_pid with_cpu csv_base export_csv csv "$baseline_base")
    [ "$n" = "$((rows + 1))" ] || die "the baseline's CSV export has $n lines, want $((rows + 1))"
    GW_PID=$baseline_pid with_cpu parquet_base export_csv parquet "$baseline_base" >/dev/null
  fi
done
median() { sort -g "$work/$1.secs" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
psql_s=$(median psql)
csv_s=$(median csv)
parquet_s=$(median parquet)
# cpu_col name column: the median of a column of $work/name.cpu.
cpu_col() { awk -v c="$2" '{print $c}' "$work/$1.cpu" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
rate() { echo "$rows / $1" | bc; }
ratio() { echo "scale=2; $2 / $1" | bc; }
rss() { awk '/VmHWM/ {printf "%d", $2/1024}' "/proc/$1/status"; }
server_rss=$(rss "$server_pid")
gateway_rss=$(rss "$gateway_pid")
baseline_rows=
baseline_cpu=
if [ -n "$baseline_pid" ]; then
  baseline_rows="| the same, CSV, through MDC_EXPORT_BASELINE_GATEWAY | $(median csv_base) | $(rate "$(median csv_base)") | $(ratio "$(median csv_base)" "$psql_s") |
| the same, Parquet, through MDC_EXPORT_BASELINE_GATEWAY | $(median parquet_base) | $(rate "$(median parquet_base)") | $(ratio "$(median parquet_base)" "$psql_s") |"
  baseline_cpu="| CSV, baseline gateway | $(cpu_col csv_base 1) | $(cpu_col csv_base 2) | $(cpu_col csv_base 3) |
| Parquet, baseline gateway | $(cpu_col parquet_base 1) | $(cpu_col parquet_base 2) | $(cpu_col parquet_base 3) |"
  baseline_rows="$baseline_rows
"
  baseline_cpu="$baseline_cpu
"
  gateway_rss="$gateway_rss MB, the baseline gateway $(rss "$baseline_pid")"
fi

xs="RESULT (the cross-section was left out: MDC_EXPORT_SKIP_XS=1)"
if [ "${MDC_EXPORT_SKIP_XS:-0}" != 1 ]; then
  log "cross-section: $symbols symbols"
  xs=$("$work/export" xsection -url "$base" -token "$token" -prefix LD -symbols "$symbols" \
    -datetime "${day}T09:40:00" -rounds "$xs_rounds" -calls "$xs_calls")
fi
echo "$xs" >&2
result=$(echo "$xs" | grep '^RESULT')
field() { echo "$result" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k {print $2}'; }

xs_line="Cross-section of $symbols symbols at 2M stored quotes: one call against $symbols single as-of calls,
median ratio $(field median_ratio)x ($xs_rounds rounds); latency of $(field calls) calls p50 $(field p50_ms) ms,
p90 $(field p90_ms) ms, p99 $(field p99_ms) ms, max $(field max_ms) ms."
[ "${MDC_EXPORT_SKIP_XS:-0}" = 1 ] && xs_line="(Cross-section left out: MDC_EXPORT_SKIP_XS=1.)"

report=$(
  cat <<EOF
### Export benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $rows quotes of $symbols symbols, one trading day

| path | seconds (median of $rounds) | rows/s | against psql \\copy |
|---|---|---|---|
| psql \\copy (...) TO STDOUT WITH CSV | $psql_s | $(rate "$psql_s") | 1 |
| GET /v1/developer/export/quotes, CSV | $csv_s | $(rate "$csv_s") | $(ratio "$csv_s" "$psql_s") |
| GET /v1/developer/export/quotes, Parquet | $parquet_s | $(rate "$parquet_s") | $(ratio "$parquet_s" "$psql_s") |
${baseline_rows}
CPU per exported row (µs, median of $rounds; /proc of each process, the PostgreSQL backends of the
server's pool):

| export | mdc-server | mdc-gateway | PostgreSQL |
|---|---:|---:|---:|
| CSV | $(cpu_col csv 1) | $(cpu_col csv 2) | $(cpu_col csv 3) |
| Parquet | $(cpu_col parquet 1) | $(cpu_col parquet 2) | $(cpu_col parquet 3) |
${baseline_cpu}
Peak RSS (VmHWM) during the exports: mdc-server $server_rss MB, mdc-gateway $gateway_rss MB.

$xs_line
EOF
)
echo "$report"
if [ -n "${MDC_EXPORT_RESULTS:-}" ]; then echo "$report" >>"$MDC_EXPORT_RESULTS"; fi
