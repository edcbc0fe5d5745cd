#!/usr/bin/env bash
# Compacted history (issue 32): bytes per quote row-wise and compacted, the
# compaction's throughput and peak RSS, and reads of a compacted day against
# the same day row-wise.
#
# On the PostgreSQL server MDC_BENCH_DATABASE_URL points at (a superuser
# URL) it creates a database of its own, starts the built mdc-server and
# mdc-gateway on free local ports, and for each shape (full, short):
#   1. writes one trading day through SaveQuotes (bench/compact: SYMBOLS
#      symbols, a quote a second each for SECONDS seconds, prices as random
#      walks, volumes rising, depth around the price; a month per shape so
#      each has its own partition), then VACUUM (ANALYZE) and CHECKPOINT;
#   2. moves the rows into the month's partition (as the hourly maintenance
#      does for a backfilled month) and records the size of that partition (heap, indexes and TOAST:
#      pg_total_relation_size) per quote;
#   3. reads the day row-wise ROUNDS times: the CSV export of the day, the
#      1-minute candles of every symbol (the candle export of the day),
#      an as-of and a cross-section of every symbol;
#   4. compacts it with `mdc-server compact --through DAY` under
#      /usr/bin/time (wall seconds, peak RSS), records the growth of
#      stock_quote_batches (heap, index, TOAST) per quote, and runs the
#      same reads again, checking each answers byte for byte the same.
# Then a day of NIFTY quotes (bench/compact/nifty.go: MDC_COMPACT_NIFTY_SECONDS
# quotes, one a second, the level a random walk) the same way: bytes per
# quote row-wise and compacted, the compaction, the NIFTY export and as-of
# before and after (byte for byte), and SAMPLES NIFTY as-of reads spread
# over the day for their p99. Then it prints markdown tables, stops
# what it started and drops the database.
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc:PW@127.0.0.1:54329/mdc \
#     bench/compact/run.sh BUILD_DIR
#
# Besides, SAMPLES times each, an as-of of one symbol and a cross-section
# of every symbol at instants spread over the day, for their p99 latency.
#
# Environment (optional): MDC_COMPACT_SYMBOLS (20), MDC_COMPACT_SECONDS
# (1000: a batch is 1,000 quotes of a symbol, so a day of the market fills
# them), MDC_COMPACT_NIFTY_SECONDS (20000), MDC_COMPACT_ROUNDS (3),
# MDC_COMPACT_SAMPLES (100), MDC_COMPACT_SHAPES ("full short"),
# MDC_COMPACT_KEEP_DB=1 keeps the database. Reads of a day of 1,000
# symbols (issue 32's goals): MDC_COMPACT_SYMBOLS=1000 MDC_COMPACT_SECONDS=60.
#
# MDC_COMPACT_TWIN=1 adds interleaved reads: after the compaction it writes
# the same quotes again on the next day (the generator is seeded: a twin
# day, row-wise) and reads the two days in turns, each read of the row-wise
# twin followed by the same read of the compacted day (ROUNDS exports and
# candle exports, SAMPLES as-of and cross-section reads), so both see the
# same machine: on a shared, noisy machine the reads before and after the
# compaction are a minute apart and drift with it.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
admin_url=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
symbols=${MDC_COMPACT_SYMBOLS:-20}
seconds=${MDC_COMPACT_SECONDS:-1000}
rounds=${MDC_COMPACT_ROUNDS:-3}
samples=${MDC_COMPACT_SAMPLES:-100}
shapes=${MDC_COMPACT_SHAPES:-full short}
quotes=$((symbols * seconds))
db=mdc_bench_compact_$$
go=go
command -v "$go" >/dev/null 2>&1 || go=/usr/local/go/bin/go

