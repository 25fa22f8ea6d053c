-- Coarser usage rollups (issue 36, item 4: 30-day stats in <= 200 ms).
--
-- usage_rollups_hourly and usage_rollups_daily hold the same dimensions and measures as the per-minute
-- usage_rollups, per UTC hour and per UTC day. They are folded in the same statement as the minute
-- rows, from the same transition table (the rows an INSERT into request_logs actually stored: a
-- redelivered row skipped by ON CONFLICT is in none of them), so every level counts a request once
-- and an hour (a day) always equals the sum of its minutes (of its hours) while they are all kept.
-- The statement aggregates the stored rows into minutes once and folds those minutes into the three
-- levels. Usage stats read whole days and hours of a range from the coarse levels and only the
-- ragged edges from the minutes (route-core usage/RollupLevels). Each level has its own retention
-- (state.usage-rollups.retention, .hourly-retention, .daily-retention; usage/LogMaintenance).

CREATE TABLE usage_rollups_hourly (LIKE usage_rollups INCLUDING DEFAULTS);
ALTER TABLE usage_rollups_hourly RENAME COLUMN minute_epoch_ms TO hour_epoch_ms;
CREATE UNIQUE INDEX usage_rollups_hourly_dimensions ON usage_rollups_hourly (hour_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe) NULLS NOT DISTINCT;
CREATE INDEX usage_rollups_hourly_access_key ON usage_rollups_hourly (access_key_id, hour_epoch_ms);
CREATE INDEX usage_rollups_hourly_team ON usage_rollups_hourly (team_id, hour_epoch_ms);
-- every minute already folded, into its hour
INSERT INTO usage_rollups_hourly (hour_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, requests, failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11)
SELECT (floor(minute_epoch_ms / 3600000.0) * 3600000)::bigint, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, sum(requests), sum(failures), sum(probes), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens), sum(reasoning_tokens), sum(cost_micros), sum(latency_ms_sum), sum(ttft_ms_sum), sum(ttft_count), sum(latency_b00), sum(latency_b01), sum(latency_b02), sum(latency_b03), sum(latency_b04), sum(latency_b05), sum(latency_b06), sum(latency_b07), sum(latency_b08), sum(latency_b09), sum(latency_b10), sum(latency_b11)
  FROM usage_rollups GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;

CREATE TABLE usage_rollups_daily (LIKE usage_rollups INCLUDING DEFAULTS);
ALTER TABLE usage_rollups_daily RENAME COLUMN minute_epoch_ms TO day_epoch_ms;
CREATE UNIQUE INDEX usage_rollups_daily_dimensions ON usage_rollups_daily (day_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe) NULLS NOT DISTINCT;
CREATE INDEX usage_rollups_daily_access_key ON usage_rollups_daily (access_key_id, day_epoch_ms);
CREATE INDEX usage_rollups_daily_team ON usage_rollups_daily (team_id, day_epoch_ms);
-- every minute already folded, into its day
INSERT INTO usage_rollups_daily (day_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, requests, failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11)
SELECT (floor(minute_epoch_ms / 86400000.0) * 86400000)::bigint, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, sum(requests), sum(failures), sum(probes), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens), sum(reasoning_tokens), sum(cost_micros), sum(latency_ms_sum), sum(ttft_ms_sum), sum(ttft_count), sum(latency_b00), sum(latency_b01), sum(latency_b02), sum(latency_b03), sum(latency_b04), sum(latency_b05), sum(latency_b06), sum(latency_b07), sum(latency_b08), sum(latency_b09), sum(latency_b10), sum(latency_b11)
  FROM usage_rollups GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;

