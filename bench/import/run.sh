#!/usr/bin/env bash
# Import speed (issue 36): importing full quotes from the export's CSV and
# Parquet files through the gateway against psql's \copy of the same rows
# into the same table with its indexes, in one run, and the peak memory of
# mdc-server and mdc-gateway meanwhile.
#
# On the PostgreSQL server MDC_BENCH_DATABASE_URL points at (a superuser URL)
# it creates a database of its own, starts the built mdc-server (which
# applies the migrations) and mdc-gateway on free local ports, and then:
#   1. stores one full quote (every payload number, ohlc, 5 levels of depth a
#      side) through SaveQuotes and copies its stored bytes with SQL into
#      MDC_IMPORT_ROWS quotes (default 2,000,000) of 1,000 symbols on one
#      trading day (2035-09-04), as bench/export does; exports them through
#      the gateway as a CSV and a Parquet file, and with psql \copy ... TO as
#      the CSV of the stored columns (the rows psql can load back);
#   2. MDC_IMPORT_ROUNDS times (default 3), alternating in one run, each
#      into an empty stock_quotes (TRUNCATE before each; its primary key and
#      two indexes in place): psql `\copy stock_quotes (...) FROM file WITH
#      CSV`, then POST /v1/admin/import/quotes?format=csv and ?format=parquet
#      with the export's files (curl --data-binary @file); rows/s of each and
#      the ratios import/psql (medians), each load checked by a count;
#   3. the peak resident memory (VmHWM) of mdc-server and mdc-gateway,
#      which ran nothing but the exports and imports above.
# It prints a Markdown report (and appends it to MDC_IMPORT_RESULTS when
# set), then stops what it started and drops the database.
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc:PW@127.0.0.1:54329/mdc \
#     bench/import/run.sh BUILD_DIR
#
# Environment (all optional): MDC_IMPORT_ROWS (2000000), MDC_IMPORT_ROUNDS
# (3), MDC_IMPORT_RESULTS, MDC_IMPORT_KEEP_DB (1: keep the database).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
admin_url=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
rows=${MDC_IMPORT_ROWS:-2000000}
rounds=${MDC_IMPORT_ROUNDS:-3}
symbols=1000
day=2035-09-04
db=mdc_bench_import_$$

