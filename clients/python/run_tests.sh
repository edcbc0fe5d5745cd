#!/usr/bin/env bash
# Runs the Python client's checks; ctest's `python-client` test (so
# `make test` and CI) calls it.
#
#   clients/python/run_tests.sh BUILD_DIR
#
# Creates (once) a virtual environment under BUILD_DIR, installs this package
# with its test extras from PyPI (building it generates mdc.v1 from
# proto/mdc/v1; the extras bring pyarrow, pandas and polars), type-checks the
# hand-written code, the tests (with the typed usage file tests/typing/usage.py)
# and the examples with mypy --strict, and runs pytest. The stack tests need MDC_SERVER_BIN, MDC_GATEWAY_BIN (ctest
# sets them) and MDC_TEST_DATABASE_URL (scripts/test.sh exports it); here
# their absence is a failure, not a skip.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:?usage: run_tests.sh BUILD_DIR}" && pwd)
venv=$build/python-client/venv
python=$venv/bin/python
pip=("$python" -m pip --quiet --disable-pip-version-check)

if [ ! -x "$python" ]; then
  mkdir -p "$build/python-client"
  python3 -m venv "$venv" || {
    echo "run_tests.sh: python3 -m venv failed; on Debian: apt-get install python3-venv" >&2
    exit 1
  }
fi
# Reinstall the package itself every time (the protos or the code may have
# changed under the same version); its dependencies only when missing.
"${pip[@]}" uninstall --yes mdc-client >/dev/null 2>&1 || true
"${pip[@]}" install "$here[test]"

cd "$here"
# tests/test_typing.py runs mypy again over tests/typing: with the same cache.
export MDC_MYPY_CACHE=$build/python-client/mypy-cache
echo "mypy --strict: the installed package, the tests and the examples"
"$python" -m mypy --cache-dir "$MDC_MYPY_CACHE" -p mdc
"$python" -m mypy --cache-dir "$MDC_MYPY_CACHE" tests ../../examples/python ../../examples/research

MDC_REQUIRE_STACK=1 exec "$python" -m pytest -p no:cacheprovider tests
