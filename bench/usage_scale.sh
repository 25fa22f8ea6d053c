#!/usr/bin/env bash
# Usage at scale (issue 36): synthetic request logs and rollups straight into the tables with
# generate_series (not through the API), then the queries the admin API sends, timed, and the size
# of a day of traffic. Needs the local PostgreSQL (deploy/local/postgres.sh) and root (su postgres).
#
#   bench/usage_scale.sh [DAYS] [COMBOS] [RAW_ROWS]
#
#   DAYS      days of per-minute rollups (default 30), summed into the hourly and daily levels
#   COMBOS    rollup rows per minute, i.e. distinct key/team/group/credential/model/status/reason
#             combinations active in a minute (default 100; each row counts 5,000 × 60 / COMBOS
#             requests, so the rollups stand for 5,000 req/s)
#   RAW_ROWS  raw request_logs rows in yesterday's partition (default 5,000,000: 1,000 s at
#             5,000 req/s; 30 days × 5,000 req/s = 13 billion rows do not fit the disk, so the size of
#             a day is extrapolated from these rows' bytes per row)
#
# The database is route_usage_scale, made from state-service's Flyway migrations (applied with
# psql in version order). Prints one line per measurement; docs/performance.md quotes them.
set -euo pipefail
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
days=${1:-30} combos=${2:-100} raw=${3:-5000000}
db=route_usage_scale
psql_db() { (cd /tmp && su postgres -s /bin/sh -c "psql -X -q -v ON_ERROR_STOP=1 -d $db $*"); }

"$ROOT_DIR/deploy/local/postgres.sh" >/dev/null
(cd /tmp && su postgres -s /bin/sh -c "psql -X -q -d postgres -c 'DROP DATABASE IF EXISTS $db WITH (FORCE)' -c 'CREATE DATABASE $db'")
for migration in $(ls "$ROOT_DIR"/state-service/src/main/resources/db/migration/V*.sql | sort -V); do
  psql_db -f "$migration" >/dev/null
done

began=$(date +%s)
psql_db <<SQL
-- $days days of rollups up to the current minute, $combos rows a minute; 5,000 req/s in all
INSERT INTO usage_rollups (minute_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model,
    model_key, status_class, reason_code, success, probe, requests, failures, probes, input_tokens,
    output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum,
    ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05,
    latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11)
SELECT m, 'ak-' || (c % 50), 'team-' || (c % 10), 'g' || (c % 5), 'cred-' || (c % 40), 'model-' || (c % 8),
       'up-model-' || (c % 8), CASE WHEN c % 20 = 0 THEN 5 ELSE 2 END,
       CASE WHEN c % 20 = 0 THEN 'upstream_5xx' END, c % 20 <> 0, false,
       r, CASE WHEN c % 20 = 0 THEN r ELSE 0 END, 0, r * 900, r * 250, r * 300, r * 20, r * 40, r * 3000,
       r * 1200, r * 400, r, r / 10, r / 5, r / 5, r / 5, r / 10, r / 10, r / 20, r / 20, 0, 0, 0, 0
  FROM generate_series(
         (floor(extract(epoch FROM now()) / 60) * 60000)::bigint - ${days}::bigint * 86400000,
         (floor(extract(epoch FROM now()) / 60) * 60000)::bigint - 60000, 60000) AS m,
       generate_series(0, $combos - 1) AS c,
       (SELECT (5000 * 60 / $combos)::bigint AS r) AS per_row;
ANALYZE usage_rollups;
SQL
# the hourly and daily levels, summed from the minutes as the fold trigger sums them
measures="requests, failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
    reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02,
    latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11"
sums=$(echo "$measures" | tr -d '\n' | sed -E 's/ +/ /g; s/([a-z0-9_]+)/sum(\1)/g')
dims="access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe"
for level in "usage_rollups_hourly hour_epoch_ms 3600000" "usage_rollups_daily day_epoch_ms 86400000"; do
  read -r table column unit <<<"$level"
  psql_db <<SQL
INSERT INTO $table ($column, $dims, $measures)
SELECT (floor(minute_epoch_ms / $unit.0) * $unit)::bigint, $dims, $sums
  FROM usage_rollups GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;
