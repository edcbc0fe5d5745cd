#!/usr/bin/env bash
# Runs schemathesis (PyPI, version pinned below) against a running mdc stack
# for a bounded time with a fixed seed: it generates requests from the
# gateway's /openapi.json and checks every answer against the document
# (status codes, content types, response schemas, headers) and that the
# server neither answers 5xx nor accepts what the schema forbids.
#
#   tests/contract/run.sh                    # the stack of `make run`
#   MDC_CONTRACT_URL=http://127.0.0.1:18080 MDC_CONTRACT_TOKEN=mdc_... tests/contract/run.sh
#
# Use a throwaway stack: with an admin token the run calls every admin route
# with generated arguments (deleting holidays, data of dates, ...). The
# checks, exclusions and hooks are those of the ctest `contract`
# (schemathesis.toml, hooks.py; contract.py starts its own stack for it).
#
# Environment: MDC_CONTRACT_URL (default http://$MDC_HTTP_ADDR or
# http://127.0.0.1:8080), MDC_CONTRACT_TOKEN (default: the admin token
# `make run` keeps in $MDC_DATA_DIR/admin_token), MDC_CONTRACT_SECONDS (120),
# MDC_CONTRACT_SEED (20251231), MDC_CONTRACT_REPORTS (where the JUnit report
# goes; $TMPDIR/mdc-contract). Extra arguments go to `schemathesis run`.
# Exit status: schemathesis's (non-zero when it found a problem).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
version=$(sed -n 's/^schemathesis==//p' "$root/tests/contract/requirements.txt")

url=${MDC_CONTRACT_URL:-http://${MDC_HTTP_ADDR:-127.0.0.1:8080}}
token=${MDC_CONTRACT_TOKEN:-}
if [ -z "$token" ]; then
  token_file=${MDC_DATA_DIR:-$root/.mdc}/admin_token
  [ -r "$token_file" ] || { echo "run.sh: set MDC_CONTRACT_TOKEN (no $token_file)" >&2; exit 2; }
  token=$(cat "$token_file")
fi

# A private virtualenv with the pinned schemathesis, made once.
venv=${MDC_CONTRACT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/mdc/schemathesis-$version}
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version"
fi

reports=${MDC_CONTRACT_REPORTS:-${TMPDIR:-/tmp}/mdc-contract}
mkdir -p "$reports"
export SCHEMATHESIS_HOOKS=hooks PYTHONPATH=$root/tests/contract${PYTHONPATH:+:$PYTHONPATH}
exec "$venv/bin/schemathesis" --config-file "$root/tests/contract/schemathesis.toml" run "$url/openapi.json" \
  --url "$url" \
  --header "Authorization: Bearer $token" \
  --seed "${MDC_CONTRACT_SEED:-20251231}" \
  --max-time "${MDC_CONTRACT_SECONDS:-120}" \
  --report junit --report-dir "$reports" \
  "$@"
