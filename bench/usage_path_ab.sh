#!/usr/bin/env bash
# The usage path's whole CPU per record (state-service + PostgreSQL + broker), two state-service
# builds side by side: each round starts one build on a fresh database, sends a warm-up batch of
# records (the JIT compiles the consumer), then RUNS measured batches, and stops it; the builds take
# turns (A, B, A, B, ...). Everything it measures runs on its own: a PostgreSQL cluster of its own
# (port 5499, created once with pg_createcluster) and a broker of its own, so other databases and
# builds on the machine are not counted. CPU is utime+stime from /proc/<pid>/stat of the state-service
# JVM, every process of that cluster (postmaster, backends, WAL writer, checkpointer...) and the broker.
# The producer (bench/UsageIngest.java: gateway-style JSON arrays of BATCH records on route.usage) is
# not counted.
#
#   bench/usage_path_ab.sh APP_DIR_A APP_DIR_B [ROUNDS=2] [RECORDS=100000] [RUNS=2] [BATCH=100]
#
# RATE=<records a second> paces the measured runs as a steady load does (the gateways' 20 ms windows
# at that rate); without it the records are sent at once and stored from a backlog, in the largest
# polls the consumer takes. JAVA_OPTS_A / JAVA_OPTS_B add JVM options to one build (e.g. a -D setting to compare).
# Each run also reports the three processes' CPU net of what they burn idle (timers, heartbeats,
# polls), sampled for IDLE_SECONDS (default 10) after the warm-up: at real traffic that idle share is
# spread over far more records than a bench run sends.
# APP_DIR_* are state-service/target/quarkus-app directories (copy one aside before building the
# other). Prints one JSON line per measured run and a markdown table at the end.
set -euo pipefail
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT_DIR/deploy/local/lib.sh"
app_a=$1 app_b=$2 rounds=${3:-2} records=${4:-100000} runs=${5:-2} batch=${6:-100}
pg_version=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_cluster=usagebench pg_port=5499
kafka_jars="$ROOT_DIR/gateway-service/target/quarkus-app/lib/main/*"
state_port=18281 state_management_port=19281
out_dir="$ROOT_DIR/bench/results/usage-path-$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$out_dir"
hz=$(getconf CLK_TCK)

# ---- PostgreSQL cluster of its own
if ! pg_lsclusters -h | awk '{print $2}' | grep -qx "$pg_cluster"; then
  pg_createcluster "$pg_version" "$pg_cluster" -p "$pg_port" >/dev/null
fi
pg_ctlcluster "$pg_version" "$pg_cluster" start 2>/dev/null || true
psql_bench() { su postgres -c "psql -p $pg_port -qtA $*"; }
psql_bench "-c \"DO \\\$\\\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='route') THEN CREATE ROLE route LOGIN PASSWORD 'route'; END IF; END\\\$\\\$\""
postmaster_pid=$(head -1 "/var/lib/postgresql/$pg_version/$pg_cluster/postmaster.pid")

# ---- a broker of its own
kafka_port=$(free_port_pair 19392)
rm -rf "$LOCAL_DIR/kafka/$kafka_port"
"$ROOT_DIR/deploy/local/kafka.sh" start --port "$kafka_port" >/dev/null
broker_pid=$(cat "$LOCAL_DIR/kafka/$kafka_port/broker.pid")
state_pid=""
cleanup() {
  [ -n "$state_pid" ] && kill "$state_pid" 2>/dev/null && wait "$state_pid" 2>/dev/null || true
  "$ROOT_DIR/deploy/local/kafka.sh" stop --port "$kafka_port" >/dev/null 2>&1 || true
  pg_ctlcluster "$pg_version" "$pg_cluster" stop 2>/dev/null || true
}
trap cleanup EXIT

