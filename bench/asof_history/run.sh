#!/usr/bin/env bash
# As-of read latency over a large quote history (issue 15, deliver 5): does a
# GET /v1/developer/quote?symbol&datetime stay as fast when the history grows
# from one day to months?
#
# On the PostgreSQL server MDC_BENCH_DATABASE_URL points at (a superuser URL)
# it creates a database of its own, starts the built mdc-server (which applies
# the migrations) and mdc-gateway on free local ports (bench/stack.sh),
# creates a developer, and then, for each size of MDC_ASOF_SIZES in turn
# (the history grows, it is not generated again):
#   1. generates the missing trading days with SQL, one INSERT ... SELECT (one
#      transaction) per day: 2,000 symbols x one quote a minute from 09:15 to
#      15:30 IST (376 a symbol, 752,000 rows a day), weekdays from
#      MDC_ASOF_FIRST_DAY on. Every day copies one day's template, whose
#      quote_data bytes bench/asof_history builds with the generated protobuf
#      code; before anything is generated the script stores 300 of the
#      template's quotes through SaveQuotes and checks that the server stored
#      exactly the template's bytes and columns. Only the named columns are
#      written; the defaults fill the rest (written_at, seq, txid, ...).
#   2. VACUUM (ANALYZE), CHECKPOINT, and records the table and index sizes;
#   3. measures as-of reads of random symbols at random instants of the whole
#      history (bench/asof_history run: every answer is checked), through the
#      gateway (HTTP) and straight to the server (gRPC), sequentially and
#      with several clients, and the server's as-of statement alone with
#      pgbench (taken from storage/quote_repository.cc, quotes_find_latest,
#      at random symbols and instants as well), MDC_ASOF_ROUNDS times
#      alternating, and prints the medians.
# Then it stops what it started and drops the database (unless kept).
#
#   MDC_BENCH_DATABASE_URL=postgres://mdc:PW@127.0.0.1:54329/mdc \
#     bench/asof_history/run.sh BUILD_DIR
#
# Environment (all optional):
#   MDC_ASOF_SIZES        history sizes in rows, measured in turn; each is
#                         rounded up to whole days ("1000000 10000000")
#   MDC_ASOF_FIRST_DAY    first trading day of the history, a Monday (2026-05-04)
#   MDC_ASOF_CONNS        concurrent clients ("1 8")
#   MDC_ASOF_MODES        "http grpc pgbench"
#   MDC_ASOF_ROUNDS       rounds per size; the table shows medians (3)
#   MDC_ASOF_DURATION     measured seconds per test (10)
#   MDC_ASOF_WARMUP       warm-up seconds per test (2)
#   MDC_ASOF_GEN_LIMIT    seconds of generation per size after which it stops
#                         adding days and measures what it has (2400)
#   MDC_ASOF_MIN_FREE_GB  stop generating below this much free disk (8)
#   MDC_ASOF_PREPARE_SQL  SQL run once after the server applied its
#                         migrations, before generating (e.g. partitions)
#   MDC_ASOF_DB           database name (mdc_bench_asof_<pid>)
#   MDC_ASOF_REUSE        1: the database exists and holds a history made by
#                         this script: keep it and add days to it
#   MDC_ASOF_KEEP_DB      1: do not drop the database at the end
#   MDC_ASOF_RESULTS      file the result lines are appended to
#   MDC_ASOF_SOURCE       the source tree BUILD_DIR was built from, whose
#                         storage/quote_repository.cc holds the as-of
#                         statement pgbench runs (this checkout)
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${MDC_ASOF_SOURCE:-$here/../..}
admin_url=${MDC_BENCH_DATABASE_URL:?set MDC_BENCH_DATABASE_URL to a superuser URL}
sizes=${MDC_ASOF_SIZES:-"1000000 10000000"}
first_day=${MDC_ASOF_FIRST_DAY:-2026-05-04}
conns_list=${MDC_ASOF_CONNS:-"1 8"}
modes=${MDC_ASOF_MODES:-"http grpc pgbench"}
rounds=${MDC_ASOF_ROUNDS:-3}
duration=${MDC_ASOF_DURATION:-10}
warmup=${MDC_ASOF_WARMUP:-2}
gen_limit=${MDC_ASOF_GEN_LIMIT:-2400}
min_free_gb=${MDC_ASOF_MIN_FREE_GB:-8}
db=${MDC_ASOF_DB:-mdc_bench_asof_$$}
symbols=2000
rows_per_day=$((symbols * 376))
go=go
command -v "$go" >/dev/null 2>&1 || go=/usr/local/go/bin/go

