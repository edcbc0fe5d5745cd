#!/usr/bin/env bash
# The Python client's static checks (scripts/lint.sh python, so `make lint`):
# ruff with the rules of pyproject.toml, then mypy --strict over the installed
# package, the tests (with the typed usage file tests/typing/usage.py) and the
# examples.
#
#   clients/python/lint.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(mkdir -p "${1:?usage: lint.sh BUILD_DIR}" && cd "$1" && pwd)
# shellcheck source=clients/python/venv.sh
source "$here/venv.sh"
python_client_venv "$build" test,lint

cd "$here"
echo "ruff: the package, the tests and the examples"
"$python" -m ruff check --config pyproject.toml . ../../examples/python ../../examples/research
echo "mypy --strict: the installed package, the tests and the examples"
cache=$build/python-client/mypy-cache
"$python" -m mypy --cache-dir "$cache" -p mdc
"$python" -m mypy --cache-dir "$cache" tests ../../examples/python ../../examples/research
