#!/usr/bin/env bash
# Runs the whole route gateway on this machine: PostgreSQL, one Kafka broker (9092), the demo upstream
# (9300), the three services and a Prometheus (9090) scraping them with the chart's alerts loaded
# (deploy/local/prometheus.sh), as background processes with PIDs and logs under .local/. Once
# everything is ready it seeds a demo configuration through the admin API (deploy/local/demo.sh:
# idempotent) and prints the demo AccessKey and what to try.
#
#   deploy/local/run.sh [start]       start what is not running, wait until everything is ready
#   deploy/local/run.sh start --build rebuild the service jars first
#   deploy/local/run.sh stop          stop every process this script started, by PID
#   deploy/local/run.sh status
#
# The services run their packaged jars (prod profile) with the local settings below passed as
# environment variables. PostgreSQL is a machine service: stop leaves it running. RUN_KAFKA_PORT
# picks another broker port when 9092 is taken, RUN_PROMETHEUS_PORT another Prometheus port than 9090.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUN_DIR="$LOCAL_DIR/run"
KAFKA_PORT=${RUN_KAFKA_PORT:-9092}
PROMETHEUS_PORT=${RUN_PROMETHEUS_PORT:-9090}
DEMO_PORT=9300
# Lifetime of the access tokens the demo upstream's mock OAuth server issues (RUN_DEMO_OAUTH_ACCESS_TTL_SECONDS).
DEMO_OAUTH_ACCESS_TTL_SECONDS=${RUN_DEMO_OAUTH_ACCESS_TTL_SECONDS:-360}
# Set when this run started the demo upstream, whose mock OAuth server then holds no earlier token.
DEMO_OAUTH_FRESH=0
READY_TIMEOUT=${RUN_READY_TIMEOUT:-180}

# name:port, in start order (state-service first: it migrates the database). Each service's health and
# metrics are on its management port, port + 1000 (quarkus.management.port); everything binds 127.0.0.1.
SERVICES=(state-service:8081 gateway-service:8080 recovery-service:8082)
management_port() { echo $(($1 + 1000)); }

# Local-only settings: the same values as the services' %dev profile, so `../mvnw quarkus:dev` and
# this script can share the route_gateway database.
LOCAL_SECRET_KEY=sDs8+xrgdjb1YeT1e7CxfOuCBybLeoNiShX0VxEUdcY=
LOCAL_ADMIN_TOKEN=local-dev-admin-token
# The internal token state-service presents to recovery-service's API (route.internal-token).
LOCAL_INTERNAL_TOKEN=local-dev-internal-token-0123456789abcdef

# The Ed25519 pair that signs the state topics (route.state-signing.*): state-service signs with the
# private half, the gateway applies only records that verify with the public half. A local-only pair,
# the services' %dev pair, so `../mvnw quarkus:dev` and this script can share the broker. Generate one
# for a real deployment as docs/security.md shows.
LOCAL_SIGNING_KEY_ID=k1
LOCAL_SIGNING_PRIVATE_KEY=MC4CAQAwBQYDK2VwBCIEIFP5ysLqmRA+LoOntuNJ43IrP5Ybd1UWDYfWAhoWj2RE
LOCAL_SIGNING_PUBLIC_KEY=MCowBQYDK2VwAyEAZb/GdEp9qz4J+p2EfK1eQsUnGoiRCSiqJDJAdpib7KY=

# The producers' own Ed25519 pairs (route.producer-signing.*): the gateway and recovery-service each sign
# what they send on route.outcomes and route.usage with their own private half; state-service applies
# only what verifies with one of the public halves. Local-only pairs, the services' %dev pairs.
LOCAL_GATEWAY_SIGNING_PRIVATE_KEY=MC4CAQAwBQYDK2VwBCIEIJN5vx1qDPSErbWVQnp2Gcxfai5FBcmsRRE37eDP3Ee4
LOCAL_GATEWAY_SIGNING_PUBLIC_KEY=MCowBQYDK2VwAyEA1E1BLU6UoQxWqZlXOL1MXtM+bL8Uyvht92yYFa2L3bM=
LOCAL_RECOVERY_SIGNING_PRIVATE_KEY=MC4CAQAwBQYDK2VwBCIEIDDnQr+fY9FESr0MHfJucCKqXb+FIHj3r8G0sg6Pa6P8
LOCAL_RECOVERY_SIGNING_PUBLIC_KEY=MCowBQYDK2VwAyEA2AIaCipvBBQKMyV7yGPv6F5V5tE45DYWd4lFjC/q8zQ=

