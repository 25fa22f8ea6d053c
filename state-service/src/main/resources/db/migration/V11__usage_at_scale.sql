-- Usage at scale (issue 36).
--
-- 1. request_logs becomes a table range-partitioned by occurred_epoch_ms, one partition per UTC day
--    (request_logs_pYYYYMMDD, route-core usage/LogPartitions), plus a default partition for rows no
--    daily partition covers (far ahead of the clock, or older than the oldest kept day). A primary key
--    of a partitioned table must hold the partition key: it is (request_id, occurred_epoch_ms). A
--    redelivered usage record carries the same occurred_at, so it lands in the same partition and
--    conflicts with the stored row: ON CONFLICT DO NOTHING still stores it once. Partitions are
--    created ahead and dropped past state.request-logs.retention by usage/LogMaintenance (a partition
--    drop, never a DELETE of rows). Every row of the unpartitioned table is copied.
-- 2. usage_rollups: per-minute totals by key, team, group, credential, model, status class, reason
--    code, success and probe, folded by the statement-level trigger request_logs_fold() from the
--    rows an INSERT actually stored (its transition table: a redelivered row skipped by ON CONFLICT
--    is not in it), in the same statement and transaction as the raw rows. Usage stats and spend read
--    them; only the request-log list reads raw rows.

ALTER TABLE request_logs RENAME TO request_logs_unpartitioned;
ALTER TABLE request_logs_unpartitioned RENAME CONSTRAINT request_logs_pkey TO request_logs_unpartitioned_pkey;
DROP INDEX request_logs_time;
DROP INDEX request_logs_credential;
DROP INDEX request_logs_access_key;
DROP INDEX request_logs_group;
DROP INDEX request_logs_model;
DROP INDEX request_logs_failures;
DROP INDEX request_logs_team;

CREATE TABLE request_logs (LIKE request_logs_unpartitioned INCLUDING DEFAULTS)
    PARTITION BY RANGE (occurred_epoch_ms);
ALTER TABLE request_logs ADD PRIMARY KEY (request_id, occurred_epoch_ms);
-- The admin filters of the request-log list, each with the list's order (newest first); the usage
-- stats read the rollups and need none.
CREATE INDEX request_logs_time ON request_logs (occurred_epoch_ms DESC);
CREATE INDEX request_logs_credential ON request_logs (credential_id, occurred_epoch_ms DESC);
CREATE INDEX request_logs_access_key ON request_logs (access_key_id, occurred_epoch_ms DESC);
CREATE INDEX request_logs_group ON request_logs (group_id, occurred_epoch_ms DESC);
CREATE INDEX request_logs_model ON request_logs (requested_model, occurred_epoch_ms DESC);
CREATE INDEX request_logs_team ON request_logs (team_id, occurred_epoch_ms DESC);
CREATE INDEX request_logs_failures ON request_logs (occurred_epoch_ms DESC) WHERE NOT success;
CREATE TABLE request_logs_default PARTITION OF request_logs DEFAULT;

-- A daily partition for every day that holds rows, and for today and the next two days (the
-- maintenance job keeps state.request-logs.days-ahead ready from its first run on).
DO $$
DECLARE
    d DATE;
BEGIN
    FOR d IN
        SELECT DISTINCT (to_timestamp(occurred_epoch_ms / 1000.0) AT TIME ZONE 'UTC')::date
          FROM request_logs_unpartitioned
        UNION
        SELECT (now() AT TIME ZONE 'UTC')::date + i FROM generate_series(0, 2) AS i
    LOOP
        EXECUTE format(
            'CREATE TABLE %I PARTITION OF request_logs FOR VALUES FROM (%s) TO (%s)',
            'request_logs_p' || to_char(d, 'YYYYMMDD'),
            (extract(epoch FROM d::timestamp AT TIME ZONE 'UTC') * 1000)::bigint,
            (extract(epoch FROM (d + 1)::timestamp AT TIME ZONE 'UTC') * 1000)::bigint);
    END LOOP;
END
$$;

CREATE TABLE usage_rollups (
    -- the minute (UTC) the requests occurred in, epoch milliseconds
    minute_epoch_ms    BIGINT NOT NULL,
    access_key_id      TEXT,
    team_id            TEXT,
    group_id           TEXT,
    credential_id      TEXT,
    requested_model    TEXT,
    model_key          TEXT,
    -- status / 100 (2, 4, 5; 0 for a request that never had a status)
    status_class       SMALLINT NOT NULL,
    reason_code        TEXT,
    success            BOOLEAN NOT NULL,
    probe              BOOLEAN NOT NULL,
    requests           BIGINT NOT NULL,
    failures           BIGINT NOT NULL,
    probes             BIGINT NOT NULL,
    input_tokens       BIGINT NOT NULL,
    output_tokens      BIGINT NOT NULL,
    cache_read_tokens  BIGINT NOT NULL,
    -- 5-minute and 1-hour cache writes together
    cache_write_tokens BIGINT NOT NULL,
    reasoning_tokens   BIGINT NOT NULL,
    cost_micros        BIGINT NOT NULL,
    latency_ms_sum     BIGINT NOT NULL,
    ttft_ms_sum        BIGINT NOT NULL,
    -- requests with a ttft_ms
    ttft_count         BIGINT NOT NULL,
    -- latency histogram, route-core usage/LatencyHistogram's buckets (bounds in ms: [100, 250, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000, 120000])
    latency_b00 BIGINT NOT NULL,
    latency_b01 BIGINT NOT NULL,
    latency_b02 BIGINT NOT NULL,
    latency_b03 BIGINT NOT NULL,
    latency_b04 BIGINT NOT NULL,
    latency_b05 BIGINT NOT NULL,
    latency_b06 BIGINT NOT NULL,
    latency_b07 BIGINT NOT NULL,
    latency_b08 BIGINT NOT NULL,
    latency_b09 BIGINT NOT NULL,
    latency_b10 BIGINT NOT NULL,
    latency_b11 BIGINT NOT NULL
);
CREATE UNIQUE INDEX usage_rollups_dimensions ON usage_rollups (minute_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe) NULLS NOT DISTINCT;
-- Spend by model of one key or team in its window, and the usage stats filtered by either.
CREATE INDEX usage_rollups_access_key ON usage_rollups (access_key_id, minute_epoch_ms);
CREATE INDEX usage_rollups_team ON usage_rollups (team_id, minute_epoch_ms);

