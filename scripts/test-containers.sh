#!/usr/bin/env bash
# Proves the container deployment (`make test-containers`; not part of
# `make test`: a first run takes 20-30 minutes on 2 cores). On a Debian 12
# machine with no Docker engine and no container registry:
#
#  1. installs Debian's podman (with runc, netavark, aardvark-dns, iptables) and
#     mmdebstrap, and podman-compose (pinned, from PyPI) into a virtual
#     environment;
#  2. makes the base images locally (scripts/containers/base-images.sh) and
#     builds docker/server.Dockerfile, docker/gateway.Dockerfile and
#     docker/postgres/Dockerfile on them, choosing them through the build
#     arguments only; checks each final image runs as a non-root user and has
#     a health check, and prints the sizes;
#  3. compose.yaml's default services: up, healthy, a developer made with the
#     admin token saves a shortlist and reads it back through the gateway;
#  4. the `scale` profile alone: the standby streams from the primary; a
#     shortlist written through one gateway is read through the other; one
#     server is killed (SIGKILL) and 40 writes through both gateways are all
#     answered 200 and read back; the killed server is started again by its
#     restart policy and becomes healthy;
#  5. the `ha` profile alone: etcd and three Patroni members elect a leader
#     with a synchronous standby; a shortlist is written through the gateway;
#     the leader's container is killed (podman kill: its machine lost);
#     Patroni promotes another member once the leader key expires, the server
#     follows it, a write through the gateway succeeds again (503/504
#     meanwhile, never another error) and the first shortlist reads back;
#     started again on its volume, the old leader rejoins as a standby of
#     the new one.
#
# Every port is published on 127.0.0.1 (free ports chosen here) and every
# call is made from this machine through them; the containers talk to each
# other on the podman network of the compose project. Containers, networks
# and volumes made here are removed at the end, whatever the outcome; the
# images are kept, so a second run rebuilds only what changed.
#
# Podman 4.3 runs health checks from systemd timers; without systemd (as in
# a container, or CI) nothing runs them, so this script runs
# `podman healthcheck run` for every container every 2 s while it works.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=scripts/containers/base-images.sh
source "$MDC_ROOT/scripts/containers/base-images.sh"
# shellcheck source=scripts/containers/api-checks.sh
source "$MDC_ROOT/scripts/containers/api-checks.sh"

PODMAN_COMPOSE_VERSION=1.6.0
started=$SECONDS
project=mdc-test-$$
work=$(mktemp -d "${TMPDIR:-/tmp}/mdc-containers.XXXXXX")
health_pid=

step() { log "[$(((SECONDS - started) / 60))m$(((SECONDS - started) % 60))s] $*"; }

# Setup ----------------------------------------------------------------------

install_tools() {
  local missing=()
  # netavark sets up the networks with iptables, which nothing else pulls in.
  for p in podman runc netavark aardvark-dns iptables mmdebstrap python3-venv curl; do
    dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    step "installing ${missing[*]}"
    apt-get -qq -o DPkg::Lock::Timeout=600 update
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 \
      -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" >/dev/null
  fi
  local venv=$HOME/.cache/mdc/podman-compose-$PODMAN_COMPOSE_VERSION
  if [ ! -x "$venv/bin/podman-compose" ]; then
    step "installing podman-compose $PODMAN_COMPOSE_VERSION from PyPI"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "podman-compose==$PODMAN_COMPOSE_VERSION"
  fi
  PODMAN_COMPOSE=$venv/bin/podman-compose
}

