package io.routegateway.state.usage;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.usage.CredentialTraffic;
import io.routegateway.core.usage.Overview;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Success rate and latency per credential over a recent window, for the credentials list: the
 * per-minute rollups of client traffic (probes left out), summed by route-core {@link
 * CredentialTraffic}. Never reads the raw request logs.
 */
@ApplicationScoped
public class CredentialTrafficService {

    /** The query parameters the endpoint takes; any other is {@code validation.unknown_field}. */
    static final Set<String> PARAMETERS = Set.of("window");

    private static final String ROLLUPS = "SELECT minute_epoch_ms, credential_id, sum(requests)::bigint AS requests,"
            + " sum(failures)::bigint AS failures, sum(latency_ms_sum)::bigint AS latency_ms_sum, "
            + String.join(
                    ", ",
                    RequestStatsService.BUCKETS.stream()
                            .map(b -> "sum(" + b + ")::bigint AS " + b)
                            .toList())
            + " FROM usage_rollups WHERE NOT probe AND credential_id IS NOT NULL"
            + " AND minute_epoch_ms >= $1 AND minute_epoch_ms < $2"
            + " GROUP BY minute_epoch_ms, credential_id";

    private final Pool client;
    private final Clock clock;

    CredentialTrafficService(Pool client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    public Uni<CredentialTraffic> traffic(Set<String> sent, String windowSent) {
        for (String name : sent) {
            if (!PARAMETERS.contains(name)) {
                throw AdminException.invalid(
                        AdminCodes.UNKNOWN_FIELD,
                        (name.matches("[a-z][a-z0-9_]{0,63}")
                                        ? "unknown query parameter " + name
                                        : "an unknown query parameter")
                                + "; the parameters are " + PARAMETERS);
            }
        }
        String window = OverviewService.windowName(windowSent, CredentialTraffic.DEFAULT_WINDOW);
        Instant now = clock.instant();
        Instant[] range = Overview.range(now, Overview.WINDOWS.get(window));
        return client.preparedQuery(ROLLUPS)
                .execute(Tuple.of(range[0].toEpochMilli(), range[1].toEpochMilli()))
                .map(result -> {
                    List<CredentialTraffic.Row> rows = new ArrayList<>();
                    for (Row row : result) {
                        long[] buckets = RequestStatsService.latencyBuckets(row);
                        rows.add(new CredentialTraffic.Row(
                                row.getLong("minute_epoch_ms"),
                                row.getString("credential_id"),
                                row.getLong("requests"),
                                row.getLong("failures"),
                                row.getLong("latency_ms_sum"),
                                buckets));
                    }
                    return CredentialTraffic.of(rows, now, window);
                });
    }
}
