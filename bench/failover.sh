#!/usr/bin/env bash
# The failover benchmark (docs/performance.md, "Failover"): on the failover
# test's cluster (three PostgreSQL 15 members under Patroni with etcd, local
# processes; tests/e2e/failover_cluster_test.go) with the real mdc-server and
# mdc-gateway, measures in one run:
#   1. the ingest through the gateway (8 collectors, one quote per write) with
#      synchronous replication (Patroni's synchronous_mode, strict) against
#      the same without it, alternated twice, medians and their ratio;
#   2. how long writes pause when the primary's database machine is lost
#      (kill -9 of the postmaster, data directory deleted; Patroni rebuilds
#      the member between kills), over MDC_FAILOVER_KILLS kills (5): each
#      pause, the median and the max.
# Needs patroni and etcd (scripts/install-deps.sh test) and a build
# (scripts/build.sh). About 4 minutes. It asserts nothing about speed.
#
#   bench/failover.sh
#   MDC_FAILOVER_KILLS=3 bench/failover.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

build=${MDC_BENCH_BUILD_DIR:-${MDC_BUILD_DIR:-$MDC_ROOT/build}}
for bin in mdc-server mdc-gateway; do
  [ -x "$build/$bin" ] || die "no $build/$bin: build first (scripts/build.sh)"
done
go=$(command -v go || echo /usr/local/go/bin/go)
log_file=$(mktemp "${TMPDIR:-/tmp}/mdc-bench-failover.XXXXXX")
cd "$MDC_ROOT/tests/e2e"
status=0
MDC_FAILOVER_MEASURE=1 MDC_SERVER_BIN=$build/mdc-server MDC_GATEWAY_BIN=$build/mdc-gateway \
  "$go" test -count=1 -tags failover -run '^TestMeasureFailover$' -timeout 20m -v ./... >"$log_file" 2>&1 || status=$?
grep -E '^(ingest|kill|failover)' "$log_file" || true
if [ "$status" -ne 0 ]; then
  log "the benchmark failed; its whole output: $log_file"
  exit "$status"
fi
rm -f "$log_file"
