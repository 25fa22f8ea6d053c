package io.routegateway.state.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.routegateway.core.event.AttemptStep;
import io.routegateway.core.json.Json;
import io.routegateway.core.usage.LatencyHistogram;
import io.routegateway.core.usage.RollupLevels;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Page;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The request log and the usage stats: read-only reports, run as plain SQL on the reactive pool
 * (aggregates and keyset paging are clearer there than through entities). The log reads the raw
 * {@code request_logs}; the stats read the daily, hourly and per-minute rollups ({@code
 * usage_rollups_daily}, {@code usage_rollups_hourly}, {@code usage_rollups}).
 */
@ApplicationScoped
public class RequestStatsService {

    static final String COLUMNS = "request_id, occurred_at, occurred_epoch_ms, protocol, access_key_id,"
            + " group_id, credential_id, requested_model, model_key, attempts, status, reason_code, latency_ms,"
            + " ttft_ms, input_tokens, output_tokens, cost_micros, stream, client_disconnected, success, probe, team_id,"
            + " cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, reasoning_tokens";

    private final Pool client;

    RequestStatsService(Pool client) {
        this.client = client;
    }

    /** Newest first; {@code cursor} is the {@code next_cursor} of the previous page. */
    public Uni<Page<RequestLogView>> requests(RequestFilter filter, String limitSent, String cursor) {
        int limit = UsageRules.limit(limitSent);
        List<Object> args = new ArrayList<>();
        String where = filter.where(args);
        UsageRules.Cursor after = UsageRules.cursor(cursor);
        if (after != null) {
            args.add(after.epochMs());
            int epoch = args.size();
            args.add(after.requestId());
            int id = args.size();
            where += (where.isEmpty() ? " WHERE " : " AND ") + "(occurred_epoch_ms < $" + epoch
                    + " OR (occurred_epoch_ms = $" + epoch + " AND request_id < $" + id + "))";
        }
        args.add(limit + 1);
        String sql = "SELECT " + COLUMNS + " FROM request_logs" + where
                + " ORDER BY occurred_epoch_ms DESC, request_id DESC LIMIT $" + args.size();
        return client.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<RequestLogView> items = new ArrayList<>();
            String next = null;
            long lastEpochMs = 0;
            for (Row row : rows) {
                if (items.size() == limit) {
                    next = new UsageRules.Cursor(
                                    lastEpochMs, items.get(items.size() - 1).requestId())
                            .toString();
                    break;
                }
                items.add(view(row));
                lastEpochMs = row.getLong("occurred_epoch_ms");
            }
            return new Page<>(items, next);
        });
    }

    /** One request with its attempt chain; 404 when no row holds {@code id}. */
    /**
     * One request and its attempt chain.
     *
     * @param onlyTeam a team role's team: a request charged to another team (or to none) is not
     *     found, exactly as a request id that does not exist; null: any request
     */
    public Uni<RequestLogDetail> request(String id, String onlyTeam) {
        UUID requestId;
        try {
            requestId = UUID.fromString(id == null ? "" : id.strip());
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(AdminCodes.ID, "request_id must be a UUID");
        }
        String sql = "SELECT " + COLUMNS + ", attempt_chain::text AS attempt_chain FROM request_logs"
                + " WHERE request_id = $1" + (onlyTeam == null ? "" : " AND team_id = $2") + " LIMIT 1";
        Tuple args = onlyTeam == null ? Tuple.of(requestId) : Tuple.of(requestId, onlyTeam);
        return client.preparedQuery(sql).execute(args).map(rows -> {
            if (rows.size() == 0) {
                throw AdminException.notFound("request", requestId.toString());
            }
            Row row = rows.iterator().next();
            return new RequestLogDetail(view(row), chain(row.getString("attempt_chain")));
        });
    }

    private static List<AttemptStep> chain(String stored) {
        if (stored == null) {
            return List.of();
        }
        try {
            return List.of(Json.MAPPER.readValue(stored, AttemptStep[].class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("request_logs.attempt_chain is not an attempt chain", e);
        }
    }

    /**
     * Totals per {@code group_by}; probes are counted apart and can be filtered out with {@code
     * probe=false}. Whole days of the range come from {@code usage_rollups_daily}, the whole hours left
     * at either end from {@code usage_rollups_hourly}, the whole minutes left from {@code usage_rollups}
     * and the partial minutes at the very ends from {@code request_logs} ({@link RollupLevels}; grouped
     * by hour, the daily level is not read), so the answer is what the minute rollups and the raw rows
     * give while they are kept.
     */
    public Uni<UsageView> usage(RequestFilter filter, String groupBy) {
        UsageRules.Grouping grouping = UsageRules.groupBy(groupBy);
        List<Object> args = new ArrayList<>();
        String sql = "SELECT key, sum(requests)::bigint AS requests, sum(failures)::bigint AS failures,"
                + " sum(probes)::bigint AS probes, sum(input_tokens)::bigint AS input_tokens,"
                + " sum(output_tokens)::bigint AS output_tokens, sum(cost_micros)::bigint AS cost_micros, "
                + BUCKET_SUMS + " FROM (" + String.join(" UNION ALL ", parts(filter, grouping, args))
                + ") AS parts GROUP BY key ORDER BY key NULLS LAST";
        return client.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<UsageView.Row> out = new ArrayList<>();
            long requests = 0;
            long failures = 0;
            long probes = 0;
            long input = 0;
            long output = 0;
            long cost = 0;
            long[] allBuckets = new long[LatencyHistogram.BUCKETS];
            for (Row row : rows) {
                long[] buckets = new long[LatencyHistogram.BUCKETS];
                for (int i = 0; i < buckets.length; i++) {
                    buckets[i] = row.getLong(BUCKETS.get(i));
                    allBuckets[i] += buckets[i];
                }
                UsageView.Row line = UsageView.Row.of(
                        row.getString("key"),
                        row.getLong("requests"),
                        row.getLong("failures"),
                        row.getLong("probes"),
                        row.getLong("input_tokens"),
                        row.getLong("output_tokens"),
                        row.getLong("cost_micros"),
                        buckets);
                out.add(line);
                requests += line.requests();
                failures += line.failures();
                probes += line.probes();
                input += line.inputTokens();
                output += line.outputTokens();
                cost += line.costMicros();
            }
            return new UsageView(
                    grouping.by(),
                    out,
                    UsageView.Row.of(null, requests, failures, probes, input, output, cost, allBuckets));
        });
    }

    /** The column names of the latency buckets, {@code latency_b00} …, in {@link LatencyHistogram} order. */
    static final List<String> BUCKETS = buckets();

    private static final String BUCKET_SUMS = String.join(
            ", ", BUCKETS.stream().map(b -> "sum(" + b + ")::bigint AS " + b).toList());

    /** One row's latency buckets, read from the {@link #BUCKETS} columns. */
    static long[] latencyBuckets(Row row) {
        long[] buckets = new long[LatencyHistogram.BUCKETS];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = row.getLong(BUCKETS.get(i));
        }
        return buckets;
    }

    private static List<String> buckets() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++) {
            names.add(String.format("latency_b%02d", i));
        }
        return List.copyOf(names);
    }

    /** The rollup and raw parts of the range, each one row per rollup or request with the same columns. */
    private static List<String> parts(RequestFilter filter, UsageRules.Grouping grouping, List<Object> args) {
        List<String> parts = new ArrayList<>();
        for (RollupLevels.Part part : RollupLevels.split(filter.from(), filter.to(), grouping.coarsest())) {
            switch (part.level()) {
                case RAW -> parts.add(raw(filter, grouping, args, part.fromMs(), part.toMs()));
                case MINUTE -> parts.add(rollups(filter, grouping, args, "usage_rollups", "minute_epoch_ms", part));
                case HOUR -> parts.add(rollups(filter, grouping, args, "usage_rollups_hourly", "hour_epoch_ms", part));
                case DAY -> parts.add(rollups(filter, grouping, args, "usage_rollups_daily", "day_epoch_ms", part));
            }
        }
        if (parts.isEmpty()) {
            // an empty range (from = to is refused before): nothing to read, the same columns
            parts.add(raw(filter, grouping, args, 0L, 0L));
        }
        return parts;
    }

    /** The rows of one rollup level within the part's bounds. */
    private static String rollups(
            RequestFilter filter,
            UsageRules.Grouping grouping,
            List<Object> args,
            String table,
            String timeColumn,
            RollupLevels.Part part) {
        return "SELECT " + grouping.over(timeColumn) + " AS key, requests, failures, probes, input_tokens,"
                + " output_tokens, cost_micros, " + String.join(", ", BUCKETS) + " FROM " + table
                + filter.where(args, timeColumn, part.fromMs(), part.toMs());
    }

    /** The raw rows of {@code [fromMs, toMs)}, one per request, counted as the rollups count them. */
    private static String raw(
            RequestFilter filter, UsageRules.Grouping grouping, List<Object> args, Long fromMs, Long toMs) {
        StringBuilder buckets = new StringBuilder();
        List<Long> bounds = LatencyHistogram.BOUNDS_MS;
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++) {
            String lower = i == 0 ? "TRUE" : "latency_ms >= " + bounds.get(i - 1);
            String upper = i == bounds.size() ? "TRUE" : "latency_ms < " + bounds.get(i);
            buckets.append(", (")
                    .append(lower)
                    .append(" AND ")
                    .append(upper)
                    .append(")::int AS ")
                    .append(BUCKETS.get(i));
        }
        return "SELECT " + grouping.over("occurred_epoch_ms") + " AS key, 1 AS requests,"
                + " (NOT success)::int AS failures, probe::int AS probes, coalesce(input_tokens, 0) AS input_tokens,"
                + " coalesce(output_tokens, 0) AS output_tokens, coalesce(cost_micros, 0) AS cost_micros" + buckets
                + " FROM request_logs" + filter.where(args, "occurred_epoch_ms", fromMs, toMs);
    }

    private static RequestLogView view(Row row) {
        return new RequestLogView(
                row.getUUID("request_id"),
                Instant.parse(row.getString("occurred_at")),
                row.getString("protocol"),
                row.getString("access_key_id"),
                row.getString("group_id"),
                row.getString("credential_id"),
                row.getString("requested_model"),
                row.getString("model_key"),
                row.getInteger("attempts"),
                row.getInteger("status"),
                row.getString("reason_code"),
                row.getLong("latency_ms"),
                row.getLong("ttft_ms"),
                row.getLong("input_tokens"),
                row.getLong("output_tokens"),
                row.getLong("cost_micros"),
                row.getBoolean("stream"),
                row.getBoolean("client_disconnected"),
                row.getBoolean("success"),
                row.getBoolean("probe"),
                row.getString("team_id"),
                row.getLong("cache_read_tokens"),
                row.getLong("cache_write_5m_tokens"),
                row.getLong("cache_write_1h_tokens"),
                row.getLong("reasoning_tokens"));
    }
}
