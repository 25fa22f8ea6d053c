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
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.repository.ProcessedEventEntity;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
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
 * Measurement, not a pass/fail timing check: 10,000 outcome events produced up front onto a
 * single-partition outcome topic (the broker's default is 3 partitions, so the channel reads a topic
 * this test creates with one), then the time from the first to the last apply (from
 * {@code processed_events.applied_at}) and the publication lag percentiles of the relay. Prints the
 * figures and writes them to {@code target/outcome-throughput.txt}. Run alone with {@code mvn -pl
 * state-service verify -Dit.test=OutcomeThroughputIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusTest
@TestProfile(OutcomeThroughputIT.SinglePartitionProfile.class)
class OutcomeThroughputIT {

    /** The outcome channel reads a topic this test creates with exactly one partition. */
    public static class SinglePartitionProfile implements QuarkusTestProfile {

        static final String TOPIC = "route.outcomes.bench";

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "mp.messaging.incoming.outcomes.topic", TOPIC,
                    // wait for the test to create the topic instead of auto-creating it with the broker's default
                    "mp.messaging.incoming.outcomes.allow.auto.create.topics", "false",
                    "mp.messaging.incoming.outcomes.metadata.max.age.ms", "1000");
        }
    }

    private static final int EVENTS = 10_000;
    private static final int CREDENTIALS = 100;

    @Inject
    SecretBox secretBox;

    @Inject
    MeterRegistry registry;

    @Test
    void appliesTenThousandEvents() throws Exception {
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
            int partitions = admin.describeTopics(List.of(SinglePartitionProfile.TOPIC))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(SinglePartitionProfile.TOPIC)
                    .partitions()
                    .size();
            assertThat(partitions).as("partitions of the measured topic").isEqualTo(1);
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < CREDENTIALS; i++) {
            ids.add(OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-bench-" + i));
        }
        Instant base = Instant.parse("2026-08-01T00:00:00Z");
        List<CredentialEvent> events = new ArrayList<>(EVENTS);
        for (int i = 0; i < EVENTS; i++) {
            String id = ids.get(i % CREDENTIALS);
            Instant at = base.plusMillis(i);
            // alternate failure and success per credential: every event changes state and publishes
            events.add(
                    (i / CREDENTIALS) % 2 == 0
                            ? OutcomeFixtures.failure(id, at, "upstream-sol")
                            : OutcomeFixtures.success(id, at, "upstream-sol"));
        }
        long lagCountBefore = lag().count();
        try (KafkaProducer<String, String> producer = TestKafka.producer()) {
            for (CredentialEvent event : events) {
                producer.send(new ProducerRecord<>(SinglePartitionProfile.TOPIC, event.credentialId(), json(event)));
            }
            producer.flush();
        }
        UUID first = events.get(0).eventId();
        UUID last = events.get(EVENTS - 1).eventId();
        await().atMost(Duration.ofMinutes(45))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> appliedCount(ids) == EVENTS);
        await().atMost(Duration.ofMinutes(2)).until(() -> lag().count() - lagCountBefore >= CREDENTIALS);

        Instant firstApplied = appliedAt(ids, true);
        Instant lastApplied = appliedAt(ids, false);
        double seconds = Duration.between(firstApplied, lastApplied).toNanos() / 1e9;
        Timer lag = lag();
        StringBuilder report = new StringBuilder();
        report.append(String.format(
                Locale.ROOT,
                "events=%d credentials=%d first->last apply=%.2f s rate=%.0f events/s%n",
                EVENTS,
                CREDENTIALS,
                seconds,
                (EVENTS - 1) / seconds));
        for (ValueAtPercentile percentile : lag.takeSnapshot().percentileValues()) {
            report.append(String.format(
                    Locale.ROOT,
                    "publication lag p%.0f=%.1f ms%n",
                    percentile.percentile() * 100,
                    percentile.value(TimeUnit.MILLISECONDS)));
        }
        report.append(String.format(
                Locale.ROOT,
                "publication lag max=%.1f ms count=%d (whole run)%n",
                lag.max(TimeUnit.MILLISECONDS),
                lag.count()));
        Timer apply = registry.timer(StateMetrics.EVENTS_APPLY);
        for (ValueAtPercentile percentile : apply.takeSnapshot().percentileValues()) {
            report.append(String.format(
                    Locale.ROOT,
                    "apply transaction p%.0f=%.2f ms%n",
                    percentile.percentile() * 100,
                    percentile.value(TimeUnit.MILLISECONDS)));
        }
        System.out.print(report);
        write(report.toString());
        assertThat(first).isNotEqualTo(last);
        assertThat(appliedCount(ids)).isEqualTo(EVENTS);
    }

    private Timer lag() {
        return registry.timer("state.outbox.publication.lag");
    }

    private static long appliedCount(List<String> ids) {
        return OutcomeFixtures.inSession(() -> ProcessedEventEntity.count("credentialId in ?1", ids));
    }

    private static Instant appliedAt(List<String> ids, boolean first) {
        List<ProcessedEventEntity> rows = OutcomeFixtures.inSession(
                () -> ProcessedEventEntity.<ProcessedEventEntity>list("credentialId in ?1", ids));
        return rows.stream()
                .map(row -> row.appliedAt)
                .reduce((left, right) ->
                        first ? (left.isBefore(right) ? left : right) : (left.isAfter(right) ? left : right))
                .orElseThrow();
    }

    private static void write(String report) throws IOException {
        Path target = Path.of("target", "outcome-throughput.txt");
        Files.createDirectories(target.getParent());
        Files.writeString(target, report);
    }
}
