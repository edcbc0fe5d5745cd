#!/usr/bin/env bash
# Tests the Go client module and its example (ctest: go-client): gofmt and
# go vet of both modules, the unit tests of clients/go, then examples/go's
# test, which runs the example against a real mdc-server (MDC_SERVER_BIN) on
# a fresh database made from MDC_TEST_DATABASE_URL. Set MDC_REQUIRE_STACK=1
# to fail instead of skipping when those are missing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

go=${GO:-go}
if ! command -v "$go" >/dev/null 2>&1; then
  go=/usr/local/go/bin/go
fi
gofmt="$(dirname "$(command -v "$go")")/gofmt"

for module in "$here" "$root/examples/go"; do
  unformatted=$("$gofmt" -l "$module")
  if [ -n "$unformatted" ]; then
    echo "not gofmt-formatted:" >&2
    echo "$unformatted" >&2
    exit 1
  fi
  (cd "$module" && "$go" vet ./...)
done
(cd "$here" && "$go" test -count=1 ./...)
(cd "$root/examples/go" && "$go" test -count=1 -v ./...)
