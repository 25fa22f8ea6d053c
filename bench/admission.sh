#!/usr/bin/env bash
# Admission's cost at the gateway (issue 35 item 9): on a held system (bench/run.sh --hold), the same
# pool through one gateway replica with a key without limits or team ("off") and a key of a team,
# both with limits ("on": the key's rpm, tpm, parallel requests and a monthly budget, the team's rpm,
# tpm and parallel requests; none ever reached, so every request is admitted and opens, publishes and
# closes a lease), JSON (post-json.lua) and SSE (post-sse.lua), off/on pairs interleaved with the order
# alternating per round. Per run: requests/s (wrk -t2) and the gateway's CPU per request
# (utime + stime of /proc/PID/stat over the run). Prints one line per run and a markdown summary.
#
#   bench/admission.sh GATEWAY_PORT GATEWAY_PID STATE_PORT [ROUNDS=3] [SECONDS=10] [CONNECTIONS=50]
#
# ADMIN_TOKEN defaults to bench/run.sh's. Needs wrk and curl.
set -euo pipefail
GATEWAY_PORT=$1
GATEWAY_PID=$2
STATE_PORT=$3
ROUNDS=${4:-3}
SECONDS_PER_RUN=${5:-10}
CONNECTIONS=${6:-50}
ADMIN_TOKEN=${ADMIN_TOKEN:-bench-admin-token}
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
URL="http://127.0.0.1:$GATEWAY_PORT/v1/chat/completions"
TICK=$(getconf CLK_TCK)
SUFFIX=$(date +%s)

admin() { # method path json
  curl -sf -X "$1" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
    "http://127.0.0.1:$STATE_PORT/admin/v1$2" -d "$3"
}
plaintext() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("key") or d.get("plaintext_key") or d.get("access_key"))'; }

admin POST /teams "{\"id\":\"bench-limits-$SUFFIX\",\"name\":\"bench limits\",\"weight\":1,
  \"limits\":{\"rpm_limit\":1000000,\"tpm_limit\":1000000000,\"max_parallel_requests\":10000}}" >/dev/null
ON_KEY=$(admin POST /access-keys "{\"name\":\"bench-limits-$SUFFIX\",\"group_ids\":[\"bench\"],
  \"team_id\":\"bench-limits-$SUFFIX\",\"limits\":{\"rpm_limit\":1000000,\"tpm_limit\":1000000000,
  \"max_parallel_requests\":1000,\"max_budget\":100000,\"budget_duration\":\"1mo\"}}" | plaintext)
OFF_KEY=$(admin POST /access-keys "{\"name\":\"bench-nolimits-$SUFFIX\",\"group_ids\":[\"bench\"]}" | plaintext)

# both keys served, and the limited one's team and limits in the gateway's view (its rpm header shows)
began=$SECONDS
until curl -s -D - -o /dev/null -H "Authorization: Bearer $ON_KEY" -H 'Content-Type: application/json' \
  -d '{"model":"bench-model","messages":[{"role":"user","content":"hi"}]}' "$URL" |
  grep -qi '^x-ratelimit-limit-requests: 1000000'; do
  [ $((SECONDS - began)) -lt 60 ] || { echo "the limited key never showed its limits" >&2; exit 1; }
  sleep 0.5
done
until [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $OFF_KEY" -H 'Content-Type: application/json' \
  -d '{"model":"bench-model","messages":[{"role":"user","content":"hi"}]}' "$URL")" = 200 ]; do
  [ $((SECONDS - began)) -lt 60 ] || { echo "the key without limits is not served" >&2; exit 1; }
  sleep 0.5
done

cpu_ticks() { awk '{print $14 + $15}' "/proc/$GATEWAY_PID/stat"; }

run() { # label key script seconds -> "label rps cpu_us_per_request non2xx"
  local before after out requests rps non2xx
  before=$(cpu_ticks)
  out=$(BENCH_KEY=$2 wrk -t2 -c"$CONNECTIONS" -d"${4}s" -s "$BENCH_DIR/$3" "$URL" 2>&1)
  after=$(cpu_ticks)
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx/ {print $5}' <<<"$out")
  echo "$1 $rps $(python3 -c "print(round(($after - $before) / $TICK * 1e6 / max(1, $requests), 1))") ${non2xx:-0}"
}

echo "# warm-up" >&2
for pair in "json post-json.lua" "sse post-sse.lua"; do
  set -- $pair
  run "$1-off" "$OFF_KEY" "$2" 20 >/dev/null
  run "$1-on" "$ON_KEY" "$2" 20 >/dev/null
done

results=$(mktemp)
for ((round = 1; round <= ROUNDS; round++)); do
  for pair in "json post-json.lua" "sse post-sse.lua"; do
    set -- $pair
    if ((round % 2 == 1)); then
      run "$1-off" "$OFF_KEY" "$2" "$SECONDS_PER_RUN" | tee -a "$results"
      run "$1-on" "$ON_KEY" "$2" "$SECONDS_PER_RUN" | tee -a "$results"
    else
      run "$1-on" "$ON_KEY" "$2" "$SECONDS_PER_RUN" | tee -a "$results"
      run "$1-off" "$OFF_KEY" "$2" "$SECONDS_PER_RUN" | tee -a "$results"
    fi
  done
done

python3 - "$results" <<'PY'
import sys, statistics
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
by = {}
for label, rps, cpu, non2xx in rows:
    by.setdefault(label, []).append((float(rps), float(cpu), int(non2xx)))
print("| Body | Limits off req/s | Limits on req/s | on/off | CPU per request off / on | Difference | Non-2xx off / on |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for body in ("json", "sse"):
    off, on = by.get(body + "-off", []), by.get(body + "-on", [])
    if not off or not on:
        continue
    r_off = statistics.mean(r for r, _, _ in off); r_on = statistics.mean(r for r, _, _ in on)
    c_off = statistics.mean(c for _, c, _ in off); c_on = statistics.mean(c for _, c, _ in on)
    print(f"| {body.upper()} | {r_off:,.0f} | {r_on:,.0f} | {r_on / r_off:.3f} | {c_off:.1f} / {c_on:.1f} µs "
          f"| {c_on - c_off:+.1f} µs | {sum(n for *_, n in off)} / {sum(n for *_, n in on)} |")
PY
rm -f "$results"