log() { printf '[import %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

url="${admin_url%/*}/$db"
work=$(mktemp -d)
psql_() { psql -X -q -t -A -v ON_ERROR_STOP=1 "$url" "$@"; }

# shellcheck source=bench/stack.sh
source "$repo/bench/stack.sh"
cleanup() {
  set +e
  # Stops the gateway and the server; the database is the benchmark's.
  bench_stack_stop
  if [ "${MDC_IMPORT_KEEP_DB:-0}" != 1 ]; then
    psql -X -q "$admin_url" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 && log "dropped database $db"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE DATABASE $db" >/dev/null
# The stack: bench/stack.sh (scripts/stack.sh) on the benchmark's database.
bench_stack_start "$build_dir" "$url" \
  --server-env MDC_ACCESS_LOG=off \
  --gateway-env "TMPDIR=$work" --gateway-env MDC_ACCESS_LOG=off || die "the stack did not start"
base=$base_url token=$admin_token

log "storing the template quote and generating $rows quotes"
depth='{"buy":[{"price":99.5,"quantity":10},{"price":99.4,"quantity":20},{"price":99.3,"quantity":30},{"price":99.2,"quantity":40},{"price":99.1,"quantity":50}],"sell":[{"price":100.5,"quantity":10},{"price":100.6,"quantity":20},{"price":100.7,"quantity":30},{"price":100.8,"quantity":40},{"price":100.9,"quantity":50}]}'
payload='{"last_price":100.25,"day_change":1.5,"day_change_perc":1.52,"volume":123456,"average_price":99.9,"bid_quantity":10,"bid_price":100.2,"upper_circuit_limit":110,"lower_circuit_limit":90,"high_trade_range":105,"low_trade_range":95,"implied_volatility":12.5,"last_trade_quantity":5,"market_cap":1000000,"offer_price":100.3,"offer_quantity":12,"oi_day_change":0,"oi_day_change_percentage":0,"open_interest":0,"previous_open_interest":0,"total_buy_quantity":5000,"total_sell_quantity":6000,"week_52_high":120,"week_52_low":80,"last_trade_time":2072919300000,"ohlc":{"open":99,"high":101,"low":98,"close":98.8},"depth":'"$depth"'}'
curl -fsS -X POST "$base/v1/developer/collector/quotes" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' \
  -d '{"data":{"timestamp":"2035-09-03T09:15:00","quotes":[{"nseSymbol":"TEMPLATE","quoteData":{"status":"SUCCESS","payload":'"$payload"'}}]}}' >/dev/null
psql_ -c "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
  SELECT 'LD' || (g % $symbols), timestamptz '$day 09:15:00+05:30' + (g / $symbols) * interval '1 second',
         date '$day', t.last_price, t.volume, t.quote_data
  FROM generate_series(0, $rows - 1) g,
       (SELECT last_price, volume, quote_data FROM stock_quotes WHERE nse_symbol = 'TEMPLATE') t"
psql_ -c "DELETE FROM stock_quotes WHERE nse_symbol = 'TEMPLATE'"

log "writing the files"
columns="nse_symbol, observed_at, trading_day, last_price, volume, quote_data"
psql_ -c "\\copy (SELECT $columns FROM stock_quotes WHERE trading_day = '$day') TO '$work/psql.csv' WITH CSV"
for f in csv parquet; do
  curl -fsS "$base/v1/developer/export/quotes?start_date=$day&format=$f" -H "Authorization: Bearer $token" -o "$work/quotes.$f"
done
size() { du -m "$1" | cut -f1; }
log "files: psql CSV $(size "$work/psql.csv") MB, export CSV $(size "$work/quotes.csv") MB, Parquet $(size "$work/quotes.parquet") MB"

now() { date +%s.%N; }
# CPU seconds (user + system) of processes, from /proc; the PostgreSQL
# backends are those of the benchmark's database (the server's pool).
cpu_of() { for p in "$@"; do awk '{print ($14 + $15)}' "/proc/$p/stat" 2>/dev/null; done | awk -v hz="$(getconf CLK_TCK)" '{s += $1} END {printf "%.3f", s / hz}'; }
backends() { psql_ -c "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"; }
empty() { psql_ -c "TRUNCATE stock_quotes" -c "CHECKPOINT"; }
count() { psql_ -c "SELECT count(*) FROM stock_quotes WHERE trading_day = '$day'"; }
timed() { # name command...: runs it into an empty table; appends the seconds to $work/name.secs
  local name=$1 start end n pg_pids s0 g0 p0
  shift
  empty
  pg_pids=$(backends)
  s0=$(cpu_of "$server_pid") g0=$(cpu_of "$gateway_pid") p0=$(cpu_of $pg_pids)
  start=$(now)
  "$@" >"$work/$name.out"
  end=$(now)
  # The psql load runs in a backend of its own, gone by now: its CPU is not
  # counted (only the imports' rows of this table mean something).
  echo "$(cpu_of "$server_pid") $s0 $(cpu_of "$gateway_pid") $g0 $(cpu_of $pg_pids) $p0" |
    awk -v rows="$rows" '{printf "%.2f %.2f %.2f\n", ($1-$2)*1e6/rows, ($3-$4)*1e6/rows, ($5-$6)*1e6/rows}' >>"$work/$name.cpu"
  n=$(count)
  [ "$n" = "$rows" ] || die "$name stored $n rows, want $rows ($(head -c 300 "$work/$name.out"))"
  echo "$end - $start" | bc >>"$work/$name.secs"
}
import_() { curl -fsS -X POST "$base/v1/admin/import/quotes?format=$1" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/octet-stream' --data-binary "@$work/quotes.$1"; }
for r in $(seq "$rounds"); do
  log "round $r of $rounds"
  timed psql psql_ -c "\\copy stock_quotes ($columns) FROM '$work/psql.csv' WITH CSV"
  timed csv import_ csv
  timed parquet import_ parquet
done
# The middle value; of an even count, the mean of the two middle ones.
median() { sort -g "$work/$1.secs" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
psql_s=$(median psql)
csv_s=$(median csv)
parquet_s=$(median parquet)
# cpu_col name column: the median of a column of $work/name.cpu.
cpu_col() { awk -v c="$2" '{print $c}' "$work/$1.cpu" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
rate() { echo "$rows / $1" | bc; }
ratio() { echo "scale=2; $2 / $1" | bc; }
rss() { awk '/VmHWM/ {printf "%d", $2/1024}' "/proc/$1/status"; }
server_rss=$(rss "$server_pid")
gateway_rss=$(rss "$gateway_pid")

report=$(
  cat <<REPORT
### Import benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $rows full quotes of $symbols symbols, one trading day

Each load into an empty \`stock_quotes\` (primary key and two indexes in place); files: psql's CSV
$(size "$work/psql.csv") MB, the export's CSV $(size "$work/quotes.csv") MB, its Parquet $(size "$work/quotes.parquet") MB.

| path | seconds (median of $rounds) | rows/s | against psql \\copy |
|---|---|---|---|
| psql \\copy stock_quotes (...) FROM file WITH CSV | $psql_s | $(rate "$psql_s") | 1 |
| POST /v1/admin/import/quotes, CSV | $csv_s | $(rate "$csv_s") | $(ratio "$csv_s" "$psql_s") |
| POST /v1/admin/import/quotes, Parquet | $parquet_s | $(rate "$parquet_s") | $(ratio "$parquet_s" "$psql_s") |

CPU per imported row (µs, median of $rounds; /proc of each process, the PostgreSQL backends of the
server's pool):

| import | mdc-server | mdc-gateway | PostgreSQL |
|---|---:|---:|---:|
| CSV | $(cpu_col csv 1) | $(cpu_col csv 2) | $(cpu_col csv 3) |
| Parquet | $(cpu_col parquet 1) | $(cpu_col parquet 2) | $(cpu_col parquet 3) |

Peak RSS (VmHWM) over the exports and imports: mdc-server $server_rss MB, mdc-gateway $gateway_rss MB.
REPORT
)
echo "$report"
if [ -n "${MDC_IMPORT_RESULTS:-}" ]; then echo "$report" >>"$MDC_IMPORT_RESULTS"; fi
