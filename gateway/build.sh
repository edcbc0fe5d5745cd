#!/usr/bin/env bash
# Builds the mdc REST/JSON gateway.
#
#   gateway/build.sh BUILD_DIR GOOGLEAPIS_DIR
#
# 1. Generates Go code for proto/mdc/v1/*.proto into gen/mdcv1/, the
#    gateway's fast codecs (cmd/codec-gen: internal/codec/fastjson_gen.go,
#    read from gen/mdcv1's descriptors) and the OpenAPI 3 document
#    internal/openapi/openapi.json, using protoc and the
#    protoc plugins pinned by the `tool` lines of go.mod (built from source
#    with the Go toolchain, never downloaded as binaries): protoc-gen-openapiv2
#    writes one merged Swagger 2.0 document (openapi.yaml configures it),
#    which cmd/openapi-gen converts to OpenAPI 3 and completes with what the
#    protos cannot say (internal/openapigen: security, error responses,
#    string forms, examples). This step is skipped when the outputs are newer
#    than every input.
# 2. Builds BUILD_DIR/mdc-gateway (the Go build cache makes a no-op rebuild
#    cheap), with the project version of ../CMakeLists.txt (or MDC_VERSION)
#    for --version.
#
# GOOGLEAPIS_DIR holds google/api/*.proto and google/rpc/*.proto
# (scripts/fetch-googleapis.sh puts them there).
#
# With --generate-only, only step 1 runs: the build (CMakeLists.txt) does
# that first, builds the dashboard (web/build.sh, whose TypeScript client is
# typed from the OpenAPI document) into internal/webui/dist, then runs this
# script again for step 2, so the binary embeds the dashboard.
set -euo pipefail

generate_only=0
if [ $# -eq 3 ] && [ "$3" = --generate-only ]; then
  generate_only=1
elif [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR GOOGLEAPIS_DIR [--generate-only]" >&2
  exit 2
fi
mkdir -p "$1"
build_dir=$(cd "$1" && pwd)
googleapis_dir=$(cd "$2" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")"

go=go
if ! command -v "$go" >/dev/null 2>&1; then
  go=/usr/local/go/bin/go
fi

protos=(../proto/mdc/v1/*.proto)
gen_dir=gen/mdcv1
openapi_out=internal/openapi/openapi.json
# What cmd/codec-gen writes (internal/codecgen/outputs.go lists the same).
codec_outs=(internal/codec/fastjson_gen.go internal/export/quote_wire_gen.go)
stamp=$gen_dir/.stamp
# What the outputs depend on besides file contents: a different googleapis
# folder or protoc forces regeneration too.
stamp_text="googleapis=$googleapis_dir protoc=$(protoc --version)"

up_to_date() {
  [ -f "$stamp" ] && [ -f "$openapi_out" ] || return 1
  local out
  for out in "${codec_outs[@]}"; do
    [ -f "$out" ] || return 1
  done
  [ "$(cat "$stamp")" = "$stamp_text" ] || return 1
  local newer listed sources
  # The gateway's own packages openapi-gen and codec-gen are built from
  # (themselves, internal/openapigen, internal/codecgen and what those
  # import), without the generated code.
  listed=$("$go" list -e -deps -f '{{if not .Standard}}{{.Dir}}{{end}}' ./cmd/openapi-gen ./cmd/codec-gen) || return 1
  mapfile -t sources < <(printf '%s\n' "$listed" | grep -F "$(pwd)/" | grep -vF "$(pwd)/gen/")
  [ "${#sources[@]}" -gt 0 ] || return 1
  newer=$(find "${protos[@]}" build.sh go.mod go.sum openapi.yaml "${sources[@]}" \
    "$googleapis_dir/google/api" "$googleapis_dir/google/rpc" \
    -type f -newer "$stamp" -print -quit)
  [ -z "$newer" ]
}

if ! up_to_date; then
  tools=$(mktemp -d)
  trap 'rm -rf "$tools"' EXIT
  # The plugin versions are the ones go.mod pins with `tool` directives.
  "$go" build -o "$tools/" \
    google.golang.org/protobuf/cmd/protoc-gen-go \
    google.golang.org/grpc/cmd/protoc-gen-go-grpc \
    github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway \
    github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2

  # mdc.swagger.json is what earlier versions of this script embedded.
  rm -rf "$gen_dir" "$openapi_out" internal/openapi/mdc.swagger.json "${codec_outs[@]}"
  mkdir -p "$gen_dir"
  # module=mdc/gateway maps go_package "mdc/gateway/gen/mdcv1" to ./gen/mdcv1.
  # allow_delete_body: the contract has DELETE routes with a JSON body.
  # openapi_naming_strategy=simple: schemas named as the messages (Run, not
  # v1Run); proto3_optional_nullable: optional fields may be null.
  protoc -I ../proto -I "$googleapis_dir" \
    --plugin=protoc-gen-go="$tools/protoc-gen-go" \
    --plugin=protoc-gen-go-grpc="$tools/protoc-gen-go-grpc" \
    --plugin=protoc-gen-grpc-gateway="$tools/protoc-gen-grpc-gateway" \
    --plugin=protoc-gen-openapiv2="$tools/protoc-gen-openapiv2" \
    --go_out=. --go_opt=module=mdc/gateway \
    --go-grpc_out=. --go-grpc_opt=module=mdc/gateway \
    --grpc-gateway_out=. --grpc-gateway_opt=module=mdc/gateway,allow_delete_body=true \
    --openapiv2_out="$tools" \
    --openapiv2_opt=allow_merge=true,merge_file_name=mdc,json_names_for_fields=true,allow_delete_body=true \
    --openapiv2_opt=openapi_naming_strategy=simple,proto3_optional_nullable=true,preserve_rpc_order=true \
    --openapiv2_opt=openapi_configuration=openapi.yaml \
    "${protos[@]}"
  # openapi-gen reads the RPCs' options from the descriptors of gen/mdcv1,
  # so it is built once protoc has written them.
  "$go" build -o "$tools/" ./cmd/openapi-gen ./cmd/codec-gen
  "$tools/openapi-gen" "$tools/mdc.swagger.json" "$openapi_out"
  "$tools/codec-gen" .
  printf '%s' "$stamp_text" >"$stamp"
fi

[ "$generate_only" -eq 0 ] || exit 0

# The version `mdc-gateway --version` prints: MDC_VERSION when set, else the
# one of project(mdc VERSION ...) in the top-level CMakeLists.txt.
version=${MDC_VERSION:-$(sed -n 's/^project(mdc VERSION \([0-9][0-9.]*\).*/\1/p' ../CMakeLists.txt)}
if [ -z "$version" ]; then
  echo "$0: no project(mdc VERSION ...) in ../CMakeLists.txt" >&2
  exit 1
fi
"$go" build -ldflags "-X main.version=$version" -o "$build_dir/mdc-gateway" ./cmd/mdc-gateway
