package io.routegateway.state.outcome;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Measurement, not a pass/fail timing check: what a success that changes nothing costs
 * state-service, against an outcome that changes state. Two runs through the real broker into
 * PostgreSQL on a single-partition topic (one applier), after a warm-up of each kind: {@value
 * #NO_OPS} successes on healthy credentials, then {@value #CHANGES} outcomes that each change state
 * (failure and success alternating per credential, as in {@link OutcomeThroughputIT}). Rates are
 * from the first send to the applier's counter reaching the count (polled every 50 ms). Database
 * work is read from PostgreSQL's own statistics for the test database ({@code pg_stat_database},
 * {@code pg_stat_user_tables}), with the background rate of an idle interval of the same service
 * (the outbox relay's poll) subtracted from the transaction count. Prints the figures and writes
 * them to {@code target/noop-success-throughput.txt}. Run alone with {@code mvn -pl state-service
 * verify -Dit.test=NoOpSuccessThroughputIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusTest
@TestProfile(NoOpSuccessThroughputIT.SinglePartitionProfile.class)
class NoOpSuccessThroughputIT {

    /** The outcome channel reads a topic this test creates with exactly one partition. */
    public static class SinglePartitionProfile implements QuarkusTestProfile {

        static final String TOPIC = "route.outcomes.bench-noop";

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "mp.messaging.incoming.outcomes.topic", TOPIC,
                    "mp.messaging.incoming.outcomes.allow.auto.create.topics", "false",
                    "mp.messaging.incoming.outcomes.metadata.max.age.ms", "1000");
        }
    }

    private static final int NO_OPS = 10_000;
    private static final int CHANGES = 5_000;
    private static final int WARM_UP = 1_000;
    private static final int CREDENTIALS = 100;
    /** PostgreSQL flushes a backend's statistics at most once a second, an idle one after 10 s. */
    private static final Duration STATS_SETTLE = Duration.ofSeconds(12);

    @Inject
    SecretBox secretBox;

    @Inject
    MeterRegistry registry;

    @Inject
    Pool pool;

    /** Counters of the test database; {@code at} is when they were read. */
    record Stats(
            Instant at,
            long transactions,
            long rowsWritten,
            long credentialReads,
            long modelReads,
            long processedReads,
            long outboxReads) {

        Stats minus(Stats earlier) {
            return new Stats(
                    at,
                    transactions - earlier.transactions,
                    rowsWritten - earlier.rowsWritten,
                    credentialReads - earlier.credentialReads,
                    modelReads - earlier.modelReads,
                    processedReads - earlier.processedReads,
                    outboxReads - earlier.outboxReads);
        }

        double seconds(Stats earlier) {
            return Duration.between(earlier.at, at).toNanos() / 1e9;
        }
    }

    @Test
    void measuresNoOpSuccessesAgainstStateChanges() throws Exception {
        createSinglePartitionTopic();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < CREDENTIALS; i++) {
            ids.add(OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-bench-noop-" + i));
        }
        Instant base = Instant.parse("2026-08-01T00:00:00Z");
        Counter noOps = registry.counter(StateMetrics.EVENTS_APPLIED, "result", "noop");
        Counter changed = registry.counter(StateMetrics.EVENTS_APPLIED, "result", "changed");

        // warm-up of both paths, then the background rate of an idle service
        run(WARM_UP, i -> OutcomeFixtures.success(ids.get(i % CREDENTIALS), base.plusMillis(i), "upstream-glm"), noOps);
        run(WARM_UP, i -> changing(ids, base.plusSeconds(10).plusMillis(i), i), changed);
        Thread.sleep(STATS_SETTLE.toMillis());
        Stats idleStart = stats();
        Thread.sleep(STATS_SETTLE.toMillis());
        Stats idleEnd = stats();
        double backgroundPerSecond = idleEnd.minus(idleStart).transactions / idleEnd.seconds(idleStart);

        // the changing warm-up ended on successes: every credential is healthy again
        Stats noOpStart = stats();
        double noOpSeconds = run(
                NO_OPS,
                i -> OutcomeFixtures.success(
                        ids.get(i % CREDENTIALS), base.plusSeconds(60).plusMillis(i), "upstream-sol"),
                noOps);
        Thread.sleep(STATS_SETTLE.toMillis());
        Stats noOpEnd = stats();

        Stats changeStart = stats();
        double changeSeconds =
                run(CHANGES, i -> changing(ids, base.plusSeconds(120).plusMillis(i), i), changed);
        Thread.sleep(STATS_SETTLE.toMillis());
        Stats changeEnd = stats();

        StringBuilder report = new StringBuilder();
        report.append(
                String.format(Locale.ROOT, "background (idle service) %.2f transactions/s%n", backgroundPerSecond));
        report.append(line(
                "no-op successes",
                NO_OPS,
                noOpSeconds,
                noOpEnd.minus(noOpStart),
                noOpEnd.seconds(noOpStart),
                backgroundPerSecond));
        report.append(line(
                "state changes",
                CHANGES,
                changeSeconds,
                changeEnd.minus(changeStart),
                changeEnd.seconds(changeStart),
                backgroundPerSecond));
        System.out.print(report);
        write(report.toString());

        Stats noOpDelta = noOpEnd.minus(noOpStart);
        assertThat(noOps.count()).isGreaterThanOrEqualTo(WARM_UP + NO_OPS);
        // the idle service's own rounds (outbox poll, retention) may touch a row in the window; a
        // fast path that recorded or wrote per event would show at least NO_OPS here
        assertThat(noOpDelta.processedReads + noOpDelta.rowsWritten)
                .as("no-op successes neither record nor write anything")
                .isLessThan(NO_OPS / 100);
    }

    /** Failure and success alternating per credential: every one changes state. */
    private static CredentialEvent changing(List<String> ids, Instant at, int i) {
        String id = ids.get(i % CREDENTIALS);
        return (i / CREDENTIALS) % 2 == 0
                ? OutcomeFixtures.failure(id, at, "upstream-sol")
                : OutcomeFixtures.success(id, at, "upstream-sol");
    }

    /** Sends {@code count} events up front and waits until the applier counted them; answers seconds. */
    private static double run(int count, IntFunction<CredentialEvent> event, Counter counter) {
        double before = counter.count();
        long start = System.nanoTime();
        try (KafkaProducer<String, String> producer = TestKafka.producer()) {
            for (int i = 0; i < count; i++) {
                CredentialEvent next = event.apply(i);
                producer.send(new ProducerRecord<>(SinglePartitionProfile.TOPIC, next.credentialId(), json(next)));
            }
            producer.flush();
        }
        await().atMost(Duration.ofMinutes(45))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> counter.count() - before >= count);
        return (System.nanoTime() - start) / 1e9;
    }

    private static String line(
            String name, int count, double seconds, Stats delta, double window, double backgroundPerSecond) {
        double transactions = delta.transactions - backgroundPerSecond * window;
        return String.format(
                Locale.ROOT,
                "%s: %d in %.2f s = %.0f events/s; per event: %.2f transactions (%.0f measured, %.0f background"
                        + " over %.1f s), %.2f rows written, %.2f route_credentials scans, %.2f route_credential_models"
                        + " scans, %.2f processed_events scans, %.2f state_outbox scans%n",
                name,
                count,
                seconds,
                count / seconds,
                transactions / count,
                (double) delta.transactions,
                backgroundPerSecond * window,
                window,
                (double) delta.rowsWritten / count,
                (double) delta.credentialReads / count,
                (double) delta.modelReads / count,
                (double) delta.processedReads / count,
                (double) delta.outboxReads / count);
    }

    private Stats stats() {
        Row row = OutcomeFixtures.await(() -> pool.query("SELECT pg_stat_clear_snapshot()")
                .execute()
                .flatMap(ignored -> pool.query("SELECT"
                                + " (SELECT xact_commit + xact_rollback FROM pg_stat_database"
                                + "   WHERE datname = current_database()) AS transactions,"
                                + " (SELECT tup_inserted + tup_updated + tup_deleted FROM pg_stat_database"
                                + "   WHERE datname = current_database()) AS written,"
                                + scans("route_credentials") + " AS credentials,"
                                + scans("route_credential_models") + " AS models,"
                                + scans("processed_events") + " AS processed,"
                                + scans("state_outbox") + " AS outbox")
                        .execute())
                .map(rows -> rows.iterator().next()));
        return new Stats(
                Instant.now(),
                row.getLong("transactions"),
                row.getLong("written"),
                row.getLong("credentials"),
                row.getLong("models"),
                row.getLong("processed"),
                row.getLong("outbox"));
    }

    private static String scans(String table) {
        return " (SELECT coalesce(idx_scan, 0) + coalesce(seq_scan, 0) FROM pg_stat_user_tables WHERE relname = '"
                + table + "')";
    }

    private static void createSinglePartitionTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrap()))) {
            try {
                admin.createTopics(List.of(new NewTopic(SinglePartitionProfile.TOPIC, 1, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        }
    }

    private static void write(String report) throws IOException {
        Path target = Path.of("target", "noop-success-throughput.txt");
        Files.createDirectories(target.getParent());
        Files.writeString(target, report);
    }
}
