# shellcheck shell=bash
# Sourced by run_tests.sh and lint.sh (never run): python_client_venv BUILD_DIR
# EXTRAS makes (once) the virtual environment BUILD_DIR/python-client/venv and
# installs this package with the given extras from PyPI (building it generates
# mdc.v1 from proto/mdc/v1). The package itself is reinstalled every time (the
# protos or the code may have changed under the same version); its
# dependencies only when missing. Sets `python` to the environment's python.
python_client_venv() {
  local build=$1 extras=$2 here venv
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  venv=$build/python-client/venv
  python=$venv/bin/python
  local pip=("$python" -m pip --quiet --disable-pip-version-check)
  if [ ! -x "$python" ]; then
    mkdir -p "$build/python-client"
    python3 -m venv "$venv" || {
      echo "python-client: python3 -m venv failed; on Debian: apt-get install python3-venv" >&2
      return 1
    }
  fi
  "${pip[@]}" uninstall --yes mdc-client >/dev/null 2>&1 || true
  "${pip[@]}" install "$here[$extras]"
}