# ---- PostgreSQL -------------------------------------------------------------------------------

start_postgres() { "$ROOT_DIR/deploy/local/postgres.sh"; }

# ---- Kafka ------------------------------------------------------------------------------------

start_kafka() { "$ROOT_DIR/deploy/local/kafka.sh" start --port "$KAFKA_PORT"; }
stop_kafka() { "$ROOT_DIR/deploy/local/kafka.sh" stop --port "$KAFKA_PORT"; }
status_kafka() { "$ROOT_DIR/deploy/local/kafka.sh" status --port "$KAFKA_PORT" || true; }

# ---- Prometheus -------------------------------------------------------------------------------
# Debian's prometheus, scraping the management ports 9080-9082 with the chart's alerting rules loaded.

# Keycloak (deploy/local/keycloak.sh, realm deploy/local/keycloak/realm.json): the console's and admin
# API's single sign-on. ROUTE_LOCAL_SSO=false leaves it out (and state-service's SSO off).
KEYCLOAK_PORT=${KEYCLOAK_PORT:-8180}
LOCAL_SSO=${ROUTE_LOCAL_SSO:-true}
# Single sign-on is an extra of the local run: when Keycloak does not come up (no JDK 21+, no download), the
# run goes on without it and the console keeps its token sign-in.
start_keycloak() {
  [ "$LOCAL_SSO" = true ] || return 0
  if ! "$ROOT_DIR/deploy/local/keycloak.sh" start --port "$KEYCLOAK_PORT"; then
    log "Keycloak did not start (deploy/local/keycloak.sh status); going on without single sign-on"
    LOCAL_SSO=false
  fi
}
stop_keycloak() { "$ROOT_DIR/deploy/local/keycloak.sh" stop --port "$KEYCLOAK_PORT"; }
status_keycloak() { "$ROOT_DIR/deploy/local/keycloak.sh" status --port "$KEYCLOAK_PORT" || true; }
print_keycloak() { [ "$LOCAL_SSO" = true ] || return 0; "$ROOT_DIR/deploy/local/keycloak.sh" users --port "$KEYCLOAK_PORT"; }

start_prometheus() { "$ROOT_DIR/deploy/local/prometheus.sh" start --port "$PROMETHEUS_PORT"; }
stop_prometheus() { "$ROOT_DIR/deploy/local/prometheus.sh" stop --port "$PROMETHEUS_PORT"; }
status_prometheus() { "$ROOT_DIR/deploy/local/prometheus.sh" status --port "$PROMETHEUS_PORT" || true; }

# ---- Demo upstream ----------------------------------------------------------------------------
# An OpenAI/Anthropic/Gemini-compatible upstream whose accounts switch behaviour at run time
# (demo-upstream module), run from its classes and dependency classpath.

DEMO_MAIN=io.routegateway.demo.DemoUpstream
DEMO_CLASSES="$ROOT_DIR/demo-upstream/target/classes"
DEMO_CLASSPATH_FILE="$ROOT_DIR/demo-upstream/target/runtime-classpath.txt"
DEMO_PID_FILE="$RUN_DIR/demo-upstream.pid"
DEMO_LOG="$RUN_DIR/demo-upstream.log"
# The PID must be a demo upstream on this port, not just any java process.
DEMO_MARKER="$DEMO_MAIN $DEMO_PORT"

build_demo_upstream() {
  local force=$1
  if [ "$force" = 1 ] || [ ! -f "$DEMO_CLASSPATH_FILE" ] || [ ! -f "$DEMO_CLASSES/io/routegateway/demo/DemoUpstream.class" ]; then
    log "Building the demo upstream (mvnw -DskipTests package)"
    "$MVN" -B -q -ntp -f "$ROOT_DIR/pom.xml" -DskipTests package -pl demo-upstream -am
  fi
}

