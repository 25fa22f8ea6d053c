#!/usr/bin/env bash
# The gateway's per-request cost with tracing off and on, on replicas that bench/run.sh --hold started
# (docs/observability.md#traces, bench/analysis.md "Tracing"): replica A as it ships (tracing off),
# replica B started with GATEWAY_B_JAVA_OPTS turning the SDK on at some ratio and exporting over
# OTLP/HTTP to bench/otlp_sink.py. Pairs of wrk runs (JSON chat, 50 connections), A then B then B then
# A..., each replica's CPU read from /proc/<pid>/stat over its own run; prints one line per run and
# the means.
#
#   bench/tracing.sh KEY A_PORT A_PID B_PORT B_PID [PAIRS] [SECONDS]
set -euo pipefail
KEY=$1 A_PORT=$2 A_PID=$3 B_PORT=$4 B_PID=$5 PAIRS=${6:-4} SECONDS_PER_RUN=${7:-10}
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TICKS=$(getconf CLK_TCK)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() { # label port pid -> "label rps cpu_us_per_request"
  local before after rps
  before=$(cpu_ticks "$3")
  rps=$(BENCH_KEY=$KEY wrk -t2 -c50 -d"${SECONDS_PER_RUN}s" -s "$ROOT_DIR/bench/post-json.lua" \
    "http://127.0.0.1:$2/v1/chat/completions" 2>&1 | awk '/Requests\/sec/ {print $2}')
  after=$(cpu_ticks "$3")
  awk -v l="$1" -v r="$rps" -v c=$((after - before)) -v t="$TICKS" -v s="$SECONDS_PER_RUN" \
    'BEGIN {printf "%s %.0f %.1f\n", l, r, (c / t) * 1e6 / (r * s)}'
}

# warm both up
BENCH_KEY=$KEY wrk -t2 -c50 -d5s -s "$ROOT_DIR/bench/post-json.lua" "http://127.0.0.1:$A_PORT/v1/chat/completions" >/dev/null
BENCH_KEY=$KEY wrk -t2 -c50 -d5s -s "$ROOT_DIR/bench/post-json.lua" "http://127.0.0.1:$B_PORT/v1/chat/completions" >/dev/null
{
  for i in $(seq 1 "$PAIRS"); do
    if [ $((i % 2)) = 1 ]; then
      run A "$A_PORT" "$A_PID"; run B "$B_PORT" "$B_PID"
    else
      run B "$B_PORT" "$B_PID"; run A "$A_PORT" "$A_PID"
    fi
  done
} | tee /dev/stderr | awk '{n[$1]++; r[$1]+=$2; c[$1]+=$3}
  END {printf "mean A %.0f req/s %.1f us/request; B %.0f req/s %.1f us/request; B/A req/s %.3f, CPU %.3f\n",
       r["A"]/n["A"], c["A"]/n["A"], r["B"]/n["B"], c["B"]/n["B"], (r["B"]/n["B"])/(r["A"]/n["A"]), (c["B"]/n["B"])/(c["A"]/n["A"])}'
