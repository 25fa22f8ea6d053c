package io.routegateway.e2e.support;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import io.routegateway.core.event.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * Accounts for outcome events over one test: what was produced to {@code route.outcomes} for the
 * test's credentials since the mark (read back from the topic), what state-service applied ({@code
 * processed_events}), the successes it acknowledged without a record because they changed nothing
 * (an {@code attempt-succeeded.v1} below the committed offset of state-service's consumer group on
 * its partition), what it recognised as duplicates and what the gateway dropped (their metrics).
 */
public final class EventLedger {

    /** The consumer group of state-service's outcome channel. */
    static final String GROUP = "state-service";

    /**
     * The counts of one test: {@code applied} + {@code acknowledged} = {@code produced} when nothing
     * is {@code missing}.
     */
    public record Counts(
            int produced, int applied, int acknowledged, long duplicated, long dropped, Set<UUID> missing) {

        @Override
        public String toString() {
            return "events_produced=" + produced + " applied=" + applied + " acknowledged_no_op=" + acknowledged
                    + " duplicated=" + duplicated + " dropped=" + dropped;
        }
    }

    private final RouteSystem system;
    private final Map<TopicPartition, Long> mark;
    private final long duplicatesAtMark;
    private final long droppedAtMark;

    private EventLedger(RouteSystem system) {
        this.system = system;
        this.mark = system.outcomes().mark();
        this.duplicatesAtMark = duplicates(system);
        this.droppedAtMark = dropped(system);
    }

    public static EventLedger start(RouteSystem system) {
        return new EventLedger(system);
    }

    public Map<TopicPartition, Long> mark() {
        return mark;
    }

    /** The outcome events produced for these credentials since the mark. */
    public List<OutcomeTap.Outcome> produced(Collection<String> credentialIds) {
        return system.outcomes().readSince(mark, credentialIds);
    }

    /**
     * Waits (bounded) until every event produced for these credentials since the mark is applied, then
     * counts. Duplicates are counted since the mark unless state-service restarted in between
     * ({@code stateRestarted}: its counter then starts again at 0 in the new process).
     */
    public Counts settle(Collection<String> credentialIds, boolean stateRestarted) {
        return settle(credentialIds, stateRestarted, Duration.ofSeconds(60));
    }

    /** {@link #settle(Collection, boolean)} with a longer wait, for a backlog built up during a fault. */
    public Counts settle(Collection<String> credentialIds, boolean stateRestarted, Duration wait) {
        List<OutcomeTap.Outcome> outcomes = produced(credentialIds);
        Set<UUID> produced = outcomes.stream().map(OutcomeTap.Outcome::eventId).collect(Collectors.toSet());
        try {
            await("every produced outcome applied or acknowledged")
                    .atMost(wait)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> unaccounted(outcomes, system.database().processedEvents(credentialIds))
                            .isEmpty());
        } catch (ConditionTimeoutException e) {
            // counted below: the test asserts on the missing ones
        }
        Set<UUID> applied = system.database().processedEvents(credentialIds);
        Set<UUID> missing = unaccounted(outcomes, applied);
        applied.retainAll(produced);
        int acknowledged = produced.size() - applied.size() - missing.size();
        long duplicated = duplicates(system) - (stateRestarted ? 0 : duplicatesAtMark);
        return new Counts(
                produced.size(), applied.size(), acknowledged, duplicated, dropped(system) - droppedAtMark, missing);
    }

    /**
     * Produced events neither recorded as applied nor, for a success (which state-service
     * acknowledges unrecorded when it changes nothing), below the group's committed offset.
     */
    private Set<UUID> unaccounted(List<OutcomeTap.Outcome> outcomes, Set<UUID> applied) {
        Map<TopicPartition, Long> committed = committed();
        Set<UUID> missing = new HashSet<>();
        for (OutcomeTap.Outcome outcome : outcomes) {
            if (applied.contains(outcome.eventId())) {
                continue;
            }
            boolean acknowledged = "attempt-succeeded.v1".equals(outcome.type())
                    && outcome.offset()
                            < committed.getOrDefault(new TopicPartition(Topics.OUTCOMES, outcome.partition()), 0L);
            if (!acknowledged) {
                missing.add(outcome.eventId());
            }
        }
        return missing;
    }

    private Map<TopicPartition, Long> committed() {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, system.broker().bootstrapServers()))) {
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
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            // the group is being rebalanced or the broker is away: nothing counts as acknowledged yet
            return Map.of();
        }
    }

    static long duplicates(RouteSystem system) {
        return Metrics.of(system.state()).count("state_events_duplicate_total");
    }

    static long dropped(RouteSystem system) {
        return Metrics.of(system.gatewayProcess()).count("gateway_events_dropped_total");
    }

    /** Prints one summary line for a test: {@code E2E-SUMMARY <test>: k=v ...}. */
    public static void summary(String test, Object... parts) {
        StringBuilder line = new StringBuilder("E2E-SUMMARY ").append(test).append(':');
        for (Object part : parts) {
            line.append(' ').append(part);
        }
        System.out.println(line);
    }
}
