#!/usr/bin/env bash
# Quarkus dev mode (live coding) for one service, with its PostgreSQL and Kafka chosen as the tests
# choose them (route.test.infra, docs/testing.md):
#
#   deploy/local/dev.sh state-service|gateway-service|recovery-service [extra Maven arguments]
#
# ROUTE_TEST_INFRA=auto (default): Quarkus Dev Services (Testcontainers) when a Docker engine answers
# `docker info` within 5 s, else the local PostgreSQL (route_gateway) and broker (127.0.0.1:9092) of
# deploy/local/run.sh. testcontainers: Dev Services or stop at once; local: never asks Docker.
# The choice is test-support's InfraSelection, run from its source file.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

service=${1:-}
case "$service" in
  state-service|gateway-service|recovery-service) shift ;;
  *) die "usage: deploy/local/dev.sh state-service|gateway-service|recovery-service [maven args]" ;;
esac

setting=${ROUTE_TEST_INFRA:-auto}
docker_answers=false
if [ "$setting" != local ] && command -v docker >/dev/null 2>&1 \
    && timeout 5 docker info >/dev/null 2>&1; then
  docker_answers=true
fi
selection="$ROOT_DIR/test-support/src/main/java/io/routegateway/testsupport/InfraSelection.java"
source_of_infra=$(java "$selection" "$setting" "$docker_answers") || exit 2

profile=dev
if [ "$source_of_infra" = CONTAINER ]; then
  # the %containers profile clears the local URLs, so Dev Services start PostgreSQL and Kafka
  profile=dev,containers
  log "$service: Quarkus Dev Services (Docker answers)"
else
  "$ROOT_DIR/deploy/local/postgres.sh"
  port_open 9092 || log "no broker on 127.0.0.1:9092: start one with deploy/local/kafka.sh start (or run.sh)"
  log "$service: local PostgreSQL and the broker at 127.0.0.1:9092"
fi
cd "$ROOT_DIR/$service"
exec "$MVN" -B -ntp quarkus:dev -Dquarkus.profile="$profile" "$@"
