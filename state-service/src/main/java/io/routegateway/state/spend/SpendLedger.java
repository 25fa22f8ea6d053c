package io.routegateway.state.spend;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.webhook.Notification;
import io.routegateway.core.webhook.NotificationRules;
import io.routegateway.state.config.StateConfig;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.webhook.WebhookQueue;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Adds a usage batch's stored rows to {@code spend_windows} and queues the {@code spend.v1}
 * snapshots it changed, inside the transaction that inserted the rows: the request logs, the spend
 * and the outbox rows commit together, and only rows the insert actually stored are counted (a
 * redelivered request id, which the insert skipped, never counts twice).
 *
 * <p>Window rows are upserted in one statement, in primary-key order ({@link SpendRules#deltas}), so
 * concurrent batches of several replicas lock them in the same order; a deadlock that still happens
 * is a passing failure the consumer retries. Versions are taken after the rows are locked, so a
 * subject's versions and outbox ids grow together.
 */
@ApplicationScoped
public class SpendLedger {

    /** Adds each window's delta to its row (capped at the bigint range), creating the row if absent. */
    static final String UPSERT = "INSERT INTO spend_windows (subject, subject_id, duration, window_start, window_end,"
            + " spend_micros, requests, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
            + " cache_write_1h_tokens, reasoning_tokens, as_of, updated_at)"
            + " SELECT subject, subject_id, duration, window_start, window_end, spend_micros, requests,"
            + " input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens,"
            + " reasoning_tokens, as_of, $15"
            + " FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::bigint[],"
            + " $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[],"
            + " $13::bigint[], $14::timestamptz[])"
            + " AS delta(subject, subject_id, duration, window_start, window_end, spend_micros, requests,"
            + " input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens,"
            + " reasoning_tokens, as_of)"
            + " ON CONFLICT (subject, subject_id, duration, window_start) DO UPDATE SET"
            + " spend_micros = " + capped("spend_micros") + ","
            + " requests = " + capped("requests") + ","
            + " input_tokens = " + capped("input_tokens") + ","
            + " output_tokens = " + capped("output_tokens") + ","
            + " cache_read_tokens = " + capped("cache_read_tokens") + ","
            + " cache_write_tokens = " + capped("cache_write_tokens") + ","
            + " cache_write_1h_tokens = " + capped("cache_write_1h_tokens") + ","
            + " reasoning_tokens = " + capped("reasoning_tokens") + ","
            + " as_of = GREATEST(spend_windows.as_of, EXCLUDED.as_of),"
            + " updated_at = EXCLUDED.updated_at"
            + " RETURNING " + SpendReader.TOTALS_COLUMNS;

    static final String VERSIONS = "SELECT nextval('spend_version_seq') AS version FROM generate_series(1, $1)";

    static final String QUEUE = "INSERT INTO state_outbox (topic, message_key, payload, created_at)"
            + " SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])";

    /**
     * Locks and reads the current windows of the subjects whose held-back snapshot is due, in the
     * order given (the usage batches' lock order); an absent row (nothing spent) is skipped.
     */
    static final String LOCK_CURRENT = "SELECT " + qualified("w", SpendReader.TOTALS_COLUMNS)
            + " FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) WITH ORDINALITY"
            + " AS current_window(subject, subject_id, duration, window_start, position)"
            + " JOIN spend_windows w ON w.subject = current_window.subject"
            + " AND w.subject_id = current_window.subject_id AND w.duration = current_window.duration"
            + " AND w.window_start = current_window.window_start"
            + " ORDER BY current_window.position FOR UPDATE OF w";

    private final SpendZone zone;
    private final Clock clock;
    private final WebhookQueue webhooks;
    private final SpendThrottle throttle;

    SpendLedger(SpendZone zone, Clock clock, WebhookQueue webhooks, StateConfig config) {
        this.zone = zone;
        this.clock = clock;
        this.webhooks = webhooks;
        this.throttle = new SpendThrottle(config.spend().publishInterval().toNanos());
    }

    /** Which snapshots leave now and which wait ({@code state.spend.publish-interval}). */
    SpendThrottle throttle() {
        return throttle;
    }

    /**
     * The budget thresholds ({@link NotificationRules#budgetCrossed}) a team's spend crossed in this
     * transaction: its total after the upsert against the total before it (after minus what this
     * batch added), in the same window.
     */
    static List<Notification> budgetNotifications(
            List<SpendRules.Totals> deltas,
            List<SpendRules.Totals> after,
            Map<String, Limits> teamLimits,
            Instant now) {
        List<Notification> out = new ArrayList<>();
        for (SpendRules.Totals total : after) {
            if (!SpendSnapshot.TEAM.equals(total.subject().kind())) {
                continue;
            }
            Limits limits = teamLimits.get(total.subject().id());
            if (limits == null || limits.maxBudgetMicros() == null) {
                continue;
            }
            for (SpendRules.Totals delta : deltas) {
                if (delta.subject().equals(total.subject())
                        && delta.window().start().equals(total.window().start())) {
                    out.addAll(NotificationRules.budgetCrossed(
                            total.subject().id(),
                            total.spendMicros() - delta.spendMicros(),
                            total.spendMicros(),
                            limits.maxBudgetMicros(),
                            total.window().start(),
                            now));
                }
            }
        }
        return out;
    }

    private static String qualified(String table, String columns) {
        StringBuilder out = new StringBuilder();
        for (String column : columns.split(",")) {
            out.append(out.isEmpty() ? "" : ", ").append(table).append('.').append(column.trim());
        }
        return out.toString();
    }

    private static String capped(String column) {
        return "LEAST(spend_windows." + column + "::numeric + EXCLUDED." + column + ", 9223372036854775807)::bigint";
    }

    /**
     * Counts {@code stored} (the rows the batch's insert stored) on {@code connection}, in its
     * transaction.
     *
     * @return whether spend snapshots were queued (then the caller triggers the relay after the commit)
     */
    public Uni<Boolean> count(SqlConnection connection, List<SpendRules.Counted> stored) {
        LinkedHashSet<String> keyIds = new LinkedHashSet<>();
        LinkedHashSet<String> teamIds = new LinkedHashSet<>();
        for (SpendRules.Counted row : stored) {
            if (row.accessKeyId() != null) {
                keyIds.add(row.accessKeyId());
            }
            if (row.teamId() != null) {
                teamIds.add(row.teamId());
            }
        }
        if (keyIds.isEmpty() && teamIds.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        return limits(connection, "access_keys", keyIds)
                .flatMap(keyLimits -> limits(connection, "teams", teamIds)
                        .flatMap(teamLimits -> apply(connection, stored, keyLimits, teamLimits)));
    }

    private Uni<Boolean> apply(
            SqlConnection connection,
            List<SpendRules.Counted> stored,
            Map<String, Limits> keyLimits,
            Map<String, Limits> teamLimits) {
        List<SpendRules.Totals> deltas = SpendRules.deltas(stored, keyLimits, teamLimits, zone.zone());
        if (deltas.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        Instant now = clock.instant();
        return connection
                .preparedQuery(UPSERT)
                .execute(upsertColumns(deltas, now))
                .flatMap(rows -> {
                    List<SpendRules.Totals> changed = new ArrayList<>();
                    for (Row row : rows) {
                        changed.add(SpendReader.totals(row));
                    }
                    Map<SpendRules.Subject, Limits> limits = new HashMap<>();
                    keyLimits.forEach((id, value) -> limits.put(new SpendRules.Subject(SpendSnapshot.KEY, id), value));
                    teamLimits.forEach(
                            (id, value) -> limits.put(new SpendRules.Subject(SpendSnapshot.TEAM, id), value));
                    List<SpendRules.Totals> published = new ArrayList<>();
                    long nanos = System.nanoTime();
                    for (SpendRules.Totals totals : SpendRules.toPublish(changed, limits, now, zone.zone())) {
                        boolean crossed = SpendRules.crossedBudget(totals, deltas, limits.get(totals.subject()));
                        if (throttle.publishNow(totals.subject(), crossed, nanos)) {
                            published.add(totals);
                        }
                    }
                    return webhooks.queue(connection, budgetNotifications(deltas, changed, teamLimits, now))
                            .flatMap(queued -> queue(connection, published, now));
                });
    }

    /**
     * Queues the snapshots of {@code subjects} (held back by the throttle, now due) with their
     * current windows' totals as stored, on {@code connection}, in its transaction. A subject that no
     * longer exists or has no budget is skipped.
     *
     * @return whether snapshots were queued (then the caller triggers the relay after the commit)
     */
    public Uni<Boolean> publishCurrent(SqlConnection connection, List<SpendRules.Subject> subjects) {
        LinkedHashSet<String> keyIds = new LinkedHashSet<>();
        LinkedHashSet<String> teamIds = new LinkedHashSet<>();
        for (SpendRules.Subject subject : subjects) {
            (SpendSnapshot.TEAM.equals(subject.kind()) ? teamIds : keyIds).add(subject.id());
        }
        Instant now = clock.instant();
        return limits(connection, "access_keys", keyIds)
                .flatMap(keyLimits -> limits(connection, "teams", teamIds).flatMap(teamLimits -> {
                    List<SpendRules.Totals> windows = new ArrayList<>();
                    for (SpendRules.Subject subject : subjects) {
                        Limits limits =
                                (SpendSnapshot.TEAM.equals(subject.kind()) ? teamLimits : keyLimits).get(subject.id());
                        if (limits != null && limits.maxBudget() != null) {
                            windows.add(SpendRules.empty(subject, SpendRules.window(limits, now, zone.zone())));
                        }
                    }
                    if (windows.isEmpty()) {
                        return Uni.createFrom().item(false);
                    }
                    windows.sort(SpendRules.LOCK_ORDER);
                    int n = windows.size();
                    String[] kind = new String[n];
                    String[] id = new String[n];
                    String[] duration = new String[n];
                    OffsetDateTime[] start = new OffsetDateTime[n];
                    for (int i = 0; i < n; i++) {
                        SpendRules.Totals window = windows.get(i);
                        kind[i] = window.subject().kind();
                        id[i] = window.subject().id();
                        duration[i] = window.window().duration();
                        start[i] = utc(window.window().start());
                    }
                    return connection
                            .preparedQuery(LOCK_CURRENT)
                            .execute(Tuple.of(kind, id, duration, start))
                            .flatMap(rows -> {
                                List<SpendRules.Totals> current = new ArrayList<>();
                                for (Row row : rows) {
                                    current.add(SpendReader.totals(row));
                                }
                                return queue(connection, current, now);
                            });
                }));
    }

    private static Uni<Boolean> queue(SqlConnection connection, List<SpendRules.Totals> published, Instant now) {
        if (published.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        return connection
                .preparedQuery(VERSIONS)
                .execute(Tuple.of(published.size()))
                .flatMap(versions -> {
                    int n = published.size();
                    String[] topic = new String[n];
                    String[] key = new String[n];
                    String[] payload = new String[n];
                    String[] createdAt = new String[n];
                    int i = 0;
                    for (Row version : versions) {
                        SpendRules.Totals totals = published.get(i);
                        topic[i] = Topics.SPEND;
                        key[i] = totals.subject().recordKey();
                        payload[i] = Json.write(SpendRules.snapshot(totals, version.getLong("version"), now));
                        createdAt[i] = now.toString();
                        i++;
                    }
                    return connection.preparedQuery(QUEUE).execute(Tuple.of(topic, key, payload, createdAt));
                })
                .replaceWith(true);
    }

    /** The budgets of the subjects that still exist (a deleted one is absent). */
    private static Uni<Map<String, Limits>> limits(SqlConnection connection, String table, LinkedHashSet<String> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return connection
                .preparedQuery("SELECT id, max_budget, budget_duration FROM " + table + " WHERE id = ANY($1::text[])")
                .execute(Tuple.of(ids.toArray(String[]::new)))
                .map(SpendLedger::budgets);
    }

    private static Map<String, Limits> budgets(RowSet<Row> rows) {
        Map<String, Limits> out = new HashMap<>();
        for (Row row : rows) {
            out.put(
                    row.getString("id"),
                    StateRows.limits(
                            null, null, null, row.getBigDecimal("max_budget"), row.getString("budget_duration")));
        }
        return out;
    }

    private static Tuple upsertColumns(List<SpendRules.Totals> deltas, Instant now) {
        int n = deltas.size();
        String[] subject = new String[n];
        String[] subjectId = new String[n];
        String[] duration = new String[n];
        OffsetDateTime[] windowStart = new OffsetDateTime[n];
        OffsetDateTime[] windowEnd = new OffsetDateTime[n];
        Long[] spend = new Long[n];
        Long[] requests = new Long[n];
        Long[] input = new Long[n];
        Long[] output = new Long[n];
        Long[] cacheRead = new Long[n];
        Long[] cacheWrite = new Long[n];
        Long[] cacheWrite1h = new Long[n];
        Long[] reasoning = new Long[n];
        OffsetDateTime[] asOf = new OffsetDateTime[n];
        for (int i = 0; i < n; i++) {
            SpendRules.Totals delta = deltas.get(i);
            subject[i] = delta.subject().kind();
            subjectId[i] = delta.subject().id();
            duration[i] = delta.window().duration();
            windowStart[i] = utc(delta.window().start());
            windowEnd[i] = utc(delta.window().end());
            spend[i] = delta.spendMicros();
            requests[i] = delta.requests();
            input[i] = delta.inputTokens();
            output[i] = delta.outputTokens();
            cacheRead[i] = delta.cacheReadTokens();
            cacheWrite[i] = delta.cacheWriteTokens();
            cacheWrite1h[i] = delta.cacheWrite1hTokens();
            reasoning[i] = delta.reasoningTokens();
            asOf[i] = utc(delta.asOf());
        }
        return Tuple.from(new Object[] {
            subject,
            subjectId,
            duration,
            windowStart,
            windowEnd,
            spend,
            requests,
            input,
            output,
            cacheRead,
            cacheWrite,
            cacheWrite1h,
            reasoning,
            asOf,
            utc(now)
        });
    }

    static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
