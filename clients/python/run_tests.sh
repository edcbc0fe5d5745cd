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
# shellcheck source=clients/python/venv.sh
source "$here/venv.sh"
python_client_venv "$build" test

cd "$here"
# tests/test_typing.py runs mypy again over tests/typing: with the same cache.
export MDC_MYPY_CACHE=$build/python-client/mypy-cache
echo "mypy --strict: the installed package, the tests and the examples"
"$python" -m mypy --cache-dir "$MDC_MYPY_CACHE" -p mdc
"$python" -m mypy --cache-dir "$MDC_MYPY_CACHE" tests ../../examples/python ../../examples/research

MDC_REQUIRE_STACK=1 exec "$python" -m pytest -p no:cacheprovider tests