-- Adds the rows a statement inserted (transition table new_rows) to their minutes' rollups.
CREATE FUNCTION request_logs_fold() RETURNS trigger LANGUAGE plpgsql AS $fold$
BEGIN
    INSERT INTO usage_rollups (minute_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe,
        requests, failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11)
    SELECT (floor(occurred_epoch_ms / 60000.0) * 60000)::bigint, access_key_id, team_id, group_id, credential_id,
           requested_model, model_key, (status / 100)::smallint, reason_code, success, probe,
           count(*), count(*) FILTER (WHERE NOT success), count(*) FILTER (WHERE probe),
           coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cache_read_tokens), 0),
           coalesce(sum(coalesce(cache_write_5m_tokens, 0) + coalesce(cache_write_1h_tokens, 0)), 0),
           coalesce(sum(reasoning_tokens), 0), coalesce(sum(cost_micros), 0), coalesce(sum(latency_ms), 0),
           coalesce(sum(ttft_ms), 0), count(ttft_ms),
           count(*) FILTER (WHERE latency_ms < 100),
           count(*) FILTER (WHERE latency_ms >= 100 AND latency_ms < 250),
           count(*) FILTER (WHERE latency_ms >= 250 AND latency_ms < 500),
           count(*) FILTER (WHERE latency_ms >= 500 AND latency_ms < 1000),
           count(*) FILTER (WHERE latency_ms >= 1000 AND latency_ms < 2000),
           count(*) FILTER (WHERE latency_ms >= 2000 AND latency_ms < 5000),
           count(*) FILTER (WHERE latency_ms >= 5000 AND latency_ms < 10000),
           count(*) FILTER (WHERE latency_ms >= 10000 AND latency_ms < 20000),
           count(*) FILTER (WHERE latency_ms >= 20000 AND latency_ms < 30000),
           count(*) FILTER (WHERE latency_ms >= 30000 AND latency_ms < 60000),
           count(*) FILTER (WHERE latency_ms >= 60000 AND latency_ms < 120000),
           count(*) FILTER (WHERE latency_ms >= 120000)
      FROM new_rows
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ON CONFLICT (minute_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe) DO UPDATE SET
        requests = usage_rollups.requests + excluded.requests,
        failures = usage_rollups.failures + excluded.failures,
        probes = usage_rollups.probes + excluded.probes,
        input_tokens = usage_rollups.input_tokens + excluded.input_tokens,
        output_tokens = usage_rollups.output_tokens + excluded.output_tokens,
        cache_read_tokens = usage_rollups.cache_read_tokens + excluded.cache_read_tokens,
        cache_write_tokens = usage_rollups.cache_write_tokens + excluded.cache_write_tokens,
        reasoning_tokens = usage_rollups.reasoning_tokens + excluded.reasoning_tokens,
        cost_micros = usage_rollups.cost_micros + excluded.cost_micros,
        latency_ms_sum = usage_rollups.latency_ms_sum + excluded.latency_ms_sum,
        ttft_ms_sum = usage_rollups.ttft_ms_sum + excluded.ttft_ms_sum,
        ttft_count = usage_rollups.ttft_count + excluded.ttft_count,
        latency_b00 = usage_rollups.latency_b00 + excluded.latency_b00,
        latency_b01 = usage_rollups.latency_b01 + excluded.latency_b01,
        latency_b02 = usage_rollups.latency_b02 + excluded.latency_b02,
        latency_b03 = usage_rollups.latency_b03 + excluded.latency_b03,
        latency_b04 = usage_rollups.latency_b04 + excluded.latency_b04,
        latency_b05 = usage_rollups.latency_b05 + excluded.latency_b05,
        latency_b06 = usage_rollups.latency_b06 + excluded.latency_b06,
        latency_b07 = usage_rollups.latency_b07 + excluded.latency_b07,
        latency_b08 = usage_rollups.latency_b08 + excluded.latency_b08,
        latency_b09 = usage_rollups.latency_b09 + excluded.latency_b09,
        latency_b10 = usage_rollups.latency_b10 + excluded.latency_b10,
        latency_b11 = usage_rollups.latency_b11 + excluded.latency_b11;
    RETURN NULL;
END
$fold$;
CREATE TRIGGER request_logs_fold AFTER INSERT ON request_logs
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION request_logs_fold();

-- Every existing row, into its partition; the trigger folds them into the rollups.
INSERT INTO request_logs SELECT * FROM request_logs_unpartitioned;
DROP TABLE request_logs_unpartitioned;