start_demo_upstream() {
  local pid
  if pid=$(live_pid "$DEMO_PID_FILE" "$DEMO_MARKER"); then
    log "demo upstream is already running (PID $pid)"
    return 0
  fi
  port_open "$DEMO_PORT" && die "port $DEMO_PORT for the demo upstream is taken by another process"
  # Short-lived access tokens from its mock OAuth server: with state-service's 5-minute refresh lead
  # the seeded official account (demo.sh) is refreshed about a minute after each issue.
  DEMO_OAUTH_ACCESS_TTL_SECONDS=$DEMO_OAUTH_ACCESS_TTL_SECONDS \
    setsid java -Xmx128m -XX:+UseSerialGC -cp "$(cat "$DEMO_CLASSPATH_FILE"):$DEMO_CLASSES" \
    "$DEMO_MAIN" "$DEMO_PORT" </dev/null >"$DEMO_LOG" 2>&1 &
  pid=$!
  # it knows no token issued before: demo.sh authorizes the official account again
  DEMO_OAUTH_FRESH=1
  echo "$pid" >"$DEMO_PID_FILE"
  local began=$SECONDS
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$DEMO_PORT/_control/accounts")" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 20 "$DEMO_LOG" >&2
      die "the demo upstream exited during start (log: $DEMO_LOG)"
    fi
    [ $((SECONDS - began)) -lt 60 ] || die "the demo upstream is not answering after 60s (log: $DEMO_LOG)"
    sleep 0.2
  done
  log "demo upstream ready on http://127.0.0.1:$DEMO_PORT (PID $pid, log $DEMO_LOG)"
}

stop_demo_upstream() {
  local pid
  if pid=$(live_pid "$DEMO_PID_FILE" "$DEMO_MARKER"); then
    stop_pid "$pid" 10 || die "the demo upstream (PID $pid) did not exit"
    log "demo upstream stopped (PID $pid)"
  fi
  rm -f "$DEMO_PID_FILE"
}

status_demo_upstream() {
  local pid
  if pid=$(live_pid "$DEMO_PID_FILE" "$DEMO_MARKER"); then
    echo "demo-upstream: running on http://127.0.0.1:$DEMO_PORT (PID $pid)"
  else
    echo "demo-upstream: stopped"
  fi
}

seed_demo() {
  DEMO_UPSTREAM_URL="http://127.0.0.1:$DEMO_PORT" ADMIN_TOKEN="$LOCAL_ADMIN_TOKEN" DEMO_OAUTH_FRESH=$DEMO_OAUTH_FRESH \
    "$ROOT_DIR/deploy/local/demo.sh" seed
}

print_demo() {
  DEMO_UPSTREAM_URL="http://127.0.0.1:$DEMO_PORT" ADMIN_TOKEN="$LOCAL_ADMIN_TOKEN" \
    "$ROOT_DIR/deploy/local/demo.sh" info
}

# ---- Services ---------------------------------------------------------------------------------

service_jar() { echo "$ROOT_DIR/$1/target/quarkus-app/quarkus-run.jar"; }
service_pid_file() { echo "$RUN_DIR/$1.pid"; }
service_log() { echo "$RUN_DIR/$1.log"; }

