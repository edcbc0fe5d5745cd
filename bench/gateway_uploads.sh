#!/usr/bin/env bash
# Memory of mdc-gateway under concurrent large uploads: starts the gateway
# binary alone on 127.0.0.1 (no mdc-server needed: every upload below is
# refused by the gateway itself), sends N concurrent 5 MiB uploads without a
# token and N with a well-formed one (half chunked, half with Content-Length)
# with curl, and prints the answers and the gateway's peak RSS (VmHWM) and
# RSS a few seconds after. Exits 1 when the peak RSS is over the limit.
#
#   bench/gateway_uploads.sh
#
# Environment (all optional):
#   MDC_BENCH_BUILD_DIR     build folder holding mdc-gateway (build)
#   MDC_BENCH_UPLOADS       uploads of each kind, N (200)
#   MDC_BENCH_PORT          gateway port (18089)
#   MDC_BENCH_MAX_RSS_MB    limit on the peak RSS (150)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${MDC_BENCH_BUILD_DIR:-build}/mdc-gateway"
n="${MDC_BENCH_UPLOADS:-200}"
port="${MDC_BENCH_PORT:-18089}"
max_mb="${MDC_BENCH_MAX_RSS_MB:-150}"
addr="127.0.0.1:${port}"
[[ -x "$bin" ]] || { echo "no $bin: build first (scripts/build.sh)" >&2; exit 2; }

tmp="$(mktemp -d)"
MDC_ACCESS_LOG=off "$bin" --http-addr "$addr" --grpc-addr 127.0.0.1:1 2>"$tmp/gateway.log" &
gw=$!
trap 'kill "$gw" 2>/dev/null || true; wait "$gw" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
  curl -s -o /dev/null "http://${addr}/openapi.json" && break
  sleep 0.1
done
head -c $((5 << 20)) /dev/zero | tr '\0' ' ' >"$tmp/body"
rss() { awk -v k="$1:" '$1 == k {print int($2 / 1024)}' "/proc/${gw}/status"; }
echo "gateway RSS at start: $(rss VmRSS) MB"

upload() { # auth chunked
  local auth=() src=(-T "$tmp/body")
  [[ "$1" == 1 ]] && auth=(-H "Authorization: Bearer looks-fine-but-unknown")
  if [[ "$2" == 1 ]]; then
    curl -s -o /dev/null -w "auth=$1 chunked=$2 %{http_code}\n" -X POST "${auth[@]}" \
      -H 'Content-Type: application/json' -T - "http://${addr}/v1/developer/collector/quotes" <"$tmp/body" || true
  else
    curl -s -o /dev/null -w "auth=$1 chunked=$2 %{http_code}\n" -X POST "${auth[@]}" \
      -H 'Content-Type: application/json' "${src[@]}" "http://${addr}/v1/developer/collector/quotes" || true
  fi
}
start=$(date +%s.%N)
for i in $(seq 0 $((2 * n - 1))); do
  upload $((i % 2)) $(((i / 2) % 2)) >>"$tmp/answers" &
done
wait $(jobs -p | grep -v "^${gw}$") 2>/dev/null || true
end=$(date +%s.%N)
echo "answers (000 or 100: the gateway closed the connection before curl read a final answer):"
sort "$tmp/answers" | uniq -c
peak=$(rss VmHWM)
printf '%d uploads in %.1f s; gateway peak RSS (VmHWM) %s MB\n' $((2 * n)) "$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')" "$peak"
sleep 5
echo "gateway RSS 5 s later: $(rss VmRSS) MB"
if ((peak > max_mb)); then
  echo "FAIL: peak RSS ${peak} MB over ${max_mb} MB" >&2
  exit 1
fi
