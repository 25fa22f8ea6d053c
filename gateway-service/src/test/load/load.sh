#!/usr/bin/env bash
# Quick loopback comparison: wrk straight at a fast mock upstream vs through the gateway, interleaved.
#
#   gateway-service/src/test/load/load.sh <kafka-bootstrap> [duration, default 15s] [rounds, default 3]
#
# Needs: wrk, node, a built gateway (gateway-service/target/quarkus-app) and a running Kafka broker.
# Starts the mock (port 18801) and the gateway (port 18080, health on 18081) and stops both by PID at exit.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module="$(cd "$here/../../.." && pwd)"
bootstrap="$1"
duration="${2:-15s}"
rounds="${3:-3}"
export ROUTE_SECRET_ENCRYPTION_KEY="${ROUTE_SECRET_ENCRYPTION_KEY:-sDs8+xrgdjb1YeT1e7CxfOuCBybLeoNiShX0VxEUdcY=}"
# The %test state-signing pair: Seed signs with the private half, the gateway verifies with the public one.
export ROUTE_STATE_SIGNING_PRIVATE_KEY="${ROUTE_STATE_SIGNING_PRIVATE_KEY:-MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P}"
export ROUTE_STATE_SIGNING_PUBLIC_KEYS="${ROUTE_STATE_SIGNING_PUBLIC_KEYS:-k1=MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng=}"
# The gateway's %test producer key: it signs what it sends on route.outcomes and route.usage.
export ROUTE_PRODUCER_SIGNING_PRIVATE_KEY="${ROUTE_PRODUCER_SIGNING_PRIVATE_KEY:-MC4CAQAwBQYDK2VwBCIEICnFtW7N9evTTjwTt5rJbdTK3F74pDfeaCBomm6OSyHI}"
export LOAD_KEY="rk-load-$RANDOM$RANDOM"

node "$here/mock-upstream.js" 18801 & mock=$!
trap 'kill $mock ${gateway:-} 2>/dev/null || true' EXIT
classpath="$(cat "$module/target/load-classpath.txt"):$module/target/classes"
java -cp "$classpath" "$here/Seed.java" "$bootstrap" http://127.0.0.1:18801 "$LOAD_KEY"
KAFKA_BOOTSTRAP_SERVERS="$bootstrap" QUARKUS_HTTP_PORT=18080 QUARKUS_MANAGEMENT_PORT=18081 QUARKUS_LOG_LEVEL=WARN \
    java -Xmx512m -jar "$module/target/quarkus-app/quarkus-run.jar" > "$module/target/load-gateway.log" 2>&1 & gateway=$!
for _ in $(seq 1 120); do
  if curl -sf localhost:18081/q/health/ready > /dev/null \
      && [ "$(curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $LOAD_KEY" -H 'content-type: application/json' \
          -d '{"model":"m","messages":[]}' localhost:18080/v1/chat/completions)" = 200 ]; then
    break
  fi
  sleep 1
done
cpu_ms() { awk '{print ($14 + $15) * 10}' "/proc/$1/stat"; }
# warm-up (JIT), not reported
wrk -t2 -c50 -d10s -s "$here/post.lua" http://127.0.0.1:18080/v1/chat/completions > /dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  echo "== round $round: direct"
  wrk -t2 -c50 -d"$duration" --latency -s "$here/post.lua" http://127.0.0.1:18801/v1/chat/completions | grep -E "requests in|Requests/sec|50%|99%|Non-2xx"
  echo "== round $round: gateway"
  before=$(cpu_ms "$gateway")
  out=$(wrk -t2 -c50 -d"$duration" --latency -s "$here/post.lua" http://127.0.0.1:18080/v1/chat/completions)
  after=$(cpu_ms "$gateway")
  echo "$out" | grep -E "requests in|Requests/sec|50%|99%|Non-2xx"
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "   gateway CPU per request: $(awk -v c=$((after - before)) -v n="$requests" 'BEGIN {printf "%.3f ms", c / n}')"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
