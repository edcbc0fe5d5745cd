#!/usr/bin/env bash
# Patroni's post_bootstrap (run once, on the member that made the cluster,
# with a superuser connection string as $1): the application's user and
# database, as the postgres image's POSTGRES_USER and POSTGRES_DB make them.
set -euo pipefail
psql "$1" -v ON_ERROR_STOP=1 -v pw="$MDC_PG_PASSWORD" <<'SQL'
CREATE ROLE mdc LOGIN PASSWORD :'pw';
CREATE DATABASE mdc OWNER mdc;
SQL