# Health checks every 2 s, as systemd's timers would.
start_health_driver() {
  (
    while true; do
      for c in $(podman ps -q --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
        podman healthcheck run "$c" >/dev/null 2>&1 || true
      done
      sleep 2
    done
  ) &
  health_pid=$!
}

compose() {
  "$PODMAN_COMPOSE" --project-name "$project" -f "$MDC_ROOT/compose.yaml" "$@"
}

compose_down() {
  compose --profile scale --profile ha down --volumes --timeout 10 >/dev/null 2>&1 || true
  # What compose may have left: containers, then the project's volumes and network.
  podman ps -aq --filter "label=io.podman.compose.project=$project" | xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
  podman volume ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman network rm -f >/dev/null 2>&1 || true
}

# shellcheck disable=SC2317 # runs from the EXIT trap
cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  if [ "$status" -ne 0 ] && [ -n "${PODMAN_COMPOSE:-}" ]; then
    log "failed; the last log lines of each container:"
    for c in $(podman ps -aq --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
      echo "---- $(podman inspect -f '{{.Name}}' "$c")" >&2
      podman logs --tail 15 "$c" >&2 2>&1 || true
    done
  fi
  if [ -n "$health_pid" ]; then
    kill "$health_pid" 2>/dev/null || true
    wait "$health_pid" 2>/dev/null || true
  fi
  [ -z "${PODMAN_COMPOSE:-}" ] || compose_down
  rm -rf "$work"
  step "done (exit status $status)"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# Images ---------------------------------------------------------------------

build_images() {
  local go_image node_image
  go_image=$(go_image_name)
  node_image=$(node_image_name)
  step "building mdc-server (docker/server.Dockerfile)"
  nice -n 10 podman build --quiet --layers -f "$MDC_ROOT/docker/server.Dockerfile" -t localhost/mdc-server:latest \
    --build-arg BUILD_IMAGE="$DEBIAN_IMAGE" --build-arg RUNTIME_IMAGE="$DEBIAN_IMAGE" \
    "$MDC_ROOT" >/dev/null
  step "building mdc-gateway (docker/gateway.Dockerfile)"
  nice -n 10 podman build --quiet --layers -f "$MDC_ROOT/docker/gateway.Dockerfile" -t localhost/mdc-gateway:latest \
    --build-arg GO_IMAGE="$go_image" --build-arg NODE_IMAGE="$node_image" \
    --build-arg RUNTIME_IMAGE="$DEBIAN_IMAGE" "$MDC_ROOT" >/dev/null
  step "building mdc-postgres:15 (docker/postgres/Dockerfile)"
  nice -n 10 podman build --quiet --layers -t localhost/mdc-postgres:15 \
    --build-arg BASE_IMAGE="$DEBIAN_IMAGE" "$MDC_ROOT/docker/postgres" >/dev/null
  step "building mdc-patroni (docker/patroni/Dockerfile)"
  nice -n 10 podman build --quiet --layers -t localhost/mdc-patroni:latest \
    --build-arg BASE_IMAGE="$DEBIAN_IMAGE" "$MDC_ROOT/docker/patroni" >/dev/null
}

# check_image NAME: runs as a non-root user and has a health check.
check_image() {
  local user health
  user=$(podman image inspect -f '{{.Config.User}}' "$1")
  health=$(podman image inspect -f '{{if .Config.Healthcheck}}{{join .Config.Healthcheck.Test " "}}{{end}}' "$1")
  case $user in "" | root | 0 | 0:*) die "$1 runs as root" ;; esac
  [ -n "$health" ] || die "$1 has no HEALTHCHECK"
  log "$1: user $user, health check: $health"
}

print_sizes() {
  echo "Image sizes (podman image ls):"
  podman image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' |
    grep -E '^localhost/mdc-(server|gateway|postgres|patroni|debian|golang|node):' | sort | sed 's/^/  /'
}

# Checks ---------------------------------------------------------------------

# wait_healthy CONTAINER SECONDS: until podman reports it healthy.
wait_healthy() {
  local deadline=$((SECONDS + $2)) state
  while true; do
    state=$(podman inspect -f '{{.State.Health.Status}}' "$1" 2>/dev/null || echo missing)
    [ "$state" != healthy ] || return 0
    [ "$SECONDS" -lt "$deadline" ] || die "$1 is $state after $2 s"
    sleep 1
  done
}

# wait_restarted CONTAINER RESTARTS SECONDS: until the container has been
# restarted since it had RESTARTS restarts, runs, and its health check passes.
wait_restarted() {
  local deadline=$((SECONDS + $3))
  local count running
  while true; do
    read -r count running < <(podman inspect -f '{{.RestartCount}} {{.State.Running}}' "$1")
    if [ "$count" -gt "$2" ] && [ "$running" = true ] &&
      podman healthcheck run "$1" >/dev/null 2>&1; then
      return 0
    fi
    [ "$SECONDS" -lt "$deadline" ] || die "$1 was not restarted and healthy within $3 s"
    sleep 1
  done
}

container() { printf '%s_%s_1\n' "$project" "$1"; }

check_default_profile() {
  local gw=http://127.0.0.1:$MDC_HTTP_PORT token uid
  step "compose up (default services)"
  compose up -d >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; die "compose up failed"; }
  wait_health "$gw" 300 || die "$gw/health did not answer 200 within 300 s"
  for s in postgres server gateway; do wait_healthy "$(container "$s")" 120; done
  step "default services healthy; gateway on $gw"
  for s in server gateway; do
    uid=$(podman exec "$(container "$s")" id -u)
    [ "$uid" != 0 ] || die "$s runs as root in its container"
  done
  token=$(new_developer "$gw" collector1)
  save_shortlist "$gw" "$token" 2025-01-06T10:00:00 INFY 1501.5
  expect_shortlist "$gw" "$token" 2025-01-06T10:00:05 INFY 1501.5 5
  step "default services: shortlist saved and read back through the gateway"
  compose down --volumes --timeout 10 >/dev/null 2>&1
}