# Environment of one service: what its %dev profile would set, plus where Kafka is.
service_env() {
  local name=$1
  echo "ROUTE_SECRET_ENCRYPTION_KEY=$LOCAL_SECRET_KEY"
  echo "KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:$KAFKA_PORT"
  # The prod profile binds every interface; the local run listens on loopback only.
  echo "QUARKUS_HTTP_HOST=127.0.0.1"
  echo "QUARKUS_MANAGEMENT_HOST=127.0.0.1"
  case $name in
    state-service)
      echo "ROUTE_STATE_SIGNING_PRIVATE_KEY=$LOCAL_SIGNING_PRIVATE_KEY"
      echo "ROUTE_STATE_SIGNING_KEY_ID=$LOCAL_SIGNING_KEY_ID"
      echo "ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS=gateway-k1=$LOCAL_GATEWAY_SIGNING_PUBLIC_KEY,recovery-k1=$LOCAL_RECOVERY_SIGNING_PUBLIC_KEY"
      echo "STATE_ADMIN_TOKEN=$LOCAL_ADMIN_TOKEN"
      if [ "$LOCAL_SSO" = true ]; then
        echo "STATE_OIDC_ENABLED=true"
        echo "STATE_OIDC_ISSUER=http://127.0.0.1:$KEYCLOAK_PORT/realms/route-gateway"
        echo "STATE_OIDC_CLIENT_ID=route-gateway"
        echo "STATE_OIDC_CONSOLE_CLIENT_ID=route-console"
        echo "STATE_OIDC_TEAM_GROUP_PREFIX=team:"
      fi
      echo "ROUTE_INTERNAL_TOKEN=$LOCAL_INTERNAL_TOKEN"
      echo "QUARKUS_DATASOURCE_USERNAME=route"
      echo "QUARKUS_DATASOURCE_PASSWORD=route"
      # Every platform's OAuth token endpoint and authorize page: the demo upstream's mock OAuth
      # server, against which state-service refreshes the seeded official account (demo.sh).
      local platform
      for platform in CODEX CLAUDE GEMINI GROK; do
        echo "ROUTE_OAUTH_${platform}_TOKEN_URL=http://127.0.0.1:$DEMO_PORT/oauth/token"
        echo "ROUTE_OAUTH_${platform}_AUTHORIZE_URL=http://127.0.0.1:$DEMO_PORT/oauth/authorize"
        echo "ROUTE_OAUTH_${platform}_CLIENT_ID=local-demo-${platform,,}"
      done
      ;;
    gateway-service)
      echo "ROUTE_STATE_SIGNING_PUBLIC_KEYS=$LOCAL_SIGNING_KEY_ID=$LOCAL_SIGNING_PUBLIC_KEY"
      echo "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY=$LOCAL_GATEWAY_SIGNING_PRIVATE_KEY"
      # secure defaults, as the chart ships them: a key without limits of its own gets these
      echo "GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_RPM=600"
      echo "GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_TPM=2000000"
      echo "GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_PARALLEL_REQUESTS=32"
      ;;
    recovery-service)
      echo "ROUTE_INTERNAL_TOKEN=$LOCAL_INTERNAL_TOKEN"
      echo "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY=$LOCAL_RECOVERY_SIGNING_PRIVATE_KEY"
      echo "QUARKUS_DATASOURCE_USERNAME=route"
      echo "QUARKUS_DATASOURCE_PASSWORD=route"
      ;;
  esac
}

build_services() {
  local force=$1 entry missing=0
  for entry in "${SERVICES[@]}"; do
    [ -f "$(service_jar "${entry%%:*}")" ] || missing=1
  done
  if [ "$force" = 1 ] || [ "$missing" = 1 ]; then
    log "Building the services (mvnw -DskipTests package)"
    "$MVN" -B -q -ntp -f "$ROOT_DIR/pom.xml" -DskipTests package \
      -pl state-service,gateway-service,recovery-service -am
  fi
}

start_service() {
  local name=$1 port=$2 pid jar
  jar=$(service_jar "$name")
  if pid=$(live_pid "$(service_pid_file "$name")" "$jar"); then
    log "$name is already running (PID $pid)"
    return 0
  fi
  port_open "$port" && die "port $port for $name is taken by another process"
  port_open "$(management_port "$port")" && die "port $(management_port "$port") for $name's management interface is taken by another process"
  local -a env_vars
  mapfile -t env_vars < <(service_env "$name")
  setsid env "${env_vars[@]}" java -Xmx384m -XX:+ExitOnOutOfMemoryError -jar "$jar" </dev/null >"$(service_log "$name")" 2>&1 &
  pid=$!
  echo "$pid" >"$(service_pid_file "$name")"
  log "$name starting (PID $pid, log $(service_log "$name"))"
}

wait_service_ready() {
  local name=$1 port=$2 began=$SECONDS pid
  pid=$(cat "$(service_pid_file "$name")")
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$(management_port "$port")/q/health/ready")" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$(service_log "$name")" >&2
      die "$name exited during start (log: $(service_log "$name"))"
    fi
    [ $((SECONDS - began)) -lt "$READY_TIMEOUT" ] || die "$name not ready after ${READY_TIMEOUT}s (log: $(service_log "$name"))"
    sleep 0.5
  done
  log "$name ready on http://127.0.0.1:$port"
}

stop_service() {
  local name=$1 pid
  if pid=$(live_pid "$(service_pid_file "$name")" "$(service_jar "$name")"); then
    stop_pid "$pid" 30 || die "$name (PID $pid) did not exit"
    log "$name stopped (PID $pid)"
  fi
  rm -f "$(service_pid_file "$name")"
}

status_service() {
  local name=$1 port=$2 pid
  if pid=$(live_pid "$(service_pid_file "$name")" "$(service_jar "$name")"); then
    echo "$name: running on http://127.0.0.1:$port (PID $pid)"
  else
    echo "$name: stopped"
  fi
}

# ---- Commands ---------------------------------------------------------------------------------

