package io.routegateway.state.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.web.Page;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The request log and the usage stats: read-only reports over {@code request_logs}, run as plain SQL
 * on the reactive pool (aggregates and keyset paging are clearer there than through entities).
 */
@ApplicationScoped
public class RequestStatsService {

    private static final String COLUMNS = "request_id, occurred_at, occurred_epoch_ms, protocol, access_key_id,"
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

    /** Totals per {@code group_by}; probes are counted apart and can be filtered out with {@code probe=false}. */
    public Uni<UsageView> usage(RequestFilter filter, String groupBy) {
        UsageRules.Grouping grouping = UsageRules.groupBy(groupBy);
        List<Object> args = new ArrayList<>();
        String sql = "SELECT " + grouping.expression() + " AS key, count(*) AS requests,"
                + " count(*) FILTER (WHERE NOT success) AS failures,"
                + " count(*) FILTER (WHERE probe) AS probes,"
                + " coalesce(sum(input_tokens), 0)::bigint AS input_tokens,"
                + " coalesce(sum(output_tokens), 0)::bigint AS output_tokens,"
                + " coalesce(sum(cost_micros), 0)::bigint AS cost_micros"
                + " FROM request_logs" + filter.where(args)
                + " GROUP BY 1 ORDER BY 1 NULLS LAST";
        return client.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<UsageView.Row> out = new ArrayList<>();
            long requests = 0;
            long failures = 0;
            long probes = 0;
            long input = 0;
            long output = 0;
            long cost = 0;
            for (Row row : rows) {
                UsageView.Row line = new UsageView.Row(
                        row.getString("key"),
                        row.getLong("requests"),
                        row.getLong("failures"),
                        row.getLong("probes"),
                        row.getLong("input_tokens"),
                        row.getLong("output_tokens"),
                        row.getLong("cost_micros"));
                out.add(line);
                requests += line.requests();
                failures += line.failures();
                probes += line.probes();
                input += line.inputTokens();
                output += line.outputTokens();
                cost += line.costMicros();
            }
            return new UsageView(
                    grouping.by(), out, new UsageView.Row(null, requests, failures, probes, input, output, cost));
        });
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
