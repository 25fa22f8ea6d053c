package io.routegateway.state.usage;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;
import io.routegateway.core.usage.LogPartitions;
import io.routegateway.state.config.StateConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import org.jboss.logging.Logger;

/**
 * Keeps {@code request_logs}' daily partitions ahead of the clock and drops those past {@code
 * state.request-logs.retention} (an O(1) {@code DROP TABLE} of a partition, never a row-by-row
 * delete), and deletes {@code usage_rollups} minutes past {@code state.usage-rollups.retention},
 * {@code usage_rollups_hourly} hours past {@code state.usage-rollups.hourly-retention} and {@code
 * usage_rollups_daily} days past {@code state.usage-rollups.daily-retention} (a rollup row is
 * deleted once its whole interval is past its retention).
 * Which partitions to create and drop is route-core's {@link LogPartitions#plan}.
 *
 * <p>Every replica schedules the job; one runs it at a time: the round is one transaction that first
 * takes the transaction-level advisory lock {@link #LOCK_KEY} with {@code pg_try_advisory_xact_lock},
 * and a replica that does not get it skips the round. The lock ends with the transaction, so a replica
 * that dies mid-round holds nothing; a round is idempotent, so the next replica's round finishes
 * whatever a failed one left.
 *
 * <p>A row no daily partition covered when it was stored (far ahead of the clock) waits in {@code
 * request_logs_default}; creating its day's partition moves it there, straight into the partition,
 * so the rollups do not count it again. Rows in the default partition older than the retention are
 * deleted (there are few: only records that arrive after their day was dropped).
 */
@ApplicationScoped
public class LogMaintenance {

    /** The advisory lock of a maintenance round ("rlogs"). */
    public static final long LOCK_KEY = 0x726c6f6773L;

    /**
     * What a round did.
     *
     * @param ran false when another replica held the lock (nothing was done)
     */
    public record Round(
            boolean ran, List<String> created, List<String> dropped, long expiredRows, long expiredRollups) {}

    /** The rollup levels: table, time column, interval (ms). */
    private record Level(String table, String column, long unitMs) {}

    private static final Level HOURS = new Level("usage_rollups_hourly", "hour_epoch_ms", 3_600_000L);
    private static final Level DAYS = new Level("usage_rollups_daily", "day_epoch_ms", 86_400_000L);

    private static final Logger LOG = Logger.getLogger(LogMaintenance.class);

    private static final String PARTITIONS = "SELECT c.relname AS name FROM pg_inherits i"
            + " JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'request_logs'::regclass";

    private final Pool pool;
    private final StateConfig config;
    private final Clock clock;

    LogMaintenance(Pool pool, StateConfig config, Clock clock) {
        this.pool = pool;
        this.config = config;
        this.clock = clock;
    }

