#!/usr/bin/env bash
# The usage pipeline's cost per record, alone: RECORDS records (default 100,000) in batches of BATCH
# (default 100, about what a gateway's 20 ms window gathers at 5,000 req/s) go to route.usage of a
# running bench system (bench/run.sh --hold); prints how long state-service took to store them all
# and the CPU that state-service and PostgreSQL spent per record (/proc/<pid>/stat).
#
#   bench/usage_ingest.sh KAFKA_BOOTSTRAP [RECORDS] [BATCH]
set -euo pipefail
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bootstrap=$1 records=${2:-100000} batch=${3:-100}
tag="ingest-$(date +%s%N)"
# the Kafka client and its dependencies as the gateway ships them
kafka_jars="$ROOT_DIR/gateway-service/target/quarkus-app/lib/main/*"
state_pid=$(pgrep -f 'state-service/target/quarkus-app/quarkus-run.jar' | head -1)
ticks() { # total utime+stime of state-service and every postgres process
  local s p=0 pid
  s=$(awk '{print $14+$15}' "/proc/$state_pid/stat")
  for pid in $(pgrep -u postgres); do
    p=$((p + $(awk '{print $14+$15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$s $p"
}
count() {
  su postgres -c "psql -tA -d route_bench -c \"SELECT count(*) FROM request_logs WHERE access_key_id = '$tag'\""
}
read -r s0 p0 < <(ticks)
began=$(date +%s.%N)
java -cp "$kafka_jars" "$ROOT_DIR/bench/UsageIngest.java" "$bootstrap" "$tag" "$records" "$batch"
sent=$(date +%s.%N)
until [ "$(count)" -ge "$records" ]; do sleep 0.2; done
done_at=$(date +%s.%N)
read -r s1 p1 < <(ticks)
python3 - "$records" "$began" "$sent" "$done_at" "$s0" "$s1" "$p0" "$p1" <<'PY'
import json, os, sys
n, began, sent, done, s0, s1, p0, p1 = sys.argv[1:]
n, hz = int(n), os.sysconf("SC_CLK_TCK")
print(json.dumps({"records": n, "produce_s": round(float(sent) - float(began), 2),
                  "stored_s": round(float(done) - float(began), 2),
                  "records_per_s": round(n / (float(done) - float(began))),
                  "state_cpu_us_per_record": round((int(s1) - int(s0)) / hz * 1e6 / n, 1),
                  "postgres_cpu_us_per_record": round((int(p1) - int(p0)) / hz * 1e6 / n, 1)}))
PY
