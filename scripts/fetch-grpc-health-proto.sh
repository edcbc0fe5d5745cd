#!/usr/bin/env bash
# Puts grpc/health/v1/health.proto (the standard gRPC health checking
# service) under DEST, taken from the pinned npm package grpc-health-check
# (grpc-node's), whose tarball ships it as proto/health/v1/health.proto. The
# tarball's hash is pinned, so a build never compiles a proto it has not seen
# before. mdc-server compiles it only so that server reflection can describe
# grpc.health.v1.Health: gRPC C++'s built-in health service, which answers
# the calls, does not register its descriptor. Idempotent: does nothing when
# DEST already holds it.
set -euo pipefail
dest=${1:?usage: fetch-grpc-health-proto.sh DEST}
version=2.1.0
sha256=9d522a0c92f07d83820fbe36b53e69d3c45a8fffb65b32d19d8992e926a06d1e
marker="$dest/.grpc-health-check-$version"
[ -f "$marker" ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "grpc-health-check@$version" >/dev/null)
tarball="$tmp/grpc-health-check-$version.tgz"
echo "$sha256  $tarball" | sha256sum --check --quiet - || {
  echo "fetch-grpc-health-proto.sh: grpc-health-check-$version.tgz does not have the pinned hash" >&2
  exit 1
}
tar -xzf "$tarball" -C "$tmp" package/proto/health/v1/health.proto
mkdir -p "$dest/grpc/health/v1"
cp "$tmp/package/proto/health/v1/health.proto" "$dest/grpc/health/v1/health.proto"
touch "$marker"