-- Adds the rows a statement inserted (transition table new_rows) to their minutes', hours' and days'
-- rollups: one aggregation into minutes, folded into each level.
CREATE OR REPLACE FUNCTION request_logs_fold() RETURNS trigger LANGUAGE plpgsql AS $fold$
BEGIN
    WITH minutes AS MATERIALIZED (
        SELECT (floor(occurred_epoch_ms / 60000.0) * 60000)::bigint AS minute_epoch_ms, access_key_id, team_id, group_id, credential_id,
               requested_model, model_key, (status / 100)::smallint AS status_class, reason_code, success, probe,
               count(*) AS requests, count(*) FILTER (WHERE NOT success) AS failures, count(*) FILTER (WHERE probe) AS probes,
               coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
               coalesce(sum(cache_read_tokens), 0) AS cache_read_tokens,
               coalesce(sum(coalesce(cache_write_5m_tokens, 0) + coalesce(cache_write_1h_tokens, 0)), 0) AS cache_write_tokens,
               coalesce(sum(reasoning_tokens), 0) AS reasoning_tokens, coalesce(sum(cost_micros), 0) AS cost_micros,
               coalesce(sum(latency_ms), 0) AS latency_ms_sum, coalesce(sum(ttft_ms), 0) AS ttft_ms_sum, count(ttft_ms) AS ttft_count,
               count(*) FILTER (WHERE latency_ms < 100) AS latency_b00,
               count(*) FILTER (WHERE latency_ms >= 100 AND latency_ms < 250) AS latency_b01,
               count(*) FILTER (WHERE latency_ms >= 250 AND latency_ms < 500) AS latency_b02,
               count(*) FILTER (WHERE latency_ms >= 500 AND latency_ms < 1000) AS latency_b03,
               count(*) FILTER (WHERE latency_ms >= 1000 AND latency_ms < 2000) AS latency_b04,
               count(*) FILTER (WHERE latency_ms >= 2000 AND latency_ms < 5000) AS latency_b05,
               count(*) FILTER (WHERE latency_ms >= 5000 AND latency_ms < 10000) AS latency_b06,
               count(*) FILTER (WHERE latency_ms >= 10000 AND latency_ms < 20000) AS latency_b07,
               count(*) FILTER (WHERE latency_ms >= 20000 AND latency_ms < 30000) AS latency_b08,
               count(*) FILTER (WHERE latency_ms >= 30000 AND latency_ms < 60000) AS latency_b09,
               count(*) FILTER (WHERE latency_ms >= 60000 AND latency_ms < 120000) AS latency_b10,
               count(*) FILTER (WHERE latency_ms >= 120000) AS latency_b11
          FROM new_rows
         GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ), minute_level AS (
        INSERT INTO usage_rollups (minute_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, requests, failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11)
        SELECT minute_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, sum(requests), sum(failures), sum(probes), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens), sum(reasoning_tokens), sum(cost_micros), sum(latency_ms_sum), sum(ttft_ms_sum), sum(ttft_count), sum(latency_b00), sum(latency_b01), sum(latency_b02), sum(latency_b03), sum(latency_b04), sum(latency_b05), sum(latency_b06), sum(latency_b07), sum(latency_b08), sum(latency_b09), sum(latency_b10), sum(latency_b11)
          FROM minutes GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
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
        latency_b11 = usage_rollups.latency_b11 + excluded.latency_b11
    ), hour_level AS (
        INSERT INTO usage_rollups_hourly (hour_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, requests, failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11)
        SELECT (floor(minute_epoch_ms / 3600000.0) * 3600000)::bigint, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, sum(requests), sum(failures), sum(probes), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens), sum(reasoning_tokens), sum(cost_micros), sum(latency_ms_sum), sum(ttft_ms_sum), sum(ttft_count), sum(latency_b00), sum(latency_b01), sum(latency_b02), sum(latency_b03), sum(latency_b04), sum(latency_b05), sum(latency_b06), sum(latency_b07), sum(latency_b08), sum(latency_b09), sum(latency_b10), sum(latency_b11)
          FROM minutes GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        ON CONFLICT (hour_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe) DO UPDATE SET
        requests = usage_rollups_hourly.requests + excluded.requests,
        failures = usage_rollups_hourly.failures + excluded.failures,
        probes = usage_rollups_hourly.probes + excluded.probes,
        input_tokens = usage_rollups_hourly.input_tokens + excluded.input_tokens,
        output_tokens = usage_rollups_hourly.output_tokens + excluded.output_tokens,
        cache_read_tokens = usage_rollups_hourly.cache_read_tokens + excluded.cache_read_tokens,
        cache_write_tokens = usage_rollups_hourly.cache_write_tokens + excluded.cache_write_tokens,
        reasoning_tokens = usage_rollups_hourly.reasoning_tokens + excluded.reasoning_tokens,
        cost_micros = usage_rollups_hourly.cost_micros + excluded.cost_micros,
        latency_ms_sum = usage_rollups_hourly.latency_ms_sum + excluded.latency_ms_sum,
        ttft_ms_sum = usage_rollups_hourly.ttft_ms_sum + excluded.ttft_ms_sum,
        ttft_count = usage_rollups_hourly.ttft_count + excluded.ttft_count,
        latency_b00 = usage_rollups_hourly.latency_b00 + excluded.latency_b00,
        latency_b01 = usage_rollups_hourly.latency_b01 + excluded.latency_b01,
        latency_b02 = usage_rollups_hourly.latency_b02 + excluded.latency_b02,
        latency_b03 = usage_rollups_hourly.latency_b03 + excluded.latency_b03,
        latency_b04 = usage_rollups_hourly.latency_b04 + excluded.latency_b04,
        latency_b05 = usage_rollups_hourly.latency_b05 + excluded.latency_b05,
        latency_b06 = usage_rollups_hourly.latency_b06 + excluded.latency_b06,
        latency_b07 = usage_rollups_hourly.latency_b07 + excluded.latency_b07,
        latency_b08 = usage_rollups_hourly.latency_b08 + excluded.latency_b08,
        latency_b09 = usage_rollups_hourly.latency_b09 + excluded.latency_b09,
        latency_b10 = usage_rollups_hourly.latency_b10 + excluded.latency_b10,
        latency_b11 = usage_rollups_hourly.latency_b11 + excluded.latency_b11
    )
    INSERT INTO usage_rollups_daily (day_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, requests, failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11)
        SELECT (floor(minute_epoch_ms / 86400000.0) * 86400000)::bigint, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, sum(requests), sum(failures), sum(probes), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens), sum(reasoning_tokens), sum(cost_micros), sum(latency_ms_sum), sum(ttft_ms_sum), sum(ttft_count), sum(latency_b00), sum(latency_b01), sum(latency_b02), sum(latency_b03), sum(latency_b04), sum(latency_b05), sum(latency_b06), sum(latency_b07), sum(latency_b08), sum(latency_b09), sum(latency_b10), sum(latency_b11)
          FROM minutes GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        ON CONFLICT (day_epoch_ms, access_key_id, team_id, group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe) DO UPDATE SET
        requests = usage_rollups_daily.requests + excluded.requests,
        failures = usage_rollups_daily.failures + excluded.failures,
        probes = usage_rollups_daily.probes + excluded.probes,
        input_tokens = usage_rollups_daily.input_tokens + excluded.input_tokens,
        output_tokens = usage_rollups_daily.output_tokens + excluded.output_tokens,
        cache_read_tokens = usage_rollups_daily.cache_read_tokens + excluded.cache_read_tokens,
        cache_write_tokens = usage_rollups_daily.cache_write_tokens + excluded.cache_write_tokens,
        reasoning_tokens = usage_rollups_daily.reasoning_tokens + excluded.reasoning_tokens,
        cost_micros = usage_rollups_daily.cost_micros + excluded.cost_micros,
        latency_ms_sum = usage_rollups_daily.latency_ms_sum + excluded.latency_ms_sum,
        ttft_ms_sum = usage_rollups_daily.ttft_ms_sum + excluded.ttft_ms_sum,
        ttft_count = usage_rollups_daily.ttft_count + excluded.ttft_count,
        latency_b00 = usage_rollups_daily.latency_b00 + excluded.latency_b00,
        latency_b01 = usage_rollups_daily.latency_b01 + excluded.latency_b01,
        latency_b02 = usage_rollups_daily.latency_b02 + excluded.latency_b02,
        latency_b03 = usage_rollups_daily.latency_b03 + excluded.latency_b03,
        latency_b04 = usage_rollups_daily.latency_b04 + excluded.latency_b04,
        latency_b05 = usage_rollups_daily.latency_b05 + excluded.latency_b05,
        latency_b06 = usage_rollups_daily.latency_b06 + excluded.latency_b06,
        latency_b07 = usage_rollups_daily.latency_b07 + excluded.latency_b07,
        latency_b08 = usage_rollups_daily.latency_b08 + excluded.latency_b08,
        latency_b09 = usage_rollups_daily.latency_b09 + excluded.latency_b09,
        latency_b10 = usage_rollups_daily.latency_b10 + excluded.latency_b10,
        latency_b11 = usage_rollups_daily.latency_b11 + excluded.latency_b11;
    RETURN NULL;
END
$fold$;
