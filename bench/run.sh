#!/usr/bin/env bash
# One command, bounded in time, loopback only: measures the gateway against a direct call to the
# same upstream and against nginx as a plain one-hop proxy, interleaved in one run, and writes a
# markdown report to bench/results/<timestamp>.md (docs/performance.md holds the latest).
#
#   bench/run.sh [--duration SECONDS] [--rounds N] [--build] [--hold] [--streams-only] [--propagation-only]
#
# --streams-only runs only the concurrent-streams and large-body scenarios (bench/StreamLoad.java:
# N concurrent slow streams and 200 KB prompts, direct, through nginx and through the gateway,
# interleaved) and writes their section to bench/results/<timestamp>-streams.md, leaving
# docs/performance.md alone; without it they run after the other figures and their section is part of
# the report. Tuned by STREAM_COUNTS (default "1000 4000 10000"), STREAM_FRAMES (20),
# STREAM_INTERVAL_MS (50), STREAM_SECONDS (measured window per run, 20), STREAM_ROUNDS (2), BODY_KB
# (200), BODY_SECONDS (10). To compare two builds under the same load, GATEWAY_B_APP=<another
# quarkus-app directory> runs the second replica from it (GATEWAY_B_JAVA_OPTS: with other JVM options or
# -D settings) and STREAM_COMPARE=1 adds its runs
# ("gateway-b") to every round.
#
# From STREAM_TLS_FROM streams on (default 10000; STREAM_TLS=1: for every N) the gateway's streams go
# to the demo upstream's TLS port, where the gateway speaks HTTP/2 (ALPN) and multiplexes them on a
# few connections (STREAM_H2_MAX_STREAMS per connection, default 1000), as it does with production
# upstreams; over cleartext HTTP/1.1 it holds an upstream socket per stream and 10,000 streams do not
# fit the open-files limit. The certificate is a throwaway self-signed one for 127.0.0.1/localhost
# (keytool), trusted by the gateways through javax.net.ssl.trustStore. The direct and nginx paths
# stay cleartext HTTP/1.1. nginx runs NGINX_WORKERS workers (default 1, 2 with --streams-only).
#
# --propagation-only measures only the lag between the two gateway replicas (bench/propagation.py,
# LAG_SAMPLES samples after the same warm-up as a full run) with each hop's mean, p99 and max from the
# services' timers, then again on the same models with the preferred credential's model states cleared
# after each sample (one failure on a credential with nothing else cooling; without the clearing,
# sample i meets i-1 cooling models), writes both JSON lines to bench/results/<timestamp>-propagation.json and leaves
# docs/performance.md alone. STATE_WARMUP_ACTIONS (default 1000) sets the admin actions that warm
# state-service's apply path first; SAMPLE_PAUSE_S (default 0) is passed to bench/propagation.py.
#
# --hold starts and seeds everything, prints the ports and keys, and waits (for profiling by hand)
# instead of measuring; Ctrl-C stops it all.
#
# What runs: PostgreSQL (postgres.sh) with a fresh route_bench database, one Kafka broker, the
# demo upstream as the fast mock (JSON and SSE), nginx-light, a plain one-hop Vert.x proxy
# (bench/PlainVertxProxy.java, the floor of a JVM proxy on the gateway's stack), state-service consuming every event,
# and two gateway replicas with everything on (AccessKey auth, selection over a 50-credential pool,
# classification, outcome + usage publishing). Every process is stopped by PID on exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../deploy/local/lib.sh"

DURATION=10
ROUNDS=3
BUILD=0
HOLD=0
STREAMS_ONLY=0
PROPAGATION_ONLY=0
while [ $# -gt 0 ]; do
  case $1 in
    --duration) DURATION=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --build) BUILD=1; shift ;;
    --hold) HOLD=1; shift ;;
    --streams-only) STREAMS_ONLY=1; shift ;;
    --propagation-only) PROPAGATION_ONLY=1; shift ;;
    *) die "unknown argument $1" ;;
  esac
done

