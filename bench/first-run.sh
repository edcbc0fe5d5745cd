#!/usr/bin/env bash
# Measures the first `make run` on a fresh machine (the README's quick-start
# time): in a podman container made from Debian 12 with what a fresh machine of
# this project's kind has before anything of mdc is installed (build-essential,
# git, curl, python3 with pip, cmake, ninja, GoogleTest, Node.js 20 with npm,
# Go in /usr/local/go; no ccache, Go, npm or pip caches), it clones the
# repository at HEAD into /work/mdc and times `make run` from its start until GET /health
# answers 200, then stops. Prints the wall time and the CPU time the container
# used by then (user + system, all processes), which a loaded machine
# inflates less than the wall time.
#
#   bench/first-run.sh [COMMIT]   (as root; needs what scripts/test-containers.sh installs)
#
# COMMIT (default HEAD) is the commit measured, e.g. an older one to compare
# with. The phases' start times (seconds after `make run` began) are printed
# from the lines scripts/install-deps.sh and scripts/build.sh log.
#
# The container reaches the package registries through the host's network,
# like a machine would; nothing listens outside it.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
# shellcheck source=scripts/containers/base-images.sh
source "$MDC_ROOT/scripts/containers/base-images.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/mdc-first-run.XXXXXX")
name=mdc-first-run-$$
cleanup() {
  podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

configure_podman
make_debian_image
make_go_image
make_node_image
fresh=localhost/mdc-fresh-machine:12
if ! podman image exists "$fresh"; then
  log "making $fresh"
  # Debian's nodejs stands for the machine's preinstalled nodejs package
  # (scripts/install-deps.sh asks dpkg for it); node 20 and npm come first on
  # PATH, as the machine's do.
  podman build --quiet -t "$fresh" -f - "$work" >/dev/null <<EOF
FROM $(go_image_name) AS go
FROM $(node_image_name) AS node
FROM $DEBIAN_IMAGE
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential git curl ca-certificates python3 python3-pip cmake ninja-build \
      googletest nodejs procps \
 && rm -rf /var/lib/apt/lists/*
COPY --from=go /usr/local/go /usr/local/go
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
ENV PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
EOF
fi

commit=$(git -C "$MDC_ROOT" rev-parse --short "${1:-HEAD}")
git -C "$MDC_ROOT" bundle create "$work/repo.bundle" --all >/dev/null 2>&1 || die "git bundle failed"
podman run -d --name "$name" --cpus 2 -v "$work:/in:ro" "$fresh" sleep infinity >/dev/null
podman exec "$name" git -c advice.detachedHead=false clone -q /in/repo.bundle /work/mdc
podman exec "$name" git -C /work/mdc -c advice.detachedHead=false checkout -q "$commit"
cpu_ns() { podman exec "$name" cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null ||
  podman exec "$name" sh -c "awk '/usage_usec/ {print \$2 * 1000}' /sys/fs/cgroup/cpu.stat"; }
cpu0=$(cpu_ns)
log "make run at $commit in a fresh container (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
start=$(date +%s.%N)
# Each line of make run's output, with the seconds since it started.
podman exec -d "$name" bash -c 'cd /work/mdc && t0=$(date +%s) &&
  make run 2>&1 | while IFS= read -r line; do echo "$(($(date +%s) - t0))s $line"; done >/root/run.log'
until podman exec "$name" curl -fsS -o /dev/null --max-time 2 http://127.0.0.1:8080/health 2>/dev/null; do
  if ! podman exec "$name" pgrep -f scripts/run.sh >/dev/null; then
    podman exec "$name" tail -n 40 /root/run.log >&2
    die "make run ended before /health answered"
  fi
  sleep 1
done
end=$(date +%s.%N)
cpu1=$(cpu_ns)
wall=$(python3 -c "print(round($end - $start))")
cpu=$(python3 -c "print(round(($cpu1 - $cpu0) / 1e9))")
podman exec "$name" grep -E '^[0-9]+s (install-deps|build|pg|run)\.sh: ' /root/run.log || true
echo "first make run at $commit: /health answered after ${wall} s wall, ${cpu} s CPU (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
