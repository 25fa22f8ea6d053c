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

# Another process may take a port between the free-port check and the broker's bind (parallel
# builds on one machine): then the next free pair is tried, a few times.
port=$(free_port_pair "${KAFKA_TEST_PORT:-19092}")
trap '"$ROOT_DIR/deploy/local/kafka.sh" stop --port "$port"' EXIT
broker_began=$SECONDS
for attempt in 1 2 3; do
  # A test broker starts empty: no topics or offsets left from an earlier run.
  rm -rf "$LOCAL_DIR/kafka/$port"
  if "$ROOT_DIR/deploy/local/kafka.sh" start --port "$port"; then
    break
  fi
  [ "$attempt" -lt 3 ] || die "the test broker did not start (3 attempts)"
  log "Test broker did not start on $port; trying the next free pair"
  port=$(free_port_pair "$((port + 2))")
done
log "Test broker on 127.0.0.1:$port started in $((SECONDS - broker_began))s (including any build)"

set +e
"$MVN" -B -ntp -f "$ROOT_DIR/pom.xml" verify -Dkafka.test.bootstrap="127.0.0.1:$port" "$@"
status=$?
set -e
exit "$status"
