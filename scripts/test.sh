#!/usr/bin/env bash
# Runs every test (`make test`, and CI through .ci/run): installs what is
# missing, builds everything, starts a throwaway PostgreSQL cluster on a free
# port, exports MDC_TEST_DATABASE_URL (superuser URL of database mdc; test
# binaries create their own databases from it) and runs ctest: the C++
# domain, storage and service tests, the layering check, and the Go gateway
# and e2e suites. The cluster is stopped
# and removed however ctest ends; the exit status is ctest's.
#
# Arguments go to ctest, e.g. scripts/test.sh -R e2e.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

started=$SECONDS
scripts=$MDC_ROOT/scripts
build=$(mdc_build_dir)

test_data=

# shellcheck disable=SC2317 # runs from the EXIT trap
cleanup() {
  local status=$? s=$((SECONDS - started))
  trap - EXIT INT TERM HUP
  if [ -n "$test_data" ]; then
    MDC_DATA_DIR=$test_data "$scripts/pg.sh" stop >/dev/null 2>&1 ||
      log "warning: could not stop the test cluster in $test_data"
    rm -rf "$test_data"
  fi
  log "total time $((s / 60))m$((s % 60))s (exit status $status)"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

"$scripts/install-deps.sh" test
MDC_TESTS=ON "$scripts/build.sh"

# A throwaway cluster: its own data folder (inside the build folder when the
# postgres user can reach it, else under the temporary folder) and port.
test_data=$(mktemp -d "$build/test-data.XXXXXX")
chmod 0755 "$test_data"
if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$test_data"; then
  rm -rf "$test_data"
  test_data=$(mktemp -d "${TMPDIR:-/tmp}/mdc-test-data.XXXXXX")
  chmod 0755 "$test_data"
  log "postgres cannot reach $build; the test cluster lives in $test_data"
fi
export MDC_DATA_DIR=$test_data
MDC_PG_PORT=$(free_port)
export MDC_PG_PORT

"$scripts/pg.sh" start
MDC_TEST_DATABASE_URL=$("$scripts/pg.sh" url)
export MDC_TEST_DATABASE_URL
# The suites choose their own databases and addresses; settings meant for
# `make run` must not leak into them.
unset DATABASE_URL MDC_ADMIN_TOKEN MDC_HTTP_ADDR MDC_GRPC_ADDR MDC_METRICS_ADDR \
  MDC_GATEWAY_METRICS_ADDR \
  MDC_TLS_CERT MDC_TLS_KEY MDC_GRPC_TLS_CERT MDC_GRPC_TLS_KEY MDC_GRPC_TLS_CA MDC_GRPC_TLS_SERVER_NAME \
  MDC_SECRET_KEY MDC_BROKER_TOKEN_URL MDC_BROKER_API_KEY MDC_BROKER_API_SECRET \
  MDC_STATEMENT_TIMEOUT MDC_RATE_LIMIT_READS MDC_RATE_LIMIT_READS_BURST \
  MDC_RATE_LIMIT_WRITES MDC_RATE_LIMIT_WRITES_BURST \
  MDC_MAX_EXPORTS_PER_DEVELOPER MDC_MAX_REPLAYS_PER_DEVELOPER MDC_MAX_WATCHES_PER_DEVELOPER \
  MDC_EXPORT_WRITE_TIMEOUT GOMEMLIMIT

status=0
ctest --test-dir "$build" --output-on-failure "$@" || status=$?
exit "$status"