log() { printf '[asof %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

url="${admin_url%/*}/$db"
work=$(mktemp -d)
results=${MDC_ASOF_RESULTS:-$work/results.txt}
psql_() { psql -X -q -t -A -v ON_ERROR_STOP=1 "$url" "$@"; }

# shellcheck source=bench/stack.sh
source "$here/../stack.sh"
cleanup() {
  set +e
  bench_stack_stop
  if [ "${MDC_ASOF_KEEP_DB:-0}" != 1 ]; then
    psql -X -q "$admin_url" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 && log "dropped database $db"
  else
    log "kept database $db"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "building bench/asof_history"
(cd "$here" && "$go" build -o "$work/asof_history" .)
tool=$work/asof_history

[ "$(date -u -d "$first_day" +%u)" = 1 ] || die "MDC_ASOF_FIRST_DAY must be a Monday (pgbench counts weekdays from it)"
pgbench=${PG_BIN:-/usr/lib/postgresql/15/bin}/pgbench
# The server's as-of statement for pgbench, its parameters replaced by a
# random symbol ($1), the start of a random trading day ($2) and a random
# second of that day's session ($3).
python3 - "$source_dir/storage/quote_repository.cc" >"$work/asof.sql" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r'"quotes_find_latest",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\}', src)
if not m:
    sys.exit("quotes_find_latest not found in " + sys.argv[1])
sql = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
# $4, $5 (migration 0010 on): the trading days of $2 and $3
# (storage/trading_day_bounds.h).
params = {"$1": "('SYM' || lpad(:sym::text, 4, '0'))", "$2": "to_timestamp(:day_start)", "$3": "to_timestamp(:at)",
          "$4": "(to_timestamp(:day_start) AT TIME ZONE 'Asia/Kolkata')::date",
          "$5": "(to_timestamp(:at) AT TIME ZONE 'Asia/Kolkata')::date"}
if set(re.findall(r"\$[0-9]+", sql)) - set(params):
    sys.exit("quotes_find_latest has parameters this script does not know: " + sql)
for k in sorted(params, reverse=True):
    sql = sql.replace(k, params[k])
print("\\set sym random(1, :symbols)")
print("\\set d random(0, :days - 1)")
print("\\set day_start :day0 + 86400 * (7 * (:d / 5) + :d % 5)")
print("\\set at :day_start + 33300 + random(0, 22559)")
print(sql + ";")
PY
day0=$(date -d "$first_day 00:00 +0530" +%s)

if [ "${MDC_ASOF_REUSE:-0}" != 1 ]; then
  psql -X -q "$admin_url" -c "CREATE DATABASE $db" >/dev/null
fi
# The stack: bench/stack.sh (scripts/stack.sh) on the benchmark's database.
bench_stack_start "$build_dir" "$url" \
  --server-env MDC_ACCESS_LOG=off --gateway-env MDC_ACCESS_LOG=off || die "the stack did not start"
token=$admin_token

# A developer of its own (the history's written_by).
dev_name=asof_bench_$$
developer=$(curl -fsS -X POST "$base_url/v1/admin/developers" \
  -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "{\"username\":\"$dev_name\",\"role\":\"developer\"}")
dev_token=$(jq -r .token <<<"$developer")
dev_id=$(psql_ -c "SELECT id FROM developers WHERE username = '$dev_name'")
[ -n "$dev_id" ] || die "could not create the developer: $developer"

# The history's trading days: weekdays from the first day, enough for the
# largest size.
max_days=0
for size in $sizes; do
  n=$(( (size + rows_per_day - 1) / rows_per_day ))
  [ "$n" -gt "$max_days" ] && max_days=$n
done
mapfile -t trading_days < <(python3 -c '
import datetime, sys
d = datetime.date.fromisoformat(sys.argv[1]); n = int(sys.argv[2])
while n > 0:
    if d.isoweekday() <= 5:
        print(d); n -= 1
    d += datetime.timedelta(days=1)' "$first_day" "$max_days")
trading_day() { echo "${trading_days[$1]}"; }

# A partitioned schema (migration 0010): the history's months get their
# partitions before any row is written, as a server creates them ahead;
# otherwise the rows would land in the DEFAULT partition.
if [ "$(psql_ -c "SELECT to_regproc('mdc_create_month_partition') IS NOT NULL")" = t ]; then
  created=$(psql_ -c "SELECT count(*) FILTER (WHERE mdc_create_month_partition('stock_quotes', m::date))
    FROM generate_series(date_trunc('month', DATE '$first_day'), DATE '${trading_days[-1]}', interval '1 month') m")
  log "partitioned schema: created $created monthly partition(s) of stock_quotes for $first_day..${trading_days[-1]}"
fi

if [ -n "${MDC_ASOF_PREPARE_SQL:-}" ]; then
  log "running MDC_ASOF_PREPARE_SQL"
  psql_ -c "$MDC_ASOF_PREPARE_SQL" >&2
fi

# --- One day's template, checked against what the server stores ---------------
log "building the template day ($rows_per_day quotes)"
psql_ -c "DROP TABLE IF EXISTS bench_asof_template;
  CREATE UNLOGGED TABLE bench_asof_template (nse_symbol text NOT NULL, minute int NOT NULL,
    last_price float8 NOT NULL, volume float8 NOT NULL, quote_data bytea NOT NULL)"
"$tool" template -symbols "$symbols" | psql_ -c "COPY bench_asof_template FROM STDIN"
psql_ -c "ANALYZE bench_asof_template"

existing=$(psql_ -c "SELECT count(*) FROM stock_quotes")
if [ "$existing" = 0 ]; then
  log "storing 300 template quotes through SaveQuotes and comparing the stored bytes"
  "$tool" save -grpc "$grpc_addr" -token "$dev_token" -timestamp "${first_day}T09:15:00" -symbols 300
  same=$(psql_ -c "SELECT count(*) FROM stock_quotes s JOIN bench_asof_template t
      ON t.nse_symbol = s.nse_symbol AND t.minute = 0
    WHERE s.trading_day = DATE '$first_day'
      AND s.observed_at = (DATE '$first_day' + TIME '09:15') AT TIME ZONE 'Asia/Kolkata'
      AND s.quote_data = t.quote_data AND s.last_price = t.last_price AND s.volume = t.volume")
  [ "$same" = 300 ] || die "only $same of 300 quotes stored through the API match the template"
  psql_ -c "DELETE FROM stock_quotes WHERE trading_day = DATE '$first_day'"
  log "the template's bytes and columns match what SaveQuotes stores (300 of 300)"
fi

# days_stored: trading days already in the history (whole days only).
days_stored() {
  psql_ -c "SELECT count(DISTINCT trading_day) FROM stock_quotes WHERE trading_day >= DATE '$first_day'"
}

# sizes_line: table bytes, index bytes (over every partition, if any), and
# the number of partitions (0: not partitioned).
sizes_line() {
  psql_ -F ' ' -c "WITH leaves AS (
      SELECT relid FROM pg_partition_tree('stock_quotes') WHERE isleaf
      UNION ALL SELECT 'stock_quotes'::regclass
       WHERE NOT EXISTS (SELECT FROM pg_partition_tree('stock_quotes')))
    SELECT sum(pg_table_size(relid)), sum(pg_indexes_size(relid)),
           (SELECT count(*) FROM pg_partition_tree('stock_quotes') WHERE isleaf)
      FROM leaves"
}

# pgbench_run CONNS DAYS: the as-of statement alone, as a RESULT line.
pgbench_run() {
  local conns=$1 days=$2 jobs=2 pgout
  [ "$conns" -lt 2 ] && jobs=1
  local args=(-n -M prepared -c "$conns" -j "$jobs" -f "$work/asof.sql"
    -D symbols="$symbols" -D days="$days" -D day0="$day0")
  "$pgbench" "${args[@]}" -T "$warmup" "$url" >/dev/null 2>&1
  rm -f "$work"/pgbench_log*
  pgout=$("$pgbench" "${args[@]}" -T "$duration" --log --log-prefix="$work/pgbench_log" "$url" 2>&1) ||
    die "pgbench failed: $pgout"
  awk '
    /number of transactions actually processed/ {split($0, a, ": "); split(a[2], b, "/"); n=b[1]}
    /number of failed transactions/ {split($0, a, ": "); split(a[2], b, " "); f=b[1]}
    /^tps = / {tps=$3}
    END {printf "RESULT requests=%d errors=%d wrong=0 seconds='"$duration"' rps=%.1f ", n, f, tps}' <<<"$pgout"
  cat "$work"/pgbench_log* | awk '{print $3}' | sort -n | awk '
    {v[NR]=$1} END {printf "p50_us=%d p90_us=%d p99_us=%d max_us=%d\n", v[int(NR*0.5)], v[int(NR*0.9)], v[int(NR*0.99)], v[NR]}'
  rm -f "$work"/pgbench_log*
}

{
  echo "# as-of history benchmark $(date -u +%FT%TZ)"
  echo "# machine: $(nproc) cores, $(uname -sr), $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo); PostgreSQL $(psql_ -c 'SHOW server_version'); load $(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$results"

for size in $sizes; do
  want_days=$(( (size + rows_per_day - 1) / rows_per_day ))
  have=$(days_stored)
  gen_start=$(date +%s)
  while [ "$have" -lt "$want_days" ]; do
    if [ $(( $(date +%s) - gen_start )) -ge "$gen_limit" ]; then
      log "generation limit of ${gen_limit}s reached at $have days: measuring what there is"
      break
    fi
    free=$(df -BG --output=avail / | tail -1 | tr -dc 0-9)
    if [ "${free:-0}" -lt "$min_free_gb" ]; then
      log "only ${free} GB free disk: stopping generation at $have days"
      break
    fi
    day=$(trading_day "$have")
    t0=$(date +%s.%N)
    psql_ -c "SET synchronous_commit = off;
      INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data, written_by)
      SELECT t.nse_symbol, (DATE '$day' + TIME '09:15' + t.minute * INTERVAL '1 minute') AT TIME ZONE 'Asia/Kolkata',
             DATE '$day', t.last_price, t.volume, t.quote_data, $dev_id
        FROM bench_asof_template t ORDER BY t.nse_symbol, t.minute"
    have=$((have + 1))
    log "day $have/$want_days ($day) in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s"
  done
  gen_seconds=$(( $(date +%s) - gen_start ))
  t0=$(date +%s)
  psql_ -c "VACUUM (ANALYZE) stock_quotes"
  psql_ -c "CHECKPOINT"
  vacuum_seconds=$(( $(date +%s) - t0 ))
  rows=$(psql_ -c "SELECT count(*) FROM stock_quotes")
  read -r table_bytes index_bytes partitions <<<"$(sizes_line)"
  last_day=$(trading_day $((have - 1)))
  default_rows=none
  if [ "$(psql_ -c "SELECT to_regclass('stock_quotes_default') IS NOT NULL")" = t ]; then
    default_rows=$(psql_ -c "SELECT count(*) FROM stock_quotes_default")
  fi
  days_csv=$(IFS=,; echo "${trading_days[*]:0:$have}")
  log "history: $rows rows, $have days ($first_day..$last_day), table $((table_bytes / 1048576)) MB," \
    "indexes $((index_bytes / 1048576)) MB, $partitions partition(s); generated in ${gen_seconds}s, vacuum ${vacuum_seconds}s"
  echo "SIZE rows=$rows days=$have first=$first_day last=$last_day table_bytes=$table_bytes index_bytes=$index_bytes partitions=$partitions default_partition_rows=$default_rows gen_s=$gen_seconds vacuum_s=$vacuum_seconds" >>"$results"
  # One plan of the as-of statement the server runs (pgbench's, with values),
  # for the record: the buffers it touches at this size.
  plan_day0=$(date -d "$last_day 00:00 +0530" +%s)
  plan_sql=$(tail -1 "$work/asof.sql" | sed -e "s/:sym/1234/g" -e "s/:day_start/$plan_day0/g" \
    -e "s/:at/$((plan_day0 + 33300 + 12345))/g")
  psql_ -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) $plan_sql" | sed 's/^/PLAN /' >>"$results"

  for round in $(seq 1 "$rounds"); do
    for mode in $modes; do
      for conns in $conns_list; do
        if [ "$mode" = pgbench ]; then
          out=$(pgbench_run "$conns" "$have")
        else
          out=$("$tool" run -mode "$mode" -url "$base_url" -grpc "$grpc_addr" -token "$dev_token" \
            -days "$days_csv" -symbols "$symbols" -conns "$conns" -warmup "${warmup}s" -duration "${duration}s" \
            | grep '^RESULT')
        fi
        log "rows=$rows round $round $mode c=$conns: ${out#RESULT } (load $(cut -d' ' -f1 /proc/loadavg))"
        echo "${out/RESULT/RESULT rows=$rows round=$round mode=$mode conns=$conns load=$(cut -d' ' -f1 /proc/loadavg)}" >>"$results"
      done
    done
  done
done

# --- Summary: medians over the rounds ---------------------------------------------
echo
echo "| rows | path | clients | req/s | p50 ms | p90 ms | p99 ms | errors | wrong answers |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|"
awk '/^RESULT/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    key = v["rows"] SUBSEP v["mode"] SUBSEP v["conns"]
    if (!(key in n)) order[++keys] = key
    n[key]++; rps[key, n[key]] = v["rps"]; p50[key, n[key]] = v["p50_us"]
    p90[key, n[key]] = v["p90_us"]; p99[key, n[key]] = v["p99_us"]
    err[key] += v["errors"]; wrong[key] += v["wrong"]
  }
  function med(a, key, k,   i, j, t, s) {
    for (i = 1; i <= k; i++) s[i] = a[key, i] + 0
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
    return s[int((k + 1) / 2)]
  }
  END {
    for (o = 1; o <= keys; o++) {
      key = order[o]; split(key, f, SUBSEP); k = n[key]
      printf "| %s | %s | %s | %.0f | %.2f | %.2f | %.2f | %d | %d |\n", f[1], (f[2] == "http" ? "gateway" : (f[2] == "grpc" ? "gRPC" : "pgbench (SQL only)")), f[3],
        med(rps, key, k), med(p50, key, k) / 1000, med(p90, key, k) / 1000, med(p99, key, k) / 1000, err[key], wrong[key]
    }
  }' "$results"
echo
grep '^SIZE' "$results"
[ -n "${MDC_ASOF_RESULTS:-}" ] || cp "$results" "/tmp/asof_history_$(date -u +%Y%m%dT%H%M%SZ).txt"
