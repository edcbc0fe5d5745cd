#!/usr/bin/env bash
# Puts the googleapis .proto files mdc imports (google/api/annotations.proto,
# http.proto, field_behavior.proto, google/rpc/status.proto,
# error_details.proto) under DEST, taken from the pinned PyPI package
# googleapis-common-protos. The wheel's hash is pinned too, so a build never
# compiles protos it has not seen before. Idempotent: does nothing when DEST
# already holds them.
set -euo pipefail
dest=${1:?usage: fetch-googleapis.sh DEST}
version=1.76.0
sha256=59e13344a9f3651aa201a03e2bee815a3bf43a4baf1f9ff8a9b62a840ce25fac
marker="$dest/.googleapis-common-protos-$version"
[ -f "$marker" ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'googleapis-common-protos==%s --hash=sha256:%s\n' "$version" "$sha256" >"$tmp/req.txt"
python3 -m pip download --quiet --disable-pip-version-check --no-deps \
  --only-binary=:all: --require-hashes -r "$tmp/req.txt" -d "$tmp/wheel"
mkdir -p "$dest"
python3 - "$tmp/wheel" "$dest" <<'PY'
import glob, sys, zipfile
wheel_dir, dest = sys.argv[1], sys.argv[2]
(wheel,) = glob.glob(wheel_dir + "/*.whl")
with zipfile.ZipFile(wheel) as z:
    protos = [n for n in z.namelist() if n.startswith(("google/api/", "google/rpc/")) and n.endswith(".proto")]
    z.extractall(dest, protos)
PY
touch "$marker"
