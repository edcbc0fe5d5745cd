#!/usr/bin/env bash
# Configures and builds mdc with CMake and Ninja (Release) into
# ${MDC_BUILD_DIR:-build}: $BUILD/mdc-server, $BUILD/mdc-gateway (CMake runs
# gateway/build.sh for it) and the test binaries.
#
#   scripts/build.sh                       everything
#   scripts/build.sh mdc-server mdc-gateway  only these targets
#
# MDC_TESTS=ON or OFF configures the test suites in or out (OFF needs no
# GoogleTest; `make run` sets it on a new build folder); unset, the build
# folder keeps its setting, and a new one has them.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build=$(mdc_build_dir)
cache=$build/CMakeCache.txt
if [ -f "$cache" ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$cache"; then
  die "$build was configured with another CMake generator; remove it (make clean) and run again"
fi

command -v go >/dev/null || die "go is not on PATH: run scripts/install-deps.sh"

# ccache hits across clones of the repo (CI builds a fresh clone each time).
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$MDC_ROOT}

log "configuring $build"
mkdir -p "$build"
tests_opt=()
[ -z "${MDC_TESTS:-}" ] || tests_opt=(-DMDC_TESTS="$MDC_TESTS")
cmake -S "$MDC_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${tests_opt[@]}" >"$build/configure.log" 2>&1 || {
  cat "$build/configure.log" >&2
  die "cmake configure failed (log: $build/configure.log)"
}

if [ $# -gt 0 ]; then
  log "building $*"
  cmake --build "$build" --target "$@"
else
  log "building all targets"
  cmake --build "$build"
fi
