#!/usr/bin/env bash
# Starts one Patroni member from the environment (compose.yaml, profile ha):
#   PATRONI_NAME        this member's name, also its host name on the network
#   PATRONI_SCOPE       the cluster's name (default mdc)
#   MDC_ETCD_HOSTS      etcd's client addresses, host:port[,host:port]
#   MDC_PG_PASSWORD     the password of the superuser postgres, the
#                       replication user replicator and the application user mdc
# (Not PATRONI_ETCD_HOSTS: Patroni reads PATRONI_* variables itself, and
# that one would configure etcd v2 besides etcd3.)
# With a first argument `etcd`, runs that command instead (the etcd role).
# The DCS settings are docs/deployment.md's table: synchronous_mode and
# synchronous_mode_strict on, Patroni's default timings.
set -euo pipefail
if [ "${1:-}" = etcd ]; then
  exec "$@"
fi
: "${PATRONI_NAME:?set PATRONI_NAME}" "${MDC_ETCD_HOSTS:?set MDC_ETCD_HOSTS}"
: "${MDC_PG_PASSWORD:?set MDC_PG_PASSWORD}"
config=/tmp/patroni.yml
umask 077
cat >"$config" <<YAML
scope: ${PATRONI_SCOPE:-mdc}
name: ${PATRONI_NAME}
restapi:
  listen: 0.0.0.0:8008
  connect_address: ${PATRONI_NAME}:8008
etcd3:
  hosts: ${MDC_ETCD_HOSTS}
bootstrap:
  dcs:
    ttl: 30
    loop_wait: 10
    retry_timeout: 10
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        max_connections: 100
  initdb:
    - encoding: UTF8
    - data-checksums
  post_bootstrap: /usr/local/bin/patroni-post-bootstrap.sh
postgresql:
  listen: 0.0.0.0:5432
  connect_address: ${PATRONI_NAME}:5432
  data_dir: /var/lib/postgresql/data/pg
  bin_dir: /usr/lib/postgresql/15/bin
  pgpass: /tmp/pgpass
  pg_hba:
    - local all all trust
    - host replication replicator 0.0.0.0/0 scram-sha-256
    - host all all 0.0.0.0/0 scram-sha-256
  authentication:
    superuser:
      username: postgres
      password: "${MDC_PG_PASSWORD}"
    replication:
      username: replicator
      password: "${MDC_PG_PASSWORD}"
  parameters:
    unix_socket_directories: /var/run/postgresql
YAML
exec patroni "$config"
