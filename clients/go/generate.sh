#!/usr/bin/env bash
# Regenerates the committed Go package clients/go/mdcv1 from proto/mdc/v1.
#
#   clients/go/generate.sh [GOOGLEAPIS_DIR [OUT_DIR]]
#
# Runs protoc with protoc-gen-go and protoc-gen-go-grpc, built from source
# with the Go toolchain at the versions the `tool` lines of clients/go/go.mod
# pin (the same as gateway/go.mod), and replaces the *.pb.go files of OUT_DIR
# (default: clients/go/mdcv1; hand-written files there are left alone).
# The .proto files keep their gateway go_package; M options map every
# mdc/v1/*.proto to this module's import path instead, so the protos are not
# edited for this client.
#
# GOOGLEAPIS_DIR holds google/api/*.proto and google/rpc/*.proto; by default
# scripts/fetch-googleapis.sh fills ${MDC_BUILD_DIR:-build}/third_party/googleapis
# (the folder CMake uses; it does nothing when they are there already).
# MDC_PROTO_ROOT (default: the repository's proto/) is the folder holding
# mdc/v1/*.proto; check_generated.sh's tests point it at an edited copy.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
module=github.com/mdc-project/mdc/clients/go

googleapis_dir=${1:-}
if [ -z "$googleapis_dir" ]; then
  build=${MDC_BUILD_DIR:-build}
  case $build in /*) ;; *) build=$root/$build ;; esac
  googleapis_dir=$build/third_party/googleapis
  "$root/scripts/fetch-googleapis.sh" "$googleapis_dir"
fi
googleapis_dir=$(cd "$googleapis_dir" && pwd)
out_dir=${2:-$here/mdcv1}
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
proto_root=$(cd "${MDC_PROTO_ROOT:-$root/proto}" && pwd)

go=go
if ! command -v "$go" >/dev/null 2>&1; then
  go=/usr/local/go/bin/go
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The plugin versions are the ones go.mod pins with `tool` directives.
(cd "$here" && "$go" build -o "$work/bin/" \
  google.golang.org/protobuf/cmd/protoc-gen-go \
  google.golang.org/grpc/cmd/protoc-gen-go-grpc)

protos=()
maps=()
for path in "$proto_root"/mdc/v1/*.proto; do
  rel=mdc/v1/$(basename "$path")
  protos+=("$rel")
  maps+=("M$rel=$module/mdcv1")
done
go_opts=$(IFS=,; echo "module=$module,${maps[*]}")

mkdir -p "$work/out"
(cd "$proto_root" && protoc -I . -I "$googleapis_dir" \
  --plugin=protoc-gen-go="$work/bin/protoc-gen-go" \
  --plugin=protoc-gen-go-grpc="$work/bin/protoc-gen-go-grpc" \
  --go_out="$work/out" --go_opt="$go_opts" \
  --go-grpc_out="$work/out" --go-grpc_opt="$go_opts" \
  "${protos[@]}")

# Everything must have landed in the package folder: a file elsewhere means a
# proto outside mdc/v1 or a mapping that went wrong.
stray=$(find "$work/out" -type f ! -path "$work/out/mdcv1/*" -print -quit)
if [ -n "$stray" ]; then
  echo "generate.sh: unexpected output ${stray#"$work/out/"}" >&2
  exit 1
fi
rm -f "$out_dir"/*.pb.go
cp "$work/out/mdcv1/"*.pb.go "$out_dir/"