log() { printf '[compact %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

url="${admin_url%/*}/$db"
work=$(mktemp -d)
psql_() { psql -X -q -t -A -v ON_ERROR_STOP=1 "$url" "$@"; }

# pg_cpu: CPU clock ticks of the PostgreSQL cluster so far (the postmaster
# and every backend it has reaped: a connection's backend ends with it),
# when the cluster runs on this machine; 0 otherwise.
pg_cpu() {
  local pid_file
  pid_file="$(psql -X -q -t -A "$admin_url" -c 'SHOW data_directory')/postmaster.pid"
  if [ -r "$pid_file" ]; then
    awk '{print $14 + $15 + $16 + $17}' "/proc/$(head -1 "$pid_file")/stat"
  else
    echo 0
  fi
}

# shellcheck source=bench/stack.sh
source "$repo/bench/stack.sh"
cleanup() {
  set +e
  # Stops the gateway and the server; the database is the benchmark's.
  bench_stack_stop
  if [ "${MDC_COMPACT_KEEP_DB:-0}" != 1 ]; then
    psql -X -q "$admin_url" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 && log "dropped database $db"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "building bench/compact"
(cd "$here" && "$go" build -o "$work/compact" .)

psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE DATABASE $db" >/dev/null
# The stack: bench/stack.sh (scripts/stack.sh) on the benchmark's database.
bench_stack_start "$build_dir" "$url" \
  --server-env MDC_ACCESS_LOG=off --server-env MDC_RATE_LIMIT_READS=0 --server-env MDC_RATE_LIMIT_WRITES=0 \
  --gateway-env MDC_ACCESS_LOG=off || die "the stack did not start"
base=$base_url token=$admin_token

now() { date +%s.%N; }
get() { curl -sS --fail-with-body "$base$1" -H "Authorization: Bearer $token" || { log "GET $1 failed"; return 1; }; }
# timed NAME PATH: fetches PATH into $work/NAME.out, appends the seconds.
timed() {
  local start end
  start=$(now)
  get "$2" >"$work/$1.out"
  end=$(now)
  echo "$end - $start" | bc >>"$work/$1.secs"
}
median() { sort -g "$work/$1.secs" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# p99 NAME: the 99th percentile of NAME's seconds (nearest rank).
p99() { sort -g "$work/$1.secs" | awk '{a[NR]=$1} END {r = int(NR * 0.99 + 0.99); print a[r < 1 ? 1 : r]}'; }
symbol_list() { seq 0 $((symbols - 1)) | awk -v p="$1" '{printf "%s%s%04d", (NR>1?",":""), p, $1}'; }

# reads STAGE DAY PREFIX: the reads, ROUNDS times each.
reads() {
  local stage=$1 day=$2 prefix=$3 list
  list=$(symbol_list "$prefix")
  for _ in $(seq "$rounds"); do
    timed "$stage.export" "/v1/developer/export/quotes?start_date=$day&end_date=$day&format=csv"
    timed "$stage.candles" "/v1/developer/export/candles?start_date=$day&end_date=$day&interval=1minute"
    timed "$stage.asof" "/v1/developer/quote?symbol=${prefix}0007&datetime=${day}T09:16:00"
    timed "$stage.xsection" "/v1/developer/quotes?symbols=$list&datetime=${day}T09:16:00"
  done
  # Latency samples at instants spread over the day (the same in both
  # stages), one symbol after another for the as-of.
  local i at
  for i in $(seq 0 $((samples - 1))); do
    at=$(date -u -d "$day 09:15:00 UTC + $((i * seconds / samples)) seconds" +%H:%M:%S)
    timed "$stage.asof_p" "/v1/developer/quote?symbol=${prefix}$(printf %04d $((i % symbols)))&datetime=${day}T$at"
    timed "$stage.xsection_p" "/v1/developer/quotes?symbols=$list&datetime=${day}T$at"
  done
}

# interleaved SHAPE TWIN_DAY DAY PREFIX: the twin reads (MDC_COMPACT_TWIN).
interleaved() {
  local shape=$1 twin=$2 day=$3 prefix=$4 list i at stage d
  list=$(symbol_list "$prefix")
  for _ in $(seq "$rounds"); do
    for stage in twin alt; do
      if [ "$stage" = twin ]; then d=$twin; else d=$day; fi
      timed "$shape.$stage.export" "/v1/developer/export/quotes?start_date=$d&end_date=$d&format=csv"
    done
    for stage in twin alt; do
      if [ "$stage" = twin ]; then d=$twin; else d=$day; fi
      timed "$shape.$stage.candles" "/v1/developer/export/candles?start_date=$d&end_date=$d&interval=1minute"
    done
  done
  for i in $(seq 0 $((samples - 1))); do
    for stage in twin alt; do
      if [ "$stage" = twin ]; then d=$twin; else d=$day; fi
      at=$(date -u -d "$d 09:15:00 UTC + $((i * seconds / samples)) seconds" +%H:%M:%S)
      timed "$shape.$stage.asof_p" "/v1/developer/quote?symbol=${prefix}$(printf %04d $((i % symbols)))&datetime=${d}T$at"
      timed "$shape.$stage.xsection_p" "/v1/developer/quotes?symbols=$list&datetime=${d}T$at"
    done
  done
}

rows=()
read_rows=()
twin_rows=()
for shape in $shapes; do
  if [ "$shape" = full ]; then day=2025-06-02 prefix=BF; else day=2025-07-01 prefix=BS; fi
  month=${day:0:4}_${day:5:2}
  log "$shape: writing $quotes quotes on $day"
  "$work/compact" write -url "$base" -token "$token" -day "$day" -symbols "$symbols" \
    -seconds "$seconds" -shape "$shape" -prefix "$prefix"
  # The month's partition, as the hourly maintenance makes it for a
  # backfilled month (the rows move out of the DEFAULT partition).
  psql_ -c "SELECT mdc_ensure_partitions(0, 'stock_quotes')" >/dev/null
  psql_ -c "VACUUM (ANALYZE) stock_quotes" -c "CHECKPOINT"
  stored=$(psql_ -c "SELECT count(*) FROM stock_quotes WHERE trading_day = '$day'")
  [ "$stored" = "$quotes" ] || die "stored $stored quotes, want $quotes"
  row_bytes=$(psql_ -c "SELECT pg_total_relation_size('stock_quotes_p$month')")
  reads "$shape.rows" "$day" "$prefix"

  batches_before=$(psql_ -c "SELECT pg_total_relation_size('stock_quote_batches')")
  log "$shape: compacting"
  pg_cpu_before=$(pg_cpu)
  start=$(now)
  # MDC_COMPACT_PERF=DIR records a perf profile of the compaction there.
  profile=()
  [ -n "${MDC_COMPACT_PERF:-}" ] && profile=(perf record -g -o "$MDC_COMPACT_PERF/$shape.perf" --)
  /usr/bin/time -f '%M %U %S' -o "$work/$shape.rss" "${profile[@]}" "$build_dir/mdc-server" compact --through "$day" \
    --database-url "$url" >"$work/$shape.compact" 2>>"$work/compact.log"
  end=$(now)
  compact_s=$(echo "$end - $start" | bc)
  pg_cpu_s=$(echo "scale=2; ($(pg_cpu) - $pg_cpu_before) / $(getconf CLK_TCK)" | bc)
  grep -q "quotes $quotes " "$work/$shape.compact" || die "compaction: $(cat "$work/$shape.compact")"
  psql_ -c "VACUUM (ANALYZE) stock_quote_batches" -c "CHECKPOINT"
  batch_bytes=$(($(psql_ -c "SELECT pg_total_relation_size('stock_quote_batches')") - batches_before))
  column_bytes=$(psql_ -c "SELECT sum(pg_column_size(columns)) FROM stock_quote_batches WHERE trading_day = '$day'")
  left=$(psql_ -c "SELECT pg_total_relation_size('stock_quotes_p$month')")
  reads "$shape.compacted" "$day" "$prefix"
  for read in export candles asof xsection; do
    cmp -s "$work/$shape.rows.$read.out" "$work/$shape.compacted.$read.out" ||
      die "$shape: the $read read answers differently after compaction"
  done
  ratio() { echo "scale=2; $(median "$shape.rows.$1") / $(median "$shape.compacted.$1")" | bc; }
  # "median row-wise / compacted; p99 row-wise / compacted (compacted slower by)" in ms.
  p99s() {
    echo "$(median "$shape.rows.$1") $(median "$shape.compacted.$1") $(p99 "$shape.rows.$1") $(p99 "$shape.compacted.$1")" |
      awk '{printf "%.1f / %.1f; %.1f / %.1f (%.2fx)", $1 * 1000, $2 * 1000, $3 * 1000, $4 * 1000, $4 / $3}'
  }
  export_rates=$(echo "$(median "$shape.rows.export") $(median "$shape.compacted.export")" |
    awk -v q="$quotes" '{printf "%d / %d", q / $1, q / $2}')
  if [ "${MDC_COMPACT_TWIN:-0}" = 1 ]; then
    twin=$(date -u -d "$day + 1 day" +%Y-%m-%d)
    log "$shape: writing the twin day $twin row-wise"
    "$work/compact" write -url "$base" -token "$token" -day "$twin" -symbols "$symbols" \
      -seconds "$seconds" -shape "$shape" -prefix "$prefix"
    psql_ -c "VACUUM (ANALYZE) stock_quotes" -c "CHECKPOINT"
    interleaved "$shape" "$twin" "$day" "$prefix"
    # Gone before the next shape's compaction, which would take it too.
    psql_ -c "DELETE FROM stock_quotes WHERE trading_day = '$twin'" -c "VACUUM stock_quotes"
    twin_ratio() { echo "scale=2; $(median "$shape.twin.$1") / $(median "$shape.alt.$1")" | bc; }
    twin_p99() {
      echo "$(p99 "$shape.twin.$1") $(p99 "$shape.alt.$1")" |
        awk '{printf "%.1f / %.1f (%.2fx)", $1 * 1000, $2 * 1000, $2 / $1}'
    }
    twin_rows+=("| $shape | $(twin_ratio export) | $(twin_ratio candles) | $(twin_p99 asof_p) | $(twin_p99 xsection_p) |")
  fi
  read_rows+=("| $shape | $export_rates | $(ratio export) | $(ratio candles) | $(p99s asof_p) | $(p99s xsection_p) |")
  rows+=("| $shape | $((row_bytes / quotes)) | $((batch_bytes / quotes)) | $((column_bytes / quotes)) | $(echo "scale=1; $row_bytes / $batch_bytes" | bc) | $((left / 1024)) | $(echo "$quotes / $compact_s" | bc) | $(awk '{print $2 + $3}' "$work/$shape.rss") | $pg_cpu_s | $(awk -v q="$quotes" -v pg="$pg_cpu_s" '{c = $2 + $3 + pg; print (c > 0 ? int(q / c) : "-")}' "$work/$shape.rss") | $(($(awk '{print $1}' "$work/$shape.rss") / 1024)) | $(ratio export) | $(ratio candles) | $(ratio asof) | $(ratio xsection) |")
done

# NIFTY (one series, one quote a request): bytes per NIFTY quote row-wise
# and compacted in the same run, the compaction, and the NIFTY export and
# as-of checked byte for byte.
nifty_quotes=${MDC_COMPACT_NIFTY_SECONDS:-20000}
nday=2025-08-01
log "nifty: writing $nifty_quotes NIFTY quotes on $nday"
"$work/compact" nifty -url "$base" -token "$token" -day "$nday" -seconds "$nifty_quotes"
psql_ -c "SELECT mdc_ensure_partitions(0, 'nifty_quotes')" >/dev/null
psql_ -c "VACUUM (ANALYZE) nifty_quotes" -c "CHECKPOINT"
stored=$(psql_ -c "SELECT count(*) FROM nifty_quotes WHERE trading_day = '$nday'")
[ "$stored" = "$nifty_quotes" ] || die "stored $stored NIFTY quotes, want $nifty_quotes"
nifty_row_bytes=$(psql_ -c "SELECT pg_total_relation_size('nifty_quotes_p2025_08')")
nifty_reads() {
  for _ in $(seq "$rounds"); do
    timed "$1.export" "/v1/developer/export/nifty?start_date=$nday&end_date=$nday&format=csv"
    timed "$1.asof" "/v1/developer/nifty?datetime=${nday}T12:00:00"
  done
  # As-of latency samples at instants spread over the day (the same in
  # both stages), for the p99.
  local i at
  for i in $(seq 0 $((samples - 1))); do
    at=$(date -u -d "$nday 09:15:00 UTC + $((i * nifty_quotes / samples)) seconds" +%H:%M:%S)
    timed "$1.asof_p" "/v1/developer/nifty?datetime=${nday}T$at"
  done
}
nifty_reads nifty.rows
nifty_batches_before=$(psql_ -c "SELECT pg_total_relation_size('nifty_quote_batches')")
log "nifty: compacting"
start=$(now)
/usr/bin/time -f '%M %U %S' -o "$work/nifty.rss" "$build_dir/mdc-server" compact --through "$nday" \
  --database-url "$url" >"$work/nifty.compact" 2>>"$work/compact.log"
end=$(now)
nifty_compact_s=$(echo "$end - $start" | bc)
grep -q "nifty_quotes $nifty_quotes " "$work/nifty.compact" || die "NIFTY compaction: $(cat "$work/nifty.compact")"
psql_ -c "VACUUM (ANALYZE) nifty_quote_batches" -c "CHECKPOINT"
nifty_batch_bytes=$(($(psql_ -c "SELECT pg_total_relation_size('nifty_quote_batches')") - nifty_batches_before))
nifty_column_bytes=$(psql_ -c "SELECT sum(pg_column_size(columns)) FROM nifty_quote_batches WHERE trading_day = '$nday'")
nifty_reads nifty.compacted
for read in export asof asof_p; do
  cmp -s "$work/nifty.rows.$read.out" "$work/nifty.compacted.$read.out" ||
    die "nifty: the $read read answers differently after compaction"
done
nifty_ratio() { echo "scale=2; $(median "nifty.rows.$1") / $(median "nifty.compacted.$1")" | bc; }
# NIFTY export rows/s row-wise / compacted, and the as-of samples' median
# and p99 (ms) row-wise / compacted (p99 slower by).
nifty_export_rates=$(echo "$(median nifty.rows.export) $(median nifty.compacted.export)" |
  awk -v q="$nifty_quotes" '{printf "%d / %d", q / $1, q / $2}')
nifty_asof_p99s=$(echo "$(median nifty.rows.asof_p) $(median nifty.compacted.asof_p) $(p99 nifty.rows.asof_p) $(p99 nifty.compacted.asof_p)" |
  awk '{printf "%.1f / %.1f; %.1f / %.1f (%.2fx)", $1 * 1000, $2 * 1000, $3 * 1000, $4 * 1000, $4 / $3}')

# The serving mdc-server's peak RSS over the whole run (its cache of
# decoded batches included).
server_peak=$(awk '/^VmHWM/ {print int($2 / 1024)}' "/proc/$server_pid/status" 2>/dev/null || echo -)

cat <<EOF

$symbols symbols x $seconds quotes ($quotes quotes a shape), $rounds rounds of reads (medians).

| shape | bytes/quote row-wise | bytes/quote compacted | of which the encoded columns | smaller by | partition left (KiB) | compaction quotes/s | mdc-server CPU s (user+sys) | PostgreSQL CPU s | quotes per CPU second (both) | compaction peak RSS (MB) | export speed compacted/row-wise | candles speed | as-of speed | cross-section speed |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$(printf '%s\n' "${rows[@]}")

Speeds are row-wise seconds / compacted seconds (above 1: the compacted day reads faster).

NIFTY: $nifty_quotes quotes, one a second.

| kind | bytes/quote row-wise | bytes/quote compacted | of which the encoded columns | smaller by | compaction quotes/s | compaction peak RSS (MB) | NIFTY export speed compacted/row-wise | NIFTY as-of speed | NIFTY export rows/s row-wise / compacted | NIFTY as-of ms ($samples samples): median row-wise / compacted; p99 row-wise / compacted (p99 slower by) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| nifty | $((nifty_row_bytes / nifty_quotes)) | $((nifty_batch_bytes / nifty_quotes)) | $((nifty_column_bytes / nifty_quotes)) | $(echo "scale=1; $nifty_row_bytes / $nifty_batch_bytes" | bc) | $(echo "$nifty_quotes / $nifty_compact_s" | bc) | $(($(awk '{print $1}' "$work/nifty.rss") / 1024)) | $(nifty_ratio export) | $(nifty_ratio asof) | $nifty_export_rates | $nifty_asof_p99s |

Reads of the day ($symbols symbols): export rows/s (median of $rounds), median and p99 of $samples as-of and cross-section reads of every symbol.

| shape | export rows/s row-wise / compacted | export speed | candle export speed | as-of ms: median row-wise / compacted; p99 row-wise / compacted (p99 slower by) | cross-section of every symbol, same |
|---|---:|---:|---:|---:|---:|
$(printf '%s\n' "${read_rows[@]}")

$(if [ ${#twin_rows[@]} -gt 0 ]; then
  printf '%s\n\n' "Interleaved with a row-wise twin day (MDC_COMPACT_TWIN=1): speeds are the twin's seconds / the compacted day's (medians of $rounds), p99 of $samples samples in ms, twin / compacted (compacted slower by)."
  printf '%s\n' "| shape | export speed | candle export speed | as-of p99 | cross-section p99 |" "|---|---:|---:|---:|---:|"
  printf '%s\n' "${twin_rows[@]}"
fi)

Peak RSS of the serving mdc-server over the run: ${server_peak} MB.
EOF
