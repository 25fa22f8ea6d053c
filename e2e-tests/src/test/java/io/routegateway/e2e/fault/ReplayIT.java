package io.routegateway.e2e.fault;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.routegateway.core.event.Topics;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.Load;
import io.routegateway.e2e.support.Metrics;
import io.routegateway.e2e.support.OutcomeTap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Idempotency: with state-service stopped, its consumer group is reset to the beginning of {@code
 * route.outcomes} (Kafka Admin client); started again it re-reads every event ever produced, and the
 * stored state does not change: every replayed event is a recognised duplicate, except successes,
 * which the fast path answers first — a no-op again, or stale where a later change is stored (a
 * success acknowledged unrecorded must not clear a failure that came after it).
 */
class ReplayIT extends EndToEndTest {

    /** The consumer group of state-service's outcome channel. */
    private static final String GROUP = "state-service";

    @Test
    void replayingThePartitionsFromOffsetZeroChangesNoState() throws Exception {
        MixedTraffic traffic = MixedTraffic.create(system);
        EventLedger ledger = EventLedger.start(system);
        try (Load load = Load.start(system.gateway(), traffic.accessKey(), MixedTraffic.MODELS, 2)) {
            load.awaitMore(40);
        }
        system.demo().reset(traffic.flaky());
        EventLedger.Counts before = ledger.settle(traffic.credentials(), false);
        assertThat(before.missing()).isEmpty();

        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, system.broker().bootstrapServers()))) {
            Map<TopicPartition, Long> applied = endOffsets(admin);
            await("state-service has committed everything")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> reached(committed(admin), applied));
            system.state().stop();
            Snapshot stored = Snapshot.of(traffic.credentials());

            await("the group is empty")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> admin.describeConsumerGroups(List.of(GROUP))
                            .all()
                            .get(10, TimeUnit.SECONDS)
                            .get(GROUP)
                            .members()
                            .isEmpty());
            Map<TopicPartition, Long> end = endOffsets(admin);
            Map<TopicPartition, OffsetAndMetadata> beginning = new HashMap<>();
            end.keySet().forEach(partition -> beginning.put(partition, new OffsetAndMetadata(0)));
            admin.alterConsumerGroupOffsets(GROUP, beginning).all().get(30, TimeUnit.SECONDS);
            assertThat(committed(admin).values()).containsOnly(0L);

            // every event applied before the stop must come back as a duplicate
            List<OutcomeTap.Outcome> replayed = system.outcomes().readSince(null);
            Set<UUID> replayedIds =
                    replayed.stream().map(OutcomeTap.Outcome::eventId).collect(Collectors.toSet());
            Set<Object> appliedIds = system
                    .database()
                    .query("SELECT event_id FROM processed_events WHERE event_id = ANY (?::uuid[])", (Object)
                            replayedIds.stream().map(UUID::toString).toArray(String[]::new))
                    .stream()
                    .map(row -> row.get("event_id"))
                    .collect(Collectors.toSet());
            // per message: an event Kafka holds twice (a producer retry) is a duplicate twice
            long appliedBefore = replayed.stream()
                    .filter(outcome -> appliedIds.contains(outcome.eventId()))
                    .count();
            // a recorded success may end as a no-op or stale instead (the success fast path answers
            // before the idempotency table); every other recorded event is a duplicate
            long appliedBeforeOtherThanSuccesses = replayed.stream()
                    .filter(outcome -> appliedIds.contains(outcome.eventId()))
                    .filter(outcome -> !"attempt-succeeded.v1".equals(outcome.type()))
                    .count();

            system.state().start();
            system.state().awaitReady(Duration.ofMinutes(3));
            await("state-service re-read the partitions")
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> reached(committed(admin), end));
            Metrics metrics = Metrics.of(system.state());
            long duplicates = metrics.count("state_events_duplicate_total");
            long stale = metrics.count("state_events_stale_total");
            long noOps = metrics.count("state_events_applied_total", "result=\"noop\"");
            long changed = metrics.count("state_events_applied_total", "result=\"changed\"");
            long deadLettered = metrics.count("state_events_dead_lettered_total");
            Snapshot after = Snapshot.of(traffic.credentials());

            EventLedger.summary(
                    "ReplayIT",
                    "replayed=" + replayed.size(),
                    "applied_before=" + appliedBefore,
                    "duplicated=" + duplicates,
                    "stale=" + stale,
                    "no_op=" + noOps,
                    "events_produced=" + before.produced(),
                    "applied=" + before.applied(),
                    "dropped=" + before.dropped(),
                    "rows_compared=" + stored.rows());
            assertThat(after).as("stored state after the replay").isEqualTo(stored);
            assertThat(changed).as("no replayed event changes state").isZero();
            assertThat(duplicates + stale + noOps + deadLettered)
                    .as("every replayed message is a duplicate, a stale or no-op success, or poison again")
                    .isEqualTo(replayed.size());
            assertThat(duplicates)
                    .as("every replayed, already applied event other than a success is a duplicate")
                    .isBetween(appliedBeforeOtherThanSuccesses, appliedBefore);
        } finally {
            system.ensureRunning();
        }
    }

    /** Everything state-service stored about the pool's credentials, and its idempotency records. */
    private record Snapshot(
            List<Map<String, Object>> credentials,
            List<Map<String, Object>> models,
            long processedEvents,
            long timelineLines) {

        static Snapshot of(List<String> credentialIds) {
            String[] ids = credentialIds.toArray(String[]::new);
            return new Snapshot(
                    system.database()
                            .query("SELECT * FROM route_credentials WHERE id = ANY (?) ORDER BY id", (Object) ids),
                    system.database()
                            .query(
                                    "SELECT * FROM route_credential_models WHERE route_credential_id = ANY (?)"
                                            + " ORDER BY route_credential_id, model_key",
                                    (Object) ids),
                    system.database()
                            .count("SELECT count(*) FROM processed_events WHERE credential_id = ANY (?)", (Object) ids),
                    system.database()
                            .count(
                                    "SELECT count(*) FROM credential_health_timeline WHERE credential_id = ANY (?)",
                                    (Object) ids));
        }

        int rows() {
            return credentials.size() + models.size();
        }
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(List.of(Topics.OUTCOMES))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(Topics.OUTCOMES)
                .partitions()
                .forEach(
                        info -> latest.put(new TopicPartition(Topics.OUTCOMES, info.partition()), OffsetSpec.latest()));
        Map<TopicPartition, Long> end = new HashMap<>();
        admin.listOffsets(latest)
                .all()
                .get(10, TimeUnit.SECONDS)
                .forEach((partition, info) -> end.put(partition, info.offset()));
        return end;
    }

    private static boolean reached(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> target) {
        return target.entrySet().stream()
                .allMatch(entry -> committed.getOrDefault(entry.getKey(), 0L) >= entry.getValue());
    }

    private static Map<TopicPartition, Long> committed(Admin admin) throws Exception {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        admin.listConsumerGroupOffsets(GROUP)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS)
                .forEach((partition, offset) -> {
                    if (partition.topic().equals(Topics.OUTCOMES) && offset != null) {
                        offsets.put(partition, offset.offset());
                    }
                });
        return offsets;
    }
}