ANALYZE $table;
SQL
done
rolled=$(date +%s)
day=$(date -u -d yesterday +%Y%m%d)
day_ms=$(( $(date -u -d "$(date -u -d yesterday +%F) 00:00:00" +%s) * 1000 ))
psql_db <<SQL
CREATE TABLE IF NOT EXISTS request_logs_p$day PARTITION OF request_logs
    FOR VALUES FROM ($day_ms) TO ($day_ms + 86400000);
-- $raw raw rows, 5 per millisecond (5,000 req/s), straight into the partition (the rollups above
-- already stand for this traffic, so the fold trigger on the parent is not fired)
INSERT INTO request_logs_p$day (request_id, occurred_at, occurred_epoch_ms, protocol, access_key_id, team_id,
    group_id, credential_id, requested_model, model_key, attempts, status, reason_code, latency_ms, ttft_ms,
    input_tokens, output_tokens, cost_micros, stream, client_disconnected, success, probe, cache_read_tokens,
    cache_write_5m_tokens, cache_write_1h_tokens, reasoning_tokens)
SELECT gen_random_uuid(), to_char(to_timestamp(t / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       t, 'openai_chat', 'ak-' || (i % 50), 'team-' || (i % 10), 'g' || (i % 5), 'cred-' || (i % 40),
       'model-' || (i % 8), 'up-model-' || (i % 8), 1, CASE WHEN i % 20 = 0 THEN 502 ELSE 200 END,
       CASE WHEN i % 20 = 0 THEN 'upstream_5xx' END, 200 + i % 3000, 80 + i % 400, 900, 250, 3000,
       i % 2 = 0, false, i % 20 <> 0, false, 300, 20, null, 40
  FROM generate_series(0, $raw - 1) AS i, LATERAL (SELECT $day_ms + i / 5 AS t) AS at;
ANALYZE request_logs;
SQL
loaded=$(date +%s)
echo "generated: ${days} days x ${combos} rollup rows/minute in $((rolled - began)) s; ${raw} raw rows in $((loaded - rolled)) s"

now_ms=$(( $(date +%s) / 60 * 60000 ))
from_ms=$(( now_ms - days * 86400000 ))
buckets=""
for i in $(seq -w 0 11); do buckets="$buckets, sum(latency_b$i)::bigint AS latency_b$i"; done
minute_only() { # the SQL the service sent before the coarse levels: every minute of the range
  echo "SELECT key, sum(requests)::bigint, sum(failures)::bigint, sum(probes)::bigint, sum(input_tokens)::bigint,
    sum(output_tokens)::bigint, sum(cost_micros)::bigint$buckets FROM (SELECT $1 AS key, * FROM usage_rollups
    WHERE minute_epoch_ms >= $from_ms AND minute_epoch_ms < $now_ms $2) AS parts GROUP BY key ORDER BY key NULLS LAST"
}
# The SQL RequestStatsService sends for [from, now) on whole minutes (route-core RollupLevels): the
# whole days from usage_rollups_daily, the hours left at either end from usage_rollups_hourly, the
# minutes left from usage_rollups. $1 is the grouping over the time column %s, $3 the coarsest level.
stats() {
  python3 - "$1" "$2" "$from_ms" "$now_ms" "${3:-day}" "$buckets" <<'PY'
import sys
grouping, extra, frm, to, coarsest, buckets = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
levels = [("usage_rollups", "minute_epoch_ms", 60000), ("usage_rollups_hourly", "hour_epoch_ms", 3600000),
          ("usage_rollups_daily", "day_epoch_ms", 86400000)]
if coarsest == "hour":
    levels = levels[:2]
cols = "requests, failures, probes, input_tokens, output_tokens, cost_micros, " + ", ".join("latency_b%02d" % i for i in range(12))
def split(a, b, i, out):
    table, column, unit = levels[i]
    up, down = -(-a // unit) * unit, b // unit * unit
    if up >= down:
        return split(a, b, i - 1, out)
    if a != up:
        split(a, up, i - 1, out)
    out.append("SELECT %s AS key, %s FROM %s WHERE %s >= %d AND %s < %d %s" % (grouping.replace("%s", column), cols, table, column, up, column, down, extra))
    if b != down:
        split(down, b, i - 1, out)
parts = []
split(frm, to, len(levels) - 1, parts)
sums = ", ".join("sum(%s)::bigint" % c for c in cols.split(", "))
print("SELECT key, %s FROM (%s) AS parts GROUP BY key ORDER BY key NULLS LAST" % (sums, " UNION ALL ".join(parts)))
PY
}
page() { # the request log's first page with one filter
  echo "SELECT * FROM request_logs WHERE $1 ORDER BY occurred_epoch_ms DESC, request_id DESC LIMIT 51"
}
best_ms() { # the best of 5 runs (the first warms the cache), from EXPLAIN ANALYZE's execution time
  local sql=$1 best=""
  for _ in 1 2 3 4 5; do
    t=$(psql_db -tA <<<"EXPLAIN (ANALYZE, FORMAT JSON) $sql" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])')
    best=$(python3 -c "print(min(float('$t'), float('${best:-1e18}')))")
  done
  echo "$best"
}
day_of() { echo "to_char(to_timestamp(%s / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')"; }
hour_of() { echo "to_char(to_timestamp(%s / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:00\"Z\"')"; }
minute_day_expr="to_char(to_timestamp(minute_epoch_ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
echo "load average before the queries: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "stats ${days}d group_by=day: $(best_ms "$(stats "$(day_of)" "")") ms"
echo "stats ${days}d group_by=access_key: $(best_ms "$(stats access_key_id "")") ms"
echo "stats ${days}d group_by=model: $(best_ms "$(stats "coalesce(model_key, requested_model)" "")") ms"
echo "stats ${days}d group_by=hour: $(best_ms "$(stats "$(hour_of)" "" hour)") ms"
echo "stats ${days}d group_by=day team_id=team-3: $(best_ms "$(stats "$(day_of)" "AND team_id = 'team-3'")") ms"
echo "stats ${days}d group_by=model access_key_id=ak-7: $(best_ms "$(stats "coalesce(model_key, requested_model)" "AND access_key_id = 'ak-7'")") ms"
echo "minute level only (before), ${days}d group_by=day: $(best_ms "$(minute_only "$minute_day_expr" "")") ms"
echo "minute level only (before), ${days}d group_by=access_key: $(best_ms "$(minute_only access_key_id "")") ms"
echo "minute level only (before), ${days}d group_by=model: $(best_ms "$(minute_only "coalesce(model_key, requested_model)" "")") ms"
echo "load average after the queries: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "requests first page access_key_id: $(best_ms "$(page "access_key_id = 'ak-7'")") ms"
echo "requests first page credential_id: $(best_ms "$(page "credential_id = 'cred-13'")") ms"
echo "requests first page model: $(best_ms "$(page "(requested_model = 'model-3' OR model_key = 'model-3')")") ms"
echo "requests first page success=false: $(best_ms "$(page "NOT success")") ms"
echo "requests first page team_id: $(best_ms "$(page "team_id = 'team-3'")") ms"
echo "requests first page reason_code: $(best_ms "$(page "reason_code = 'upstream_5xx'")") ms"
psql_db -tA <<SQL
SELECT 'raw partition: ' || count(*) || ' rows, ' || pg_total_relation_size('request_logs_p$day') || ' bytes with indexes, '
       || round(pg_total_relation_size('request_logs_p$day')::numeric / count(*), 1) || ' bytes/row; '
       || round(pg_total_relation_size('request_logs_p$day')::numeric / count(*) * 5000 * 86400 / 1e9, 1)
       || ' GB per day at 5,000 req/s'
  FROM request_logs_p$day;
SELECT 'rollups: ' || count(*) || ' rows, ' || pg_total_relation_size('usage_rollups') || ' bytes with indexes, '
       || round(pg_total_relation_size('usage_rollups')::numeric / $days / 1e6, 1) || ' MB per day'
  FROM usage_rollups;
SELECT 'hourly rollups: ' || count(*) || ' rows, ' || round(pg_total_relation_size('usage_rollups_hourly')::numeric / $days / 1e6, 2)
       || ' MB per day' FROM usage_rollups_hourly;
SELECT 'daily rollups: ' || count(*) || ' rows, ' || round(pg_total_relation_size('usage_rollups_daily')::numeric / $days / 1e6, 3)
       || ' MB per day' FROM usage_rollups_daily;
SQL
