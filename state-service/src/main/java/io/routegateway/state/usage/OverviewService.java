package io.routegateway.state.usage;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.usage.Overview;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The landing overview: the window's per-minute rollups of client traffic (probes left out) and the
 * requests of the window that failed over (their attempt chain holds a {@code fail_over}), summed by
 * route-core {@link Overview}.
 */
@ApplicationScoped
public class OverviewService {

    private static final String ROLLUPS =
            "SELECT minute_epoch_ms, model_key, access_key_id, sum(requests)::bigint AS requests,"
                    + " sum(failures)::bigint AS failures, sum(input_tokens)::bigint AS input_tokens,"
                    + " sum(output_tokens)::bigint AS output_tokens, sum(ttft_ms_sum)::bigint AS ttft_ms_sum,"
                    + " sum(ttft_count)::bigint AS ttft_count, "
                    + String.join(
                            ", ",
                            RequestStatsService.BUCKETS.stream()
                                    .map(b -> "sum(" + b + ")::bigint AS " + b)
                                    .toList())
                    + " FROM usage_rollups WHERE NOT probe AND minute_epoch_ms >= $1 AND minute_epoch_ms < $2"
                    + " GROUP BY minute_epoch_ms, model_key, access_key_id";

    private static final String FAILOVERS = "SELECT count(*) AS failovers FROM request_logs"
            + " WHERE NOT probe AND occurred_epoch_ms >= $1 AND occurred_epoch_ms < $2"
            + " AND attempt_chain @> '[{\"decision\":\"fail_over\"}]'::jsonb";

    private final Pool client;
    private final Clock clock;

    OverviewService(Pool client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The window a query names ({@code fallback} when it names none); {@code validation.query} for another. */
    static String windowName(String sent, String fallback) {
        String name = sent == null || sent.isBlank() ? fallback : sent.strip();
        if (!Overview.WINDOWS.containsKey(name)) {
            throw AdminException.invalid(AdminCodes.QUERY, "window must be one of 5m, 15m, 1h, 6h, 24h");
        }
        return name;
    }

    public Uni<Overview> overview(String windowSent) {
        Duration window = Overview.WINDOWS.get(windowName(windowSent, Overview.DEFAULT_WINDOW));
        Instant now = clock.instant();
        Instant[] range = Overview.range(now, window);
        Tuple bounds = Tuple.of(range[0].toEpochMilli(), range[1].toEpochMilli());
        Uni<List<Overview.Row>> rows = client.preparedQuery(ROLLUPS)
                .execute(bounds)
                .map(result -> {
                    List<Overview.Row> out = new ArrayList<>();
                    for (Row row : result) {
                        long[] buckets = RequestStatsService.latencyBuckets(row);
                        out.add(new Overview.Row(
                                row.getLong("minute_epoch_ms"),
                                row.getString("model_key"),
                                row.getString("access_key_id"),
                                row.getLong("requests"),
                                row.getLong("failures"),
                                row.getLong("input_tokens"),
                                row.getLong("output_tokens"),
                                row.getLong("ttft_ms_sum"),
                                row.getLong("ttft_count"),
                                buckets));
                    }
                    return out;
                });
        Uni<Long> failovers = client.preparedQuery(FAILOVERS)
                .execute(bounds)
                .map(result -> result.iterator().next().getLong("failovers"));
        return Uni.combine()
                .all()
                .unis(rows, failovers)
                .asTuple()
                .map(t -> Overview.of(t.getItem1(), t.getItem2(), now, window));
    }
}
