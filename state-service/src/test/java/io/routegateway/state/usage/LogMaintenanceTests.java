package io.routegateway.state.usage;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.usage.LogPartitions;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request-log partitions against real PostgreSQL: created ahead of the clock, dropped past
 * retention (the rows with them, the rollups kept), rows ahead of every partition moved into their
 * day without being counted twice, and one round at a time across replicas.
 */
@QuarkusTest
class LogMaintenanceTests {

    /** The configured defaults: 30 days of raw rows, 3 days ahead, 400 days of rollups. */
    static final Duration RETENTION = Duration.ofDays(30);

    static final int DAYS_AHEAD = 3;

    @Inject
    Pool pool;

    @Inject
    LogMaintenance maintenance;

    @Test
    void partitionsAreCreatedAheadAndDroppedPastRetention() {
        Instant now = Instant.now();
        Instant longAgo = now.minus(RETENTION).minus(Duration.ofDays(10));
        // a round as of then creates that day's partition (and the days after it), like a replica did then
        LogMaintenance.Round past = await(() -> maintenance.run(longAgo));
        assertThat(past.ran()).isTrue();
        LogPartitions.Day oldDay = LogPartitions.Day.of(longAgo);
        assertThat(partitions()).contains(oldDay.name());

        String team = unique("team");
        List<Traffic.Raw> old = Traffic.random(new Random(3), team, longAgo.minusSeconds(3600), 1, 50).stream()
                .filter(row -> LogPartitions.Day.of(Instant.ofEpochMilli(row.epochMs()))
                        .equals(oldDay))
                .toList();
        Traffic.insert(pool, old);
        assertThat(count("SELECT count(*) FROM " + oldDay.name() + " WHERE team_id = $1", team))
                .isEqualTo(old.size());
        long rollupsBefore = count("SELECT coalesce(sum(requests), 0) FROM usage_rollups WHERE team_id = $1", team);
        assertThat(rollupsBefore).isEqualTo(old.size());

        LogMaintenance.Round round = await(() -> maintenance.run(now));
        assertThat(round.ran()).isTrue();
        List<String> kept = partitions();
        assertThat(round.dropped()).contains(oldDay.name());
        assertThat(kept).doesNotContain(oldDay.name());
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        for (int i = 0; i <= DAYS_AHEAD; i++) {
            assertThat(kept).contains(new LogPartitions.Day(today.plusDays(i)).name());
        }
        // every kept daily partition is inside retention
        for (String name : kept) {
            LogPartitions.Day.ofName(name)
                    .ifPresent(day -> assertThat(day.toEpochMs())
                            .isGreaterThan(now.minus(RETENTION).toEpochMilli()));
        }
        assertThat(count("SELECT count(*) FROM request_logs WHERE team_id = $1", team))
                .isZero();
        // the rollups outlive the raw rows
        assertThat(count("SELECT coalesce(sum(requests), 0) FROM usage_rollups WHERE team_id = $1", team))
                .isEqualTo(rollupsBefore);

        // a second round has nothing left to do
        LogMaintenance.Round again = await(() -> maintenance.run(now));
        assertThat(again.created()).isEmpty();
        assertThat(again.dropped()).isEmpty();
    }

    @Test
    void aRowAheadOfEveryPartitionWaitsInTheDefaultAndMovesIntoItsDayCountedOnce() {
        Instant now = Instant.now();
        Instant ahead = now.plus(Duration.ofDays(DAYS_AHEAD + 20));
        LogPartitions.Day day = LogPartitions.Day.of(ahead);
        String team = unique("team");
        List<Traffic.Raw> rows = Traffic.random(new Random(5), team, ahead, 1, 20).stream()
                .filter(row -> LogPartitions.Day.of(Instant.ofEpochMilli(row.epochMs()))
                        .equals(day))
                .toList();
        Traffic.insert(pool, rows);
        assertThat(count("SELECT count(*) FROM request_logs_default WHERE team_id = $1", team))
                .isEqualTo(rows.size());

        LogMaintenance.Round round = await(() -> maintenance.run(ahead));
        assertThat(round.created()).contains(day.name());
        assertThat(count("SELECT count(*) FROM request_logs_default WHERE team_id = $1", team))
                .isZero();
        assertThat(count("SELECT count(*) FROM " + day.name() + " WHERE team_id = $1", team))
                .isEqualTo(rows.size());
        assertThat(count("SELECT coalesce(sum(requests), 0) FROM usage_rollups WHERE team_id = $1", team))
                .isEqualTo(rows.size());
        // a redelivery now meets the moved row in its partition
        Traffic.insert(pool, rows);
        assertThat(count("SELECT count(*) FROM request_logs WHERE team_id = $1", team))
                .isEqualTo(rows.size());
        assertThat(count("SELECT coalesce(sum(requests), 0) FROM usage_rollups WHERE team_id = $1", team))
                .isEqualTo(rows.size());
    }

    @Test
    void rowsInTheDefaultPastRetentionAndRollupsPastTheirsAreDeleted() {
        Instant now = Instant.now();
        Instant veryOld = now.minus(Duration.ofDays(401));
        String team = unique("team");
        List<Traffic.Raw> rows = Traffic.random(new Random(9), team, veryOld, 1, 10);
        Traffic.insert(pool, rows);
        assertThat(count("SELECT count(*) FROM request_logs_default WHERE team_id = $1", team))
                .isEqualTo(rows.size());
        await(() -> maintenance.run(now));
        assertThat(count("SELECT count(*) FROM request_logs WHERE team_id = $1", team))
                .isZero();
        assertThat(count("SELECT count(*) FROM usage_rollups WHERE team_id = $1", team))
                .isZero();
    }

    @Test
    void aRoundSkipsWhileAnotherReplicaRunsOne() {
        Instant now = Instant.now();
        LogMaintenance.Round skipped =
                await(() -> pool.withTransaction(other -> other.preparedQuery("SELECT pg_advisory_xact_lock($1)")
                        .execute(Tuple.of(LogMaintenance.LOCK_KEY))
                        .flatMap(locked -> maintenance.run(now))));
        assertThat(skipped.ran()).isFalse();
        assertThat(await(() -> maintenance.run(now)).ran()).isTrue();
    }

    List<String> partitions() {
        List<String> names = new ArrayList<>();
        for (Row row : await(() -> pool.query("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid ="
                        + " i.inhrelid WHERE i.inhparent = 'request_logs'::regclass")
                .execute())) {
            names.add(row.getString(0));
        }
        return names;
    }

    long count(String sql, String value) {
        return await(() -> pool.preparedQuery(sql).execute(Tuple.of(value)))
                .iterator()
                .next()
                .getLong(0);
    }
}
