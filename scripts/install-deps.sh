#!/usr/bin/env bash
# Installs what mdc needs on Debian 12: the Debian packages below (only those
# missing; `apt-get update` only when something is missing) and a Go toolchain
# at least as new as the `go` lines of gateway/go.mod, tests/e2e/go.mod and
# tests/helm/go.mod. Safe to run any number of times.
#
#   scripts/install-deps.sh run    what building and running needs (make run)
#   scripts/install-deps.sh test   that and what only the tests need (make test,
#                                  the default)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

purpose=${1:-test}
case $purpose in
  run | test) ;;
  *) die "usage: $0 [run|test] (got '$purpose')" ;;
esac

# Building mdc-server and mdc-gateway (with the dashboard it embeds) and
# running them on a private PostgreSQL. python3-pip and npm fetch pinned
# third-party protos at configure time (scripts/fetch-*.sh).
packages=(
  build-essential cmake ninja-build pkg-config ccache git python3 python3-pip nodejs
  protobuf-compiler protobuf-compiler-grpc libprotobuf-dev libgrpc++-dev
  libabsl-dev libpq-dev libssl-dev libcurl4-openssl-dev prometheus-cpp-dev libzstd-dev
  postgresql postgresql-contrib tzdata curl ca-certificates openssl libtcmalloc-minimal4
)
# Only the tests: the C++ suites (GoogleTest), the Python client's and the
# contract test's virtual environments, the formatting check, load tools (and
# jq and time, which bench/run.sh's short mode in ctest needs), and
# the dashboard's browser tests (web/: Debian's chromium, driven headless by
# Playwright, which downloads no browser of its own, and a font to draw text),
# and the failover test's highly available PostgreSQL (tests/e2e/failover_*:
# Patroni and etcd as local processes; installing them starts no service, and
# `make run` stays one local cluster).
test_packages=(
  googletest libgtest-dev libgmock-dev python3-venv clang-format wrk jq time
  chromium fonts-dejavu-core patroni etcd-server etcd-client
)
[ "$purpose" = run ] || packages+=("${test_packages[@]}")
# Debian's nodejs lacks npm; NodeSource's nodejs bundles it (and conflicts with the npm package).
command -v npm >/dev/null || packages+=(npm)

export DEBIAN_FRONTEND=noninteractive
apt_opts=(-y -qq -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=600)
apt_updated=0

# as_root CMD...: run CMD as root (directly, or through sudo).
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo -E "$@"
  else
    die "not root and no sudo: run as root, or install by hand: $*"
  fi
}

# quietly CMD...: run CMD with its output kept aside, shown only on failure.
quietly() {
  local out
  out=$(mktemp)
  if ! "$@" >"$out" 2>&1; then
    cat "$out" >&2
    rm -f "$out"
    die "failed: $*"
  fi
  rm -f "$out"
}

apt_update_once() {
  if [ "$apt_updated" -eq 0 ]; then
    log "apt-get update"
    quietly as_root apt-get -qq -o DPkg::Lock::Timeout=600 update
    apt_updated=1
  fi
}

# missing_packages NAME...: prints the names that are not installed.
missing_packages() {
  local installed
  installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$@" 2>/dev/null |
    awk '$2 == "installed" { print $1 }') || true
  local p
  for p in "$@"; do
    grep -qxF "$p" <<<"$installed" || printf '%s\n' "$p"
  done
}

mapfile -t missing < <(missing_packages "${packages[@]}")
if [ "${#missing[@]}" -gt 0 ]; then
  apt_update_once
  log "installing ${missing[*]}"
  quietly as_root apt-get install "${apt_opts[@]}" --no-install-recommends "${missing[@]}"
fi

# Go -------------------------------------------------------------------------

# normalize VERSION: 1.24 -> 1.24.0, go1.26.8 -> 1.26.8, 2:1.19~1 -> 1.19.0.
normalize() {
  local v=${1#*:}
  v=${v#go}
  v=${v%%[~+-]*}
  case $v in
    *.*.*) ;;
    *.*) v=$v.0 ;;
    *) v=$v.0.0 ;;
  esac
  printf '%s\n' "$v"
}

# version_ge A B: true when version A >= version B.
version_ge() {
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]
}

# The newest `go` line of the repo's go.mod files (1.22 when none exists yet).
required_go=1.22.0
for mod in "$MDC_ROOT/gateway/go.mod" "$MDC_ROOT/tests/e2e/go.mod" "$MDC_ROOT/tests/helm/go.mod"; do
  [ -f "$mod" ] || continue
  v=$(awk '$1 == "go" { print $2; exit }' "$mod")
  [ -n "$v" ] || continue
  v=$(normalize "$v")
  version_ge "$required_go" "$v" || required_go=$v
done

# go_version BINARY: its version (1.26.8), without letting it fetch a newer
# toolchain.
go_version() {
  (cd / && GOTOOLCHAIN=local "$1" env GOVERSION 2>/dev/null) | sed 's/^go//'
}

# find_go: prints the first go binary that is new enough, if any.
find_go() {
  local g v
  for g in /usr/local/go/bin/go "$(command -v go || true)" /usr/bin/go; do
    if [ -z "$g" ] || [ ! -x "$g" ]; then continue; fi
    v=$(go_version "$g") || continue
    [ -n "$v" ] || continue
    if version_ge "$(normalize "$v")" "$required_go"; then
      printf '%s\n' "$g"
      return 0
    fi
  done
  return 1
}

if ! find_go >/dev/null; then
  found=$(command -v go || true)
  [ -n "$found" ] || { [ -x /usr/local/go/bin/go ] && found=/usr/local/go/bin/go; }
  have=none
  [ -z "$found" ] || have="$(go_version "$found") ($found)"
  apt_update_once
  candidate=$(apt-cache policy golang-go | awk '$1 == "Candidate:" { print $2 }')
  if [ -n "$candidate" ] && [ "$candidate" != "(none)" ] &&
    version_ge "$(normalize "$candidate")" "$required_go"; then
    log "installing golang-go $candidate"
    quietly as_root apt-get install "${apt_opts[@]}" --no-install-recommends golang-go
  fi
  if ! find_go >/dev/null; then
    die "Go >= $required_go is needed (the go lines of gateway/go.mod and" \
      "tests/e2e/go.mod), found: $have; Debian's golang-go is ${candidate:-unavailable}," \
      "too old. Install Go $required_go or newer from the official release tarball" \
      "into /usr/local/go (so that /usr/local/go/bin/go exists) and run this again."
  fi
fi

if [ "${#missing[@]}" -eq 0 ]; then
  log "all ${#packages[@]} Debian packages present; go $(go_version "$(find_go)") (>= $required_go needed)"
fi