BENCH_DIR="$LOCAL_DIR/bench"
RESULTS_DIR="$ROOT_DIR/bench/results"
UPSTREAM_PORT=19300
NGINX_PORT=19301
# the demo upstream's TLS port (HTTP/2 by ALPN)
UPSTREAM_TLS_PORT=19302
# the plain Vert.x proxy (bench/PlainVertxProxy.java): the floor of a JVM proxy on the gateway's stack
VERTX_PROXY_PORT=19303
TLS_PASSWORD=bench-throwaway-store
STATE_PORT=19081
GATEWAY_PORT=19080
GATEWAY_B_PORT=19083
# Management interfaces (health, metrics) of the three processes.
STATE_MANAGEMENT_PORT=19181
GATEWAY_MANAGEMENT_PORT=19180
GATEWAY_B_MANAGEMENT_PORT=19183
ADMIN_TOKEN=bench-admin-token
SECRET_KEY=sDs8+xrgdjb1YeT1e7CxfOuCBybLeoNiShX0VxEUdcY=
POOL_SIZE=50
LAG_PREFERRED_SECRET=lag-preferred-secret
LAG_SAMPLES=100
# JVM options of both gateways (override to compare); the default is what the image runs with
# (gateway-service/src/main/docker/Dockerfile.jvm), as is MALLOC_ARENA_MAX below
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS:--XX:+UseSerialGC -Xms64m -Xmx256m -Xmn48m -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=128m}
LAG_WARMUP_SAMPLES=20
# admin pause/resume pairs that warm state-service's apply -> outbox -> relay path before measuring
STATE_WARMUP_ACTIONS=${STATE_WARMUP_ACTIONS:-1000}
# protocol bridges: sequential requests per scenario and round (bench/bridges.py)
BRIDGE_REQUESTS=200
BRIDGE_ROUNDS=3
# concurrent streams and large bodies (bench/StreamLoad.java)
STREAM_COUNTS=${STREAM_COUNTS:-1000 4000 10000}
STREAM_FRAMES=${STREAM_FRAMES:-20}
STREAM_INTERVAL_MS=${STREAM_INTERVAL_MS:-50}
STREAM_SECONDS=${STREAM_SECONDS:-20}
STREAM_ROUNDS=${STREAM_ROUNDS:-2}
BODY_KB=${BODY_KB:-200}
BODY_SECONDS=${BODY_SECONDS:-10}
STREAM_COMPARE=${STREAM_COMPARE:-0}
STREAM_TLS=${STREAM_TLS:-0}
STREAM_TLS_FROM=${STREAM_TLS_FROM:-10000}
STREAM_H2_MAX_STREAMS=${STREAM_H2_MAX_STREAMS:-1000}
STREAM_TLS_WARMUP_SECONDS=${STREAM_TLS_WARMUP_SECONDS:-30}
# nginx workers: one for the throughput figures (as they have always been measured), two for the
# streams alone (10,000 streams need 20,000 sockets, more than one process may open here)
NGINX_WORKERS=${NGINX_WORKERS:-$([ "$STREAMS_ONLY" = 1 ] && echo 2 || echo 1)}
GATEWAY_APP=${GATEWAY_APP:-$ROOT_DIR/gateway-service/target/quarkus-app}
GATEWAY_B_APP=${GATEWAY_B_APP:-$GATEWAY_APP}
GATEWAY_B_JAVA_OPTS=${GATEWAY_B_JAVA_OPTS:-$GATEWAY_JAVA_OPTS}
PIDS=()

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do stop_pid "$pid" 20 || true; done
  [ -f "$BENCH_DIR/nginx/nginx.pid" ] && stop_pid "$(cat "$BENCH_DIR/nginx/nginx.pid")" 10 || true
  [ -n "${KAFKA_PORT:-}" ] && "$ROOT_DIR/deploy/local/kafka.sh" stop --port "$KAFKA_PORT" || true
}
trap cleanup EXIT
trap "exit 130" INT TERM

