#!/bin/sh
# Runs once, when the postgres image initialises an empty data folder
# (/docker-entrypoint-initdb.d): lets a streaming standby on the compose
# network connect for replication as mdc, with its password. Used by
# compose.yaml's `scale` profile (pg-primary); docs/operations.md, "Read
# replica".
set -eu
echo "host replication mdc all scram-sha-256" >>"$PGDATA/pg_hba.conf"
