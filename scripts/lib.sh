# shellcheck shell=bash
# Shared by the scripts in this folder: sourced, never run. Sets MDC_ROOT,
# puts /usr/local/go/bin on PATH and defines small helpers.

MDC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck disable=SC2034 # used by the scripts that source this file
PG_BIN=/usr/lib/postgresql/15/bin
if [ -d /usr/local/go/bin ]; then
  case ":$PATH:" in
    *:/usr/local/go/bin:*) ;;
    *) PATH=/usr/local/go/bin:$PATH ;;
  esac
fi
export PATH
# Go keeps its caches under $HOME; CI environments may not set it.
if [ -z "${HOME:-}" ]; then
  HOME=$(getent passwd "$(id -u)" | cut -d: -f6)
  export HOME
fi

# log MESSAGE...: one line on stderr, prefixed with the script's name.
log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
# die MESSAGE...: log an error and exit 1.
die() {
  log "error: $*"
  exit 1
}

# abs_path PATH: PATH made absolute (relative paths are taken from the
# current directory); the path need not exist.
abs_path() {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
  esac
}

# mdc_data_dir: the absolute data folder ($MDC_DATA_DIR, default .mdc in the
# checkout).
mdc_data_dir() {
  if [ -n "${MDC_DATA_DIR:-}" ]; then
    abs_path "$MDC_DATA_DIR"
  else
    printf '%s/.mdc\n' "$MDC_ROOT"
  fi
}

# mdc_build_dir: the absolute build folder ($MDC_BUILD_DIR, default build in
# the checkout).
mdc_build_dir() {
  if [ -n "${MDC_BUILD_DIR:-}" ]; then
    abs_path "$MDC_BUILD_DIR"
  else
    printf '%s/build\n' "$MDC_ROOT"
  fi
}

# close_fds: close every descriptor above 2 of the current (sub)shell, so a
# process that outlives its script (PostgreSQL, a stack's server) holds no
# lock and no pipe of the script's caller (who reads its stdout to the end).
close_fds() {
  local fd n
  for fd in /proc/"$BASHPID"/fd/*; do
    n=${fd##*/}
    if [ "$n" -gt 2 ] 2>/dev/null; then eval "exec $n>&-"; fi
  done
  return 0
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on right now.
free_port() {
  python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# port_in_use HOST:PORT: true when something accepts connections there.
port_in_use() {
  local host=${1%:*} port=${1##*:}
  (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null
}
