#!/usr/bin/env bash
# The static checks (`make lint`; CI runs it before `make test`). Changes
# nothing: each check fails on the first file it would change or flag.
#
#   scripts/lint.sh            every check
#   scripts/lint.sh cpp go     only the named ones (cpp, go, python, ts)
#
# cpp     clang-format --dry-run -Werror (.clang-format, pointer alignment
#         fixed to `Type* x`) over every tracked C++ file.
# go      gofmt -l and go vet ./... in every Go module of the repository.
# python  ruff (rules in clients/python/pyproject.toml) and mypy --strict over
#         the Python client, its tests and the Python examples, in the virtual
#         environment the client's tests use (BUILD_DIR/python-client/venv,
#         packages from PyPI as pinned in its `test` and `lint` extras).
# ts      tsc --noEmit and eslint (eslint.config.js, npm devDependencies from
#         the committed lock files) over clients/typescript and web/.
#
# Installs what is missing first (scripts/install-deps.sh test: clang-format
# and Go; PyPI and npm packages through pip and npm ci). `make format` fixes
# what cpp and go report; `ruff check --fix` much of what python reports.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build=$(mdc_build_dir)
mkdir -p "$build"
checks=("$@")
[ "${#checks[@]}" -gt 0 ] || checks=(cpp go python ts)
failed=()

lint_cpp() {
  (cd "$MDC_ROOT" && git ls-files -z -- '*.cc' '*.h' '*.cpp' '*.hpp' |
    xargs -0 -r clang-format --dry-run -Werror --style=file)
}

lint_go() {
  local mod dir status=0 unformatted
  # go vet type-checks against the code the build generates from the protos
  # (gateway/gen/mdcv1, the OpenAPI document the gateway embeds), which a
  # fresh clone lacks: build first then (`make test` finds it built).
  if [ ! -d "$MDC_ROOT/gateway/gen/mdcv1" ] || [ ! -f "$MDC_ROOT/gateway/internal/openapi/openapi.json" ]; then
    log "go vet needs the generated code: building first (scripts/build.sh)"
    MDC_TESTS=ON "$MDC_ROOT/scripts/build.sh" || return 1
  fi
  while IFS= read -r mod; do
    dir=$MDC_ROOT/$(dirname "$mod")
    unformatted=$(cd "$dir" && gofmt -l .)
    if [ -n "$unformatted" ]; then
      log "gofmt would change, in $(dirname "$mod"): $unformatted"
      status=1
    fi
    (cd "$dir" && go vet ./...) || status=1
  done < <(cd "$MDC_ROOT" && git ls-files -- '*go.mod' 'go.mod')
  return "$status"
}

lint_python() {
  bash "$MDC_ROOT/clients/python/lint.sh" "$build"
}

lint_ts() {
  bash "$MDC_ROOT/clients/typescript/lint.sh" "$build" && bash "$MDC_ROOT/web/lint.sh" "$build"
}

"$MDC_ROOT/scripts/install-deps.sh" test
for check in "${checks[@]}"; do
  case $check in
    cpp | go | python | ts) ;;
    *) die "unknown check '$check' (cpp, go, python, ts)" ;;
  esac
  log "$check"
  "lint_$check" || failed+=("$check")
done
if [ "${#failed[@]}" -gt 0 ]; then
  die "failed: ${failed[*]}"
fi
log "clean: ${checks[*]}"