check_scale_profile() {
  local gw1=http://127.0.0.1:$MDC_SCALE_HTTP_PORT_1 gw2=http://127.0.0.1:$MDC_SCALE_HTTP_PORT_2
  local token state pid restarts victim i gw
  step "compose --profile scale up (scale services alone)"
  compose --profile scale up -d scale-gateway-1 scale-gateway-2 >"$work/up-scale.log" 2>&1 ||
    { cat "$work/up-scale.log" >&2; die "compose up (scale) failed"; }
  wait_health "$gw1" 300 || die "$gw1/health did not answer 200 within 300 s"
  wait_health "$gw2" 120 || die "$gw2/health did not answer 200 within 120 s"
  for s in pg-primary pg-standby scale-server-1 scale-server-2 scale-gateway-1 scale-gateway-2; do
    wait_healthy "$(container "$s")" 120
  done
  step "scale services healthy; gateways on $gw1 and $gw2"

  state=$(podman exec "$(container pg-primary)" psql -U mdc -d mdc -Atc \
    "SELECT string_agg(state, ',') FROM pg_stat_replication")
  [ "$state" = streaming ] || die "pg_stat_replication on the primary: '$state', not one streaming standby"
  state=$(podman exec "$(container pg-standby)" psql -U mdc -d mdc -Atc "SELECT pg_is_in_recovery()")
  [ "$state" = t ] || die "the standby is not in recovery"
  step "the standby streams from the primary"

  token=$(new_developer "$gw1" collector2)
  save_shortlist "$gw1" "$token" 2025-01-07T10:00:00 TCS 3999.5
  expect_shortlist "$gw2" "$token" 2025-01-07T10:00:05 TCS 3999.5 15
  step "a shortlist written through gateway 1 is read through gateway 2"

  victim=$(container scale-server-1)
  pid=$(podman inspect -f '{{.State.Pid}}' "$victim")
  restarts=$(podman inspect -f '{{.RestartCount}}' "$victim")
  kill -KILL "$pid"
  step "scale-server-1 killed (SIGKILL to pid $pid)"
  for ((i = 0; i < 40; i++)); do
    gw=$gw1
    [ $((i % 2)) -eq 0 ] || gw=$gw2
    save_shortlist "$gw" "$token" "2025-01-08T10:$(printf '%02d' "$i"):00" "SYM$i" "$i.5"
  done
  step "40 writes through both gateways answered 200 with one server killed"
  for ((i = 0; i < 40; i += 13)); do
    expect_shortlist "$gw2" "$token" "2025-01-08T10:$(printf '%02d' "$i"):30" "SYM$i" "$i.5" 15
  done
  step "the writes read back"
  wait_restarted "$victim" "$restarts" 120
  step "scale-server-1 started again by its restart policy (pid $(podman inspect -f '{{.State.Pid}}' "$victim")) and healthy"
  compose --profile scale down --volumes --timeout 10 >/dev/null 2>&1
}

# patroni_roles: "member:role" for each member of the ha cluster, from
# Patroni's REST API on the first member that answers.
patroni_roles() {
  local s
  for s in ha-pg-1 ha-pg-2 ha-pg-3; do
    podman exec "$(container "$s")" curl -fsS http://127.0.0.1:8008/cluster 2>/dev/null |
      python3 -c 'import json,sys; print(" ".join(m["name"]+":"+m["role"] for m in json.load(sys.stdin)["members"]))' &&
      return 0
  done
  return 1
}

# role_of ROLE ROLES: the member that has ROLE in patroni_roles' answer.
role_of() {
  tr ' ' '\n' <<<"$2" | sed -n "s/:$1\$//p" | head -n1
}

# wait_ha_roles SECONDS [NOT_LEADER]: until patroni_roles shows a leader
# (other than NOT_LEADER) and a synchronous standby; prints the roles.
wait_ha_roles() {
  local deadline=$((SECONDS + $1)) roles leader
  while true; do
    roles=$(patroni_roles || true)
    leader=$(role_of leader "$roles")
    if [ -n "$leader" ] && [ "$leader" != "${2:-}" ] && [[ "$roles" == *":sync_standby"* ]]; then
      echo "$roles"
      return 0
    fi
    [ "$SECONDS" -lt "$deadline" ] || die "ha members after $1 s: '$roles'"
    sleep 1
  done
}

