#!/usr/bin/env bash
# Runs the developer read benchmark end to end (docs/performance/developer.md):
# a fresh database, one trading day loaded and measured, then 19 more days
# loaded and the same day measured again. Prints client round trips and the
# server's own latency (the latency_ms of its request log lines).
#
#   bench/developer/run.sh BUILD_DIR ADMIN_DATABASE_URL [REQUESTS]
set -euo pipefail
build=${1:?build dir}
admin_url=${2:?superuser database URL, e.g. postgres://mdc@127.0.0.1:55432/mdc}
requests=${3:-2000}
db=mdc_bench_developer
first_day=2025-01-06
symbols=300
base=${admin_url%/*}

psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
# The server alone (bench/stack.sh); the bench reads its log.
# shellcheck source=bench/stack.sh
source "$(dirname "${BASH_SOURCE[0]}")/../stack.sh"
trap bench_stack_stop EXIT
bench_stack_start "$build" "$base/$db" --no-gateway
token=$admin_token
log=$server_log

bench="$build/bench/developer/mdc-developer-bench"
common=(--grpc-addr=$grpc_addr --token=$token --symbols=$symbols)

server_latency() {  # lines of the log from $1 on: p50/p99 per method
  tail -n +"$1" "$log" | python3 -c '
import json, sys
by = {}
for line in sys.stdin:
    try: r = json.loads(line)
    except ValueError: continue
    if r.get("msg") == "request" and r.get("method") in ("GetQuote", "GetQuoteTimeline"):
        by.setdefault(r["method"], []).append(r["latency_ms"])
for m, v in sorted(by.items()):
    v.sort()
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
    print("  server %-17s n=%d p50 %.3f p99 %.3f ms" % (m, len(v), q(0.5), q(0.99)))'
}

measure() {
  psql "$base/$db" -qc "VACUUM ANALYZE stock_quotes" >/dev/null
  echo "== $1: $(psql "$base/$db" -tAc 'SELECT count(*) FROM stock_quotes') quotes stored"
  local from=$(($(wc -l <"$log") + 1))
  "$bench" measure "${common[@]}" --day=$first_day --requests="$requests"
  server_latency "$from"
}

"$bench" load "${common[@]}" --first-day=$first_day --days=1
measure "1 day"
"$bench" load "${common[@]}" --first-day=$first_day --days=20 --skip-days=1
measure "20 days"
psql "$base/$db" -tAc "SELECT 'table+indexes: ' || pg_size_pretty(pg_total_relation_size('stock_quotes'))"
