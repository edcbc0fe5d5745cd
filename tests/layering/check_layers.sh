#!/usr/bin/env bash
# The layering rule of the C++ code, checked on its #include lines:
#
#   service/ -> storage/ -> domain/ -> common/
#
# Each folder may include only itself and the folders to its right:
#   common/   nothing of mdc's, no protobuf, no gRPC, no libpq
#   domain/   common/ and protobuf messages (*.pb.h); no service/, storage/,
#             gRPC (grpcpp/, grpc/, *.grpc.pb.h) or libpq
#   storage/  domain/, common/ and libpq; no service/, no gRPC and no
#             Prometheus (it reports to storage/observer.h instead)
#   service/  anything
#
#   tests/layering/check_layers.sh [ROOT]
#
# Prints one line per violation (file:line: the rule it breaks) and exits 1
# when there is any, 0 otherwise. ROOT defaults to the repository.
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root"

grpc='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](grpcpp/|grpc/|[^">]*\.grpc\.pb\.h)'
libpq='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](libpq-fe\.h|libpq/)'
prometheus='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]prometheus/'
proto='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]*\.pb\.h|google/protobuf/)'
mdc_folder() {  # an include of one of mdc's own folders
  printf '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](%s)/' "$1"
}

violations=0
# forbid FOLDER PATTERN WHY: every #include in FOLDER matching PATTERN.
forbid() {
  local folder=$1 pattern=$2 why=$3 hits
  [ -d "$folder" ] || return 0
  hits=$(grep -rnE --include='*.h' --include='*.cc' "$pattern" "$folder" || true)
  [ -n "$hits" ] || return 0
  while IFS= read -r hit; do
    printf '%s\n  -> %s\n' "$hit" "$why"
    violations=$((violations + 1))
  done <<<"$hits"
}

forbid common "$(mdc_folder 'service|storage|domain')" \
  "common/ is the bottom layer: it includes no other mdc folder"
forbid common "$grpc" "common/ must not use gRPC"
forbid common "$libpq" "common/ must not use libpq"
forbid common "$proto" "common/ must not use protobuf"

forbid domain "$(mdc_folder 'service|storage')" \
  "domain/ may use only common/: not storage/ or service/"
forbid domain "$grpc" "domain/ must not use the gRPC transport (messages *.pb.h are fine)"
forbid domain "$libpq" "domain/ must not use libpq"

forbid storage "$(mdc_folder 'service')" "storage/ may use domain/ and common/, never service/"
forbid storage "$grpc" "storage/ must not use the gRPC transport"
for layer in common domain storage; do
  forbid "$layer" "$prometheus" \
    "$layer/ must not use Prometheus: storage reports to storage/observer.h, service/metrics counts"
done

if [ "$violations" -gt 0 ]; then
  printf 'layering: %d include(s) break service -> storage -> domain -> common\n' \
    "$violations" >&2
  exit 1
fi
echo "layering: ok (service -> storage -> domain -> common)"
