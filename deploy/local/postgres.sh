#!/usr/bin/env bash
# Makes the local PostgreSQL server ready for the project; safe to run any number of times.
#
#   installs the Debian package `postgresql` if it is missing, starts the cluster if it is
#   stopped, waits until it accepts connections, and creates the role `route` (password `route`,
#   LOGIN CREATEDB) and the database `route_gateway` owned by it. These credentials are for local
#   development only. Port: PGPORT (default 5432).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PG_PORT=${PGPORT:-5432}
APP_ROLE=route
APP_PASSWORD=route
APP_DB=route_gateway

as_postgres() { (cd /tmp && su postgres -s /bin/sh -c "$*"); }
psql_admin() { as_postgres "psql -X -q -v ON_ERROR_STOP=1 -p $PG_PORT -d postgres -tA -c \"$1\""; }

install_if_missing() {
  if command -v pg_ctlcluster >/dev/null 2>&1 && ls /etc/postgresql/*/main >/dev/null 2>&1; then
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || die "PostgreSQL is not installed; run this script as root to install it"
  log "Installing PostgreSQL (Debian package postgresql)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q postgresql
}

# The cluster version: the one configured for our port, else the newest installed.
cluster_version() {
  local version
  version=$(grep -l -E "^\s*port\s*=\s*$PG_PORT\b" /etc/postgresql/*/main/postgresql.conf 2>/dev/null \
    | sed -E 's#/etc/postgresql/([^/]+)/main/.*#\1#' | sort -V | tail -n 1)
  [ -n "$version" ] || version=$(ls /etc/postgresql | sort -V | tail -n 1)
  echo "$version"
}

start_if_stopped() {
  if pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; then
    return 0
  fi
  local version
  version=$(cluster_version)
  log "Starting PostgreSQL $version (cluster main)"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  local i
  for ((i = 0; i < 60; i++)); do
    pg_isready -q -h 127.0.0.1 -p "$PG_PORT" && return 0
    sleep 1
  done
  die "PostgreSQL did not accept connections on 127.0.0.1:$PG_PORT within 60s"
}

ensure_role_and_database() {
  if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = '$APP_ROLE'")" != 1 ]; then
    log "Creating role $APP_ROLE"
    psql_admin "CREATE ROLE $APP_ROLE LOGIN CREATEDB PASSWORD '$APP_PASSWORD'"
  else
    psql_admin "ALTER ROLE $APP_ROLE LOGIN CREATEDB PASSWORD '$APP_PASSWORD'"
  fi
  if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = '$APP_DB'")" != 1 ]; then
    log "Creating database $APP_DB"
    psql_admin "CREATE DATABASE $APP_DB OWNER $APP_ROLE"
  fi
}

password_login_works() {
  PGPASSWORD=$APP_PASSWORD psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U "$APP_ROLE" -d "$APP_DB" -tA -c 'SELECT 1' \
    >/dev/null 2>&1
}

# A stock Debian cluster accepts passwords (scram-sha-256) on 127.0.0.1. If this one does not,
# allow the app role to log in with its password there, and reload.
ensure_password_login() {
  password_login_works && return 0
  local version hba
  version=$(cluster_version)
  hba=/etc/postgresql/$version/main/pg_hba.conf
  log "Allowing password login for $APP_ROLE on 127.0.0.1 in $hba"
  sed -i "1i host all $APP_ROLE 127.0.0.1/32 scram-sha-256" "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  sleep 1
  password_login_works || die "role $APP_ROLE cannot log in with its password on 127.0.0.1:$PG_PORT"
}

# Already set up: the role logs in with its password and may create test databases.
already_set_up() {
  password_login_works \
    && [ "$(PGPASSWORD=$APP_PASSWORD psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U "$APP_ROLE" -d "$APP_DB" -tA \
      -c 'SELECT rolcreatedb FROM pg_roles WHERE rolname = current_user' 2>/dev/null)" = t ]
}

install_if_missing
start_if_stopped
if ! already_set_up; then
  ensure_role_and_database
  ensure_password_login
fi
log "PostgreSQL ready: postgresql://$APP_ROLE@127.0.0.1:$PG_PORT/$APP_DB"