cluster_ticks() {
  local pid total=0
  for pid in "$postmaster_pid" $(pgrep -P "$postmaster_pid"); do
    total=$((total + $(awk '{print $14+$15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
ticks_of() { awk '{print $14+$15}' "/proc/$1/stat"; }
stored() { psql_bench "-d route_bench -c \"SELECT count(*) FROM request_logs WHERE access_key_id = '$1'\""; }

start_state() { # app dir
  psql_bench "-c 'DROP DATABASE IF EXISTS route_bench WITH (FORCE)' -c 'CREATE DATABASE route_bench OWNER route'"
  # consumer offsets of the last build must not carry over: a fresh group per start
  setsid env ROUTE_DB_HOST=127.0.0.1 ROUTE_DB_PORT=$pg_port ROUTE_DB_NAME=route_bench \
    QUARKUS_DATASOURCE_USERNAME=route QUARKUS_DATASOURCE_PASSWORD=route \
    KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:$kafka_port \
    MP_MESSAGING_INCOMING_USAGE_GROUP_ID="usage-bench-$(date +%s%N)" \
    ROUTE_SECRET_ENCRYPTION_KEY=sDs8+xrgdjb1YeT1e7CxfOuCBybLeoNiShX0VxEUdcY= \
    STATE_ADMIN_TOKEN=bench-admin-token-0123456789abcdef0123 \
    ROUTE_INTERNAL_TOKEN=bench-internal-token-0123456789abcdef0123 \
    ROUTE_STATE_SIGNING_PRIVATE_KEY=MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P \
    ROUTE_STATE_SIGNING_PUBLIC_KEYS=k1=MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng= \
    QUARKUS_LOG_LEVEL=WARN QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_MANAGEMENT_HOST=127.0.0.1 \
    QUARKUS_HTTP_PORT=$state_port QUARKUS_MANAGEMENT_PORT=$state_management_port \
    java -Xmx384m $3 -jar "$1/quarkus-run.jar" </dev/null >"$out_dir/state-$2.log" 2>&1 &
  state_pid=$!
  local began=$SECONDS
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$state_management_port/q/health/ready")" = 200 ]; do
    kill -0 "$state_pid" 2>/dev/null || die "state-service ($1) exited; see $out_dir/state-$2.log"
    [ $((SECONDS - began)) -lt 240 ] || die "state-service ($1) not ready after 240s"
    sleep 0.5
  done
}

stop_state() {
  kill "$state_pid" && wait "$state_pid" 2>/dev/null || true
  state_pid=""
}

idle_rate() { # sets idle_state idle_pg idle_broker: ticks per second of each while nothing is sent
  local seconds=${IDLE_SECONDS:-10} s0 p0 k0
  s0=$(ticks_of "$state_pid") p0=$(cluster_ticks) k0=$(ticks_of "$broker_pid")
  sleep "$seconds"
  idle_state=$(python3 -c "print(($(ticks_of "$state_pid") - $s0) / $seconds)")
  idle_pg=$(python3 -c "print(($(cluster_ticks) - $p0) / $seconds)")
  idle_broker=$(python3 -c "print(($(ticks_of "$broker_pid") - $k0) / $seconds)")
}

ingest() { # build label, record count, measured?
  local tag="ab-$(date +%s%N)" s0 p0 k0 s1 p1 k1 t0 t1 load0 load1
  load0=$(cut -d' ' -f1 /proc/loadavg)
  s0=$(ticks_of "$state_pid") p0=$(cluster_ticks) k0=$(ticks_of "$broker_pid") t0=$(date +%s.%N)
  local pace=""
  [ "$3" = measured ] && pace=${RATE:-}
  java -cp "$kafka_jars" "$ROOT_DIR/bench/UsageIngest.java" "127.0.0.1:$kafka_port" "$tag" "$2" "$batch" $pace
  until [ "$(stored "$tag")" -ge "$2" ]; do sleep 0.2; done
  t1=$(date +%s.%N)
  s1=$(ticks_of "$state_pid") p1=$(cluster_ticks) k1=$(ticks_of "$broker_pid")
  load1=$(cut -d' ' -f1 /proc/loadavg)
  [ "$3" = measured ] || return 0
  python3 - "$1" "$2" "$t0" "$t1" "$s0" "$s1" "$p0" "$p1" "$k0" "$k1" "$hz" "$load0" "$load1" \
    "$idle_state" "$idle_pg" "$idle_broker" <<'PY' | tee -a "$out_dir/runs.jsonl"
import json, os, sys
build, n, t0, t1, s0, s1, p0, p1, k0, k1, hz, l0, l1, i_s, i_p, i_k = sys.argv[1:]
n, hz, seconds = int(n), int(hz), float(t1) - float(t0)
per = lambda a, b: round((int(b) - int(a)) / hz * 1e6 / n, 1)
net = lambda a, b, idle: round(((int(b) - int(a)) - float(idle) * seconds) / hz * 1e6 / n, 1)
state, pg, broker = per(s0, s1), per(p0, p1), per(k0, k1)
net_state, net_pg, net_broker = net(s0, s1, i_s), net(p0, p1, i_p), net(k0, k1, i_k)
print(json.dumps({"build": build, "records": n, "rate": os.environ.get("RATE", "backlog"), "seconds": round(seconds, 1),
                  "state_us": state, "postgres_us": pg, "broker_us": broker,
                  "sum_us": round(state + pg + broker, 1),
                  "net_sum_us": round(net_state + net_pg + net_broker, 1),
                  "net": [net_state, net_pg, net_broker], "load": f"{l0} -> {l1}"}))
PY
}

for ((round = 1; round <= rounds; round++)); do
  for build in A B; do
    app=$app_a opts=${JAVA_OPTS_A:-}
    [ "$build" = B ] && app=$app_b opts=${JAVA_OPTS_B:-}
    log "round $round, build $build ($app $opts)"
    start_state "$app" "$build-$round" "$opts"
    ingest "$build" 50000 warmup
    idle_rate
    for ((run = 1; run <= runs; run++)); do
      ingest "$build" "$records" measured
    done
    stop_state
  done
done

python3 - "$out_dir/runs.jsonl" <<'PY' | tee "$out_dir/summary.md"
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print("| Build | runs | state-service µs/record | PostgreSQL µs/record | broker µs/record | sum (median) | net of idle (median) | load (1 min) |")
print("|---|---|---|---|---|---|---|---|")
for build in ("A", "B"):
    r = [x for x in rows if x["build"] == build]
    fmt = lambda k: " / ".join(str(x[k]) for x in r)
    print(f"| {build} | {len(r)} | {fmt('state_us')} | {fmt('postgres_us')} | {fmt('broker_us')} | "
          f"{statistics.median(x['sum_us'] for x in r)} ({fmt('sum_us')}) | "
          f"{statistics.median(x['net_sum_us'] for x in r)} ({fmt('net_sum_us')}) | {', '.join(x['load'] for x in r)} |")
PY
