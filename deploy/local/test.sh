#!/usr/bin/env bash
# The one test command: every module's tests against a real PostgreSQL and one real Kafka broker.
#
#   deploy/local/test.sh [extra Maven arguments, e.g. -pl state-service -am]
#
# Makes PostgreSQL ready (postgres.sh), starts one broker on a free port for the whole run
# (stopped by PID when this script exits, however it exits) and, when the e2e module runs, a
# Keycloak in the background (likewise stopped), then runs `./mvnw -B verify` with
# -Dkafka.test.bootstrap pointing at that broker. Exits with Maven's exit code.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$ROOT_DIR/deploy/local/postgres.sh"

# Another process may take a port between the free-port check and the broker's bind (parallel
# builds on one machine): then the next free pair is tried, a few times.
# Keycloak for the single sign-on browser test (SsoConsoleIT), only when the e2e module is part of the
# run (no -pl, or a -pl naming e2e-tests) and its tests run: started in the background now, so its
# start (about a minute; the first start on a machine also builds it, ~100 s more) overlaps the other
# modules' tests. Its URL goes to the IT as -Dkeycloak.test.url; it is stopped by PID on exit.
e2e_in_run() {
  local arg next=false named=false
  for arg in "$@"; do
    if [ "$next" = true ]; then
      named=true
      [[ ",$arg," == *",e2e-tests,"* ]] && return 0
      next=false
      continue
    fi
    case $arg in
      -pl | --projects) next=true ;;
      -pl=* | --projects=*) named=true; [[ ",${arg#*=}," == *",e2e-tests,"* ]] && return 0 ;;
      -pl*) named=true; [[ ",${arg#-pl}," == *",e2e-tests,"* ]] && return 0 ;;
      -DskipTests | -DskipTests=true | -DskipITs | -DskipITs=true | -Dmaven.test.skip=true) return 1 ;;
    esac
  done
  [ "$named" = false ]
}
keycloak_port=""
keycloak_starter=""
if [ "${ROUTE_TEST_KEYCLOAK:-true}" = true ] && e2e_in_run "$@"; then
  keycloak_port=$(free_port_pair "${KEYCLOAK_TEST_PORT:-18180}")
  mkdir -p "$LOCAL_DIR/keycloak"
  "$ROOT_DIR/deploy/local/keycloak.sh" start --port "$keycloak_port" >"$LOCAL_DIR/keycloak/test-start-$keycloak_port.log" 2>&1 &
  keycloak_starter=$!
  log "Keycloak for the e2e tests starting in the background on 127.0.0.1:$keycloak_port (log .local/keycloak/test-start-$keycloak_port.log)"
fi

port=$(free_port_pair "${KAFKA_TEST_PORT:-19092}")
cleanup() {
  "$ROOT_DIR/deploy/local/kafka.sh" stop --port "$port" || true
  if [ -n "$keycloak_port" ]; then
    [ -n "$keycloak_starter" ] && kill "$keycloak_starter" 2>/dev/null || true
    "$ROOT_DIR/deploy/local/keycloak.sh" stop --port "$keycloak_port" || true
  fi
}
trap cleanup EXIT
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
keycloak_args=()
[ -n "$keycloak_port" ] && keycloak_args=(-Dkeycloak.test.url="http://127.0.0.1:$keycloak_port")
"$MVN" -B -ntp -f "$ROOT_DIR/pom.xml" verify -Dkafka.test.bootstrap="127.0.0.1:$port" "${keycloak_args[@]}" "$@"
status=$?
set -e
exit "$status"
