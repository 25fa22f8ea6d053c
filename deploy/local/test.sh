#!/usr/bin/env bash
# The one test command: every module's tests against a real PostgreSQL and one real Kafka broker.
#
#   deploy/local/test.sh [extra Maven arguments, e.g. -pl state-service -am]
#
# Makes PostgreSQL ready (postgres.sh), starts one broker on a free port for the whole run
# (stopped by PID when this script exits, however it exits), then runs `./mvnw -B verify` with
# -Dkafka.test.bootstrap pointing at that broker. Exits with Maven's exit code.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$ROOT_DIR/deploy/local/postgres.sh"

port=$(free_port_pair "${KAFKA_TEST_PORT:-19092}")
# A test broker starts empty: no topics or offsets left from an earlier run.
rm -rf "$LOCAL_DIR/kafka/$port"
trap '"$ROOT_DIR/deploy/local/kafka.sh" stop --port "$port"' EXIT
broker_began=$SECONDS
"$ROOT_DIR/deploy/local/kafka.sh" start --port "$port"
log "Test broker on 127.0.0.1:$port started in $((SECONDS - broker_began))s (including any build)"

set +e
"$MVN" -B -ntp -f "$ROOT_DIR/pom.xml" verify -Dkafka.test.bootstrap="127.0.0.1:$port" "$@"
status=$?
set -e
exit "$status"