print_urls() {
  cat <<TXT

The route gateway is running:
  gateway-service   http://127.0.0.1:8080   (client API)
  console           http://127.0.0.1:8081/console/   (sign in with the admin token: $LOCAL_ADMIN_TOKEN)
  state-service     http://127.0.0.1:8081   (admin API, token: $LOCAL_ADMIN_TOKEN)
  recovery-service  http://127.0.0.1:8082   (internal API: state-service's token only)
  demo upstream     http://127.0.0.1:$DEMO_PORT   (behaviour control: /_control/accounts; mock OAuth server: /_control/oauth)
  health, metrics   http://127.0.0.1:9080|9081|9082/q/health/ready, /q/metrics   (management ports)
  Prometheus        http://127.0.0.1:$PROMETHEUS_PORT/classic/alerts   (the chart's alerts; queries at /classic/graph, docs/observability.md)
  Kafka             127.0.0.1:$KAFKA_PORT
  PostgreSQL        postgresql://route:route@127.0.0.1:5432/route_gateway
  logs              $RUN_DIR/
Stop everything with: deploy/local/run.sh stop
TXT
}

all_running() {
  local entry
  "$ROOT_DIR/deploy/local/kafka.sh" status --port "$KAFKA_PORT" >/dev/null || return 1
  "$ROOT_DIR/deploy/local/prometheus.sh" status --port "$PROMETHEUS_PORT" >/dev/null || return 1
  live_pid "$DEMO_PID_FILE" "$DEMO_MARKER" >/dev/null || return 1
  for entry in "${SERVICES[@]}"; do
    live_pid "$(service_pid_file "${entry%%:*}")" "$(service_jar "${entry%%:*}")" >/dev/null || return 1
  done
}

cmd_start() {
  local force_build=0 entry
  [ "${1:-}" = --build ] && force_build=1
  if [ "$force_build" = 0 ] && all_running; then
    log "Already running."
    seed_demo
    print_urls
    print_demo
    print_keycloak
    return 0
  fi
  mkdir -p "$RUN_DIR"
  start_postgres
  build_services "$force_build"
  build_demo_upstream "$force_build"
  start_kafka
  start_keycloak
  start_demo_upstream
  for entry in "${SERVICES[@]}"; do
    start_service "${entry%%:*}" "${entry##*:}"
    # state-service migrates the schema that the others read: wait for it before starting them.
    if [ "${entry%%:*}" = state-service ]; then
      wait_service_ready state-service "${entry##*:}"
    fi
  done
  for entry in "${SERVICES[@]}"; do
    wait_service_ready "${entry%%:*}" "${entry##*:}"
  done
  start_prometheus
  seed_demo
  print_urls
  print_demo
  print_keycloak
}

cmd_stop() {
  local i name pids=() pid
  if pid=$(live_pid "$LOCAL_DIR/prometheus/$PROMETHEUS_PORT/prometheus.pid" "--config.file=$LOCAL_DIR/prometheus/$PROMETHEUS_PORT/prometheus.yml"); then
    pids+=("$pid")
  fi
  stop_prometheus
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do
    name=${SERVICES[$i]%%:*}
    if pid=$(live_pid "$(service_pid_file "$name")" "$(service_jar "$name")"); then
      pids+=("$pid")
    fi
    stop_service "$name"
  done
  if pid=$(live_pid "$DEMO_PID_FILE" "$DEMO_MARKER"); then
    pids+=("$pid")
  fi
  stop_demo_upstream
  if pid=$(live_pid "$LOCAL_DIR/kafka/$KAFKA_PORT/broker.pid" "io.routegateway.broker.BrokerMain"); then
    pids+=("$pid")
  fi
  stop_kafka
  if pid=$(live_pid "$LOCAL_DIR/keycloak/$KEYCLOAK_PORT/keycloak.pid" "--http-port=$KEYCLOAK_PORT"); then
    pids+=("$pid")
  fi
  stop_keycloak
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      die "process $pid is still running"
    fi
  done
  log "Stopped; none of the processes it stopped (${pids[*]:-none}) remains. PostgreSQL keeps running."
}

cmd_status() {
  local entry
  status_kafka
  status_keycloak
  status_prometheus
  status_demo_upstream
  for entry in "${SERVICES[@]}"; do
    status_service "${entry%%:*}" "${entry##*:}"
  done
}

case ${1:-start} in
  start) shift || true; cmd_start "$@" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 [start [--build]|stop|status]" >&2; exit 2 ;;
esac
