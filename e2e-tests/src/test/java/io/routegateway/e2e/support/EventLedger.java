package io.routegateway.e2e.support;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * Accounts for outcome events over one test: what was produced to {@code route.outcomes} for the
 * test's credentials since the mark (read back from the topic), what state-service applied ({@code
 * processed_events}), what it recognised as duplicates and what the gateway dropped (their metrics).
 */
public final class EventLedger {

    /** The counts of one test. */
    public record Counts(int produced, int applied, long duplicated, long dropped, Set<UUID> missing) {

        @Override
        public String toString() {
            return "events_produced=" + produced + " applied=" + applied + " duplicated=" + duplicated + " dropped="
                    + dropped;
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
        Set<UUID> produced = produced(credentialIds).stream()
                .map(OutcomeTap.Outcome::eventId)
                .collect(Collectors.toSet());
        try {
            await("every produced outcome applied")
                    .atMost(wait)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() ->
                            system.database().processedEvents(credentialIds).containsAll(produced));
        } catch (ConditionTimeoutException e) {
            // counted below: the test asserts on the missing ones
        }
        Set<UUID> applied = system.database().processedEvents(credentialIds);
        Set<UUID> missing = new HashSet<>(produced);
        missing.removeAll(applied);
        applied.retainAll(produced);
        long duplicated = duplicates(system) - (stateRestarted ? 0 : duplicatesAtMark);
        return new Counts(produced.size(), applied.size(), duplicated, dropped(system) - droppedAtMark, missing);
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
