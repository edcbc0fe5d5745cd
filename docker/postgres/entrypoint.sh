#!/bin/bash
# The start-up of docker/postgres/Dockerfile's image: on an empty $PGDATA,
# initdb with POSTGRES_USER as superuser and POSTGRES_PASSWORD as its
# password (scram-sha-256 for every TCP client, trust on the local socket),
# POSTGRES_DB created, then every *.sh of /docker-entrypoint-initdb.d run
# against a server listening on the socket only; then exec the command
# (`postgres` with its arguments), listening on every address.
set -euo pipefail

if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set to initialise the database}"
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"

  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$db" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres \
      -c "CREATE DATABASE \"$db\"" >/dev/null
  fi
  for script in /docker-entrypoint-initdb.d/*.sh; do
    [ -e "$script" ] || continue
    echo "docker-entrypoint.sh: running $script"
    bash "$script"
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "docker-entrypoint.sh: database initialised"
fi

exec "$@"