check_ha_profile() {
  local gw=http://127.0.0.1:$MDC_HA_HTTP_PORT token roles leader new_leader answer code deadline victim
  step "compose --profile ha up (ha services alone)"
  compose --profile ha up -d ha-gateway >"$work/up-ha.log" 2>&1 ||
    { cat "$work/up-ha.log" >&2; die "compose up (ha) failed"; }
  wait_health "$gw" 420 || die "$gw/health did not answer 200 within 420 s"
  for s in ha-etcd ha-pg-1 ha-pg-2 ha-pg-3 ha-server ha-gateway; do
    wait_healthy "$(container "$s")" 180
  done
  roles=$(wait_ha_roles 180)
  step "ha services healthy; members: $roles; gateway on $gw"

  token=$(new_developer "$gw" collector3)
  save_shortlist "$gw" "$token" 2025-01-09T10:00:00 HDFCBANK 1650.5
  leader=$(role_of leader "$roles")
  victim=$(container "$leader")
  # The leader's machine is lost: `podman kill` (SIGKILL to every process;
  # a stop by the user, so its restart policy does not bring it back before
  # its leader key expires) takes its processes and network address away;
  # its volume stays, as a disk would. A frozen container (podman pause) is
  # not used: its kernel still acknowledges TCP, which models a hung
  # database, not a lost machine (docs/operations.md, High availability).
  podman kill -s KILL "$victim" >/dev/null
  step "the leader $leader's container killed (its machine lost)"
  # Writes answer 503 (or the gateway's 504) until Patroni promotes the
  # synchronous standby and the server's pool reaches it; any other answer
  # fails the check.
  deadline=$((SECONDS + 240))
  while true; do
    answer=$(http_call POST "$gw/v1/developer/collector/shortlists" "$token" \
      "$(shortlist_body 2025-01-09T10:05:00 ICICIBANK 1100.5)" 2>/dev/null || echo 000)
    code=$(head -n1 <<<"$answer")
    [ "$code" != 200 ] || break
    case $code in 503 | 504 | 000) ;; *) die "a write during the failover answered $code: $(tail -n +2 <<<"$answer")" ;; esac
    [ "$SECONDS" -lt "$deadline" ] || die "writes did not resume within 240 s of the loss (last $code)"
    sleep 1
  done
  roles=$(wait_ha_roles 60 "$leader")
  new_leader=$(role_of leader "$roles")
  step "writes resumed through the gateway; the new leader is $new_leader; members: $roles"
  expect_shortlist "$gw" "$token" 2025-01-09T10:05:05 ICICIBANK 1100.5 15
  expect_shortlist "$gw" "$token" 2025-01-09T10:00:05 HDFCBANK 1650.5 15
  step "the shortlist acknowledged before the loss reads back from the new leader"
  [ "$(podman inspect -f '{{.State.Running}}' "$victim")" = false ] ||
    die "$leader was started again before the check ended; the failover was not tested"
  podman start "$victim" >/dev/null
  deadline=$((SECONDS + 240))
  until roles=$(patroni_roles) && [ "$(role_of leader "$roles")" = "$new_leader" ] &&
    [[ " $roles" == *" $leader:sync_standby"* || " $roles" == *" $leader:replica"* ]] &&
    podman exec "$victim" curl -fsS -o /dev/null http://127.0.0.1:8008/replica 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || die "$leader did not come back as a standby within 240 s: '$roles'"
    sleep 1
  done
  step "$leader is back as a standby of $new_leader; members: $roles"
  compose --profile ha down --volumes --timeout 10 >/dev/null 2>&1
}

# Main -----------------------------------------------------------------------

[ "$(id -u)" -eq 0 ] || die "run as root (rootful podman, apt-get)"
for tool in go npm python3; do
  command -v "$tool" >/dev/null || die "$tool is needed to make the base images (scripts/install-deps.sh run installs it)"
done
install_tools
configure_podman
step "making the base images"
make_debian_image
make_go_image
make_node_image
build_images
for image in localhost/mdc-server:latest localhost/mdc-gateway:latest localhost/mdc-postgres:15 localhost/mdc-patroni:latest; do
  check_image "$image"
done
print_sizes

MDC_ADMIN_TOKEN=mdc_$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
MDC_PG_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
export MDC_ADMIN_TOKEN MDC_PG_PASSWORD
export MDC_POSTGRES_IMAGE=localhost/mdc-postgres:15
for v in MDC_HTTP_PORT MDC_GRPC_PORT MDC_METRICS_PORT MDC_GATEWAY_METRICS_PORT \
  MDC_SCALE_HTTP_PORT_1 MDC_SCALE_HTTP_PORT_2 MDC_SCALE_METRICS_PORT_1 MDC_SCALE_METRICS_PORT_2 \
  MDC_HA_HTTP_PORT MDC_HA_METRICS_PORT; do
  export "$v=$(free_port)"
done

start_health_driver
check_default_profile
check_scale_profile
check_ha_profile
step "all container checks passed"