install_tools() {
  local missing=()
  if [ "$STREAMS_ONLY" = 0 ]; then
    command -v wrk >/dev/null || missing+=(wrk)
  fi
  command -v nginx >/dev/null || missing+=(nginx-light)
  command -v python3 >/dev/null || missing+=(python3)
  if [ ${#missing[@]} -gt 0 ]; then
    log "Installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

build() {
  local jar
  for jar in gateway-service/target/quarkus-app/quarkus-run.jar state-service/target/quarkus-app/quarkus-run.jar \
    demo-upstream/target/runtime-classpath.txt; do
    [ -f "$ROOT_DIR/$jar" ] || BUILD=1
  done
  if [ "$BUILD" = 1 ]; then
    log "Building gateway-service, state-service, demo-upstream"
    "$MVN" -B -q -ntp -f "$ROOT_DIR/pom.xml" -DskipTests -Dspotless.check.skip=true package \
      -pl gateway-service,state-service,demo-upstream -am
  fi
}

fresh_database() {
  "$ROOT_DIR/deploy/local/postgres.sh" >/dev/null
  su postgres -c "psql -q -c 'DROP DATABASE IF EXISTS route_bench WITH (FORCE)' -c 'CREATE DATABASE route_bench OWNER route'" >/dev/null
}

# A throwaway self-signed certificate for the upstream's TLS port (SAN 127.0.0.1 and localhost: the
# gateway's client verifies the host) and a trust store holding it for the gateways.
tls_material() {
  TLS_DIR="$BENCH_DIR/tls"
  rm -rf "$TLS_DIR"
  mkdir -p "$TLS_DIR"
  keytool -genkeypair -alias upstream -keyalg RSA -keysize 2048 -validity 2 -dname CN=localhost \
    -ext san=ip:127.0.0.1,dns:localhost -storetype PKCS12 -keystore "$TLS_DIR/upstream.p12" \
    -storepass "$TLS_PASSWORD" -keypass "$TLS_PASSWORD" >/dev/null 2>&1
  keytool -exportcert -rfc -alias upstream -keystore "$TLS_DIR/upstream.p12" -storepass "$TLS_PASSWORD" \
    -file "$TLS_DIR/upstream.crt" >/dev/null 2>&1
  keytool -importcert -noprompt -alias upstream -file "$TLS_DIR/upstream.crt" -storetype PKCS12 \
    -keystore "$TLS_DIR/trust.p12" -storepass "$TLS_PASSWORD" >/dev/null 2>&1
  TLS_TRUST_OPTS="-Djavax.net.ssl.trustStore=$TLS_DIR/trust.p12 -Djavax.net.ssl.trustStorePassword=$TLS_PASSWORD"
  TLS_TRUST_OPTS+=" -Djavax.net.ssl.trustStoreType=PKCS12"
}

start_bg() { # name, log, command...
  local name=$1 logfile=$2
  shift 2
  setsid "$@" </dev/null >"$logfile" 2>&1 &
  PIDS+=("$!")
  eval "${name}_PID=$!"
}

wait_http() { # url, expected status, what
  local began=$SECONDS
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = "$2" ]; do
    [ $((SECONDS - began)) -lt 180 ] || die "$3 not ready after 180s"
    sleep 0.5
  done
}

service_env() {
  echo "ROUTE_SECRET_ENCRYPTION_KEY=$SECRET_KEY"
  echo "KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:$KAFKA_PORT"
  echo "ROUTE_DB_NAME=route_bench"
  echo "QUARKUS_DATASOURCE_USERNAME=route"
  echo "QUARKUS_DATASOURCE_PASSWORD=route"
  echo "STATE_ADMIN_TOKEN=$ADMIN_TOKEN"
  # state-service needs an internal token to start (no recovery-service runs in the bench).
  echo "ROUTE_INTERNAL_TOKEN=bench-internal-token-0123456789abcdef0123"
  # Local-only state-signing pair (the services' %test pair): state-service signs, the gateways verify.
  echo "ROUTE_STATE_SIGNING_PRIVATE_KEY=MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P"
  echo "ROUTE_STATE_SIGNING_PUBLIC_KEYS=k1=MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng="
  # Local-only producer pair (the gateway's %test pair): the gateways sign outcomes and usage, state-service verifies.
  echo "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY=MC4CAQAwBQYDK2VwBCIEICnFtW7N9evTTjwTt5rJbdTK3F74pDfeaCBomm6OSyHI"
  echo "ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS=gateway-k1=MCowBQYDK2VwAyEAyL++vtLwIJIfzGajycvV3kZzyNJ4oMg1S/7M8jimpis="
  # as the chart sets it: one upstream connection per concurrent stream (bench/StreamLoad.java holds up to 10,000)
  echo "ROUTE_UPSTREAM_HTTP1_CONNECTIONS_PER_HOST=12000"
  echo "QUARKUS_LOG_LEVEL=WARN"
  echo "QUARKUS_HTTP_HOST=127.0.0.1"
  echo "QUARKUS_MANAGEMENT_HOST=127.0.0.1"
}

start_services() {
  local -a env_vars
  mapfile -t env_vars < <(service_env)
  start_bg STATE "$BENCH_DIR/state.log" env "${env_vars[@]}" QUARKUS_HTTP_PORT=$STATE_PORT QUARKUS_MANAGEMENT_PORT=$STATE_MANAGEMENT_PORT \
    java -Xmx384m -jar "$ROOT_DIR/state-service/target/quarkus-app/quarkus-run.jar"
  wait_http "http://127.0.0.1:$STATE_MANAGEMENT_PORT/q/health/ready" 200 state-service
}

start_gateways() {
  local -a env_vars
  mapfile -t env_vars < <(service_env)
  start_bg GATEWAY "$BENCH_DIR/gateway-a.log" env "${env_vars[@]}" MALLOC_ARENA_MAX=2 QUARKUS_HTTP_PORT=$GATEWAY_PORT QUARKUS_MANAGEMENT_PORT=$GATEWAY_MANAGEMENT_PORT \
    java $GATEWAY_JAVA_OPTS $TLS_TRUST_OPTS -jar "$GATEWAY_APP/quarkus-run.jar"
  start_bg GATEWAY_B "$BENCH_DIR/gateway-b.log" env "${env_vars[@]}" MALLOC_ARENA_MAX=2 QUARKUS_HTTP_PORT=$GATEWAY_B_PORT QUARKUS_MANAGEMENT_PORT=$GATEWAY_B_MANAGEMENT_PORT \
    java $GATEWAY_B_JAVA_OPTS $TLS_TRUST_OPTS -jar "$GATEWAY_B_APP/quarkus-run.jar"
  wait_http "http://127.0.0.1:$GATEWAY_MANAGEMENT_PORT/q/health/ready" 200 gateway-a
  wait_http "http://127.0.0.1:$GATEWAY_B_MANAGEMENT_PORT/q/health/ready" 200 gateway-b
}

admin() { # method path [json]
  curl -sf -X "$1" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
    "http://127.0.0.1:$STATE_PORT/admin/v1$2" ${3:+-d "$3"}
}

seed() {
  local i ids=()
  admin POST /groups '{"id":"bench","name":"bench","weight_mode":"auto","affinity_enabled":false}' >/dev/null
  for ((i = 0; i < POOL_SIZE; i++)); do
    admin POST /credentials "{\"id\":\"bench-$i\",\"name\":\"bench $i\",\"platform\":\"openai\",\"kind\":\"api\",
      \"base_url\":\"http://127.0.0.1:$UPSTREAM_PORT\",\"secret\":\"bench-upstream-$i\",
      \"model_mappings\":[{\"from\":\"bench-model\",\"to\":\"bench-model\"},{\"from\":\"other-$((i % 5))\",\"to\":\"other-up-$((i % 5))\"}],
      \"failure_policy\":{\"cooldown_enabled\":true,\"cooldown_seconds\":10},
      \"priority\":$((i % 3 == 0 ? 0 : 1)),\"group_ids\":[\"bench\"]}" >/dev/null
  done
  ACCESS_KEY=$(new_access_key bench bench)
  # The same pool on the upstream's TLS port (HTTP/2), in a group of its own with its own key: the
  # concurrent-streams scenario's gateway path from STREAM_TLS_FROM streams on.
  admin POST /groups '{"id":"bench-tls","name":"bench over TLS","weight_mode":"auto","affinity_enabled":false}' >/dev/null
  for ((i = 0; i < POOL_SIZE; i++)); do
    admin POST /credentials "{\"id\":\"bench-tls-$i\",\"name\":\"bench tls $i\",\"platform\":\"openai\",\"kind\":\"api\",
      \"base_url\":\"https://127.0.0.1:$UPSTREAM_TLS_PORT\",\"secret\":\"bench-tls-upstream-$i\",
      \"model_mappings\":[{\"from\":\"bench-model\",\"to\":\"bench-model\"}],
      \"failure_policy\":{\"cooldown_enabled\":true,\"cooldown_seconds\":10},
      \"priority\":$((i % 3 == 0 ? 0 : 1)),\"group_ids\":[\"bench-tls\"]}" >/dev/null
  done
  TLS_ACCESS_KEY=$(new_access_key bench-tls bench-tls)
  # The propagation pool: a preferred credential without retries and a fallback, 130 models each
  # (one per sample, warm-up included; never all cooling, which would escalate to the account).
  local lag_models
  lag_models=$(python3 -c 'import json; print(json.dumps([{"from": f"lag-m{i}", "to": f"lag-u{i}"} for i in range(1, 131)]))')
  admin POST /groups '{"id":"lag","name":"lag","weight_mode":"auto","affinity_enabled":false}' >/dev/null
  admin POST /credentials "{\"id\":\"lag-preferred\",\"name\":\"lag preferred\",\"platform\":\"openai\",\"kind\":\"api\",
    \"base_url\":\"http://127.0.0.1:$UPSTREAM_PORT\",\"secret\":\"$LAG_PREFERRED_SECRET\",\"model_mappings\":$lag_models,
    \"failure_policy\":{\"cooldown_enabled\":true,\"cooldown_seconds\":300,\"retry_count\":0},
    \"priority\":0,\"group_ids\":[\"lag\"]}" >/dev/null
  admin POST /credentials "{\"id\":\"lag-fallback\",\"name\":\"lag fallback\",\"platform\":\"openai\",\"kind\":\"api\",
    \"base_url\":\"http://127.0.0.1:$UPSTREAM_PORT\",\"secret\":\"lag-fallback-secret\",\"model_mappings\":$lag_models,
    \"priority\":1,\"group_ids\":[\"lag\"]}" >/dev/null
  LAG_ACCESS_KEY=$(new_access_key lag lag)
  # The bridge pools: one group per upstream protocol whose only credential is of a platform that
  # speaks it (relay: Chat, codex: Responses, claude: Messages, gemini: Gemini); a client of another
  # protocol reaches it through the bridge, one of its own natively.
  local upstream platform keys=()
  for upstream in chat:openai responses:codex anthropic:claude gemini:gemini; do
    platform=${upstream#*:}
    upstream=${upstream%%:*}
    admin POST /groups "{\"id\":\"br-$upstream\",\"name\":\"bridge $upstream\",\"weight_mode\":\"auto\",\"affinity_enabled\":false}" >/dev/null
    admin POST /credentials "{\"id\":\"br-$upstream\",\"name\":\"bridge $upstream\",\"platform\":\"$platform\",\"kind\":\"api\",
      \"base_url\":\"http://127.0.0.1:$UPSTREAM_PORT\",\"secret\":\"bridge-upstream-$upstream\",
      \"model_mappings\":[{\"from\":\"bridge-model\",\"to\":\"bridge-up\"}],\"group_ids\":[\"br-$upstream\"]}" >/dev/null
    keys+=("\"$upstream\":\"$(new_access_key "bridge-$upstream" "br-$upstream")\"")
  done
  BRIDGE_KEYS="{$(IFS=,; echo "${keys[*]}")}"
}

new_access_key() { # name group -> plaintext key
  local key
  key=$(admin POST /access-keys "{\"name\":\"$1\",\"group_ids\":[\"$2\"]}" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("key") or d.get("plaintext_key") or d.get("access_key"))')
  [ -n "$key" ] && [ "$key" != None ] || die "could not create the $1 access key"
  echo "$key"
}

wrk_rps() { # url script connections
  BENCH_KEY=$KEY wrk -t2 -c"$3" -d"${DURATION}s" -s "$ROOT_DIR/bench/$2" "$1" 2>&1 | tee -a "$RAW" |
    awk '/Requests\/sec/ {print $2} /Non-2xx/ {print "non2xx=" $5 > "/dev/stderr"}'
}

wrk_latency() { # url -> "p50 p99" in microseconds
  BENCH_KEY=$KEY wrk -t1 -c1 -d"${DURATION}s" --latency -s "$ROOT_DIR/bench/post-json.lua" "$1" 2>&1 | tee -a "$RAW" |
    awk 'function us(v) { if (v ~ /us$/) return v+0; if (v ~ /ms$/) return (v+0)*1000; if (v ~ /s$/) return (v+0)*1000000; return v }
         $1 == "50%" {p50 = us($2)} $1 == "99%" {p99 = us($2)} END {print p50, p99}'
}

rss_sampler() { # pid -> max RSS in MB on stdout when killed
  local pid=$1 max=0 rss
  trap 'echo $((max / 1024)); exit 0' TERM
  while kill -0 "$pid" 2>/dev/null; do
    rss=$(ps -o rss= -p "$pid" 2>/dev/null | tr -d ' ')
    [ -n "$rss" ] && [ "$rss" -gt "$max" ] && max=$rss
    sleep 0.5
  done
}

usage_backlog() { # usage records the gateways handed to Kafka that state-service has not stored yet
  local published stored
  published=$(for port in "$GATEWAY_MANAGEMENT_PORT" "$GATEWAY_B_MANAGEMENT_PORT"; do curl -s "http://127.0.0.1:$port/q/metrics"; done |
    awk '/^gateway_events_published_total\{topic="route.usage"/ {sum += $2} END {printf "%d", sum}')
  stored=$(curl -s "http://127.0.0.1:$STATE_MANAGEMENT_PORT/q/metrics" |
    awk '/^state_usage_records_total/ {sum += $2} END {printf "%d", sum}')
  echo $((published > stored ? published - stored : 0))
}

# nginx's master and worker PIDs, comma-separated (StreamLoad sums their CPU, RSS and descriptors)
nginx_pids() {
  local master workers i
  for ((i = 0; i < 50; i++)); do
    master=$(cat "$BENCH_DIR/nginx/nginx.pid" 2>/dev/null || true)
    workers=$([ -n "$master" ] && cat "/proc/$master/task/$master/children" 2>/dev/null || true)
    [ "$(wc -w <<<"$workers")" -lt "$NGINX_WORKERS" ] || { echo "$master,$(tr -s ' ' ',' <<<"${workers% }")"; return 0; }
    sleep 0.1
  done
  return 1
}

# The upstream's counters so far as one JSON line: requests per HTTP version and its TLS port's
# connections (opened, open, most open at once), which show how the gateway reached it.
upstream_protocols() { # label asked
  curl -s "http://127.0.0.1:$UPSTREAM_PORT/_control/accounts" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(json.dumps({"upstream_after": sys.argv[1], "asked": int(sys.argv[2]),
                  "requests_by_version": d.get("requests_by_version"), "tls_connections": d.get("tls_connections")}))' \
    "$1" "$2" || true
}

# One streamed request through the gateway on the TLS pool: the gateways trust the throwaway
# certificate and reach the upstream's TLS port (retried while the gateway's state settles).
check_tls_path() {
  local status began=$SECONDS
  until status=$(curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $TLS_ACCESS_KEY" \
    -H 'content-type: application/json' -d '{"model":"bench-model","stream":true,"messages":[{"role":"user","content":"hi"}]}' \
    "http://127.0.0.1:$GATEWAY_PORT/v1/chat/completions") && [ "$status" = 200 ]; do
    [ $((SECONDS - began)) -lt 30 ] || die "the gateway's TLS path answered $status (see $BENCH_DIR/gateway-a.log)"
    sleep 1
  done
  log "Gateway -> upstream over TLS: $(upstream_protocols check 0)"
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

stream_load() { # mode label port key [args...] -> one JSON line (bench/StreamLoad.java)
  local mode=$1 label=$2 port=$3 key=$4
  shift 4
  java -Xmx1g -XX:+UseSerialGC -cp "$(cat "$ROOT_DIR/demo-upstream/target/runtime-classpath.txt")" \
    "$ROOT_DIR/bench/StreamLoad.java" "$mode" --label "$label" --port "$port" --key "$key" "$@" 2>>"$RAW" ||
    echo "{\"label\":\"$label\",\"error\":\"not measured, see the raw log\"}"
}

# The concurrent-streams scenario (N slow streams at once, direct, through nginx and through the first
# gateway, interleaved per round; through the gateway over the upstream's TLS port from
# STREAM_TLS_FROM streams on) and the large-body one (200 KB prompts against small ones, CPU per
# request and per KB); every figure is written as one JSON line to $BENCH_DIR/streams.jsonl, and the
# section to $BENCH_DIR/streams.md (bench/streams_report.py).
streams_scenarios() {
  local out="$BENCH_DIR/streams.jsonl" n r fd_limit cap_single cap_relay cap_nginx
  : >"$out"
  fd_limit=$(ulimit -n)
  # how many streams a path can hold within the open-files limit: the direct upstream and a gateway
  # relaying over HTTP/2 hold one socket per stream (plus a few upstream connections), a gateway over
  # cleartext HTTP/1.1 two (leave room for its JVM, Kafka and PostgreSQL connections), each nginx
  # worker two for its share
  cap_single=$((fd_limit - 500))
  cap_relay=$(((fd_limit - 500) / 2))
  cap_nginx=$((NGINX_WORKERS * (fd_limit - 500) / 2))
  log "Concurrent streams: ${STREAM_COUNTS} streams of $STREAM_FRAMES frames ${STREAM_INTERVAL_MS} ms apart (fd limit $fd_limit)"
  # warm the streaming path (JIT) before the first measured run: after the throughput rounds a short
  # one is enough, alone (--streams-only) the JIT needs about a minute of streams
  local warm=15 tls_any=$STREAM_TLS
  [ "$STREAMS_ONLY" = 0 ] || warm=${STREAM_WARMUP_SECONDS:-60}
  for n in $STREAM_COUNTS; do [ "$n" -lt "$STREAM_TLS_FROM" ] || tls_any=1; done
  stream_load streams warm-up "$GATEWAY_PORT" "$ACCESS_KEY" --streams 500 --frames "$STREAM_FRAMES" \
    --interval-ms "$STREAM_INTERVAL_MS" --seconds "$warm" >/dev/null
  stream_load streams warm-up "$VERTX_PROXY_PORT" bench-upstream-0 --streams 500 --frames "$STREAM_FRAMES" \
    --interval-ms "$STREAM_INTERVAL_MS" --seconds "$((warm / 2))" >/dev/null
  if [ "$tls_any" = 1 ]; then
    # the HTTP/2 and TLS code of the upstream client is compiled separately
    stream_load streams warm-up "$GATEWAY_PORT" "$TLS_ACCESS_KEY" --streams 500 --frames "$STREAM_FRAMES" \
      --interval-ms "$STREAM_INTERVAL_MS" --seconds "$STREAM_TLS_WARMUP_SECONDS" >/dev/null
  fi
  if [ "$STREAM_COMPARE" = 1 ]; then
    stream_load streams warm-up "$GATEWAY_B_PORT" "$ACCESS_KEY" --streams 500 --frames "$STREAM_FRAMES" \
      --interval-ms "$STREAM_INTERVAL_MS" --seconds "$warm" >/dev/null
    if [ "$tls_any" = 1 ]; then
      stream_load streams warm-up "$GATEWAY_B_PORT" "$TLS_ACCESS_KEY" --streams 500 --frames "$STREAM_FRAMES" \
        --interval-ms "$STREAM_INTERVAL_MS" --seconds "$STREAM_TLS_WARMUP_SECONDS" >/dev/null
    fi
  fi
  for n in $STREAM_COUNTS; do
    local tls=$STREAM_TLS gw_key=$ACCESS_KEY gw_label=gateway gw_cap=$cap_relay
    if [ "$n" -ge "$STREAM_TLS_FROM" ]; then tls=1; fi
    if [ "$tls" = 1 ]; then gw_key=$TLS_ACCESS_KEY gw_label=gateway-tls gw_cap=$cap_single; fi
    local direct_n=$((n < cap_single ? n : cap_single)) nginx_n=$((n < cap_nginx ? n : cap_nginx))
    local gw_n=$((n < gw_cap ? n : gw_cap))
    local common=(--asked "$n" --frames "$STREAM_FRAMES" --interval-ms "$STREAM_INTERVAL_MS" --seconds "$STREAM_SECONDS")
    for ((r = 1; r <= STREAM_ROUNDS; r++)); do
      echo "{\"uptime\":\"$(uptime | sed 's/.*load/load/')\",\"asked\":$n,\"round\":$r}" >>"$out"
      stream_load streams direct "$UPSTREAM_PORT" bench-upstream-0 --streams "$direct_n" "${common[@]}" \
        --watch "upstream=$UPSTREAM_PID" >>"$out"
      stream_load streams nginx "$NGINX_PORT" bench-upstream-0 --streams "$nginx_n" "${common[@]}" \
        --watch "nginx=$(nginx_pids)" --watch "upstream=$UPSTREAM_PID" >>"$out"
      stream_load streams vertx "$VERTX_PROXY_PORT" bench-upstream-0 --streams "$((n < cap_relay ? n : cap_relay))" \
        "${common[@]}" --watch "vertx=$VERTX_PROXY_PID" --watch "upstream=$UPSTREAM_PID" >>"$out"
      stream_load streams "$gw_label" "$GATEWAY_PORT" "$gw_key" --streams "$gw_n" "${common[@]}" \
        --watch "gateway=$GATEWAY_PID" --watch "upstream=$UPSTREAM_PID" >>"$out"
      [ "$tls" = 0 ] || upstream_protocols "$gw_label" "$n" >>"$out"
      if [ "$STREAM_COMPARE" = 1 ]; then
        stream_load streams "${gw_label/gateway/gateway-b}" "$GATEWAY_B_PORT" "$gw_key" --streams "$gw_n" "${common[@]}" \
          --watch "gateway=$GATEWAY_B_PID" --watch "upstream=$UPSTREAM_PID" >>"$out"
      fi
    done
  done
  log "Large bodies: ${BODY_KB} KB prompts against small ones"
  for ((r = 1; r <= STREAM_ROUNDS; r++)); do
    echo "{\"uptime\":\"$(uptime | sed 's/.*load/load/')\",\"round\":$r}" >>"$out"
    stream_load body body-small "$GATEWAY_PORT" "$ACCESS_KEY" --body-kb 1 --concurrency 4 --seconds "$BODY_SECONDS" \
      --watch "gateway=$GATEWAY_PID" --watch "upstream=$UPSTREAM_PID" >>"$out"
    stream_load body body-large "$GATEWAY_PORT" "$ACCESS_KEY" --body-kb "$BODY_KB" --concurrency 4 --seconds "$BODY_SECONDS" \
      --watch "gateway=$GATEWAY_PID" --watch "upstream=$UPSTREAM_PID" >>"$out"
    if [ "$STREAM_COMPARE" = 1 ]; then
      stream_load body body-small-b "$GATEWAY_B_PORT" "$ACCESS_KEY" --body-kb 1 --concurrency 4 --seconds "$BODY_SECONDS" \
        --watch "gateway=$GATEWAY_B_PID" --watch "upstream=$UPSTREAM_PID" >>"$out"
      stream_load body body-large-b "$GATEWAY_B_PORT" "$ACCESS_KEY" --body-kb "$BODY_KB" --concurrency 4 \
        --seconds "$BODY_SECONDS" --watch "gateway=$GATEWAY_B_PID" --watch "upstream=$UPSTREAM_PID" >>"$out"
    fi
    stream_load body body-large-direct "$UPSTREAM_PORT" bench-upstream-0 --body-kb "$BODY_KB" --concurrency 4 \
      --seconds "$BODY_SECONDS" --watch "upstream=$UPSTREAM_PID" >>"$out"
  done
  NGINX_WORKERS=$NGINX_WORKERS STREAM_H2_MAX_STREAMS=$STREAM_H2_MAX_STREAMS \
    python3 "$ROOT_DIR/bench/streams_report.py" "$out" "$fd_limit" >"$BENCH_DIR/streams.md"
}

propagation_lag() { # -> one JSON line (bench/propagation.py)
  # the lag is measured after state-service's apply path has run often enough to be compiled: only
  # failures reach it, and the throughput rounds had none
  python3 "$ROOT_DIR/bench/warm_state.py" "$STATE_PORT" "$ADMIN_TOKEN" lag-fallback lag-u130 "$STATE_WARMUP_ACTIONS" >>"$RAW" 2>&1
  python3 "$ROOT_DIR/bench/propagation.py" "$GATEWAY_PORT" "$GATEWAY_B_PORT" "$UPSTREAM_PORT" \
    "$LAG_ACCESS_KEY" "$LAG_PREFERRED_SECRET" "$LAG_WARMUP_SAMPLES" 1 >>"$RAW" 2>&1 || true
  measured_lag
}

measured_lag() { # [NAME=value...] (extra environment of bench/propagation.py) -> one JSON line
  env "$@" STATE_METRICS_URL="http://127.0.0.1:$STATE_MANAGEMENT_PORT/q/metrics" \
    REPLICA_B_METRICS_URL="http://127.0.0.1:$GATEWAY_B_MANAGEMENT_PORT/q/metrics" \
    python3 "$ROOT_DIR/bench/propagation.py" "$GATEWAY_PORT" "$GATEWAY_B_PORT" "$UPSTREAM_PORT" \
    "$LAG_ACCESS_KEY" "$LAG_PREFERRED_SECRET" "$LAG_SAMPLES" $((LAG_WARMUP_SAMPLES + 1)) 2>>"$RAW" ||
    echo '{"error":"not measured, see the raw log"}'
}

main() {
  install_tools
  build
  mkdir -p "$BENCH_DIR/nginx" "$RESULTS_DIR"
  local stamp
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  RAW="$BENCH_DIR/wrk-$stamp.log"
  : >"$RAW"
  fresh_database
  KAFKA_PORT=$(free_port_pair 19392)
  # a fresh broker: events left by an earlier run would meet credentials this database never had
  rm -rf "$LOCAL_DIR/kafka/$KAFKA_PORT"
  "$ROOT_DIR/deploy/local/kafka.sh" start --port "$KAFKA_PORT" >/dev/null
  tls_material
  start_bg UPSTREAM "$BENCH_DIR/upstream.log" java -Xmx512m -cp \
    "$(cat "$ROOT_DIR/demo-upstream/target/runtime-classpath.txt"):$ROOT_DIR/demo-upstream/target/classes" \
    io.routegateway.demo.DemoUpstream "$UPSTREAM_PORT" --tls-port "$UPSTREAM_TLS_PORT" \
    --tls-keystore "$TLS_DIR/upstream.p12" --tls-password "$TLS_PASSWORD" --tls-max-streams "$STREAM_H2_MAX_STREAMS"
  wait_http "http://127.0.0.1:$UPSTREAM_PORT/v1/models" 200 demo-upstream
  # the TLS port with the certificate checked as the gateway checks it (trusted, SAN 127.0.0.1)
  local h2 began=$SECONDS
  until h2=$(curl -s --cacert "$TLS_DIR/upstream.crt" --http2 -o /dev/null -w '%{http_code} HTTP/%{http_version}' \
    "https://127.0.0.1:$UPSTREAM_TLS_PORT/v1/models") && [ "$h2" = "200 HTTP/2" ]; do
    [ $((SECONDS - began)) -lt 30 ] || die "demo upstream's TLS port answered '$h2', not 200 over HTTP/2"
    sleep 0.5
  done
  local nofile
  nofile=$(ulimit -Hn)
  [ "$nofile" != unlimited ] || nofile=$(ulimit -n)
  sed "s#__DIR__#$BENCH_DIR/nginx#g; s#__UPSTREAM_PORT__#$UPSTREAM_PORT#; s#__NGINX_PORT__#$NGINX_PORT#;
    s#__WORKERS__#$NGINX_WORKERS#; s#__NOFILE__#$nofile#; s#__WORKER_CONNECTIONS__#$((nofile - 100))#g" \
    "$ROOT_DIR/bench/nginx.conf.template" >"$BENCH_DIR/nginx/nginx.conf"
  rm -f "$BENCH_DIR/nginx/nginx.pid"
  nginx -c "$BENCH_DIR/nginx/nginx.conf" -p "$BENCH_DIR/nginx"
  nginx_pids >/dev/null || die "nginx did not start (see $BENCH_DIR/nginx/nginx-error.log)"
  # 12,000 upstream connections per event loop: never fewer than the gateway's whole pool
  # (ROUTE_UPSTREAM_HTTP1_CONNECTIONS_PER_HOST, shared over its loops), so the floor never waits in a pool
  start_bg VERTX_PROXY "$BENCH_DIR/vertx-proxy.log" java $GATEWAY_JAVA_OPTS \
    -cp "$(cat "$ROOT_DIR/demo-upstream/target/runtime-classpath.txt")" "$ROOT_DIR/bench/PlainVertxProxy.java" \
    "$VERTX_PROXY_PORT" "$UPSTREAM_PORT" 12000
  wait_http "http://127.0.0.1:$VERTX_PROXY_PORT/v1/models" 200 plain-vertx-proxy
  start_services
  seed
  start_gateways
  check_tls_path

  if [ "$HOLD" = 1 ]; then
    log "Holding: upstream :$UPSTREAM_PORT (key bench-upstream-0), nginx :$NGINX_PORT, plain Vert.x proxy :$VERTX_PROXY_PORT, state-service :$STATE_PORT," \
      "gateways :$GATEWAY_PORT (PID $GATEWAY_PID) and :$GATEWAY_B_PORT, access key $ACCESS_KEY," \
      "lag access key $LAG_ACCESS_KEY, upstream TLS port :$UPSTREAM_TLS_PORT (HTTP/2) with access key $TLS_ACCESS_KEY"
    while true; do sleep 3600 & wait $!; done
  fi
  if [ "$PROPAGATION_ONLY" = 1 ]; then
    log "Propagation lag between gateway replicas"
    {
      propagation_lag
      # the same models again, each sample on a credential with no other model cooling
      admin POST /credentials/lag-preferred/models/clear-all >/dev/null
      sleep 1
      measured_lag CLEAR_MODELS_URL="http://127.0.0.1:$STATE_PORT/admin/v1/credentials/lag-preferred/models/clear-all" \
        ADMIN_TOKEN="$ADMIN_TOKEN"
    } | tee "$RESULTS_DIR/$stamp-propagation.json"
    log "Report: $RESULTS_DIR/$stamp-propagation.json"
    return
  fi
  if [ "$STREAMS_ONLY" = 1 ]; then
    streams_scenarios
    cp "$BENCH_DIR/streams.md" "$RESULTS_DIR/$stamp-streams.md"
    log "Report: $RESULTS_DIR/$stamp-streams.md (raw figures $BENCH_DIR/streams.jsonl)"
    cat "$BENCH_DIR/streams.md"
    return
  fi
  local direct="http://127.0.0.1:$UPSTREAM_PORT/v1/chat/completions"
  local viaNginx="http://127.0.0.1:$NGINX_PORT/v1/chat/completions"
  local viaGateway="http://127.0.0.1:$GATEWAY_PORT/v1/chat/completions"
  local viaVertx="http://127.0.0.1:$VERTX_PROXY_PORT/v1/chat/completions"
  # The JIT needs about a minute of traffic on these two cores before the gateway's figures settle
  # (a profile of the first minute spends a fifth of the gateway's CPU compiling); measured rounds
  # start after that, as they would in a gateway that has been running for a while.
  log "Warm-up (2 min)"
  KEY=bench-upstream-0 DURATION=5 wrk_rps "$direct" post-json.lua 50 >/dev/null
  KEY=bench-upstream-0 DURATION=5 wrk_rps "$viaNginx" post-json.lua 50 >/dev/null
  KEY=bench-upstream-0 DURATION=20 wrk_rps "$viaVertx" post-json.lua 50 >/dev/null
  KEY=bench-upstream-0 DURATION=10 wrk_rps "$viaVertx" post-sse.lua 50 >/dev/null
  KEY=$ACCESS_KEY DURATION=50 wrk_rps "$viaGateway" post-json.lua 50 >/dev/null
  KEY=$ACCESS_KEY DURATION=30 wrk_rps "$viaGateway" post-sse.lua 50 >/dev/null

  local r d_json=() n_json=() v_json=() g_json=() d_sse=() n_sse=() v_sse=() g_sse=() rss_max=0 sampler rss
  for ((r = 1; r <= ROUNDS; r++)); do
    log "Round $r/$ROUNDS (each run ${DURATION}s, 50 connections)"
    d_json+=("$(KEY=bench-upstream-0 wrk_rps "$direct" post-json.lua 50)")
    n_json+=("$(KEY=bench-upstream-0 wrk_rps "$viaNginx" post-json.lua 50)")
    v_json+=("$(KEY=bench-upstream-0 wrk_rps "$viaVertx" post-json.lua 50)")
    rss_sampler "$GATEWAY_PID" >"$BENCH_DIR/rss" &
    sampler=$!
    g_json+=("$(KEY=$ACCESS_KEY wrk_rps "$viaGateway" post-json.lua 50)")
    d_sse+=("$(KEY=bench-upstream-0 wrk_rps "$direct" post-sse.lua 50)")
    n_sse+=("$(KEY=bench-upstream-0 wrk_rps "$viaNginx" post-sse.lua 50)")
    v_sse+=("$(KEY=bench-upstream-0 wrk_rps "$viaVertx" post-sse.lua 50)")
    g_sse+=("$(KEY=$ACCESS_KEY wrk_rps "$viaGateway" post-sse.lua 50)")
    kill -TERM "$sampler"; wait "$sampler" || true
    rss=$(cat "$BENCH_DIR/rss"); [ "${rss:-0}" -gt "$rss_max" ] && rss_max=$rss
  done

  # The throughput rounds left state-service a backlog of usage records to insert; the one-connection
  # figures and the lag are measured once it has drained (how long that took is reported), so they
  # do not share the two cores with it.
  local drained_began=$SECONDS
  until [ "$(usage_backlog)" = 0 ]; do
    [ $((SECONDS - drained_began)) -lt 600 ] || break
    sleep 1
  done
  USAGE_DRAIN_SECONDS=$((SECONDS - drained_began))

  log "One-connection latency and time to first token"
  local lat_direct lat_gateway ttft_direct ttft_gateway
  lat_direct=$(KEY=bench-upstream-0 wrk_latency "$direct")
  lat_gateway=$(KEY=$ACCESS_KEY wrk_latency "$viaGateway")
  ttft_direct=$(python3 "$ROOT_DIR/bench/ttft.py" "$UPSTREAM_PORT" bench-upstream-0 1000 stream)
  ttft_gateway=$(python3 "$ROOT_DIR/bench/ttft.py" "$GATEWAY_PORT" "$ACCESS_KEY" 1000 stream)

  log "Protocol bridges: time to first byte and CPU per request, bridged against native"
  local bridges
  bridges=$(python3 "$ROOT_DIR/bench/bridges.py" "$GATEWAY_PORT" "$GATEWAY_PID" "$BRIDGE_KEYS" \
    "$BRIDGE_REQUESTS" "$BRIDGE_ROUNDS" 2>>"$RAW" || echo "not measured, see the raw log $RAW")
  {
    echo "## Protocol bridges"
    echo
    echo "Per client protocol × upstream protocol, in the same run as the figures above: one keep-alive connection,"
    echo "$BRIDGE_REQUESTS sequential requests per scenario and round, $BRIDGE_ROUNDS interleaved rounds (medians), the"
    echo "demo upstream behind a pool of one credential per upstream protocol (\`bench/bridges.py\`). Native: a"
    echo "client of the upstream's own protocol on the same credential. CPU: the first gateway's threads"
    echo "(\`/proc/<pid>/task/*/schedstat\`) over the scenario's requests, usage and outcome publishing included."
    echo
    echo "$bridges"
  } >"$BENCH_DIR/bridges.md"

  log "Propagation lag between gateway replicas"
  local lag
  lag=$(propagation_lag)

  streams_scenarios

  log "JMH: selection over 1,000 credentials"
  local jmh
  jmh=$("$ROOT_DIR/bench/jmh.sh" 2>>"$RAW" | tail -n 5 || echo "not measured")

  local report="$RESULTS_DIR/$stamp.md"
  BRIDGES_SECTION="$BENCH_DIR/bridges.md" STREAMS_SECTION="$BENCH_DIR/streams.md" \
    VERTX_JSON="$(median "${v_json[@]}")" VERTX_SSE="$(median "${v_sse[@]}")" VERTX_RUNS="${v_json[*]}|${v_sse[*]}" \
    python3 "$ROOT_DIR/bench/report.py" "$report" \
    "$(median "${d_json[@]}")" "$(median "${n_json[@]}")" "$(median "${g_json[@]}")" \
    "$(median "${d_sse[@]}")" "$(median "${n_sse[@]}")" "$(median "${g_sse[@]}")" \
    "$lat_direct" "$lat_gateway" "$ttft_direct" "$ttft_gateway" "$rss_max" "$lag" "$jmh" \
    "${d_json[*]}|${n_json[*]}|${g_json[*]}|${d_sse[*]}|${n_sse[*]}|${g_sse[*]}" "$DURATION" "$ROUNDS" "$POOL_SIZE" \
    "$USAGE_DRAIN_SECONDS" "$STATE_WARMUP_ACTIONS"
  cp "$report" "$ROOT_DIR/docs/performance.md"
  log "Report: $report (copied to docs/performance.md)"
  cat "$report"
}

main
