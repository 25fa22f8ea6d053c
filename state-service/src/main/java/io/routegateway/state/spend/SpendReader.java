package io.routegateway.state.spend;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.limits.Limits;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Reads a subject's current window: its totals from {@code spend_windows} and its spend by model from
 * the window's per-minute {@code usage_rollups} (plain SQL on the reactive pool, like the usage
 * reports; a window starts on a whole minute, so its rollups are exactly its requests).
 */
@ApplicationScoped
public class SpendReader {

    static final String TOTALS_COLUMNS = "subject, subject_id, duration, window_start, window_end, spend_micros,"
            + " requests, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
            + " cache_write_1h_tokens, reasoning_tokens, as_of";

    private static final String TOTALS = "SELECT " + TOTALS_COLUMNS + " FROM spend_windows"
            + " WHERE subject = $1 AND subject_id = $2 AND duration = $3 AND window_start = $4";

    private final Pool client;
    private final SpendZone zone;
    private final Clock clock;

    SpendReader(Pool client, SpendZone zone, Clock clock) {
        this.client = client;
        this.zone = zone;
        this.clock = clock;
    }

    /** The current window of the subject with {@code limits}, with the spend by model. */
    public Uni<SpendView> current(SpendRules.Subject subject, Limits limits) {
        Instant now = clock.instant();
        return totals(subject, limits, now)
                .flatMap(totals ->
                        byModel(subject, totals.window()).map(byModel -> SpendView.of(limits, totals, byModel)));
    }

    /** The subject's totals in its window holding {@code at}; an absent row is an empty window. */
    public Uni<SpendRules.Totals> totals(SpendRules.Subject subject, Limits limits, Instant at) {
        SpendRules.Window window = SpendRules.window(limits, at, zone.zone());
        return client.preparedQuery(TOTALS)
                .execute(Tuple.of(subject.kind(), subject.id(), window.duration(), SpendLedger.utc(window.start())))
                .map(rows -> {
                    for (Row row : rows) {
                        return totals(row);
                    }
                    return SpendRules.empty(subject, window);
                });
    }

    private Uni<List<SpendView.ModelSpend>> byModel(SpendRules.Subject subject, SpendRules.Window window) {
        String column = SpendSnapshot.TEAM.equals(subject.kind()) ? "team_id" : "access_key_id";
        List<Object> args = new ArrayList<>();
        args.add(subject.id());
        args.add(window.start().toEpochMilli());
        String until = "";
        if (window.end() != null) {
            args.add(window.end().toEpochMilli());
            until = " AND minute_epoch_ms < $3";
        }
        args.add(SpendView.MAX_MODELS);
        String sql = "SELECT coalesce(model_key, requested_model) AS model,"
                + " coalesce(sum(cost_micros), 0)::bigint AS cost_micros, coalesce(sum(requests), 0)::bigint AS requests"
                + " FROM usage_rollups WHERE " + column + " = $1 AND minute_epoch_ms >= $2" + until
                + " GROUP BY 1 ORDER BY 2 DESC, 3 DESC, 1 NULLS LAST LIMIT $" + args.size();
        return client.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<SpendView.ModelSpend> out = new ArrayList<>();
            for (Row row : rows) {
                out.add(new SpendView.ModelSpend(
                        row.getString("model"), SpendRules.usd(row.getLong("cost_micros")), row.getLong("requests")));
            }
            return out;
        });
    }

    /** A row of {@link #TOTALS_COLUMNS}. */
    static SpendRules.Totals totals(Row row) {
        return new SpendRules.Totals(
                new SpendRules.Subject(row.getString("subject"), row.getString("subject_id")),
                new SpendRules.Window(
                        row.getString("duration"),
                        instant(row.getOffsetDateTime("window_start")),
                        instant(row.getOffsetDateTime("window_end"))),
                row.getLong("spend_micros"),
                row.getLong("requests"),
                row.getLong("input_tokens"),
                row.getLong("output_tokens"),
                row.getLong("cache_read_tokens"),
                row.getLong("cache_write_tokens"),
                row.getLong("cache_write_1h_tokens"),
                row.getLong("reasoning_tokens"),
                instant(row.getOffsetDateTime("as_of")));
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }
}