    @Scheduled(
            identity = "state-request-log-maintenance",
            every = "${state.request-logs.maintenance-every:10m}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return run(clock.instant())
                .onFailure()
                .invoke(failure ->
                        LOG.warnf("Request log maintenance failed, retried next round: %s", failure.toString()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /** One round as of {@code now}. */
    public Uni<Round> run(Instant now) {
        return pool.withTransaction(connection -> connection
                .preparedQuery("SELECT pg_try_advisory_xact_lock($1) AS locked")
                .execute(Tuple.of(LOCK_KEY))
                .flatMap(rows -> rows.iterator().next().getBoolean("locked")
                        ? maintain(connection, now)
                        : Uni.createFrom().item(new Round(false, List.of(), List.of(), 0, 0))));
    }

    private Uni<Round> maintain(SqlConnection connection, Instant now) {
        return connection.query(PARTITIONS).execute().flatMap(rows -> {
            List<LogPartitions.Day> existing = new ArrayList<>();
            for (Row row : rows) {
                LogPartitions.Day.ofName(row.getString("name")).ifPresent(existing::add);
            }
            LogPartitions.Plan plan = LogPartitions.plan(
                    now, config.requestLogs().retention(), config.requestLogs().daysAhead(), existing);
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (LogPartitions.Day day : plan.create()) {
                chain = chain.flatMap(ok -> create(connection, day));
            }
            for (LogPartitions.Day day : plan.drop()) {
                chain = chain.flatMap(ok ->
                        connection.query("DROP TABLE " + day.name()).execute().replaceWithVoid());
            }
            long rollupCutoff = now.minus(config.usageRollups().retention()).toEpochMilli();
            return chain.flatMap(ok -> connection
                            .preparedQuery("DELETE FROM request_logs_default WHERE occurred_epoch_ms < $1")
                            .execute(Tuple.of(plan.retentionCutoff().toEpochMilli())))
                    .flatMap(expired -> connection
                            .preparedQuery("DELETE FROM usage_rollups WHERE minute_epoch_ms < $1")
                            .execute(Tuple.of(rollupCutoff))
                            .flatMap(rollups -> expire(
                                            connection,
                                            HOURS,
                                            config.usageRollups().hourlyRetention(),
                                            now)
                                    .flatMap(hours -> expire(
                                            connection,
                                            DAYS,
                                            config.usageRollups().dailyRetention(),
                                            now))
                                    .replaceWith(rollups))
                            .map(rollups -> new Round(
                                    true,
                                    plan.create().stream()
                                            .map(LogPartitions.Day::name)
                                            .toList(),
                                    plan.drop().stream()
                                            .map(LogPartitions.Day::name)
                                            .toList(),
                                    expired.rowCount(),
                                    rollups.rowCount())))
                    .invoke(round -> {
                        if (!round.created().isEmpty() || !round.dropped().isEmpty()) {
                            LOG.infof(
                                    "Request log partitions created %s, dropped %s (retention %s)",
                                    round.created(),
                                    round.dropped(),
                                    config.requestLogs().retention());
                        }
                    });
        });
    }

    /** Deletes the level's rows whose whole interval ends at or before {@code now - retention}. */
    private static Uni<Integer> expire(
            SqlConnection connection, Level level, java.time.Duration retention, Instant now) {
        long cutoff = now.minus(retention).toEpochMilli();
        return connection
                .preparedQuery("DELETE FROM " + level.table() + " WHERE " + level.column() + " <= $1")
                .execute(Tuple.of(cutoff - level.unitMs()))
                .map(rows -> rows.rowCount());
    }

    /**
     * Creates a day's partition; rows of that day waiting in the default partition move into it (the
     * new partition's bounds would otherwise conflict with them), inserted into the partition itself so
     * the parent's fold trigger does not count them twice. Bounds are computed numbers, never text.
     */
    private static Uni<Void> create(SqlConnection connection, LogPartitions.Day day) {
        String range = " occurred_epoch_ms >= " + day.fromEpochMs() + " AND occurred_epoch_ms < " + day.toEpochMs();
        String partition = "CREATE TABLE " + day.name() + " PARTITION OF request_logs FOR VALUES FROM ("
                + day.fromEpochMs() + ") TO (" + day.toEpochMs() + ")";
        return connection
                .query("SELECT EXISTS (SELECT 1 FROM request_logs_default WHERE" + range + ") AS waiting")
                .execute()
                .flatMap(rows -> {
                    if (!rows.iterator().next().getBoolean("waiting")) {
                        return connection.query(partition).execute().replaceWithVoid();
                    }
                    String moving = "moving_" + day.name();
                    return connection
                            .query("CREATE TEMP TABLE " + moving
                                    + " ON COMMIT DROP AS SELECT * FROM request_logs_default" + " WHERE" + range)
                            .execute()
                            .flatMap(ok -> connection
                                    .query("DELETE FROM request_logs_default WHERE" + range)
                                    .execute())
                            .flatMap(ok -> connection.query(partition).execute())
                            .flatMap(ok -> connection
                                    .query("INSERT INTO " + day.name() + " SELECT * FROM " + moving)
                                    .execute())
                            .replaceWithVoid();
                });
    }
}
