#!/usr/bin/env bash
# Tests check_layers.sh: the repository passes, and a tree with one
# deliberate violation of each rule fails naming the file and the rule.
#
#   tests/layering/check_layers_test.sh [REPOSITORY]
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=${1:-$(cd "$here/../.." && pwd)}
check=$here/check_layers.sh
passed=0 failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# The repository itself keeps the rule.
if out=$(bash "$check" "$repo" 2>&1); then
  pass "the repository keeps the layering"
else
  fail "the repository keeps the layering:"
  echo "$out"
fi

# A clean miniature tree: each layer including what it may.
clean_tree() {
  local t=$1
  mkdir -p "$t/common" "$t/domain" "$t/storage" "$t/service/api"
  printf '#include <string>\n#include "absl/strings/str_cat.h"\n' >"$t/common/log.h"
  printf '#include "common/log.h"\n#include "mdc/v1/market.pb.h"\n#include "google/protobuf/timestamp.pb.h"\n' >"$t/domain/time.h"
  printf '#include <libpq-fe.h>\n#include "domain/time.h"\n#include "common/log.h"\n' >"$t/storage/pg.h"
  printf '#include <grpcpp/grpcpp.h>\n#include "mdc/v1/admin.grpc.pb.h"\n#include "storage/pg.h"\n#include "domain/time.h"\n' >"$t/service/api/admin.cc"
}

clean_tree "$work/clean"
if out=$(bash "$check" "$work/clean" 2>&1); then
  pass "a clean tree passes"
else
  fail "a clean tree passes:"
  echo "$out"
fi

# expect_violation NAME FILE LINE: a clean tree plus LINE in FILE must fail,
# and the report must name FILE.
expect_violation() {
  local name=$1 file=$2 line=$3 t out
  t=$work/$(echo "$name" | tr -c 'a-z0-9' '_')
  clean_tree "$t"
  mkdir -p "$t/$(dirname "$file")"
  printf '%s\n' "$line" >>"$t/$file"
  if out=$(bash "$check" "$t" 2>&1); then
    fail "$name: the check passed a violation"
  elif ! grep -q "^$file:" <<<"$out"; then
    fail "$name: the report does not name $file:"
    echo "$out"
  else
    pass "$name"
  fi
}

expect_violation "domain includes storage" domain/rules.cc '#include "storage/pool.h"'
expect_violation "domain includes service" domain/time.h '#include "service/calls/call_runner.h"'
expect_violation "domain includes grpcpp" domain/rules.cc '#include <grpcpp/grpcpp.h>'
expect_violation "domain includes grpc core" domain/rules.cc '#include <grpc/grpc.h>'
expect_violation "domain includes gRPC stubs" domain/rules.h '#include "mdc/v1/admin.grpc.pb.h"'
expect_violation "domain includes libpq" domain/rules.cc '#include <libpq-fe.h>'
expect_violation "domain include with spaces" domain/rules.cc '  #  include "storage/pool.h"'
expect_violation "storage includes service" storage/repo.cc '#include "service/auth/auth.h"'
expect_violation "storage includes grpcpp" storage/pg.h '#include <grpcpp/server_context.h>'
expect_violation "storage includes prometheus" storage/pool.cc '#include <prometheus/counter.h>'
expect_violation "domain includes prometheus" domain/rules.cc '#include "prometheus/gauge.h"'
expect_violation "common includes domain" common/log.h '#include "domain/time.h"'
expect_violation "common includes protobuf" common/log.h '#include "google/protobuf/message.h"'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
