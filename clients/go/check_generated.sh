#!/usr/bin/env bash
# Fails when the committed clients/go/mdcv1/*.pb.go differ from what
# proto/mdc/v1 generates now (ctest: go-client-generated).
#
#   clients/go/check_generated.sh BUILD_DIR
#
# Regenerates with generate.sh into a temporary folder, using the googleapis
# protos under BUILD_DIR/third_party/googleapis (fetched there when missing),
# and compares file by file. The one line ignored is protoc's version in the
# header comment ("// \tprotoc v3.21.12"): it names the compiler, not the
# code. MDC_PROTO_ROOT is passed on to generate.sh (tests use an edited copy
# of proto/).
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$1"
build_dir=$(cd "$1" && pwd)
googleapis_dir=$build_dir/third_party/googleapis
"$root/scripts/fetch-googleapis.sh" "$googleapis_dir"

fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
"$here/generate.sh" "$googleapis_dir" "$fresh"

committed=$here/mdcv1
status=0
diff_out=$fresh/.diff
: >"$diff_out"
names=$( (cd "$committed" && ls -- *.pb.go 2>/dev/null; cd "$fresh" && ls -- *.pb.go) | sort -u)
for name in $names; do
  if [ ! -f "$committed/$name" ]; then
    echo "missing: clients/go/mdcv1/$name is generated but not committed" >>"$diff_out"
    status=1
  elif [ ! -f "$fresh/$name" ]; then
    echo "stale: clients/go/mdcv1/$name is committed but no proto generates it" >>"$diff_out"
    status=1
  elif ! diff -u -I '^//[[:space:]]*\(- \)\?protoc[[:space:]]\+v[0-9]' \
    --label "committed/$name" --label "generated/$name" \
    "$committed/$name" "$fresh/$name" >>"$diff_out"; then
    status=1
  fi
done

if [ "$status" -ne 0 ]; then
  head -n 200 "$diff_out"
  lines=$(wc -l <"$diff_out")
  [ "$lines" -le 200 ] || echo "... ($((lines - 200)) more lines)"
  echo "FAIL: clients/go/mdcv1 is out of date with proto/mdc/v1;" \
    "run clients/go/generate.sh and commit the result" >&2
  exit 1
fi
echo "clients/go/mdcv1 matches proto/mdc/v1 ($(echo "$names" | wc -w) files)"
